"""Baseline agents behind one interface (agents/base.py): random, heuristic, ISMCTS, PPO."""

from __future__ import annotations

from typing import Any

from .base import Agent, EngineAgent, Observer, decide
from .random_agent import RandomAgent

AGENT_NAMES = ("random", "heuristic", "lookahead", "pimc", "turnsearch", "ismcts", "ppo", "ppo_v1", "level")


def make_agent(name: str, seed: int | None = None, **kw: Any) -> Any:
    """An agent by name: random, heuristic, lookahead[:WORLDS], pimc[:WORLDS], turnsearch[:ITERATIONS],
    ismcts[:ITERATIONS | :SECONDSs], ppo[:PATH].

    ``lookahead:2`` samples two worlds a choice (one by default); options and evaluation weights
    follow as ``KEY=VALUE`` parts, ``lookahead:1:turns=2:danger=2.5`` (``agents/lookahead.py``).

    ``pimc:8`` races the actions by successive halving over up to 8 sampled worlds (16 by
    default; ``first`` worlds for every action, then twice as many for the better half, ...),
    each rolled out through the next turn (``turns=2``), with the lookahead's options and
    ``first``, ``keep`` as ``KEY=VALUE`` parts, ``pimc:8:first=2:turns=1`` (``agents/pimc.py``).
    From turn 50 pimc makes the heuristic's attacks without a search (``stall=50``; ``stall=0``
    never; the lookahead's ``stall`` is 0 unless given, ``lookahead:1:stall=50``).

    ``turnsearch:96`` runs 96 iterations of its search a choice (64 by default), with options as
    ``KEY=VALUE`` parts, ``turnsearch:96:worlds=6:c=0.2`` (``agents/turnsearch.py``).

    ``ppo`` is the shipped policy; ``ppo:PATH`` a trained model: a Stable-Baselines3 ``.zip`` as
    training saves it (converted at load time; needs torch) or an exported ``.npz``. Its
    choices of a target are guarded (``NumpyPolicy.narrow``); ``ppo:raw`` (``ppo:PATH:raw``) is
    the network alone, as it played before the guard.

    ``ppo_v1`` is the shipped hostwcg_v1 set policy (``agents/checkpoints/ppo_hostwcg_v1.npz``),
    ``ppo_v1:PATH.npz`` another one (numpy weights, ``agents/set_agent.py``), greedy, its
    targets guarded as ``ppo``'s, the heuristic's attacks made from turn 50 and never the last
    card of its deck drawn; ``:raw`` the network alone, ``:sample`` sampling its actions
    (``ppo_v1:raw``, ``ppo_v1:PATH.npz:raw:sample``); ``:attacks`` adds to the guard: no attack
    that loses the attacker for nothing (``agents.sensible.no_losing_attacks``); weights that
    carry a learned check (``scripts/learned_check.py``) play its pick among the network's top
    actions, ``:plain`` the network's own (``NumpySetPolicy.check_choice``); ``:look``
    (``:look=MARGIN``) checks the network's choice with the lookahead's search and keeps it
    unless another action scores better by more than MARGIN (0.05): its ``:top=K`` most
    probable actions (4; 0: all) in ``:worlds=N`` sampled worlds (1), rolled out to the end of
    the next turn (``:turns=1``: of this one): ``agents/set_search.py``.

    ``ismcts:300`` searches 300 iterations a decision; ``ismcts:0.5s`` as many as fit in half a
    second (the search stops at the first iteration that ends past the limit). It chooses among
    the sensible actions (``agents/sensible.py``); ``ismcts:0.5s:raw`` (``ismcts:raw``) among
    every legal action, as it did before.

    ``level:1`` (the weakest) to ``level:5`` (the strongest) are opponents at a chosen strength,
    weaker by skill rather than noise (``agents/levels.py``, ``docs/levels.md``)."""
    base, _, arg = name.partition(":")
    if base == "level":  # level:1 (weakest) to level:5 (strongest), agents/levels.py
        from .levels import make_level

        return make_level(arg, seed=seed, **kw)
    if base == "random":
        return RandomAgent(seed)
    if base == "heuristic":
        from .heuristic import HeuristicAgent

        return HeuristicAgent(seed)
    if base == "lookahead":
        from .lookahead import LookaheadAgent

        return LookaheadAgent.from_spec(arg, seed=seed, **kw)
    if base == "pimc":
        from .pimc import PIMCAgent

        return PIMCAgent.from_spec(arg, seed=seed, **kw)
    if base == "turnsearch":
        from .turnsearch import TurnSearchAgent

        return TurnSearchAgent.from_spec(arg, seed=seed, **kw)
    if base == "ismcts":
        from .ismcts import ISMCTSAgent

        budget, _, rest = arg.partition(":")
        if arg == "raw" or rest == "raw":
            kw.setdefault("sensible", False)
            budget = "" if arg == "raw" else budget
        elif rest:
            raise ValueError(f"ismcts:{arg}: after the budget only ':raw' may follow")
        if budget.endswith("s"):
            kw.setdefault("time_limit", float(budget[:-1]))
            kw.setdefault("iterations", 1_000_000)
        elif budget:
            kw.setdefault("iterations", int(budget))
        return ISMCTSAgent(seed=seed, **kw)
    if base == "ppo":
        from .ppo import DEFAULT, NumpyPolicy

        raw = arg == "raw" or arg.endswith(":raw")
        path = arg[: -len("raw")].rstrip(":") if raw else arg
        return NumpyPolicy.load(path or DEFAULT, seed=seed, guard=not raw)
    if base == "ppo_v1":
        from .set_agent import DEFAULT_V1, SetPolicyAgent

        parts = arg.split(":") if arg else []
        flags = set()
        search: dict[str, Any] = {}  # the one-ply check's options (agents/set_search.py)
        while parts and (parts[-1] in ("raw", "sample", "attacks", "look", "plain")
                         or parts[-1].partition("=")[0] in ("look", "worlds", "turns", "top")):
            flag, _, value = parts.pop().partition("=")
            flags.add(flag)
            try:
                if flag == "look" and value:
                    search["margin"] = float(value)
                elif flag in ("worlds", "turns", "top"):
                    search[flag] = int(value)
            except ValueError:
                raise ValueError(f"ppo_v1:{arg}: {flag}= takes a number, not {value!r}") from None
        if search.keys() - {"margin"} and "look" not in flags:
            raise ValueError(f"ppo_v1:{arg}: worlds=, turns= and top= set the 'look' check: add :look")
        path = ":".join(parts)
        if path.endswith(":") or (path and not path.endswith(".npz")):
            raise ValueError(f"ppo_v1:{arg}: write ppo_v1[:PATH.npz][:raw][:sample][:attacks][:plain][:look[=MARGIN]]")
        if {"raw", "attacks"} <= flags:
            raise ValueError(f"ppo_v1:{arg}: 'attacks' is part of the guard that 'raw' leaves out")
        if "look" in flags:
            if flags & {"raw", "sample"}:
                raise ValueError(f"ppo_v1:{arg}: 'look' checks the guarded greedy network, not 'raw' or 'sample'")
            from .set_search import SearchedSetAgent

            return SearchedSetAgent(path or DEFAULT_V1, seed=seed, attacks="attacks" in flags,
                                    check="plain" not in flags, **search)
        return SetPolicyAgent(path or DEFAULT_V1, seed=seed, sample="sample" in flags, guard="raw" not in flags,
                              attacks="attacks" in flags, check="plain" not in flags)
    raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENT_NAMES)})")


__all__ = ["AGENT_NAMES", "Agent", "EngineAgent", "Observer", "RandomAgent", "decide", "make_agent"]
