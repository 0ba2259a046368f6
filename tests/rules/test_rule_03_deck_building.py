"""Section 3 (Deck Building), checked by ``hostwcg_env.cards.check_deck``."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.cards import check_deck, default_pool

FILLERS = ["Ogre", "Duelist", "Wall", "Herald", "Sentinel", "Spark", "Insight", "Snuff", "Mend",
           "Snare", "Aegis"]


def deck(**counts: int) -> dict:
    """50 cards: 4 Squires, 4 of each filler, topped up with Pingers; ``counts`` overrides."""
    cards = {"Squire": 4, **{n: 4 for n in FILLERS}, "Pinger": 0}
    cards.update(counts)
    if "Pinger" not in counts:
        cards["Pinger"] = 50 - sum(cards.values())
    return {"name": "t", "host": "Test Host", "cards": cards}


def codes(table: dict) -> list[str]:
    return [p.code for p in check_deck(table, default_pool())]


@pytest.mark.rules("3")
def test_rule_3_1_deck_must_follow_the_constraints() -> None:
    """Rule 3 (Deck Building), 3.1: a list meeting every constraint is legal, and one that
    breaks a constraint is refused with a problem per broken constraint."""
    good = deck()
    assert sum(good["cards"].values()) == 50
    assert codes(good) == []
    assert sorted(codes(deck(Squire=5, Pinger=3))) == ["COPY_LIMIT", "DECK_SIZE"]


def test_rule_3_1_1_fifty_main_deck_cards_and_one_host() -> None:
    """3.1.1: exactly 50 main-deck cards and exactly 1 Host (A10)."""
    assert codes(deck()) == []
    assert codes(deck(Pinger=1)) == ["DECK_SIZE"]  # 49 cards
    assert codes(deck(Pinger=3)) == ["DECK_SIZE"]  # 51 cards
    no_host = dict(deck(), host=[])
    assert codes(no_host) == ["HOST_COUNT"]
    two_hosts = dict(deck(), host=["Test Host", "Strife Host"])
    assert codes(two_hosts) == ["HOST_COUNT"]
    not_a_host = dict(deck(), host="Squire")
    assert codes(not_a_host) == ["HOST_COUNT"]


def test_rule_3_1_2_at_most_four_of_a_named_card() -> None:
    """3.1.2: no more than 4 copies of any named card; printings count by name."""
    assert codes(deck(Squire=4)) == []
    problems = check_deck(deck(Squire=5, Pinger=1), default_pool())
    assert [p.code for p in problems] == ["COPY_LIMIT"]
    assert "Squire: 5 copies" in problems[0].message
    printings = deck(Squire=3, Pinger=1)
    printings["cards"]["Squire [print 2]"] = 2
    assert codes(printings) == ["COPY_LIMIT"]
