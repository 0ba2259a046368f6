"""Section 30 (Targeting), section 31 (Priority), section 32 (The Stack)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import decision, expect, legal, make, play, texts


def test_rule_30_targets_are_chosen_when_the_effect_is_put_on_the_stack() -> None:
    """Rule 30 (Targeting): Spark offers exactly the legal targets (Entities, not Hosts) when
    it is played, and the chosen one is locked in on the stack; Cull, which does not say
    'target', chooses only as it resolves."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Spark", "Cull"], "pool": {"£": 2},
                                                   "front": {0: "Squire"}},
              "B": {"front": {3: "Ogre"}}})
    play(g, "A play Spark")
    assert sorted(str(a) for a in g.legal_actions()) == ["target A.f0", "target B.f3"]
    play(g, "A target B.f3")
    assert list(g.state.stack[-1].targets.values()) == [[g.obj_at("B.f3").id]]
    play(g, "resolve", "A slot b0", "resolve", "A play Cull")
    assert g.state.stack[-1].targets == {}
    play(g, "resolve", "A slot b0", "A pass", "B pass")
    assert decision(g) == "A choose_target"
    assert [str(a) for a in g.legal_actions()] == ["target B.f3"]


def test_rule_31_priority_moves_between_players() -> None:
    """Rule 31 (Priority): the turn player has priority first; acting keeps it; passing hands
    it to the opponent; two passes in a row resolve the top of the stack."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Squire"], "pool": {"&": 1}},
              "B": {"hand": ["Quickling"], "pool": {"!": 1}}})
    assert decision(g) == "A priority"
    play(g, "A play Squire")
    assert decision(g) == "A priority"
    play(g, "A pass")
    assert decision(g) == "B priority"
    play(g, "B pass")
    assert decision(g) == "A choose_slot"


def test_rule_31_3_continuous_effects_use_no_stack_and_no_priority() -> None:
    """31.3: a continuous effect (Banner Knight's +1/+1) applies the moment its source is in
    play and stops the moment it leaves: no stack item, no priority passes for it."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Banner Knight", "Snuff"], "pool": {"&": 1, "$": 1, "£": 2},
                    "front": {0: "Squire"}}})
    play(g, "A play Banner Knight", "A pay $", "resolve")
    play(g, "A slot f1")
    expect(g, {"A.f0.power": 3, "A.f0.health": 3, "stack": [], "decision": "A priority"})
    play(g, "A play Snuff", "A target A.f1", "resolve", "A slot b0", "resolve")
    expect(g, {"A.f1": "empty", "A.f0.power": 2, "A.f0.health": 2, "stack": []})


def test_rule_32_the_stack_resolves_last_in_first_out() -> None:
    """Rule 32 (The Stack): cards and effects go on top of the stack and resolve from the top."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire", "Flash Spark"], "pool": {"&": 1, "£": 1}},
              "B": {"front": {0: "Wall"}}})
    play(g, "A play Squire", "A play Flash Spark", "A target B.f0")
    expect(g, {"stack": ["Flash Spark", "Squire"]})
    play(g, "resolve", "A slot b0", "resolve")
    expect(g, {"stack": ["Squire"], "B.f0.damage": 1})


def test_rule_32_3_the_stack_resolves_once_both_players_pass() -> None:
    """32.3: nothing resolves while a player still may respond: one pass hands priority on,
    the second pass in a row resolves."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Squire"], "pool": {"&": 1}}})
    play(g, "A play Squire", "A pass")
    expect(g, {"stack": ["Squire"], "decision": "B priority"})
    play(g, "B pass")
    expect(g, {"decision": "A choose_slot"})


@pytest.mark.rules("32.5", "32.6")
def test_rule_32_5_1_new_items_go_on_top_before_the_next_resolves() -> None:
    """32.5, 32.5.1, 32.6: after an item resolves, players may respond; a trigger it caused
    goes on top of what is left and resolves before the stack continues with the next item."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Squire"], "pool": {"&": 1}},
              "B": {"hand": ["Herald"], "pool": {"&": 1}}}, cards=[FAST_HERALD])
    play(g, "A play Squire", "A pass", "B play Herald", "B pass", "A pass", "B slot f0")
    expect(g, {"stack": ["Herald", "Squire"], "decision": "A priority"})
    events = play(g, "resolve")
    assert "Draw(B, Squire)" in events and not any(e.startswith("Created(A") for e in events)
    expect(g, {"stack": ["Squire"], "decision": "A priority"})
    play(g, "resolve", "A slot f0")
    expect(g, {"A.f0": "Squire", "stack": []})


FAST_HERALD = {"name": "Herald", "type": "entity", "resource": "authority", "cost": "&",
               "subtypes": ["Human"], "health": 2, "power": 1, "keywords": ["fast"],
               "abilities": [{"kind": "triggered", "when": {"event": "created", "subject": "self"},
                              "steps": [{"do": "draw", "amount": 1}]}]}

EXAMPLE = [
    {"name": "Vampire Aristocrat", "type": "entity", "resource": "strife", "cost": "£",
     "health": 2, "power": 2},
    {"name": "Grace, Aligner of Stars", "type": "entity", "resource": "emotion", "cost": "!",
     "health": 2, "power": 1, "keywords": ["fast"],
     "abilities": [{"kind": "triggered", "when": {"event": "created", "subject": "self"},
                    "steps": [{"do": "draw", "amount": 1}]}]},
]


def test_rule_32_9_the_stack_example() -> None:
    """32.9 (Stack example): John (A, turn player) plays Vampire Aristocrat; Kate (B) responds
    with Grace, Aligner of Stars; Grace resolves first, its 'when created' trigger goes on the
    stack and resolves, and finally Vampire Aristocrat is created."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Vampire Aristocrat"], "pool": {"£": 1}},
              "B": {"hand": ["Grace, Aligner of Stars"], "pool": {"!": 1}, "deck": 5}}, cards=EXAMPLE)
    play(g, "A play Vampire Aristocrat", "A pass")
    assert legal(g, "B play Grace, Aligner of Stars")
    play(g, "B play Grace, Aligner of Stars")
    expect(g, {"stack": ["Grace, Aligner of Stars", "Vampire Aristocrat"]})
    start = len(g.events)
    play(g, "B pass", "A pass", "B slot f0")  # John does not respond: Grace resolves
    expect(g, {"stack": ["Grace, Aligner of Stars", "Vampire Aristocrat"], "B.f0": "Grace, Aligner of Stars"})
    play(g, "resolve")  # the triggered effect; John has no response
    expect(g, {"B.hand": 1, "stack": ["Vampire Aristocrat"], "A.front": []})
    play(g, "resolve", "A slot f2")
    ev = texts(g, start)
    order = ["Created(B, Grace, Aligner of Stars)", "TriggerPlaced(B, Grace, Aligner of Stars)",
             "Draw(B, Squire)", "Created(A, Vampire Aristocrat)"]
    assert [e for e in ev if e in order] == order
    expect(g, {"A.f2": "Vampire Aristocrat", "stack": []})
