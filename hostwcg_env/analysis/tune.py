"""``hostwcg balance tune``: deck-list changes that move every deck toward a target band
(docs/balance.md, "Decks that tune themselves").

Each round:

1. **Measure**: the current lists play an ordinary study (``OUT/round-R/measure/``) on the
   round's own seeds (``seed + R * ROUND_SEEDS``: a change is never judged on the games that
   suggested it). A deck whose win rate against the field lies outside the band is to move:
   down when above, up when below. With ``under`` (several agents, each in both seats), each
   agent plays its own measurement on the same seeds (``OUT/round-R/<agent>/measure/``); a deck
   is to move when it is outside under any of them, and a deck above the band under one agent
   and below it under another is *split* (reported): it is to move down under the one and up
   under the other, which only cards the agents value apart can do.
2. **Propose**: legal swaps (``-OUT +IN``, patches.py), ranked by per-card statistics of that
   measurement (each card's ``iwd`` times the way the deck is to move, averaged over the agents
   under which the deck is outside: ``proposals_for``): the card to take out
   is the deck's card whose ``iwd`` (the deck's win rate when it was drawn minus when not) most
   pushes the wrong way (the most helpful card of a deck that is too strong, the least helpful
   of a weak one); the card to put in is a card of the pool the deck can pay for (its cost uses
   only the Host's resource and generic symbols) with fewer than 4 copies in the deck, ranked by
   its mean ``iwd`` over the decks that play it (weakest first for a strong deck, strongest first
   for a weak one; cards no deck plays come last), and never a card that scores no better the
   wanted way than the card it replaces. A swap moves ``step_copies`` copies: one
   within ``STEP`` (4 points) of the band, one more for each further ``STEP`` (the deck's worst
   distance over the agents), at most the copies the deck holds of the card going out and may
   add of the card coming in. Swaps the deck rules refuse are skipped.
3. **Test**: each proposal, best first, plays a comparison against the current list on paired
   seeds, only the deck's own pairs (``Study.focus``), with a group-sequential test on the deck's
   win rate (compare.py: ``look_every`` paired games between looks, Pocock spending at
   ``alpha``), under each agent under which the deck is outside. The first proposal whose tests
   all stop with a change in the wanted direction, and leave the deck nearer the band than it was
   (``lands_nearer``: its rate plus the change, an estimate, no further outside on either side; a
   change that overshoots the band by more than the deck was outside is not adopted), is adopted;
   if none does, the deck stays as it is this round. Under several agents (``keep_inside``, on by
   default), a proposal that passes is then tested under each agent under which the deck is
   inside the band, and is not adopted when that test finds a change (it stops) that takes the
   deck out of the band there (``keeps_inside``): a swap that brings a deck in under one agent
   must not push it out under another. ``keep_inside_from`` (round 1 by default) lets a tune begun
   without these tests take them up from a later round, its earlier rounds deciding as before.
   With ``near_edge`` (off by default), a deck that is inside under an agent but within
   ``near_edge`` of the band's edge the wanted move pushes toward (``near_edge_ways``) is ranked
   for as a split deck: that agent's cards count the other way, so the proposals seek the cards
   the agents value apart instead of ones that would take the deck out there.
   With ``judge_games`` (off by default), a test that stops before that many paired games is
   played on, on the same games, as a test with no look before ``judge_games``
   (``SequentialPlan.min_games``), and the deck's move, landing and overshoot are judged there: a
   test that stops early has stopped where the noise ran its way, so its change is overstated.
   With ``partial`` (off by default), a proposal is adopted when it moves the deck the wanted way
   (landing nearer) under at least one agent where it is outside and the tests under the other
   agents where it is outside find no change (they run to the end without stopping): a split
   deck on both edges, which no swap moves both ways at once, comes in one agent at a time.
   With ``combine`` (off by default), when none of a deck's proposals is adopted, those whose
   tests found no change but whose estimates all pointed the wanted way (``pointed``), two or more,
   are made together (``combined``: one change, checked by the deck rules) and tested as one more
   proposal, in the same way, on games of their own (the round's seed plus ``COMBINED_SEEDS``: they
   were chosen on the round's games, whose noise would favour them): small changes no test of one
   swap can find may add up to one it can.
4. **Write**: the new lists go to ``OUT/round-R/decks/<id>.toml`` (never over a shipped or an
   earlier file), and the next round plays them as read back from there.

A tune continues elsewhere from a finished round's lists with ``start_round``: given round
R-1's ``decks/``, it plays from round R on, the same games and decisions as the tune that did
not stop (a round depends only on its lists, its seeds and the plan). Its report covers the
rounds it played.

It stops when every deck measures inside the band (under every agent) or after ``rounds``
rounds, and then measures the final lists once more. ``OUT/tune.md`` and ``OUT/tune.csv`` report
every round: each deck's rate under each agent, every proposal tested, its games, its change and
the decision; ``tune.md`` ends with each deck's changes from its starting list as one ``--swap``
text.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, TypeVar

from hostwcg_env.cards.decks import deck_changes, swap_text

from .compare import SequentialPlan, run_compare
from .records import DeckRef
from .simulate import Study, resolve_decks, run_study
from .stats import Cell, Row, num, text

if TYPE_CHECKING:
    from hostwcg_env.engine.carddef import CardDef

    from .simulate import BalanceResult

ROUND_SEEDS = 1_000_000  # round R plays seeds from seed + R * ROUND_SEEDS
DEFAULT_AGENTS = ("ppo_v1", "ppo_v1")  # without --agent: the strongest fast agent (docs/balance.md)
K = TypeVar("K")
STEP = 0.04  # a swap moves one more copy for each further 4 points a deck lies outside the band
COMBINED_SEEDS = ROUND_SEEDS // 2  # round R's swaps together play from seed + R * ROUND_SEEDS + this


@dataclass
class TunePlan:
    band: tuple[float, float] = (0.45, 0.55)
    rounds: int = 3
    candidates: int = 3  # proposals tested per deck and round, at most
    look_every: int = 20  # paired games between looks of a proposal's test
    alpha: float = 0.05
    under: tuple[str, ...] = ()  # agents the band must hold under, each in both seats; () = the study's agents
    keep_inside: bool = True  # under several agents: test a passing swap where the deck is inside, too
    keep_inside_from: int = 1  # ... from this round on (a tune begun without it resumes unchanged before it)
    near_edge: float = 0.0  # rank as split where the deck is inside but this near the edge it is pushed toward
    start_round: int = 1  # the round the given lists are in force at: a tune continued from round R-1's lists
    judge_games: int = 0  # a test that stops before this many paired games plays on to them before it is judged
    partial: bool = False  # enough to move the deck under one agent where it is outside, none found under the rest
    combine: bool = False  # none adopted: test together the swaps that pointed the wanted way, on games of their own


class TuneTest(TypedDict):
    """One proposal tested in a round: the swap, its sequential test and whether it was adopted."""

    deck: str
    agent: str
    swap: str
    direction: str
    games: Cell
    diff: float
    after: float  # the deck's rate under that agent plus the change: where the swap is estimated to leave it
    z: Cell
    adopted: bool
    decision: str
    early: tuple[int, float] | None  # (paired games, change) at the first stop, when judge_games re-judged it
    found: bool  # the test stopped: a change found
    together: bool  # the round's swaps that pointed the wanted way, tested together (combine)


class TuneRound(TypedDict):
    """One round: each agent's ``decks`` rows as measured (by agent, then deck), the proposals
    tested, and the split decks (above the band under one agent, below it under another)."""

    round: int
    seed: int
    rates: dict[str, dict[str, Row]]
    tests: list[TuneTest]
    split: list[str]
    near: list[tuple[str, str]]  # (deck, agent): inside under that agent near the edge, ranked as split


@dataclass
class TuneResult:
    decks: list[DeckRef]
    rounds: list[TuneRound] = field(default_factory=list)
    final: dict[str, dict[str, Row]] = field(default_factory=dict)  # the last round's rows by agent, then deck
    start: list[DeckRef] = field(default_factory=list)  # the lists the tune began from
    out: Path | None = None

    def in_band(self, band: tuple[float, float]) -> bool:
        return bool(self.final) and all(band[0] <= num(r["win_rate"]) <= band[1]
                                        for rows in self.final.values() for r in rows.values())


# ============================================================================ proposals


def card_scores(cards: Sequence[Row]) -> tuple[dict[tuple[str, str], float], dict[str, float]]:
    """From a study's ``cards`` table (condition ``drawn``), or several studies' tables one after
    the other: each (deck, card)'s ``iwd`` (averaged over the tables), and each card's mean
    ``iwd`` over the decks (and tables) that play it."""
    per: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_card: dict[str, list[float]] = defaultdict(list)
    for r in cards:
        if r["condition"] != "drawn" or r.get("iwd") is None:
            continue
        per[(text(r["deck"]), text(r["card"]))].append(float(num(r["iwd"])))
        by_card[text(r["card"])].append(float(num(r["iwd"])))
    return ({k: sum(xs) / len(xs) for k, xs in per.items()}, {c: sum(xs) / len(xs) for c, xs in by_card.items()})


def step_copies(distance: float) -> int:
    """How many copies a swap moves for a deck ``distance`` (a fraction) outside the band: one
    within ``STEP``, one more for each further ``STEP``."""
    return max(1, math.ceil(round(distance / STEP, 9)))


def payable(card: CardDef, host: CardDef) -> bool:
    """A card the deck can pay for from its Host's resource alone (generic symbols included)."""
    from hostwcg_env.engine.carddef import CardType, Res

    if card.type in (CardType.HOST, CardType.TOKEN) or card.test_id is not None:
        return False
    return all(r is Res.GENERIC or r is host.resource for r in card.cost)


