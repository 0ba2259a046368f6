"""Helpers for the per-rule tests: build a position from a dict in the scenario format
(docs/scenarios.md), play action lines and macros, and check ``expect`` tables."""

from __future__ import annotations

from typing import Any

import hostwcg_env  # noqa: F401  (registers the default card pool)
from hostwcg_env.engine import Game
from hostwcg_env.scenarios import check_expect, run_line, setup_game
from hostwcg_env.scenarios.checks import is_legal_line


def make(setup: dict[str, Any], cards: list[dict[str, Any]] | None = None,
         config: dict[str, Any] | None = None) -> Game:
    """The game a scenario's ``[setup]`` (plus optional ``[[cards]]`` and ``[config]``) describes."""
    doc: dict[str, Any] = {"setup": setup}
    if cards:
        doc["cards"] = cards
    if config:
        doc["config"] = config
    return setup_game(doc, "<rule test>")


def play(game: Game, *lines: str) -> list[str]:
    """Play action lines or macros (``resolve``, ``to battle``); return the new event texts."""
    start = len(game.events)
    for line in lines:
        run_line(game, line)
    return [str(e) for e in game.events[start:]]


def texts(game: Game, start: int = 0) -> list[str]:
    return [str(e) for e in game.events[start:]]


def expect(game: Game, table: dict[str, Any], events: list[str] | None = None) -> None:
    """Assert every key of an ``expect`` table (docs/scenarios.md) holds now."""
    mismatches = check_expect(game, table, events or [])
    assert not mismatches, mismatches


def legal(game: Game, line: str) -> bool:
    """Whether ``line`` (e.g. ``"A play Squire"``) is a legal action of the deciding player now."""
    return is_legal_line(game, line)


def decision(game: Game) -> str:
    d = game.decision
    return "none" if d is None or game.is_over else f"{'AB'[d.player]} {d.kind.value}"


def index_of(events: list[str], prefix: str) -> int:
    """Index of the first event text starting with ``prefix`` (fails the test if none)."""
    for i, text in enumerate(events):
        if text.startswith(prefix):
            return i
    raise AssertionError(f"no event {prefix!r} in {events}")
