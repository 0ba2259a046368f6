"""The metagame: which decks a field of good players would choose (docs/balance.md, "The
metagame").

The deck-choice game: two players each pick a deck, then play; the row player's payoff is its
deck's win rate against the other's minus 1/2 (draws count half, a mirror is 0). The matchup
matrix is the game, and since ``M[i][j] + M[j][i] = 1`` it is a symmetric zero-sum game whose
value is 0. From it:

* **the Nash equilibrium**: the mix of decks no opponent can beat on average (the row
  player's maximin strategy), solved by nashpy's linear program (``nashpy.Game.linear_program``);
* **the uncertainty**: the games are resampled (``resamples`` times, seeded), the matrix
  rebuilt and the equilibrium solved again; each deck gets its weight's 95% percentile interval
  and the share of resamples in which it is played. Every deck pair plays the same seeds, and
  one seed deals every pair alike (docs/balance.md, "Statistics"), so when the games' seeds are
  known (records) the resample draws **seeds** with replacement and keeps all their games in
  every pair (a cluster bootstrap), which keeps the pairs' correlation; from a kept
  ``matchups.csv`` (no seeds) each pair's games are resampled on their own;
* **decks never played**: weight 0 at the equilibrium of the observed matrix (``never``), and
  ``never_robust`` when it is played in fewer than 5% of the resamples too;
* **a ranking that handles non-transitive matchups**: Nash averaging (Balduzzi, Tuyls, Perolat
  and Graepel, "Re-evaluating evaluation", NeurIPS 2018): a deck's rating is its expected payoff
  against the equilibrium mix, ``(A p*)_i``. It is 0 for every deck the equilibrium plays and
  negative for the others (how much a deck loses to the field good players would bring); adding
  copies of a deck or of a cycle does not change it, unlike a win rate against the field. Ties
  (the decks played) are ordered by their weight.

Why nashpy: it is maintained, pure Python over numpy and scipy (both already needed by the
analysis extra's pandas and matplotlib), installs on every platform, and solves a zero-sum game
by linear programming, exact for the equilibrium, with no solver of our own. OpenSpiel's
``egt.alpharank`` would add α-Rank, but OpenSpiel is a 16 MB compiled package with no Windows
wheels, for a ranking that Nash averaging gives from the same equilibrium.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from .records import Record

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
from .stats import Cell, Row, deck_ids, game_seed, num, result_for, text

EPS = 1e-6  # a weight below this is "not played"
ROBUST = 0.05  # never_robust: played in fewer than this share of the resamples


def available() -> str | None:
    """None when the metagame can be computed, else why not (a missing package)."""
    try:
        import nashpy  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        return f"metagame not computed: {e.name} is not installed (pip install 'hostwcg[analysis]')"
    return None


def pair_results(records: Sequence[Record], order: Sequence[str]) -> dict[tuple[int, int], list[float]]:
    """For each deck pair (i < j in ``order``), deck i's result in each of their games."""
    return {k: [x for _, x in games] for k, games in pair_games(records, order).items()}


def pair_games(records: Sequence[Record], order: Sequence[str]) -> dict[tuple[int, int], list[tuple[int, float]]]:
    """For each deck pair (i < j in ``order``), (seed, deck i's result) of each of their games."""
    index = {d: k for k, d in enumerate(order)}
    out: dict[tuple[int, int], list[tuple[int, float]]] = defaultdict(list)
    for r in records:
        a, b = deck_ids(r)
        if a == b or a not in index or b not in index:
            continue
        i, j = index[a], index[b]
        if i < j:
            out[(i, j)].append((game_seed(r), result_for(r, 0)))
        else:
            out[(j, i)].append((game_seed(r), result_for(r, 1)))
    return out


def pair_results_from_matchups(rows: Sequence[Mapping[str, Cell]],
                               order: Sequence[str]) -> dict[tuple[int, int], list[float]]:
    """The same from a kept ``matchups.csv`` (its rows as dicts): each pair's games rebuilt from
    the row deck's wins (draws count half), draws and games, which is all resampling needs."""
    index = {d: k for k, d in enumerate(order)}
    out: dict[tuple[int, int], list[float]] = {}
    for r in rows:
        i, j = index.get(str(r["deck"])), index.get(str(r["opponent"]))
        if i is None or j is None or i >= j:
            continue
        n, draws = int(_number(r["games"])), int(_number(r["draws"]))
        won = int(round(_number(r["wins"]) - draws / 2))
        out[(i, j)] = [1.0] * won + [0.5] * draws + [0.0] * (n - won - draws)
    return out


def _number(v: Cell) -> float:
    """A matchups cell: a number, or its text in a kept CSV file."""
    return float(v) if isinstance(v, str) else num(v)


def payoff(n: int, results: dict[tuple[int, int], list[float]]) -> NDArray[np.float64]:
    """The deck-choice game's payoff matrix: deck i's win rate against deck j minus 1/2."""
    import numpy as np

    a = np.zeros((n, n))
    for (i, j), xs in results.items():
        v = sum(xs) / len(xs) - 0.5
        a[i, j], a[j, i] = v, -v
    return a


def equilibrium(a: NDArray[np.float64]) -> NDArray[np.float64]:
    """The row player's equilibrium strategy of the zero-sum game ``a`` (nashpy's LP)."""
    import nashpy
    import numpy as np

    row, _ = nashpy.Game(a).linear_program()
    p = np.clip(np.asarray(row, dtype=float), 0.0, None)
    return p / p.sum()


