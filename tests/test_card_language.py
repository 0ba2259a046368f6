"""The richer card language (docs/cards.md "Conditions", "Selectors", "Steps"): conditional
steps, keyword and drop/banished-zone selectors, put_into_play, return_to_hand from a zone and
gain_ap. Their text is generated, every bad field is refused naming file, card and field, and
each behaves as the rules say (the rules cases are the scenario files s285-s294; these are the
variants a scenario file cannot hold in one setup)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from hostwcg_env.cards import CardError, load_card_table, load_cards
from hostwcg_env.engine import Game
from hostwcg_env.engine.events import Played, Reveal
from hostwcg_env.scenarios.builder import setup_game
from hostwcg_env.scenarios.runner import run_line

DATA = Path(__file__).resolve().parent.parent / "hostwcg_env" / "cards" / "data"


def card(body: str, name: str = "Probe") -> str:
    return f'[[card]]\nname = "{name}"\n' + textwrap.dedent(body)


SORCERY = 'type = "sorcery"\ncost = "&"\n[[card.abilities]]\nkind = "spell"\n'


def text_of(steps: str, targets: str = "", head: str = SORCERY) -> str:
    toml = card(head + (f"targets = {targets}\n" if targets else "") + f"steps = [ {steps} ]\n")
    return load_card_table(_table(toml), "probe.toml").text


def _table(toml: str) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(toml)["card"][0]


def game_of(setup: dict[str, Any], cards: list[dict[str, Any]] | None = None) -> Game:
    doc: dict[str, Any] = {"setup": {"turn": 3, "phase": "action1", **setup}, "config": {"auto_pay": True}}
    if cards:
        doc["cards"] = cards
    return setup_game(doc, "test_card_language")


def play(g: Game, *lines: str) -> None:
    for line in lines:
        run_line(g, line)


def names(g: Game, side: str, zone: str) -> list[str]:
    p = g.state.players["AB".index(side)]
    return [g.state.objs[i].name for i in getattr(p, zone) if i is not None]


# --------------------------------------------------------------------------- text


@pytest.mark.parametrize(
    ("steps", "targets", "want"),
    [
        ('{ do = "draw", amount = 1, if = { count = { type = "entity", controller = "you", subtype = "Guard" }, '
         'min = 2 } }',
         "", "If you control two or more Guard Entities, draw a card."),
        ('{ do = "draw", amount = 1, if = { count = { type = "entity", controller = "opponent" }, max = 0 } }',
         "", "If your opponent controls no Entities, draw a card."),
        ('{ do = "draw", amount = 1, if = { count = { type = "entity", keyword = "first_strike" } } }',
         "", "If there is an Entity with First Strike in play, draw a card."),
        ('{ do = "draw", amount = 1, if = { count = { type = "card", zone = "drop", controller = "you", '
         'card_type = "entity" }, min = 3 } }',
         "", "If there are three or more Entity cards in your drop zone, draw a card."),
        ('{ do = "damage", amount = 2, to = "t", if = { stat = "power", of = "t", min = 3 } }',
         '{ t = "entity" }', "If target Entity has 3 or more power, deal 2 damage to it."),
        ('{ do = "draw", amount = 1, if = { stat = "health", of = "opponent_host", max = 4 } }',
         "", "If your opponent's Host has 4 or less health, draw a card."),
        ('{ do = "draw", amount = 2, if = { zone = "deck", who = "opponent", min = 10 } }',
         "", "If your opponent has 10 or more cards in their deck, draw two cards."),
        ('{ do = "gain_ap", amount = 2, who = "each", if = [ { zone = "hand", max = 0 }, '
         '{ stat = "soul", of = "your_host", min = 1, max = 3 } ] }',
         "", "If you have no cards in hand and your Host has 1 to 3 soul, each player gains 2 action points (#)."),
        ('{ do = "draw", amount = 1 }, { do = "discard", amount = 1, if = { previous = "happened" } }',
         "", "Draw a card, then if that happened, discard a card."),
        ('{ do = "return_to_hand", to = { all = { type = "card", zone = "banished", card_type = "entity" } } }',
         "", "Return all Entity cards from the banished zones to their owners' hands."),
        ('{ do = "return_to_hand", to = { choose = { type = "card", zone = "drop", controller = "opponent", '
         'keyword = "fast" } } }',
         "", "Return a card with Fast from your opponent's drop zone to your opponent's hand."),
        ('{ do = "put_into_play", to = { choose = { type = "card", zone = "drop", card_type = "entity" } } }',
         "", "Put an Entity card from either player's drop zone into play under your control."),
        ('{ do = "destroy", to = "t" }',
         '{ t = { type = "entity", controller = "opponent", keyword = "cannot_block" } }',
         "Destroy target Entity your opponent controls with Cannot Block."),
        ('{ do = "gain_ap", amount = 1, who = "opponent" }', "", "Your opponent gains 1 action point (#)."),
    ],
)
def test_generated_text(steps: str, targets: str, want: str) -> None:
    assert text_of(steps, targets) == want


def test_pool_cards_text() -> None:
    pool = load_cards(sorted(p for p in DATA.glob("*.toml") if p.name != "test_cards.toml"))
    assert {n: pool[n].text for n in ("Quartermaster", "Unhorse", "Grave Robber", "Duelist's Gambit",
                                      "Rite of Return", "Echo of the Lost")} == {
        "Quartermaster": "When this Entity is created, if you control two or more Soldier Entities, "
                         "gain 1 action point (#).",
        "Unhorse": "Destroy target Entity with First Strike.",
        "Grave Robber": "When this Entity is created, return an Entity card from your drop zone to your hand.",
        "Duelist's Gambit": "If target Entity your opponent controls has First Strike, deal 2 damage to it, "
                            "then if that did not happen, deal 1 damage to it.",
        "Rite of Return": "Put an Entity card with power 3 or less from your drop zone into play, then if "
                          "you have no cards in hand, draw a card.",
        "Echo of the Lost": "Return a card from your banished zone to your hand, then if your Host has 5 or "
                            "more soul, draw a card.",
    }


# --------------------------------------------------------------------------- validation

BAD = [
    ('{ do = "draw", if = { previous = "happened" } }', "", "steps[0].if.previous",
     "the first step has no previous step"),
    ('{ do = "draw" }, { do = "draw", if = { previous = "maybe" } }', "", "steps[1].if.previous",
     "unknown previous 'maybe'"),
    ('{ do = "draw", if = { count = "entity", zone = "hand", max = 1 } }', "", "steps[0].if.zone",
     "exactly one of count, stat, keyword, zone, previous (got count, zone)"),
    ('{ do = "draw", if = { min = 1 } }', "", "steps[0].if.count", "exactly one of"),
    ('{ do = "draw", if = { stat = "power", of = "your_host", min = 1 } }', "", "steps[0].if.stat",
     "Hosts have no power (13.4)"),
    ('{ do = "draw", if = { stat = "soul", of = "t", min = 1 } }', '{ t = "entity" }', "steps[0].if.stat",
     "only Hosts have soul"),
    ('{ do = "draw", if = { stat = "health", of = "your_host" } }', "", "steps[0].if.min", "needs min or max"),
    ('{ do = "draw", if = { stat = "health", of = "nobody", min = 1 } }', "", "steps[0].if.of",
     "unknown reference 'nobody'"),
    ('{ do = "draw", if = { zone = "hand", min = 3, max = 1 } }', "", "steps[0].if.min", "min 3 is above max 1"),
    ('{ do = "draw", if = { zone = "stack", min = 1 } }', "", "steps[0].if.zone", "unknown zone 'stack'"),
    ('{ do = "draw", if = { zone = "hand", who = "each", min = 1 } }', "", "steps[0].if.who", "unknown player 'each'"),
    ('{ do = "draw", if = { keyword = "first_strike", of = "self", min = 1 } }', "", "steps[0].if.min",
     "a keyword condition has no min"),
    ('{ do = "draw", if = { keyword = "flying", of = "self" } }', "", "steps[0].if.keyword",
     "unknown keyword 'flying'"),
    ('{ do = "draw", if = { zone = "hand", max = 0, of = "self" } }', "", "steps[0].if.of",
     "only a stat or keyword condition has an of"),
    ('{ do = "draw", if = { count = { type = "card", card_type = "entity" } } }', "", "steps[0].if.count.zone",
     'needs zone = "drop" or "banished"'),
    ('{ do = "draw", if = { count = "card" } }', "", "steps[0].if.count", "needs a zone"),
    ('{ do = "draw", if = "always" }', "", "steps[0].if", "expected a condition table"),
    ('{ do = "draw", if = { zone = "hand", max = 0, colour = "red" } }', "", "steps[0].if.colour", "unknown field"),
    ('{ do = "destroy", to = "t" }', '{ t = { type = "card", zone = "drop" } }', "targets.t", "is never a target"),
    ('{ do = "destroy", to = "t" }', '{ t = { type = "card" } }', "targets.t.type", "cannot be used as a target"),
    ('{ do = "destroy", to = { all = { type = "entity", zone = "drop" } } }', "", "steps[0].to.all.zone",
     'only a selector of type = "card" has a zone'),
    ('{ do = "damage", amount = 1, to = { choose = { type = "card", zone = "drop" } } }', "", "steps[0].to",
     "damage acts on entity, host, entity_or_host, not on card"),
    ('{ do = "put_into_play", to = { choose = { type = "card", zone = "drop", card_type = "sorcery" } } }',
     "", "steps[0].to", 'needs card_type = "entity"'),
    ('{ do = "put_into_play", to = { choose = "entity" } }', "", "steps[0].to",
     "put_into_play acts on card, not on entity"),
    ('{ do = "return_to_hand", to = { choose = { type = "card", zone = "hand" } } }', "", "steps[0].to.choose.zone",
     "unknown selector zone 'hand'"),
    ('{ do = "return_to_hand", to = { choose = { type = "card", card_type = "entity" } } }',
     "", "steps[0].to.choose.zone", "needs zone"),
    ('{ do = "search", filter = { type = "card", zone = "drop" } }', "", "steps[0].filter.zone", "has no zone"),
    ('{ do = "search", filter = { type = "card", keyword = "fast" } }', "", "steps[0].filter.keyword",
     "only a selector with a zone"),
    ('{ do = "destroy", to = "t" }', '{ t = { type = "entity", keyword = "flying" } }', "targets.t.keyword",
     "unknown keyword 'flying'"),
    ('{ do = "gain_ap" }', "", "steps[0].amount", "gain_ap needs amount"),
]


@pytest.mark.parametrize(("steps", "targets", "field", "fragment"), BAD)
def test_bad_fields_are_refused_naming_file_card_and_field(tmp_path: Path, steps: str, targets: str,
                                                           field: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(card(SORCERY + (f"targets = {targets}\n" if targets else "") + f"steps = [ {steps} ]\n"),
                    encoding="utf-8")
    with pytest.raises(CardError) as info:
        load_cards(path)
    lines = str(info.value).splitlines()
    want = f"{path}: card 'Probe': field 'abilities[0].{field}'"
    hits = [ln for ln in lines if ln.startswith(want)]
    assert hits, f"no problem for {field}: {lines}"
    assert any(fragment in ln for ln in hits), hits


def test_static_affects_cannot_filter_on_keywords(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(card('type = "form"\ncost = "&"\n[[card.abilities]]\nkind = "static"\n'
                         'affects = { type = "entity", keyword = "first_strike" }\npower = 1\n'), encoding="utf-8")
    with pytest.raises(CardError, match=r"field 'abilities\[0\]\.affects\.keyword': keyword filters"):
        load_cards(path)


def test_a_target_used_only_in_a_condition_counts_as_used() -> None:
    text = text_of('{ do = "draw", amount = 1, if = { keyword = "fast", of = "t" } }', '{ t = "entity" }')
    assert text == "If target Entity has Fast, draw a card."


# --------------------------------------------------------------------------- behaviour

ECHO_LOW = [{"name": "Echo Low", "type": "sorcery", "cost": "!",
             "abilities": [{"kind": "spell", "steps": [
                 {"do": "draw", "amount": 1, "if": {"stat": "soul", "of": "your_host", "max": 3}},
                 {"do": "gain_ap", "amount": 2, "link": "and", "if": {"count": {"type": "card", "zone": "drop",
                  "controller": "you", "card_type": "entity"}, "min": 2}}]}]}]


@pytest.mark.rules("34.3", "40.4", "20.1")
def test_stat_and_zone_count_conditions_in_an_and_group() -> None:
    """Two conditional parts linked by 'and': each is checked when the group is reached; the
    false one is not performed, the true one is."""
    g = game_of({"A": {"hand": ["Echo Low"], "pool": {"!": 1}, "drop": ["Ogre", "Wall", "Spark"]}}, ECHO_LOW)
    play(g, "A play Echo Low", "resolve", "A slot b0", "resolve")
    assert len(g.state.players[0].hand) == 0 and g.state.players[0].ap == 6  # soul 5: no draw; 2 Entity cards
    g = game_of({"A": {"hand": ["Echo Low"], "pool": {"!": 1}, "drop": ["Ogre"],
                       "host": {"card": "Test Host", "mods": [{"set_soul": 3}]}}}, ECHO_LOW)
    play(g, "A play Echo Low", "resolve", "A slot b0", "resolve")
    assert len(g.state.players[0].hand) == 1 and g.state.players[0].ap == 4  # soul 3: draw; 1 Entity card


GRANT_CHECK = [{"name": "Test of Mettle", "type": "sorcery", "cost": "£",
                "abilities": [{"kind": "spell", "targets": {"t": {"type": "entity", "controller": "you"}}, "steps": [
                    {"do": "grant", "to": "t", "keyword": "first_strike", "duration": "end_of_turn"},
                    {"do": "draw", "amount": 1, "if": {"keyword": "first_strike", "of": "t"}}]}]}]


@pytest.mark.rules("40.3", "34.3")
def test_a_keyword_granted_by_an_earlier_part_counts() -> None:
    g = game_of({"A": {"hand": ["Test of Mettle"], "pool": {"£": 1}, "front": {"0": "Squire"}}}, GRANT_CHECK)
    play(g, "A play Test of Mettle", "A target A.f0", "resolve", "A slot b0", "resolve")
    assert names(g, "A", "hand") == ["Squire"]


@pytest.mark.rules("36.2", "34.3")
def test_a_condition_on_a_card_that_has_left_play_is_false() -> None:
    """A reference that names nothing now (this card after it left play, 36.2; a target gone)
    has no stats or keywords: the condition is false and only that step is not performed."""
    cards = [{"name": "Last Stand", "type": "entity", "cost": "£", "health": 1, "power": 1,
              "keywords": ["first_strike"],
              "abilities": [{"kind": "triggered", "when": {"event": "destroyed", "subject": "self"}, "steps": [
                  {"do": "draw", "amount": 1, "if": {"keyword": "first_strike", "of": "self"}},
                  {"do": "gain_ap", "amount": 1}]}]}]
    g = game_of({"A": {"hand": ["Spark"], "pool": {"£": 1}, "front": {"0": "Last Stand"}}}, cards)
    play(g, "A play Spark", "A target A.f0", "resolve", "A slot b0", "resolve", "resolve")
    texts = [str(e) for e in g.events]
    assert "Resolved(Last Stand)" in texts and not any(t.startswith("Draw(") for t in texts)
    assert g.state.players[0].ap == 5 and names(g, "A", "hand") == []


@pytest.mark.rules("4.2.1", "6.1.1.1", "4.3.1", "6.1.2.1")
def test_choosing_from_a_drop_zone_shows_only_public_cards() -> None:
    """The list of a drop-zone choice holds only drop-zone cards (open, 6.1.1.1); the
    opponent's view of the hand is its size, plus the card it saw go there."""
    g = game_of({"A": {"hand": ["Grave Robber", "Spark"], "pool": {"£": 2}, "drop": ["Ogre", "Wall"]},
                 "B": {"hand": ["Blast"], "drop": ["Squire"]}})
    play(g, "A play Grave Robber", "resolve", "A slot f0", "resolve")
    d = g.decision
    assert d is not None and d.kind.value == "choose_card"
    assert {g.state.objs[c].zone for c in d.cards} == {"drop"}
    assert [g.state.objs[c].name for c in d.cards] == ["Ogre", "Wall"]
    def b_sees() -> list[str]:
        view = g.view(1)
        return view.card_names() + [str(e) for e in view.events]

    assert not any("Spark" in n for n in b_sees())  # A's hand is semi-open (4.3.1, 6.1.2.1)
    play(g, "A card Wall")
    seen = [str(e) for e in g.events if isinstance(e, Reveal)]
    assert seen == ["Reveal(A, card=Wall)"]
    assert sorted(names(g, "A", "hand")) == ["Spark", "Wall"]
    assert any("Reveal(A, card=Wall)" in n for n in b_sees()) and not any("Spark" in n for n in b_sees())


