"""The package functions behind the thin scripts of ``scripts/`` (tests/test_scripts_thin.py):
the lookahead fit (``agents.training.lookahead_fit``), the fingerprint comparison
(``hostwcg_env.testing.fingerprint``), the generated env documents
(``hostwcg_env.testing.env_docs``), the choice-cost table (``hostwcg_env.testing.choice_cost``)
and the large fuzz run (``hostwcg_env.testing.fuzz_run``)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import numpy as np

from agents.lookahead import DEFAULT_WEIGHTS
from agents.training import lookahead_fit
from hostwcg_env.testing import choice_cost, env_docs, fingerprint, fuzz_run


def test_the_logistic_fit_recovers_the_weights_it_was_drawn_with() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4000, 3))
    beta = np.array([1.5, -0.7, 0.0])
    y = (rng.random(4000) < 1 / (1 + np.exp(-(x @ beta)))).astype(float)
    got = lookahead_fit.fit(x, y, l2=0.1)
    assert np.allclose(got, beta, atol=0.15), got
    loss, acc = lookahead_fit.score(x, y, got)
    assert loss < np.log(2) and acc > 0.6
    # a fixed weight enters as an offset: fitting the rest gives them back
    part = lookahead_fit.fit(x[:, :2], y, l2=0.1, offset=x[:, 2] * 0.0)
    assert np.allclose(part, beta[:2], atol=0.15)


def test_shapes_and_held_out_games() -> None:
    grid = lookahead_fit.shapes("0.5,0.7", "1", "0.5", "0.25,0.5")
    assert [(w.danger_base, w.threat_later) for w in grid] == [(0.5, 0.25), (0.5, 0.5), (0.7, 0.25), (0.7, 0.5)]
    assert all(w.reach == 1.0 and w.danger == DEFAULT_WEIGHTS.danger for w in grid)
    # held_out reads only each position's game index
    pos = cast(list[lookahead_fit.Position], [(None, None, True, 1.0, g) for g in (0, 0, 1, 2, 3, 3, 7)])
    n, held = lookahead_fit.held_out(pos, 0.25, seed=1)
    assert n == 8 and len(held) == 2 and held <= set(range(8))
    assert lookahead_fit.held_out(pos, 0.25, seed=1)[1] == held


def test_fingerprint_differences_name_the_games() -> None:
    want = {"a": "1", "b": "2", "c": "3"}
    assert fingerprint.differences({"a": "1", "b": "2", "c": "3"}, want) == []
    assert fingerprint.differences({"a": "1", "b": "9"}, want) == ["DIFFERS: b", "MISSING: c"]
    assert fingerprint.differences({"a": "1", "b": "9"}, want, complete=False) == ["DIFFERS: b"]
    assert fingerprint.differences({"z": "1"}, want, complete=False) == ["DIFFERS: z"]


def test_env_docs_check_names_stale_files_and_writing_makes_them_current(tmp_path: Path) -> None:
    for rel in env_docs.DOCS:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    assert env_docs.update(check=True, root=tmp_path) == list(env_docs.DOCS)
    assert env_docs.update(root=tmp_path) == []
    assert env_docs.update(check=True, root=tmp_path) == []
    assert env_docs.update(check=True) == []  # the checkout's own files are current


def test_choice_cost_row() -> None:
    row = choice_cost.row("lookahead", [0.001, 0.003, 0.002])
    assert row == "| lookahead | 2.00 | 2.00 | 3.00 | 3.00 |"


def test_the_fuzz_run_summarises_every_variant() -> None:
    failures: list[str] = []
    n = len(fuzz_run.VARIANTS)
    summary = fuzz_run.run(n + 1, start=0, workers=1, on_failure=failures.append)
    assert summary["games"] == n + 1 and summary["start"] == 0 and summary["failures"] == failures == []
    rows = summary["variants"]
    assert [r["variant"] for r in rows] == [label for label, _ in fuzz_run.VARIANTS]
    assert [r["games"] for r in rows] == [2] + [1] * (n - 1)  # game n plays variant 0 again
    assert all(sum(r["ends"].values()) == r["games"] and r["deck_pairs"] >= 1 for r in rows)
