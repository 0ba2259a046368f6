#!/usr/bin/env python
"""The random-play fuzz at scale: N seeded games spread over every ordered deck pair and every
RuleConfig flag off its default, each checked after every action by the invariants of
``hostwcg_env.testing.fuzz``, every 50th game replayed and cloned.

    python scripts/fuzz.py --games 5000 --workers 2 --out runs/fuzz.json

Game i plays variant i mod V on deck pair (i div V) mod P with seed i, so every variant meets
many pairs and the same arguments play the same games. Prints one line per variant (games,
how they ended, failures) and exits non-zero if any game broke an invariant or raised; the
failures name the decks, seed, turn and the last actions. The test suite plays a few games of
each variant (tests/test_fuzz_flags.py); this is the nightly run."""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from hostwcg_env.testing.fuzz import PAIRS, flag_variants, run_chunk

VARIANTS = flag_variants()


def play_one(i: int) -> tuple[int, str, str | None]:
    """Game i: (variant index, how it ended, the failure or None)."""
    v = i % len(VARIANTS)
    a, b = PAIRS[(i // len(VARIANTS)) % len(PAIRS)]
    try:
        reasons = run_chunk(a, b, range(i, i + 1), cfg=VARIANTS[v][1], sample_every=50)
    except Exception as exc:  # a broken invariant is an AssertionError; report every kind
        return v, "failed", f"{VARIANTS[v][0]}: {a} vs {b} seed {i}: {type(exc).__name__}: {exc}"
    return v, str(next(iter(reasons))), None  # the reason's value (an EndReason is a StrEnum)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--start", type=int, default=0, help="first game index (seed)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, help="write the summary as JSON here")
    args = ap.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.start < 0:
        ap.error("--games and --workers must be >= 1, --start >= 0")
    t0 = time.perf_counter()
    ends: dict[int, Counter[str]] = defaultdict(Counter)
    pairs: dict[int, set[int]] = defaultdict(set)
    failures: list[str] = []
    indices = range(args.start, args.start + args.games)
    with ProcessPoolExecutor(args.workers) as pool:
        for i, (v, end, failure) in zip(indices, pool.map(play_one, indices, chunksize=8), strict=True):
            ends[v][end] += 1
            pairs[v].add((i // len(VARIANTS)) % len(PAIRS))
            if failure:
                failures.append(failure)
                print("FAIL", failure, flush=True)
    wall = time.perf_counter() - t0
    rows = []
    played = 0
    for v, (label, _cfg) in enumerate(VARIANTS):
        games = sum(ends[v].values())
        played += games
        rows.append({"variant": label, "games": games, "deck_pairs": len(pairs[v]),
                     "ends": dict(sorted(ends[v].items()))})
        print(f"{label:38} {games:6} games {len(pairs[v]):3} pairs  {dict(sorted(ends[v].items()))}")
    print(f"{played} games, {len(VARIANTS)} rule variants, {len(PAIRS)} ordered deck pairs, "
          f"{len(failures)} failures, {wall:.0f} s with {args.workers} workers")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"games": played, "start": args.start, "workers": args.workers,
                                        "wall_s": round(wall, 1), "failures": failures, "variants": rows},
                                       indent=1) + "\n", encoding="utf-8")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
