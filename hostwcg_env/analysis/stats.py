"""Statistics of a study: the tables, and the intervals and tests behind them.

Pure Python (no pandas needed): every table is a list of row dicts, in a fixed order, so the
same records give the same tables to the last digit. Conventions (docs/balance.md):

- a game's result for a side: 1 a win, 0.5 a draw (or a truncated game), 0 a loss;
- proportions: Wilson score 95% intervals (``wilson``, which the ladder uses too). A rate that
  pools the games of several deck pairs (the first player's, a deck's or a Host's against the
  field, a seat's) is clustered by seed: a study plays every deck pair at the same seeds, so the
  games of one seed are correlated, and its interval is Wilson's at the effective sample size
  (``wilson_clustered``). A matchup's games each have their own seed (two, seats swapped), and
  the card table's conditions stay plain Wilson;
- a difference of two proportions from independent groups: Newcombe's hybrid score interval;
- a mean: mean +- t * sd / sqrt(n);
- ``too_wide``: a proportion whose 95% interval is wider than ``max_width`` (0.2 by default),
  a mean whose interval is wider than ``max_width`` times the mean: too uncertain to call.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, TypedDict

from .records import DeckJSON, Record, known

Cell = str | int | float | bool | None  # a table cell: what the CSV files, HTML and DataFrames hold
Row = dict[str, Cell]  # a row of a table, by column
Tables = dict[str, list[Row]]  # the report's tables by name


class Paired(TypedDict):
    """``paired``: the mean paired difference, its 95% interval, standard error and z (None
    without pairs)."""

    n: int
    diff: float | None
    ci_low: float | None
    ci_high: float | None
    se: float | None
    z: float | None
    clusters: int
    design_effect: float


def num(v: Cell) -> float:
    """A cell that holds a number (a count, a rate, a flag), as it is."""
    if isinstance(v, int | float):
        return v
    raise TypeError(f"a table cell {v!r} where a number belongs")


def num_or_none(v: Cell) -> float | None:
    """A cell that holds a number or nothing (a rate of no games, a difference not measured)."""
    return None if v is None else num(v)


def text(v: Cell) -> str:
    """A cell that holds text (a deck, a card, a condition)."""
    if isinstance(v, str):
        return v
    raise TypeError(f"a table cell {v!r} where text belongs")

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

CONDITIONS = ("drawn", "opening", "drawn_later", "played", "not_drawn")
CONDITION_TEXT = {
    "drawn": "in hand at some point (opening hand or drawn later)",
    "opening": "in the opening hand (after the mulligan)",
    "drawn_later": "drawn after the game started",
    "played": "played (reached the stack) at least once",
    "not_drawn": "never in hand",
}


# ============================================================================ intervals


Z = 1.959963984540054


def wilson(wins: float, n: float, z: float = Z) -> tuple[float, float, float]:
    """Point estimate and Wilson score interval of a proportion (draws count as half)."""
    if n == 0:
        return 0.5, 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, max(0.0, centre - half), min(1.0, centre + half)


def design_effect(wins: float, n: int, clusters: Sequence[tuple[float, int]]) -> float:
    """How much larger the variance of a pooled rate is than ``n`` independent games would give.

    ``clusters``: (wins, games) of each cluster (the games of one seed). The rate's variance is
    estimated from the clusters' totals (the ratio estimator's, with the ``C / (C - 1)``
    correction for ``C`` clusters) and divided by the binomial ``p (1 - p) / n``. Never below 1
    (games that cancel out within a cluster do not narrow the interval below Wilson's), and 1
    where it cannot be estimated (fewer than 2 clusters, or every game the same result).
    """
    c = len(clusters)
    if n == 0 or c < 2:
        return 1.0
    p = wins / n
    v_srs = p * (1 - p) / n
    if v_srs <= 0:
        return 1.0
    v = c / (c - 1) * sum((w - p * m) ** 2 for w, m in clusters) / (n * n)
    return max(1.0, v / v_srs)


def wilson_clustered(wins: float, n: int, clusters: Sequence[tuple[float, int]],
                     z: float = Z) -> tuple[float, float, float, float]:
    """Point estimate, 95% interval and design effect of a rate over correlated clusters of games:
    Wilson's interval at the effective sample size ``n / deff`` (Korn and Graubard's effective
    sample size for a clustered proportion). With independent games it is Wilson's interval."""
    deff = design_effect(wins, n, clusters)
    if n == 0:
        return (*wilson(wins, n, z), deff)
    p = wins / n
    _, lo, hi = wilson(p * n / deff, n / deff, z)
    return p, lo, hi, deff


