"""Section 13 (Reading a Card): the card loader reads each printed field, and the engine uses it."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.cards import load_card_table
from hostwcg_env.engine import CardType, Res
from hostwcg_env.engine.stats import health, host_health, host_soul, power

from ._util import legal, make, play

BRUTE = {"name": "Brute", "type": "entity", "resource": "strife", "cost": "££$",
         "subtypes": ["Giant"], "health": 5, "power": 4}
HOST = {"name": "Amity Host", "type": "host", "resource": "amity", "health": 9, "soul": 3}


def test_rule_13_a_card_is_read_from_its_fields() -> None:
    """Rule 13 (Reading a Card): resource type, cost, type and stats all come from the card."""
    card = load_card_table(BRUTE, "<test>")
    assert (card.type, card.resource, card.cost_text(), card.health, card.power) == (
        CardType.ENTITY, Res.STRIFE, "££$", 5, 4)


@pytest.mark.rules("11.3.1")
def test_rule_13_1_resource_type() -> None:
    """13.1: a card's resource type is read from the card; a Host's type is what its # action
    gives (11.3.1)."""
    assert load_card_table(BRUTE, "<test>").resource is Res.STRIFE
    assert load_card_table(HOST, "<test>").resource is Res.AMITY
    g = make({"turn": 1, "phase": "action1", "A": {"host": "Amity Host"}}, cards=[HOST])
    play(g, "A ap host")
    assert g.state.players[0].pool == {"%": 1}


def test_rule_13_2_cost() -> None:
    """13.2: the cost is read from the card and is what playing it requires."""
    card = load_card_table(BRUTE, "<test>")
    assert card.cost == (Res.STRIFE, Res.STRIFE, Res.GENERIC)
    for pool, ok in (({"£": 3}, True), ({"£": 2}, False), ({"£": 1, "$": 2}, False)):
        g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Brute"], "pool": pool}}, [BRUTE])
        assert legal(g, "A play Brute") is ok, pool


def test_rule_13_3_health_of_entities_and_hosts() -> None:
    """13.3: Entities and Hosts have a printed health, which is their health in play."""
    g = make({"turn": 1, "phase": "action1", "A": {"host": "Amity Host", "front": {0: "Brute"}}},
             cards=[BRUTE, HOST])
    assert health(g.state, g.obj_at("A.f0")) == 5
    assert host_health(g.state, 0) == 9


def test_rule_13_4_power_of_entities_and_soul_of_hosts() -> None:
    """13.4: an Entity's printed power and a Host's printed soul are their values in play."""
    g = make({"turn": 1, "phase": "action1", "A": {"host": "Amity Host", "front": {0: "Brute"}}},
             cards=[BRUTE, HOST])
    assert power(g.state, g.obj_at("A.f0")) == 4
    assert host_soul(g.state, 0) == 3
