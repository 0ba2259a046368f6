"""The evaluation ladder: a round robin between agents with seats swapped on paired seeds
over the eight preconstructed decks (the stand-in test decks only when asked), win rates with Wilson
95% intervals, Bradley-Terry ratings (Elo scale) with bootstrap 95% intervals, and each agent's time
per choice.

    hostwcg evaluate --agents random,heuristic,ismcts,ppo --games 200 --workers 2

Games are played by the game runner (``runner.py``: forced actions are taken without asking
the agents) and kept as game records (``records.py``). With ``results=PATH``
(``--results PATH``) every finished game is appended to that results file as it ends (gzip-
compressed when PATH ends ``.gz``), whole or not at all (``recordfile.py``), and the games of
the schedule already in the file are not played again: a stopped or killed run resumes where
it stopped, with exactly the records and the report an uninterrupted run gives, and a long run
(ISMCTS at 0.45 s a decision takes about a minute a game against the heuristic) can be spread
over several sessions or machines and merged by concatenating their files. Each record
carries the code version that played it and every action of its game, so the game replays
exactly (``replay.py``; ``hostwcg replay FILE``) and an agent's choices can be distilled
(``distill.py``).
"""

from __future__ import annotations

import csv
import io
import math
import os
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, islice
from pathlib import Path

from .recordfile import RecordFileError, RecordWriter, check_results_file, iter_records
from .records import MAX_SEED, DeckRef, Record, RecordId, code_version, record_id
from .runner import GameSpec, run_game
from .stats import Row, Z, wilson
from .tally import NumberSet, Tally, id_digest

__all__ = ["Z", "LadderResult", "Schedule", "Tally", "bradley_terry", "bradley_terry_intervals", "default_decks",
           "load_results", "play_game", "run_ladder", "schedule", "wilson"]

play_game = run_game  # one ladder game: its record


def default_decks(include_test: bool = False) -> tuple[DeckRef, ...]:
    """The decks a ladder deals unless told: the eight preconstructed ones in file order, as the
    env, training and balance deal; with ``include_test`` every shipped deck file, the two
    stand-in test decks included (the ladder's ten, its default before 2026-11-27: the kept
    results played before then, agents/ladder_results/README.md)."""
    from .simulate import resolve_decks

    return tuple(resolve_decks(None, include_test=include_test))


def schedule(agents: Sequence[str], games: int, seed: int = 0,
             decks: Sequence[DeckRef] | None = None) -> list[GameSpec]:
    """``games`` games per pair: pairs of games share a seed and decks, with seats swapped.
    The decks are drawn from ``decks`` (default: ``default_decks()``, the eight preconstructed,
    in file order) with ``random.Random(seed)``; forced actions are taken without asking the
    agents. (A list:
    :class:`Schedule` gives the same games one at a time, for any number of them.)"""
    return list(Schedule(agents, games, seed, decks))


class Schedule:
    """The ladder's schedule (``schedule``) made one game at a time: iterating it, or finding
    the place of a record in it, takes no memory for the games not yet reached, so a run of any
    length starts at once. Game ``pair * games + 2 * i`` is pair ``pair`` (of
    ``combinations(agents, 2)``) at seed ``seed + i`` with the pair's first agent in seat A,
    and the next game the same with the seats swapped."""

    def __init__(self, agents: Sequence[str], games: int, seed: int = 0,
                 decks: Sequence[DeckRef] | None = None) -> None:
        self.agents = list(agents)
        self.games, self.seed = games, seed
        self.refs = list(decks) if decks is not None else list(default_decks())
        self.pairs = list(combinations(self.agents, 2))
        self.rounds = games // 2 + games % 2  # seeds per pair
        if seed + self.rounds - 1 > MAX_SEED:
            raise ValueError(f"seeds {seed} to {seed + self.rounds - 1} go past the largest seed, 2**63-1: "
                             "give a smaller --seed or fewer --games")

    def __len__(self) -> int:
        return len(self.pairs) * self.games

    def spec(self, index: int) -> GameSpec:
        """Game ``index`` of the schedule."""
        pair, j = divmod(index, self.games)
        x, y = self.pairs[pair]
        i, second = divmod(j, 2)
        s = self.seed + i
        r = random.Random(s)
        n = len(self.refs)
        da, db = r.randrange(n), r.randrange(n)
        if second:
            return GameSpec(self.refs[db], self.refs[da], s, (y, x), ask_forced=False, index=index)
        return GameSpec(self.refs[da], self.refs[db], s, (x, y), ask_forced=False, index=index)

    def __iter__(self) -> Iterator[GameSpec]:
        for index in range(len(self)):
            yield self.spec(index)

    def index_of(self, rec: Record) -> int | None:
        """The place of ``rec`` in the schedule (the game it is a record of), or None."""
        a, b = rec["agents"]
        i = rec["seed"] - self.seed
        if not 0 <= i < self.rounds:
            return None
        rid = record_id(rec)
        for k, (x, y) in enumerate(self.pairs):
            for j, seats in ((2 * i, (x, y)), (2 * i + 1, (y, x))):
                if (a, b) == seats and j < self.games and spec_id(self.spec(k * self.games + j)) == rid:
                    return k * self.games + j
        return None


