"""The observation space of hostwcg_v1 and the legal-action map it is written from."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from hostwcg_env.engine import Action, Game

from ..codec import LayoutError, encode, offered
from .cards import sync_index
from .layout import (
    ACTION_KINDS,
    HISTORY_KINDS,
    LIMIT,
    PHASES,
    ZONE_SPECS,
    ObsLayout,
)


def observation_space(lay: ObsLayout) -> spaces.Dict:
    """The Dict space of one observation (every array has a fixed shape; bounds hold always)."""
    R, N = lay.rows, lay.n_actions
    n_ids = sync_index()  # the shipped cards' ids and the user's (docs/cards.md, "Your own cards")
    sizes = lay.sizes()
    hist_shape = sizes["history"][0]
    hist_high = np.broadcast_to(
        np.array([len(HISTORY_KINDS), 2, n_ids - 1, n_ids - 1, 2, 15, 15, len(PHASES)], dtype=np.int32),
        hist_shape).copy()
    max_arg = max(b.size for b in lay.actions.blocks)
    i32 = np.int32
    return spaces.Dict({
        "cards": spaces.Box(-LIMIT, LIMIT, sizes["cards"][0], np.float32),
        "card_id": spaces.Box(0, n_ids - 1, (R,), i32),
        "card_zone": spaces.Box(0, len(ZONE_SPECS), (R,), i32),
        "globals": spaces.Box(-LIMIT, LIMIT, sizes["globals"][0], np.float32),
        "history": spaces.Box(np.zeros(hist_shape, dtype=i32), hist_high, hist_shape, i32),
        "action_mask": spaces.Box(0, 1, (N,), np.int8),
        "action_kind": spaces.Box(0, len(ACTION_KINDS) - 1, (N,), i32),
        "action_arg": spaces.Box(0, max_arg, (N,), i32),
        "action_card": spaces.Box(0, n_ids - 1, (N,), i32),
        "action_source_row": spaces.Box(-1, R - 1, (N,), i32),
        "action_target_row": spaces.Box(-1, R - 1, (N,), i32),
    })


class Legal:
    """The legal actions of a game's current decision as action-space indices (cached per
    decision): ``pairs`` (index, action), ``mask``, ``decode(index)``. A legal action the
    layout cannot express raises ``LayoutError``."""

    def __init__(self, lay: ObsLayout) -> None:
        self.lay = lay.actions
        self.token: object = None
        self.player = -1
        self.pairs: list[tuple[int, Action]] = []
        self.map: dict[int, Action] = {}
        self.mask = np.zeros(lay.n_actions, dtype=np.int8)
        self._memo: dict[tuple[Action, int], int] = {}

    def refresh(self, game: Game) -> None:
        d = game.decision
        if d is self.token:
            return
        if d is None or game.is_over:
            self.set(-1, (), d)
        else:
            self.set(d.player, d.actions, d)

    def set(self, player: int, actions: tuple[Action, ...], token: object) -> None:
        """The decision identified by ``token``: ``player`` chooses among ``actions`` (what an
        agent holding only its PlayerView is given; ``refresh`` reads them off the game)."""
        self.token = token
        if self.pairs:
            self.mask[[i for i, _ in self.pairs]] = 0
        self.pairs = []
        self.map = {}
        self.player = player
        memo = self._memo
        for a in offered(actions):
            key = (a, player)
            i = memo.get(key)
            if i is None:
                i = encode(self.lay, None, player, a)  # a pure function of the action and player
                if len(memo) < 100_000:
                    memo[key] = i
            if i in self.map:
                raise LayoutError(f"two legal actions share index {i}: {self.map[i]} and {a}")
            self.map[i] = a
            self.pairs.append((i, a))
        if self.pairs:
            self.mask[[i for i, _ in self.pairs]] = 1

    def decode(self, index: int) -> Action | None:
        return self.map.get(index)