def proposals(deck: DeckRef, direction: int, cards: Sequence[Row], pool: Mapping[str, CardDef],
              k: int, copies: int = 1) -> list[str]:
    """Up to ``k`` legal swaps (``"ID: -OUT +IN"``, or ``"ID: -N OUT +N IN"`` moving N copies,
    N at most ``copies``) for ``deck`` to move its win rate ``direction`` (+1 up, -1 down),
    best first (module docstring), from one study's ``cards`` table (or several, averaged)."""
    return proposals_for(deck, {"": direction}, {"": cards}, pool, k, copies)


def _weighted(tables: Sequence[tuple[int, Mapping[K, float]]], key: K) -> float | None:
    """The mean of ``way * table[key]`` over the tables that hold ``key`` (None: none does)."""
    xs = [w * t[key] for w, t in tables if key in t]
    return sum(xs) / len(xs) if xs else None


def proposals_for(deck: DeckRef, wanted: Mapping[str, int], tables: Mapping[str, Sequence[Row]],
                  pool: Mapping[str, CardDef], k: int, copies: int = 1) -> list[str]:
    """``proposals`` under several agents, each with the way the deck is to move under it
    (``wanted``: agent -> +1 up or -1 down) and its ``cards`` table (``tables``). A card's
    score is its ``iwd`` times the wanted way, averaged over the agents: out goes the deck's card
    that scores lowest, in comes the pool's card whose mean ``iwd`` scores highest, and never
    one that scores no higher than the card it replaces. When the ways differ (a split deck:
    too strong under one agent, too weak under another), this seeks the cards the agents value
    differently."""
    from hostwcg_env.cards.decks import COPY_LIMIT, Deck, check_deck

    scores = [(w, card_scores(tables[a])) for a, w in wanted.items()]
    per_deck = [(w, per) for w, (per, _) in scores]  # (deck, card) -> iwd in that deck
    per_card = [(w, mean) for w, (_, mean) in scores]  # card -> its mean iwd over the decks
    mine = list(dict.fromkeys(deck.main))
    out_score = {c: x for c in mine if (x := _weighted(per_deck, (deck.id, c))) is not None}
    in_score = {c: x for c in pool if (x := _weighted(per_card, c)) is not None}
    outs = sorted(out_score, key=lambda c: out_score[c])
    host = pool[deck.host]
    counts = {c: deck.main.count(c) for c in mine}
    known = sorted((c for c in in_score if c in pool and payable(pool[c], host)), key=lambda c: -in_score[c])
    unknown = sorted(c for c, card in pool.items() if c not in in_score and payable(card, host))
    out: list[str] = []
    for o, i in zip(outs, (c for c in known + unknown if counts.get(c, 0) < COPY_LIMIT), strict=False):
        if o == i or (i in in_score and in_score[i] <= out_score[o]):
            continue  # the card coming in must score better the wanted way than the card going out
        for n in range(min(copies, counts[o], COPY_LIMIT - counts.get(i, 0)), 0, -1):
            main = list(deck.main)
            for _ in range(n):
                main.remove(o)
            main += [i] * n
            if not check_deck(Deck.from_lists(deck.host, main), pool):  # the largest legal step
                out.append(swap_text(deck.id, [("-", n, o), ("+", n, i)]))
                break
        if len(out) >= k:
            break
    return out


