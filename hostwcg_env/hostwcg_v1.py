"""The environment id ``hostwcg_v1``: ``from hostwcg_env import hostwcg_v1; hostwcg_v1.env()``.

The same game, agents, decks, rewards and action space as ``hostwcg_v0``; the observation is a
Dict of fixed-shape arrays that remembers what the player knows and describes every action by
its content (docs/env_v1.md, docs/observation_v1.md). ``vector_env(n, opponent=...)`` steps n
games in one process for Stable-Baselines3 (MaskablePPO). ``hostwcg_v0`` stays as it was.
"""

from typing import Any

from hostwcg_env.env.v1 import (
    card_id,
    card_name,
    card_table,
    env,
    obs_layout,
    parallel_env,
    raw_env,
)


def vector_env(n: int, opponent: Any = "random", **kwargs: Any) -> Any:
    """``n`` games stepped in one process into preallocated arrays, as a Stable-Baselines3
    VecEnv with the opponent policy batched (``hostwcg_env.env.v1.vector.VectorEnv``)."""
    from hostwcg_env.env.v1.vector import VectorEnv

    return VectorEnv(n, opponent=opponent, **kwargs)


def single_env(opponent: Any = "random", **kwargs: Any) -> Any:
    """One game against a policy as a gymnasium Env (``hostwcg_env.env.v1.vector.SingleEnv``)."""
    from hostwcg_env.env.v1.vector import SingleEnv

    return SingleEnv(opponent=opponent, **kwargs)

__all__ = ["card_id", "card_name", "card_table", "env", "obs_layout", "parallel_env", "raw_env", "single_env",
           "vector_env"]
