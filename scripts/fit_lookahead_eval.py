"""Fit the lookahead agent's evaluation weights to the results of kept games.

    python scripts/fit_lookahead_eval.py agents/ladder_results/round_robin_33000000.jsonl.gz \\
        --games 2000 --danger-base 0.5,0.6,0.7,0.8 --reach 0,0.5,1

The command-line front end of ``agents.training.lookahead_fit``, where the method lives.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from agents.lookahead import DEFAULT_WEIGHTS, LINEAR, Weights
from agents.training import lookahead_fit as lf


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=lf.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--games", type=int, default=None, help="games per file (default all)")
    ap.add_argument("--holdout", type=float, default=0.25, help="share of games held out (default 0.25)")
    for name in ("danger_base", "reach", "threat_next", "threat_later"):
        ap.add_argument("--" + name.replace("_", "-"), default=str(getattr(DEFAULT_WEIGHTS, name)))
    ap.add_argument("--fix", action="append", default=[], metavar="NAME=VALUE",
                    help="keep a linear weight at this value instead of fitting it (repeatable)")
    ap.add_argument("--cache", metavar="FILE.pkl", help="keep the positions here and read them back next time")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    fixed = {k: float(v) for k, _, v in (f.partition("=") for f in args.fix)}
    unknown = set(fixed) - set(LINEAR)
    if unknown:
        ap.error(f"--fix: unknown weight(s) {', '.join(sorted(unknown))} (known: {', '.join(LINEAR)})")
    pos = lf.load_positions(args.files, args.games, args.cache)
    n_games, held = lf.held_out(pos, args.holdout, args.seed)
    print(f"{len(pos)} positions from {n_games} games; {len(held)} games held out")
    best: tuple[float, Weights, np.ndarray] | None = None
    for w in lf.shapes(args.danger_base, args.reach, args.threat_next, args.threat_later):
        beta, loss, acc = lf.fit_shape(pos, w, held, fixed)
        print(f"danger_base={w.danger_base} reach={w.reach} threat_next={w.threat_next} "
              f"threat_later={w.threat_later}: held-out log loss {loss:.4f}, accuracy {acc:.3f}")
        if best is None or loss < best[0]:
            best = (loss, w, beta)
    assert best is not None
    loss, w, beta = best
    print(f"\nbest shape: danger_base={w.danger_base} reach={w.reach} threat_next={w.threat_next} "
          f"threat_later={w.threat_later} (log loss {loss:.4f}; {math.log(2):.4f} knows nothing)")
    print(":".join(f"{k}={v:.3g}" for k, v in zip(LINEAR, beta, strict=True)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
