"""Section 41 ('Reveal' vs 'Look at' vs 'Search') and section 42 (Miscellaneous: loops)."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401

from ._util import decision, expect, make, play

DECK = ["Ogre", "Herald", "Wall", "Squire"]  # Herald and Squire are Human Entities
TUTOR = ["A play Tutor", "resolve", "A slot b0", "A pass", "B pass"]


def test_rule_41_reveal_look_and_search_show_cards_to_different_players() -> None:
    """Rule 41: a revealed hand is shown to both players; cards looked at are seen only by the
    player looking; a search is seen by the searcher (and a found card with traits is shown)."""
    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Exposure", "Scry Glass"], "pool": {"!": 2}, "deck": ["Ogre", "Wall", "Herald"]},
              "B": {"hand": ["Pinger", "Duelist"]}})
    play(g, "A play Exposure", "resolve", "A slot b0", "resolve")
    expect(g, {"view": {"A": {"contains": ["Reveal(B, hand=[Duelist, Pinger])"]},
                        "B": {"contains": ["Reveal(B, hand=[Duelist, Pinger])"]}}})
    play(g, "A play Scry Glass", "resolve", "A slot b0", "A pass", "B pass")
    expect(g, {"view": {"A": {"contains": ["Look(A, deck, 3, [Ogre, Wall, Herald])"]},
                        "B": {"contains": ["Look(A, deck, 3)"], "not_contains": ["Ogre", "Herald"]}}})


def test_rule_41_3_1_a_searched_deck_is_open_to_the_searcher_only_during_the_search() -> None:
    """41.3.1: the deck is closed, but while A searches it A sees the cards it may take; after
    the search it is closed again."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Tutor"], "pool": {"&": 1}, "deck": DECK}})
    assert g.view(0).choice_cards() == []
    play(g, *TUTOR)
    assert decision(g) == "A choose_card"
    assert [o.name for o in g.view(0).choice_cards()] == ["Herald", "Squire"]
    play(g, "A card Squire")
    assert g.view(0).choice_cards() == []
    expect(g, {"view": {"A": {"A.deck": 3, "not_contains": ["Ogre", "Wall", "Herald"]}}})


def test_rule_41_3_2_only_the_searching_player_sees_the_searched_zone() -> None:
    """41.3.2: during A's search B sees neither the deck nor which cards A may choose."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Tutor"], "pool": {"&": 1}, "deck": DECK}})
    play(g, *TUTOR)
    b = g.view(1)
    assert b.choice_cards() == []
    assert not set(DECK) & set(b.card_names())
    assert b.state.decision is not None and b.state.decision.actions == ()


def test_rule_41_3_3_a_card_found_by_its_traits_is_shown_to_both_players() -> None:
    """41.3.3: Tutor searches for a Human Entity, so the card found is revealed to both players
    to prove it matches."""
    g = make({"turn": 1, "phase": "action1", "A": {"hand": ["Tutor"], "pool": {"&": 1}, "deck": DECK}})
    play(g, *TUTOR)
    events = play(g, "A card Herald")
    assert "Reveal(A, card=Herald)" in events
    expect(g, {"A.hand": ["Herald"], "view": {"B": {"contains": ["Reveal(A, card=Herald)"]}}})


@pytest.mark.rules("42.1")
def test_rule_42_an_infinite_loop_is_cut_and_the_initial_action_stands() -> None:
    """Rule 42 (Miscellaneous), 42.1: two Echo Sphinxes would feed each other forever once A
    gains a resource; the looping effect does not resolve, and A keeps the resource."""
    g = make({"turn": 1, "phase": "action1", "A": {"front": {0: "Echo Sphinx"}},
              "B": {"front": {0: "Echo Sphinx"}}})
    play(g, "A ap host")
    events = play(g, "resolve all")
    assert events == ["LoopCut(Echo Sphinx)"]
    expect(g, {"A.pool": {"&": 1}, "B.pool": {}, "stack": [], "winner": "none"})


def test_rule_42_1_1_1_a_loop_that_ends_in_a_loss_is_not_infinite() -> None:
    """42.1.1.1: two Mirror Scribes make each draw set off the other, but every draw uses up a
    deck, so the chain runs to the end, where a player loses; nothing is cut."""
    g = make({"turn": 1, "phase": "action1", "A": {"front": {0: "Mirror Scribe"}, "deck": 4},
              "B": {"front": {0: "Mirror Scribe"}, "deck": 4}})
    events = play(g, "A ap draw")
    for _ in range(40):
        if g.is_over:
            break
        events += play(g, "pass")
    assert not any(e.startswith("LoopCut") for e in events)
    assert sum(e.startswith("Draw(") for e in events) == 7
    assert events[-1] == "GameOver(winner=B, reason=deck_out)"


@pytest.mark.rules("4.1.1")
def test_rule_41_looked_at_cards_go_back_on_top_in_a_game_sampled_from_a_view() -> None:
    """Rule 41 with 4.1.1: the deck's order is closed, so a view (and a game sampled from it
    by determinize, as search agents do) holds the deck in another order. Putting the looked-at
    cards back must move exactly those cards to the top: no card twice, none lost."""
    import random

    from hostwcg_env.engine import Game
    from hostwcg_env.engine.view import determinize

    g = make({"turn": 1, "phase": "action1",
              "A": {"hand": ["Scry Glass"], "pool": {"!": 2},
                    "deck": ["Ogre", "Wall", "Herald", "Squire", "Ogre", "Wall", "Herald"]}})
    g.state.players[0].deck.reverse()  # any order: the view lists the deck in id order
    play(g, "A play Scry Glass", "resolve", "A slot b0", "A pass", "B pass")
    assert decision(g) == "A choose_card"
    looked = list(g.state.decision.cards)
    sampled = Game(determinize(g.view(0), random.Random(3)))
    while not sampled.is_over and sampled.decision.player == 0 and sampled.decision.kind.value == "choose_card":
        sampled.apply(sampled.legal_actions()[0])
    deck = sampled.state.players[0].deck
    assert len(deck) == len(set(deck)) == 7
    assert all(o in sampled.state.objs for o in deck)
    assert set(deck[:3]) == set(looked)
