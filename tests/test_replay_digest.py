"""The kept-games digest (hostwcg_env/testing/replay_digest.py, scripts/replay_digest.py): the
proof that a refactor leaves every kept game reading the same must itself notice a change."""

from __future__ import annotations

import gzip
import json
from itertools import islice
from pathlib import Path

from hostwcg_env.analysis.recordfile import iter_records
from hostwcg_env.testing.replay_digest import compare, digest_files

KEPT = Path(__file__).resolve().parent.parent / "agents" / "ladder_results" / "pimc_vs_heuristic_57000000.jsonl.gz"


def _write(path: Path, records: list[dict]) -> Path:
    with gzip.open(path, "wt") as f:
        for rec in records:
            f.write(json.dumps(rec) + "\n")
    return path


def test_digest_is_stable_and_compare_names_what_moved(tmp_path: Path) -> None:
    records = list(islice(iter_records(KEPT), 3))
    first = digest_files([_write(tmp_path / "a.jsonl.gz", records)])
    assert len(first) == 3 and all(len(d) == 64 for d in first.values())
    assert digest_files([tmp_path / "a.jsonl.gz"]) == first  # the same games, the same digests
    assert compare(first, first) == []
    # a record whose last action differs no longer replays: the comparison names that game
    broken = [dict(r) for r in records]
    broken[1]["actions"] = broken[1]["actions"][:-3]
    second = digest_files([_write(tmp_path / "a.jsonl.gz", broken)])
    moved = compare(first, second)
    assert len(moved) == 1 and "#1:" in moved[0] and "replay failed" in moved[0]
    # a digest that differs is named too
    changed = dict(first)
    key = next(iter(changed))
    changed[key] = "0" * 64
    assert compare(first, changed) == [f"{key}: digest changed"]


def test_older_epoch_is_reported_not_failed(tmp_path: Path) -> None:
    rec = dict(next(iter_records(KEPT)))
    rec["epoch"] = 1
    out = digest_files([_write(tmp_path / "old.jsonl.gz", [rec])])
    assert list(out.values()) == ["older epoch 1"]
