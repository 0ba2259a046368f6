"""The game record: one compact JSON object per game, written as JSONL shards.

A record holds everything needed to replay the game exactly and to compute every statistic
without replaying it:

    {"v": 1, "key": "brae_deep_roots|karsh_ember_tide|7", "seed": 7,
     "decks": [{"id": "brae_deep_roots", "name": "Deep Roots", "host": "Mother Brae of the Grove",
                "main": [["Squire", 4], ["Grove Warden", 3], ...]}, {...}],
     "rules": {"damage_draws": true}, "agents": ["random", "random"], "agent_seeds": [14, 15],
     "actions": ["yes", "pass", "pass", "ap draw", "play h2", "slot f0", "pay auto", ...],
     "winner": 0, "reason": "damage_zone", "truncated": false, "turns": 13, "decisions": 666,
     "first_player": 1, "cards": [{"opening": [...], "drawn": [...], "played": [...]}, {...}],
     "pool": "3f1c0a9b2e4d", "engine": "0.1.0", "ms": 61}

``main`` is the deck list in order, run-length encoded (the order matters: the game shuffles
the list as given). ``actions`` are the canonical ``str(action)`` of each legal action taken, so
``Action.parse(text)`` gives back the exact action. ``winner`` is the seat (0 = A, 1 = B) or
null for a draw. ``cards[p]``: the Host-less card names of seat p's opening hand (after the
mulligan, with repeats), the names drawn after the game started, and the names played (that
reached the stack). ``pool`` is a hash of the card data the game was played with; ``ms`` the
wall time (the only field that is not a function of the others).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import IO, Any

RECORD_VERSION = 1
SHARD_GLOB = "shard-*.jsonl"


# ============================================================================ decks


@dataclass(frozen=True)
class DeckRef:
    """A deck as a study uses it: an id (the file stem), its display name, Host and list."""

    id: str
    name: str
    host: str
    main: tuple[str, ...]

    @classmethod
    def of(cls, deck: Any, id: str | None = None) -> DeckRef:
        """From a ``Deck`` (hostwcg_env.cards) or any object with name/host/main."""
        name = getattr(deck, "name", "") or (id or "deck")
        return cls(id=id or _slug(name), name=name, host=deck.host, main=tuple(deck.main))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "host": self.host, "main": rle(self.main)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DeckRef:
        return cls(id=d["id"], name=d.get("name", d["id"]), host=d["host"], main=tuple(unrle(d["main"])))

    @property
    def pair(self) -> tuple[str, list[str]]:
        """``(host, main)``, as ``Game.new`` accepts."""
        return self.host, list(self.main)


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text.lower()).strip("_") or "deck"


def rle(names: Sequence[str]) -> list[list[Any]]:
    """``["a", "a", "b"]`` -> ``[["a", 2], ["b", 1]]`` (order kept)."""
    out: list[list[Any]] = []
    for n in names:
        if out and out[-1][0] == n:
            out[-1][1] += 1
        else:
            out.append([n, 1])
    return out


def unrle(items: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for it in items:
        if isinstance(it, str):
            out.append(it)
        else:
            out.extend([it[0]] * int(it[1]))
    return out


# ============================================================================ one game to play


@dataclass(frozen=True)
class GameSpec:
    """One game of a study: decks by seat, seed, agents by seat, rule overrides, label."""

    deck_a: DeckRef
    deck_b: DeckRef
    seed: int
    agents: tuple[str, str] = ("random", "random")
    rules: tuple[tuple[str, Any], ...] = ()
    label: str = ""  # the configuration's name in a comparison ("A"/"B"), else ""
    index: int = 0  # position in the study's schedule (seed-major order)

    @property
    def key(self) -> str:
        return game_key(self.deck_a.id, self.deck_b.id, self.seed)

    @property
    def agent_seeds(self) -> tuple[int, int]:
        return 2 * self.seed, 2 * self.seed + 1

    @property
    def rules_dict(self) -> dict[str, Any]:
        return dict(self.rules)


def game_key(deck_a: str, deck_b: str, seed: int) -> str:
    return f"{deck_a}|{deck_b}|{seed}"


def record_key(rec: dict[str, Any]) -> str:
    return rec.get("key") or game_key(rec["decks"][0]["id"], rec["decks"][1]["id"], rec["seed"])


# ============================================================================ card data hash


@cache
def pool_hash() -> str:
    """A short hash of the shipped card data: replays name it when a game no longer replays."""
    from hostwcg_env.cards.loader import DATA_DIR

    h = hashlib.sha1()
    for p in sorted(Path(DATA_DIR).glob("*.toml")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


# ============================================================================ shards


@dataclass
class ShardWriter:
    """Appends records to ``DIR/shard-<run>-<n>.jsonl`` as games finish, one line each, flushed
    at once (a killed run keeps every finished game); a new shard every ``per_shard`` records.
    Each run writes its own files, so a resumed run never rewrites what an earlier one wrote."""

    folder: Path
    per_shard: int = 1000
    prefix: str = ""
    _fh: Any = None
    _n: int = 0
    _k: int = 0
    run_id: str = field(default_factory=lambda: f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-{os.urandom(3).hex()}")
    paths: list[Path] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.folder = Path(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def write(self, record: dict[str, Any]) -> None:
        if self._fh is None or self._n >= self.per_shard:
            self._rotate()
        self._fh.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n")
        self._fh.flush()
        self._n += 1

    def _rotate(self) -> None:
        self._close_file()
        self._k += 1
        name = f"shard-{self.prefix}{self.run_id}-{self._k:04d}.jsonl"
        path = self.folder / name
        self.paths.append(path)
        self._fh = open(path, "x", encoding="utf-8")  # noqa: SIM115  (never another run's file)
        self._n = 0

    def _close_file(self) -> None:
        if self._fh is not None:
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._fh.close()
            self._fh = None

    def close(self) -> None:
        self._close_file()

    def __enter__(self) -> ShardWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def read_lines(path: str | Path) -> Iterator[str]:
    """The lines of a text file, or of a gzip-compressed one (a name ending ``.gz``). A gzip
    stream cut short by an interrupted writer ends the lines where it was cut."""
    if str(path).endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            try:
                yield from fh
            except EOFError:
                return
    else:
        with open(path, encoding="utf-8") as fh:
            yield from fh


def open_append(path: str | Path) -> IO[str]:
    """``path`` opened to append text, gzip-compressed when its name ends ``.gz`` (each run
    appends a gzip member; ``read_lines`` reads them all as one stream)."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "at", encoding="utf-8")
    return open(path, "a", encoding="utf-8")  # noqa: SIM115  (the caller closes it)


