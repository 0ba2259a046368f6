"""The rules' own examples, replayed with the six cards they name (hostwcg_env/cards/data/named.toml).

- 32.9 (the stack): John creates Vampire Aristocrat; Kate responds with Grace, Aligner of Stars;
  Grace resolves first, its "when created" trigger goes on the stack and resolves, and only then
  is Vampire Aristocrat created.
- 33.6 (simultaneous effects), both lines: Kate's Xin, Master of Pain attacks and its trigger
  targets John's Deep Sea Mermaid. In the incorrect line John passes the trigger window and can
  no longer activate Creeping Corrosion for this attack; in the correct line he activates it in
  the window, Kate passes, John adds Grace, and the stack resolves top down.
- 42.1 (infinite loops): each player controls a Mystic Sphinx of Old; a resource gain would loop
  forever, so the first looping effect does not resolve while the gain itself stands.

Players: A is the turn player of each example (John in 32.9, Kate in 33.6).
"""

from __future__ import annotations

from typing import Any

import pytest

import hostwcg_env  # noqa: F401  (registers the default card pool)
from hostwcg_env.cards import default_pool
from hostwcg_env.engine import Game, IllegalActionError
from hostwcg_env.engine.events import LoopCut
from hostwcg_env.scenarios import run_line, setup_game

VAMPIRE = "Vampire Aristocrat"
GRACE = "Grace, Aligner of Stars"
XIN = "Xin, Master of Pain"
MERMAID = "Deep Sea Mermaid"
CORROSION = "Creeping Corrosion"
SPHINX = "Mystic Sphinx of Old"


def game_of(setup: dict[str, Any], config: dict[str, Any] | None = None) -> Game:
    doc: dict[str, Any] = {"setup": setup}
    if config:
        doc["config"] = config
    return setup_game(doc, "test_named_examples")


def play(game: Game, *lines: str) -> None:
    for line in lines:
        run_line(game, line)


def stack(game: Game) -> list[str]:
    """Stack items, top first, by source card name."""
    return [item.source_name for item in reversed(game.state.stack)]


def texts(game: Game, start: int = 0) -> list[str]:
    return [str(e) for e in game.events[start:]]


def in_order(events: list[str], *prefixes: str) -> bool:
    """Each prefix matches some event, in this order."""
    i = 0
    for ev in events:
        if i < len(prefixes) and ev.startswith(prefixes[i]):
            i += 1
    return i == len(prefixes)


def decision(game: Game) -> str:
    d = game.decision
    return "none" if d is None else f"{'AB'[d.player]} {d.kind.value}"


def front(game: Game, place: str) -> str | None:
    o = game.obj_at(place)
    return None if o is None else o.name


# --------------------------------------------------------------------------- the cards


def test_named_cards_have_the_texts_the_examples_imply():
    pool = default_pool()
    grace = pool[GRACE]
    assert grace.is_fast  # played in response in 32.9 and 33.6 (A24)
    (created,) = grace.abilities
    assert created.kind == "triggered" and created.when.event == "created"
    assert created.when.subject == "self"
    assert pool[XIN].text == "When this Entity attacks, it can deal 2 damage to target Entity."
    assert pool[CORROSION].text == "Activate: When an Entity attacks; destroy that Entity."
    assert pool[SPHINX].text == (
        "Whenever your opponent gains a resource, gain 1 resource of your Host's type."
    )
    assert pool[VAMPIRE].type.value == "entity" and pool[MERMAID].type.value == "entity"


# --------------------------------------------------------------------------- 32.9