# ============================================================================ running


GROUPS = (("entity", "Entities"), ("form", "Forms"), ("sorcery", "Sorceries, Equipment included"),
          ("ambush", "Ambushes"))  # a deck file's sections, as the shipped deck files have them


def write_deck(ref: DeckRef, folder: Path, plan_text: str = "", pool: Mapping[str, CardDef] | None = None,
               note: str = "") -> Path:
    """``folder/<id>.toml``, a deck file (docs/cards.md) laid out as the shipped ones are (a
    section a card type, with its count; ``note``, if any, a comment on its first line), checked
    by the deck loader against ``pool`` (default: the default pool) after writing; an existing
    file is never replaced."""
    from hostwcg_env.cards import default_pool
    from hostwcg_env.cards.decks import load_deck

    pool = default_pool() if pool is None else pool
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{ref.id}.toml"
    if path.exists():
        raise FileExistsError(f"{path} exists: balance tune never writes over a deck list")
    counts: dict[str, int] = {}
    for c in ref.main:
        counts[c] = counts.get(c, 0) + 1
    lines = [*([f"# {note}"] if note else []), f"name = {json.dumps(ref.name)}", f"plan = {json.dumps(plan_text)}",
             f"host = {json.dumps(ref.host)}", "", "[cards]"]
    kinds = {c: pool[c].type.value if c in pool else "" for c in counts}
    known = {kind for kind, _ in GROUPS}
    for kind, title in (*GROUPS, ("", "")):
        group = [c for c in counts if kinds[c] == kind or (not kind and kinds[c] not in known)]
        if group:
            if title:
                lines.append(f"# {title} ({sum(counts[c] for c in group)})")
            lines += [f"{json.dumps(c)} = {counts[c]}" for c in group]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    load_deck(path, pool)  # the file reads back as a legal deck
    return path


