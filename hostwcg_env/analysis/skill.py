"""Balance across skill: the same decks, schedule and seeds played by agents of different
skill (``hostwcg balance skill``; ``docs/balance.md``, "Balance across skill").

A balance conclusion drawn from random play may say more about random play than about the
decks. Here one study is played per skill level (each agent in both seats), and the
conclusions are compared level by level:

* decks: each deck's win rate against the field with its 95% interval (clustered by seed) under each agent,
  and its verdict there: ``above`` (the interval lies above 50%), ``below``, or ``unclear``;
* cards: for each deck and card, the deck's win rate in games where the card was drawn minus
  in games where it was not (``iwd``, Newcombe's 95% interval), and its verdict (``helps``,
  ``hurts``, ``unclear``) under each agent;
* a conclusion ``holds`` across skill when every level gives the same clear verdict, is
  ``reversed`` when two levels give opposite clear verdicts, and otherwise ``depends`` (some
  level cannot tell);
* cards one level rarely plays (``unplayed``): played in under ``RARELY`` of the games where that
  level drew them, where another level plays them in ``OFTEN`` or more. That level's ``iwd`` of
  such a card is the effect of a card held, not played: its conclusion depends on the player;
* the first player: its win rate over all games at each level, its verdict against 50% and
  whether it lies in the fair band of 45-55% at every level (docs/rulings.md A56);
* the metagame (``metagame.py``): each deck's share of the Nash equilibrium of deck choice at
  each level, and whether "never played" (or "played") holds at every level;
* Spearman's rank correlation between each two levels, over the decks' win rates and over the
  cards' ``iwd``, with an approximate 95% interval (Fisher's z, standard error
  sqrt(1.06 / (n - 3)), Fieller, Hartley and Pearson 1957).

The tables are built from each study's balance tables (``stats.compute_tables``), so a level's
numbers are the ones its own balance report shows.
"""

from __future__ import annotations

import csv
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .stats import Cell, Row, Z, num, num_or_none, text

if TYPE_CHECKING:
    from .records import Record, RuleValue
    from .simulate import BalanceResult, DeckItem

K = TypeVar("K", str, tuple[str, str])  # a deck, or a (deck, card)

Tables = Mapping[str, Sequence[Row]]  # one level's balance tables (stats.compute_tables)
RARELY = 0.10  # a level rarely plays a card it plays in under 10% of the games where it drew it ...
OFTEN = 0.30  # ... where another level plays it in 30% or more of them


def verdict(low: float | None, high: float | None, line: float, words: tuple[str, str] = ("above", "below")) -> str:
    """``words[0]`` when the interval lies above ``line``, ``words[1]`` when below, else unclear."""
    if low is None or high is None:
        return "unclear"
    if low > line:
        return words[0]
    if high < line:
        return words[1]
    return "unclear"


def agreement(verdicts: Sequence[str]) -> str:
    """``holds`` (every level gives the same clear verdict), ``reversed`` (two levels give
    opposite clear verdicts) or ``depends``."""
    clear = {v for v in verdicts if v != "unclear"}
    if len(clear) > 1:
        return "reversed"
    if clear and all(v != "unclear" for v in verdicts):
        return "holds"
    return "depends"