def spec_id(spec: GameSpec) -> RecordId:
    """The ``records.record_id`` the record of ``spec`` will have."""
    import json

    return (spec.label, spec.deck_a.id, spec.deck_b.id, spec.seed, tuple(spec.agents),
            json.dumps(spec.rules_dict, sort_keys=True))


PRIOR_GAMES = 1.0  # pseudo-games per pair played (half a win each way): a weak pull toward equal


def _with_prior(names: list[str], wins: dict[tuple[str, str], float], prior: float) -> dict[tuple[str, str], float]:
    """``wins`` plus ``prior`` pseudo-games, split evenly, for every pair that played."""
    out = dict(wins)
    for i in names:
        for j in names:
            if i < j and (wins.get((i, j), 0.0) + wins.get((j, i), 0.0)) > 0:
                out[(i, j)] = out.get((i, j), 0.0) + prior / 2
                out[(j, i)] = out.get((j, i), 0.0) + prior / 2
    return out


def _strengths(names: list[str], wins: dict[tuple[str, str], float], iters: int) -> dict[str, float]:
    """Bradley-Terry strengths by the MM algorithm, normalised to a geometric mean of 1."""
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iters):
        new = {}
        for i in names:
            w_i = sum(wins.get((i, j), 0.0) for j in names if j != i)
            den = 0.0
            for j in names:
                if j == i:
                    continue
                n_ij = wins.get((i, j), 0.0) + wins.get((j, i), 0.0)
                if n_ij:
                    den += n_ij / (strength[i] + strength[j])
            new[i] = max(w_i, 1e-12) / den if den else strength[i]
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {k: v / g for k, v in new.items()}
    return strength


ELO = 400 / math.log(10)  # Elo points per unit of log-strength


def bradley_terry(names: list[str], wins: dict[tuple[str, str], float], iters: int = 200,
                  prior: float = PRIOR_GAMES) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale (mean 1500), fitted with ``prior`` pseudo-games
    (half a win each way) added to every pair that played: the maximum of the likelihood
    times a weak prior toward equal strength, finite even when a pair's games all went one way
    (a plain maximum-likelihood fit then runs off to infinity)."""
    strength = _strengths(names, _with_prior(names, wins, prior), iters)
    return {k: 1500 + ELO * math.log(v) for k, v in strength.items()}


def bradley_terry_intervals(names: list[str], wins: dict[tuple[str, str], float], z: float = Z,
                            prior: float = PRIOR_GAMES, iters: int = 200) -> dict[str, tuple[float, float, float]]:
    """Per name: (rating, low, high), the 95% interval from the curvature of the regularised
    fit (normal approximation: the inverse of its information matrix, with the ratings' mean
    held at 1500). With the pseudo-games the curvature stays finite, so a few one-sided games
    give a wide interval rather than a single point (a bootstrap of one-sided games resamples
    the same games every time)."""
    import numpy as np

    w = _with_prior(names, wins, prior)
    strength = _strengths(names, w, iters)
    k = len(names)
    info = np.zeros((k, k))
    for a, i in enumerate(names):
        for b in range(a + 1, k):
            j = names[b]
            n = w.get((i, j), 0.0) + w.get((j, i), 0.0)
            if not n:
                continue
            p = strength[i] / (strength[i] + strength[j])
            h = n * p * (1 - p)
            info[a, a] += h
            info[b, b] += h
            info[a, b] -= h
            info[b, a] -= h
    cov = np.linalg.pinv(info)  # the ratings' sum is fixed: pinv is the covariance on that plane
    out = {}
    for a, i in enumerate(names):
        r = 1500 + ELO * math.log(strength[i])
        se = ELO * math.sqrt(max(float(cov[a, a]), 0.0))
        out[i] = (r, r - z * se, r + z * se)
    return out


def _load() -> float | None:
    """The machine's 1-minute load average (None where the OS gives none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def _order(rec: Record) -> tuple[str, str, int]:
    return rec["agents"][0], rec["agents"][1], rec["seed"]