def _field(res: BalanceResult) -> dict[str, Row]:
    return {text(r["deck"]): r for r in res.tables["decks"]}


def _levels(study: Study, plan: TunePlan) -> list[tuple[str, tuple[str, str], str]]:
    """The agents a tune measures under: (label, the seats' agents, sub-folder of a round). One
    level (the study's own agents) keeps the round's folder itself."""
    from .skill import folder

    if not plan.under:
        a = study.agents
        return [(a[0] if a[0] == a[1] else ",".join(a), a, "")]
    return [(a, (a, a), folder(a)) for a in plan.under]


def distance(rate: float, band: tuple[float, float]) -> float:
    """How far ``rate`` lies outside ``band``: positive above, negative below, 0 inside."""
    return rate - band[1] if rate > band[1] else rate - band[0] if rate < band[0] else 0.0


def lands_nearer(rate: float, diff: float, band: tuple[float, float]) -> bool:
    """Whether a change of ``diff`` leaves a deck at ``rate`` nearer the band than it was: its
    estimated rate ``rate + diff`` lies less far outside, on either side (inside: 0). A swap that
    takes a deck 0.4 points above the band to 5.6 below it is not nearer."""
    return abs(distance(rate + diff, band)) < abs(distance(rate, band))


def keeps_inside(rate: float, diff: float, crossed: bool, band: tuple[float, float]) -> bool:
    """Whether a swap keeps a deck inside the band under an agent where it is inside: the swap's
    test under that agent found no change (it ran to the end without stopping), or the deck's
    rate there plus the change found still lies in the band."""
    return not crossed or distance(rate + diff, band) == 0.0


def wanted_ways(off: Mapping[str, float]) -> dict[str, int]:
    """The way a deck is to move under each agent under which it is outside the band, from its
    ``distance`` under each: -1 down (above), +1 up (below); agents where it is inside are left
    out. Mixed ways mean a split deck."""
    return {a: -1 if x > 0 else 1 for a, x in off.items() if x}


def near_edge_ways(ways: Mapping[str, int], rates: Mapping[str, float], band: tuple[float, float],
                   margin: float) -> dict[str, int]:
    """The agents under which a deck is inside the band (``rates``: its rate under each agent) but
    within ``margin`` of the edge that the ``ways`` it is to move elsewhere push toward, each with
    the other way: Tamsin above the band under the lookahead (down) and 45.2% under ``ppo_v1``,
    0.2 points above the lower edge, gives ``{"ppo_v1": +1}``. Ranked with ``ways``
    (``proposals_for``), out go cards the one agent values and the other does not."""
    out: dict[str, int] = {}
    if margin <= 0:
        return out
    for a, r in rates.items():
        if a in ways or distance(r, band):
            continue
        if -1 in ways.values() and r - band[0] < margin:
            out[a] = 1
        elif 1 in ways.values() and band[1] - r < margin:
            out[a] = -1
    return out


def pointed(tests: Sequence[TuneTest], ways: Mapping[str, int]) -> bool:
    """Whether a proposal's tests found no change under every agent where the deck is outside that
    tested it, each estimate pointing the way the deck is to move there (``ways``)."""
    mine = [t for t in tests if t["agent"] in ways]
    return bool(mine) and all(not t["found"] and t["diff"] * ways[t["agent"]] > 0 for t in mine)


def combined(deck: DeckRef, swaps: Sequence[str], pool: Mapping[str, CardDef]) -> str | None:
    """``swaps`` (two or more, of ``deck``) made together, as one swap text; None for fewer than
    two, or when the deck rules refuse them together."""
    from .patches import swap_deck

    if len(swaps) < 2:
        return None
    ref = deck
    try:
        for s in swaps:
            ref = swap_deck(s, [ref], pool)[1]
    except ValueError:
        return None
    return swap_text(deck.id, deck_changes(deck.main, ref.main))


