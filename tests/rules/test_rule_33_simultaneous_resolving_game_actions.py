"""Section 33 (Simultaneous effects), section 34 (Resolving Effects), section 35 (Game Actions)."""

from __future__ import annotations

import hostwcg_env  # noqa: F401

from ._util import expect, make, play, texts


def test_rule_33_both_players_triggers_turn_player_first() -> None:
    """Rule 33 (Simultaneous effects and the Stack): one event triggers both players' Surveyors;
    the turn player's goes on the stack first, the other player's on top, so B draws first."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire"], "pool": {"&": 1}, "front": {0: "Surveyor"}, "deck": ["Ogre"] * 5},
              "B": {"front": {0: "Surveyor"}, "deck": ["Wall"] * 5}})
    events = play(g, "A play Squire", "resolve", "A slot f1")
    assert events[-2:] == ["TriggerPlaced(A, Surveyor)", "TriggerPlaced(B, Surveyor)"]
    assert [it.controller for it in g.state.stack] == [0, 1]
    events = play(g, "resolve all")
    assert [e for e in events if e.startswith("Draw(")] == ["Draw(B, Wall)", "Draw(A, Ogre)"]


def test_rule_34_an_effect_whose_target_is_gone_does_not_resolve() -> None:
    """Rule 34 (Resolving Effects): on resolution the targets are checked again; a Spark whose
    target has left play leaves the stack with no effect."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Spark"], "pool": {"£": 1}},
              "B": {"front": {0: {"card": "Squire", "damage": 1}}, "hand": ["Flash Spark"], "pool": {"£": 1}}})
    play(g, "A play Spark", "A target B.f0", "resolve", "A slot b0", "A pass")
    play(g, "B play Flash Spark", "B target B.f0", "resolve", "B slot b0", "resolve")
    expect(g, {"B.f0": "empty", "stack": ["Spark"]})
    events = play(g, "resolve")
    assert "Fizzled(Spark, reason=target)" in events
    assert not any(e.startswith("DamageDealt") for e in events)
    expect(g, {"stack": [], "A.drop": ["Spark"]})


def test_rule_34_5_a_resolved_effect_leaves_the_stack() -> None:
    """34.5: once an effect has fully resolved it is removed from the stack: Flash Spark's
    effect is gone and the Squire under it is now the top item."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire", "Flash Spark"], "pool": {"&": 1, "£": 1}},
              "B": {"front": {0: "Wall"}}})
    play(g, "A play Squire", "A play Flash Spark", "A target B.f0", "resolve", "A slot b0")
    expect(g, {"stack": ["Flash Spark", "Squire"]})
    events = play(g, "resolve")
    assert events.index("DamageDealt(Wall, 1, source=Flash Spark, kind=effect)") < events.index("Resolved(Flash Spark)")
    expect(g, {"stack": ["Squire"], "decision": "A priority"})


def test_rule_35_game_actions_happen_at_once_without_the_stack() -> None:
    """Rule 35 (Game Actions): an Entity with lethal damage is destroyed straight away, with
    nothing put on the stack and no player given a chance to respond first."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Spark"], "pool": {"£": 1}},
              "B": {"front": {0: "Squire"}, "hand": ["Vigor"], "pool": {"%": 1}}})
    play(g, "A play Spark", "A target B.f0", "resolve", "A slot b0")
    start = len(g.events)
    play(g, "A pass", "B pass")
    ev = texts(g, start)
    # B held Vigor (+2 health), but never had priority between the damage and the destruction
    i = ev.index("DamageDealt(Squire, 2, source=Spark, kind=effect)")
    assert ev.index("Destroyed(Squire, source=Spark, kind=effect)") > i
    assert not any(e.startswith("TriggerPlaced") for e in ev)
    expect(g, {"B.f0": "empty", "B.hand": ["Vigor"], "stack": [], "decision": "A priority"})


def test_rule_35_4_combat_deaths_are_performed_before_the_next_step() -> None:
    """35.4: a game action is performed and finished before the game continues: the Squire
    killed by combat damage is destroyed before the 'after' step begins."""
    g = make({"turn": 3, "phase": "battle", "A": {"front": {0: "Ogre"}}, "B": {"front": {2: "Squire"}}})
    play(g, "A attack f0", "A pass", "B pass", "A target B.f2", *["A pass", "B pass"] * 2)
    events = play(g, "A pass", "B pass")
    assert events.index("Destroyed(Squire, source=Ogre, kind=combat)") < events.index("StepBegan(after)")