def phi(x: float) -> float:
    """Standard normal CDF."""
    return 0.5 * math.erfc(-x / math.sqrt(2))


def phi_inv(p: float) -> float:
    """Standard normal quantile (bisection; exact to ~1e-12)."""
    if not 0 < p < 1:
        return math.copysign(math.inf, p - 0.5)
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if phi(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t (two-sided 95%); the normal's beyond 120 df."""
    if df < 1:
        return math.inf
    if df <= 30:
        return _T975[df - 1]
    if df <= 120:  # interpolate in 1/df between 30 (2.042), 60 (2.000) and 120 (1.980)
        pts = [(30, 2.042), (60, 2.000), (120, 1.980)]
        for (d0, t0), (d1, t1) in zip(pts, pts[1:], strict=False):
            if df <= d1:
                w = (1 / df - 1 / d0) / (1 / d1 - 1 / d0)
                return t0 + w * (t1 - t0)
    return Z


def newcombe(w1: float, n1: int, w2: float, n2: int) -> tuple[float, float, float]:
    """p1 - p2 with Newcombe's hybrid score 95% interval (independent groups)."""
    p1, l1, u1 = wilson(w1, n1)
    p2, l2, u2 = wilson(w2, n2)
    if n1 == 0 or n2 == 0:
        return (p1 - p2 if n1 and n2 else 0.0), -1.0, 1.0
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, max(-1.0, lo), min(1.0, hi)


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float, float]:
    """Mean, 95% interval (t), standard deviation."""
    n = len(xs)
    if n == 0:
        return math.nan, math.nan, math.nan, math.nan
    m = sum(xs) / n
    if n == 1:
        return m, -math.inf, math.inf, 0.0
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = t975(n - 1) * sd / math.sqrt(n)
    return m, m - h, m + h, sd


def quantile(sorted_xs: Sequence[float], q: float) -> float:
    """Linear-interpolated quantile of sorted data (numpy's default)."""
    if not sorted_xs:
        return math.nan
    pos = q * (len(sorted_xs) - 1)
    i = int(math.floor(pos))
    j = min(i + 1, len(sorted_xs) - 1)
    return sorted_xs[i] + (sorted_xs[j] - sorted_xs[i]) * (pos - i)


def _r(x: float, nd: int = 6) -> float:
    return round(x, nd) if isinstance(x, float) and math.isfinite(x) else x


def prop_row(wins: float, n: int, max_width: float, prefix: str = "") -> Row:
    """A rate's columns, with Wilson's interval."""
    return _rate_columns(wins, n, *wilson(wins, n), max_width, prefix)


def pooled_row(results: Sequence[tuple[int, float]], max_width: float, prefix: str = "",
               detail: bool = False) -> Row:
    """A rate's columns from (seed, result) of each game, its interval clustered by seed
    (``wilson_clustered``); with ``detail`` also ``seeds`` and ``design_effect``."""
    clusters = seed_clusters(results)
    wins, n = sum(x for _, x in results), len(results)
    p, lo, hi, deff = wilson_clustered(wins, n, clusters)
    row = _rate_columns(wins, n, p, lo, hi, max_width, prefix)
    if detail:
        row.update({f"{prefix}seeds": len(clusters), f"{prefix}design_effect": _r(deff, 3)})
    return row


