"""The random baseline: uniform over legal actions (seeded)."""

from __future__ import annotations

import random

import numpy as np

from hostwcg_env.engine import Action
from hostwcg_env.engine.view import PlayerView

from .base import EngineAgent


class RandomAgent(EngineAgent):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
            self.np_rng = np.random.default_rng(seed)

    def choose(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        return self.rng.choice(actions)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.np_rng.choice(np.flatnonzero(action_mask)))
