"""Memory flat in the number of games.

The ladder's report is summed as games finish (``analysis/tally.py``) and its schedule made a
game at a time (``ladder.Schedule``); a balance study's schedule too (``Study.spec``). Each
check runs the command in a fresh process and reads its peak resident memory
(``ru_maxrss``), at a small and a large number of games:

* ``evaluate`` of 1,000 and of 20,000 games, the games played by a stand-in runner that returns
  a copy of a real random-vs-random record (the report's memory is what is measured, not
  the speed of the engine: 20,000 real games take minutes here);
* ``ladder`` of a results file of 1,000 and of 20,000 records;
* ``evaluate`` of 200 and of 1,200 real random-vs-random games (slow);
* ``evaluate --games 10**12`` (one game of it, by ``--shard``) and ``balance --games 10**12
  --stop-after 1`` start at once, under a 4 GiB address-space limit.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT_MB = 10  # what the peak may grow from the small run to the large one

STAND_IN = r"""
import copy, json, resource, sys
from hostwcg_env.analysis import backends, runner
from hostwcg_env.cli import main

real = json.loads(json.dumps(runner.run_game(runner.GameSpec(*_decks(), 3, ("random", "random")))))

def fake(spec):
    rec = copy.deepcopy(real)
    rec.update(key=spec.key, seed=spec.seed, agents=list(spec.agents),
               decks=[spec.deck_a.to_json(), spec.deck_b.to_json()], winner=spec.seed % 2)
    return rec

backends.run_game = fake
code = main(sys.argv[1:])
print("MAXRSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""

DECKS = """
def _decks():
    from hostwcg_env.analysis.records import shipped_deck_refs
    d = shipped_deck_refs()
    return d[0], d[1]
"""

PLAIN = r"""
import resource, sys
from hostwcg_env.cli import main
code = main(sys.argv[1:])
print("MAXRSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _peak_mb(script: str, argv: list[str], cwd: Path, timeout: int = 600) -> tuple[float, str]:
    r = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, env=_env(),
                       cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr[-2000:]
    kb = int(r.stderr.rsplit("MAXRSS_KB", 1)[1].split()[0])
    return kb / 1024, r.stdout


def test_evaluate_memory_is_flat_from_1000_to_20000_games(tmp_path: Path) -> None:
    args = ["evaluate", "--agents", "random,heuristic", "--quiet", "--games"]
    small, out_small = _peak_mb(DECKS + STAND_IN, [*args, "1000"], tmp_path)
    large, out_large = _peak_mb(DECKS + STAND_IN, [*args, "20000"], tmp_path)
    assert "1000 games in" in out_small and "20000 games in" in out_large
    print(f"evaluate peak RSS: {small:.1f} MB at 1,000 games, {large:.1f} MB at 20,000")
    assert large - small < LIMIT_MB, (small, large)


def test_ladder_of_a_results_file_is_flat_from_1000_to_20000_records(tmp_path: Path) -> None:
    from hostwcg_env.analysis.ladder import schedule
    from hostwcg_env.analysis.records import shipped_deck_refs
    from hostwcg_env.analysis.runner import GameSpec, run_game

    real = json.loads(json.dumps(run_game(GameSpec(*shipped_deck_refs()[:2], 3, ("random", "random")))))
    peaks = []
    for n in (1000, 20000):
        path = tmp_path / f"r{n}.jsonl"
        with open(path, "w") as fh:
            for spec in schedule(["random", "heuristic"], n):
                rec = {**real, "key": spec.key, "seed": spec.seed, "agents": list(spec.agents),
                       "decks": [spec.deck_a.to_json(), spec.deck_b.to_json()], "winner": spec.seed % 2}
                fh.write(json.dumps(rec) + "\n")
        peak, out = _peak_mb(PLAIN, ["ladder", str(path)], tmp_path)
        assert f"{n:,} games from 1 results file" in out
        peaks.append(peak)
    print(f"ladder peak RSS: {peaks[0]:.1f} MB at 1,000 records, {peaks[1]:.1f} MB at 20,000")
    assert peaks[1] - peaks[0] < LIMIT_MB, peaks


@pytest.mark.slow
def test_evaluate_of_real_games_is_flat(tmp_path: Path) -> None:
    args = ["evaluate", "--agents", "random,random", "--quiet", "--games"]
    small, _ = _peak_mb(PLAIN, [*args, "200"], tmp_path)
    large, out = _peak_mb(PLAIN, [*args, "1200"], tmp_path)
    assert "1200 games in" in out
    print(f"evaluate (real games) peak RSS: {small:.1f} MB at 200 games, {large:.1f} MB at 1,200")
    assert large - small < LIMIT_MB, (small, large)


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))  # a regression fails, not the machine


@pytest.mark.parametrize("argv,says", [
    (["evaluate", "--agents", "random,random", "--quiet", "--games", str(10**12), "--shard", f"0/{10**12}",
      "--results", "r.jsonl"], "1 games in"),
    (["balance", "--decks", "brae", "karsh", "--games", str(10**12), "--stop-after", "1", "--quiet",
      "--no-plots", "--workers", "1", "--out", "study"], "1 of 1000000000000 games played"),
], ids=["evaluate", "balance"])
def test_a_huge_game_count_starts_at_once(argv: list[str], says: str, tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "hostwcg_env", *argv], capture_output=True, text=True, env=_env(),
                       cwd=tmp_path, timeout=300, stdin=subprocess.DEVNULL, preexec_fn=_limited)
    assert r.returncode == 0, r.stderr[-2000:]
    assert says in r.stdout
