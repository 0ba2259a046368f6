"""Section 19 (Form), section 20 (Host) and section 21 (Sorcery)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.engine import IllegalActionError

from ._util import expect, legal, make, play


def test_rule_19_forms_are_embodied_in_play_and_unique() -> None:
    """Rule 19 (Form): a Form is embodied into the form zone, where it is in play and its text
    works (Oath of Steel: +1 power); a second Form of the same name cannot be embodied."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Oath of Steel", "Oath of Steel"], "pool": {"&": 2},
                    "front": {0: "Squire"}}})
    play(g, "A play Oath of Steel", "resolve")
    expect(g, {"A.forms": ["Oath of Steel"], "A.f0.power": 3})
    assert not legal(g, "A play Oath of Steel")
    with pytest.raises(IllegalActionError, match=r"^19\.1: "):
        g.apply_text("A play h0")


def test_rule_20_host_stats_are_layered_and_decide_the_game() -> None:
    """Rule 20 (Host): Host health and soul are changed by effects (adds, then decreases, then
    sets) and the current health is the damage-zone limit: Aegis (+2) and Doom (-3) make 7, so
    the 7th damage card loses."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Doom", "Blast"], "pool": {"£": 3}},
              "B": {"forms": ["Aegis", "Soul Anchor"], "damage_zone": 5, "hand": ["Squire", "Squire"]}})
    expect(g, {"B.host.health": 10, "B.host.soul": 7})
    play(g, "A play Doom", "A target B.host", "resolve", "A slot b0", "resolve")
    expect(g, {"B.host.health": 7, "winner": "none"})
    play(g, "A play Blast", "A target B.host", "resolve", "A slot b0", "A pass", "B pass")
    play(g, "B card h0")
    expect(g, {"B.damage_zone": 7, "winner": "A"})


def test_rule_21_a_sorcery_is_cast_into_a_slot_and_its_effect_resolves() -> None:
    """Rule 21 (Sorcery): a Sorcery needs a free backrow slot, declares its targets when cast,
    goes into a backrow slot, its effect then goes on the stack and resolves, and the used
    Sorcery goes to the drop zone."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Spark"], "pool": {"£": 1}},
              "B": {"front": {0: "Squire", 1: "Wall"}}})
    play(g, "A play Spark")
    assert sorted(str(a) for a in g.legal_actions()) == ["target B.f0", "target B.f1"]
    play(g, "A target B.f0", "A pass", "B pass", "A slot b2")
    expect(g, {"A.b2": "Spark", "stack": ["Spark"]})
    play(g, "resolve")
    expect(g, {"A.b2": "empty", "A.drop": ["Spark"], "B.f0": "empty", "B.f1": "Wall"})
