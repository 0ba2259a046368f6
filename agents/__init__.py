"""Baseline agents behind one interface (agents/base.py): random, heuristic, ISMCTS, PPO."""

from __future__ import annotations

from typing import Any

from .base import Agent, EngineAgent, decide
from .random_agent import RandomAgent

AGENT_NAMES = ("random", "heuristic", "ismcts", "ppo")


def make_agent(name: str, seed: int | None = None, **kw: Any) -> Any:
    """An agent by name: random, heuristic, ismcts[:ITERATIONS], ppo[:PATH]."""
    base, _, arg = name.partition(":")
    if base == "random":
        return RandomAgent(seed)
    if base == "heuristic":
        from .heuristic import HeuristicAgent

        return HeuristicAgent(seed)
    if base == "ismcts":
        from .ismcts import ISMCTSAgent

        if arg:
            kw.setdefault("iterations", int(arg))
        return ISMCTSAgent(seed=seed, **kw)
    if base == "ppo":
        from .ppo import DEFAULT, NumpyPolicy

        return NumpyPolicy.load(arg or DEFAULT, seed=seed)
    raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENT_NAMES)})")


__all__ = ["AGENT_NAMES", "Agent", "EngineAgent", "RandomAgent", "decide", "make_agent"]
