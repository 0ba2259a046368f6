"""Balance across skill (hostwcg_env/analysis/skill.py, ``hostwcg balance skill``): verdicts,
agreement, Spearman's rho and its interval, the skill tables from balance tables, and a small
study end to end (resumable, each level's numbers its own balance table's)."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from hostwcg_env.analysis.skill import (
    agreement,
    compare,
    markdown,
    play_rates,
    ranks,
    record_play_rates,
    run_skill,
    spearman,
    verdict,
)
from hostwcg_env.cli import main


def test_verdict_and_agreement() -> None:
    assert verdict(0.52, 0.7, 0.5) == "above"
    assert verdict(0.3, 0.49, 0.5) == "below"
    assert verdict(0.45, 0.55, 0.5) == "unclear"
    assert verdict(None, None, 0.5) == "unclear"
    assert verdict(0.01, 0.2, 0.0, ("helps", "hurts")) == "helps"
    assert agreement(["above", "above", "above"]) == "holds"
    assert agreement(["above", "unclear", "above"]) == "depends"
    assert agreement(["above", "below", "unclear"]) == "reversed"
    assert agreement(["unclear", "unclear"]) == "depends"


def test_spearman() -> None:
    assert ranks([10.0, 30.0, 20.0, 20.0]) == [1.0, 4.0, 2.5, 2.5]
    rho, lo, hi = spearman([1, 2, 3, 4, 5, 6], [2, 4, 6, 8, 10, 12])
    assert rho == pytest.approx(1.0) and hi == pytest.approx(1.0, abs=1e-3) and lo > 0.5
    rho, _, _ = spearman([1, 2, 3, 4, 5], [5, 4, 3, 2, 1])
    assert rho == pytest.approx(-1.0)
    # a hand-computed case: d = (0, -1, 1, 0, 0) -> 1 - 6 * 2 / (5 * 24) = 0.9
    rho, lo, hi = spearman([1, 2, 3, 4, 5], [1, 3, 2, 4, 5])
    assert rho == pytest.approx(0.9)
    z, se = math.atanh(0.9), math.sqrt(1.06 / 2)
    assert (lo, hi) == pytest.approx((math.tanh(z - 1.959964 * se), math.tanh(z + 1.959964 * se)), abs=1e-5)
    assert math.isnan(spearman([1, 2, 3], [1, 2, 3])[1])  # too few pairs for an interval
    assert math.isnan(spearman([1, 1, 1, 1], [1, 2, 3, 4])[0])  # a constant side
    with pytest.raises(ValueError):
        spearman([1, 2], [1])


def _deck(deck: str, wr: float, lo: float, hi: float) -> dict:
    return {"deck": deck, "name": deck.title(), "games": 100, "win_rate": wr, "ci_low": lo, "ci_high": hi}


def _card(deck: str, card: str, iwd: float | None, lo: float | None, hi: float | None, cond: str = "drawn") -> dict:
    return {"deck": deck, "card": card, "condition": cond, "iwd": iwd, "iwd_low": lo, "iwd_high": hi}


def test_compare_builds_the_skill_tables() -> None:
    tables = {
        "random": {"decks": [_deck("a", 0.6, 0.55, 0.65), _deck("b", 0.4, 0.35, 0.45), _deck("c", 0.5, 0.45, 0.55)],
                   "cards": [_card("a", "X", 0.1, 0.05, 0.15), _card("a", "Y", -0.1, -0.15, -0.05),
                             _card("a", "X", 0.9, 0.8, 1.0, cond="played")]},
        "heuristic": {"decks": [_deck("a", 0.7, 0.65, 0.75), _deck("b", 0.6, 0.55, 0.65), _deck("c", 0.2, 0.15, 0.25)],
                      "cards": [_card("a", "X", 0.2, 0.1, 0.3), _card("a", "Y", 0.1, 0.05, 0.15)]},
    }
    skill = compare(tables)
    by_deck = {r["deck"]: r for r in skill["decks"]}
    assert by_deck["a"]["across_skill"] == "holds"
    assert by_deck["b"]["across_skill"] == "reversed"
    assert by_deck["c"]["across_skill"] == "depends"
    assert by_deck["a"]["heuristic:win_rate"] == 0.7 and by_deck["b"]["random:verdict"] == "below"
    cards = {r["card"]: r for r in skill["cards"]}
    assert len(skill["cards"]) == 2  # only the condition asked for (drawn)
    assert cards["X"]["across_skill"] == "holds" and cards["Y"]["across_skill"] == "reversed"
    decks_corr = next(c for c in skill["correlations"] if c["over"].startswith("decks"))
    assert (decks_corr["a"], decks_corr["b"], decks_corr["n"]) == ("random", "heuristic", 3)
    assert decks_corr["rho"] == pytest.approx(spearman([0.6, 0.4, 0.5], [0.7, 0.6, 0.2])[0], abs=1e-4)
    md = markdown(skill, ["random", "heuristic"])
    assert "| A | 60.0% (55.0% - 65.0%) above | 70.0% (65.0% - 75.0%) above | holds |" in md
    assert "Decks: 1 conclusions hold across skill, 1 are reversed, 1 depend" in md
    with pytest.raises(ValueError, match="at least two agents"):
        compare({"random": tables["random"]})


def _shares(deck: str, card: str, drawn: float, played: float) -> list[dict]:
    return [{**_card(deck, card, 0.0, -0.1, 0.1, cond), "share": share}
            for cond, share in (("drawn", drawn), ("played", played))]


def test_cards_one_level_rarely_plays_are_listed() -> None:
    """A card drawn in 60% of a deck's games: the search-like level plays it in 50% of them, the
    other in 2% (rarely): listed, with each level's play rate. One both levels play, or neither
    plays much, is not. A card searched into the hand can be played more often than drawn."""
    tables = {
        "lookahead": {"decks": [_deck("t", 0.6, 0.55, 0.65)],
                      "cards": [*_shares("t", "Cinders", 0.6, 0.3), *_shares("t", "Wolf", 0.5, 0.45),
                                *_shares("t", "Altar", 0.4, 0.04), *_shares("t", "Golem", 0.2, 0.3)]},
        "ppo_v1": {"decks": [_deck("t", 0.45, 0.4, 0.5)],
                   "cards": [*_shares("t", "Cinders", 0.6, 0.012), *_shares("t", "Wolf", 0.5, 0.4),
                             *_shares("t", "Altar", 0.4, 0.0), *_shares("t", "Golem", 0.2, 0.0)]},
    }
    assert play_rates(tables["lookahead"]) == {("t", "Cinders"): 0.5, ("t", "Wolf"): 0.9, ("t", "Altar"): 0.1,
                                               ("t", "Golem"): 1.0}
    skill = compare(tables)
    assert [(r["card"], r["rarely_by"], r["lookahead:plays"], r["ppo_v1:plays"]) for r in skill["unplayed"]] == [
        ("Cinders", "ppo_v1", 0.5, 0.02), ("Golem", "ppo_v1", 1.0, 0.0)]
    cards = {r["card"]: r for r in skill["cards"]}
    assert cards["Wolf"]["ppo_v1:plays"] == 0.8
    md = markdown(skill, ["lookahead", "ppo_v1"])
    assert "## Cards one level rarely plays (2;" in md and ": 2 by ppo_v1." in md
    assert "| t | Cinders | 50.0% | 2.0% |" in md
    # no shares (tables of an older kept study): no play rates, nothing listed
    assert compare({a: {"decks": t["decks"], "cards": [_card("t", "X", 0.1, 0.0, 0.2)]}
                    for a, t in tables.items()})["unplayed"] == []


def test_a_small_skill_study_end_to_end_and_resumed(tmp_path: Path) -> None:
    out = tmp_path / "skill"
    results, skill = run_skill(["random", "heuristic"], out, decks=["brae", "karsh"], games=2, seed=5,
                               workers=1, quiet=True)
    assert {a: len(r.records) for a, r in results.items()} == {"random": 2, "heuristic": 2}
    assert {p.name for p in out.iterdir()} >= {"random", "heuristic", "skill.md", "skill_decks.csv",
                                               "skill_cards.csv", "skill_correlations.csv", "skill_unplayed.csv"}
    assert all(f"{a}:plays" in row for row in skill["cards"] for a in ("random", "heuristic")
               if row.get(f"{a}:iwd") is not None)
    for a, r in results.items():  # from the records (a ladder's, a training run's): the tables' rates
        from_records = record_play_rates(r.records, a)
        assert from_records and {k: x for k, (x, _) in from_records.items()} == play_rates(r.tables)
        assert record_play_rates(r.records, "nobody") == {}
    for a, r in results.items():  # each level's numbers are its own balance table's
        for row in r.tables["decks"]:
            mine = next(x for x in skill["decks"] if x["deck"] == row["deck"])
            assert (mine[f"{a}:win_rate"], mine[f"{a}:ci_low"]) == (row["win_rate"], row["ci_low"])
    # the same seeds and decks for every level
    seeds = {a: sorted(rec["seed"] for rec in r.records) for a, r in results.items()}
    assert seeds["random"] == seeds["heuristic"]
    with open(out / "skill_decks.csv") as f:
        assert len(list(csv.DictReader(f))) == 2
    again, _ = run_skill(["random", "heuristic"], out, decks=["brae", "karsh"], games=2, seed=5, workers=1, quiet=True)
    assert ([rec["actions"] for rec in again["heuristic"].records]
            == [rec["actions"] for rec in results["heuristic"].records])
    with pytest.raises(ValueError, match="two or more different agents"):
        run_skill(["random", "random"], out, decks=["brae", "karsh"], games=2)


def test_balance_skill_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s"
    assert main(["balance", "skill", "--skills", "random,heuristic", "--decks", "brae", "karsh", "--games", "2",
                 "--out", str(out), "--workers", "1", "--quiet", "--no-plots"]) == 0
    text = capsys.readouterr().out
    assert "| deck | random | heuristic | across skill |" in text and (out / "skill.md").exists()
    assert main(["balance", "skill", "--agents", "random,heuristic", "--out", str(out)]) == 2
    assert "--skills" in capsys.readouterr().err
