"""Section 25 (Battle)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import decision, expect, legal, make, play


def steps(events: list[str]) -> list[str]:
    return [e[len("StepBegan("):-1] for e in events if e.startswith("StepBegan(")]


@pytest.mark.rules("25.1")
def test_rule_25_a_battle_runs_through_its_sections() -> None:
    """Rule 25 (Battle), 25.1: declare the attacker, choose what it attacks, then the early and
    normal damage steps, after which the next attacker may be declared."""
    g = make({"turn": 3, "phase": "battle", "A": {"front": {0: "Ogre", 1: "Squire"}},
              "B": {"front": {2: "Squire"}}})
    events = play(g, "A attack f0")
    assert events == ["Attacks(A, Ogre)"] and g.state.step == "attack"
    play(g, "A pass", "B pass")
    assert decision(g) == "A choose_attack_target"
    events = play(g, "A target B.f2")
    assert events[0] == "Blocks(B, Squire)" and g.state.step == "block"
    events = play(g, "A pass", "B pass", "A pass", "B pass", "A pass", "B pass", "A pass", "B pass")
    assert steps(events) == ["early_damage", "normal_damage", "after", "declare"]
    hit = events.index("DamageDealt(Squire, 3, source=Ogre, kind=combat)")
    assert events.index("StepBegan(normal_damage)") < hit < events.index("StepBegan(after)")
    expect(g, {"B.f2": "empty", "A.f0.damage": 2, "step": "declare"})
    assert legal(g, "A attack f1") and not legal(g, "A attack f0")


def test_rule_25_3_4_the_blocker_is_declared_blocking_and_its_effects_trigger() -> None:
    """25.3.4: the attacked Entity is declared 'blocking' and 'when this Entity blocks' effects
    trigger: Shieldbearer gains +2 health and survives the Ogre's 3 damage."""
    g = make({"turn": 3, "phase": "battle", "A": {"front": {0: "Ogre"}},
              "B": {"front": {1: "Shieldbearer"}}})
    play(g, "A attack f0", "A pass", "B pass")
    events = play(g, "A target B:Shieldbearer")
    assert events == ["Blocks(B, Shieldbearer)", "TriggerPlaced(B, Shieldbearer)"]
    play(g, "resolve")
    expect(g, {"B.f1.health": 5})
    play(g, "A pass", "B pass", "A pass", "B pass", "A pass", "B pass")
    expect(g, {"B.f1": "Shieldbearer", "B.f1.damage": 3, "A.f0.damage": 1})


def test_rule_25_3_5_either_player_may_respond_after_block_triggers() -> None:
    """25.3.5: once the block triggers are on the stack, each player may respond with Fast
    effects, the turn player first."""
    g = make({"turn": 3, "phase": "battle",
              "A": {"front": {0: "Ogre"}, "hand": ["Flash Spark"], "pool": {"£": 1}},
              "B": {"front": {1: "Shieldbearer"}, "hand": ["Flash Spark"], "pool": {"£": 1}}})
    play(g, "A attack f0", "A pass", "B pass", "A target B.f1")
    expect(g, {"stack": ["Shieldbearer"], "decision": "A priority", "step": "block"})
    assert legal(g, "A play Flash Spark")
    play(g, "A pass")
    assert decision(g) == "B priority" and legal(g, "B play Flash Spark")
    play(g, "B play Flash Spark", "B target A.f0")
    expect(g, {"stack": ["Flash Spark", "Shieldbearer"]})


def test_rule_25_4_1_early_damage_step_for_first_strike() -> None:
    """25.4.1: the early damage step comes first; a First Strike attacker deals its damage
    there, so the blocker it kills never deals damage in the normal step."""
    g = make({"turn": 3, "phase": "battle", "A": {"front": {0: "Duelist"}},
              "B": {"front": {0: "Squire"}}})
    play(g, "A attack f0", "A pass", "B pass", "A target B.f0")
    events = play(g, "A pass", "B pass")
    assert events[0] == "StepBegan(early_damage)" and g.state.step == "early_damage"
    events = play(g, "A pass", "B pass")
    assert events[0] == "DamageDealt(Squire, 2, source=Duelist, kind=combat)"
    assert "Destroyed(Squire, source=Duelist, kind=combat)" in events
    expect(g, {"B.f0": "empty", "B.drop": ["Squire"], "decision": "A priority"})
    events = play(g, "A pass", "B pass")
    assert steps(events) == ["after"] and not any(e.startswith("DamageDealt") for e in events)
    expect(g, {"A.f0.damage": 0})
