"""scripts/bench_train.py runs both recipes briefly and reports what it promises (its figures
are a benchmark, docs/env_v1.md; nothing here depends on the machine's speed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_bench_train_trains_both_recipes_and_evaluates_them(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "bench.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_train.py"), "--seconds", "2",
                          "--eval-games", "2", "--v1-envs", "4", "--v1-n-steps", "8",
                          "--v1-batch", "16", "--rss", "--rss-steps", "20", "--out", str(out)],
                         env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    names = [r["recipe"] for r in report["recipes"]]
    assert names[0].startswith("v0") and names[1].startswith("v1")
    for r in report["recipes"]:
        assert r["learner_steps"] > 0 and r["steps_per_second"] > 0 and r["parameters"] > 0
        assert r["steps_per_cpu_second"] > 0 and len(r["load_average"]) == 2
        assert r["games"] == 2 and 0.0 <= r["win_rate"] <= 1.0 and 0.0 <= r["win_rate_sampled"] <= 1.0
        phases = r["phases"]
        assert {"update", "rollout", "env_step", "policy_forward", "sb3_other"} <= phases.keys()
        assert phases["env_step"]["seconds"] <= phases["rollout"]["seconds"]
        assert phases["update"]["seconds"] + phases["rollout"]["seconds"] <= r["train_seconds"] * 1.05 + 0.5
    v1 = report["recipes"][1]
    assert {"encode", "opponent"} <= v1["phases"].keys()
    assert v1["env_steps"] > v1["learner_steps"]  # the opponent's decisions count too
    mem = report["memory"]
    assert mem["rss_per_env_kib"] > 0 and set(mem["rss_bytes"]) == {"1", "4"}


def test_bench_train_refuses_bad_arguments() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_train.py"), "--seconds", "0"],
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "--seconds must be > 0" in run.stderr
