"""hostwcg: a rules engine and reinforcement-learning environment for Host WCG."""

from hostwcg_env.cards import default_pool, default_ruleset
from hostwcg_env.engine import Game, RuleConfig
from hostwcg_env.engine.ruleset import Ruleset

__all__ = ["Game", "RuleConfig", "Ruleset", "default_pool", "default_ruleset"]
__version__ = "0.1.0"
