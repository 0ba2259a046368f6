"""Section 27 (Activated Effects), section 28 (Triggered Effects), section 29 (Keywords)."""

from __future__ import annotations

import hostwcg_env  # noqa: F401

from ._util import decision, expect, legal, make, play, texts


def test_rule_27_activated_effect_pays_then_uses_the_stack() -> None:
    """Rule 27 (Activated Effects): Adept's cost (£$, before the colon) is paid, its effect
    (after the colon) goes on the stack, resolves, and lasts until end of turn."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"front": {0: "Adept", 1: "Squire"}, "pool": {"£": 2}}})
    assert legal(g, "A activate A.f0 0")
    events = play(g, "A activate A.f0 0", "A target A.f1")
    assert events[:2] == ["Paid(A, £$, Adept)", "Activated(A, Adept)"]
    expect(g, {"A.pool": {}, "stack": ["Adept"], "A.f1.power": 2})
    play(g, "resolve")
    expect(g, {"A.f1.power": 3, "stack": []})
    assert not legal(g, "A activate A.f0 0")  # nothing left to pay with
    play(g, "to T2 action1")
    expect(g, {"A.f1.power": 2})


def test_rule_28_triggered_effects_go_on_the_stack_when_triggered() -> None:
    """Rule 28 (Triggered Effects): Herald's 'when this Entity is created' triggers when it is
    created, goes on the stack without being asked for, and draws on resolution."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Herald"], "pool": {"&": 1}, "deck": ["Ogre"] + ["Squire"] * 5}})
    events = play(g, "A play Herald", "resolve", "A slot f0")
    assert events[-2:] == ["Played(A, Herald)", "TriggerPlaced(A, Herald)"]
    expect(g, {"stack": ["Herald"], "decision": "A priority"})
    play(g, "resolve")
    expect(g, {"A.hand": ["Ogre"]})


def test_rule_28_5_1_triggers_wait_until_their_controller_can_act() -> None:
    """28.5.1: an effect that meets its trigger while its controller cannot act (B's Mirror
    Scribe, while A's Insight resolves) waits: it is put on the stack only after the
    resolution, and B draws only when it resolves."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Insight"], "pool": {"!": 1}},
              "B": {"front": {0: "Mirror Scribe"}, "deck": 10}})
    play(g, "A play Insight", "resolve", "A slot b0", "A pass")
    start = len(g.events)
    play(g, "B pass")
    events = texts(g, start)
    assert events[:3] == ["Draw(A, Squire)", "Draw(A, Squire)", "Resolved(Insight)"]
    assert not any(e.startswith("TriggerPlaced") for e in events)
    expect(g, {"decision": "B place_triggers", "B.hand": 0, "stack": []})
    play(g, "B trigger 0")
    expect(g, {"B.hand": 0, "stack": ["Mirror Scribe", "Mirror Scribe"]})
    play(g, "resolve all")
    expect(g, {"B.hand": 2})


def test_rule_29_keyword_effects_after_a_semicolon_need_the_keyword_condition() -> None:
    """Rule 29 (Keywords Effects): Backlash ('Activate: When your opponent casts a Sorcery;
    deal 2 damage to target Entity; draw a card') can only be activated once its condition
    has happened, and then both effects after the semicolons happen."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Insight"], "pool": {"!": 1}, "front": {0: "Squire"}},
              "B": {"back": {0: "Backlash"}, "pool": {"!": 1}, "deck": 5}})
    assert not legal(g, "B activate B.b0 0")
    play(g, "A play Insight")
    # B is asked in the window (its face-down card could be an Ambush keyed to 'would cast'),
    # but Backlash cannot be activated: Insight is only being cast
    assert decision(g) == "B place_triggers" and not legal(g, "B activate B.b0 0")
    play(g, "B pass", "A pass")
    assert decision(g) == "B priority" and not legal(g, "B activate B.b0 0")  # only being cast
    play(g, "B pass", "A slot b0")
    assert decision(g) == "B place_triggers" and legal(g, "B activate B.b0 0")
    play(g, "B activate B.b0 0", "B target A.f0", "resolve")
    expect(g, {"A.f0": "empty", "B.hand": 1})


FLAVOUR = [
    {"name": "Plain Bolt", "type": "sorcery", "resource": "strife", "cost": "£",
     "text": "Deal 2 damage to target Entity.",
     "abilities": [{"kind": "spell", "targets": {"t": "entity"},
                    "steps": [{"do": "damage", "amount": 2, "to": "t"}]}]},
    {"name": "Fury Bolt", "type": "sorcery", "resource": "strife", "cost": "£",
     "text": "*Fury* - Deal 2 damage to target Entity.",
     "abilities": [{"kind": "spell", "targets": {"t": "entity"},
                    "steps": [{"do": "damage", "amount": 2, "to": "t"}]}]},
]


def test_rule_29_5_flavour_words_have_no_bearing_on_gameplay() -> None:
    """29.5: an italicised word before a dash is flavour: a card whose text starts '*Fury* -'
    plays exactly like the same card without it (same legal actions, same result)."""
    results = []
    for name in ("Plain Bolt", "Fury Bolt"):
        g = make({"turn": 1, "phase": "action1", "A": {"hand": [name], "pool": {"£": 1}},
                  "B": {"front": {0: "Squire", 1: "Ogre"}}}, cards=FLAVOUR)
        play(g, f"A play {name}")
        targets = sorted(str(a) for a in g.legal_actions())
        events = play(g, "A target B.f1", "resolve", "A slot b0", "resolve")
        results.append((targets, [e.replace(name, "X") for e in events], g.obj_at("B.f1").damage))
    assert results[0] == results[1]
    assert results[0][2] == 2


def test_rule_28_5_events_no_ability_waits_for_are_not_matched() -> None:
    """28.5, 29.4: the engine matches an event only against abilities that wait for its name.
    The names come from triggered abilities of face-up cards in play and face-down Ambushes
    (Mirror Scribe waits for draws, a face-down Backlash for a cast) and follow the board:
    Herald's 'created' joins when Herald enters play, and the trigger still happens."""
    from hostwcg_env.engine.stats import trigger_events

    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Herald"], "pool": {"&": 1}, "deck": ["Ogre"] + ["Squire"] * 5},
              "B": {"front": {0: "Mirror Scribe"}, "back": {0: "Backlash"}, "deck": 10}})
    assert trigger_events(g.state) == {"draws", "cast"}
    play(g, "A play Herald", "resolve", "A slot f0")
    assert trigger_events(g.state) == {"draws", "cast", "created"}
    expect(g, {"stack": ["Herald"]})
    events = play(g, "resolve")
    assert events == ["Draw(A, Ogre)", "Resolved(Herald)", "TriggerPlaced(B, Mirror Scribe)"]
    expect(g, {"A.hand": ["Ogre"], "stack": ["Mirror Scribe"]})  # Mirror Scribe saw the draw
