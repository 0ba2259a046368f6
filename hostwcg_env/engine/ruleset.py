"""A Ruleset: the rule flags and the cards that games are played with; it makes the games.

    rules = Ruleset(RuleConfig(), registry)          # or hostwcg_env.cards.default_ruleset()
    game = rules.new_game(deck_a, deck_b, seed=7)

Nothing is patched at import time: whoever makes a game says which cards exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .carddef import CardDef
from .config import RuleConfig
from .game import Game


@dataclass(frozen=True, eq=False)
class Ruleset:
    """``config``: the rule flags (RuleConfig); ``registry``: every card a game may name
    (decks, tokens), by name. Games made by one Ruleset share its registry, which nothing
    changes."""

    config: RuleConfig
    registry: dict[str, CardDef]

    def new_game(self, deck_a: Any, deck_b: Any, seed: int = 0) -> Game:
        """Start a game (9.1) from two decks: Deck objects (``host``, ``main``) or
        ``(host, main)`` pairs of card names."""
        return Game.new(deck_a, deck_b, config=self.config, seed=seed, registry=self.registry)

    def with_config(self, config: RuleConfig) -> Ruleset:
        """The same cards under other rule flags."""
        return Ruleset(config, self.registry)

    def with_overrides(self, overrides: Mapping[str, Any]) -> Ruleset:
        """The same cards with some rule flags changed (names and values as in RuleConfig)."""
        return Ruleset(self.config.with_overrides(dict(overrides)), self.registry)
