"""The environment id ``hostwcg_v0``: ``from hostwcg_env import hostwcg_v0; hostwcg_v0.env()``.

The version number changes only when the env's behaviour changes (as in PettingZoo and pgx).
"""

from hostwcg_env.env import env, parallel_env, raw_env

__all__ = ["env", "parallel_env", "raw_env"]
