"""Section 36 (Persistence), section 37 (Controller vs Owner), section 38 (Sources)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import expect, legal, make, play


@pytest.mark.rules("36")
def test_rule_36_1_a_card_that_changes_zone_is_a_new_card() -> None:
    """Rule 36 (Persistence), 36.1: damage and effects last only while the card stays in its
    zone: Recall returns a damaged, buffed Ogre to the hand, and replayed it is a fresh object
    with no damage, no buff and new Creation Sickness."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Recall"], "pool": {"%": 1, "£": 3},
                    "front": {0: {"card": "Ogre", "damage": 2, "mods": [{"power": 2}]}}}})
    old = g.obj_at("A.f0").id
    play(g, "A play Recall", "A target A.f0", "resolve", "A slot b0", "resolve")
    expect(g, {"A.hand": ["Ogre"], "A.f0": "empty"})
    play(g, "A play Ogre", "resolve", "A slot f0")
    assert g.obj_at("A.f0").id != old
    expect(g, {"A.f0.damage": 0, "A.f0.power": 3, "A.f0.sick": True})


def test_rule_36_2_1_moving_slots_keeps_the_same_card() -> None:
    """36.2.1: moving between slots is not a zone change: Pinger, whose once-per-turn ability
    was used, is moved by Shift and is still the same card, so the ability stays used."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Shift"], "pool": {"&": 1}, "front": {0: "Pinger"}},
              "B": {"front": {0: "Wall"}}})
    play(g, "A activate A.f0 0", "A target B.f0", "resolve")
    assert not legal(g, "A activate A.f0 0")
    pinger = g.obj_at("A.f0").id
    play(g, "A play Shift", "A target A.f0", "resolve", "A slot b0", "A pass", "B pass", "A slot f2")
    assert g.obj_at("A.f2").id == pinger
    assert not legal(g, "A activate A.f2 0")


def test_rule_37_owner_and_controller() -> None:
    """Rule 37 (Controller vs Owner): after Seduce, A controls B's Squire but B still owns it;
    when it is destroyed it goes to its owner's drop zone."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Seduce", "Spark"], "pool": {"!": 2, "£": 1}},
              "B": {"front": {1: "Squire"}}})
    play(g, "A play Seduce", "A target B.f1", "resolve", "A slot b0", "A pass", "B pass", "A slot f3")
    expect(g, {"A.f3": "Squire", "A.f3.controller": "A", "A.f3.owner": "B", "B.f1": "empty"})
    play(g, "A play Spark", "A target A.f3", "resolve", "A slot b0", "resolve")
    expect(g, {"A.f3": "empty", "B.drop": ["Squire"], "A.drop": ["Seduce", "Spark"]})


def test_rule_38_the_source_of_a_destruction_is_recorded() -> None:
    """Rule 38 (Sources): a destruction names what destroyed the Entity and how (combat or
    effect), and 'destroys' effects of the source react to it (Slayer draws)."""
    g = make({"turn": 3, "phase": "battle", "A": {"front": {0: "Slayer"}, "deck": 5},
              "B": {"front": {0: "Squire"}}})
    play(g, "A attack f0", "A pass", "B pass", "A target B.f0", *["A pass", "B pass"] * 2)
    events = play(g, "A pass", "B pass")
    assert "Destroyed(Squire, source=Slayer, kind=combat)" in events
    assert "Destroys(Slayer, Squire)" in events
    play(g, "resolve")
    expect(g, {"A.hand": 1})


def test_rule_38_1_2_final_damage_by_an_effect_is_destruction_by_effect() -> None:
    """38.1.2: a Squire with 1 combat damage finished off by Flash Spark is destroyed by card
    effect, with Flash Spark as the source."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Flash Spark"], "pool": {"£": 1}},
              "B": {"front": {0: {"card": "Squire", "damage": 1}}}})
    events = play(g, "A play Flash Spark", "A target B.f0", "resolve", "A slot b0", "resolve")
    assert "Destroyed(Squire, source=Flash Spark, kind=effect)" in events


def test_rule_38_3_1_health_reduced_then_damage_destroys() -> None:
    """38.3.1: Ogre's health is reduced to 1 (Wither) without destroying it; Flash Spark's
    damage then destroys it, and Flash Spark is the source."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Wither", "Flash Spark"], "pool": {"!": 1, "£": 1}},
              "B": {"front": {0: "Ogre"}}})
    play(g, "A play Wither", "A target B.f0", "resolve", "A slot b0", "resolve")
    expect(g, {"B.f0": "Ogre", "B.f0.health": 1})
    events = play(g, "A play Flash Spark", "A target B.f0", "resolve", "A slot b0", "resolve")
    assert "Destroyed(Ogre, source=Flash Spark, kind=effect)" in events