def run_tune(study: Study, out: str | Path, plan: TunePlan | None = None, workers: int | None = None,
             quiet: bool = False, say: Callable[[str], object] = print) -> TuneResult:
    """Tune ``study``'s decks (module docstring); resumable like any study (run it again)."""
    from .patches import patched_pool

    plan = plan or TunePlan()
    folder = Path(out)
    pool = patched_pool(tuple(study.patches))
    decks = list(study.decks)
    result = TuneResult(decks, out=folder, start=list(decks))
    levels = _levels(study, plan)
    if not 1 <= plan.start_round <= plan.rounds + 1:
        raise ValueError(f"balance tune: --start-round {plan.start_round}: a round from 1 to --rounds + 1 "
                         f"({plan.rounds + 1}, the final measurement)")

    def trial(decks: list[DeckRef], rnd: int, d: DeckRef, ways: Mapping[str, int], swap: str, seed: int,
              here: Path, name: str, rates: Mapping[str, float], together: bool = False) -> tuple[
                  list[TuneTest], DeckRef | None]:
        """One proposal's tests (module docstring, 3.) on ``seed``'s games, kept in
        ``here/<agent>/<deck>/name``: the tests, and the deck as changed if it is adopted."""
        i = [x.id for x in decks].index(d.id)
        tests: list[TuneTest] = []
        changed: DeckRef | None = None
        guarded = plan.keep_inside and plan.under and rnd >= plan.keep_inside_from
        guards = [lv for lv in levels if lv[0] not in ways] if guarded else []
        helped = False  # moved the wanted way, landing nearer, under some agent where it is outside
        for label, agents, sub in [lv for lv in levels if lv[0] in ways] + guards:
            way = ways.get(label, 0)  # 0: inside under this agent, where the swap must keep it
            if not way and not helped:  # (partial: moved nowhere) no guard tests; refused below
                break
            a = Study(decks, study.games, agents, dict(study.rules), seed, study.mirrors, "A",
                      study.max_width, study.patches, d.id)
            b = a.with_changes([], [swap], "B")
            seq = SequentialPlan(f"deck:{d.id}", plan.look_every, plan.alpha)
            where = here / sub / d.id / name
            res = run_compare(a, b, out=where, workers=workers, quiet=True, sequential=seq)
            last: Row = res.looks[-1] if res.looks else {}
            early: tuple[int, float] | None = None
            if last.get("crossed") and int(num(last.get("games") or 0)) < plan.judge_games:
                # an early stop overstates the change (it stops where the noise ran its way): play
                # on, the same games, in a test with no look before judge_games, and judge that
                early = (int(num(last.get("n") or 0)), num(last.get("diff") or 0.0))
                seq = replace(seq, min_games=plan.judge_games)
                res = run_compare(a, b, out=where, workers=workers, quiet=True, sequential=seq)
                last = res.looks[-1] if res.looks else {}
            diff = num(last.get("diff") or 0.0)
            rate = rates[label]
            crossed = bool(last.get("crossed"))
            if way and plan.partial and not crossed:  # no change found here: neither help nor harm
                moved = nearer = True
                why = (": not moved (--partial: enough if it moves under another agent)"
                       if len(ways) > 1 else ": not moved")  # outside under this agent alone
            elif way:
                moved = crossed and diff * way > 0
                nearer = lands_nearer(rate, diff, plan.band)
                why = (": moved the wrong way" if crossed and diff * way < 0 else ": not moved" if not moved
                       else "" if nearer
                       else f": overshoots (about {100 * (rate + diff):.1f}% after, from {100 * rate:.1f}%)")
                helped = helped or (moved and nearer)
            else:
                moved = nearer = keeps_inside(rate, diff, crossed, plan.band)
                why = (" (inside there)" if moved else
                       f" (inside there): takes it out of the band (about {100 * (rate + diff):.1f}% after)")
            tests.append({"deck": d.id, "agent": label, "swap": swap,
                          "direction": "down" if way < 0 else "up" if way > 0 else "inside",
                          "games": last.get("n"), "diff": diff, "after": rate + diff, "z": last.get("z"),
                          "adopted": False, "decision": res.decision, "early": early, "found": crossed,
                          "together": together})
            who = f" under {label}" if plan.under else ""
            first = f"{100 * early[1]:+.1f} points over {early[0]} paired games, then " if early else ""
            say(f"  {swap}{' (together, on games of their own)' if together else ''}{who}: {first}"
                f"{'+' if diff >= 0 else ''}{100 * diff:.1f} points over {last.get('n')} paired games{why}")
            if not (moved and nearer):
                changed = None
                break
            changed = b.decks[i]
        if not helped:
            changed = None
        for t in tests:  # adopted: moved the wanted way where outside, kept inside where inside
            t["adopted"] = changed is not None
        if changed is not None:
            say(f"  {swap}: adopted")
        return tests, changed

    for rnd in range(plan.start_round, plan.rounds + 2):
        seed = study.seed + rnd * ROUND_SEEDS
        here = folder / f"round-{rnd}"
        measured: dict[str, BalanceResult] = {}
        for label, agents, sub in levels:
            base = Study(decks, study.games, agents, dict(study.rules), seed, study.mirrors, "",
                         study.max_width, study.patches)
            measured[label] = run_study(base, out=here / sub / "measure", workers=workers, quiet=quiet)
        rates = {label: _field(m) for label, m in measured.items()}
        for label, rows in rates.items():
            who = f" ({label})" if plan.under else ""
            say(f"round {rnd}{who}: " + ", ".join(f"{d}: {100 * num(r['win_rate']):.1f}%" for d, r in rows.items()))
        record: TuneRound = {"round": rnd, "seed": seed, "rates": rates, "tests": [], "split": [], "near": []}
        result.rounds.append(record)
        result.final = rates
        rate_of = {d.id: {label: float(num(rates[label][d.id]["win_rate"])) for label in rates} for d in decks}
        off = {d: {label: distance(r, plan.band) for label, r in by.items()} for d, by in rate_of.items()}
        outside = [d for d in decks if any(off[d.id].values())]
        if not outside or rnd > plan.rounds:
            break
        new = list(decks)
        for d in outside:
            ways = wanted_ways(off[d.id])
            if len(set(ways.values())) > 1:
                record["split"].append(d.id)
                say(f"  {d.id}: split (" + ", ".join(f"{'above' if w < 0 else 'below'} under {a}"
                                                   for a, w in ways.items()) + "): swaps the agents value apart")
            near = near_edge_ways(ways, rate_of[d.id], plan.band, plan.near_edge)
            for label, w in near.items():
                record["near"].append((d.id, label))
                say(f"  {d.id}: {100 * rate_of[d.id][label]:.1f}% under {label}, near the band's "
                    f"{'lower' if w > 0 else 'upper'} edge: ranked as split")
            rank = {**ways, **near}
            tables = {label: measured[label].tables["cards"] for label in rank}
            copies = step_copies(max(abs(x) for x in off[d.id].values()))
            i = [x.id for x in decks].index(d.id)
            tried: list[tuple[str, list[TuneTest]]] = []
            for k, swap in enumerate(proposals_for(d, rank, tables, pool, plan.candidates, copies)):
                tests, changed = trial(decks, rnd, d, ways, swap, seed, here, f"proposal-{k + 1}", rate_of[d.id])
                record["tests"] += tests
                tried.append((swap, tests))
                if changed is not None:
                    new[i] = changed
                    break
            else:
                both = combined(d, [s for s, t in tried if pointed(t, ways)], pool) if plan.combine else None
                if both:
                    tests, changed = trial(decks, rnd, d, ways, both, seed + COMBINED_SEEDS, here, "combined",
                                           rate_of[d.id], together=True)
                    record["tests"] += tests
                    if changed is not None:
                        new[i] = changed
        lists = here / "decks"
        for ref in new:
            if not (lists / f"{ref.id}.toml").exists():  # written by an earlier, interrupted run
                done = f"after round {rnd} of hostwcg balance tune"  # the deck's own plan stays
                write_deck(ref, lists, ref.plan or f"{ref.name} {done}", pool, note=f"{ref.name} {done}")
        # the next round plays the lists as written (their card order is the file's, which the
        # shuffle sees), so a tune continued from them (start_round) plays the same games
        decks = resolve_decks([lists / f"{ref.id}.toml" for ref in new])
        result.decks = decks
    write_report(result, plan, folder)
    return result


