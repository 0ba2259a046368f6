"""Section 10 (Phases)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import expect, legal, make, play


def phases(events: list[str]) -> list[str]:
    return [e[len("PhaseBegan("):-1] for e in events if e.startswith("PhaseBegan(")]


@pytest.mark.rules("10.1")
def test_rule_10_a_turn_goes_through_every_phase_then_the_opponent_does() -> None:
    """Rule 10 (Phases), 10.1: a turn is Start, Action 1, Battle, Action 2, End; then the
    opponent goes through the same phases (the first player's first turn skips Battle and
    Action 2)."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": 0}, "B": {"hand": 0}})
    events = play(g, "to T3 action1")
    turns = [e for e in events if e.startswith("TurnBegan")]
    assert turns == ["TurnBegan(B, 2)", "TurnBegan(A, 3)"]
    t2 = events[events.index("TurnBegan(B, 2)"):events.index("TurnBegan(A, 3)")]
    assert phases(t2) == ["start", "action1", "battle", "action2", "end"]
    assert phases(events[:events.index("TurnBegan(B, 2)")]) == ["end"]
    assert phases(events[events.index("TurnBegan(A, 3)"):]) == ["start", "action1"]


def test_rule_10_1_1_phases_may_not_be_skipped() -> None:
    """10.1.1: from Action Phase 1 no action leads past the Battle Phase: two passes with an
    empty stack enter exactly the next phase, even with nothing to do in it."""
    g = make({"turn": 2, "phase": "action1", "A": {"hand": 0}, "B": {"hand": 0}})
    assert not any(str(a).startswith(("phase", "skip", "end")) for a in g.legal_actions())
    for nxt in ("battle", "action2", "end"):
        events = play(g, "B pass", "A pass")
        assert phases(events) == [nxt]
        expect(g, {"phase": nxt, "turn_player": "B"})


@pytest.mark.rules("10.3")
def test_rule_10_3_1_slow_actions_in_action_phase_1() -> None:
    """10.3 Action Phase 1, 10.3.1: Slow actions (playing a card, spending #) may be taken in
    Action Phase 1, and not yet in the Start Phase before it."""
    g = make({"turn": 3, "phase": "start", "A": {"hand": ["Squire"], "pool": {"&": 1}, "ap": 4}})
    assert not legal(g, "A play Squire") and not legal(g, "A ap draw")
    play(g, "A pass", "B pass")
    expect(g, {"phase": "action1", "decision": "A priority"})
    assert legal(g, "A play Squire") and legal(g, "A ap draw")
    play(g, "A play Squire", "resolve", "A slot f0")
    expect(g, {"A.f0": "Squire", "phase": "action1"})


def test_rule_10_6_1_end_of_turn_effects_trigger_in_the_end_phase() -> None:
    """10.6.1: 'at the end of your turn' effects trigger when the End Phase begins (Dusk Shrine
    heals A's Host), before the turn passes."""
    g = make({"turn": 3, "phase": "action2", "A": {"forms": ["Dusk Shrine"], "damage_zone": 2}})
    events = play(g, "A pass", "B pass")
    assert events[:2] == ["PhaseBegan(end)", "TriggerPlaced(A, Dusk Shrine)"]
    events = play(g, "resolve")
    assert "HostHealed(A, 1)" in events
    expect(g, {"A.damage_zone": 1, "phase": "end", "turn": 3})
