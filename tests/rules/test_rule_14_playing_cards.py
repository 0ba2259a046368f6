"""Section 14 (Playing Cards)."""

from __future__ import annotations

import hostwcg_env  # noqa: F401

from ._util import decision, expect, legal, make, play


def test_rule_14_playing_a_card_from_start_to_finish() -> None:
    """Rule 14 (Playing Cards): pay, the card goes on the stack, 'would' effects, both pass,
    the card is put into the chosen open slot and its 'created' events fire."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Herald"], "pool": {"&": 1}}})
    events = play(g, "A play Herald")
    assert events == ["Paid(A, &, Herald)", "WouldPlay(A, Herald)", "WouldCreate(A, Herald)"]
    expect(g, {"A.pool": {}, "A.hand": 0, "stack": ["Herald"]})
    events = play(g, "A pass", "B pass", "A slot f2")
    assert events[-4:] == ["Created(A, Herald)", "EntersSlot(A, Herald, f2)", "Played(A, Herald)",
                           "TriggerPlaced(A, Herald)"]
    play(g, "resolve")
    expect(g, {"A.f2": "Herald", "A.hand": 1, "stack": []})


def test_rule_14_1_playing_cards_is_slow() -> None:
    """14.1: playing a card is Slow: only the turn player, in an Action Phase, with an empty
    stack; not in response, not in the opponent's turn, not in the Battle Phase."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire", "Squire"], "pool": {"&": 2}},
              "B": {"hand": ["Squire"], "pool": {"&": 1}}})
    assert legal(g, "A play Squire")
    play(g, "A play Squire")
    assert not legal(g, "A play Squire")  # the stack is not empty
    play(g, "A pass")
    assert decision(g) == "B priority" and not legal(g, "B play Squire")  # not B's turn
    g = make({"turn": 3, "phase": "battle", "A": {"hand": ["Squire"], "pool": {"&": 1}}})
    assert not legal(g, "A play Squire")


def test_rule_14_4_the_play_verb_follows_the_card_type() -> None:
    """14.4: the game names the play by the card type: an Entity is created, a Sorcery cast,
    a Form embodied, an Ambush laid ('would' events on the stack, 'did' events on arrival)."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire", "Insight", "Aegis", "Snare"], "pool": {"&": 2, "!": 1}}})
    plays = [("Squire", ["A slot f0"], "Create", "Created"),
             ("Insight", ["A slot b0", "resolve"], "Cast", "Cast"),
             ("Aegis", [], "Embody", "Embodied"),
             ("Snare", ["A slot b1"], "Lay", "Laid")]
    for name, rest, would, did in plays:
        events = play(g, f"A play {name}")
        assert events[-1] == f"Would{would}(A, {name})"
        events = play(g, "A pass", "B pass", *rest)
        assert f"{did}(A, {name})" in events
    expect(g, {"A.f0": "Squire", "A.forms": ["Aegis"], "A.b1": "Snare", "A.drop": ["Insight"]})


def test_rule_14_4_1_an_entity_is_created() -> None:
    """14.4.1: playing an Entity is creating it: 'would create' when it is played, 'created'
    when it arrives (Gatekeeper reacts to the first)."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Ogre"], "pool": {"£": 3}},
              "B": {"front": {0: "Gatekeeper"}}, })
    events = play(g, "A play Ogre")
    assert events[-1] == "WouldCreate(A, Ogre)"
    assert decision(g) == "B choose_target"  # Gatekeeper's trigger from 'would create'
    play(g, "B target B.f0", "resolve")
    events = play(g, "resolve", "A slot f0")
    assert events[0] == "Created(A, Ogre)"


def test_rule_14_4_3_a_form_is_embodied() -> None:
    """14.4.3: playing a Form is embodying it: WouldEmbody, then Embodied into the form zone."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Oath of Steel"], "pool": {"&": 1}}})
    events = play(g, "A play Oath of Steel")
    assert events[-1] == "WouldEmbody(A, Oath of Steel)"
    events = play(g, "resolve")
    assert "Embodied(A, Oath of Steel)" in events
    expect(g, {"A.forms": ["Oath of Steel"], "A.front": [], "A.back": []})


def test_rule_14_5_the_card_enters_the_stack() -> None:
    """14.5: once paid, the card itself leaves the hand and is on the stack (not yet in play)
    until it resolves."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Squire"], "pool": {"&": 1}}})
    play(g, "A play Squire")
    s = g.state
    item = s.stack[-1]
    assert item.kind == "card" and s.objs[item.obj].zone == "stack"
    expect(g, {"A.hand": 0, "A.front": [], "stack": ["Squire"]})


def test_rule_14_8_in_a_slot_its_slot_effects_trigger() -> None:
    """14.8: once placed, the card is in its slot, so effects caused by that trigger: Surveyor
    ('another Entity enters a slot') draws for A."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Squire"], "pool": {"&": 1}, "front": {4: "Surveyor"}, "deck": 5}})
    events = play(g, "A play Squire", "resolve")
    assert not any(e.startswith("TriggerPlaced") for e in events)
    events = play(g, "A slot f1")
    assert events.index("EntersSlot(A, Squire, f1)") < events.index("TriggerPlaced(A, Surveyor)")
    play(g, "resolve")
    expect(g, {"A.f1": "Squire", "A.hand": 1, "A.deck": 4})
