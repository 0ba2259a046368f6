"""Section 17 (Ambush) and section 18 (Entity)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.engine import IllegalActionError
from hostwcg_env.engine.stats import health, power

from ._util import expect, legal, make, play


def test_rule_17_an_ambush_is_laid_face_down_then_activated_by_its_event() -> None:
    """Rule 17 (Ambush): laid face down for free; when its requirement (an opposing Entity
    attacks) is met its controller pays, flips it and its effect resolves."""
    g = make({"turn": 3, "phase": "action1", "A": {"hand": ["Snare"], "pool": {}},
              "B": {"pool": {"£": 1}}})
    play(g, "A play Snare", "resolve", "A slot b0")
    expect(g, {"A.b0": "Snare", "A.b0.face_down": True})
    g = make({"turn": 4, "phase": "battle", "A": {"back": {0: "Snare"}, "pool": {"£": 1}},
              "B": {"front": {2: "Ogre"}}})
    play(g, "B attack f2")
    assert legal(g, "A activate Snare")
    play(g, "A activate Snare")
    expect(g, {"A.b0.face_down": False, "A.pool": {}, "stack": ["Snare"]})
    play(g, "resolve")
    expect(g, {"B.f2": "empty", "B.drop": ["Ogre"], "A.drop": ["Snare"]})


def test_rule_18_entities_live_in_the_frontrow_and_die_to_damage() -> None:
    """Rule 18 (Entity): an Entity is created into a frontrow slot with Creation Sickness and
    is destroyed by damage equal to its health, at once, inside the resolution (35.2, 35.4):
    it reaches the drop zone before the Sorcery that killed it."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire", "Spark"], "pool": {"&": 1, "£": 1}}})
    play(g, "A play Squire", "resolve", "A slot f1")
    expect(g, {"A.f1": "Squire", "A.f1.sick": True, "A.back": []})
    play(g, "A play Spark", "A target A.f1", "resolve", "A slot b0", "resolve")
    expect(g, {"A.f1": "empty", "A.drop": ["Squire", "Spark"]})


def test_rule_18_1_no_entity_without_a_free_frontrow_slot() -> None:
    """18.1: with every frontrow slot occupied an Entity cannot be played (the error cites
    18.1), though a Sorcery still can."""
    full = {i: "Wall" for i in range(5)}
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire", "Insight"], "pool": {"&": 1, "!": 1}, "front": full}})
    assert not legal(g, "A play Squire") and legal(g, "A play Insight")
    with pytest.raises(IllegalActionError, match=r"^18\.1: "):
        g.apply_text("A play h0")


def test_rule_18_4_damage_does_not_decrease_health() -> None:
    """18.4: an Entity's damage is kept apart from its health: Ogre (4 health) with 3 damage
    still has 4 health and is in play."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Spark"], "pool": {"£": 1}},
              "B": {"front": {0: {"card": "Ogre", "damage": 1}}}})
    play(g, "A play Spark", "A target B.f0", "resolve", "A slot b0", "resolve")
    ogre = g.obj_at("B.f0")
    assert ogre.damage == 3 and health(g.state, ogre) == 4
    expect(g, {"B.f0": "Ogre", "B.f0.health": 4, "B.f0.damage": 3})


def test_rule_18_6_the_seed_example_john_and_kate() -> None:
    """18.6 and its example (Health/Power Altering Effects): John's 2/2 Entity with his +1/+1
    Entity and Kate's -2/-2 Entity becomes 1/1; with Kate's Form 'All Entities become 4 health
    and 2 power' it is 4/2."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"front": {0: "Squire", 1: "Banner Knight"}},
              "B": {"front": {0: "Hex Witch"}, "hand": ["Equalizer"], "pool": {"%": 2}}})
    squire = g.obj_at("A.f0")
    assert (health(g.state, squire), power(g.state, squire)) == (1, 1)
    play(g, "to T2 action1", "B play Equalizer", "resolve")
    expect(g, {"A.f0.health": 4, "A.f0.power": 2})


def test_rule_18_6_1_increases_are_applied_first() -> None:
    """18.6.1: increases are applied before decreases, whatever order the effects were given
    in: a 1-power Entity given -2 power and then +1 power has 0 power (1 + 1 - 2), not 1 (which
    applying the decrease first, floored at 0, would give)."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"front": {0: {"card": "Quickling", "mods": [{"power": -2}, {"power": 1}]}}}})
    expect(g, {"A.f0.power": 0})


def test_rule_18_6_2_decreases_are_applied_after_increases() -> None:
    """18.6.2: the decreases come after all increases: a 2-health Squire given -2 health and
    then +1 health has 1 health and stays in play (its health never counts as 0 on the way)."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"front": {0: {"card": "Squire", "mods": [{"health": -2}, {"health": 1}]}}}})
    expect(g, {"A.f0": "Squire", "A.f0.health": 1, "A.drop": []})
    g = make({"turn": 1, "phase": "action1", "A": {"front": {0: "Squire", 1: "Banner Knight"}},
              "B": {"front": {0: "Hex Witch"}}})
    expect(g, {"A.f0.health": 1, "A.f0.power": 1, "A.f1.health": 1, "A.f1.power": 1})
