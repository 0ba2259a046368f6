"""Evaluate a PPO policy (a MaskablePPO .zip or an exported .npz) against agents on the ladder.

    python scripts/eval_policy.py runs/ppo_ft/step_200000.zip --vs heuristic,random --games 400

The command-line front end of ``agents.training.eval_policy``, which says how the games are
played (``python scripts/eval_policy.py --help``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agents.training import eval_policy


def main(argv: list[str] | None = None) -> int:
    doc = eval_policy.__doc__ or ""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(doc.split("\n\n")[1:]))
    p.add_argument("policy", help="a MaskablePPO .zip or an exported .npz")
    p.add_argument("--vs", default="heuristic,random", help="comma-separated agent names")
    p.add_argument("--games", type=int, default=200, help="games per opponent (seat-swapped pairs)")
    p.add_argument("--seed", type=int, default=0, help="first seed of the schedule")
    p.add_argument("--workers", type=int, default=1, help="worker processes")
    p.add_argument("--results", metavar="FILE.jsonl", help="append every game here; skip those already in it")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    res = eval_policy.evaluate(args.policy, [o for o in args.vs.split(",") if o], args.games, args.seed,
                               not args.quiet, args.workers, args.results)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
