"""Seeded games between named agents, for the agents' tests (tests/test_lookahead.py,
tests/test_turnsearch.py)."""

from __future__ import annotations

import random

from agents import decide, make_agent
from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import Game
from hostwcg_env.env import shipped_decks


def new_game(seed: int) -> Game:
    """A game of two shipped decks drawn by ``seed``, with that seed."""
    decks = shipped_decks()
    rng = random.Random(seed)
    return default_ruleset().new_game(rng.choice(decks), rng.choice(decks), seed=seed)


def play(seed: int, names: tuple[str, str], plies: int | None = None) -> tuple[Game, list[str]]:
    """Play ``new_game(seed)`` between the agents ``names`` (seeded ``2 * seed`` and
    ``2 * seed + 1``) to the end or for ``plies`` actions, checking each action is legal;
    returns the game and the actions taken, as text."""
    g = new_game(seed)
    agents = [make_agent(names[0], seed=2 * seed), make_agent(names[1], seed=2 * seed + 1)]
    log: list[str] = []
    while not g.is_over and (plies is None or len(log) < plies):
        d = g.decision
        assert d is not None
        a = d.actions[0] if len(d.actions) == 1 else decide(agents[d.player], g)
        assert a in g.legal_actions()
        g.apply(a)
        log.append(str(a))
    return g, log
