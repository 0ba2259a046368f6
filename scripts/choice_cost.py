"""CPU time per choice of engine agents on fixed positions (docs/agents.md, "Cost").

    python scripts/choice_cost.py lookahead ismcts:0.45s [--games 12] [--seed 30000000] [--every 7]

The command-line front end of ``hostwcg_env.testing.choice_cost``, which says how the positions
are chosen and the time measured.
"""

from __future__ import annotations

import argparse
import os

from hostwcg_env.testing.choice_cost import cost, positions, row


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
        print(row(name, cost(name, games)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
