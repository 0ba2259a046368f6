"""The environment id ``hostwcg_v0``: ``from hostwcg_env import hostwcg_v0; hostwcg_v0.env()``.

The number is the env's version (PettingZoo's convention): it changes whenever the same
arguments and seed could give different observations, rewards or games, and then this module
stays as it is, importable, beside the new one (``hostwcg_env/env/aec.py`` and docs/env.md
"Versions" list what changes a version and each version's history).
"""

from hostwcg_env.env import env, parallel_env, raw_env

__all__ = ["env", "parallel_env", "raw_env"]