@dataclass
class LadderResult:
    """A ladder's report, computed from ``tally`` (the sums over its games, ``tally.py``), never
    from records held in memory: ``records`` holds the game records only where they were asked
    for (``keep_records``), and is empty otherwise."""

    agents: list[str]
    records: list[Record]  # game records (records.py), when kept
    seconds: float
    resumed: int = 0  # records taken from a results file rather than played by this run
    source: str = ""  # set by ``from_results``: the files the records were read from
    deck_pool: tuple[str, ...] = ()  # set by ``run_ladder``: the ids of the decks its games drew from
    load: tuple[float, float] | None = None  # set by ``run_ladder``: the 1-minute load average at its start and end
    tally: Tally | None = None  # (made from ``records`` when not given)

    def __post_init__(self) -> None:
        if self.tally is None:
            self.tally = Tally()
            for rec in self.records:
                self.tally.add(rec)

    @property
    def sums(self) -> Tally:
        assert self.tally is not None
        return self.tally

    @property
    def games(self) -> int:
        return self.sums.games

    def pair_wins(self) -> dict[tuple[str, str], float]:
        return dict(self.sums.wins)

    def ratings(self) -> dict[str, tuple[float, float, float]]:
        """Per agent: Bradley-Terry rating on the Elo scale and its 95% interval
        (``bradley_terry_intervals``: one pseudo-game per pair played, normal approximation)."""
        return bradley_terry_intervals(self.agents, self.pair_wins())

    def rows(self) -> list[Row]:
        wins = self.pair_wins()
        out: list[Row] = []
        for x, y in combinations(self.agents, 2):
            n = self.sums.games_between(x, y)
            if not n and self.source:
                continue  # a report from results files shows the pairs that were played
            p, lo, hi = wilson(wins.get((x, y), 0.0), n)
            out.append({"agent": x, "opponent": y, "games": n, "wins": wins.get((x, y), 0.0),
                        "win_rate": p, "ci95_low": lo, "ci95_high": hi})
        return out

    def decks_played(self) -> str:
        """The decks the games drew from (``deck_pool``; read from the records when the games come
        from results files), in words: "the ten shipped decks (...)" where a stand-in test deck is
        among them with the eight preconstructed (the ladder's default before 2026-11-27), "the
        eight preconstructed decks" for those alone, else the decks' short names."""
        from hostwcg_env.cards.decks import deck_files, is_test_deck, short_name

        ids = set(self.deck_pool) or set(self.sums.deck_ids)
        if not ids:
            return "the shipped decks"
        # read from records, a test deck among them: the ladder's ten (a few games meet only some)
        if ids == set(deck_files(include_test=True)) or (not self.deck_pool and any(map(is_test_deck, ids))):
            return "the ten shipped decks (the eight preconstructed and the two stand-in test decks)"
        if ids == set(deck_files(include_test=False)):
            return "the eight preconstructed decks"
        return "the decks " + ", ".join(sorted(short_name(i) for i in ids))

    def markdown(self) -> str:
        lines = ["| agent | opponent | games | win rate | 95% CI |", "|---|---|---:|---:|---|"]
        for r in self.rows():
            lines.append(f"| {r['agent']} | {r['opponent']} | {r['games']} | {r['win_rate']:.1%} | "
                         f"{r['ci95_low']:.1%} - {r['ci95_high']:.1%} |")
        if self.connected():
            lines += ["", "| agent | rating (Bradley-Terry, Elo scale) | 95% CI |", "|---|---:|---|"]
            for a, (rating, lo, hi) in sorted(self.ratings().items(), key=lambda t: -t[1][0]):
                lines.append(f"| {a} | {rating:.0f} | {lo:.0f} - {hi:.0f} |")
        else:
            lines += ["", "No ratings: the pairs played do not link every agent to every other."]
        lines += ["", "| agent | choices | ms per choice (mean) | slowest game's mean (ms) |", "|---|---:|---:|---:|"]
        for a, (n, mean, worst) in self.timing().items():
            lines.append(f"| {a} | {n} | {1000 * mean:.2f} | {1000 * worst:.2f} |")
        if self.load is not None:  # times a choice depend on what else the machine runs
            lines += ["", f"Machine load while playing (1-minute load average, os.getloadavg): {self.load[0]:.2f} "
                          f"at the start, {self.load[1]:.2f} at the end, on {os.cpu_count()} cores "
                          "(this run's own workers count in it)."]
        games = self.games
        took = f"{self.seconds:.1f}" if self.seconds < 10 else f"{self.seconds:.0f}"
        played = (f"{games} games ({self.resumed} from the results file, {games - self.resumed} played "
                  f"in {took} s)" if self.resumed else f"{games} games in {took} s")
        if self.source:
            played = f"{games:,} games from {self.source}"
        lines += ["", f"{played}; draws count as half a win; "
                      f"seats swapped on paired seeds over {self.decks_played()}; ratings fitted with one "
                      "pseudo-game (half a win each way) per pair played, intervals from the fit's "
                      "curvature; a choice is a decision with more than one legal action (forced "
                      "ones are taken without asking)."]
        return "\n".join(lines)

    def connected(self) -> bool:
        """Whether the pairs played link every agent to every other (Bradley-Terry ratings
        compare agents only within such a set)."""
        if not self.agents:
            return False
        seen, todo = {self.agents[0]}, [self.agents[0]]
        pairs = {tuple(p) if len(p) == 2 else (next(iter(p)),) * 2 for p in self.sums.pair_games}
        while todo:
            x = todo.pop()
            for a, b in pairs:
                for u, v in ((a, b), (b, a)):
                    if u == x and v not in seen:
                        seen.add(v)
                        todo.append(v)
        return seen == set(self.agents)

    @classmethod
    def from_results(cls, paths: Sequence[str | Path], keep_records: bool = True) -> LadderResult:
        """The ladder of every game in these results files, whatever pairs and seeds they
        hold (``hostwcg ladder FILES``): a game found in more than one file counts once. The
        files are read once, record by record, into a :class:`Tally`; ``keep_records`` also
        keeps the records (``records``; ``hostwcg ladder`` does not)."""
        tally = Tally()
        seen = NumberSet()
        kept: list[Record] = []
        for path in paths:
            if not str(path).strip():
                raise RecordFileError("give a results file (got an empty name)")
            if not Path(path).is_file():
                check_results_file(path)  # a folder: says so
                raise RecordFileError(f"{path}: no such results file")
            for rec in iter_records(path):
                d = id_digest(record_id(rec))
                if d in seen:
                    continue
                seen.add(d)
                tally.add(rec)
                if keep_records:
                    kept.append(rec)
        if not tally.games:
            raise RecordFileError(f"no games in {', '.join(map(str, paths))}")
        agents = list(tally.agents)
        names = ", ".join(Path(p).name for p in paths)
        out = cls(agents, sorted(kept, key=_order), 0.0,
                  source=f"{len(paths)} results file{'s' if len(paths) > 1 else ''} ({names})", tally=tally)
        if out.connected():  # standings order: each row names the stronger agent first
            point = bradley_terry(agents, out.pair_wins())
            out.agents = sorted(agents, key=lambda a: -point[a])
        return out

    def timing(self) -> dict[str, tuple[int, float, float]]:
        """Per agent: choices made, mean seconds per choice, and the highest per-game mean
        (records without timing, balance records of the first layout, count no choices)."""
        return self.sums.timing(self.agents)

    def csv(self) -> str:
        buf = io.StringIO()
        rows = self.rows()
        w = csv.DictWriter(buf, fieldnames=list(rows[0].keys()))
        w.writeheader()
        # rounded here, for the file only: the markdown formats the exact values (rounding twice
        # turned a bound of 99.349% into "99.4%")
        w.writerows({k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()} for r in rows)
        return buf.getvalue()


