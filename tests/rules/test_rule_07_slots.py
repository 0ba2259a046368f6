"""Section 7 (Slots) and section 8 (Leaving/Entering Slot vs Moving Slot)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import expect, make, play

SHIFT = ["A play Shift", "A target A.f0", "resolve", "A slot b0", "A pass", "B pass"]


def test_rule_7_only_open_slots_can_be_chosen() -> None:
    """Rule 7 (Slots): a slot holding a card or token is occupied and is never offered; the
    empty ones are open and are."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire"], "pool": {"&": 1},
                    "front": {0: "Wall", 2: "Wolf", 4: "Ogre"}}})
    play(g, "A play Squire", "resolve")
    assert sorted(str(a) for a in g.legal_actions()) == ["slot f1", "slot f3"]


@pytest.mark.rules("7.3")
def test_rule_7_3_1_moving_between_slots_is_not_a_new_zone() -> None:
    """7.3 (the slots are one zone), 7.3.1: an Entity moved to another of its controller's
    slots stays the same object: it keeps its damage, its effects and its Creation Sickness."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Shift"], "pool": {"&": 1},
                    "front": {0: {"card": "Ogre", "damage": 2, "sick": True,
                                  "mods": [{"power": 1}]}}}})
    before = g.obj_at("A.f0").id
    events = play(g, *SHIFT, "A slot f3")
    assert "MovesSlot(A, Ogre, f0, f3)" in events
    assert not any(e.startswith(("LeavesPlay(A, Ogre", "EntersSlot(A, Ogre")) for e in events)
    assert g.obj_at("A.f3").id == before
    expect(g, {"A.f0": "empty", "A.f3.damage": 2, "A.f3.sick": True, "A.f3.power": 4})


@pytest.mark.rules("8", "8.2")
def test_rule_8_2_1_moving_slots_is_moving_not_leaving_or_entering() -> None:
    """Rule 8 (Leaving/Entering vs Moving), 8.2, 8.2.1: a frontrow-to-frontrow move is
    'moving slots': it fires 'moves slots' effects (Surveyor gains a resource) and no
    'enters a slot' or 'leaves play' effect (Surveyor draws nothing, Mourner draws nothing)."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Shift"], "pool": {"&": 1},
                    "front": {0: "Mourner", 1: "Surveyor"}}})
    events = play(g, *SHIFT, "A slot f4")
    assert events.index("MovesSlot(A, Mourner, f0, f4)") < events.index("TriggerPlaced(A, Surveyor)")
    play(g, "resolve")
    expect(g, {"A.f4": "Mourner", "A.pool": {"&": 1}, "A.hand": 0})


def test_rule_8_1_entering_a_slot_from_another_zone_is_entering() -> None:
    """8.1: by contrast, a card coming from the hand enters a slot (a zone change):
    Surveyor's 'enters a slot' effect draws and its 'moves slots' effect does not fire."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire"], "pool": {"&": 1}, "front": {1: "Surveyor"}}})
    play(g, "A play Squire", "resolve", "A slot f0", "resolve")
    expect(g, {"A.hand": ["Squire"], "A.pool": {}})
