"""One lookup for every typed name (hostwcg_env/cards/lookup.py): a card in ``hostwcg cards
show`` and in ``hostwcg play``'s ``show``, a deck anywhere a deck is named, and the "did you
mean" of an unknown agent: any case, punctuation aside, a unique start or word, else the names
it could be or the closest ones."""

from __future__ import annotations

import pytest

from hostwcg_env.cards import default_pool
from hostwcg_env.cards.decks import DeckError, deck_path
from hostwcg_env.cards.lookup import lookup, name_key
from hostwcg_env.cli import main

POOL = default_pool()


@pytest.mark.parametrize("typed,card", [
    ("grace", "Grace, Aligner of Stars"),
    ("Xin", "Xin, Master of Pain"),
    ("xin master", "Xin, Master of Pain"),
    ("GRACE, ALIGNER OF STARS", "Grace, Aligner of Stars"),
    ("aligner", "Grace, Aligner of Stars"),
    ("Squire", "Squire"),
])
def test_cards_show_finds_a_card_by_any_case_a_start_or_a_word(typed: str, card: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert lookup(typed, POOL).name == card
    assert main(["cards", "show", *typed.split()]) == 0
    assert capsys.readouterr().out.startswith(f"{card}\n  type:")


def test_an_exact_name_wins_over_longer_names_that_start_with_it() -> None:
    starts = [n for n in POOL if name_key(n).startswith("blast") and n != "Blast"]
    assert "Blast" in POOL and lookup("blast", POOL).name == "Blast", starts


def test_ambiguous_and_unknown_names_say_what_they_could_be(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "show", "bl"]) == 1
    out = capsys.readouterr().out.strip()
    fits = [n for n in POOL if name_key(n).startswith("bl")]
    assert len(fits) > 5 and "\n" not in out
    assert out == f"'bl' could be more than one card: {', '.join(fits[:5])}, ... ({len(fits)} in all)"
    assert main(["cards", "show", "Squre"]) == 1
    assert capsys.readouterr().out.strip().startswith("no card named 'Squre'; did you mean 'Squire'")
    assert lookup("zzzz", POOL).near == [] and lookup("zzzz", POOL).problem() == "no card named 'zzzz'"


@pytest.mark.parametrize("typed,deck", [("karsh", "karsh_ember_tide"), ("KARSH", "karsh_ember_tide"),
                                        ("kar", "karsh_ember_tide"), ("iron law", "verena_iron_law"),
                                        ("ember", "karsh_ember_tide"), ("Verena-Iron-Law", "verena_iron_law")])
def test_decks_are_found_by_the_same_lookup(typed: str, deck: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert deck_path(typed).stem == deck
    assert main(["deck", "check", typed]) == 0
    assert capsys.readouterr().out.startswith(f"ok {typed}: ")


def test_a_deck_name_that_fits_two_decks_is_refused_with_both() -> None:
    with pytest.raises(DeckError, match="'test' is ambiguous: it could be test_authority, test_strife"):
        deck_path("test")


def test_unknown_agents_get_the_same_did_you_mean() -> None:
    from agents import make_agent

    with pytest.raises(ValueError, match=r"unknown agent 'Heuristik'; did you mean 'heuristic'\?"):
        make_agent("Heuristik")