def _rate_columns(wins: float, n: int, p: float, lo: float, hi: float, max_width: float, prefix: str) -> Row:
    return {f"{prefix}games": n, f"{prefix}wins": wins, f"{prefix}win_rate": _r(p) if n else None,
            f"{prefix}ci_low": _r(lo), f"{prefix}ci_high": _r(hi), f"{prefix}ci_width": _r(hi - lo),
            f"{prefix}too_wide": (hi - lo) > max_width}


def seed_clusters(results: Iterable[tuple[int, float]]) -> list[tuple[float, int]]:
    """(wins, games) per seed, in the order the seeds first appear."""
    by: dict[int, list[float]] = {}
    for seed, x in results:
        acc = by.setdefault(seed, [0.0, 0.0])
        acc[0] += x
        acc[1] += 1
    return [(w, int(m)) for w, m in by.values()]


# ============================================================================ game results


def result_for(rec: Record, seat: int) -> float:
    """1 win, 0.5 draw, 0 loss, for the side in ``seat``."""
    w = rec.get("winner")
    return 0.5 if w is None else float(w == seat)


def game_seed(rec: Record) -> int:
    """The seed a game was played at (the cluster its pooled rates count it in)."""
    return int(known(rec["seed"], rec, "seed"))


def deck_ids(rec: Record) -> tuple[str, str]:
    return rec["decks"][0]["id"], rec["decks"][1]["id"]


# ============================================================================ the tables


def compute_tables(records: Sequence[Record], deck_order: Sequence[str] | None = None,
                   max_width: float = 0.2) -> Tables:
    """Every table of the balance report from a list of game records."""
    if deck_order is None:
        deck_order = sorted({d for r in records for d in deck_ids(r)})
    decks_info: dict[str, DeckJSON] = {}
    for r in records:
        for d in r["decks"]:
            decks_info.setdefault(d["id"], d)
    order = [d for d in deck_order if d in decks_info] + sorted(set(decks_info) - set(deck_order))
    return {
        "matchups": matchups(records, order, max_width),
        "matrix": matrix(records, order),
        "first_player": first_player(records, order, max_width),
        "seats": seats(records, max_width),
        "decks": decks(records, order, decks_info, max_width),
        "hosts": hosts(records, order, decks_info, max_width),
        "cards": cards(records, order, decks_info, max_width),
        "lengths": lengths(records, max_width),
        "reasons": reasons(records),
        "games": games(records),
    }


def matchups(records: Sequence[Record], order: Sequence[str], max_width: float) -> list[Row]:
    wins: dict[tuple[str, str], float] = defaultdict(float)
    n: Counter[tuple[str, str]] = Counter()
    draws: Counter[tuple[str, str]] = Counter()
    turns: dict[tuple[str, str], list[int]] = defaultdict(list)
    for r in records:
        a, b = deck_ids(r)
        if a == b:
            continue
        for seat, (me, opp) in enumerate(((a, b), (b, a))):
            n[(me, opp)] += 1
            wins[(me, opp)] += result_for(r, seat)
            draws[(me, opp)] += r.get("winner") is None
            turns[(me, opp)].append(known(r["turns"], r, "turns"))
    rows = []
    for me in order:
        for opp in order:
            if me == opp or not n[(me, opp)]:
                continue
            t = turns[(me, opp)]
            rows.append({"deck": me, "opponent": opp, **prop_row(wins[(me, opp)], n[(me, opp)], max_width),
                         "draws": draws[(me, opp)], "mean_turns": _r(sum(t) / len(t))})
    return rows


def matrix(records: Sequence[Record], order: Sequence[str]) -> list[Row]:
    """Row deck's win rate against each column deck (None where they did not meet)."""
    wins: dict[tuple[str, str], float] = defaultdict(float)
    n: Counter[tuple[str, str]] = Counter()
    for r in records:
        a, b = deck_ids(r)
        for seat, (me, opp) in enumerate(((a, b), (b, a))):
            n[(me, opp)] += 1
            wins[(me, opp)] += result_for(r, seat)
    return [{"deck": me, **{opp: (_r(wins[(me, opp)] / n[(me, opp)]) if n[(me, opp)] else None)
                            for opp in order}} for me in order]


