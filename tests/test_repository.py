"""The repository stays light: git holds code, docs, the shipped checkpoints and the small
results files that the README, the docs and the tests read (agents/ladder_results/README.md,
"What is kept in the repository"). Run outputs go to ``runs/``, which git ignores.

A tracked file over 1 MB fails here unless it is a shipped checkpoint (one ``.npz`` a shipped
policy in ``agents/checkpoints/``), and so does more tracked data than ``DATA_BUDGET``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000
# the shipped policies' weights, one file each (docs/agents.md): the only files over 1 MB
SHIPPED_CHECKPOINTS = {"agents/checkpoints/ppo_hostwcg_v0.npz", "agents/checkpoints/ppo_hostwcg_v1.npz"}
# data: results files, tables, images, notebooks and weights; 16.4 MB when this test was written
DATA_SUFFIXES = (".gz", ".jsonl", ".csv", ".npz", ".png", ".jpg", ".ipynb", ".parquet", ".zip", ".pt")
DATA_BUDGET = 20 * MB


def _tracked() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    return [ROOT / name for name in out.decode().split("\0") if name and (ROOT / name).is_file()]


def test_no_tracked_file_is_over_1_mb_but_the_shipped_checkpoints() -> None:
    big = {p.relative_to(ROOT).as_posix(): p.stat().st_size for p in _tracked() if p.stat().st_size > MB}
    assert {name: size for name, size in big.items() if name not in SHIPPED_CHECKPOINTS} == {}


def test_tracked_data_stays_within_its_budget() -> None:
    data = [p for p in _tracked() if p.name.endswith(DATA_SUFFIXES)]
    total = sum(p.stat().st_size for p in data)
    largest = sorted(data, key=lambda p: -p.stat().st_size)[:5]
    assert total <= DATA_BUDGET, (
        f"{total / MB:.1f} MB of tracked data, over the budget of {DATA_BUDGET / MB:.0f} MB; largest: "
        + ", ".join(f"{p.relative_to(ROOT)} ({p.stat().st_size / MB:.1f} MB)" for p in largest))


def test_run_outputs_are_ignored() -> None:
    probe = "runs/some-study/results.jsonl.gz"
    run = subprocess.run(["git", "check-ignore", "-q", probe], cwd=ROOT)
    assert run.returncode == 0, f"{probe} is not ignored by git"