@pytest.mark.rules("32.9", "32.4")
def test_32_9_stack_example():
    # John (A, turn player) plays Vampire Aristocrat; Kate (B) holds Grace and the resources.
    game = game_of(
        {
            "turn": 1,
            "phase": "action1",
            "A": {"hand": [VAMPIRE], "pool": {"£": 3}},
            "B": {"hand": [GRACE], "pool": {"!": 2}, "deck": 10},
        }
    )
    start = len(game.events)
    # "John ... pays the cost for Vampire Aristocrat and reveals it from their hand to play it."
    play(game, f"A play {VAMPIRE}")
    assert stack(game) == [VAMPIRE]
    assert game.state.players[0].pool == {}
    # "Kate ... decides to respond to the creation of Vampire Aristocrat with Grace"
    play(game, "A pass", f"B play {GRACE}")
    assert stack(game) == [GRACE, VAMPIRE]
    # "John decides not to respond, and so the stack begins to resolve. Grace ... resolves first"
    play(game, "B pass", "A pass")
    assert decision(game) == "B choose_slot"
    play(game, "B slot f0")
    assert front(game, "B.f0") == GRACE
    assert front(game, "A.f0") is None  # Vampire Aristocrat is not created yet
    # "the triggered effect of Grace ... triggers when it is created. The effect then enters the stack."
    assert stack(game) == [GRACE, VAMPIRE]
    assert game.state.stack[-1].kind == "trigger"
    assert decision(game) == "A priority"
    hand_before = len(game.state.players[1].hand)
    # "John has no response to this, and so the triggered effect ... will resolve."
    play(game, "A pass", "B pass")
    assert len(game.state.players[1].hand) == hand_before + 1
    assert stack(game) == [VAMPIRE]
    # "Finally, the Vampire Aristocrat creation resolves and it is created."
    play(game, "A pass", "B pass", "A slot f0")
    assert front(game, "A.f0") == VAMPIRE
    assert stack(game) == []
    assert in_order(
        texts(game, start),
        f"WouldCreate(A, {VAMPIRE})",
        f"WouldCreate(B, {GRACE})",
        f"Created(B, {GRACE})",
        f"TriggerPlaced(B, {GRACE})",
        "Draw(B",
        f"Resolved({GRACE})",
        f"Created(A, {VAMPIRE})",
    )


@pytest.mark.rules("15.2.1", "15.3.1")
def test_32_9_grace_is_played_only_because_it_is_fast():
    """A Slow Entity could not have answered John's Vampire Aristocrat (15.2.1)."""
    game = game_of(
        {
            "turn": 1,
            "A": {"hand": [VAMPIRE], "pool": {"£": 3}},
            "B": {"hand": [GRACE, "Squire"], "pool": {"!": 2, "&": 1}},
        }
    )
    play(game, f"A play {VAMPIRE}", "A pass")
    legal = {str(a) for a in game.legal_actions()}
    assert "play h0" in legal  # Grace, Fast
    assert "play h1" not in legal  # Squire, Slow


# --------------------------------------------------------------------------- 33.6

SETUP_33_6 = {
    # Kate = A (turn player), John = B. A's Battle Phase, Xin ready to attack.
    "turn": 3,
    "phase": "battle",
    "A": {"front": {"0": XIN}},
    "B": {
        "front": {"0": MERMAID},
        "back": {"0": CORROSION},
        "hand": [GRACE, "Squire"],
        "pool": {"£": 2, "!": 2},
        "deck": 10,
    },
}


def attack_with_xin() -> Game:
    game = game_of(SETUP_33_6, config={"auto_pay": True})
    # "Kate ... attacks with Xin, Master of Pain. ... Kate declares the target of this effect to
    # be John's Deep Sea Mermaid."
    play(game, "A attack f0")
    assert decision(game) == "A choose_target"
    play(game, "A target B.f0")
    # "the trigger is placed on the stack and priority passes to John": John's part of the
    # trigger window, where an Ambush keyed to this event may be activated (33.5, A53)
    assert stack(game) == [XIN]
    assert decision(game) == "B place_triggers"
    assert {str(a) for a in game.legal_actions()} == {"activate B.b0 0", "pass"}
    return game


@pytest.mark.rules("33.6", "33.5")
def test_33_6_incorrect_line():
    game = attack_with_xin()
    # John puts nothing on the stack for this event, Kate passes priority to him ...
    play(game, "B pass", "A pass")
    assert decision(game) == "B priority"
    # "John decides to respond with Grace, Aligner of Stars"
    play(game, f"B play {GRACE}")
    assert stack(game) == [GRACE, XIN]
    # "John then attempts to activate Creeping Corrosion ... he is not allowed"
    before = repr(game.state.stack), len(game.events)
    with pytest.raises(IllegalActionError) as info:
        game.apply_text("B activate B.b0 0")
    assert str(info.value).startswith("17.2")
    assert (repr(game.state.stack), len(game.events)) == before
    assert "activate B.b0 0" not in {str(a) for a in game.legal_actions()}
    # "and Kate has no response": Grace resolves; still no Creeping Corrosion for this attack
    play(game, "B pass", "A pass", "B slot f1")
    assert front(game, "B.f1") == GRACE
    while stack(game) != [XIN]:
        assert "activate B.b0 0" not in {str(a) for a in game.legal_actions()}
        play(game, "pass")
    assert "activate B.b0 0" not in {str(a) for a in game.legal_actions()}
    # Xin's trigger resolves; Kate uses its "can" (A44)
    play(game, "A pass", "B pass")
    assert decision(game) == "A yes_no"
    play(game, "A yes")
    mermaid = game.obj_at("B.f0")
    assert mermaid is not None and mermaid.name == MERMAID and mermaid.damage == 2
    corrosion = game.obj_at("B.b0")
    assert corrosion is not None and corrosion.name == CORROSION and corrosion.face_down
    assert front(game, "A.f0") == XIN