def shard_files(path: str | Path) -> list[Path]:
    """The JSONL files under ``path``: the file itself, or a folder's shards (``shards/`` too)."""
    p = Path(path)
    if p.is_file():
        return [p]
    if not p.exists():
        return []
    files = sorted(p.glob(SHARD_GLOB))
    if (p / "shards").is_dir():
        files += sorted((p / "shards").glob(SHARD_GLOB))
    if not files:
        files = sorted(p.glob("*.jsonl"))
    return files


def from_ladder_line(d: dict[str, Any]) -> dict[str, Any] | None:
    """A line of a ladder results file (``agents/ladder.py``: agents ``a`` and ``b``, the
    shipped decks by index, seed, winner, actions) as a game record that ``replay`` takes: the
    decks in full (the shipped decks in file order, stand-in test decks included, as the
    ladder numbers them), default rules. None for a line that kept no actions (files written
    before they were kept)."""
    if not d.get("actions"):
        return None
    from hostwcg_env.cards.selfplay import pool_decks

    shipped = list(pool_decks(include_test=True).items())
    decks = [DeckRef.of(shipped[int(d[k])][1], id=shipped[int(d[k])][0]) for k in ("deck_a", "deck_b")]
    seed = int(d["seed"])
    rec: dict[str, Any] = {
        "v": RECORD_VERSION, "seed": seed, "decks": [x.to_json() for x in decks], "rules": {},
        "agents": [d["a"], d["b"]], "agent_seeds": [2 * seed, 2 * seed + 1], "actions": list(d["actions"]),
        "winner": d["winner"], "decisions": int(d["decisions"]),
    }
    rec.update({k: d[k] for k in ("reason", "turns") if k in d})
    return rec


def iter_records(path: str | Path, warn: bool = True, ladder: bool = False) -> Iterator[dict[str, Any]]:
    """Every record under ``path`` in file order; with ``ladder``, the lines of a ladder
    results file too, as game records to replay (``from_ladder_line``: they lack the per-card
    fields the balance statistics read). A line that is not valid JSON (a game cut off by an
    interruption mid-write) is skipped with a warning, as are ladder lines that kept no actions
    (counted in one warning); everything else is kept."""
    for f in shard_files(path):
        without_actions = 0
        for lineno, line in enumerate(read_lines(f), 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                if warn:
                    print(f"warning: {f}:{lineno}: skipped an incomplete record", file=sys.stderr)
                continue
            if isinstance(rec, dict) and "decks" in rec:
                yield rec
            elif ladder and isinstance(rec, dict) and "deck_a" in rec:
                game = from_ladder_line(rec)
                if game is None:
                    without_actions += 1
                else:
                    yield game
        if without_actions and warn:
            print(f"warning: {f}: skipped {without_actions} ladder records without actions "
                  f"(written before the ladder kept them)", file=sys.stderr)


def read_records(path: str | Path, warn: bool = True) -> list[dict[str, Any]]:
    """Records under ``path``, one per (label, key): a game recorded twice is kept once."""
    seen: set[tuple[str, str]] = set()
    out = []
    for rec in iter_records(path, warn=warn):
        k = (rec.get("label", ""), record_key(rec))
        if k in seen:
            continue
        seen.add(k)
        out.append(rec)
    return out
