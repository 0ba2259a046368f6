"""What a ladder report needs of its games, summed as they arrive: memory flat in the number of
games (``ladder.py`` builds its report from a :class:`Tally`, not from the records).

Per ordered pair of agents the wins (a draw is half a win each way), per unordered pair the
games, per agent the choices, the seconds spent on them and the highest per-game mean, and the
decks the games drew from. The seconds are summed exactly (as fractions), so the report does
not depend on the order the games arrived in: a resumed or sharded run reports what an
uninterrupted one does.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .records import Record, RecordId


@dataclass
class Tally:
    """Sums over game records (``records.py``), one :meth:`add` a game."""

    games: int = 0
    agents: list[str] = field(default_factory=list)  # in the order first seen
    wins: dict[tuple[str, str], float] = field(default_factory=dict)  # (winner, loser): wins
    pair_games: dict[frozenset[str], int] = field(default_factory=dict)
    choices: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, Fraction] = field(default_factory=dict)
    worst: dict[str, float] = field(default_factory=dict)  # the highest per-game mean seconds per choice
    deck_ids: set[str] = field(default_factory=set)

    def add(self, rec: Record) -> None:
        a, b = rec["agents"]
        for name in (a, b):
            if name not in self.agents:
                self.agents.append(name)
        self.games += 1
        w = rec["winner"]
        if w is None:
            self.wins[(a, b)] = self.wins.get((a, b), 0.0) + 0.5
            self.wins[(b, a)] = self.wins.get((b, a), 0.0) + 0.5
        else:
            names = (a, b)
            key = (names[w], names[1 - w])
            self.wins[key] = self.wins.get(key, 0.0) + 1
        pair = frozenset((a, b))
        self.pair_games[pair] = self.pair_games.get(pair, 0) + 1
        for name, (secs, k) in zip((a, b), rec.get("seats") or ((0.0, 0), (0.0, 0)), strict=True):
            self.choices[name] = self.choices.get(name, 0) + int(k)  # (a whole number: records.upgrade)
            self.seconds[name] = self.seconds.get(name, Fraction(0)) + Fraction(secs)
            if k:
                self.worst[name] = max(self.worst.get(name, 0.0), secs / k)
        for d in rec.get("decks", ()):
            if isinstance(d, dict) and "id" in d:
                self.deck_ids.add(d["id"])

    def games_between(self, x: str, y: str) -> int:
        return self.pair_games.get(frozenset((x, y)), 0)

    def timing(self, agents: list[str]) -> dict[str, tuple[int, float, float]]:
        """Per agent: choices made, mean seconds per choice, the highest per-game mean."""
        out = {}
        for a in agents:
            n = self.choices.get(a, 0)
            out[a] = (n, float(self.seconds.get(a, Fraction(0)) / n) if n else 0.0, self.worst.get(a, 0.0))
        return out


def id_digest(rid: RecordId) -> int:
    """A ``records.record_id`` as one 64-bit number: what a set of the games already counted
    holds (a few dozen bytes a game, where the id itself takes hundreds)."""
    text = json.dumps(rid, separators=(",", ":"), ensure_ascii=False)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


class NumberSet:
    """A set of whole numbers from 0 to 2**64-1 (record digests, places in a schedule) in about
    8 bytes each: a sorted numpy array, with the newest numbers in a small Python set merged
    into it as that fills (a Python set of ints takes about 20 times as much, left scattered
    over the memory the records were read into)."""

    BATCH = 4096

    def __init__(self) -> None:
        self._sorted = np.empty(0, dtype=np.uint64)
        self._new: set[int] = set()

    def __contains__(self, n: int) -> bool:
        if n in self._new:
            return True
        a = self._sorted
        i = int(np.searchsorted(a, np.uint64(n)))
        return i < len(a) and int(a[i]) == n

    def add(self, n: int) -> None:
        if n in self:
            return
        self._new.add(n)
        if len(self._new) >= self.BATCH:
            new = np.sort(np.fromiter(self._new, dtype=np.uint64, count=len(self._new)))
            self._sorted = np.sort(np.concatenate((self._sorted, new)), kind="stable")  # two sorted runs: linear
            self._new = set()

    def __len__(self) -> int:
        return len(self._sorted) + len(self._new)

    def __iter__(self) -> Iterator[int]:
        yield from (int(x) for x in self._sorted)
        yield from self._new
