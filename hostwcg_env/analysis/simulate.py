"""Studies: decks x decks with agents on paired, seat-swapped seeds, run resumably.

A :class:`Study` fixes the decks, the agents (one per seat), the rule overrides, the number
of games per deck pair and the base seed. Its schedule is seed-major: for k = 0, 1, ... every
deck pair plays game k before any pair plays game k + 1; games 2m and 2m + 1 of a pair share
the seed ``seed + m`` with the decks' seats swapped (mirror pairs, with ``mirrors=True``, play
seed ``seed + k``). Each game is a pure function of its :class:`GameSpec`, so the same study
gives the same records whatever the backend, the number of workers or the interruptions.

:func:`run_study` writes every finished game to ``OUT/shards/`` at once and, run again with
the same ``OUT``, plays only the games whose key is not there yet.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .recordfile import RecordFileError, ShardWriter, read_records, repair, shard_files
from .records import (
    JSON,
    MAX_SEED,
    DeckLike,
    DeckRef,
    Record,
    RuleValue,
    game_key,
    pool_hash,
    record_key,
)
from .runner import GameSpec, run_game

if TYPE_CHECKING:
    import pandas as pd

    from .backends import Backend
    from .report import StudyMeta, Written
    from .stats import Tables

DeckItem = str | Path | DeckRef | DeckLike  # a deck as resolve_decks takes it


class _Bar(Protocol):
    """The part of a tqdm progress bar that ``Progress`` uses."""

    def update(self, n: int = 1) -> object: ...

    def close(self) -> None: ...

STUDY_FILE = "study.json"


# ============================================================================ one game

play_game = run_game  # one game of a study: its record (the game runner, runner.py)


# ============================================================================ decks


def resolve_decks(items: Iterable[DeckItem] | None = None, include_test: bool = False) -> list[DeckRef]:
    """Decks from short names (``brae``), ids (file stems: ``brae_deep_roots``), paths to deck
    files (as ``hostwcg_env.cards.deck_path`` reads them: one resolver for every command), or
    Deck objects; by default every shipped preconstructed deck."""
    from hostwcg_env.cards.decks import DeckError, deck_path, load_deck, pool_decks

    if items is None:
        return [DeckRef.of(d, id=k) for k, d in pool_decks(include_test=include_test).items()]
    out: list[DeckRef] = []
    for it in items:
        if isinstance(it, DeckRef):
            out.append(it)
        elif not isinstance(it, str | Path):
            out.append(DeckRef.of(it))
        else:
            try:
                path = deck_path(it)
            except DeckError as e:
                raise ValueError(e.problems[0].message.removeprefix("UNKNOWN_DECK ")) from None
            out.append(DeckRef.of(load_deck(path), id=path.stem))
    ids = [d.id for d in out]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"deck given twice: {', '.join(dup)}")
    return out


def parse_rules(items: Iterable[str] | Mapping[str, RuleValue] | None) -> dict[str, RuleValue]:
    """``["damage_draws=true", "ap_per_turn=3"]`` -> typed overrides, checked by RuleConfig."""
    from hostwcg_env.engine import RuleConfig

    if not items:
        return {}
    raw: dict[str, RuleValue] = {}
    if isinstance(items, dict):
        raw = dict(items)
    else:
        for it in items:
            flag, eq, value = it.partition("=")
            if not eq or not flag.strip():
                raise ValueError(f"rule {it!r}: write FLAG=VALUE (e.g. damage_draws=true)")
            raw[flag.strip()] = value.strip()
    cfg = RuleConfig().with_overrides(raw)  # raises on unknown flags and bad values
    return {k: getattr(cfg, k) for k in sorted(raw)}


# ============================================================================ the study


@dataclass
class Study:
    """What to simulate. ``games`` is per deck pair (both seatings together)."""

    decks: list[DeckRef]
    games: int = 100
    agents: tuple[str, str] = ("random", "random")
    rules: dict[str, RuleValue] = field(default_factory=dict)
    seed: int = 0
    mirrors: bool = False
    label: str = ""
    max_width: float = 0.2  # a 95% interval wider than this is flagged too wide to call
    patches: tuple[str, ...] = ()  # card patches (patches.py), applied to the shipped pool
    focus: str = ""  # a deck id: only the pairs with this deck are played (balance tune)

    @classmethod
    def make(cls, decks: Iterable[DeckItem] | None = None, games: int = 100,
             agents: str | Sequence[str] = "random", rules: Iterable[str] | Mapping[str, RuleValue] | None = None,
             seed: int = 0,
             mirrors: bool = False, include_test: bool = False, label: str = "",
             max_width: float = 0.2) -> Study:
        if isinstance(agents, str):
            names = [a.strip() for a in agents.split(",") if a.strip()]
        else:
            names = list(agents)
        if len(names) == 1:
            names *= 2
        if len(names) != 2:
            raise ValueError("agents: give one agent, or two (seat A, seat B)")
        from agents.registry import problem as agent_problem

        for n in names:
            problem = agent_problem(n)  # fail here, not in a worker (e.g. a missing checkpoint)
            if problem:
                raise ValueError(problem)
        refs = resolve_decks(decks, include_test=include_test)
        if len(refs) < 2 and not (mirrors and refs):
            raise ValueError("a study needs at least two decks (or one with mirrors)")
        if games < 1:
            raise ValueError("games must be at least 1")
        if seed + games - 1 > MAX_SEED:
            raise ValueError(f"seeds {seed} to {seed + games - 1} go past the largest seed, 2**63-1: give a "
                             "smaller --seed or fewer --games")
        return cls(refs, games, (names[0], names[1]), parse_rules(rules), seed, mirrors, label, max_width)

    # ------------------------------------------------------------------ schedule
    def pairs(self) -> list[tuple[int, int]]:
        n = len(self.decks)
        ids = [d.id for d in self.decks]
        return [(i, j) for i in range(n) for j in range(i, n) if (i != j or self.mirrors)
                and (not self.focus or self.focus in (ids[i], ids[j]))]

    def specs(self) -> list[GameSpec]:
        """The whole schedule as a list (``spec`` and ``iter_specs`` give it a game at a time,
        for a study of any size)."""
        return list(self.iter_specs())

    def iter_specs(self, upto: int | None = None) -> Iterator[GameSpec]:
        """The schedule's games in order (the first ``upto`` of them), made one at a time."""
        n = self.n_games if upto is None else min(upto, self.n_games)
        for index in range(n):
            yield self.spec(index)

    def spec(self, index: int) -> GameSpec:
        """Game ``index`` of the schedule: round ``k = index // pairs``, pair ``index % pairs``;
        in round k a pair of two decks plays at seed ``seed + k // 2``, seats swapped on odd
        rounds, and a mirror at seed ``seed + k``."""
        pairs = self._pairs()
        k, q = divmod(index, len(pairs))
        i, j = pairs[q]
        if i == j:
            a, b, seed = i, i, self.seed + k
        else:
            a, b = (i, j) if k % 2 == 0 else (j, i)
            seed = self.seed + k // 2
        return GameSpec(self.decks[a], self.decks[b], seed, self.agents, tuple(sorted(self.rules.items())),
                        self.label, index, patches=self.patches)

    def _pairs(self) -> list[tuple[int, int]]:
        cached: list[tuple[int, int]] | None = self.__dict__.get("_pairs_cache")
        if cached is None or self.__dict__.get("_pairs_for") != (len(self.decks), self.mirrors, self.focus):
            cached = self.pairs()
            self.__dict__["_pairs_cache"] = cached
            self.__dict__["_pairs_for"] = (len(self.decks), self.mirrors, self.focus)
        return cached

    def index_of(self, deck_a: str, deck_b: str, seed: int) -> int | None:
        """The place in the schedule of the game of these decks (by id) and seed, or None."""
        ids = {d.id: n for n, d in reversed(list(enumerate(self.decks)))}
        if deck_a not in ids or deck_b not in ids:
            return None
        a, b = ids[deck_a], ids[deck_b]
        pairs = self._pairs()
        if a == b:
            if (a, a) not in pairs:
                return None
            k = seed - self.seed
        else:
            if (min(a, b), max(a, b)) not in pairs:
                return None
            k = 2 * (seed - self.seed) + (0 if a < b else 1)
        if not 0 <= k < self.games:
            return None
        index = k * len(pairs) + pairs.index((min(a, b), max(a, b)))
        return index if self.spec(index).key == game_key(deck_a, deck_b, seed) else None

    @property
    def n_games(self) -> int:
        return self.games * len(self.pairs())

    # ------------------------------------------------------------------ identity
    def identity(self) -> dict[str, object]:
        """What records must share to belong to this study (games, seed and mirrors may change:
        records are matched to the schedule by key)."""
        ident: dict[str, object] = {"decks": [d.to_json() for d in self.decks], "agents": list(self.agents),
                 "rules": self.rules, "label": self.label}
        if self.patches:
            ident["patches"] = list(self.patches)
        if self.focus:
            ident["focus"] = self.focus
        return ident

    def to_json(self) -> dict[str, object]:
        return {"study": 1, **self.identity(), "games": self.games, "seed": self.seed,
                "mirrors": self.mirrors, "max_width": self.max_width, "pool": pool_hash()}

    @classmethod
    def from_json(cls, d: dict[str, JSON]) -> Study:
        return cls([DeckRef.from_json(x) for x in d["decks"]], d["games"], tuple(d["agents"]),  # type: ignore[arg-type]
                   dict(d.get("rules", {})), d.get("seed", 0), d.get("mirrors", False),
                   d.get("label", ""), d.get("max_width", 0.2), tuple(d.get("patches", ())), d.get("focus", ""))

    @classmethod
    def load(cls, folder: str | Path) -> Study:
        return cls.from_json(json.loads((Path(folder) / STUDY_FILE).read_text()))

    def with_rules(self, extra: Mapping[str, RuleValue], label: str) -> Study:
        return Study(self.decks, self.games, self.agents, {**self.rules, **extra}, self.seed,
                     self.mirrors, label, self.max_width, self.patches, self.focus)

    def with_changes(self, patches: Sequence[str], swaps: Sequence[str], label: str) -> Study:
        """This study with card patches and deck swaps (patches.py), checked: the same schedule
        and seeds, so its games pair with this study's."""
        from .patches import apply_changes

        decks, checked = apply_changes(self.decks, [*self.patches, *patches], swaps)
        return Study(decks, self.games, self.agents, dict(self.rules), self.seed, self.mirrors, label,
                     self.max_width, checked, self.focus)

    def describe(self) -> str:
        rules = ", ".join(f"{k}={v}" for k, v in self.rules.items()) or "defaults"
        patched = "; patches: " + " | ".join(self.patches) if self.patches else ""
        return (f"{len(self.decks)} decks, {len(self.pairs())} pairs x {self.games} games = "
                f"{self.n_games} games; agents {self.agents[0]} (A) vs {self.agents[1]} (B); "
                f"rules: {rules}; seed {self.seed}{patched}")