def metagame(records: Sequence[Record], order: Sequence[str], resamples: int = 200,
             seed: int = 0) -> list[Row]:
    """One row per deck, best first: ``nash_share`` (its weight in the equilibrium mix) with its
    resampled 95% interval (``_low``, ``_high``), ``played_share`` (of the resamples), ``never``
    and ``never_robust``, ``nash_avg_delta`` (the Nash-averaging rating: its expected result
    against the equilibrium mix minus 1/2) with its interval, and ``rank``. [] when some
    pair of decks never met (the game is then not known)."""
    games = pair_games(records, order)
    return solve({k: [x for _, x in g] for k, g in games.items()}, order, resamples, seed,
                 seeds={k: [s for s, _ in g] for k, g in games.items()})


def solve(results: dict[tuple[int, int], list[float]], order: Sequence[str], resamples: int = 200,
          seed: int = 0, seeds: Mapping[tuple[int, int], Sequence[int]] | None = None) -> list[Row]:
    """:func:`metagame` from each pair's results (``pair_results``). With ``seeds`` (each
    result's seed, in the same order) the resamples draw seeds (a cluster bootstrap), else each
    pair's games on their own."""
    import numpy as np

    n = len(order)
    if n < 2 or len(results) < n * (n - 1) // 2:
        return []
    a = payoff(n, results)
    p = equilibrium(a)
    rating = a @ p
    rng = random.Random(seed)
    draw = _seed_resampler(results, seeds, rng) if seeds is not None else None
    weights, ratings = [], []
    for _ in range(resamples):
        boot = draw() if draw is not None else {k: rng.choices(xs, k=len(xs)) for k, xs in results.items()}
        ab = payoff(n, boot)
        pb = equilibrium(ab)
        weights.append(pb)
        ratings.append(ab @ pb)
    w = np.array(weights) if weights else np.zeros((0, n))
    rt = np.array(ratings) if ratings else np.zeros((0, n))
    order_idx = sorted(range(n), key=lambda k: (-round(float(rating[k]), 9), -float(p[k]), order[k]))
    rank = {k: pos + 1 for pos, k in enumerate(order_idx)}
    rows: list[Row] = []
    for k, deck in enumerate(order):
        share = float((w[:, k] > EPS).mean()) if len(w) else float("nan")
        rows.append({
            "deck": deck, "nash_share": _r(p[k]),
            "nash_share_low": _r(np.percentile(w[:, k], 2.5)) if len(w) else None,
            "nash_share_high": _r(np.percentile(w[:, k], 97.5)) if len(w) else None,
            "played_share": _r(share), "never": bool(p[k] <= EPS),
            "never_robust": bool(p[k] <= EPS and share < ROBUST),
            "nash_avg_delta": _r(rating[k]),
            "nash_avg_delta_low": _r(np.percentile(rt[:, k], 2.5)) if len(rt) else None,
            "nash_avg_delta_high": _r(np.percentile(rt[:, k], 97.5)) if len(rt) else None,
            "rank": rank[k], "resamples": resamples,
        })
    rows.sort(key=lambda r: num(r["rank"]))
    return rows


def _seed_resampler(results: dict[tuple[int, int], list[float]], seeds: Mapping[tuple[int, int], Sequence[int]],
                    rng: random.Random) -> Callable[[], dict[tuple[int, int], list[float]]]:
    """A cluster bootstrap: each call draws as many seeds as were played, with replacement, and
    gives every pair all its games at each drawn seed (as often as it was drawn). A pair none of
    whose seeds was drawn (possible only when pairs played different seeds) keeps its games."""
    by: dict[tuple[int, int], dict[int, list[float]]] = {}
    for k, xs in results.items():
        ss = seeds[k]
        if len(ss) != len(xs):
            raise ValueError(f"metagame: pair {k} has {len(xs)} results and {len(ss)} seeds")
        groups: dict[int, list[float]] = {}
        for s, x in zip(ss, xs, strict=True):
            groups.setdefault(s, []).append(x)
        by[k] = groups
    pool = sorted({s for groups in by.values() for s in groups})

    def draw() -> dict[tuple[int, int], list[float]]:
        picked = rng.choices(pool, k=len(pool))
        out: dict[tuple[int, int], list[float]] = {}
        for k, groups in by.items():
            xs = [x for s in picked for x in groups.get(s, ())]
            out[k] = xs if xs else results[k]
        return out

    return draw


def _r(x: float | np.floating) -> float:
    v = float(x)
    return 0.0 if abs(v) < 1e-9 else round(v, 6)


def summary(rows: Sequence[Row]) -> str:
    """Two lines for the terminal: the equilibrium mix and the decks it never plays."""
    if not rows:
        return ""
    mix = ", ".join(f"{r['deck']} {100 * num(r['nash_share']):.0f}%" for r in rows if not r["never"])
    never = [text(r["deck"])
             + ("" if r["never_robust"] else f" (played in {100 * num(r['played_share']):.0f}% of resamples)")
             for r in rows if r["never"]]
    return f"metagame (Nash equilibrium of deck choice): {mix}\nnever played at equilibrium: " \
           + (", ".join(never) or "none")
