"""The PettingZoo adapter (hostwcg_v0): action codec, observation encoder, AEC and parallel envs,
and the single-agent gymnasium view, ``hostwcg/HostWCG-v0``::

    import gymnasium as gym
    import hostwcg_env  # registers hostwcg/HostWCG-v1 and hostwcg/HostWCG-v0
    env = gym.make("hostwcg/HostWCG-v1", opponent="heuristic")   # an agent name: agents.make_agent

The ids are registered by ``import hostwcg_env`` (``hostwcg_env.GYM_IDS``), so also by this
module and by ``gym.make("hostwcg_env:hostwcg/HostWCG-v1")``. The gymnasium id carries the
env's version: ``HostWCG-v0`` is the single-agent view of ``hostwcg_v0`` (``SingleAgentEnv``),
``HostWCG-v1`` the one of ``hostwcg_v1`` (``hostwcg_env.env.v1.vector.SingleEnv``,
docs/env_v1.md); ``GYM_ID`` is the newest (docs/env.md "Versions").
"""

from .aec import AGENTS, env, raw_env, shipped_decks
from .codec import Codec, LayoutError
from .layout import action_layout
from .observation import ObservationEncoder, section
from .parallel import parallel_env

GYM_ID_V0 = "hostwcg/HostWCG-v0"
GYM_ID_V1 = "hostwcg/HostWCG-v1"
GYM_ID = GYM_ID_V1  # the newest version

__all__ = ["AGENTS", "GYM_ID", "GYM_ID_V0", "GYM_ID_V1", "Codec", "LayoutError", "ObservationEncoder",
           "action_layout", "env", "parallel_env", "raw_env", "section", "shipped_decks"]