def first_player(records: Sequence[Record], order: Sequence[str], max_width: float) -> list[Row]:
    """How often the player who went first won: over all games and in the games of each deck.
    The interval is clustered by seed (every deck pair plays the same seeds); ``seeds`` and
    ``design_effect`` say how many clusters there were and how much they widened it."""
    def row(scope: str, rs: list[Record]) -> Row:
        xs = [(game_seed(r), result_for(r, known(r["first_player"], r, "first_player"))) for r in rs]
        return {"scope": scope, **pooled_row(xs, max_width, detail=True)}

    rows = [row("all", list(records))]
    for d in order:
        rs = [r for r in records if d in deck_ids(r)]
        if rs:
            rows.append(row(d, rs))
    return rows


def seats(records: Sequence[Record], max_width: float) -> list[Row]:
    rows = []
    for seat in (0, 1):
        by_agent: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for r in records:
            by_agent[r["agents"][seat]].append((game_seed(r), result_for(r, seat)))
        for agent, xs in sorted(by_agent.items()):
            rows.append({"seat": "AB"[seat], "agent": agent, **pooled_row(xs, max_width)})
    return rows


def _sides(records: Sequence[Record]) -> Iterable[tuple[Record, int, str]]:
    for r in records:
        for seat in (0, 1):
            yield r, seat, r["decks"][seat]["id"]


def decks(records: Sequence[Record], order: Sequence[str], info: dict[str, DeckJSON],
          max_width: float) -> list[Row]:
    """Each deck against the field (all its games; a mirror game counts for both sides)."""
    res: dict[str, list[tuple[int, float]]] = defaultdict(list)
    first: dict[str, list[tuple[int, float]]] = defaultdict(list)
    second: dict[str, list[tuple[int, float]]] = defaultdict(list)
    turns: dict[str, list[int]] = defaultdict(list)
    for r, seat, d in _sides(records):
        x = (game_seed(r), result_for(r, seat))
        res[d].append(x)
        (first if r["first_player"] == seat else second)[d].append(x)
        turns[d].append(known(r["turns"], r, "turns"))
    rows = []
    for d in order:
        if not res[d]:
            continue
        rows.append({"deck": d, "name": info[d].get("name", d), "host": info[d]["host"],
                     **pooled_row(res[d], max_width),
                     **pooled_row(first[d], max_width, "first_"),
                     **pooled_row(second[d], max_width, "second_"),
                     "mean_turns": _r(sum(turns[d]) / len(turns[d]))})
    return rows


def hosts(records: Sequence[Record], order: Sequence[str], info: dict[str, DeckJSON],
          max_width: float) -> list[Row]:
    """Each Host over all the decks it leads: win rate, going first and second, how it wins."""
    host_order: list[str] = []
    for d in order:
        if info[d]["host"] not in host_order:
            host_order.append(info[d]["host"])
    res: dict[str, list[tuple[int, float]]] = defaultdict(list)
    first: dict[str, list[tuple[int, float]]] = defaultdict(list)
    second: dict[str, list[tuple[int, float]]] = defaultdict(list)
    turns: dict[str, list[int]] = defaultdict(list)
    won_by: dict[str, Counter[str]] = defaultdict(Counter)
    lost_by: dict[str, Counter[str]] = defaultdict(Counter)
    deck_names: dict[str, list[str]] = defaultdict(list)
    for d in order:
        deck_names[info[d]["host"]].append(d)
    for r, seat, d in _sides(records):
        h = info[d]["host"]
        x = (game_seed(r), result_for(r, seat))
        res[h].append(x)
        (first if r["first_player"] == seat else second)[h].append(x)
        turns[h].append(known(r["turns"], r, "turns"))
        if r.get("winner") == seat:
            won_by[h][known(r["reason"], r, "reason")] += 1
        elif r.get("winner") == 1 - seat:
            lost_by[h][known(r["reason"], r, "reason")] += 1
    rows = []
    for h in host_order:
        if not res[h]:
            continue
        rows.append({"host": h, "decks": ", ".join(deck_names[h]),
                     **pooled_row(res[h], max_width),
                     **pooled_row(first[h], max_width, "first_"),
                     **pooled_row(second[h], max_width, "second_"),
                     "mean_turns": _r(sum(turns[h]) / len(turns[h])),
                     "wins_by": "; ".join(f"{k} {v}" for k, v in won_by[h].most_common()),
                     "losses_by": "; ".join(f"{k} {v}" for k, v in lost_by[h].most_common())})
    return rows


