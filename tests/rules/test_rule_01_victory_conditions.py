"""Section 1 (Victory Conditions) and section 2 (Host Damage)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import expect, make, play


@pytest.mark.parametrize(
    ("side_b", "lines", "reason"),
    [
        # damage zone reaches the Host's health (8)
        ({"damage_zone": 7, "hand": 1},
         ["A play Blast", "A target B.host", "A pay £", "resolve", "A slot b0", "resolve"], "damage_zone"),
        # the deck runs out: B draws its last card
        ({"deck": 1, "hand": 0}, ["A play Twin Draw", "resolve", "A slot b0", "resolve"], "deck_out"),
        # the Host takes damage with an empty hand
        ({"hand": 0}, ["A play Mutual Blast", "resolve", "A slot b0", "resolve", "A card Squire"],
         "empty_hand"),
    ],
)
def test_rule_1_victory_conditions_end_the_game(side_b, lines, reason) -> None:
    """Rule 1 (Victory Conditions): each of the three win conditions ends the game at once
    with A as the winner, and nobody decides anything afterwards."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Blast", "Twin Draw", "Mutual Blast", "Squire", "Squire"],
                    "pool": {"£": 2, "!": 1}},
              "B": side_b})
    events = play(g, *lines)
    assert g.is_over and g.winner == 0
    assert g.state.reason == reason
    assert events[-1] == f"GameOver(winner=A, reason={reason})"
    assert g.legal_actions() == ()


def test_rule_2_host_damage_moves_cards_from_hand_face_down() -> None:
    """Rule 2 (Host Damage): 3 damage to B's Host moves 3 cards B chooses from B's hand, face
    down, onto B's damage zone; nothing is discarded and the drop zone stays empty."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Blast"], "pool": {"£": 2}},
              "B": {"hand": ["Squire", "Ogre", "Wall", "Herald"]}})
    play(g, "A play Blast", "A target B.host", "resolve", "A slot b0", "A pass", "B pass")
    events = play(g, "B card Ogre", "B card Wall", "B card Herald")
    expect(g, {"B.hand": ["Squire"], "B.damage_zone": ["Ogre", "Wall", "Herald"], "B.drop": []})
    s = g.state
    assert all(s.objs[o].face_down for o in s.players[1].damage)
    assert [e for e in events if e.startswith("HostDamaged")] == ["HostDamaged(B, 1)"] * 3
    assert not any(e.startswith("Discard(") for e in events)
