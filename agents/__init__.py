"""Baseline agents behind one interface (agents/base.py), made by name from a registry of typed
specs (agents/registry.py; ``hostwcg agents`` lists them)."""

from __future__ import annotations

from typing import Any

from .base import Agent, EngineAgent, Observer, PolicyAgent, ViewAgent, decide
from .random_agent import RandomAgent
from .registry import AgentNameError, AgentSpec, Option, agent_specs, register

AGENT_NAMES = ("random", "heuristic", "lookahead", "pimc", "turnsearch", "ismcts", "ppo", "ppo_v1", "level")


def make_agent(name: str, seed: int | None = None, **kw: Any) -> Agent:
    """The agent a name describes, seeded; ``kw`` are constructor options that win over the
    name's. ``hostwcg agents`` lists every name with its options and defaults; the spellings:

    * ``random``, ``heuristic``;
    * ``lookahead[:WORLDS][:KEY=VALUE...]``: ``lookahead:1:turns=2:danger=2.5`` (options and the
      evaluation weights of ``agents/lookahead.py``); ``pimc[:WORLDS]`` (16 by default,
      ``pimc:8:first=2:turns=1``; from turn 50 it makes the heuristic's attacks, ``stall=0``
      never); ``turnsearch[:ITERATIONS]`` (``turnsearch:96:worlds=6:c=0.2``);
    * ``ismcts[:ITERATIONS|:SECONDSs][:raw]``: ``ismcts:300`` searches 300 iterations a
      decision, ``ismcts:0.5s`` as many as fit in half a second; a bare ``ismcts:0.5`` is
      refused (write ``0.5s``); ``:raw`` chooses among every legal action, not the sensible ones;
    * ``ppo[:PATH][:raw]``: the shipped v0 policy, or a Stable-Baselines3 ``.zip`` (needs torch)
      or exported ``.npz``; ``:raw`` the network without its target guard;
    * ``ppo_v1[:PATH.npz][:raw][:sample][:attacks][:plain][:look[=MARGIN]]``: the v1 set policy
      (``agents/set_agent.py``); ``:look`` checks its choice by rollouts (``agents/set_search.py``,
      with ``:worlds=N``, ``:turns=N``, ``:top=K``);
    * ``level:1`` (the weakest) to ``level:5`` (the strongest): opponents at a chosen strength,
      weaker by skill rather than noise (``agents/levels.py``, docs/levels.md);
    * ``module:Class[:KEY=VALUE...]``, a class or factory of your own, or the name of a
      ``hostwcg.agents`` entry point (docs/write-an-agent.md).

    A name that cannot be made raises ``AgentNameError`` (a ``ValueError``) of one format,
    ``agent 'ismcts:0.5': '0.5' is not a budget... (expected ismcts[:ITERATIONS|:SECONDSs]...)``."""
    from .registry import make

    return make(name, seed, **kw)


__all__ = ["AGENT_NAMES", "Agent", "AgentNameError", "AgentSpec", "EngineAgent", "Observer", "Option",
           "PolicyAgent", "RandomAgent", "ViewAgent", "agent_specs", "decide", "make_agent", "register"]