@pytest.mark.rules("18.7", "14.7")
def test_put_into_play_offers_only_open_slots_and_keeps_the_owner() -> None:
    """Put into play from the opponent's drop zone: under your control, its owner unchanged
    (37.1, 37.2); a later return goes to the owner's hand."""
    cards = [{"name": "Raise Theirs", "type": "sorcery", "cost": "!",
              "abilities": [{"kind": "spell", "steps": [{"do": "put_into_play", "to": {"choose": {
                  "type": "card", "zone": "drop", "controller": "opponent", "card_type": "entity"}}}]}]}]
    g = game_of({"A": {"hand": ["Raise Theirs"], "pool": {"!": 1}, "front": {"0": "Squire", "2": "Squire"}},
                 "B": {"drop": ["Ogre"]}}, cards)
    play(g, "A play Raise Theirs", "resolve", "A slot b0", "resolve", "A card Ogre")
    assert sorted(str(a) for a in g.decision.actions) == ["slot f1", "slot f3", "slot f4"]
    play(g, "A slot f3")
    ogre = g.obj_at("A.f3")
    assert (ogre.name, ogre.controller, ogre.owner, ogre.sick) == ("Ogre", 0, 1, True)
    assert names(g, "B", "drop") == []


# --------------------------------------------------------------------------- in games

