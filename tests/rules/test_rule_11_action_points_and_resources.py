"""Section 11 (Action Points) and section 12 (Resource Types)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.engine import Action, Kind, Res
from hostwcg_env.engine.actions import res_symbol
from hostwcg_env.engine.carddef import TYPED, parse_cost

from ._util import expect, legal, make, play


def test_rule_11_action_points_replenish_and_are_spent_in_action_phases() -> None:
    """Rule 11 (Action Points): at the start of its turn a player has 4 #, spent in its Action
    Phase on the three # actions; the opponent cannot spend its # meanwhile."""
    g = make({"turn": 2, "phase": "end", "A": {"ap": 0}, "B": {"ap": 1}})
    play(g, "to T3 action1")
    expect(g, {"A.ap": 4, "B.ap": 1})
    play(g, "A ap host", "A ap draw")
    expect(g, {"A.ap": 2, "A.pool": {"&": 1}, "A.hand": 1})
    play(g, "A pass")
    assert not legal(g, "B ap draw")


def test_rule_11_1_action_points_are_counted_as_hash() -> None:
    """11.1: action points (#) are a per-player count: '#' actions spend 1 and '##' actions
    spend 2, each logged as an APSpent event; with 1 # the '##' action is not offered."""
    g = make({"turn": 1, "phase": "action1", "A": {"ap": 3}})
    events = play(g, "A ap any %")
    assert events[0] == "APSpent(A, any %)"
    expect(g, {"A.ap": 1, "A.pool": {"%": 1}})
    assert legal(g, "A ap draw") and not legal(g, "A ap any £")


def test_rule_12_resource_types_pay_costs() -> None:
    """Rule 12 (Resource Types): typed resources pay their own symbol or generic ones; generic
    resources pay only generic symbols, so Ogre (££$) is payable from {£2 $1} and from {£3},
    not from {£1 $2}."""
    for pool, ok in (({"£": 2, "$": 1}, True), ({"£": 3}, True), ({"£": 1, "$": 2}, False)):
        g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Ogre"], "pool": pool}})
        assert legal(g, "A play Ogre") is ok, pool


def test_rule_12_1_four_resource_types_and_a_generic_type() -> None:
    """12.1: there are exactly 4 resource types plus the generic type; the '##' action offers
    the 4 types and never generic."""
    assert len(TYPED) == 4 and set(Res) == set(TYPED) | {Res.GENERIC}
    g = make({"turn": 1, "phase": "action1"})
    offered = sorted(a.res for a in g.legal_actions() if a.kind is Kind.AP_ANY and a.res is not None)
    assert offered == sorted(r.value for r in TYPED)
    with pytest.raises(ValueError, match="11.3.3"):
        Action.parse("ap any $")


def test_rule_12_2_the_types_and_their_symbols() -> None:
    """12.2: Authority &, Strife £, Emotion !, Amity % (names and symbols are interchangeable
    in the notation and in costs)."""
    pairs = {"authority": "&", "strife": "£", "emotion": "!", "amity": "%"}
    for name, sym in pairs.items():
        assert res_symbol(name) == sym and res_symbol(sym) == sym
    assert {r.value for r in TYPED} == set(pairs.values())
    assert parse_cost("&£!%$") == (Res.AUTHORITY, Res.STRIFE, Res.EMOTION, Res.AMITY, Res.GENERIC)
