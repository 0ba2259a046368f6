"""Section 5 (In Play) and section 6 (Open and Closed Zones)."""

from __future__ import annotations

import hostwcg_env  # noqa: F401
from hostwcg_env.engine.selectors import in_play

from ._util import expect, make, play


def test_rule_5_in_play_is_slots_forms_and_markers() -> None:
    """Rule 5 (In Play): cards in slots, in the form zone and attached as markers are in play;
    cards in hand, deck, drop zone, damage zone, the Host and the stack are not, and only
    cards in play have working abilities."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Surveyor", "Squire"], "drop": ["Surveyor"], "pool": {"&": 1},
                    "front": {0: {"card": "Wall", "markers": ["Iron Blade"]}},
                    "back": {0: "Beacon"}, "forms": ["Aegis"], "deck": 5},
              "B": {"front": {1: "Ogre"}}})
    names = sorted(o.name for o in in_play(g.state))
    assert names == ["Aegis", "Beacon", "Iron Blade", "Ogre", "Wall"]
    # the Surveyors in hand and drop zone are not in play: a Squire entering a slot draws nothing
    events = play(g, "A play Squire", "resolve", "A slot f1")
    assert not any(e.startswith("TriggerPlaced") or e.startswith("Draw(") for e in events)
    assert "Squire" in [o.name for o in in_play(g.state)]


def test_rule_6_zones_are_open_semi_open_or_closed() -> None:
    """Rule 6 (Open and Closed Zones): the drop zone is open (both see it), a hand is semi-open
    (only its player sees it), the deck is closed (neither player sees it)."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Ogre"], "drop": ["Herald"], "deck": ["Wall", "Pinger"]}})
    expect(g, {"view": {
        "A": {"A.hand": ["Ogre"], "A.drop": ["Herald"], "not_contains": ["Wall", "Pinger"]},
        "B": {"A.hand": 1, "A.drop": ["Herald"], "not_contains": ["Ogre", "Wall", "Pinger"]},
    }})


def test_rule_6_1_1_1_both_players_see_open_zones_at_any_time() -> None:
    """6.1.1.1: both players see the contents of the open zones (frontrow, face-up backrow,
    form zone, drop zone, banished zone) of both players, whoever is acting."""
    g = make({"turn": 2, "phase": "action1",
              "A": {"front": {0: "Squire"}, "back": {0: "Beacon"}, "forms": ["Aegis"],
                    "drop": ["Herald"], "banished": ["Pinger"]},
              "B": {"front": {3: "Ogre"}, "drop": ["Wall"], "banished": ["Duelist"]}})
    table = {"A.f0": "Squire", "A.b0": "Beacon", "A.forms": ["Aegis"], "A.drop": ["Herald"],
             "A.banished": ["Pinger"], "B.f3": "Ogre", "B.drop": ["Wall"], "B.banished": ["Duelist"]}
    expect(g, {"view": {"A": table, "B": table}})
