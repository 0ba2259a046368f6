"""The metagame (analysis/metagame.py): the deck-choice game's Nash equilibrium (nashpy), its
uncertainty by resampling games, the decks never played, and the Nash-averaging ranking; in the
balance report's CSV and HTML. Matrices here are made by hand, so the answers are known."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

pytest.importorskip("nashpy")

from hostwcg_env.analysis import Study, run_study  # noqa: E402
from hostwcg_env.analysis.metagame import (  # noqa: E402
    equilibrium,
    metagame,
    pair_games,
    pair_results,
    pair_results_from_matchups,
    payoff,
    solve,
    summary,
)

ROOT = Path(__file__).resolve().parent.parent


def _results(rates: dict[tuple[int, int], float], n: int = 100) -> dict[tuple[int, int], list[float]]:
    """Each pair's games with deck i winning ``rate`` of ``n``."""
    return {k: [1.0] * round(r * n) + [0.0] * (n - round(r * n)) for k, r in rates.items()}


def _record(a: str, b: str, winner: int | None, seed: int = 0) -> dict:
    return {"decks": [{"id": a}, {"id": b}], "winner": winner, "seed": seed}


def test_rock_paper_scissors_and_a_dominated_deck() -> None:
    """A cycle (r beats s beats p beats r, 70-30) plus a deck that loses to all three 40-60: the
    equilibrium plays the cycle a third each, where no deck beats another on average, and never
    the fourth deck, whose Nash-averaging rating is its 10-point loss to that mix."""
    order = ["r", "p", "s", "x"]
    rates = {(0, 1): 0.3, (0, 2): 0.7, (1, 2): 0.3, (0, 3): 0.6, (1, 3): 0.6, (2, 3): 0.6}
    rows = solve(_results(rates), order, resamples=30, seed=1)
    by = {r["deck"]: r for r in rows}
    for d in "rps":
        assert by[d]["nash_share"] == pytest.approx(1 / 3, abs=1e-6) and not by[d]["never"]
        assert by[d]["nash_avg_delta"] == pytest.approx(0.0, abs=1e-9)
    assert by["x"]["nash_share"] == 0.0 and by["x"]["never"] and by["x"]["never_robust"]
    assert by["x"]["nash_avg_delta"] == pytest.approx(-0.1) and by["x"]["rank"] == 4
    assert by["x"]["played_share"] < 0.05
    assert "never played at equilibrium: x" in summary(rows)


def test_a_dominant_deck_is_the_whole_equilibrium_and_the_ranking_is_by_result_against_it() -> None:
    a = payoff(3, {(0, 1): [1.0] * 6 + [0.0] * 4, (0, 2): [1.0] * 7 + [0.0] * 3, (1, 2): [0.5] * 10})
    assert a[0, 1] == pytest.approx(0.1) and a[1, 0] == pytest.approx(-0.1) and a[1, 2] == 0.0
    assert list(equilibrium(a)) == pytest.approx([1.0, 0.0, 0.0])
    rows = solve({(0, 1): [1.0] * 60 + [0.0] * 40, (0, 2): [1.0] * 70 + [0.0] * 30, (1, 2): [0.5] * 100},
                 ["a", "b", "c"], resamples=20)
    assert [r["deck"] for r in rows] == ["a", "b", "c"]  # b loses less to a than c does
    assert rows[1]["nash_avg_delta"] == pytest.approx(-0.1) and rows[2]["nash_avg_delta"] == pytest.approx(-0.2)


def test_resampling_gives_intervals_that_widen_with_fewer_games() -> None:
    rates = {(0, 1): 0.52, (0, 2): 0.48, (1, 2): 0.5}
    few = {r["deck"]: r for r in solve(_results(rates, 20), ["a", "b", "c"], resamples=60, seed=3)}
    many = {r["deck"]: r for r in solve(_results(rates, 2000), ["a", "b", "c"], resamples=60, seed=3)}
    width = {d: (few[d]["nash_share_high"] - few[d]["nash_share_low"],
                 many[d]["nash_share_high"] - many[d]["nash_share_low"]) for d in "abc"}
    assert all(f >= m for f, m in width.values()) and any(f > m for f, m in width.values())
    for r in few.values():
        assert r["nash_share_low"] <= r["nash_share"] + 1e-9 and r["nash_share"] <= r["nash_share_high"] + 1e-9


