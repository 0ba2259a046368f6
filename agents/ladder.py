"""The evaluation ladder: a round robin between agents with seats swapped on paired seeds
over the shipped decks, win rates with Wilson 95% intervals, and Bradley-Terry ratings (Elo
scale) with bootstrap 95% intervals.

    hostwcg evaluate --agents random,heuristic,ismcts,ppo --games 200 --workers 2

With ``results=PATH`` (``--results PATH``) every finished game is appended to a JSON-lines
file as it ends (gzip-compressed when PATH ends ``.gz``), and the games of the schedule already in the file are not played again: an
interrupted run resumes where it stopped, and a long run (ISMCTS at 0.45 s a decision takes
about a minute a game against the heuristic) can be spread over several sessions or machines and merged by
concatenating their files. Each line carries the code version that played it and every
action of its game in the text notation, so the game replays exactly (``replay``;
``hostwcg replay FILE``) and an agent's choices can be distilled (``agents/demos.py``).
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import combinations
from multiprocessing import get_context
from pathlib import Path
from typing import Any, NamedTuple

Z = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z) -> tuple[float, float, float]:
    """Point estimate and Wilson score interval of a proportion (draws count as half)."""
    if n == 0:
        return 0.5, 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameSpec:
    a: str  # agent in seat 0
    b: str  # agent in seat 1
    seed: int
    deck_a: int
    deck_b: int


class Record(NamedTuple):
    """One finished game of the ladder."""

    spec: GameSpec
    winner: int | None  # the winning seat, None for a draw
    decisions: int  # every decision of the game, forced ones included
    seats: tuple[tuple[float, int], tuple[float, int]]  # per seat: seconds choosing, choices
    actions: tuple[str, ...] = ()  # every action taken, in the text notation (empty in old files)
    reason: str | None = None  # how the game ended (rule 1: damage_zone, deck_out, ...; old files: None)
    turns: int | None = None


def play_game(spec: GameSpec) -> Record:
    """Play one game; returns its record: the winning seat or None, the decisions, per seat
    the seconds spent choosing and the number of choices (decisions with more than one legal
    action), and every action taken in the text notation, so that ``replay`` can rebuild the
    game from its seed and decks."""
    import hostwcg_env  # noqa: F401
    from hostwcg_env.engine import Game

    from . import Observer, decide, make_agent

    decks = _decks()
    game = Game.new(decks[spec.deck_a], decks[spec.deck_b], seed=spec.seed)
    agents = [make_agent(spec.a, seed=2 * spec.seed), make_agent(spec.b, seed=2 * spec.seed + 1)]
    observer = Observer(game.state.config) if any(not hasattr(a, "choose") for a in agents) else None
    spent = [0.0, 0.0]
    choices = [0, 0]
    actions: list[str] = []
    while not game.is_over:
        d = game.decision
        assert d is not None
        if len(d.actions) == 1:
            a = d.actions[0]  # every agent takes a forced action; not timed
        else:
            t = time.perf_counter()
            a = decide(agents[d.player], game, observer)
            spent[d.player] += time.perf_counter() - t
            choices[d.player] += 1
        game.apply(a)
        actions.append(str(a))
    s = game.state
    return Record(spec, game.winner, len(actions), ((spent[0], choices[0]), (spent[1], choices[1])),
                  tuple(actions), s.reason, s.turn)


def replay(record: Record, visit: Callable[[Any, Any], None] | None = None) -> Any:
    """The game of a record replayed from its seed, decks and actions (``hostwcg_env.analysis
    .replay``), as a finished ``Game``; ``visit(game, action)`` is called before each action is
    applied (the decision it answers is ``game.decision``). Raises ``ValueError`` for a record
    without actions and ``ReplayError`` (saying where) when the replay diverges from it."""
    from hostwcg_env.analysis.records import from_ladder_line
    from hostwcg_env.analysis.replay import replay as replay_record

    game_record = from_ladder_line(record_dict(record, ""))
    if game_record is None:
        raise ValueError(f"{record.spec}: the record has no actions (written before they were kept)")
    before = None if visit is None else (lambda game, _i, action: visit(game, action))
    return replay_record(game_record, before_step=before)


_DECK_CACHE: list[Any] = []


def _decks() -> list[Any]:
    """The ladder's decks: every shipped deck file in file order, the two stand-in test decks
    included, numbered as the results files number them (``deck_a``, ``deck_b``)."""
    if not _DECK_CACHE:
        from hostwcg_env.cards.decks import pool_decks

        _DECK_CACHE.extend(pool_decks(include_test=True).values())
    return _DECK_CACHE


def schedule(agents: list[str], games: int, seed: int = 0, n_decks: int | None = None) -> list[GameSpec]:
    """``games`` games per pair: pairs of games share a seed and decks, with seats swapped."""
    if n_decks is None:
        n_decks = len(_decks())
    out = []
    for x, y in combinations(agents, 2):
        for i in range(games // 2 + games % 2):
            s = seed + i
            r = random.Random(s)
            da, db = r.randrange(n_decks), r.randrange(n_decks)
            out.append(GameSpec(x, y, s, da, db))
            if 2 * i + 1 < games:
                out.append(GameSpec(y, x, s, db, da))
    return out


def bradley_terry(names: list[str], wins: dict[tuple[str, str], float], iters: int = 200) -> dict[str, float]:
    """Maximum-likelihood strengths (MM algorithm); returned on the Elo scale, mean 1500."""
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iters):
        new = {}
        for i in names:
            w_i = sum(wins.get((i, j), 0.0) for j in names if j != i) + 0.5  # a small prior
            den = 0.0
            for j in names:
                if j == i:
                    continue
                n_ij = wins.get((i, j), 0.0) + wins.get((j, i), 0.0)
                if n_ij:
                    den += n_ij / (strength[i] + strength[j])
            new[i] = w_i / den if den else strength[i]
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {k: v / g for k, v in new.items()}
    return {k: 1500 + 400 * math.log10(v) for k, v in strength.items()}


@dataclass
class LadderResult:
    agents: list[str]
    records: list[Record]
    seconds: float
    resumed: int = 0  # records taken from a results file rather than played by this run
    source: str = ""  # set by ``from_results``: the files the records were read from

    def pair_wins(self) -> dict[tuple[str, str], float]:
        wins: dict[tuple[str, str], float] = {}
        for rec in self.records:
            spec, w = rec.spec, rec.winner
            names = (spec.a, spec.b)
            if w is None:
                wins[(spec.a, spec.b)] = wins.get((spec.a, spec.b), 0) + 0.5
                wins[(spec.b, spec.a)] = wins.get((spec.b, spec.a), 0) + 0.5
            else:
                wins[(names[w], names[1 - w])] = wins.get((names[w], names[1 - w]), 0) + 1
        return wins

    def ratings(self, boot: int = 200, seed: int = 0) -> dict[str, tuple[float, float, float]]:
        point = bradley_terry(self.agents, self.pair_wins())
        rng = random.Random(seed)
        samples: dict[str, list[float]] = {a: [] for a in self.agents}
        for _ in range(boot):
            pick = [self.records[rng.randrange(len(self.records))] for _ in self.records]
            r = LadderResult(self.agents, pick, 0).pair_wins()
            for a, v in bradley_terry(self.agents, r, iters=60).items():
                samples[a].append(v)
        out = {}
        for a in self.agents:
            xs = sorted(samples[a])
            lo, hi = xs[int(0.025 * (len(xs) - 1))], xs[int(0.975 * (len(xs) - 1))]
            out[a] = (point[a], lo, hi)
        return out

    def rows(self) -> list[dict[str, Any]]:
        wins = self.pair_wins()
        out = []
        for x, y in combinations(self.agents, 2):
            n = sum(1 for r in self.records if {r.spec.a, r.spec.b} == {x, y})
            if not n and self.source:
                continue  # a report from results files shows the pairs that were played
            p, lo, hi = wilson(wins.get((x, y), 0.0), n)
            out.append({"agent": x, "opponent": y, "games": n, "wins": wins.get((x, y), 0.0),
                        "win_rate": p, "ci95_low": lo, "ci95_high": hi})
        return out

    def markdown(self) -> str:
        lines = ["| agent | opponent | games | win rate | 95% CI |", "|---|---|---:|---:|---|"]
        for r in self.rows():
            lines.append(f"| {r['agent']} | {r['opponent']} | {r['games']} | {r['win_rate']:.1%} | "
                         f"{r['ci95_low']:.1%} - {r['ci95_high']:.1%} |")
        if self.connected():
            lines += ["", "| agent | rating (Bradley-Terry, Elo scale) | 95% CI (bootstrap) |", "|---|---:|---|"]
            for a, (rating, lo, hi) in sorted(self.ratings().items(), key=lambda t: -t[1][0]):
                lines.append(f"| {a} | {rating:.0f} | {lo:.0f} - {hi:.0f} |")
        else:
            lines += ["", "No ratings: the pairs played do not link every agent to every other."]
        lines += ["", "| agent | choices | ms per choice (mean) | slowest game's mean (ms) |", "|---|---:|---:|---:|"]
        for a, (n, mean, worst) in self.timing().items():
            lines.append(f"| {a} | {n} | {1000 * mean:.2f} | {1000 * worst:.2f} |")
        games = len(self.records)
        played = (f"{games} games ({self.resumed} from the results file, {games - self.resumed} played "
                  f"in {self.seconds:.0f} s)" if self.resumed else f"{games} games in {self.seconds:.0f} s")
        if self.source:
            played = f"{games:,} games from {self.source}"
        lines += ["", f"{played}; draws count as half a win; "
                      "seats swapped on paired seeds over the shipped decks; a choice is a decision "
                      "with more than one legal action (forced ones are taken without asking)."]
        return "\n".join(lines)

    def connected(self) -> bool:
        """Whether the pairs played link every agent to every other (Bradley-Terry ratings
        compare agents only within such a set)."""
        if not self.agents:
            return False
        seen, todo = {self.agents[0]}, [self.agents[0]]
        pairs = {(r.spec.a, r.spec.b) for r in self.records}
        while todo:
            x = todo.pop()
            for a, b in pairs:
                for u, v in ((a, b), (b, a)):
                    if u == x and v not in seen:
                        seen.add(v)
                        todo.append(v)
        return seen == set(self.agents)

    @classmethod
    def from_results(cls, paths: list[str | Path]) -> LadderResult:
        """The ladder of every game in these results files, whatever pairs and seeds they
        hold (``hostwcg ladder FILES``): a game found in more than one file counts once."""
        records: dict[GameSpec, Record] = {}
        agents: list[str] = []
        for path in paths:
            if not Path(path).is_file():
                raise ValueError(f"{path}: no such results file")
            for rec in load_results(path)[0]:
                records.setdefault(rec.spec, rec)
                for name in (rec.spec.a, rec.spec.b):
                    if name not in agents:
                        agents.append(name)
        if not records:
            raise ValueError(f"no games in {', '.join(map(str, paths))}")
        names = ", ".join(Path(p).name for p in paths)
        out = cls(agents, sorted(records.values(), key=lambda r: (r.spec.a, r.spec.b, r.spec.seed)), 0.0,
                  source=f"{len(paths)} results file{'s' if len(paths) > 1 else ''} ({names})")
        if out.connected():  # standings order: each row names the stronger agent first
            point = bradley_terry(agents, out.pair_wins())
            out.agents = sorted(agents, key=lambda a: -point[a])
        return out

    def timing(self) -> dict[str, tuple[int, float, float]]:
        """Per agent: choices made, mean seconds per choice, and the highest per-game mean."""
        out: dict[str, list[Any]] = {a: [0, 0.0, 0.0] for a in self.agents}
        for rec in self.records:
            for name, (secs, k) in zip((rec.spec.a, rec.spec.b), rec.seats, strict=True):
                out[name][0] += k
                out[name][1] += secs
                if k:
                    out[name][2] = max(out[name][2], secs / k)
        return {a: (n, secs / n if n else 0.0, worst) for a, (n, secs, worst) in out.items()}

    def csv(self) -> str:
        buf = io.StringIO()
        rows = self.rows()
        w = csv.DictWriter(buf, fieldnames=list(rows[0].keys()))
        w.writeheader()
        # rounded here, for the file only: the markdown formats the exact values (rounding twice
        # turned a bound of 99.349% into "99.4%")
        w.writerows({k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()} for r in rows)
        return buf.getvalue()


def _progress(it: Iterable[Any], total: int, quiet: bool) -> Iterable[Any]:
    if quiet:
        yield from it
        return
    try:
        from tqdm import tqdm

        yield from tqdm(it, total=total, unit="game", file=sys.stderr)
    except ImportError:
        t0 = time.time()
        for i, x in enumerate(it, 1):
            if i % max(1, total // 20) == 0 or i == total:
                rate = i / max(1e-9, time.time() - t0)
                print(f"{i}/{total} games, {rate:.1f} games/s, {(total - i) / rate:.0f} s left", file=sys.stderr)
            yield x


def code_version() -> str:
    """The last git commit that changed the code which plays (the engine, the cards, the
    agents and their checkpoints; not ladder results or docs), with ``+dirty`` for uncommitted
    changes there, or the package version outside a git checkout."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    paths = ["--", "hostwcg_env", "agents", ":(exclude)agents/ladder_results"]
    try:
        head = subprocess.run(["git", "log", "-1", "--format=%h", "--abbrev=12", *paths], cwd=root,
                              capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", *paths], cwd=root,
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        if not head:
            raise OSError("no commit")
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        from importlib.metadata import PackageNotFoundError, version

        try:
            return "hostwcg " + version("hostwcg")
        except PackageNotFoundError:
            return "unknown"


def record_dict(rec: Record, version: str) -> dict[str, Any]:
    """A record as one line of a results file holds it."""
    spec = rec.spec
    out: dict[str, Any] = {"a": spec.a, "b": spec.b, "seed": spec.seed, "deck_a": spec.deck_a,
                           "deck_b": spec.deck_b, "winner": rec.winner, "decisions": rec.decisions,
                           "seats": [[round(secs, 4), k] for secs, k in rec.seats], "version": version,
                           "actions": list(rec.actions)}
    if rec.reason is not None:
        out.update(reason=rec.reason, turns=rec.turns)
    return out


def record_to_json(rec: Record, version: str) -> str:
    return json.dumps(record_dict(rec, version))


def load_results(path: str | Path) -> tuple[list[Record], set[str]]:
    """The records of a ladder results file and the code versions that played them. A line
    cut short by an interruption (the last one) is skipped; any other bad line is an error
    naming the file and line."""
    records: list[Record] = []
    versions: set[str] = set()
    p = Path(path)
    if not p.exists():
        return records, versions
    from hostwcg_env.analysis.records import read_lines

    lines = list(read_lines(p))
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            spec = GameSpec(str(d["a"]), str(d["b"]), int(d["seed"]), int(d["deck_a"]), int(d["deck_b"]))
            seats = tuple((float(secs), int(k)) for secs, k in d["seats"])
            if len(seats) != 2 or d["winner"] not in (None, 0, 1):
                raise ValueError("winner must be 0, 1 or null and seats two [seconds, choices] pairs")
            actions = tuple(str(a) for a in d.get("actions", ()))
            reason, turns = d.get("reason"), d.get("turns")
        except (ValueError, KeyError, TypeError) as e:
            if i == len(lines):
                print(f"{p}:{i}: skipping an unfinished last line", file=sys.stderr)
                continue
            raise ValueError(f"{p}:{i}: not a ladder record ({e})") from e
        records.append(Record(spec, d["winner"], int(d["decisions"]), (seats[0], seats[1]), actions,
                              None if reason is None else str(reason), None if turns is None else int(turns)))
        versions.add(str(d.get("version", "unknown")))
    return records, versions


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def run_ladder(agents: list[str], games: int, workers: int = 1, seed: int = 0, quiet: bool = False,
               results: str | Path | None = None, shard: tuple[int, int] | None = None) -> LadderResult:
    """Play the schedule (``schedule``) and collect the records. With ``results``, games
    already in that JSON-lines file are taken from it and each new game is appended to it as
    it ends (see the module docstring). With ``shard=(k, n)`` this run plays only the games
    whose place in the schedule is k modulo n (n runs, on one machine or several, share the
    schedule); the report covers every game of the schedule found in ``results`` too."""
    if shard is not None:
        k, n_shards = shard
        if n_shards < 1 or not 0 <= k < n_shards:
            raise ValueError(f"shard {k}/{n_shards}: K must be 0 to N-1 and N at least 1")
    specs = schedule(agents, games, seed)
    done: dict[GameSpec, Record] = {}
    out = None
    version = ""
    if results is not None:
        version = code_version()
        old, versions = load_results(results)
        wanted = set(specs)
        for rec in old:
            if rec.spec in wanted:
                done.setdefault(rec.spec, rec)
        if done and not quiet:
            print(f"{results}: {len(done)} of {len(specs)} games already played "
                  f"(code versions: {', '.join(sorted(versions))})", file=sys.stderr)
        if versions - {version} and not quiet:
            print(f"{results}: note: games played by other code versions than this one ({version})",
                  file=sys.stderr)
        Path(results).parent.mkdir(parents=True, exist_ok=True)
        from hostwcg_env.analysis.records import open_append

        out = open_append(results)  # closed below
    todo = [sp for i, sp in enumerate(specs)
            if sp not in done and (shard is None or i % shard[1] == shard[0])]
    t0 = time.time()
    records = list(done.values())
    with ExitStack() as stack:
        if out is not None:
            stack.callback(out.close)
        played: Iterable[Record] = map(play_game, todo)
        if workers > 1 and len(todo) > 1:
            if threading.current_thread() is threading.main_thread():
                # A terminated run (``kill``, a job scheduler) unwinds like Ctrl-C: the pool
                # stops its workers instead of leaving them playing on as orphans, and every
                # finished game is already in ``results``.
                previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
                stack.callback(signal.signal, signal.SIGTERM, previous)
            pool = stack.enter_context(get_context("spawn").Pool(workers))
            played = pool.imap_unordered(play_game, todo, chunksize=1 if out else 2)
        for rec in _progress(played, len(todo), quiet):
            records.append(rec)
            if out is not None:
                out.write(record_to_json(rec, version) + "\n")
                out.flush()
    records.sort(key=lambda r: (r.spec.a, r.spec.b, r.spec.seed))
    return LadderResult(list(agents), records, time.time() - t0, resumed=len(done))
