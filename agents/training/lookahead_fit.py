"""Fit the lookahead agent's evaluation weights to the results of kept games.

Replays the games of ladder results files, takes every position at the start of a turn (where
the lookahead's rollouts stop), and fits the linear weights of ``agents.lookahead.evaluate``
(the ``LINEAR`` features) by L2-regularised logistic regression on who won, for each shape of
the features given (danger base, threat and burn weights); reports the held-out log loss and
accuracy of each shape and the weights of the best (``docs/agents.md``, "lookahead"):

    python scripts/fit_lookahead_eval.py agents/ladder_results/round_robin_33000000.jsonl.gz \\
        --games 2000 --danger-base 0.5,0.6,0.7,0.8 --reach 0,0.5,1

That script is the command line: ``load_positions`` reads the games, ``shapes`` makes the grid
of feature shapes, ``held_out`` draws the games held out and ``fit_shape`` fits and scores one
shape. Needs numpy only.
"""

from __future__ import annotations

import itertools
import pickle
import random
import sys
from collections.abc import Sequence
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


def load_positions(paths: Sequence[str], games: int | None, cache: str | None = None) -> list[Position]:
    """``positions`` of the files, read back from the pickle ``cache`` when it exists (and written
    there when it does not)."""
    if cache and Path(cache).is_file():
        pos: list[Position] = pickle.loads(Path(cache).read_bytes())
        return pos
    pos = positions(list(paths), games)
    if cache:
        Path(cache).write_bytes(pickle.dumps(pos))
    return pos


def held_out(pos: list[Position], share: float, seed: int = 0) -> tuple[int, set[int]]:
    """The number of games the positions come from, and the ``share`` of them held out."""
    n_games = max(p[4] for p in pos) + 1
    return n_games, set(random.Random(seed).sample(range(n_games), int(share * n_games)))


def shapes(danger_base: str, reach: str, threat_next: str, threat_later: str) -> list[Weights]:
    """The default weights with every combination of the comma-separated values given."""
    grid = itertools.product(*(map(float, v.split(",")) for v in (danger_base, reach, threat_next, threat_later)))
    return [replace(DEFAULT_WEIGHTS, danger_base=b, reach=r, threat_next=n, threat_later=la) for b, r, n, la in grid]


def fit_shape(pos: list[Position], w: Weights, held: set[int],
              fixed: dict[str, float] | None = None) -> tuple[np.ndarray, float, float]:
    """The linear weights fitted (those in ``fixed`` kept at their value) to the games not
    ``held`` out, in ``LINEAR``'s order, and their log loss and accuracy on the held-out games."""
    fixed = fixed or {}
    x, y, games = design(pos, w)
    test = np.array([g in held for g in games])
    free = [i for i, k in enumerate(LINEAR) if k not in fixed]
    offset = sum((x[:, LINEAR.index(k)] * v for k, v in fixed.items()), np.zeros(len(y)))
    part = fit(x[~test][:, free], y[~test], offset=offset[~test])
    beta = np.array([fixed.get(k, 0.0) for k in LINEAR])
    beta[free] = part
    loss, acc = score(x[test], y[test], beta)
    return beta, loss, acc
