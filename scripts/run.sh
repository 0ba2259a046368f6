#!/usr/bin/env bash
# One entry point for a fresh machine (Python 3.11, pip, venv): creates .venv, installs the
# project with the extras the task needs (and no more), then runs it.
#   bash scripts/run.sh demo    # the main job: a rendered game between shipped agents; installs
#                               # the core alone (numpy, gymnasium, pettingzoo; engine compiled)
#   bash scripts/run.sh test    # the whole test suite, then the scenario and rules suites again
#                               # on the Python build of the engine (docs/engine.md); installs
#                               # the dev and train extras (README.md "Install")
#   bash scripts/run.sh bench   # scripts/bench.py on the core install
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
cmd="${1:-test}"
shift || true
case "$cmd" in
  test) extras="[dev,train]" kind=test ;;
  demo|bench) extras="" kind=core ;;
  *) echo "usage: bash scripts/run.sh demo|test|bench" >&2; exit 2 ;;
esac
# one install stamp per set of extras and pyproject.toml: the test install is a superset of the
# core one, so after it a demo installs nothing more
hash=$(sha1sum pyproject.toml | cut -c1-12)
stamp="$VENV/.installed-$kind-$hash"
if [ ! -x "$PY" ]; then
  python3 -m venv "$VENV"
fi
if [ ! -f "$stamp" ] && { [ "$kind" = test ] || [ ! -f "$VENV/.installed-test-$hash" ]; }; then
  # the core install keeps the venv's own pip (3.11's is new enough for an editable install);
  # upgrading it costs seconds the demo's one-minute install does not have (README "Install")
  [ "$kind" = test ] && "$PY" -m pip install -q --upgrade pip
  "$PY" -m pip install -q -e ".$extras"
  rm -f "$VENV/.installed-$kind-"*
  touch "$stamp"
fi
# The engine is compiled in place by the editable install (setup.py): after its sources change,
# compile it again (a stale build would otherwise fall back to Python with a warning).
build=$("$PY" -c "import hostwcg_env.engine as e; print(e.BUILD)" 2>/dev/null || true)
case "$build" in
  *"sources changed"*) "$PY" -m pip install -q --no-deps -e . ;;
esac
case "$cmd" in
  demo)
    agents=heuristic,random
    [ -f agents/checkpoints/ppo_hostwcg_v0.npz ] && agents=heuristic,ppo
    "$VENV/bin/hostwcg" demo --agents "$agents" --seed 7 "$@"
    echo
    echo "=== a short balance report (heuristic self-play, 3 decks, 10 games per pair) ==="
    exec "$VENV/bin/hostwcg" balance --decks brae karsh lior --games 10 --agent heuristic \
      --out runs/demo-balance --fresh --quiet ;;
  test)
    # the compiled engine where the install compiled it, else the Python one
    expect=$("$PY" -c "import hostwcg_env.engine as e; print('compiled' if e.compiled() else 'pure')")
    echo "=== the whole suite, engine build: $expect ==="
    HOSTWCG_EXPECT_BUILD="$expect" "$PY" -m pytest -n auto -p no:cacheprovider "$@"
    if [ "$expect" = compiled ] && [ $# -eq 0 ]; then
      echo "=== the scenario and rules suites again on the Python build (HOSTWCG_PURE=1) ==="
      HOSTWCG_PURE=1 HOSTWCG_EXPECT_BUILD=pure exec "$PY" -m pytest -n auto -p no:cacheprovider \
        tests/rules tests/test_scenarios.py tests/test_scenarios_s001_s110.py \
        tests/test_scenarios_s193_s281.py tests/test_build.py \
        tests/test_travel.py::test_frozen_dataclasses_take_their_fields_in_order
    fi ;;
  bench) exec "$PY" scripts/bench.py "$@" ;;
esac