def _csv_row(rec: TuneRound, kind: str, agent: str, deck: str, **values: Cell) -> Row:
    """One row of ``tune.csv``: every column, in order, blank where ``values`` gives nothing."""
    row: Row = {"round": rec["round"], "seed": rec["seed"], "kind": kind, "agent": agent, "deck": deck,
                "win_rate": None, "ci_low": None, "ci_high": None, "games": None, "swap": "", "diff": None,
                "after": None, "adopted": None, "early_games": None, "early_diff": None}
    return {**row, **values}


def write_report(result: TuneResult, plan: TunePlan, folder: Path) -> None:
    rows: list[Row] = []
    for rec in result.rounds:
        for agent, rates in rec["rates"].items():
            for d, r in rates.items():
                rows.append(_csv_row(rec, "measure", agent, d, win_rate=r["win_rate"], ci_low=r["ci_low"],
                                     ci_high=r["ci_high"], games=r["games"]))
        for t in rec["tests"]:
            early = t.get("early")
            kind = "combined" if t.get("together") else "proposal"
            rows.append(_csv_row(rec, kind, t["agent"], t["deck"], games=t["games"], swap=t["swap"],
                                 diff=t["diff"], after=t["after"], adopted=t["adopted"],
                                 early_games=early[0] if early else None, early_diff=early[1] if early else None))
        rows += [_csv_row(rec, "split", "", d) for d in rec["split"]]
        rows += [_csv_row(rec, "near_edge", agent, d) for d, agent in rec["near"]]
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "tune.csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    lo, hi = plan.band
    md = [f"# balance tune: band {100 * lo:.0f}-{100 * hi:.0f}%", ""]
    for rec in result.rounds:
        md.append(f"## Round {rec['round']} (seed {rec['seed']})")
        md.append("")
        for agent, rates in rec["rates"].items():
            if plan.under:
                md.append(f"Under {agent}:")
                md.append("")
            for d, r in rates.items():
                flag = "" if lo <= num(r["win_rate"]) <= hi else " (outside)"
                md.append(f"* {d}: {100 * num(r['win_rate']):.1f}% "
                          f"[{100 * num(r['ci_low']):.1f}, {100 * num(r['ci_high']):.1f}], n={r['games']}{flag}")
            md.append("")
        for d in rec["split"]:
            md.append(f"* {d} is split (above the band under one agent, below it under another): its swaps are "
                      "sought among the cards the agents value apart")
        for d, agent in rec["near"]:
            md.append(f"* {d} is inside the band under {agent} but near the edge it is pushed toward (--near-edge): "
                      "ranked as split")
        for t in rec["tests"]:
            who = f" under {t['agent']}" if plan.under else ""
            early = t.get("early")
            first = f"first stopped at {100 * early[1]:+.1f} points over {early[0]}, then " if early else ""
            both = " together, on games of their own," if t.get("together") else ""
            md.append(f"* tested{both} `{t['swap']}` ({t['direction']}){who}: {first}{100 * t['diff']:+.1f} "
                      f"points over {t['games']} paired games (about {100 * t['after']:.1f}% after): "
                      f"{'adopted' if t['adopted'] else 'not adopted'}")
        md.append("")
    done = "every deck inside the band" if result.in_band(plan.band) else "not every deck inside the band"
    if plan.under:
        done += " under " + " and ".join(plan.under)
    last = result.rounds[-1]["round"] - 1  # the last measured round plays the lists written before it
    kept = (f"`round-{last}/decks/`; earlier lists stay in earlier rounds" if last >= plan.start_round
            else "the lists given (--decks): no round changed them")
    md.append(f"Final lists ({done}): {kept}.")
    md += ["", "## Changes from the starting lists" if plan.start_round == 1 else
           f"## Changes from the lists given (in force at round {plan.start_round}, --start-round)", ""]
    for a, b in zip(result.start, result.decks, strict=True):  # the --swap text of docs/balance.md
        changes = deck_changes(a.main, b.main)
        md.append(f"* `{swap_text(a.id, changes)}`" if changes else f"* {a.id}: unchanged")
    (folder / "tune.md").write_text("\n".join(md) + "\n", encoding="utf-8")


