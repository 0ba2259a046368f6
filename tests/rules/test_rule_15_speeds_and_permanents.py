"""Section 15 (Speeds) and section 16 (Permanents)."""

from __future__ import annotations

import hostwcg_env  # noqa: F401
from hostwcg_env.engine.selectors import in_play, is_permanent

from ._util import decision, expect, legal, make, play


def test_rule_15_slow_and_fast_speeds() -> None:
    """Rule 15 (Speeds): with something on the stack, a Slow card (Squire) cannot be played and
    a Fast one (Flash Spark) can."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire", "Squire", "Flash Spark"], "pool": {"&": 2, "£": 1}},
              "B": {"front": {0: "Wall"}}})
    play(g, "A play Squire")
    assert not legal(g, "A play Squire")
    assert legal(g, "A play Flash Spark")


def test_rule_15_3_fast_cards_in_response_and_in_the_opponents_turn() -> None:
    """15.3 Fast: the non-turn player may play a Fast Entity (Quickling) in response to a card
    on the stack during the other player's turn; it resolves first."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Squire"], "pool": {"&": 1}},
              "B": {"hand": ["Quickling", "Squire"], "pool": {"!": 1, "&": 1}}})
    play(g, "A play Squire", "A pass")
    assert decision(g) == "B priority"
    assert legal(g, "B play Quickling") and not legal(g, "B play Squire")
    play(g, "B play Quickling")
    expect(g, {"stack": ["Quickling", "Squire"]})
    play(g, "B pass", "A pass", "B slot f0")
    expect(g, {"B.f0": "Quickling", "stack": ["Squire"]})


def test_rule_15_3_2_2_fast_after_an_action_point_is_used() -> None:
    """15.3.2.2: using an action point is one of the things a Fast action may answer: after A
    spends # and passes, B may play a Fast card with the stack empty."""
    g = make({"turn": 1, "phase": "action1", "A": {"ap": 4},
              "B": {"hand": ["Quickling"], "pool": {"!": 1}}})
    play(g, "A ap draw", "A pass")
    assert decision(g) == "B priority" and legal(g, "B play Quickling")


def test_rule_15_3_2_2_1_the_action_point_use_completes_first() -> None:
    """15.3.2.2.1: an action-point use is a game action: it completes at once (the card is
    drawn, nothing goes on the stack) before any Fast card can be played."""
    g = make({"turn": 1, "phase": "action1", "A": {"ap": 4, "deck": ["Ogre", "Wall"]},
              "B": {"hand": ["Quickling"], "pool": {"!": 1}}})
    events = play(g, "A ap draw")
    assert events == ["APSpent(A, draw)", "Draw(A, Ogre)"]
    expect(g, {"stack": [], "A.hand": ["Ogre"], "A.ap": 3, "decision": "A priority"})


def test_rule_16_permanents_are_entities_and_forms() -> None:
    """Rule 16 (Permanents): Entities and Forms in play are permanents; a non-Lingering
    Sorcery waiting in its slot, a face-down Ambush, a marker and a Host are not."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"front": {0: {"card": "Squire", "markers": ["Iron Blade"]}}, "forms": ["Aegis"],
                    "back": {0: "Snare"}}})
    s = g.state
    perm = {o.name: is_permanent(o) for o in in_play(s)}
    assert perm == {"Squire": True, "Iron Blade": False, "Aegis": True, "Snare": False}
    assert not is_permanent(s.objs[s.players[0].host])
    expect(g, {"A.permanents": ["Squire", "Aegis"]})
