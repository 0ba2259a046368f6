"""hostwcg_v1: the environment whose observations remember what a player knows and describe
every action by its content (docs/env_v1.md). ``from hostwcg_env import hostwcg_v1``."""

from typing import Any

from .aec import NAME, ParallelEnv, env, parallel_env, raw_env
from .cards import CARD_NAMES, N_CARD_IDS, card_id, card_name, card_table
from .encoder import Encoder, Slate
from .layout import ObsLayout, obs_layout
from .memory import Memory
from .spaces import Legal, observation_space

_VECTOR = ("RandomBatchPolicy", "SingleEnv", "VectorEnv", "batch_policy", "single_env", "vector_env")


def __getattr__(name: str) -> Any:
    """The vector env is imported on first use (it imports Stable-Baselines3 when installed)."""
    if name in _VECTOR:
        from . import vector

        return getattr(vector, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CARD_NAMES", "NAME", "N_CARD_IDS", "Encoder", "Legal", "Memory", "ObsLayout", "ParallelEnv",
           "Slate", "card_id", "card_name", "card_table", "env", "obs_layout", "observation_space",
           "parallel_env", "raw_env", "RandomBatchPolicy", "SingleEnv", "VectorEnv", "batch_policy",
           "single_env", "vector_env"]