def load_results(path: str | Path, warn: bool = True) -> tuple[list[Record], set[str]]:
    """The records of a results file (any layout the ladder has written: ``records.upgrade``)
    and the code versions that played them. A record cut off by an interruption is skipped
    with a warning; valid JSON that is not a game record is an error naming the file and line
    (``recordfile.iter_records``)."""
    if not Path(path).exists():
        return [], set()
    records = list(iter_records(path, warn=warn))
    return records, {str(r.get("version") or "unknown") for r in records}


def run_ladder(agents: list[str], games: int, workers: int = 1, seed: int = 0, quiet: bool = False,
               results: str | Path | None = None, shard: tuple[int, int] | None = None,
               decks: Sequence[DeckRef] | None = None, keep_records: bool = True) -> LadderResult:
    """Play the schedule (``schedule``) and tally the records. With ``results``, games
    already in that results file are taken from it and each new game is appended to it as
    it ends (see the module docstring). With ``shard=(k, n)`` this run plays only the games
    whose place in the schedule is k modulo n (n runs, on one machine or several, share the
    schedule); the report covers every game of the schedule found in ``results`` too.
    ``decks`` are the decks each game draws from (default: ``default_decks()``, the eight
    preconstructed; ``default_decks(include_test=True)`` adds the two stand-in test decks).

    The schedule is made a game at a time (:class:`Schedule`) and the report is summed as the
    games finish (:class:`Tally`), so memory stays flat whatever ``games`` is: a run of any
    length starts at once. ``keep_records`` also keeps every record in ``records`` (memory
    growing with the games: ``hostwcg evaluate`` does not)."""
    from .backends import make_backend, sigterm_unwinds
    from .simulate import Progress, chunk_size

    if shard is not None:
        k, n_shards = shard
        if n_shards < 1 or not 0 <= k < n_shards:
            raise ValueError(f"shard {k}/{n_shards}: K must be 0 to N-1 and N at least 1")
    if results is not None and Path(results).is_dir():
        raise RecordFileError(f"--results {results} is a folder: give a results file (FILE.jsonl or FILE.jsonl.gz)")
    refs = tuple(decks) if decks is not None else default_decks()
    plan = Schedule(agents, games, seed, refs)
    total = len(plan)
    tally = Tally()
    for name in agents:  # the report's rows in the order the agents were given
        if name not in tally.agents:
            tally.agents.append(name)
    done = NumberSet()  # the places in the schedule of the games taken from ``results``
    kept: list[Record] = []
    t0 = time.time()
    load0 = _load()
    with sigterm_unwinds():
        out = RecordWriter(results) if results is not None else None  # repairs an interrupted end first
        try:
            if results is not None:
                version = code_version()
                versions: set[str] = set()
                for rec in iter_records(results):
                    versions.add(str(rec.get("version") or "unknown"))
                    i = plan.index_of(rec)
                    if i is None or i in done:
                        continue
                    done.add(i)
                    tally.add(rec)
                    if keep_records:
                        kept.append(rec)
                if done and not quiet:
                    print(f"{results}: {len(done)} of {total} games already played "
                          f"(code versions: {', '.join(sorted(versions))})", file=sys.stderr)
                if versions - {version} and not quiet:
                    print(f"{results}: note: games played by other code versions than this one ({version})",
                          file=sys.stderr)
            mine = range(total) if shard is None else range(shard[0], total, shard[1])
            n_todo = len(mine) - sum(1 for i in done if shard is None or i % shard[1] == shard[0])
            if n_todo:
                backend = make_backend("local", workers=max(1, min(workers, n_todo)))
                bar = Progress(n_todo, quiet=quiet)
                todo = (plan.spec(i) for i in mine if i not in done)
                try:
                    size = chunk_size(backend)  # the schedule is never made whole
                    while chunk := list(islice(todo, size)):
                        for rec in backend.imap_unordered(chunk):
                            tally.add(rec)
                            if keep_records:
                                kept.append(rec)
                            if out is not None:
                                out.write(rec)
                            bar.update()
                finally:
                    backend.close()
                    bar.close()
        finally:
            if out is not None:
                out.close()
    return LadderResult(list(agents), sorted(kept, key=_order), time.time() - t0, resumed=len(done),
                        deck_pool=tuple(d.id for d in refs), tally=tally,
                        load=None if load0 is None else (load0, _load() or 0.0))
