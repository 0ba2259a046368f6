"""CPU time per choice of engine agents on fixed positions (docs/agents.md, "Cost").

    python scripts/choice_cost.py lookahead ismcts:0.45s [--games 12] [--seed 30000000] [--every 7]

The positions are the choices (decisions with two or more legal actions) of heuristic-vs-
heuristic games on the ladder's schedule from ``--seed`` (every ``--every``-th one); each agent
(a fresh one per position, seeded) chooses at every position from the deciding player's view,
and the CPU time of the process (``time.process_time``) is measured around each choice. CPU
time, unlike the ladder's wall-clock time per choice, is little changed by other work on the
machine; run it with nothing else of yours running, and say the load (printed). Benchmarked
here, never timed in tests.

``scripts/choice_cost.py`` is the command line; ``positions`` and ``cost`` measure and ``row``
makes a line of its table.
"""

from __future__ import annotations

import statistics
import time

from agents import ViewAgent, decide, make_agent
from hostwcg_env.analysis.ladder import schedule
from hostwcg_env.analysis.runner import new_game
from hostwcg_env.engine import Game


def positions(games: int, seed: int, every: int) -> list[Game]:
    """Every ``every``-th choice of ``games`` heuristic games of the ladder's schedule."""
    out: list[Game] = []
    k = 0
    for spec in schedule(["heuristic", "heuristic"], games, seed=seed):
        game = new_game(spec)
        players = [make_agent("heuristic", seed=s) for s in spec.agent_seeds]
        while not game.is_over:
            d = game.decision
            assert d is not None
            if len(d.actions) > 1:
                if k % every == 0:
                    out.append(game.clone())
                k += 1
                game.apply(decide(players[d.player], game))
            else:
                game.apply(d.actions[0])
    return out


def cost(name: str, games: list[Game], seed: int = 1) -> list[float]:
    """CPU seconds of each choice of a fresh ``name`` agent at each position."""
    out = []
    for i, g in enumerate(games):
        agent = make_agent(name, seed=seed + i)
        assert isinstance(agent, ViewAgent), f"{name}: not an agent that chooses from a view"
        d = g.decision
        assert d is not None
        view = g.view(d.player)
        t0 = time.process_time()
        agent.choose(view, d.actions)
        out.append(time.process_time() - t0)
    return out


def row(name: str, seconds: list[float]) -> str:
    """The table's line for agent ``name``: milliseconds per choice, mean, median, 95th
    percentile and slowest."""
    ms = sorted(1000 * x for x in seconds)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"| {name} | {statistics.fmean(ms):.2f} | {statistics.median(ms):.2f} | {p95:.2f} | {ms[-1]:.2f} |"
