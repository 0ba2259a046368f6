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
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


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

    def add(self, rec: dict[str, Any]) -> None:
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
            self.choices[name] = self.choices.get(name, 0) + k
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


def id_digest(rid: tuple[Any, ...]) -> int:
    """A ``records.record_id`` as one 64-bit number: what a set of the games already counted
    holds (a few dozen bytes a game, where the id itself takes hundreds)."""
    text = json.dumps(rid, separators=(",", ":"), ensure_ascii=False)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
