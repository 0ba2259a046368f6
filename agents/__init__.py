"""Baseline agents behind one interface (agents/base.py): random, heuristic, ISMCTS, PPO."""

from __future__ import annotations

from typing import Any

from .base import Agent, EngineAgent, Observer, decide
from .random_agent import RandomAgent

AGENT_NAMES = ("random", "heuristic", "lookahead", "ismcts", "ppo")


def make_agent(name: str, seed: int | None = None, **kw: Any) -> Any:
    """An agent by name: random, heuristic, lookahead[:WORLDS], ismcts[:ITERATIONS | :SECONDSs],
    ppo[:PATH].

    ``lookahead:2`` samples two worlds a choice (one by default); options and evaluation weights
    follow as ``KEY=VALUE`` parts, ``lookahead:1:turns=2:danger=2.5`` (``agents/lookahead.py``).

    ``ppo`` is the shipped policy; ``ppo:PATH`` a trained model: a Stable-Baselines3 ``.zip`` as
    training saves it (converted at load time; needs torch) or an exported ``.npz``.

    ``ismcts:300`` searches 300 iterations a decision; ``ismcts:0.5s`` as many as fit in half a
    second (the search stops at the first iteration that ends past the limit)."""
    base, _, arg = name.partition(":")
    if base == "random":
        return RandomAgent(seed)
    if base == "heuristic":
        from .heuristic import HeuristicAgent

        return HeuristicAgent(seed)
    if base == "lookahead":
        from .lookahead import LookaheadAgent

        return LookaheadAgent.from_spec(arg, seed=seed, **kw)
    if base == "ismcts":
        from .ismcts import ISMCTSAgent

        if arg.endswith("s"):
            kw.setdefault("time_limit", float(arg[:-1]))
            kw.setdefault("iterations", 1_000_000)
        elif arg:
            kw.setdefault("iterations", int(arg))
        return ISMCTSAgent(seed=seed, **kw)
    if base == "ppo":
        from .ppo import DEFAULT, NumpyPolicy

        return NumpyPolicy.load(arg or DEFAULT, seed=seed)
    raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENT_NAMES)})")


__all__ = ["AGENT_NAMES", "Agent", "EngineAgent", "Observer", "RandomAgent", "decide", "make_agent"]
