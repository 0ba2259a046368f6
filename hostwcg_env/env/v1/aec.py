"""hostwcg_v1: the PettingZoo AEC and parallel environments with v1 observations.

The game, its agents, decks, rewards, truncation, rendering and action space are those of
hostwcg_v0 (docs/env.md); the observation is v1's Dict of fixed-shape arrays
(docs/observation_v1.md): cards as rows with card ids, the viewer's memory of what the rules
made known, a short public history, globals, and the legal actions described by content.
Each agent's observation is written only from its PlayerView, the events that view showed it
and its own choices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pettingzoo import AECEnv

import hostwcg_env  # noqa: F401  (registers the card pool)
from hostwcg_env.engine import RuleConfig

from ..aec import AGENTS, HostAECEnv, StandardWrappers
from ..inputs import seat_of
from ..parallel import HostParallelEnv
from .encoder import Encoder, Slate
from .layout import ObsLayout
from .memory import Memory
from .spaces import Legal

if TYPE_CHECKING:
    from ..observers.v1 import V1Observer

NAME = "hostwcg_v1"


class raw_env(HostAECEnv):  # noqa: N801  (PettingZoo naming)
    """The v1 AEC env without wrappers: ``HostAECEnv`` with v1's observer
    (``hostwcg_env.env.observers.v1``); an illegal action raises IllegalActionError.
    Arguments as ``hostwcg_v0.raw_env`` (docs/env.md)."""

    metadata = {**HostAECEnv.metadata, "name": NAME}
    observer: V1Observer

    def make_observer(self, config: RuleConfig) -> V1Observer:
        from ..observers.v1 import V1Observer  # here: that module imports this package's encoder

        return V1Observer(config)

    def observe_into(self, agent: str) -> Slate:
        """Bring ``agent``'s arrays up to date (no copy): its slate."""
        g = self.game
        if g is None:
            raise RuntimeError("observe() before reset(): call env.reset() first")
        p = seat_of(agent)
        return self.observer.observe_into(g, p, self._deciding(g, p))

    # the observer's parts, under the names callers read them by
    @property
    def obs_layout(self) -> ObsLayout:
        return self.observer.obs_layout

    @property
    def encoder(self) -> Encoder:
        return self.observer.encoder

    @property
    def legal(self) -> Legal:
        return self.observer.legal

    @property
    def memories(self) -> dict[str, Memory]:
        return self.observer.memories


def env(**kwargs: Any) -> AECEnv:
    """The v1 AEC env with PettingZoo's standard wrappers (illegal action -> -1 and game over,
    action bounds, call order), fused into one layer as v0's ``env()``."""
    return StandardWrappers(raw_env(**kwargs), illegal_reward=-1)


class ParallelEnv(HostParallelEnv):
    """The parallel view of hostwcg_v1 (as v0's: only the deciding agent's action counts)."""

    metadata = {**HostParallelEnv.metadata, "name": NAME}
    aec_class = raw_env


def parallel_env(**kwargs: Any) -> ParallelEnv:
    return ParallelEnv(**kwargs)


__all__ = ["AGENTS", "NAME", "ParallelEnv", "env", "parallel_env", "raw_env"]
