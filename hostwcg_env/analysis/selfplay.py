"""Seeded random self-play between decks: which cards get played, and the deck matrix.

Both seats are played by one uniform random walk over the legal actions, a
``random.Random(seed)`` (:class:`SharedRandom`, a driver of the game runner, ``runner.py``),
so every game is reproducible from ``(deck_a, deck_b, seed)``. Used by tests/test_pool.py and
scripts/deck_matrix.py; notebooks can call :func:`deck_matrix` directly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING

from hostwcg_env.cards.decks import Deck, pool_decks
from hostwcg_env.engine.events import Activated, CardEvent, Created, Event, Played, WouldPlay

from .records import DeckLike, DeckRef
from .runner import GameSpec, Rules, Visitor, play

if TYPE_CHECKING:
    from hostwcg_env.engine import Action, Game, RuleConfig

DeckArg = DeckRef | tuple[str, Sequence[str]] | DeckLike  # a deck as play_random_game takes it

__all__ = ["GameRecord", "SharedRandom", "cards_played", "deck_matrix", "format_matrix", "play_random_game",
           "pool_decks", "worst"]


@dataclass
class GameRecord:
    """What one random game did: its result and the cards that reached the stack or play."""

    seed: int
    winner: int | None  # 0 = deck A, 1 = deck B, None = draw
    reason: str
    turns: int
    decisions: int
    played: Counter[str] = field(default_factory=Counter)  # card name -> times played (14.6)
    resolved: Counter[str] = field(default_factory=Counter)  # ... and resolved into play (14.8)
    activated: Counter[str] = field(default_factory=Counter)  # abilities/Ambushes activated
    created: Counter[str] = field(default_factory=Counter)  # Entities and tokens created


class SharedRandom:
    """A driver for both seats: ``random.Random(seed)`` picks uniformly among the legal
    actions of every decision, forced ones included."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def next_action(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


def _ref(deck: DeckArg) -> DeckRef:
    if isinstance(deck, DeckRef):
        return deck
    if isinstance(deck, tuple):  # (host, main), as Game.new takes it
        return DeckRef("deck", "deck", deck[0], tuple(deck[1]))
    return DeckRef.of(deck)


def _overrides(config: RuleConfig | None) -> Rules:
    """The flags in which ``config`` (a RuleConfig) differs from the defaults."""
    if config is None:
        return ()
    default = type(config)()
    return tuple((f.name, getattr(config, f.name)) for f in fields(config)
                 if getattr(config, f.name) != getattr(default, f.name))


class _CardEvents(Visitor):
    def __init__(self, rec: GameRecord) -> None:
        self.rec = rec

    def end(self, game: Game) -> None:
        counters: dict[type[Event], Counter[str]] = {
            WouldPlay: self.rec.played, Played: self.rec.resolved, Activated: self.rec.activated,
            Created: self.rec.created}
        for ev in game.events:
            c = counters.get(type(ev))
            if c is not None:
                assert isinstance(ev, CardEvent)
                c[ev.name] += 1


def play_random_game(deck_a: DeckArg, deck_b: DeckArg, seed: int, config: RuleConfig | None = None) -> GameRecord:
    """One complete game of random self-play (one RNG for both seats, seeded)."""
    spec = GameSpec(_ref(deck_a), _ref(deck_b), seed, ("random", "random"), _overrides(config))
    rec = GameRecord(seed, None, "", 0, 0)
    driver = SharedRandom(seed)
    game, record = play(spec, visit=_CardEvents(rec), players=(driver, driver))
    s = game.state
    rec.winner, rec.reason, rec.turns, rec.decisions = game.winner, s.reason, s.turn, len(record["actions"])
    return rec


def _pair_job(args: tuple[Deck, Deck, int, int]) -> tuple[float, int, int, int]:
    """Score of deck A against deck B over ``games`` seat-swapped games (draws count half)."""
    a, b, games, base = args
    score = 0.0
    wins = losses = draws = 0
    for k in range(games):
        seed = base + k
        if k % 2 == 0:
            w = play_random_game(a, b, seed).winner
            mine = None if w is None else w == 0
        else:
            w = play_random_game(b, a, seed).winner
            mine = None if w is None else w == 1
        if mine is None:
            draws += 1
            score += 0.5
        elif mine:
            wins += 1
            score += 1
        else:
            losses += 1
    return score / games, wins, losses, draws


def deck_matrix(
    decks: dict[str, Deck], games: int = 200, workers: int = 1, seed: int = 0
) -> dict[tuple[str, str], tuple[float, int, int, int]]:
    """Win rate of each deck against each other deck: ``{(row, col): (rate, w, l, d)}``.

    Every unordered pair plays ``games`` games, half with each deck in seat A; the rate is the
    row deck's score (a draw counts half). The mirror (row == col) is not played.
    """
    names = list(decks)
    jobs = []
    keys = []
    for i, x in enumerate(names):
        for j in range(i + 1, len(names)):
            y = names[j]
            keys.append((x, y))
            jobs.append((decks[x], decks[y], games, seed + 1_000_000 * i + 10_000 * j))
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            results = list(ex.map(_pair_job, jobs))
    else:
        results = [_pair_job(job) for job in jobs]
    out: dict[tuple[str, str], tuple[float, int, int, int]] = {}
    for (x, y), (rate, won, lost, drawn) in zip(keys, results, strict=True):
        out[(x, y)] = (rate, won, lost, drawn)
        out[(y, x)] = (1 - rate, lost, won, drawn)
    return out


def format_matrix(names: Sequence[str], matrix: Mapping[tuple[str, str], Sequence[float]]) -> str:
    """A Markdown table: row deck's win rate (%) against each column deck, and its mean."""
    short = [n.split("_")[0] for n in names]
    lines = ["| deck | " + " | ".join(short) + " | mean |", "|---" * (len(names) + 2) + "|"]
    for x, sx in zip(names, short, strict=True):
        cells = []
        rates = []
        for y in names:
            if x == y:
                cells.append("-")
                continue
            rate = matrix[(x, y)][0]
            rates.append(rate)
            cells.append(f"{100 * rate:.0f}")
        mean = sum(rates) / len(rates) if rates else 0.0
        lines.append(f"| {sx} | " + " | ".join(cells) + f" | {100 * mean:.0f} |")
    return "\n".join(lines)


def worst(matrix: Mapping[tuple[str, str], Sequence[float]]) -> tuple[float, tuple[str, str]]:
    """The lowest win rate in the matrix and the pair (row, col) it belongs to."""
    key = min(matrix, key=lambda k: matrix[k][0])
    return matrix[key][0], key


def cards_played(records: Iterable[GameRecord]) -> Counter[str]:
    """Every card name that was played, activated or created in any of the records."""
    total: Counter[str] = Counter()
    for r in records:
        total.update(r.played)
        total.update(r.activated)
        total.update(r.created)
    return total
