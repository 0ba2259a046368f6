"""The PettingZoo adapter (hostwcg_v0): action codec, observation encoder, AEC and parallel envs,
and the single-agent gymnasium view, registered as ``hostwcg/HostWCG-v0``::

    import gymnasium as gym
    import hostwcg_env.env  # registers hostwcg/HostWCG-v0 (so does ``from hostwcg_env import hostwcg_v0``)
    env = gym.make("hostwcg/HostWCG-v0", opponent="random")   # SingleAgentEnv(opponent="random")

``gym.make("hostwcg_env.env:hostwcg/HostWCG-v0")`` imports this module itself first. The
gymnasium id carries the env's version: ``HostWCG-v0`` is the single-agent view of
``hostwcg_v0``, ``HostWCG-v1`` the one of ``hostwcg_v1`` (``hostwcg_env.env.v1.vector.SingleEnv``,
docs/env_v1.md); ``GYM_ID`` is the newest (docs/env.md "Versions").
"""

from gymnasium.envs.registration import register, registry

from .aec import AGENTS, env, raw_env, shipped_decks
from .codec import Codec, LayoutError
from .layout import action_layout
from .observation import ObservationEncoder, section
from .parallel import parallel_env

GYM_ID_V0 = "hostwcg/HostWCG-v0"
GYM_ID_V1 = "hostwcg/HostWCG-v1"
GYM_ID = GYM_ID_V1  # the newest version

if GYM_ID_V0 not in registry:  # importing twice (or reloading) registers once
    register(id=GYM_ID_V0, entry_point="hostwcg_env.env.single:SingleAgentEnv", nondeterministic=False)
if GYM_ID_V1 not in registry:
    register(id=GYM_ID_V1, entry_point="hostwcg_env.env.v1.vector:SingleEnv", nondeterministic=False)

__all__ = ["AGENTS", "GYM_ID", "GYM_ID_V0", "GYM_ID_V1", "Codec", "LayoutError", "ObservationEncoder", "action_layout", "env",
           "parallel_env", "raw_env", "section", "shipped_decks"]