@pytest.mark.rules("33.6")
def test_33_6_correct_line():
    game = attack_with_xin()
    start = len(game.events)
    # "John decides to respond with Creeping Corrosion to destroy the Xin, Master of Pain."
    play(game, "B activate B.b0 0")
    # "John has no more triggers for when an Entity attacks." The window closes; Kate (TP) has
    # priority.
    assert stack(game) == [CORROSION, XIN]
    assert decision(game) == "A priority"
    assert game.state.players[1].pool == {"!": 2}  # the Ambush's cost was paid on activation
    # "Kate has no more responses and decides to pass priority back to John, who then decides
    # to respond with Grace, Aligner of Stars."
    play(game, "A pass", f"B play {GRACE}")
    assert stack(game) == [GRACE, CORROSION, XIN]
    # "Neither player takes any more actions, and so the stack resolves": Grace first ...
    play(game, "B pass", "A pass", "B slot f1")
    assert front(game, "B.f1") == GRACE
    assert stack(game) == [GRACE, CORROSION, XIN]  # ... and Grace's creation trigger on top
    play(game, "resolve")
    assert stack(game) == [CORROSION, XIN]
    # ... then Creeping Corrosion destroys Xin ...
    play(game, "resolve")
    assert stack(game) == [XIN]
    assert front(game, "A.f0") is None
    assert XIN in [game.state.objs[o].name for o in game.state.players[0].drop]
    # ... then Xin's trigger, whose source has left play, still resolves (A45)
    play(game, "A pass", "B pass")
    assert decision(game) == "A yes_no"
    play(game, "A yes")
    assert stack(game) == []
    mermaid = game.obj_at("B.f0")
    assert mermaid is not None and mermaid.damage == 2
    assert CORROSION in [game.state.objs[o].name for o in game.state.players[1].drop]
    assert in_order(
        texts(game, start),
        f"Activated(B, {CORROSION})",
        f"WouldCreate(B, {GRACE})",
        f"Created(B, {GRACE})",
        f"TriggerPlaced(B, {GRACE})",
        f"Resolved({GRACE})",
        f"Destroyed({XIN}, source={CORROSION}, kind=effect)",
        f"Resolved({CORROSION})",
        f"DamageDealt({MERMAID}, 2, source={XIN}, kind=effect)",
    )
    # the battle goes on with no attacker: no combat damage (A31)
    play(game, "to action2")
    assert mermaid.damage == 2 and game.state.players[1].damage == []


# --------------------------------------------------------------------------- 42.1


@pytest.mark.rules("42.1", "42.1.1", "42.1.2")
def test_42_1_two_mystic_sphinxes_loop_is_cut():
    host = "Mother Brae of the Grove"
    game = game_of(
        {
            "turn": 1,
            "A": {"host": host, "front": {"0": SPHINX}},
            "B": {"host": host, "front": {"0": SPHINX}},
        }
    )
    # "If either player gains resource the game will enter an infinite loop"
    play(game, "A ap host")
    assert game.state.players[0].pool == {"%": 1}  # the initial action resolves as normal
    assert stack(game) == [SPHINX]  # B's Sphinx has triggered
    start = len(game.events)
    play(game, "A pass", "B pass")
    # 42.1.2: the effect that would cause the loop does not resolve
    assert stack(game) == []
    assert game.state.players[0].pool == {"%": 1}
    assert game.state.players[1].pool == {}
    assert in_order(texts(game, start), f"LoopCut({SPHINX})")
    assert not any(
        t.startswith(("GainResource(B", f"TriggerPlaced(A, {SPHINX})")) for t in texts(game, start)
    )
    assert decision(game) == "A priority" and game.state.phase == "action1"


@pytest.mark.rules("42.1.1")
def test_42_1_one_sphinx_is_no_loop():
    """With a single Sphinx the chain ends by itself: nothing is cut."""
    host = "Mother Brae of the Grove"
    game = game_of({"turn": 1, "A": {"host": host}, "B": {"host": host, "front": {"0": SPHINX}}})
    play(game, "A ap host", "A pass", "B pass")
    assert game.state.players[0].pool == {"%": 1}
    assert game.state.players[1].pool == {"%": 1}
    assert not any(isinstance(e, LoopCut) for e in game.events)
