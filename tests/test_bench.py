"""scripts/bench.py runs (on 2 games, once): every benchmark returns (name, value, unit).

No timing is asserted: speed is benchmarked, never timed in tests (README.md "Speed").
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "scripts" / "bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("hostwcg_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hostwcg_bench"] = module
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_returns_a_row(bench):
    cfg = bench.BenchConfig(games=2, seed=3)
    assert bench.BENCHMARKS
    names = set()
    for fn in bench.BENCHMARKS:
        name, value, unit = fn(cfg)
        assert isinstance(name, str) and name and name not in names
        assert isinstance(unit, str) and (unit.endswith("/s") or unit in ("ms/reset", "KiB"))
        assert value > 0
        names.add(name)


def test_run_takes_the_median_and_prints_markdown(bench):
    cfg = bench.BenchConfig(games=2)
    calls = iter([1.0, 5.0, 3.0])

    def fake(_cfg):
        return "fake", next(calls), "things/s"

    rows = bench.run(cfg, repeats=3, benchmarks=[fake])
    assert rows[0]["value"] == 3.0 and rows[0]["runs"] == [1.0, 5.0, 3.0]
    table = bench.markdown(rows, bench.meta(cfg, 3, "not pinned"))
    assert "| fake | 3.00 | things/s | 1.00 | 5.00 |" in table


def test_main_json(bench, capsys):
    assert bench.main(["--games", "2", "--repeats", "1", "--json", "--no-pin",
                       "--only", "decisions", "clone"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["meta"]["games"] == 2
    assert {r["function"] for r in doc["results"]} == {"bench_engine_decisions", "bench_clone"}


def test_main_markdown(bench, capsys):
    assert bench.main(["--games", "2", "--repeats", "1", "--no-pin", "--only", "games"]) == 0
    out = capsys.readouterr().out
    assert "| benchmark | median | unit | min | max |" in out
    assert "games/s" in out


def test_repeats_are_interleaved_and_ratios_are_per_round(bench):
    order: list[str] = []

    def ours(_cfg):
        order.append("ours")
        return "hostwcg_v0 env() (wrappers)", [10.0, 20.0, 40.0][order.count("ours") - 1], "steps/s"

    def peer(_cfg):
        order.append("peer")
        return "peer slow", [5.0, 10.0, 20.0][order.count("peer") - 1], "steps/s"

    rows = bench.run(bench.BenchConfig(games=2), repeats=3, benchmarks=[ours, peer])
    assert order == ["ours", "peer"] * 3  # round by round, so drift hits every row alike
    lines = bench.bench_envs.ratios([{"name": r["name"], "median": r["value"], "runs": r["runs"]} for r in rows])
    assert lines == ["hostwcg_v0 env() / slow: 2.00x (per round 2.00x - 2.00x)"]
