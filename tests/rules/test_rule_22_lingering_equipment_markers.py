"""Section 22 (Lingering), section 23 (Equipment) and section 24 (Markers)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.cards import CardError, load_card_table
from hostwcg_env.engine.selectors import in_play, is_permanent

from ._util import expect, make, play


def test_rule_22_lingering_cards_stay_and_count_as_permanents() -> None:
    """Rule 22 (Lingering): a Lingering Sorcery stays in its slot as a permanent and its text
    keeps working; a Lingering Ambush stays face up after it is activated."""
    g = make({"turn": 4, "phase": "action1",
              "A": {"back": {0: {"card": "Watchtower"}}, "pool": {"%": 1}},
              "B": {"hand": ["Squire"], "pool": {"&": 1}, "front": {0: "Ogre"}}})
    play(g, "B play Squire", "resolve", "B slot f1")
    play(g, "A activate Watchtower", "resolve")
    expect(g, {"A.b0": "Watchtower", "A.b0.face_down": False, "B.f0.power": 2, "B.f1.power": 1})
    assert is_permanent(g.obj_at("A.b0"))


def test_rule_22_1_a_lingering_card_remains_in_its_slot() -> None:
    """22.1: once used, a Lingering Sorcery (Beacon) remains in the slot it was played in, turn
    after turn, while a non-Lingering one (Insight) goes to the drop zone."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Beacon", "Insight"], "pool": {"&": 1, "!": 1}, "front": {0: "Squire"}}})
    play(g, "A play Beacon", "resolve", "A slot b3")
    play(g, "A play Insight", "resolve", "A slot b0", "resolve")
    expect(g, {"A.b3": "Beacon", "A.b0": "empty", "A.drop": ["Insight"], "A.f0.power": 3})
    play(g, "to T3 action1")
    expect(g, {"A.b3": "Beacon", "A.f0.power": 3})


@pytest.mark.parametrize("ctype", ["entity", "form"])
def test_rule_22_3_only_sorceries_and_ambushes_can_be_lingering(ctype: str) -> None:
    """22.3: the card loader refuses Lingering on any other card type and accepts it on
    Sorceries and Ambushes."""
    base = {"name": "X", "resource": "authority", "cost": "&", "keywords": ["lingering"]}
    stats = {"health": 1, "power": 1} if ctype == "entity" else {}
    with pytest.raises(CardError, match="22.3"):
        load_card_table({**base, "type": ctype, **stats}, "<test>")
    static = {"kind": "static", "affects": {"type": "entity", "controller": "you"}, "power": 1}
    ambush = {"kind": "ambush", "when": {"event": "attacks"}, "steps": [{"do": "draw", "amount": 1}]}
    for ok, ability in (("sorcery", static), ("ambush", ambush)):
        card = load_card_table({**base, "type": ok, "abilities": [ability]}, "<test>")
        assert card.is_lingering


def test_rule_23_equipment_is_equipped_to_a_permanent_as_a_marker() -> None:
    """Rule 23 (Equipment): Iron Blade targets a permanent when cast, then leaves its backrow
    slot and becomes a face-up marker under that permanent, which gains +2 power."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Iron Blade"], "pool": {"&": 1},
                                                   "front": {3: "Squire"}}})
    play(g, "A play Iron Blade", "A target A.f3", "resolve", "A slot b1", "resolve")
    expect(g, {"A.b1": "empty", "A.f3.markers": ["Iron Blade"], "A.f3.power": 4, "A.drop": []})
    marker = g.obj_at("A.f3.m0")
    assert marker.zone == "marker" and not marker.face_down


def test_rule_24_markers_are_in_play_outside_slots_and_drop_with_their_card() -> None:
    """Rule 24 (Markers): a marker is attached to a card in play, is itself in play but holds
    no slot, and goes to the drop zone when its card leaves."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Spark"], "pool": {"£": 1}},
              "B": {"front": {0: {"card": "Squire", "markers": ["Iron Blade"]}}}})
    assert "Iron Blade" in [o.name for o in in_play(g.state)]
    expect(g, {"B.front": ["Squire"], "B.back": [], "B.f0.markers": ["Iron Blade"]})
    play(g, "A play Spark", "A target B.f0", "resolve", "A slot b0", "resolve")
    expect(g, {"B.f0": "empty", "B.drop": {"any_order": ["Squire", "Iron Blade"]}})
