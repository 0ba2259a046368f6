"""hostwcg: a rules engine and reinforcement-learning environment for Host WCG."""

from hostwcg_env.cards import default_pool
from hostwcg_env.engine import Game, RuleConfig

Game.default_registry = default_pool

__all__ = ["Game", "RuleConfig", "default_pool"]
__version__ = "0.1.0"