def cards(records: Sequence[Record], order: Sequence[str], info: dict[str, DeckJSON],
          max_width: float) -> list[Row]:
    """Per deck and card: the deck's win rate in the games where the card was drawn / in the
    opening hand / drawn later / played / never drawn, against the deck's baseline.

    ``delta`` = win rate under the condition - the deck's win rate in all its games. Its
    interval: with f the share of the deck's games meeting the condition, baseline =
    f * wr_in + (1 - f) * wr_out, so delta = (1 - f) * (wr_in - wr_out), and the interval is
    (1 - f) times Newcombe's interval for wr_in - wr_out (f taken as fixed).
    ``iwd`` (improvement when ...) = wr_in - wr_out with Newcombe's interval.
    """
    from .records import unrle

    # per deck: n games, wins, and per card per condition (n, wins)
    base_n: Counter[str] = Counter()
    base_w: dict[str, float] = defaultdict(float)
    cn: dict[tuple[str, str, str], int] = Counter()
    cw: dict[tuple[str, str, str], float] = defaultdict(float)
    uniq = {d: sorted(set(unrle(info[d]["main"]))) for d in info}
    for r, seat, d in _sides(records):
        x = result_for(r, seat)
        base_n[d] += 1
        base_w[d] += x
        c = known(r["cards"], r, "cards")[seat]
        opening = set(c["opening"])
        later = set(c["drawn"])
        played = set(c["played"])
        drawn = opening | later
        for name in uniq[d]:
            for cond, yes in (("drawn", name in drawn), ("opening", name in opening),
                              ("drawn_later", name in later), ("played", name in played),
                              ("not_drawn", name not in drawn)):
                if yes:
                    cn[(d, name, cond)] += 1
                    cw[(d, name, cond)] += x
    rows = []
    for d in order:
        n_all = base_n[d]
        if not n_all:
            continue
        w_all = base_w[d]
        base = w_all / n_all
        main = unrle(info[d]["main"])
        copies = Counter(main)
        names = list(dict.fromkeys(main))
        for name in names:
            for cond in CONDITIONS:
                n = cn[(d, name, cond)]
                w = cw[(d, name, cond)]
                n_out, w_out = n_all - n, w_all - w
                iwd, ilo, ihi = newcombe(w, n, w_out, n_out)
                f = n / n_all
                row: Row = {"deck": d, "host": info[d]["host"], "card": name, "copies": copies[name],
                       "condition": cond, **prop_row(w, n, max_width), "share": _r(f),
                       "baseline": _r(base)}
                if n and n_out:
                    row.update(delta=_r(num(row["win_rate"]) - base), delta_low=_r((1 - f) * ilo),
                               delta_high=_r((1 - f) * ihi), iwd=_r(iwd), iwd_low=_r(ilo), iwd_high=_r(ihi))
                elif n:  # the condition held in every game: the card's rate is the deck's
                    row.update(delta=_r(num(row["win_rate"]) - base), delta_low=0.0, delta_high=0.0,
                               iwd=None, iwd_low=None, iwd_high=None)
                else:
                    row.update(delta=None, delta_low=None, delta_high=None, iwd=None, iwd_low=None, iwd_high=None)
                rows.append(row)
    return rows