def test_pair_results_from_records_and_from_a_matchups_csv() -> None:
    recs = [_record("a", "b", 0), _record("b", "a", 0), _record("a", "b", None), _record("a", "a", 0)]
    assert pair_results(recs, ["a", "b"]) == {(0, 1): [1.0, 0.0, 0.5]}
    rows = [{"deck": "a", "opponent": "b", "games": "3", "wins": "1.5", "draws": "1"},
            {"deck": "b", "opponent": "a", "games": "3", "wins": "1.5", "draws": "1"}]
    assert sorted(pair_results_from_matchups(rows, ["a", "b"])[(0, 1)]) == [0.0, 0.5, 1.0]
    assert solve({(0, 1): [1.0]}, ["a", "b", "c"]) == []  # a pair that never met: no game to solve


def test_resampling_draws_seeds_when_the_records_have_them() -> None:
    """Deck a wins every game at even seeds and loses every game at odd ones, against both b and
    c: its two pairs move together. Resampling seeds (metagame from records) keeps that, so a's
    rating varies more than when each pair's games are resampled on their own."""
    recs = []
    for seed in range(40):
        a_wins = seed % 2 == 0
        recs += [_record("a", "b", 0 if a_wins else 1, seed), _record("b", "a", 1 if a_wins else 0, seed),
                 _record("a", "c", 0 if a_wins else 1, seed), _record("c", "a", 1 if a_wins else 0, seed),
                 _record("b", "c", seed % 4 // 2, seed), _record("c", "b", seed % 4 // 2, seed)]
    order = ["a", "b", "c"]
    assert pair_games(recs, order)[(0, 1)][:2] == [(0, 1.0), (0, 1.0)]
    by_seed = {r["deck"]: r for r in metagame(recs, order, resamples=300, seed=7)}
    by_game = {r["deck"]: r for r in solve(pair_results(recs, order), order, resamples=300, seed=7)}
    assert by_seed["a"]["nash_avg_delta"] == by_game["a"]["nash_avg_delta"]  # the same observed game

    def width(r: dict) -> float:
        return r["nash_avg_delta_high"] - r["nash_avg_delta_low"]

    assert width(by_seed["a"]) > 1.2 * width(by_game["a"])
    # every resample keeps 40 seeds' worth of games in each pair
    from hostwcg_env.analysis.metagame import _seed_resampler

    seeds = {k: [s for s, _ in g] for k, g in pair_games(recs, order).items()}
    draw = _seed_resampler(pair_results(recs, order), seeds, random.Random(1))
    assert all(len(xs) == 80 for xs in draw().values())


def test_the_kept_lookahead_study_has_a_metagame() -> None:
    folder = ROOT / "docs" / "balance" / "lookahead-42000000"
    order = [d["id"] for d in json.loads((folder / "study.json").read_text())["decks"]]
    with (folder / "matchups.csv").open() as fh:
        rows = solve(pair_results_from_matchups(list(csv.DictReader(fh)), order), order, resamples=20)
    assert len(rows) == 8 and sum(r["nash_share"] for r in rows) == pytest.approx(1.0)
    assert any(r["never"] for r in rows) and [r["rank"] for r in rows] == list(range(1, 9))


def test_the_balance_report_shows_the_metagame(tmp_path: Path) -> None:
    res = run_study(Study.make(decks=["brae", "karsh", "lior"], games=4), workers=1, quiet=True)
    assert [r["rank"] for r in res.tables["metagame"]] == [1, 2, 3]
    res.write_report(tmp_path, plots=False)
    assert "nash_share" in (tmp_path / "metagame.csv").read_text()
    html = (tmp_path / "report.html").read_text()
    assert "<h2>Metagame</h2>" in html and "Nash equilibrium of deck choice" in html
