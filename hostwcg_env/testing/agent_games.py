"""Seeded games between named agents, and constructed positions, for the agents' tests
(tests/test_lookahead.py, tests/test_turnsearch.py, tests/test_heuristic.py, tests/test_pimc.py,
tests/test_set_agent.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from agents import decide, make_agent
from agents.heuristic import STALL_TURN
from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import Game
from hostwcg_env.env import shipped_decks
from hostwcg_env.scenarios.builder import setup_game
from hostwcg_env.scenarios.runner import fingerprint

# the first turn of player A (odd turns are A's) on which the agents treat the board as stalled
STALLED_TURN_A = STALL_TURN + 1 if STALL_TURN % 2 == 0 else STALL_TURN


def position(turn: int, phase: str, a: dict[str, Any], b: dict[str, Any]) -> Game:
    """A constructed position of the stand-in test cards (a scenario file's ``setup``)."""
    return setup_game({"setup": {"turn": turn, "phase": phase, "A": a, "B": b}}, "test")


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


def choice_point(seed: int, plies: int) -> Game:
    """A heuristic game after ``plies`` decisions, on to its next choice of two or more actions."""
    g, _ = play(seed, ("heuristic", "heuristic"), plies=plies)
    while not g.is_over and len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    return g


def plays_full_games(name: str) -> None:
    """Agent ``name`` plays a full game in each seat (against the heuristic, then the lookahead),
    every action legal."""
    assert play(1, (name, "heuristic"))[0].is_over
    assert play(2, ("lookahead", name))[0].is_over


def deterministic_and_untouched(make: Callable[[], Any]) -> None:
    """Two fresh agents from ``make`` (same seed) make the same choice at each of a few choice
    points of heuristic games, and their searches leave the real game as it was."""
    checked = 0
    for seed, plies in ((3, 80), (4, 33), (6, 120), (7, 61)):
        g = choice_point(seed, plies)
        if g.is_over:
            continue
        before = fingerprint(g)
        p = g.decision.player  # type: ignore[union-attr]
        first = make().choose(g.view(p), g.legal_actions())
        assert fingerprint(g) == before
        assert make().choose(g.view(p), g.legal_actions()) == first
        checked += 1
    assert checked >= 3
