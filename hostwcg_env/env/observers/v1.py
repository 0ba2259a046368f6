"""hostwcg_v1's observer: a Dict of fixed-shape arrays per player, cards as rows with the
player's memory of what the rules made known, a public history and the legal actions
described by content (docs/observation_v1.md)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from hostwcg_env.engine import Action, Game, RuleConfig

from ..inputs import AGENTS
from ..v1.encoder import Encoder, Slate
from ..v1.layout import obs_layout
from ..v1.memory import Memory
from ..v1.spaces import Legal, observation_space
from .base import Row, Skip


class V1Observer:
    """The v1 encoder (``hostwcg_env.env.v1.encoder.Encoder``) writing each player's slate
    from its view and its ``Memory``; the legal actions by index (``Legal``). A player's
    memory hears of its own choices before they are applied (41.2). The vector and single
    envs ask a seat everywhere the AEC env does (only publicly forced decisions are taken),
    and the observer writes their rows in place (``row``, ``bind``, ``observe_into``)."""

    skip: Skip = "public"

    def __init__(self, config: RuleConfig) -> None:
        self.obs_layout = obs_layout(config)
        self.layout = self.obs_layout.actions
        self.encoder = Encoder(layout=self.obs_layout)
        self.observation_space: spaces.Space = observation_space(self.obs_layout)
        self.legal = Legal(self.obs_layout)
        self.slates: dict[str, Slate] = {a: self.encoder.slate() for a in AGENTS}
        self.memories: dict[str, Memory] = {a: Memory(i) for i, a in enumerate(AGENTS)}

    def reset(self) -> None:
        for m in self.memories.values():
            m.reset(None)

    def refresh(self, game: Game) -> None:
        self.legal.refresh(game)

    def before_apply(self, game: Game, player: int, action: Action) -> None:
        mem = self.memories[AGENTS[player]]
        mem.sync(game.view(player))
        mem.own_action(action)

    def decode(self, game: Game, index: int) -> Action | None:
        self.legal.refresh(game)
        return self.legal.decode(index)

    def mask(self, game: Game) -> np.ndarray:
        self.legal.refresh(game)
        return self.legal.mask

    def row(self, arrays: dict[str, np.ndarray]) -> Slate:
        """A slate writing into ``arrays`` (one row of a vector env's buffers)."""
        return self.encoder.slate(arrays)

    def bind(self, player: int, row: Row) -> None:
        """``player``'s observations go to ``row`` (a slate of ``row()``) from now on."""
        assert isinstance(row, Slate)
        self.slates[AGENTS[player]] = row

    def observe_into(self, game: Game, player: int, deciding: bool) -> Slate:
        """Bring ``player``'s slate up to date (no copy)."""
        agent = AGENTS[player]
        view = game.view(player)
        mem = self.memories[agent]
        mem.sync(view)
        sl = self.slates[agent]
        if deciding:
            self.legal.refresh(game)
        self.encoder.encode(view, mem, sl, self.legal.pairs if deciding else None,
                            self.legal.token if deciding else None)
        return sl

    def observe(self, game: Game, player: int, deciding: bool) -> dict[str, np.ndarray]:
        sl = self.observe_into(game, player, deciding)
        return {k: a.copy() for k, a in sl.arrays.items()}


__all__ = ["V1Observer"]
