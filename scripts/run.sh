#!/usr/bin/env bash
# One entry point for a fresh machine (Python 3.11, pip, venv): creates .venv, installs the
# project with the extras the task needs, then runs it.
#   bash scripts/run.sh demo    # the main job: a rendered game between shipped agents
#   bash scripts/run.sh test    # the whole test suite
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
stamp="$VENV/.installed-$(sha1sum pyproject.toml | cut -c1-12)"
if [ ! -x "$PY" ]; then
  python3 -m venv "$VENV"
fi
if [ ! -f "$stamp" ]; then
  "$PY" -m pip install -q --upgrade pip
  "$PY" -m pip install -q -e ".[dev,train]"
  rm -f "$VENV"/.installed-*
  touch "$stamp"
fi
cmd="${1:-test}"
shift || true
case "$cmd" in
  demo)
    agents=heuristic,random
    [ -f agents/checkpoints/ppo_hostwcg_v0.npz ] && agents=heuristic,ppo
    "$VENV/bin/hostwcg" demo --agents "$agents" --seed 7 "$@"
    echo
    echo "=== a short balance report (heuristic self-play, 3 decks, 10 games per pair) ==="
    exec "$VENV/bin/hostwcg" balance --decks brae karsh lior --games 10 --agent heuristic \
      --out runs/demo-balance --fresh --quiet ;;
  test) exec "$PY" -m pytest -n auto -p no:cacheprovider "$@" ;;
  bench) exec "$PY" scripts/bench.py "$@" ;;
  *) echo "usage: bash scripts/run.sh demo|test|bench" >&2; exit 2 ;;
esac