def ranks(xs: Sequence[float]) -> list[float]:
    """Ranks from 1, ties given their mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float]:
    """Spearman's rho of paired values with an approximate 95% interval (Fisher's z with
    standard error sqrt(1.06 / (n - 3))); nan where it is not defined (fewer than 4 pairs for
    the interval, 2 for rho, or a constant side)."""
    if len(xs) != len(ys):
        raise ValueError(f"spearman: {len(xs)} values against {len(ys)}")
    n = len(xs)
    if n < 2:
        return math.nan, math.nan, math.nan
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return math.nan, math.nan, math.nan
    rho = sxy / math.sqrt(sxx * syy)
    if n < 4:
        return rho, math.nan, math.nan
    z = math.atanh(max(-0.999999, min(0.999999, rho)))
    se = math.sqrt(1.06 / (n - 3))
    return rho, math.tanh(z - Z * se), math.tanh(z + Z * se)


def compare(tables: Mapping[str, Tables], condition: str = "drawn") -> dict[str, list[Row]]:
    """The skill tables from each level's balance tables (``{agent: compute_tables(...)}``, in
    skill order): ``decks``, ``cards`` (for the card ``condition``, drawn by default) and
    ``correlations``."""
    levels = list(tables)
    if len(levels) < 2:
        raise ValueError(f"balance across skill needs at least two agents (got {levels})")
    deck_rows: dict[str, Row] = {}
    deck_rate: dict[str, dict[str, float]] = {a: {} for a in levels}
    for a in levels:
        for r in tables[a]["decks"]:
            row = deck_rows.setdefault(text(r["deck"]), {"deck": r["deck"], "name": r.get("name", r["deck"])})
            row[f"{a}:games"] = r["games"]
            row[f"{a}:win_rate"] = r["win_rate"]
            row[f"{a}:ci_low"] = r["ci_low"]
            row[f"{a}:ci_high"] = r["ci_high"]
            row[f"{a}:verdict"] = verdict(num_or_none(r["ci_low"]), num_or_none(r["ci_high"]), 0.5)
            if r["win_rate"] is not None:
                deck_rate[a][text(r["deck"])] = num(r["win_rate"])
    for row in deck_rows.values():
        row["across_skill"] = agreement([text(row.get(f"{a}:verdict", "unclear")) for a in levels])
    card_rows: dict[tuple[str, str], Row] = {}
    card_iwd: dict[str, dict[tuple[str, str], float]] = {a: {} for a in levels}
    for a in levels:
        for r in tables[a]["cards"]:
            if r["condition"] != condition:
                continue
            key = (text(r["deck"]), text(r["card"]))
            row = card_rows.setdefault(key, {"deck": r["deck"], "card": r["card"], "condition": condition})
            row[f"{a}:iwd"] = r.get("iwd")
            row[f"{a}:iwd_low"] = r.get("iwd_low")
            row[f"{a}:iwd_high"] = r.get("iwd_high")
            row[f"{a}:verdict"] = verdict(num_or_none(r.get("iwd_low")), num_or_none(r.get("iwd_high")), 0.0,
                                          ("helps", "hurts"))
            if r.get("iwd") is not None:
                card_iwd[a][key] = num(r["iwd"])
    for row in card_rows.values():
        row["across_skill"] = agreement([text(row.get(f"{a}:verdict", "unclear")) for a in levels])
    for a in levels:
        for key, rate in play_rates(tables[a]).items():
            if key in card_rows:
                card_rows[key][f"{a}:plays"] = rate
    corr: list[Row] = []
    for a, b in combinations(levels, 2):
        for what, (n, rho, lo, hi) in (("decks: win rate", _paired_rho(deck_rate[a], deck_rate[b])),
                                       (f"cards: iwd ({condition})", _paired_rho(card_iwd[a], card_iwd[b]))):
            corr.append({"a": a, "b": b, "over": what, "n": n, "rho": _nan_none(rho),
                         "rho_low": _nan_none(lo), "rho_high": _nan_none(hi)})
    return {"decks": list(deck_rows.values()), "cards": list(card_rows.values()), "correlations": corr,
            "first_player": first_player_rows(tables, levels), "metagame": metagame_rows(tables, levels),
            "unplayed": unplayed_rows(list(card_rows.values()), levels)}


def play_rates(tables: Tables) -> dict[tuple[str, str], float]:
    """Each (deck, card)'s share of the games where it was drawn in which it was also played (the
    cards table's ``played`` share over its ``drawn`` share, at most 1: a card searched into the
    hand is played without being drawn); cards never drawn are left out."""
    shares: dict[tuple[str, str], dict[str, float]] = {}
    for r in tables["cards"]:
        if r["condition"] in ("drawn", "played") and r.get("share") is not None:
            shares.setdefault((text(r["deck"]), text(r["card"])), {})[text(r["condition"])] = num(r["share"])
    return {k: round(min(1.0, v.get("played", 0.0) / v["drawn"]), 4) for k, v in shares.items() if v.get("drawn")}


def record_play_rates(records: Iterable[Record], agent: str | None = None) -> dict[tuple[str, str], tuple[float, int]]:
    """Each (deck, card)'s play rate in these games, as ``play_rates`` gives it from a study's
    tables, and the number of games it was drawn in; only the sides ``agent`` played (every side
    when None). For games that are not a balance study's (a ladder's, a training run's)."""
    from collections import Counter

    drawn: Counter[tuple[str, str]] = Counter()
    played: Counter[tuple[str, str]] = Counter()
    for r in records:
        sides = r["cards"]
        if sides is None:  # a record kept without its cards
            continue
        for seat, (deck, who) in enumerate(zip(r["decks"], r["agents"], strict=True)):
            if agent is not None and who != agent:
                continue
            c = sides[seat]
            did = set(c["played"])
            for card in set(c["opening"]) | set(c["drawn"]):
                drawn[(deck["id"], card)] += 1
                played[(deck["id"], card)] += card in did
    return {k: (round(min(1.0, played[k] / n), 4), n) for k, n in drawn.items()}


