"""The gymnasium entry points of ``hostwcg/HostWCG-v0`` and ``hostwcg/HostWCG-v1``.

``gymnasium.make(id, opponent=...)`` calls these (``hostwcg_env.GYM_IDS`` registers them on
``import hostwcg_env``). They take every argument of the env they build and, beyond what the
env takes, an *agent name* as the opponent: ``"heuristic"``, ``"ismcts:200"``, any name
``agents.make_agent`` knows, or a list mixing names and policies (an opponent pool). A name
is made an agent here, with ``agents.make_agent(name, seed)``, so that config-driven tools
(RL Zoo, CleanRL, Tianshou) choose an opponent by a string. ``"random"`` stays the env's own
random policy. The env layer itself never imports the agents (tests/test_layers.py): this
module sits above them, and imports them only when a name is given.
"""

from __future__ import annotations

from typing import Any


def resolve_opponent(opponent: Any, seed: int | None) -> Any:
    """``opponent`` with every agent name (a str other than ``"random"``) made an agent by
    ``agents.make_agent(name, seed)``; in a list (a pool) the k-th gets ``seed + k``."""
    base = 0 if seed is None else int(seed)
    if isinstance(opponent, str):
        return opponent if opponent == "random" else _make(opponent, base)
    if isinstance(opponent, (list, tuple)):
        return [o if not isinstance(o, str) or o == "random" else _make(o, base + k)
                for k, o in enumerate(opponent)]
    return opponent


def _make(name: str, seed: int) -> Any:
    from agents import make_agent

    return make_agent(name, seed=seed)


def single_v0(opponent: Any = "random", seed: int | None = None, **kwargs: Any) -> Any:
    """``hostwcg/HostWCG-v0``: ``SingleAgentEnv`` (hostwcg_v0's observation) against ``opponent``."""
    from hostwcg_env.env.single import SingleAgentEnv

    return SingleAgentEnv(opponent=resolve_opponent(opponent, seed), seed=seed, **kwargs)


def single_v1(opponent: Any = "random", seed: int | None = None, **kwargs: Any) -> Any:
    """``hostwcg/HostWCG-v1``: ``hostwcg_v1``'s ``SingleEnv`` against ``opponent``."""
    from hostwcg_env.env.v1.vector import SingleEnv

    return SingleEnv(opponent=resolve_opponent(opponent, seed), seed=seed, **kwargs)


__all__ = ["resolve_opponent", "single_v0", "single_v1"]
