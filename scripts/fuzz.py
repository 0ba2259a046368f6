#!/usr/bin/env python
"""The random-play fuzz at scale: N seeded games spread over every ordered deck pair and every
RuleConfig flag off its default, each checked after every action by the invariants of
``hostwcg_env.testing.fuzz``, every 50th game replayed and cloned.

    python scripts/fuzz.py --games 5000 --workers 2 --out runs/fuzz.json

The command-line front end of ``hostwcg_env.testing.fuzz_run``, which says which games are
played. Exits non-zero if any game broke an invariant or raised.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from hostwcg_env.testing import fuzz_run
from hostwcg_env.testing.fuzz import PAIRS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=fuzz_run.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--start", type=int, default=0, help="first game index (seed)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, help="write the summary as JSON here")
    args = ap.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.start < 0:
        ap.error("--games and --workers must be >= 1, --start >= 0")
    summary = fuzz_run.run(args.games, args.start, args.workers,
                           on_failure=lambda failure: print("FAIL", failure, flush=True))
    for r in summary["variants"]:
        print(f"{r['variant']:38} {r['games']:6} games {r['deck_pairs']:3} pairs  {r['ends']}")
    print(f"{summary['games']} games, {len(summary['variants'])} rule variants, {len(PAIRS)} ordered deck pairs, "
          f"{len(summary['failures'])} failures, {summary['wall_s']:.0f} s with {args.workers} workers")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
