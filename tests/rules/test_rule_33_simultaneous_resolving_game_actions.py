"""Section 33 (Simultaneous effects), section 34 (Resolving Effects), section 35 (Game Actions)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import decision, expect, legal, make, play, texts


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


# ----------------------------------------------------------------- the window tells nothing
# A26, A53: an event-keyed Ambush is activated only in the trigger window of its event. Who
# is asked in that window, and who holds priority after it, must not depend on what a
# face-down card is (6.2): the other player would learn it from the order of play.
FACE_DOWN = ["Sudden Doubt", "Snare", "Backlash"]  # keyed to 'would cast', 'attacks', 'casts'


def _cast_against(down: str, a_pool: dict[str, int]):  # type: ignore[no-untyped-def]
    g = make({"turn": 3, "phase": "action1",
              "A": {"front": {0: "Squire"}, "back": {0: down}, "pool": a_pool, "deck": 5},
              "B": {"hand": ["Flash Spark", "Squire"], "pool": {"£": 1}, "deck": 5}})
    play(g, "A pass")  # A declares the end of the phase; B answers with a Fast Sorcery
    play(g, "B play h0", "B target A.f0")
    return g


@pytest.mark.parametrize("down", FACE_DOWN)
def test_rule_31_5_1_a_window_no_one_can_use_changes_no_priority(down: str) -> None:
    """31.5.1: the turn player receives priority after triggered effects were put on the
    stack. Here nothing is (A cannot pay for any Ambush): B, who acted, keeps priority (A25)
    whatever A's face-down card is. (Before, an unpayable Sudden Doubt, which matches the
    'would cast', opened a window that gave A priority: a tell.)"""
    g = _cast_against(down, {})
    assert decision(g) == "B priority"
    assert g.state.passes == 0


@pytest.mark.parametrize("down", FACE_DOWN)
def test_rule_33_a_face_down_card_that_could_answer_is_asked_for(down: str) -> None:
    """A26, A53, 6.2: A can pay '!', and the card pool has an Ambush keyed to 'would cast'
    costing '!': A is asked in the window whatever its face-down card is (only a real Sudden
    Doubt may be activated), and when A passes, B keeps priority."""
    g = _cast_against(down, {"!": 1})
    assert decision(g) == "A place_triggers"
    assert g.forced_action() is None  # a driver must ask: the stop is public
    assert legal(g, "A activate A.b0 0") == (down == "Sudden Doubt")
    assert legal(g, "A pass")
    play(g, "A pass")
    assert decision(g) == "B priority"


def test_rule_33_an_ambush_activated_in_the_window_gives_the_turn_player_priority() -> None:
    """31.5.1, A26: an Ambush activated in the window puts an effect on the stack; the turn
    player receives priority after the window."""
    g = _cast_against("Sudden Doubt", {"!": 1})
    play(g, "A activate A.b0 0")
    assert decision(g) == "A priority"
    expect(g, {"stack": ["Sudden Doubt", "Flash Spark"]})  # top first


def test_forced_action_asks_for_a_search_with_traits_even_when_nothing_matches() -> None:
    """41.3, 6.1.3.1: how many cards of the closed deck match a search is hidden; a search
    with traits that finds nothing is still asked for (its one action is pass), while a
    decision whose one action is plain to both players is taken (Game.forced_action)."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Tutor"], "pool": {"&": 1}, "deck": ["Ogre"] * 5}},
             config={"backrow_slots": 1})
    play(g, "A play Tutor", "resolve")
    assert decision(g) == "A choose_slot"
    assert g.forced_action() == g.legal_actions()[0]  # the one open slot: public
    play(g, "A slot b0", "resolve")
    assert decision(g) == "A choose_card" and [str(a) for a in g.legal_actions()] == ["pass"]
    assert g.forced_action() is None
