"""Fit the lookahead agent's evaluation weights to the results of kept games.

Replays the games of ladder results files, takes every position at the start of a turn (where
the lookahead's rollouts stop), and fits the linear weights of ``agents.lookahead.evaluate``
(the ``LINEAR`` features) by L2-regularised logistic regression on who won, for each shape of
the features given (danger base, threat and burn weights); reports the held-out log loss and
accuracy of each shape and the weights of the best (``docs/agents.md``, "lookahead"):

    python scripts/fit_lookahead_eval.py agents/ladder_results/round_robin_33000000.jsonl.gz \\
        --games 2000 --danger-base 0.5,0.6,0.7,0.8 --reach 0,0.5,1
"""

from __future__ import annotations

import argparse
import itertools
import math
import pickle
import random
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from agents.lookahead import DEFAULT_WEIGHTS, LINEAR, Side, Weights, _terms, side
from hostwcg_env.analysis.audit import replayed_games
from hostwcg_env.engine import Action, Game

Position = tuple[Side, Side, bool, float, int]  # A's side, B's side, A to act, A's result, game


def positions(paths: list[str], games: int | None) -> list[Position]:
    """Every turn start of every game (draws left out), from A's side."""
    out: list[Position] = []
    other_epoch = 0
    for g, (_meta, run) in enumerate(replayed_games(paths, games)):
        if run is None:  # recorded by an engine of another decision epoch: it does not replay
            other_epoch += 1
            continue
        seen: list[Position] = []
        last = [-1]

        def visit(game: Game, _action: Action, seen: list[Position] = seen, last: list[int] = last,
                  g: int = g) -> None:
            s = game.state
            if s.turn != last[0] and s.started:
                last[0] = s.turn
                seen.append((side(s, 0), side(s, 1), s.tp == 0, 0.0, g))

        final = run(visit).state
        if final.winner is None:
            continue
        y = float(final.winner == 0)
        out += [(a, b, t, y, gi) for a, b, t, _y, gi in seen]
        if (g + 1) % 500 == 0:
            print(f"{g + 1} games, {len(out)} positions", file=sys.stderr)
    if other_epoch:
        print(f"left out {other_epoch} games recorded by an engine of another decision epoch "
              f"(they do not replay under this one)", file=sys.stderr)
    return out


def design(pos: list[Position], w: Weights) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.empty((len(pos), len(LINEAR)))
    y = np.empty(len(pos))
    games = np.empty(len(pos), dtype=int)
    for i, (a, b, a_to_act, res, g) in enumerate(pos):
        mine = _terms(a, b, a_to_act, w)
        theirs = _terms(b, a, not a_to_act, w)
        x[i, :-1] = [m - t for m, t in zip(mine, theirs, strict=True)]
        x[i, -1] = 1.0 if a_to_act else -1.0
        y[i] = res
        games[i] = g
    return x, y, games


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 50,
        offset: np.ndarray | None = None) -> np.ndarray:
    """Logistic regression without intercept (the evaluation is antisymmetric), by Newton;
    ``offset`` adds the fixed weights' part of the sum."""
    beta = np.zeros(x.shape[1])
    off = np.zeros(len(y)) if offset is None else offset
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(x @ beta + off, -30, 30)))
        grad = x.T @ (p - y) + l2 * beta
        hess = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta


def score(x: np.ndarray, y: np.ndarray, beta: np.ndarray) -> tuple[float, float]:
    p = np.clip(1 / (1 + np.exp(-np.clip(x @ beta, -30, 30))), 1e-9, 1 - 1e-9)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    return loss, float(np.mean((p > 0.5) == (y > 0.5)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--games", type=int, default=None, help="games per file (default all)")
    ap.add_argument("--holdout", type=float, default=0.25, help="share of games held out (default 0.25)")
    ap.add_argument("--danger-base", default=str(DEFAULT_WEIGHTS.danger_base))
    ap.add_argument("--reach", default=str(DEFAULT_WEIGHTS.reach))
    ap.add_argument("--threat-next", default=str(DEFAULT_WEIGHTS.threat_next))
    ap.add_argument("--threat-later", default=str(DEFAULT_WEIGHTS.threat_later))
    ap.add_argument("--fix", action="append", default=[], metavar="NAME=VALUE",
                    help="keep a linear weight at this value instead of fitting it (repeatable)")
    ap.add_argument("--cache", metavar="FILE.pkl", help="keep the positions here and read them back next time")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    fixed = {k: float(v) for k, _, v in (f.partition("=") for f in args.fix)}
    unknown = set(fixed) - set(LINEAR)
    if unknown:
        ap.error(f"--fix: unknown weight(s) {', '.join(sorted(unknown))} (known: {', '.join(LINEAR)})")
    if args.cache and Path(args.cache).is_file():
        pos = pickle.loads(Path(args.cache).read_bytes())
    else:
        pos = positions(args.files, args.games)
        if args.cache:
            Path(args.cache).write_bytes(pickle.dumps(pos))
    n_games = max(p[4] for p in pos) + 1
    held = set(random.Random(args.seed).sample(range(n_games), int(args.holdout * n_games)))
    print(f"{len(pos)} positions from {n_games} games; {len(held)} games held out")
    grid = itertools.product(*(map(float, v.split(",")) for v in
                               (args.danger_base, args.reach, args.threat_next, args.threat_later)))
    best: tuple[float, Weights, np.ndarray] | None = None
    for base, reach, t_next, t_later in grid:
        w = replace(DEFAULT_WEIGHTS, danger_base=base, reach=reach, threat_next=t_next, threat_later=t_later)
        x, y, games = design(pos, w)
        test = np.array([g in held for g in games])
        free = [i for i, k in enumerate(LINEAR) if k not in fixed]
        offset = sum((x[:, LINEAR.index(k)] * v for k, v in fixed.items()), np.zeros(len(y)))
        part = fit(x[~test][:, free], y[~test], offset=offset[~test])
        beta = np.array([fixed.get(k, 0.0) for k in LINEAR])
        beta[free] = part
        loss, acc = score(x[test], y[test], beta)
        print(f"danger_base={base} reach={reach} threat_next={t_next} threat_later={t_later}: "
              f"held-out log loss {loss:.4f}, accuracy {acc:.3f}")
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