NEW_CARDS = ("Quartermaster", "Unhorse", "Grave Robber", "Duelist's Gambit", "Rite of Return", "Echo of the Lost")


def _decks_with_new_cards() -> list[Any]:
    """Two shipped decks with four copies of each new card in place of their first 24 cards
    (the shipped decks themselves hold none yet: tests/test_pool.py AWAITING_DECK)."""
    from hostwcg_env.cards.decks import Deck
    from hostwcg_env.env import shipped_decks

    out = []
    for d in shipped_decks()[:2]:
        main = [n for n in NEW_CARDS for _ in range(4)] + list(d.main[24:])
        out.append(Deck.from_lists(d.host, main, name=d.name + " +new"))
    return out


def test_random_games_with_the_new_cards_finish_and_hide_nothing() -> None:
    """Seeded random games whose decks hold the new cards run to the end; in sampled states,
    redrawing what one player cannot see (determinize) changes none of its observation, its
    action mask or its render (as tests/test_hidden_info.py checks for the shipped decks)."""
    import random

    import numpy as np
    from test_hidden_info import ENC, _mask

    from hostwcg_env.cards import default_ruleset
    from hostwcg_env.engine.view import determinize
    from hostwcg_env.render import render_text

    a, b = _decks_with_new_cards()
    played: set[str] = set()
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        g = default_ruleset().new_game(a, b, seed=seed)
        k = 0
        while not g.is_over and k < 3000:
            if k % 23 == 0:
                for p in (0, 1):
                    view = g.view(p)
                    obs, mask, text = ENC.encode(view).copy(), _mask(g, p), render_text(g, p)
                    g2 = Game(determinize(view, random.Random(k)))
                    assert np.array_equal(ENC.encode(g2.view(p)), obs)
                    assert np.array_equal(_mask(g2, p), mask)
                    assert render_text(g2, p) == text
                    checked += 1
            g.apply(rng.choice(g.legal_actions()))
            k += 1
        assert g.is_over
        played |= {e.name for e in g.events if isinstance(e, Played)}
    assert checked >= 100
    assert {"Quartermaster", "Grave Robber", "Rite of Return", "Duelist's Gambit"} <= played, played