# ============================================================================ command line


def add_arguments(bal: argparse.ArgumentParser) -> None:
    """The tune options of ``hostwcg balance`` (the others: --decks, --games, --agent, --seed...)."""
    bal.add_argument("--band", default="0.45,0.55", metavar="LO,HI",
                     help="tune: the target band of each deck's win rate against the field (default 0.45,0.55)")
    bal.add_argument("--rounds", type=int, default=3, metavar="R", help="tune: rounds at most (default 3)")
    bal.add_argument("--candidates", type=int, default=3, metavar="K",
                     help="tune: swaps tested per deck and round, at most (default 3)")
    bal.add_argument("--under", metavar="A,B,...",
                     help="tune: agents the band must hold under, each in both seats and measured on the same "
                          "seeds, e.g. ppo_v1,lookahead (default: --agent, or ppo_v1)")
    bal.add_argument("--keep-inside", action=argparse.BooleanOptionalAction, default=True,
                     help="tune under several agents: test a swap that passes also under each agent where the "
                          "deck is inside the band, and refuse it if it takes the deck out there (default: on)")
    bal.add_argument("--keep-inside-from", type=int, default=1, metavar="R",
                     help="tune: test --keep-inside from round R on (default 1); earlier rounds decide as without "
                          "it, so a tune begun with --no-keep-inside resumes with the same earlier rounds")
    bal.add_argument("--near-edge", type=float, default=0.0, metavar="POINTS",
                     help="tune under several agents: a deck inside the band under an agent but within POINTS of "
                          "the edge its wanted move pushes toward is ranked for as a split deck, so its swaps are "
                          "sought among the cards the agents value apart (default 0: off)")
    bal.add_argument("--judge-games", type=int, default=0, metavar="N",
                     help="tune: a proposal's test that stops before N paired games plays on to N (a test with "
                          "no look before N, on the same games) and is judged there: an early stop overstates "
                          "the change, so overshoots and landings are read on more games (default 0: judge at "
                          "the first stop)")
    bal.add_argument("--partial", action="store_true",
                     help="tune under several agents: adopt a swap that moves a deck the wanted way under at "
                          "least one agent where it is outside when its tests under the others find no change "
                          "(default: it must move the deck under every agent where it is outside); a split deck "
                          "on both edges can then come in one agent at a time")
    bal.add_argument("--combine", action="store_true",
                     help="tune: when no swap is adopted for a deck in a round, test together (as one change, "
                          "on games of their own) the swaps whose tests found no change but whose estimates all "
                          "pointed the wanted way, if there are two or more and the deck rules allow them "
                          "(default: off)")
    bal.add_argument("--start-round", type=int, default=1, metavar="R",
                     help="tune: the --decks given are round R-1's lists (OUT/round-R-1/decks/ of an earlier "
                          "run): play from round R on, on the seeds and with the decisions of the tune that did "
                          "not stop (default 1)")