def lengths(records: Sequence[Record], max_width: float) -> list[Row]:
    rows = []
    for metric in ("turns", "decisions"):
        xs = [float(known(r["turns"] if metric == "turns" else r["decisions"], r, metric)) for r in records]
        m, lo, hi, sd = mean_ci(xs)
        s = sorted(xs)
        rows.append({"metric": metric, "games": len(xs), "mean": _r(m), "ci_low": _r(lo), "ci_high": _r(hi),
                     "too_wide": bool(xs) and m > 0 and (hi - lo) > max_width * m, "sd": _r(sd),
                     "min": s[0] if s else None, "p10": _r(quantile(s, 0.1)), "p25": _r(quantile(s, 0.25)),
                     "median": _r(quantile(s, 0.5)), "p75": _r(quantile(s, 0.75)),
                     "p90": _r(quantile(s, 0.9)), "max": s[-1] if s else None})
    return rows


def reasons(records: Sequence[Record]) -> list[Row]:
    c = Counter(r["reason"] for r in records)
    n = len(records)
    return [{"reason": k, "games": v, "share": _r(v / n)} for k, v in sorted(c.items(), key=lambda t: (-t[1], t[0]))]


def games(records: Sequence[Record]) -> list[Row]:
    rows: list[Row] = []
    for r in records:
        a, b = deck_ids(r)
        w = r.get("winner")
        rows.append({"key": r["key"], "deck_a": a, "deck_b": b, "seed": r["seed"],
                     "agent_a": r["agents"][0], "agent_b": r["agents"][1],
                     "winner": "draw" if w is None else "AB"[w],
                     "winner_deck": None if w is None else (a, b)[w],
                     "first_player": "AB"[known(r["first_player"], r, "first_player")], "reason": r["reason"],
                     "turns": r["turns"], "decisions": r["decisions"]})
    return rows


# ============================================================================ group-sequential tests


def spending(t: float, alpha: float, kind: str) -> float:
    """Cumulative alpha spent by information fraction t (Lan-DeMets)."""
    t = min(max(t, 0.0), 1.0)
    if t <= 0:
        return 0.0
    if kind == "pocock":
        return alpha * math.log(1 + (math.e - 1) * t)
    if kind == "obf":
        return 2 - 2 * phi(phi_inv(1 - alpha / 2) / math.sqrt(t))
    raise ValueError(f"unknown spending function {kind!r} (pocock, obf)")


