"""Run the pre-registered first-turn study (docs/lab/first-turn-study.md) and write its tables.

    python scripts/first_turn_study.py --workers 16 [--out runs/first-turn]

The studies the recommendation still waits on are played first, then the rest of the table;
``first_turn.md`` states the recommendation as soon as no study to come can change it.
Resumable: run the same command again to finish an interrupted study; a study whose records
stayed on another machine counts as played when its ``report/games.csv`` came back whole, and
with ``--kept docs/lab/first-turn-study/first_turn.csv`` every study of that kept table counts
as played (so a new machine plays only the rows still missing). ``--games`` and
``--decks`` exist only to check the script on a tiny budget; the study itself is the defaults
(hostwcg_env/analysis/firstturn.py).
"""

from __future__ import annotations

import argparse
import sys

from hostwcg_env.analysis.firstturn import GAMES, SEED, run_first_turn_study, tables_from_reports


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="runs/first-turn", help="output folder (default runs/first-turn)")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    ap.add_argument("--games", type=int, default=GAMES, help=f"games per deck pair (the study: {GAMES})")
    ap.add_argument("--decks", nargs="+", help="decks (the study: every shipped preconstructed deck)")
    ap.add_argument("--quiet", action="store_true", help="no progress bars")
    ap.add_argument("--from-reports", action="store_true",
                    help="play nothing: the table from the studies whose report/games.csv is complete "
                         "(parts played on another machine)")
    ap.add_argument("--kept", metavar="CSV",
                    help="a first_turn.csv this command wrote before (docs/lab/first-turn-study/first_turn.csv): "
                         "its complete studies count as played")
    args = ap.parse_args(argv)
    if args.games != GAMES or args.decks:
        print(f"note: not the pre-registered study ({GAMES} games a pair, every shipped deck, seed {SEED})",
              file=sys.stderr)
    if args.from_reports:
        if not tables_from_reports(args.out, games=args.games, decks=args.decks):
            print(f"no complete study report under {args.out}", file=sys.stderr)
            return 1
    else:
        run_first_turn_study(args.out, workers=args.workers, games=args.games, decks=args.decks, quiet=args.quiet,
                             kept=args.kept)
    print(open(f"{args.out}/first_turn.md").read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
