"""CPU time per choice of engine agents on fixed positions (docs/agents.md, "Cost").

    python scripts/choice_cost.py lookahead ismcts:0.45s [--games 12] [--seed 30000000] [--every 7]

The positions are the choices (decisions with two or more legal actions) of heuristic-vs-
heuristic games on the ladder's schedule from ``--seed`` (every ``--every``-th one); each agent
(a fresh one per position, seeded) chooses at every position from the deciding player's view,
and the CPU time of the process (``time.process_time``) is measured around each choice. CPU
time, unlike the ladder's wall-clock time per choice, is little changed by other work on the
machine; run it with nothing else of yours running, and say the load (printed). Benchmarked
here, never timed in tests.
"""

from __future__ import annotations

import argparse
import os
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("agents", nargs="+", help="engine agents by name (agents.make_agent)")
    ap.add_argument("--games", type=int, default=12, help="heuristic games the positions come from (default 12)")
    ap.add_argument("--seed", type=int, default=30_000_000, help="the schedule's first seed (default 30,000,000)")
    ap.add_argument("--every", type=int, default=7, help="keep every Nth choice (default 7)")
    args = ap.parse_args(argv)
    games = positions(args.games, args.seed, args.every)
    print(f"{len(games)} positions from {args.games} heuristic games (seed {args.seed:,}, every "
          f"{args.every}th choice); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| agent | CPU ms per choice (mean) | median | 95th percentile | slowest |")
    print("|---|---:|---:|---:|---:|")
    for name in args.agents:
        ms = sorted(1000 * x for x in cost(name, games))
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        print(f"| {name} | {statistics.fmean(ms):.2f} | {statistics.median(ms):.2f} | {p95:.2f} | {ms[-1]:.2f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