def rarely_played(rate: float, others: Iterable[float]) -> bool:
    """A card played at ``rate`` (of the games where it was drawn) is rarely played when that is
    under ``RARELY`` while another player plays it in ``OFTEN`` or more of them."""
    return rate < RARELY and max(others, default=0.0) >= OFTEN


def unplayed_rows(cards: Sequence[Row], levels: Sequence[str]) -> list[Row]:
    """The cards some level plays in under ``RARELY`` of the games where it drew them while another
    plays them in ``OFTEN`` or more (``rarely_by``: those levels, comma-separated)."""
    rows = []
    for r in cards:
        rates = {a: num(r[f"{a}:plays"]) for a in levels if r.get(f"{a}:plays") is not None}
        rare = [a for a, x in rates.items() if rarely_played(x, (y for b, y in rates.items() if b != a))]
        if rare:
            rows.append({"deck": r["deck"], "card": r["card"], **{f"{a}:plays": x for a, x in rates.items()},
                         "rarely_by": ",".join(rare)})
    return rows


def first_player_rows(tables: Mapping[str, Tables], levels: Sequence[str]) -> list[Row]:
    """The first player's win rate over all games at each level: its verdict against 50%, whether
    it lies in the fair band of 45-55% (the report's flag, docs/rulings.md A56), and the
    conclusion across skill."""
    row: Row = {"scope": "all"}
    bands = []
    for a in levels:
        fp = next((r for r in tables[a].get("first_player", []) if r.get("scope") == "all"), None)
        if fp is None or not fp.get("games"):
            continue
        row[f"{a}:win_rate"], row[f"{a}:ci_low"], row[f"{a}:ci_high"] = fp["win_rate"], fp["ci_low"], fp["ci_high"]
        row[f"{a}:verdict"] = verdict(num_or_none(fp["ci_low"]), num_or_none(fp["ci_high"]), 0.5,
                                      ("first favoured", "second favoured"))
        row[f"{a}:in_band"] = bool(0.45 <= num(fp["win_rate"]) <= 0.55)
        bands.append(row[f"{a}:in_band"])
    if not bands:
        return []
    row["across_skill"] = agreement([text(row.get(f"{a}:verdict", "unclear")) for a in levels])
    row["in_band_at_every_level"] = bool(bands) and all(bands)
    return [row]


def metagame_rows(tables: Mapping[str, Tables], levels: Sequence[str]) -> list[Row]:
    """Each deck's share of the metagame's Nash equilibrium (metagame.py) at each level, and
    whether "never played at equilibrium" (or "played") holds across skill. [] when a level has
    no metagame (nashpy not installed, or a pair of decks never met)."""
    if not all(tables[a].get("metagame") for a in levels):
        return []
    rows: dict[str, Row] = {}
    for a in levels:
        for r in tables[a]["metagame"]:
            row = rows.setdefault(text(r["deck"]), {"deck": r["deck"]})
            row[f"{a}:nash_share"] = r["nash_share"]
            row[f"{a}:verdict"] = "never" if r["never"] else "played"
    for row in rows.values():
        v = {row.get(f"{a}:verdict") for a in levels}
        row["across_skill"] = f"{v.pop()} at every level" if len(v) == 1 else "depends"
    return list(rows.values())


