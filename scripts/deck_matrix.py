"""Print the deck matrix: each shipped preconstructed deck against each other, random agents.

    python scripts/deck_matrix.py                 # 200 seat-swapped games a pair, all cores
    python scripts/deck_matrix.py --games 40 --workers 1 --include-test

Each cell is the row deck's win rate (%) against the column deck (a draw counts half). The
balance target of the shipped pool: no deck below 25% against any other.
"""

from __future__ import annotations

import argparse
import os
import time

from hostwcg_env.analysis.selfplay import deck_matrix, format_matrix, pool_decks, worst

TARGET = 0.25


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per pair (seat-swapped)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--include-test", action="store_true", help="add the two stand-in test decks")
    args = ap.parse_args(argv)
    decks = pool_decks(include_test=args.include_test)
    start = time.perf_counter()
    matrix = deck_matrix(decks, games=args.games, workers=args.workers, seed=args.seed)
    took = time.perf_counter() - start
    names = list(decks)
    print(f"{len(names)} decks, {args.games} games a pair, seed {args.seed}, {took:.0f} s")
    for n in names:
        print(f"  {n.split('_')[0]:8} {decks[n].name} ({decks[n].host})")
    print()
    print(format_matrix(names, matrix))
    rate, (x, y) = worst(matrix)
    ok = rate >= TARGET
    print(
        f"\nlowest: {x} vs {y} {100 * rate:.1f}% ({'ok' if ok else 'BELOW'} target {100 * TARGET:.0f}%)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
