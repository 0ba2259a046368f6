#!/usr/bin/env bash
# Builds .venv-bench: the project plus the peer environments the benchmark compares against
# (shared/peers/README.md): PettingZoo classic (leduc_holdem_v4, connect_four_v3) and gym-locm.
# Kept apart from .venv because gym-locm wants a newer gymnasium than Ray RLlib allows.
# The editable install compiles the engine with mypyc (setup.py), so bench.py can put the
# compiled and the Python build of this commit side by side (docs/engine.md).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-bench
if [ ! -f "$VENV/.ready" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  "$VENV/bin/pip" install -q -e . "pettingzoo[classic]==1.27.0" rlcard
  "$VENV/bin/pip" install -q --ignore-requires-python gym-locm==2.0.0b1
  # gym-locm's wheel lacks two data files it reads at start-up (shared/peers/README.md).
  res=$("$VENV/bin/python" -c "import gym_locm, os; print(os.path.join(os.path.dirname(gym_locm.__file__), 'engine', 'resources'))" 2>/dev/null || true)
  peers="${PEERS_DIR:-../shared/peers/gym-locm-resources}"
  if [ -n "$res" ] && [ -d "$peers" ]; then
    mkdir -p "$res"
    cp "$peers/cardlist.txt" "$peers/cardWeights.json" "$res/"
  fi
  touch "$VENV/.ready"
fi
build=$("$VENV/bin/python" -c "import hostwcg_env.engine as e; print(e.BUILD)" 2>/dev/null || true)
case "$build" in
  *"sources changed"*) "$VENV/bin/pip" install -q --no-deps -e . ;;  # compile the edited engine
esac
exec "$VENV/bin/python" scripts/bench.py "$@"
