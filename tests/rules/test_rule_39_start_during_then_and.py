"""Section 39 (Start of... vs During...) and section 40 (Then... vs And...)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import decision, expect, legal, make, play


def test_rule_39_start_of_phase_triggers_and_during_options() -> None:
    """Rule 39 (Start of... vs During...): 'at the start of your turn' (Dawn Shrine) triggers
    by itself when the Start Phase begins; 'during your Start Phase, you may' (Morning Ritual)
    is an option A may use while the Start Phase lasts, and not afterwards."""
    g = make({"turn": 2, "phase": "action2", "priority": "B",
              "A": {"forms": ["Dawn Shrine", "Morning Ritual"], "deck": 10}})
    events = play(g, "B pass", "A pass", "B pass", "A pass")  # B's End Phase, then A's turn 3
    assert events[-3:] == ["TurnBegan(A, 3)", "PhaseBegan(start)", "TriggerPlaced(A, Dawn Shrine)"]
    assert legal(g, "A activate A.form1 0")
    play(g, "resolve")
    expect(g, {"A.hand": 1, "phase": "start"})
    play(g, "A activate A.form1 0", "resolve")
    expect(g, {"A.hand": 2})
    assert not legal(g, "A activate A.form1 0")
    play(g, "A pass", "B pass")
    expect(g, {"phase": "action1"})
    assert not legal(g, "A activate A.form1 0")


RITES = ["A target B.f0", "resolve", "A slot b0", "resolve"]


@pytest.mark.rules("40")
def test_rule_40_1_then_and_and_decide_how_an_effect_resolves() -> None:
    """Rule 40 (Then... vs And...), 40.1: 'deal 2 damage, then +2 health' (Harsh Rite) lets the
    game action destroy the 2/2 Squire in between; 'deal 2 damage and +2 health' (Bulwark
    Rite) does both at once, so the Squire survives as a 4-health Squire with 2 damage."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Harsh Rite"], "pool": {"£": 1}},
              "B": {"front": {0: "Squire"}}})
    play(g, "A play Harsh Rite", *RITES)
    expect(g, {"B.f0": "empty", "B.drop": ["Squire"]})
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Bulwark Rite"], "pool": {"%": 1}},
              "B": {"front": {0: "Squire"}}})
    play(g, "A play Bulwark Rite", *RITES)
    expect(g, {"B.f0": "Squire", "B.f0.health": 4, "B.f0.damage": 2})


def test_rule_40_2_then_and_and_mean_nothing_until_resolution() -> None:
    """40.2: before it resolves, an effect with 'then' and one with 'and' are played the same
    way: the same target choice, the same kind of stack item with the same target."""
    seen = []
    for card, pool in (("Harsh Rite", {"£": 1}), ("Bulwark Rite", {"%": 1})):
        g = make({"turn": 1, "phase": "action1", "A": {"hand": [card], "pool": pool},
                  "B": {"front": {0: "Squire", 2: "Wall"}}})
        play(g, f"A play {card}")
        options = sorted(str(a) for a in g.legal_actions())
        play(g, "A target B.f2", "resolve", "A slot b1")
        item = g.state.stack[-1]
        seen.append((options, item.kind, list(item.targets.values()) == [[g.obj_at("B.f2").id]]))
    assert seen[0] == seen[1] == (["target B.f0", "target B.f2"], "spell", True)


LATE_BOLT = {"name": "Late Bolt", "type": "sorcery", "resource": "strife", "cost": "£",
             "text": "Draw a card, then deal 2 damage to target Entity.",
             "abilities": [{"kind": "spell", "targets": {"t": "entity"},
                            "steps": [{"do": "draw", "amount": 1},
                                      {"do": "damage", "link": "then", "amount": 2, "to": "t"}]}]}


def test_rule_40_2_1_targets_are_declared_whatever_part_uses_them() -> None:
    """40.2.1: a target used only after 'then' must still be declared when the card is cast;
    with no Entity to target, Late Bolt cannot be cast at all."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Late Bolt"], "pool": {"£": 1}}},
             cards=[LATE_BOLT])
    assert not legal(g, "A play Late Bolt")
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Late Bolt"], "pool": {"£": 1}},
              "B": {"front": {0: "Squire"}}}, cards=[LATE_BOLT])
    play(g, "A play Late Bolt")
    assert decision(g) == "A choose_target"
    play(g, "A target B.f0", "resolve", "A slot b0", "resolve")
    expect(g, {"A.hand": 1, "B.f0": "empty"})


GRIM_PACT = {"name": "Grim Pact", "type": "sorcery", "resource": "strife", "cost": "£",
             "text": "Destroy target Entity you control, then deal 2 damage to it and draw a card.",
             "abilities": [{"kind": "spell", "targets": {"t": {"type": "entity", "controller": "you"}},
                            "steps": [{"do": "destroy", "to": "t"},
                                      {"do": "damage", "link": "then", "amount": 2, "to": "t"},
                                      {"do": "draw", "link": "and", "amount": 1}]}]}


def test_rule_40_4_2_an_and_clause_is_done_whole_or_not_at_all() -> None:
    """40.4.2: after 'destroy it', the 'deal 2 damage to it and draw a card' clause can no
    longer resolve in full (it is gone), so neither half happens: no card is drawn."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Grim Pact"], "pool": {"£": 1}, "front": {0: "Squire"}, "deck": 5}},
             cards=[GRIM_PACT])
    events = play(g, "A play Grim Pact", "A target A.f0", "resolve", "A slot b0", "resolve")
    assert "Destroyed(Squire, source=Grim Pact, kind=effect)" in events
    assert not any(e.startswith(("Draw(", "DamageDealt(")) for e in events)
    expect(g, {"A.hand": 0, "A.deck": 5, "A.drop": ["Squire", "Grim Pact"]})