def _paired_rho(x: Mapping[K, float], y: Mapping[K, float]) -> tuple[int, float, float, float]:
    """Spearman's rho over the keys both sides have, and their number."""
    keys: list[K] = sorted(set(x) & set(y))
    return (len(keys), *spearman([x[k] for k in keys], [y[k] for k in keys]))


def _nan_none(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


def _pct(x: Cell) -> str:
    return "-" if x is None else f"{100 * num(x):.1f}%"


def markdown(skill: Mapping[str, list[Row]], levels: Sequence[str], max_cards: int = 30) -> str:
    """The skill tables as markdown: decks in full; the cards whose conclusion holds or is
    reversed across skill (at most ``max_cards`` of each); every correlation."""
    out = ["## Decks: win rate against the field (95% interval) and verdict at each skill level", ""]
    out.append("| deck | " + " | ".join(levels) + " | across skill |")
    out.append("|---|" + "---|" * len(levels) + "---|")
    for r in skill["decks"]:
        cells = [f"{_pct(r.get(f'{a}:win_rate'))} ({_pct(r.get(f'{a}:ci_low'))} - {_pct(r.get(f'{a}:ci_high'))}) "
                 f"{r.get(f'{a}:verdict', 'unclear')}" for a in levels]
        out.append(f"| {r['name']} | " + " | ".join(cells) + f" | {r['across_skill']} |")
    out += ["", "## Rank correlation between skill levels (Spearman, approximate 95% interval)", "",
            "| a | b | over | n | rho | 95% interval |", "|---|---|---|---:|---:|---|"]
    for c in skill["correlations"]:
        rho = "-" if c["rho"] is None else f"{c['rho']:.2f}"
        ci = "-" if c["rho_low"] is None else f"{c['rho_low']:.2f} - {c['rho_high']:.2f}"
        out.append(f"| {c['a']} | {c['b']} | {c['over']} | {c['n']} | {rho} | {ci} |")
    for kind in ("holds", "reversed"):
        rows = [r for r in skill["cards"] if r["across_skill"] == kind]
        out += ["", f"## Cards whose effect {'holds' if kind == 'holds' else 'is reversed'} across skill "
                f"({len(rows)}; win rate when drawn minus when not, 95% interval)", ""]
        if not rows:
            out.append("none")
            continue
        out.append("| deck | card | " + " | ".join(levels) + " |")
        out.append("|---|---|" + "---|" * len(levels))
        for r in rows[:max_cards]:
            cells = [f"{_pct(r.get(f'{a}:iwd'))} ({_pct(r.get(f'{a}:iwd_low'))} - {_pct(r.get(f'{a}:iwd_high'))})"
                     for a in levels]
            out.append(f"| {r['deck']} | {r['card']} | " + " | ".join(cells) + " |")
    unplayed = skill.get("unplayed", [])
    if unplayed:
        by = {a: sum(a in text(r["rarely_by"]).split(",") for r in unplayed) for a in levels}
        out += ["", f"## Cards one level rarely plays ({len(unplayed)}; share of the games where the card "
                f"was drawn in which it was played)", "",
                "Played in under " + f"{100 * RARELY:.0f}% of those games at one level and in {100 * OFTEN:.0f}% "
                "or more at another: " + ", ".join(f"{n} by {a}" for a, n in by.items() if n)
                + ". The effect of such a card at the level that holds it unplayed says how that player uses "
                "it, not what the card does.", "",
                "| deck | card | " + " | ".join(levels) + " |", "|---|---|" + "---|" * len(levels)]
        for r in unplayed[:max_cards]:
            out.append(f"| {r['deck']} | {r['card']} | " + " | ".join(_pct(r.get(f"{a}:plays")) for a in levels)
                       + " |")
        if len(unplayed) > max_cards:
            out.append(f"| ... | {len(unplayed) - max_cards} more in skill_unplayed.csv | "
                       + " | ".join("" for _ in levels) + " |")
    for r in skill.get("first_player", []):
        cells = [f"{_pct(r.get(f'{a}:win_rate'))} ({_pct(r.get(f'{a}:ci_low'))} - {_pct(r.get(f'{a}:ci_high'))}) "
                 f"{r.get(f'{a}:verdict', 'unclear')}" for a in levels]
        out += ["", "## The first player's win rate at each skill level", "",
                "| | " + " | ".join(levels) + " | across skill |", "|---|" + "---|" * len(levels) + "---|",
                "| first player | " + " | ".join(cells) + f" | {r['across_skill']} |", "",
                "Within the fair band of 45-55% at every level: " + ("yes" if r["in_band_at_every_level"] else
                "no (the first-turn house rules, docs/rulings.md A56, compensate)")]
    if skill.get("metagame"):
        out += ["", "## Metagame: each deck's share of the Nash equilibrium of deck choice", "",
                "| deck | " + " | ".join(levels) + " | across skill |", "|---|" + "---|" * len(levels) + "---|"]
        for r in skill["metagame"]:
            out.append(f"| {r['deck']} | " + " | ".join(_pct(r.get(f"{a}:nash_share")) for a in levels)
                       + f" | {r['across_skill']} |")
    counts = {k: sum(r["across_skill"] == k for r in skill["decks"]) for k in ("holds", "reversed", "depends")}
    ccounts = {k: sum(r["across_skill"] == k for r in skill["cards"]) for k in ("holds", "reversed", "depends")}
    out += ["", f"Decks: {counts['holds']} conclusions hold across skill, {counts['reversed']} are reversed, "
            f"{counts['depends']} depend on the level. Cards: {ccounts['holds']} hold, {ccounts['reversed']} "
            f"reversed, {ccounts['depends']} depend.", ""]
    return "\n".join(out)


def folder(agent: str) -> str:
    """The sub-folder of a skill study that holds one level's study."""
    return "".join(c if c.isalnum() or c in "_.=-" else "_" for c in agent)


def run_skill(levels: Sequence[str], out: str | Path, decks: Iterable[DeckItem] | None = None, games: int = 100,
              seed: int = 0, rules: Iterable[str] | Mapping[str, RuleValue] | None = None, mirrors: bool = False,
              include_test: bool = False, max_width: float = 0.2,
              workers: int | None = None, quiet: bool = False, stop_after: int | None = None,
              fresh: bool = False) -> tuple[dict[str, BalanceResult], dict[str, list[Row]]]:
    """Play (or resume) one balance study per agent in ``levels`` (the same decks, games and
    seeds; the agent in both seats) under ``out/<agent>``, then compare them: the studies'
    results by agent and the skill tables (``compare``). Written to ``out``: ``skill.md`` and
    ``skill_decks.csv``, ``skill_cards.csv``, ``skill_correlations.csv``, ``skill_unplayed.csv``
    (and the first player's and the metagame's)."""
    from .simulate import Study, run_study

    if len(levels) < 2 or len(set(levels)) != len(levels):
        raise ValueError(f"balance skill: give two or more different agents (got {', '.join(levels)})")
    studies = {a: Study.make(decks=decks, games=games, agents=a, rules=rules, seed=seed, mirrors=mirrors,
                             include_test=include_test, max_width=max_width) for a in levels}
    out = Path(out)
    results = {}
    for a, study in studies.items():
        if not quiet:
            print(f"skill level {a}: {study.describe()}", file=sys.stderr)
        results[a] = run_study(study, out=out / folder(a), workers=workers, quiet=quiet,
                               stop_after=stop_after, fresh=fresh)
    played = [a for a in levels if results[a].records]
    if len(played) < 2:
        raise ValueError(f"balance skill: games of at least two levels are needed, {len(played)} "
                         f"has some in {out}: run the same command again to go on")
    skill = compare({a: results[a].tables for a in played})
    (out / "skill.md").write_text(markdown(skill, played))
    for name, rows in skill.items():
        keys = list(dict.fromkeys(k for r in rows for k in r))
        with open(out / f"skill_{name}.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys)
            w.writeheader()
            w.writerows(rows)
    return results, skill
