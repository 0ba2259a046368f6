"""clone() copies every part of a game (state.GameState.copy writes each field by hand): the
copy equals the original field by field, shares nothing mutable with it, and plays on to the
same game; drawing from the random generator in one does not change the other."""

from __future__ import annotations

import dataclasses
import random

from hostwcg_env.cards import default_ruleset
from hostwcg_env.cards.decks import DECKS_DIR, load_deck
from hostwcg_env.engine import Game
from hostwcg_env.engine.state import GameState

DECKS = sorted(DECKS_DIR.glob("*.toml"))
# caches, the random generator (copied on first use) and the state's own identity token
CACHES = {"ability_cache", "stat_cache", "hidden_cache", "rng", "rng_shared", "ident"}


def _positions(n_games: int = 6, every: int = 7) -> list[Game]:
    rules = default_ruleset()
    out = []
    for i in range(n_games):
        rng = random.Random(i)
        g = rules.new_game(load_deck(DECKS[i % len(DECKS)]), load_deck(DECKS[(i * 3 + 1) % len(DECKS)]), seed=i)
        n = 0
        while not g.is_over:
            if n % every == 0:
                out.append(g.clone())
            g.apply(rng.choice(g.legal_actions()))
            n += 1
    return out


def test_a_copy_equals_its_original_field_by_field() -> None:
    names = {f.name for f in dataclasses.fields(GameState)}
    for g in _positions():
        s = g.state
        c = s.copy()
        for name in names - CACHES:
            assert getattr(c, name) == getattr(s, name), name
        assert c.rng is not None and s.rng is not None
        assert c.rng.getstate() == s.rng.getstate()
        assert repr(c.players) == repr(s.players) and repr(c.tasks) == repr(s.tasks)
        assert repr(c.decision) == repr(s.decision)


def test_a_copy_shares_nothing_that_changes() -> None:
    for g in _positions(n_games=3):
        s, c = g.state, g.state.copy()
        for a, b in zip(s.players, c.players, strict=True):
            for name in ("deck", "hand", "drop", "damage", "banished", "forms", "front", "back", "pool"):
                assert getattr(a, name) is not getattr(b, name), name
        for oid, o in s.objs.items():
            assert c.objs[oid] is not o
        for x, y in zip(s.stack, c.stack, strict=True):
            assert x is not y and (not x.targets or x.targets is not y.targets)
        for x, y in zip(s.tasks, c.tasks, strict=True):
            assert x is not y
        if s.decision is not None:
            assert c.decision is not s.decision
            assert s.decision.task is None or c.decision is not None and c.decision.task is not s.decision.task


def test_the_random_generator_is_copied_before_either_game_draws() -> None:
    g = default_ruleset().new_game(load_deck(DECKS[0]), load_deck(DECKS[1]), seed=5)
    c = g.clone()
    before = c.state.random().getstate()
    g.state.random().random()  # the original draws
    assert c.state.random().getstate() == before
    c.state.random().random()
    d = g.clone()
    assert d.state.random().getstate() == g.state.random().getstate()
