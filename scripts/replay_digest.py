#!/usr/bin/env python
"""Replay every kept game and pin what it shows, before and after a change
(hostwcg_env/testing/replay_digest.py).

    python scripts/replay_digest.py agents/ladder_results/*.jsonl.gz --out runs/before.json
    python scripts/replay_digest.py agents/ladder_results/*.jsonl.gz --check runs/before.json

``--check`` exits 1 and names every game whose digest moved or that no longer replays.
"""

from __future__ import annotations

import argparse
import json
import sys

from hostwcg_env.testing.replay_digest import compare, digest_files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="results files (.jsonl or .jsonl.gz)")
    ap.add_argument("--out", help="write the digests to this JSON file")
    ap.add_argument("--check", help="compare with the digests in this JSON file")
    args = ap.parse_args(argv)
    digests = digest_files(args.files)
    failed = sum(d.startswith("replay failed") for d in digests.values())
    older = sum(d.startswith("older epoch") for d in digests.values())
    print(f"{len(digests) - older} games replayed from {len(args.files)} files, {failed} failed to replay; "
          f"{older} recorded by an older decision epoch, not replayable by design")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(digests, f, indent=0, sort_keys=True)
    if args.check:
        with open(args.check) as f:
            moved = compare(json.load(f), digests)
        print("\n".join(moved) or "every game replays identically")
        return 1 if moved or failed else 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
