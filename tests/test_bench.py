"""The benchmark (hostwcg_env.testing.bench, scripts/bench.py) runs (on 2 games, once): every row
returns a Row with wall and CPU rates, each row runs in its own process per build, and the table
puts the builds side by side.

No timing is asserted: speed is benchmarked, never timed in tests (README.md "Speed").
"""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def bench():
    from hostwcg_env.testing import bench

    return bench


def test_every_benchmark_returns_a_row(bench):
    cfg = bench.BenchConfig(games=2, seed=3)
    assert bench.BENCHMARKS
    names = set()
    for fn in bench.BENCHMARKS:
        row = fn(cfg)
        assert isinstance(row.name, str) and row.name and row.name not in names
        assert row.unit.endswith("/s") or row.unit == "KiB"
        assert row.wall > 0 and row.cpu > 0
        names.add(row.name)


def _row(bench, name, wall, cpu=None, unit="things/s"):
    return bench.Row(name, unit, wall, wall if cpu is None else cpu)


def test_run_takes_the_median_and_prints_both_rates(bench):
    cfg = bench.BenchConfig(games=2)
    calls = iter([1.0, 5.0, 3.0])

    def fake(_cfg):
        v = next(calls)
        return _row(bench, "fake", v, 2 * v)

    rows = bench.run(cfg, repeats=3, benchmarks=[fake], in_process=True)
    assert rows[0]["value"] == 3.0 and rows[0]["runs"] == [1.0, 5.0, 3.0]
    assert rows[0]["cpu"] == 6.0
    table = bench.markdown(rows, bench.meta(cfg, 3, "not pinned"))
    assert "| fake | things/s | 3.00 | 1.00 | 5.00 | 6.00 |" in table


def test_builds_side_by_side(bench):
    """Engine rows get one column per build and the compiled/pure ratio, on wall and CPU time."""
    results = [
        {"function": "bench_x", "build": "pure", "name": "engine: x", "unit": "decisions/s",
         "value": 1000.0, "cpu": 2000.0, "runs": [1000.0], "cpu_runs": [2000.0]},
        {"function": "bench_x", "build": "compiled", "name": "engine: x", "unit": "decisions/s",
         "value": 3000.0, "cpu": 7000.0, "runs": [3000.0], "cpu_runs": [7000.0]},
    ]
    cfg = bench.BenchConfig(games=2)
    table = bench.markdown(results, bench.meta(cfg, 1, "pinned to CPU 1"))
    assert "| benchmark | unit | pure | compiled | compiled/pure | pure (CPU) | compiled (CPU) |" in table
    assert "| engine: x | decisions/s | 1,000 | 3,000 | 3.00x | 2,000 | 7,000 | 3.50x |" in table


def test_each_row_runs_in_its_own_process_per_build(bench):
    """The real driver: a fresh process per row and build; the pure build is HOSTWCG_PURE=1,
    the compiled one is reported as missing when the engine here is not compiled."""
    import hostwcg_env.engine as engine

    cfg = bench.BenchConfig(games=2)
    rows = bench.run(cfg, repeats=1, only=["bench_engine_decisions"], cpu=-1)
    by = {r["build"]: r for r in rows}
    assert set(by) == {"pure", "compiled"}
    assert by["pure"]["value"] > 0 and by["pure"]["unit"] == "decisions/s"
    if engine.compiled():
        assert by["compiled"]["value"] > 0
    else:
        assert "not installed" in by["compiled"]["error"]


def test_main_json(bench, capsys):
    assert bench.main(["--games", "2", "--repeats", "1", "--json", "--no-pin", "--in-process",
                       "--only", "decisions", "clone"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["meta"]["games"] == 2
    assert {r["function"] for r in doc["results"]} == {"bench_engine_decisions", "bench_clone"}
    assert all(r["cpu"] > 0 for r in doc["results"])


def test_repeats_are_interleaved_and_ratios_are_per_round(bench):
    order: list[str] = []

    def ours(_cfg):
        order.append("ours")
        return _row(bench, "hostwcg_v0 env() (wrappers)", [10.0, 20.0, 40.0][order.count("ours") - 1], unit="steps/s")

    def peer(_cfg):
        order.append("peer")
        return _row(bench, "peer slow", [5.0, 10.0, 20.0][order.count("peer") - 1], unit="steps/s")

    rows = bench.run(bench.BenchConfig(games=2), repeats=3, benchmarks=[ours, peer], in_process=True)
    assert order == ["ours", "peer"] * 3  # round by round, so drift hits every row alike
    lines = bench.bench_envs.ratios(rows)
    assert lines == ["hostwcg_v0 env() / slow: 2.00x (per round 2.00x - 2.00x); CPU time 2.00x"]


def test_envs_are_seeded_once(bench, monkeypatch):
    """As a training loop does (shared peers harness): the first reset is seeded, later ones
    are not."""
    seeds: list[object] = []

    class Env:
        def __init__(self):
            self.left = 0

        def reset(self, seed=None):
            seeds.append(seed)
            self.left = 2

        def agent_iter(self):
            while self.left > 0:
                yield "a"

        def last(self):
            import numpy as np

            return {"action_mask": np.array([1, 0], dtype=np.int8)}, 0, False, False, {}

        def step(self, a):
            self.left -= 1

    bench.bench_envs._aec_steps(Env, steps=5, seed=9)
    assert seeds[0] == 9 and seeds[1:] and all(s is None for s in seeds[1:])