class StudyMismatch(ValueError):
    pass


def prepare_out(study: Study, out: str | Path, fresh: bool = False) -> Path:
    """Make ``out`` hold this study: write study.json, or check the one there matches; mend
    what an interrupted run left at the end of its shards (``recordfile.repair``)."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise RecordFileError(f"--out {folder} is a file: a study's outputs go in a folder")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / STUDY_FILE
    shards = folder / "shards"
    if fresh and shards.is_dir():
        for f in shards.glob("shard-*.jsonl"):
            f.unlink()
    if path.exists() and not fresh:
        try:
            old = json.loads(path.read_text())
        except ValueError:
            old = None  # cut off by a kill while it was written (before atomic writes): rewritten
        if old is not None:
            mine = study.identity()
            keys = [*mine, *(k for k in ("patches", "focus") if k in old and k not in mine)]
            diff = [k for k in keys
                    if json.dumps(old.get(k), sort_keys=True) != json.dumps(mine.get(k), sort_keys=True)]
            if diff:
                raise StudyMismatch(f"{folder} holds a different study (it differs in: {', '.join(diff)}); "
                                    "give another --out, or --fresh to discard its games")
    tmp = folder / f".{STUDY_FILE}.{os.getpid()}"
    tmp.write_text(json.dumps(study.to_json(), indent=1) + "\n")
    os.replace(tmp, path)  # whole or not at all
    for f in shard_files(shards) if shards.is_dir() else []:
        repair(f)
    return folder


# ============================================================================ progress


class Progress:
    """Games done, games per second and time left: tqdm when installed, else a stderr line."""

    def __init__(self, total: int, done: int = 0, quiet: bool = False, desc: str = "games") -> None:
        self.total, self.n, self.quiet, self.t0 = total, done, quiet, time.time()
        self.start_n = done
        self.last = 0.0
        self.bar: _Bar | None = None
        if quiet:
            return
        try:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=done, unit="game", desc=desc, file=sys.stderr,
                            dynamic_ncols=True, smoothing=0.1)
        except ImportError:
            self.bar = None

    def update(self, k: int = 1) -> None:
        self.n += k
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.update(k)
            return
        now = time.time()
        if now - self.last >= 2 or self.n >= self.total:
            self.last = now
            rate = (self.n - self.start_n) / max(1e-9, now - self.t0)
            left = (self.total - self.n) / rate if rate > 0 else float("inf")
            print(f"\r{self.n}/{self.total} games, {rate:.1f} games/s, {_dur(left)} left   ",
                  end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif not self.quiet:
            print(file=sys.stderr)


def _dur(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    s = int(seconds)
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


# ============================================================================ running

CHUNK = 4096  # games handed to a backend at a time, at least (``chunk_size``)


def chunk_size(backend: Backend) -> int:
    """How many games to hand ``backend`` at a time: enough to keep every worker busy (16 a
    worker, or a Ray cluster's CPU), never the whole schedule."""
    n = getattr(backend, "workers", None)
    if n is None and hasattr(backend, "cpus"):
        n = backend.cpus()
    return max(CHUNK, 16 * int(n or 1))


def _place(study: Study, rec: Record) -> int:
    i = study.index_of(rec["decks"][0]["id"], rec["decks"][1]["id"], rec["seed"])
    assert i is not None  # (load_done and the backends give records of the schedule only)
    return i


def in_schedule_order(study: Study, records: Iterable[Record]) -> list[Record]:
    """Records of ``study`` (``load_done``) in schedule order."""
    return sorted(records, key=lambda r: _place(study, r))


def execute(todo: list[GameSpec], writers: dict[str, ShardWriter | None], backend: Backend,
            progress: Progress | None = None, sink: Callable[[Record], None] | None = None) -> int:
    """Play ``todo`` on ``backend``; each record goes to its label's writer as it arrives."""
    n = 0
    for rec in backend.imap_unordered(todo):
        w = writers.get(rec.get("label", ""))
        if w is not None:
            w.write(rec)
        if sink is not None:
            sink(rec)
        n += 1
        if progress is not None:
            progress.update()
    return n


def load_done(study: Study, out: str | Path | None) -> dict[str, Record]:
    """Records of this study already under ``out`` (by key), those of its schedule only (found
    by ``Study.index_of``, not by listing the schedule: a study of any size)."""
    if out is None:
        return {}
    done = {}
    for rec in read_records(out):
        k = record_key(rec)
        if rec.get("label", "") == study.label and list(rec["agents"]) == list(study.agents) \
                and rec.get("rules", {}) == study.rules and list(rec.get("patches", ())) == list(study.patches) \
                and study.index_of(rec["decks"][0]["id"], rec["decks"][1]["id"], rec["seed"]) is not None:
            done[k] = rec
    return done


def run_study(study: Study, out: str | Path | None = None, backend: str | Backend = "local",
              workers: int | None = None, address: str | None = None, quiet: bool = False,
              stop_after: int | None = None, fresh: bool = False, upto: int | None = None) -> BalanceResult:
    """Run (or resume) ``study``; records go to ``out/shards`` as games finish.

    ``backend``: "local" (multiprocessing with ``workers``, serial when 1), "ray" (``address``
    of a cluster, or a local one), or a backend object. ``stop_after``: play at most this many
    new games, then return (what an interruption would leave). ``upto``: only the first
    ``upto`` games of the schedule (sequential comparisons).
    """
    from .backends import make_backend, sigterm_unwinds

    t0 = time.time()
    if out is not None:
        prepare_out(study, out, fresh=fresh)
    total = study.n_games if upto is None else min(upto, study.n_games)
    done = load_done(study, out)
    done_here = sum(1 for r in done.values() if _place(study, r) < total)
    n_todo = total - done_here if stop_after is None else min(stop_after, total - done_here)
    # the schedule is made a game at a time and handed over in chunks: a study of any size
    # starts at once and its schedule takes no memory
    todo: Iterator[GameSpec] = (sp for sp in study.iter_specs(total) if sp.key not in done)
    if stop_after is not None:
        todo = islice(todo, stop_after)
    new: dict[str, Record] = {}
    if n_todo > 0:
        writer = ShardWriter(Path(out) / "shards", prefix=study.label) if out is not None else None
        bar = Progress(total, done_here, quiet=quiet)
        be, own = (make_backend(backend, workers=workers, address=address), True) \
            if isinstance(backend, str) else (backend, False)
        with sigterm_unwinds():
            try:
                size = chunk_size(be)
                while chunk := list(islice(todo, size)):
                    execute(chunk, {study.label: writer}, be, bar, sink=lambda r: new.__setitem__(record_key(r), r))
            except (KeyboardInterrupt, SystemExit):
                bar.close()
                if out is not None and not quiet:
                    print(f"\ninterrupted: {len(done) + len(new)} of {total} games are kept in {out}; "
                          "run the same command again to resume", file=sys.stderr)
                raise
            finally:
                if writer is not None:
                    writer.close()
                if own:
                    be.close()
        bar.close()
    allrec = {**done, **new}
    records = sorted((r for r in allrec.values() if _place(study, r) < total), key=lambda r: _place(study, r))
    return BalanceResult(study, records, time.time() - t0, Path(out) if out is not None else None,
                         new_games=len(new), new_ms=sum(r.get("ms") or 0 for r in new.values()))


@dataclass
class BalanceResult:
    """The records of a study, in schedule order, and the tables computed from them."""

    study: Study
    records: list[Record]
    seconds: float = 0.0
    out: Path | None = None
    new_games: int = 0
    new_ms: float = 0  # (whole milliseconds from the runner)
    _tables: Tables | None = None

    @property
    def tables(self) -> Tables:
        if self._tables is None:
            from .stats import compute_tables

            self._tables = compute_tables(self.records, [d.id for d in self.study.decks],
                                          max_width=self.study.max_width)
            from .metagame import available, metagame
            from .stats import text

            if available() is None:  # the deck-choice game (metagame.py); needs the analysis extra
                self._tables["metagame"] = metagame(self.records, [text(r["deck"]) for r in self._tables["matrix"]])
        return self._tables

    def frames(self) -> dict[str, pd.DataFrame]:
        """The tables as pandas DataFrames (needs pandas: pip install 'hostwcg[analysis]')."""
        from .report import to_frames

        return to_frames(self.tables)

    def matrix(self) -> pd.DataFrame:
        """The matchup matrix (row deck's win rate against the column deck) as a DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.tables["matrix"]).set_index("deck")

    def meta(self) -> StudyMeta:
        rate = self.new_games / max(1e-9, self.seconds) if self.new_games else None
        return {"study": self.study.describe(), "games": len(self.records),
                "expected_games": self.study.n_games, "new_games": self.new_games,
                "seconds": round(self.seconds, 1), "games_per_second": rate,
                "max_width": self.study.max_width}

    def write_report(self, out: str | Path | None = None, plots: bool = True,
                     title: str = "Balance report") -> Written:
        """CSV (and Parquet when pyarrow is there), PNG plots and report.html under ``out``."""
        from .report import write_all

        folder = Path(out) if out is not None else self.out
        if folder is None:
            raise ValueError("write_report: give an output folder")
        return write_all(self.tables, folder, self.meta(), plots=plots, title=title)
