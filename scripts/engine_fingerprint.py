"""Fingerprint the engine's behaviour: seeded games whose every observable is hashed.

    python scripts/engine_fingerprint.py [--out FILE] [--check FILE] [--quick]

The command-line front end of ``hostwcg_env.testing.fingerprint``, where the games, what is
hashed and why live (docs/engine.md). ``--out`` writes ``{game name: hash}`` as JSON;
``--check`` compares with such a file and exits non-zero naming the games that differ.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from hostwcg_env.testing.fingerprint import differences, fingerprint


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the hashes here (JSON)")
    ap.add_argument("--check", help="compare with hashes written earlier")
    ap.add_argument("--quick", action="store_true", help="a smaller set (about a quarter)")
    ap.add_argument("--no-env", action="store_true", help="skip the env games")
    args = ap.parse_args(argv)
    result = fingerprint(args.quick, env=not args.no_env)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1, sort_keys=True))
    print(f"{len(result)} games fingerprinted")
    if args.check:
        lines = differences(result, json.loads(Path(args.check).read_text()),
                            complete=not (args.quick or args.no_env))
        for line in lines:
            print(line)
        if lines:
            return 1
        print("identical to", args.check)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