def parse_band(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        lo, hi = (float(p) for p in parts)
    except ValueError:
        raise ValueError(f"--band {text!r}: write LO,HI with 0 <= LO < HI <= 1 (e.g. 0.45,0.55)") from None
    if not 0 <= lo < hi <= 1:
        raise ValueError(f"--band {text!r}: write LO,HI with 0 <= LO < HI <= 1 (e.g. 0.45,0.55)")
    return lo, hi


def parse_under(text: str) -> tuple[str, ...]:
    names = tuple(a.strip() for a in text.split(","))
    if not all(names) or len(set(names)) != len(names):
        raise ValueError(f"--under {text!r}: write A,B,... with different agent names (e.g. ppo_v1,lookahead)")
    return names


def cli(args: argparse.Namespace, study: Study, out: Path) -> int:
    if args.rounds < 1 or args.candidates < 1:
        raise ValueError("balance tune: --rounds and --candidates must be at least 1")
    under = parse_under(args.under) if args.under else ()
    if under and (args.agents or args.agent):
        raise ValueError("balance tune: give the agents either with --under A,B,... or with --agent/--agents")
    from agents.registry import problem

    for a in under:  # each name is checked as a study checks its agents, before any game
        if bad := problem(a):
            raise ValueError(f"--under: {bad}")
    if args.keep_inside_from < 1:
        raise ValueError(f"balance tune: --keep-inside-from {args.keep_inside_from}: a round number, 1 or more")
    if not 0 <= args.near_edge < 50:
        raise ValueError(f"balance tune: --near-edge {args.near_edge:g}: points from the band's edge, 0 to 50")
    if args.judge_games < 0:
        raise ValueError(f"balance tune: --judge-games {args.judge_games}: paired games, 0 (off) or more")
    plan = TunePlan(parse_band(args.band), args.rounds, args.candidates, args.look_every, args.alpha, under,
                    args.keep_inside, args.keep_inside_from, args.near_edge / 100, args.start_round,
                    args.judge_games, args.partial, args.combine)
    if under:
        study = replace(study, agents=(under[0], under[0]))
    elif not (args.agents or args.agent):  # skill-robust by default: the strongest fast agent
        study = replace(study, agents=DEFAULT_AGENTS)
    if not args.quiet:
        also = f"; also under {', '.join(under[1:])} on the same seeds" if len(under) > 1 else ""
        print(f"balance tune: {study.describe()}{also}; band {plan.band[0]:g}-{plan.band[1]:g}", file=sys.stderr)
    result = run_tune(study, out, plan, workers=args.workers, quiet=args.quiet)
    print((out / "tune.md").read_text(), end="")
    print(f"wrote tune.md, tune.csv and each round's lists (round-R/decks/) to {out}")
    return 0 if result.in_band(plan.band) else 1