def sequential_bounds(fractions: Sequence[float], alpha: float = 0.05, kind: str = "pocock",
                      grid: int = 801) -> list[float]:
    """Two-sided z boundaries at looks with information ``fractions`` (increasing, last 1),
    spending ``alpha`` by the Pocock-type (``pocock``) or O'Brien-Fleming-type (``obf``)
    Lan-DeMets function. Exact under the normal approximation: the density of the score
    process on the continuation region is carried from look to look on a grid (Armitage,
    McPherson and Rowe's recursion)."""
    import numpy as np

    fr = list(fractions)
    if not fr or any(b <= a for a, b in zip(fr, fr[1:], strict=False)) or fr[0] <= 0:
        raise ValueError("fractions must increase and be positive")
    def Phi(x: NDArray[np.float64]) -> NDArray[np.float64]:  # noqa: N802  (vectorised erfc, Numerical Recipes' erfcc: 1.2e-7)
        z = -np.asarray(x, dtype=float) / math.sqrt(2)
        a = np.abs(z)
        t = 1.0 / (1.0 + 0.5 * a)
        poly = -a * a - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (
            -0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
                -0.82215223 + t * 0.17087277))))))))
        r = t * np.exp(poly)
        return 0.5 * np.where(z >= 0, r, 2.0 - r)

    bounds: list[float] = []
    spent = 0.0
    xs: NDArray[np.float64] | None = None  # grid on the score S(t) = Z * sqrt(t), within the last continuation region
    dens: NDArray[np.float64] | None = None
    prev_t = 0.0
    for k, t in enumerate(fr):
        target = spending(t, alpha, kind) - spent
        if k == 0:
            c = phi_inv(1 - target / 2) if target > 0 else math.inf
            bounds.append(c)
            b = min(c, 40.0) * math.sqrt(t)
            xs = np.linspace(-b, b, grid)
            dens = np.exp(-xs**2 / (2 * t)) / math.sqrt(2 * math.pi * t)
        else:
            assert xs is not None and dens is not None  # (set at the first look)
            sig = math.sqrt(t - prev_t)
            dx = xs[1] - xs[0]
            wts = dens * dx
            wts[0] *= 0.5
            wts[-1] *= 0.5

            def cross(c: float, xs: NDArray[np.float64] = xs, wts: NDArray[np.float64] = wts, sig: float = sig,
                      t: float = t) -> float:
                b = c * math.sqrt(t)
                return float(np.sum(wts * (Phi((-b - xs) / sig) + 1 - Phi((b - xs) / sig))))

            if target <= 0:
                c = math.inf
            else:
                lo, hi = 0.0, 40.0
                for _ in range(60):
                    mid = (lo + hi) / 2
                    if cross(mid) > target:
                        lo = mid
                    else:
                        hi = mid
                c = hi
            bounds.append(c)
            b = min(c, 40.0) * math.sqrt(t)
            new_x = np.linspace(-b, b, grid)
            kern = np.exp(-((new_x[:, None] - xs[None, :]) ** 2) / (2 * sig**2)) / (sig * math.sqrt(2 * math.pi))
            dens = kern @ wts
            xs = new_x
        spent = spending(t, alpha, kind)
        prev_t = t
    return bounds


def paired(xs: Sequence[float], ys: Sequence[float], clusters: Sequence[Hashable] | None = None) -> Paired:
    """Mean of y - x over pairs, its 95% interval (t), standard error and z.

    ``clusters``: each pair's cluster (the seed it was played at), where pairs of one cluster
    may be correlated: the standard error is then the cluster-robust one (the clusters' summed
    deviations, with the ``C / (C - 1)`` correction for ``C`` clusters), never below the
    independent pairs' one, and the interval's t has ``C - 1`` degrees of freedom.
    ``design_effect`` is the squared ratio of the two standard errors (1 without clusters)."""
    d = [y - x for x, y in zip(xs, ys, strict=True)]
    n = len(d)
    if n == 0:
        return {"n": 0, "diff": None, "ci_low": None, "ci_high": None, "se": None, "z": None,
                "clusters": 0, "design_effect": 1.0}
    m = sum(d) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in d) / (n - 1)) if n > 1 else math.inf
    se = sd / math.sqrt(n)
    df, c, deff = n - 1, n, 1.0
    if clusters is not None:
        if len(clusters) != n:
            raise ValueError(f"paired: {len(clusters)} cluster labels for {n} pairs")
        sums: dict[Hashable, float] = {}
        for v, g in zip(d, clusters, strict=True):
            sums[g] = sums.get(g, 0.0) + (v - m)
        c = len(sums)
        if c > 1 and n > 1:
            se_c = math.sqrt(c / (c - 1) * sum(t * t for t in sums.values())) / n
            if se > 0 and se_c > se:
                deff = (se_c / se) ** 2
            se = max(se, se_c)
            df = c - 1
    h = t975(df) * se if n > 1 else math.inf
    if se == 0:
        z = 0.0 if m == 0 else math.copysign(math.inf, m)
    else:
        z = m / se
    return {"n": n, "diff": _r(m), "ci_low": _r(m - h), "ci_high": _r(m + h), "se": _r(se), "z": _r(z),
            "clusters": c, "design_effect": _r(deff, 3)}
