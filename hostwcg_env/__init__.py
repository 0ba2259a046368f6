"""hostwcg: a rules engine and reinforcement-learning environment for Host WCG.

Importing the package registers the gymnasium ids ``hostwcg/HostWCG-v1`` (the newest, the
single-agent view of ``hostwcg_v1``) and ``hostwcg/HostWCG-v0`` (of ``hostwcg_v0``), so
``import hostwcg_env; gymnasium.make("hostwcg/HostWCG-v1", opponent="heuristic")`` works
(docs/env.md "Gymnasium"). The entry points are named, not imported: nothing of the env is
loaded until ``gymnasium.make``.
"""

from hostwcg_env.cards import default_pool, default_ruleset
from hostwcg_env.engine import Game, RuleConfig
from hostwcg_env.engine.ruleset import Ruleset

__all__ = ["Game", "RuleConfig", "Ruleset", "default_pool", "default_ruleset"]
__version__ = "0.2.0.dev0"  # the one version number (toward 0.2.0, docs/env.md): pyproject.toml reads it

# gymnasium id -> entry point (hostwcg_env/gym_make.py resolves agent names, then builds the env)
GYM_IDS = {"hostwcg/HostWCG-v0": "hostwcg_env.gym_make:single_v0",
           "hostwcg/HostWCG-v1": "hostwcg_env.gym_make:single_v1"}


def _register_gym_ids() -> None:
    """Register ``GYM_IDS`` with gymnasium once (importing twice or reloading registers once);
    nothing where gymnasium is not installed (the engine alone needs no gymnasium)."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # pragma: no cover - gymnasium is a dependency of the package
        return
    for gym_id, entry_point in GYM_IDS.items():
        if gym_id not in registry:
            register(id=gym_id, entry_point=entry_point, nondeterministic=False)


_register_gym_ids()
