"""n hostwcg_v1 games stepped in one process, as a Stable-Baselines3 ``VecEnv``, and one game
as a gymnasium ``Env`` (docs/env_v1.md): the one single-agent and vector stack
(``hostwcg_env.env.vector``, where the opponents, pools, seats, rewards and automatic resets
are described) bound to v1's ``raw_env``.

The opponent is one *batched* policy (``"random"``, a callable ``policy(obs, masks) ->
actions``, an SB3 model with ``predict``, an engine-level agent with ``choose``, or a list of
these: a pool), asked once for all the games that wait on it. The random and engine-level
opponents read no v1 observation: only the learner's is written. Observations are written in
place (incrementally) into one row per game (``buffers``, ``opponent_buffers``). Each game is
a ``raw_env``, so a seat is asked wherever the AEC env asks it: v1's observer skips only
publicly forced decisions (``skip = "public"``).
"""

from __future__ import annotations

from typing import Any

from ..vector import BatchPolicy, HostSingleEnv, HostVectorEnv, RandomBatchPolicy, batch_policy
from .aec import raw_env
from .layout import ObsLayout


class VectorEnv(HostVectorEnv):
    """n v1 games for SB3 (see the module docstring). ``env_kwargs`` go to each ``raw_env``
    (decks, deck_pools, config, turn_limit)."""

    aec_class = raw_env

    @property
    def obs_layout(self) -> ObsLayout:
        return self.games[0].obs_layout  # type: ignore[attr-defined, no-any-return]


class SingleEnv(HostSingleEnv):
    """One v1 game against a batched opponent as a gymnasium ``Env`` (the vector env of one game,
    without automatic resets): for ``gymnasium.utils.env_checker`` and SB3's ``check_env``.
    ``render()`` draws the board from the learner's seat (unless ``render_view`` is given): text
    (``"ansi"``), printed (``"human"``) or an (H, W, 3) uint8 image (``"rgb_array"``, for
    gymnasium's ``RecordVideo``)."""

    vector_class = VectorEnv
    vec: VectorEnv


def vector_env(n: int, opponent: Any = "random", **kwargs: Any) -> VectorEnv:
    """``n`` hostwcg_v1 games in one process as an SB3 VecEnv (see ``VectorEnv``)."""
    return VectorEnv(n, opponent=opponent, **kwargs)


def single_env(opponent: Any = "random", **kwargs: Any) -> SingleEnv:
    """One hostwcg_v1 game as a gymnasium Env (see ``SingleEnv``)."""
    return SingleEnv(opponent=opponent, **kwargs)


__all__ = ["BatchPolicy", "RandomBatchPolicy", "SingleEnv", "VectorEnv", "batch_policy", "single_env", "vector_env"]
