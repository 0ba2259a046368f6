"""Section 4 (Game Zones): the zones each player has, what goes where, who sees what."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import decision, expect, make, play


def test_rule_4_each_player_has_every_game_zone() -> None:
    """Rule 4 (Game Zones): each player has a deck, drop zone, hand, 5 frontrow slots, 4
    backrow slots (A11), a Host zone, a form zone, a damage zone and a banished zone, and
    every card is in exactly one of them."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"deck": 3, "hand": ["Squire"], "drop": ["Ogre"], "damage_zone": ["Wall"],
                    "banished": ["Herald"], "forms": ["Aegis"], "front": {0: "Pinger"},
                    "back": {0: "Beacon"}}})
    s = g.state
    a = s.players[0]
    assert len(a.front) == 5 and len(a.back) == 4
    zones = {"deck": a.deck, "hand": a.hand, "drop": a.drop, "damage": a.damage,
             "banished": a.banished, "form": a.forms,
             "front": [o for o in a.front if o is not None],
             "back": [o for o in a.back if o is not None], "host": [a.host]}
    for zone, ids in zones.items():
        assert all(s.objs[o].zone == zone for o in ids), zone
    mine = [o.id for o in s.objs.values() if o.owner == 0]
    listed = [o for ids in zones.values() for o in ids]
    assert sorted(mine) == sorted(listed)  # each of A's cards is in exactly one zone


@pytest.mark.rules("4.2")
def test_rule_4_2_1_destroyed_used_and_discarded_cards_go_to_the_drop_zone() -> None:
    """4.2 The Drop Zone, 4.2.1: a destroyed Entity, a used Sorcery and discarded cards all go
    to the drop zone, which is open: the opponent sees its contents."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Spark", "Rummage", "Ogre", "Wall"], "pool": {"£": 1, "!": 1}},
              "B": {"front": {0: "Squire"}}})
    play(g, "A play Spark", "A target B.f0", "resolve", "A slot b0", "resolve")
    expect(g, {"B.drop": ["Squire"], "A.drop": ["Spark"], "B.f0": "empty"})
    play(g, "A play Rummage", "resolve", "A slot b0", "A pass", "B pass")
    expect(g, {"A.drop": ["Spark", "Ogre", "Wall", "Rummage"]})  # discards, then the used Rummage
    expect(g, {"view": {"B": {"A.drop": ["Spark", "Ogre", "Wall", "Rummage"],
                              "contains": ["Rummage", "Ogre", "Wall"]}}})


@pytest.mark.rules("4.5")
def test_rule_4_5_1_sorceries_and_ambushes_go_to_backrow_slots() -> None:
    """4.5 Backrow Slots, 4.5.1: a cast Sorcery and a laid Ambush are put into a backrow slot
    (only backrow slots are offered); a face-up backrow card is open to the opponent."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Beacon", "Snare"], "pool": {"&": 1}}})
    play(g, "A play Beacon", "resolve")
    assert decision(g) == "A choose_slot"
    assert sorted(str(a) for a in g.legal_actions()) == ["slot b0", "slot b1", "slot b2", "slot b3"]
    play(g, "A slot b1")
    play(g, "A play Snare", "resolve")
    assert sorted(str(a) for a in g.legal_actions()) == ["slot b0", "slot b2", "slot b3"]
    play(g, "A slot b3")
    expect(g, {"A.b1": "Beacon", "A.b3": "Snare", "A.b3.face_down": True, "A.front": []})
    expect(g, {"view": {"B": {"A.b1": "Beacon", "contains": ["Beacon"]}}})


@pytest.mark.rules("4.8")
def test_rule_4_8_1_damage_zone_cards_are_face_down_and_hidden() -> None:
    """4.8 Damage Zone, 4.8.1: Host damage puts cards face down into the damage zone; the
    opponent sees only how many there are (A09: the owner may look)."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Blast"], "pool": {"£": 2}},
              "B": {"hand": ["Ogre", "Wall"], "damage_zone": ["Herald"]}})
    play(g, "A play Blast", "A target B.host", "resolve", "A slot b0", "A pass", "B pass")
    play(g, "B card Ogre")
    expect(g, {"B.damage_zone": ["Herald", "Ogre", "Wall"]})
    s = g.state
    assert all(s.objs[o].face_down and s.objs[o].zone == "damage" for o in s.players[1].damage)
    expect(g, {"view": {"A": {"B.damage_zone": 3, "not_contains": ["Ogre", "Wall", "Herald"]},
                        "B": {"B.damage_zone": ["Herald", "Ogre", "Wall"]}}})
