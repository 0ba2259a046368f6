"""hostwcg: a rules engine and reinforcement-learning environment for Host WCG."""

from hostwcg_env.cards import default_pool, default_ruleset
from hostwcg_env.engine import Game, RuleConfig
from hostwcg_env.engine.ruleset import Ruleset

__all__ = ["Game", "RuleConfig", "Ruleset", "default_pool", "default_ruleset"]
__version__ = "0.2.0.dev0"  # the one version number (toward 0.2.0, docs/env.md): pyproject.toml reads it
