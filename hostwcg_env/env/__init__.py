"""The PettingZoo adapter (hostwcg_v0): action codec, observation encoder, AEC and parallel envs."""

from .aec import AGENTS, env, raw_env, shipped_decks
from .codec import Codec, LayoutError
from .layout import action_layout
from .observation import ObservationEncoder, section
from .parallel import parallel_env

__all__ = ["AGENTS", "Codec", "LayoutError", "ObservationEncoder", "action_layout", "env",
           "parallel_env", "raw_env", "section", "shipped_decks"]
