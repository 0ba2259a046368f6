"""Time to strength (agents/training/strength.py; docs/training.md, "Time to strength"): a run
directory's stages, learning curves and final evaluation on one clock, the targets read from them,
the plot, and ``scripts/bench_train.py --strength``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents.training import strength

ROOT = Path(__file__).resolve().parents[1]


def _r(won: float, games: int, lo: float, hi: float) -> dict:
    return {"games": games, "won": won, "win_rate": won / games, "ci95": [lo, hi], "results": "x.jsonl"}


def _run(tmp_path: Path, finished: bool = True, checked: bool = False) -> Path:
    """A run as `hostwcg train` leaves it: demos 600 s, clone 300 s, a league of 1,800 s with three
    curve points, and the final evaluation (written only when the run finished)."""
    run = tmp_path / "run"
    curve = [
        {"point": 0, "minutes": 0.0, "steps": 0, "heuristic": _r(30, 50, .47, .73), "lookahead": _r(20, 50, .27, .54)},
        {"point": 1, "minutes": 15.0, "steps": 9000, "heuristic": _r(41, 50, .69, .90),
         "lookahead": _r(26, 50, .39, .65)},
        {"point": 2, "minutes": 30.0, "steps": 18000, "heuristic": _r(42, 50, .71, .92),
         "lookahead": _r(33, 50, .52, .77)},
    ]
    stages = {"01_demos": {"kind": "demos", "status": "done", "elapsed_s": 600.0},
              "02_clone": {"kind": "clone", "status": "done", "elapsed_s": 300.0},
              "03_league": {"kind": "league", "status": "done" if finished else "running", "elapsed_s": 1800.0,
                            "measure_s": 95.0, "curve": curve}}
    for name, st in stages.items():
        (run / "stages" / name).mkdir(parents=True)
        if st["status"] == "done":
            facts = {"curve": curve} if st["kind"] == "league" else {}
            (run / "stages" / name / "DONE.json").write_text(json.dumps(
                {"stage": name, "kind": st["kind"], "outputs": {}, "facts": facts, "elapsed_s": st["elapsed_s"]}))
    state: dict = {"stages": stages, "sessions": []}
    if finished:
        final = [{"opponent": "heuristic", **_r(318, 400, .753, .832)},
                 {"opponent": "lookahead", **_r(228, 400, .521, .617)}]
        if checked:  # [evaluation] check = true: the network checked by the search, after the network
            final += [{"opponent": "heuristic", "check": True, **_r(334, 400, .795, .866)},
                      {"opponent": "lookahead", "check": True, **_r(250, 400, .577, .671)}]
        (run / "eval").mkdir()
        (run / "eval" / "summary.json").write_text(json.dumps(final))
        state["evaluation"] = final
    (run / "state.json").write_text(json.dumps(state))
    return run


def test_the_points_of_every_stage_share_one_clock_and_the_final_evaluation_comes_last(tmp_path: Path) -> None:
    pts = strength.points(_run(tmp_path))
    # the league's points sit after the demos and the cloning (15 minutes); its curve's games are not counted
    assert [p["minutes"] for p in pts] == [15.0, 30.0, 45.0, 45.0]
    assert [p["final"] for p in pts] == [False, False, False, True]
    assert pts[1]["source"] == "03_league, point 1" and pts[-1]["source"] == "final evaluation"
    assert pts[-1]["heuristic"]["games"] == 400 and "results" not in pts[-1]["heuristic"]


def test_the_report_gives_the_first_curve_point_meeting_each_target_and_whether_the_evaluation_confirms_it(
        tmp_path: Path) -> None:
    rep = strength.report(_run(tmp_path))
    heur, look = rep["targets"]["heuristic"], rep["targets"]["lookahead"]
    assert heur["target"] == "win rate >= 80%" and look["target"] == "lower 95% bound > 50%"
    assert heur["first_curve_point_minutes"] == 30.0  # 41 of 50 after 15 minutes of the league
    assert look["first_curve_point_minutes"] == 45.0  # the first lower bound above 50%
    assert heur["confirmed"] is False and heur["final"]["win_rate"] == pytest.approx(0.795)  # 318/400 < 80%
    assert look["confirmed"] is True and look["final"]["minutes"] == 45.0


def test_the_network_checked_by_the_search_is_its_own_final_point_and_confirmation(tmp_path: Path) -> None:
    pts = strength.points(_run(tmp_path, checked=True))
    assert [(p["final"], p.get("check")) for p in pts][-2:] == [(True, False), (True, True)]
    assert pts[-2]["heuristic"]["won"] == 318 and pts[-1]["heuristic"]["won"] == 334  # not mixed up
    heur = strength.report(_run(tmp_path / "again", checked=True))["targets"]["heuristic"]
    assert heur["confirmed"] is False and heur["final"]["won"] == 318  # the network alone still decides
    assert heur["confirmed_with_check"] is True and heur["final_with_check"]["win_rate"] == pytest.approx(0.835)
    assert "confirmed_with_check" not in strength.report(_run(tmp_path / "plain"))["targets"]["heuristic"]


def test_a_run_still_training_has_curve_points_and_no_confirmation(tmp_path: Path) -> None:
    rep = strength.report(_run(tmp_path, finished=False))
    assert [p["final"] for p in rep["points"]] == [False] * 3
    assert rep["targets"]["heuristic"]["confirmed"] is None and rep["targets"]["heuristic"]["final"] is None
    with pytest.raises(FileNotFoundError, match="not a `hostwcg train` run directory"):
        strength.points(tmp_path / "nowhere")


def test_meets_reads_the_rate_for_the_heuristic_and_the_lower_bound_for_the_lookahead() -> None:
    assert strength.meets("heuristic", {"win_rate": 0.80, "ci95": [0.7, 0.9]}) is True
    assert strength.meets("heuristic", {"win_rate": 0.7999, "ci95": [0.7, 0.9]}) is False
    assert strength.meets("lookahead", {"win_rate": 0.7, "ci95": [0.50, 0.8]}) is False
    assert strength.meets("lookahead", {"win_rate": 0.56, "ci95": [0.501, 0.6]}) is True
    assert strength.meets("random", {"win_rate": 1.0, "ci95": [0.9, 1.0]}) is None


def test_bench_train_reports_a_runs_time_to_strength_and_plots_its_curve(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    run, png = _run(tmp_path, checked=True), tmp_path / "curve.png"
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_train.py"), "--strength", str(run),
                          "--plot", str(png), "--out", str(tmp_path / "r.json")],
                         capture_output=True, text=True, check=True, cwd=ROOT, timeout=120).stdout
    rep = json.loads((tmp_path / "r.json").read_text())
    assert rep["targets"]["lookahead"]["confirmed"] is True and json.loads(out[: out.rindex("}") + 1]) == rep
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_the_time_to_strength_recipes_fit_their_hours_and_confirm_on_fresh_seeds_against_both_opponents() -> None:
    from agents.training.recipe import load_recipe

    for name, hours in (("in_2h", 2), ("in_4h", 4)):
        r = load_recipe(name)
        assert r.minutes == 60 * hours and r.teacher == "lookahead" and r.decks == "preconstructed"
        assert r.evaluation["opponents"] == ["heuristic", "lookahead"] and r.evaluation["games"] == 400
        league = next(s for s in r.stages if s.kind == "league")
        assert league.options["curve_opponents"] == ["heuristic", "lookahead"] and league.options["curve_games"] == 100
    assert load_recipe("in_2h").evaluation["seed"] != load_recipe("in_4h").evaluation["seed"]
