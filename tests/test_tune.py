"""``hostwcg balance tune`` (analysis/tune.py): proposals ranked by per-card statistics and
checked by the deck rules, deck files written beside (never over) the old ones, the focused
comparison, and a tiny tuning run end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.analysis import Study
from hostwcg_env.analysis.simulate import resolve_decks
from hostwcg_env.analysis.tune import TunePlan, parse_band, payable, proposals, run_tune, write_deck
from hostwcg_env.cards import default_pool, load_deck
from hostwcg_env.cli import main

DECKS2 = ["brae_deep_roots", "karsh_ember_tide"]


def _card(deck: str, card: str, iwd: float) -> dict:
    return {"deck": deck, "card": card, "condition": "drawn", "iwd": iwd}


def test_proposals_follow_the_card_statistics_and_the_deck_rules() -> None:
    brae = resolve_decks(["brae"])[0]
    pool = default_pool()
    cards = [_card("brae_deep_roots", "Mossback Tortoise", 0.20), _card("brae_deep_roots", "Sleepy Badger", -0.10),
             _card("brae_deep_roots", "Hearthkeeper", 0.05),
             _card("other", "Wandering Druid", -0.30), _card("other", "Sapling Sower", 0.40),
             _card("other", "Grove Tender", 0.50)]  # brae already has 4 Grove Tender: never proposed
    down = proposals(brae, -1, cards, pool, 2)
    assert down[0] == "brae_deep_roots: -Mossback Tortoise +Wandering Druid"  # its best card out, the weakest in
    up = proposals(brae, +1, cards, pool, 2)
    assert up[0] == "brae_deep_roots: -Sleepy Badger +Sapling Sower"  # its worst out, the strongest in
    assert not any("+Grove Tender" in p for p in up + down)
    assert all(p.count(" -") == 1 for p in up + down)
    karsh_host = pool["Karsh, the Ember Tyrant"]
    assert not payable(pool["Mossback Tortoise"], karsh_host) and payable(pool["Mossback Tortoise"], pool[brae.host])


def test_a_deck_file_is_written_once_and_reads_back(tmp_path: Path) -> None:
    brae = resolve_decks(["brae"])[0]
    path = write_deck(brae, tmp_path, "a plan")
    assert load_deck(path).main == tuple(brae.main) and load_deck(path).host == brae.host
    with pytest.raises(FileExistsError, match="never writes over"):
        write_deck(brae, tmp_path)


def test_a_focused_study_plays_only_its_decks_pairs() -> None:
    st = Study.make(decks=["brae", "karsh", "lior"], games=2)
    focused = Study(**{**st.__dict__, "focus": "karsh_ember_tide"})
    assert len(st.pairs()) == 3 and len(focused.pairs()) == 2
    assert all("karsh_ember_tide" in s.key for s in focused.specs()) and "focus" in focused.identity()


def test_parse_band() -> None:
    assert parse_band("0.45,0.55") == (0.45, 0.55)
    for bad in ("0.55,0.45", "x", "0.4", "0.2,1.5"):
        with pytest.raises(ValueError, match="--band"):
            parse_band(bad)


def test_a_tiny_tuning_run(tmp_path: Path) -> None:
    said: list[str] = []
    study = Study.make(decks=DECKS2, games=4)
    # no rate of 4 games a pair (a multiple of 1/8) lies in 30-32%: both decks are outside the band
    res = run_tune(study, tmp_path, TunePlan(band=(0.30, 0.32), rounds=1, candidates=1, look_every=2),
                   workers=1, quiet=True, say=said.append)
    assert [r["round"] for r in res.rounds] == [1, 2]  # one round of changes, then the final measure
    assert res.rounds[0]["seed"] != res.rounds[1]["seed"]  # a change is judged on other seeds
    tested = res.rounds[0]["tests"]
    assert tested and all(t["swap"].count("-") >= 1 for t in tested)
    for d in DECKS2:
        assert load_deck(tmp_path / "round-1" / "decks" / f"{d}.toml").host
    md = (tmp_path / "tune.md").read_text()
    assert "## Round 1" in md and "tested `" in md and (tmp_path / "tune.csv").exists()
    assert said[0].startswith("round 1: ")


def test_balance_tune_command_refuses_a_bad_band(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "tune", "--decks", *DECKS2, "--band", "0.6,0.4", "--agent", "random"]) == 2
    assert "--band '0.6,0.4'" in capsys.readouterr().err
