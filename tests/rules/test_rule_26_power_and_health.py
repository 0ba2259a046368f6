"""Section 26 (Power and Health)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.engine.stats import health, power

from ._util import expect, make, play

SPARK = ["A play Spark", "A target B.f0", "resolve", "A slot b0", "resolve"]


def test_rule_26_power_deals_combat_damage_and_health_absorbs_it() -> None:
    """Rule 26 (Power and Health): in a fight each Entity deals damage equal to its power and
    is destroyed once its damage reaches its health."""
    g = make({"turn": 3, "phase": "battle", "A": {"front": {0: "Ogre"}},
              "B": {"front": {0: "Squire"}}})
    play(g, "A attack f0", "A pass", "B pass", "A target B.f0", *["A pass", "B pass"] * 3)
    expect(g, {"B.f0": "empty", "B.drop": ["Squire"], "A.f0": "Ogre", "A.f0.damage": 2})


def test_rule_26_1_entities_have_a_health_value() -> None:
    """26.1: every Entity has a health value: its printed health, changed by effects."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"front": {0: "Squire", 1: "Wall", 2: {"card": "Ogre", "mods": [{"health": 2}]}}}})
    s = g.state
    assert [health(s, g.obj_at(f"A.f{i}")) for i in range(3)] == [2, 5, 6]


def test_rule_26_1_1_health_is_how_much_damage_an_entity_can_have() -> None:
    """26.1.1: Ogre (4 health) survives 3 damage and is destroyed at 4."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Spark", "Spark"], "pool": {"£": 2}},
              "B": {"front": {0: {"card": "Ogre", "damage": 1}}}})
    play(g, *SPARK)
    expect(g, {"B.f0": "Ogre", "B.f0.damage": 3})
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Spark"], "pool": {"£": 1}},
              "B": {"front": {0: {"card": "Ogre", "damage": 2}}}})
    play(g, *SPARK)
    expect(g, {"B.f0": "empty", "B.drop": ["Ogre"]})


@pytest.mark.rules("26.1.4")
def test_rule_26_1_4_1_health_is_base_plus_additions_minus_deductions() -> None:
    """26.1.4, 26.1.4.1: health = (base health + additional health) - deducted health."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"front": {0: {"card": "Wall", "mods": [{"health": 3}, {"health": -2}, {"health": 1}]}}}})
    assert health(g.state, g.obj_at("A.f0")) == 5 + 3 + 1 - 2


def test_rule_26_1_4_2_the_order_effects_were_given_does_not_matter() -> None:
    """26.1.4.2: a 2-health Entity gaining +2 and losing -3 has 1 health in either order."""
    for mods in ([{"health": 2}, {"health": -3}], [{"health": -3}, {"health": 2}]):
        g = make({"turn": 1, "phase": "action1", "A": {"front": {0: {"card": "Squire", "mods": mods}}}})
        expect(g, {"A.f0": "Squire", "A.f0.health": 1})
    # and with real effects: Wither (-3) first, then Vigor (+2) still leaves a 4-health Ogre at 3
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Wither", "Vigor"], "pool": {"!": 1, "%": 1}},
              "B": {"front": {0: "Ogre"}}})
    play(g, "A play Wither", "A target B.f0", "resolve", "A slot b0", "resolve")
    play(g, "A play Vigor", "A target B.f0", "resolve", "A slot b0", "resolve")
    o = g.obj_at("B.f0")
    assert (health(g.state, o), power(g.state, o)) == (3, 5)
