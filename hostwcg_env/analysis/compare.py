"""A/B comparison of two rule configurations on the same games.

Both configurations play the same schedule (same decks, seats, seeds and agent seeds), so each
game key gives a pair of results. Game-level statistics (first-player win rate, each matchup,
each deck and Host against the field, game length, decisions, draws, how games end) are
compared by the mean paired difference B - A with a t interval, clustered by seed (the pairs of
one seed share its deal across deck pairs, so the standard error is the cluster-robust one,
``stats.paired``); per-card win rates, whose games differ between the configurations, by
Newcombe's interval for independent proportions.

With a :class:`SequentialPlan` the games are played in groups (``look_every`` paired games)
and after each group a two-sided group-sequential test on one primary metric decides whether
to stop: its z statistic is compared with boundaries from a Lan-DeMets alpha-spending function
(Pocock-type by default; O'Brien-Fleming-type on request), which keep the overall type I error
at ``alpha`` however many looks are taken; ``min_games`` drops the looks before that many paired
games, so a test stops no earlier (the boundaries are spent over the looks left). The intervals
in the difference table are the usual fixed-sample ones (not adjusted for stopping early or for
the number of statistics).

A game that is the same in both configurations (the same decks' lists, rules, patches, agents
and seeds: a deck pair that no ``--swap`` touches, where no patch or rule differs) is played once
and its record kept for both, with B's label: the same seed plays the same game, so playing it
twice would add time and not information. A what-if that swaps one deck of eight plays 28 pairs
for A and only that deck's 7 for B.

Folder layout: ``OUT/A`` and ``OUT/B`` are ordinary (resumable) studies; ``OUT/compare.csv``,
``OUT/compare_looks.csv`` and ``OUT/compare.html`` hold the comparison.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .recordfile import ShardWriter
from .records import Record, known, record_key
from .simulate import BalanceResult, Progress, Study, execute, load_done, prepare_out
from .stats import CONDITIONS, Row, game_seed, newcombe, num, paired, result_for, sequential_bounds, text

if TYPE_CHECKING:
    import pandas as pd

    from .backends import Backend
    from .records import DeckRef
    from .report import CompareMeta, Written
    from .runner import GameSpec

METRICS = ("first_player", "seat_a", "draws", "turns", "decisions", "deck:ID", "matchup:ID:ID")


@dataclass
class SequentialPlan:
    metric: str = "first_player"
    look_every: int = 50  # paired games (one in each configuration) between looks
    alpha: float = 0.05
    spending: str = "pocock"  # pocock | obf
    min_games: int = 0  # no look before this many paired games (the last look is always taken)


# ============================================================================ metrics


def _deck_seat(rec: Record, deck: str) -> int | None:
    a, b = rec["decks"][0]["id"], rec["decks"][1]["id"]
    if a == b:
        return None
    return 0 if a == deck else 1 if b == deck else None


def metric(name: str) -> tuple[Callable[[GameSpec], bool], Callable[[Record], float | None], bool]:
    """(applies to a GameSpec, value of a record, is a rate) for a metric name."""
    if name == "first_player":
        return (lambda s: True), (lambda r: result_for(r, r["first_player"])), True
    if name == "seat_a":
        return (lambda s: True), (lambda r: result_for(r, 0)), True
    if name == "draws":
        return (lambda s: True), (lambda r: float(r.get("winner") is None)), True
    if name in ("turns", "decisions"):
        return (lambda s: True), (lambda r: float(r[name])), False
    if name.startswith("deck:"):
        d = name[5:]

        def dv(r: Record) -> float | None:
            s = _deck_seat(r, d)
            return None if s is None else result_for(r, s)

        return (lambda s: (s.deck_a.id == d) != (s.deck_b.id == d)), dv, True
    if name.startswith("matchup:"):
        x, _, y = name[8:].partition(":")

        def mv(r: Record) -> float | None:
            ids = (r["decks"][0]["id"], r["decks"][1]["id"])
            if set(ids) != {x, y} or x == y:
                return None
            return result_for(r, ids.index(x))

        return (lambda s: {s.deck_a.id, s.deck_b.id} == {x, y}), mv, True
    raise ValueError(f"unknown metric {name!r} (one of: {', '.join(METRICS)})")


def _pairs(ra: Sequence[Record], rb: Sequence[Record],
           fn: Callable[[Record], float | None]) -> tuple[list[float], list[float], list[int]]:
    """A's and B's values of ``fn`` over the games both have, and each game's seed (its
    cluster: one seed deals every deck pair alike, so pairs of one seed may be correlated)."""
    xs, ys, seeds = [], [], []
    for a, b in zip(ra, rb, strict=True):
        x, y = fn(a), fn(b)
        if x is not None and y is not None:
            xs.append(x)
            ys.append(y)
            seeds.append(game_seed(a))
    return xs, ys, seeds


# ============================================================================ the table


def diff_rows(ra: Sequence[Record], rb: Sequence[Record], decks: Sequence[DeckRef],
              max_width: float = 0.2) -> list[Row]:
    """The difference B - A of every statistic: paired over the games both played (``ra[i]``
    and ``rb[i]`` are the same game key), per-card ones unpaired."""
    rows: list[Row] = []

    def add(table: str, stat: str, scope: str, fn: Callable[[Record], float | None], rate: bool) -> None:
        xs, ys, seeds = _pairs(ra, rb, fn)
        if not xs:
            return
        p = paired(xs, ys, seeds)
        lo, hi = p["ci_low"], p["ci_high"]
        assert lo is not None and hi is not None  # (some pairs)
        va, vb = sum(xs) / len(xs), sum(ys) / len(ys)
        width = (hi - lo) if len(xs) > 1 else math.inf
        wide = width > (max_width if rate else max_width * abs(va))
        rows.append({"table": table, "stat": stat, "scope": scope, "n": p["n"], "value_a": round(va, 6),
                     "value_b": round(vb, 6), "diff": p["diff"], "ci_low": p["ci_low"], "ci_high": p["ci_high"],
                     "paired": True, "significant": bool(len(xs) > 1 and (lo > 0 or hi < 0)),
                     "too_wide": bool(wide), "seeds": p["clusters"], "design_effect": p["design_effect"]})

    for name, label in (("first_player", "first player's win rate"), ("seat_a", "seat A's win rate"),
                        ("draws", "draw rate"), ("turns", "mean turns"), ("decisions", "mean decisions")):
        _, fn, rate = metric(name)
        add("game", name, label, fn, rate)
    reasons = sorted({known(r["reason"], r, "reason") for r in [*ra, *rb]})
    for reason in reasons:
        def ends_by(r: Record, reason: str = reason) -> float | None:
            return float(r["reason"] == reason)

        add("game", f"reason:{reason}", f"share of games ending by {reason}", ends_by, True)
    ids = [d.id for d in decks]
    for i, x in enumerate(ids):
        for y in ids[i + 1 :]:
            _, fn, _ = metric(f"matchup:{x}:{y}")
            add("matchup", "win_rate", f"{x} vs {y}", fn, True)
    for x in ids:
        _, fn, _ = metric(f"deck:{x}")
        add("deck", "win_rate", x, fn, True)
    hosts: dict[str, list[str]] = {}
    for d in decks:
        hosts.setdefault(d.host, []).append(d.id)
    for h, ds in hosts.items():
        def hv(r: Record, ds: list[str] = ds) -> float | None:
            for d in ds:
                s = _deck_seat(r, d)
                if s is not None and r["decks"][1 - s]["id"] not in ds:
                    return result_for(r, s)
            return None

        add("host", "win_rate", h, hv, True)
    rows += card_diffs(ra, rb, decks, max_width)
    return rows


def card_diffs(ra: Sequence[Record], rb: Sequence[Record], decks: Sequence[DeckRef],
               max_width: float) -> list[Row]:
    from .stats import compute_tables

    order = [d.id for d in decks]
    ca = {(r["deck"], r["card"], r["condition"]): r for r in compute_tables(ra, order, max_width)["cards"]}
    cb = {(r["deck"], r["card"], r["condition"]): r for r in compute_tables(rb, order, max_width)["cards"]}
    rows: list[Row] = []
    for k, a in ca.items():
        b = cb.get(k)
        if b is None or not a["games"] or not b["games"]:
            continue
        d, lo, hi = newcombe(num(b["wins"]), int(num(b["games"])), num(a["wins"]), int(num(a["games"])))
        rows.append({"table": "card", "stat": f"win_rate:{k[2]}", "scope": f"{k[0]}: {k[1]}",
                     "n": min(a["games"], b["games"]), "value_a": a["win_rate"], "value_b": b["win_rate"],
                     "diff": round(d, 6), "ci_low": round(lo, 6), "ci_high": round(hi, 6), "paired": False,
                     "significant": bool(lo > 0 or hi < 0), "too_wide": bool(hi - lo > max_width)})
    rank = {c: i for i, c in enumerate(CONDITIONS)}
    rows.sort(key=lambda r: (rank[text(r["stat"]).split(":")[1]],))
    return rows


# ============================================================================ running


@dataclass
class CompareResult:
    a: BalanceResult
    b: BalanceResult
    diffs: list[Row]
    looks: list[Row] = field(default_factory=list)
    decision: str = ""
    out: Path | None = None
    plan: SequentialPlan | None = None
    seconds: float = 0.0

    def frames(self) -> dict[str, pd.DataFrame]:
        from .report import to_frames

        return to_frames({"compare": self.diffs, "looks": self.looks})

    def meta(self) -> CompareMeta:
        ra, rb = self.a.study.rules, self.b.study.rules
        changed = {k: v for k, v in rb.items() if ra.get(k) != v}
        return {"a": self.a.study.describe(), "b": self.b.study.describe(), "changed": changed,
                "pairs": len(self.a.records), "decision": self.decision, "seconds": round(self.seconds, 1),
                "max_width": self.a.study.max_width}

    def write_report(self, out: str | Path | None = None, plots: bool = True) -> Written:
        from .report import write_compare

        folder = Path(out) if out is not None else self.out
        if folder is None:
            raise ValueError("write_report: give an output folder")
        ra = self.a.write_report(folder / "A", plots=plots, title="Balance report: configuration A")
        rb = self.b.write_report(folder / "B", plots=plots, title="Balance report: configuration B")
        rc = write_compare(self, folder, plots=plots)
        return {"files": ra["files"] + rb["files"] + rc["files"], "notes": sorted(set(ra["notes"] + rc["notes"])),
                "report": rc["report"]}

    def summary(self, rows: int = 12) -> str:
        m = self.meta()
        changed = ", ".join(f"{k}={v}" for k, v in m["changed"].items()) or "(nothing)"
        lines = [f"A: {m['a']}", f"B: changes {changed}", f"{m['pairs']} paired games"]
        if self.decision:
            lines.append(self.decision)
        lines.append("")
        lines.append(f"{'statistic':44} {'A':>8} {'B':>8} {'B - A':>8}  95% CI")
        shown = [r for r in self.diffs if r["table"] == "game"]
        shown += [r for r in self.diffs if r["table"] != "game" and r["significant"]][:rows]
        for r in shown:
            rate = r["stat"] not in ("turns", "decisions")
            f = (lambda v: f"{100 * v:7.1f}%") if rate else (lambda v: f"{v:8.1f}")
            lo = "" if r["ci_low"] is None else f"[{f(r['ci_low']).strip()}, {f(r['ci_high']).strip()}]"
            flag = " *" if r["significant"] else ""
            flag += " (too wide)" if r["too_wide"] else ""
            label = f"{r['table']} {r['scope']}" + (f" {r['stat']}" if r["table"] == "card" else "")
            lines.append(f"{label[:44]:44} {f(r['value_a'])} {f(r['value_b'])} {f(r['diff'])}  {lo}{flag}")
        n_sig = sum(1 for r in self.diffs if r["significant"])
        lines.append(f"\n* interval excludes 0 ({n_sig} of {len(self.diffs)} statistics; not adjusted "
                     "for multiplicity)")
        return "\n".join(lines)


def run_compare(study_a: Study, study_b: Study, out: str | Path | None = None, backend: str | Backend = "local",
                workers: int | None = None, address: str | None = None, quiet: bool = False,
                sequential: SequentialPlan | None = None, stop_after: int | None = None,
                fresh: bool = False) -> CompareResult:
    """Play ``study_a`` and ``study_b`` (the same schedule, other rules) and compare them."""
    from .backends import make_backend, sigterm_unwinds

    t0 = time.time()
    study_a = replace(study_a, label="A")  # (not Study(**__dict__): a study keeps caches there)
    study_b = replace(study_b, label="B")
    specs_a, specs_b = study_a.specs(), study_b.specs()
    if [s.key for s in specs_a] != [s.key for s in specs_b]:
        raise ValueError("compare: both configurations must have the same decks, games and seed")
    folder = Path(out) if out is not None else None
    if folder is not None:
        prepare_out(study_a, folder / "A", fresh=fresh)
        prepare_out(study_b, folder / "B", fresh=fresh)
    done: dict[str, dict[str, Record]] = {
        "A": load_done(study_a, folder / "A" if folder else None),
        "B": load_done(study_b, folder / "B" if folder else None)}
    n = len(specs_a)
    looks_at = [n]
    bounds: list[float] = []
    applies: Callable[[GameSpec], bool] = lambda s: True  # noqa: E731
    value: Callable[[Record], float | None] = lambda r: None  # noqa: E731
    if sequential is not None:
        applies, value, _ = metric(sequential.metric)
        k = max(1, sequential.look_every)
        looks_at = [u for u in range(k, n, k) if u >= sequential.min_games] + [n]
        total_app = sum(1 for s in specs_a if applies(s))
        if total_app == 0:
            raise ValueError(f"metric {sequential.metric!r} applies to no game of this study")
        fr = [sum(1 for s in specs_a[:u] if applies(s)) / total_app for u in looks_at]
        keep = [i for i, f in enumerate(fr) if f > 0 and (i == 0 or f > fr[i - 1])]
        looks_at = [looks_at[i] for i in keep]
        bounds = sequential_bounds([fr[i] for i in keep], sequential.alpha, sequential.spending)
    writers: dict[str, ShardWriter | None] = {
        lab: (ShardWriter(folder / lab / "shards", prefix=lab) if folder else None) for lab in ("A", "B")}
    be, own = (make_backend(backend, workers=workers, address=address), True) if isinstance(backend, str) \
        else (backend, False)
    same = {sb.key for sa, sb in zip(specs_a, specs_b, strict=True) if replace(sb, label=sa.label) == sa}

    def arrived(rec: Record) -> None:
        """A record as it arrives; an A game that B shares is B's record too (label B)."""
        k = record_key(rec)
        done[rec["label"]][k] = rec
        if rec["label"] == "A" and k in same and k not in done["B"]:
            twin = rec.copy()
            twin["label"] = "B"
            done["B"][k] = twin
            if writers["B"] is not None:
                writers["B"].write(twin)
            if bar is not None:
                bar.update()

    looks: list[Row] = []
    decision = ""
    stop = n
    played = 0
    bar = None
    unwinds = contextlib.ExitStack()
    unwinds.enter_context(sigterm_unwinds())  # SIGTERM closes the shards and the pool (backends.py)
    try:
        bar = Progress(2 * n,
                       sum(1 for s in specs_a if s.key in done["A"]) + sum(1 for s in specs_b if s.key in done["B"]),
                       quiet=quiet)
        for key in same:  # shared games whose A record was kept before B's (a study stopped between them)
            if key in done["A"] and key not in done["B"]:
                arrived(done["A"][key])
        for li, upto in enumerate(looks_at):
            todo = []
            for sa, sb in zip(specs_a[:upto], specs_b[:upto], strict=True):
                if sa.key not in done["A"]:
                    todo.append(sa)
                if sb.key not in done["B"] and sb.key not in same:
                    todo.append(sb)
            if stop_after is not None:
                todo = todo[: max(0, stop_after - played)]
            if todo:
                played += execute(todo, writers, be, bar, sink=arrived)
            if stop_after is not None and played >= stop_after and any(
                    s.key not in done["A"] or s2.key not in done["B"]
                    for s, s2 in zip(specs_a[:upto], specs_b[:upto], strict=True)):
                stop = upto
                decision = f"stopped after {played} new games (--stop-after); run again to resume"
                break
            if sequential is None:
                continue
            ra = [done["A"][s.key] for s in specs_a[:upto]]
            rb = [done["B"][s.key] for s in specs_b[:upto]]
            xs, ys, seeds = _pairs(ra, rb, value)
            p = paired(xs, ys, seeds)
            z = p["z"] if p["z"] is not None else 0.0
            crossed = abs(z) >= bounds[li]
            looks.append({"look": li + 1, "games": upto, "n": p["n"], "value_a": _mean(xs), "value_b": _mean(ys),
                          "diff": p["diff"], "se": p["se"], "z": z, "bound": round(bounds[li], 4), "crossed": crossed,
                          "seeds": p["clusters"], "design_effect": p["design_effect"]})
            if crossed or li == len(looks_at) - 1:
                stop = upto
                m = sequential.metric
                if crossed:
                    decision = (f"sequential test on {m}: stopped at look {li + 1} of {len(looks_at)} after {upto} "
                                f"paired games: B differs from A (B - A = {p['diff']:+.4g}, |z| = {abs(z):.2f} >= "
                                f"{bounds[li]:.2f}; two-sided alpha {sequential.alpha}, "
                                f"{sequential.spending} spending)")
                else:
                    decision = (f"sequential test on {m}: all {len(looks_at)} looks ({upto} paired games) without "
                                f"crossing: no difference shown at alpha {sequential.alpha} (final |z| = {abs(z):.2f} "
                                f"< {bounds[li]:.2f}; B - A = {p['diff'] if p['diff'] is not None else 0:+.4g})")
                break
    finally:
        if bar is not None:
            bar.close()
        for w in writers.values():
            if w is not None:
                w.close()
        if own:
            be.close()
        unwinds.close()
    keys = [s.key for s in specs_a[:stop] if s.key in done["A"] and s.key in done["B"]]
    ra = [done["A"][k] for k in keys]
    rb = [done["B"][k] for k in keys]
    secs = time.time() - t0
    res_a = BalanceResult(study_a, ra, secs, folder / "A" if folder else None)
    res_b = BalanceResult(study_b, rb, secs, folder / "B" if folder else None)
    diffs = diff_rows(ra, rb, study_a.decks, study_a.max_width)
    return CompareResult(res_a, res_b, diffs, looks, decision, folder, sequential, secs)


def _mean(xs: Sequence[float]) -> float | None:
    return round(sum(xs) / len(xs), 6) if xs else None
