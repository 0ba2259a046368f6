"""hostwcg_v0's observer: one flat float32 vector per player and a flat mask
(docs/observation.md), ``{"observation": Box, "action_mask": Box}``."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from hostwcg_env.engine import Action, Game, RuleConfig

from ..codec import Codec
from ..layout import action_layout
from ..observation import LIMIT, ObservationEncoder
from .base import Row, Skip


class V0Row:
    """One row of a vector env's buffers that v0's observer writes in place: the flat
    observation (the encoder's persistent buffer, incremental) and the mask."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self.rebind(arrays)

    def rebind(self, arrays: dict[str, np.ndarray]) -> None:
        self.observation = arrays["observation"]
        self.mask = arrays["action_mask"]


class V0Observer:
    """The flat observation of ``hostwcg_env.env.observation.ObservationEncoder`` (incremental,
    one buffer per player) and the flat action codec (``hostwcg_env.env.codec.Codec``).
    ``SingleAgentEnv`` takes every one-action decision, of either seat, without asking; the
    observer writes its rows in place (``row``, ``bind``, ``observe_into``)."""

    skip: Skip = "forced"

    def __init__(self, config: RuleConfig) -> None:
        self.layout = action_layout(config)
        self.encoder = ObservationEncoder(config)
        self.codec = Codec(self.layout)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-LIMIT, LIMIT, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.n,), np.int8),
        })
        self._bufs = [np.zeros(self.encoder.size, dtype=np.float32) for _ in range(2)]
        self._zero_mask = np.zeros(self.layout.n, dtype=np.int8)
        self._rows: list[V0Row | None] = [None, None]

    def reset(self) -> None:
        pass  # the buffers compare with what they last showed: a new game rewrites what differs

    def refresh(self, game: Game) -> None:
        self.codec.refresh(game)

    def before_apply(self, game: Game, player: int, action: Action) -> None:
        pass

    def decode(self, game: Game, index: int) -> Action | None:
        return self.codec.decode(game, index)

    def mask(self, game: Game) -> np.ndarray:
        return self.codec.mask(game)

    def row(self, arrays: dict[str, np.ndarray]) -> V0Row:
        return V0Row(arrays)

    def bind(self, player: int, row: Row) -> None:
        assert isinstance(row, V0Row)
        self._rows[player] = row

    def observe_into(self, game: Game, player: int, deciding: bool) -> V0Row:
        """Bring ``player``'s bound row up to date (no copy)."""
        row = self._rows[player]
        assert row is not None, "bind() a row to the player first"
        self.encoder.encode(game.view(player), row.observation)
        if deciding:
            row.mask[...] = self.codec.mask(game)
        else:
            row.mask[...] = 0
        return row

    def observe(self, game: Game, player: int, deciding: bool) -> dict[str, np.ndarray]:
        obs = self.encoder.encode(game.view(player), self._bufs[player]).copy()
        mask = self.codec.mask(game).copy() if deciding else self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}


__all__ = ["V0Observer", "V0Row"]
