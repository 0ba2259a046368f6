"""Game setup (9.1, A16): decks shuffled and cut, 2D6 for first player (re-roll ties), the
winner chooses, five cards each, one mulligan each (first player first), Hosts flipped, and
the start-of-game trigger window before turn 1."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import PASS, YES, Action, Decision, DecisionKind, Kind, Resume, hand_at
from .carddef import CardType
from .core import Core
from .events import FirstPlayer, GameStarted, Roll
from .events import Mulligan as MulliganEvent
from .hands import draw, shuffle
from .kinds import Phase, Zone
from .state import Player
from .tasks import Task
from .turn import begin_turn
from .zones import move, new_obj


def deck_parts(deck: Any) -> tuple[str, list[str]]:
    """Accept a Deck-like object (``host``, ``main``) or a ``(host, main)`` pair."""
    if isinstance(deck, tuple):
        return deck[0], list(deck[1])
    return deck.host, list(deck.main)


@dataclass(init=False)
class Mulligan(Task):
    """``player`` may put cards on the bottom of their deck; ``back`` went so far (9.1.7)."""

    player: int
    back: int

    def __init__(self, player: int, back: int) -> None:
        self.player = player
        self.back = back

    def clone(self) -> Mulligan:
        return Mulligan(self.player, self.back)


@dataclass(init=False)
class StartGame(Task):
    """Hosts flip and turn 1 follows (9.1.8)."""

    def __init__(self) -> None:
        pass

    def clone(self) -> StartGame:
        return StartGame()


def blank_player(g: Core, p: int) -> Player:
    c = g.s.config
    return Player(idx=p, front=[None] * c.frontrow_slots, back=[None] * c.backrow_slots)


def setup_new(g: Core, deck_a: Any, deck_b: Any) -> None:
    """9.1.1-9.1.5: decks in place, each Host face down in its Host zone, which starts
    closed (4.6, 4.6.1); shuffle; roll for the first player."""
    s = g.s
    rng = s.random()
    s.players = [blank_player(g, 0), blank_player(g, 1)]
    for p, deck in ((0, deck_a), (1, deck_b)):
        host_name, main = deck_parts(deck)
        for name in [host_name, *main]:
            if name not in s.registry:
                raise ValueError(f"deck of {'AB'[p]}: unknown card {name!r}")
        host = s.registry[host_name]
        if host.type is not CardType.HOST:
            raise ValueError(f"deck of {'AB'[p]}: {host_name!r} is not a Host")
        pl = s.players[p]
        pl.decklist = list(main)
        h = new_obj(g, host, p, p, Zone.HOST, face_down=True)  # 9.1.1
        pl.host = h.id
        names = list(main)
        rng.shuffle(names)  # 9.1.2: shuffle ...
        rng.shuffle(names)  # ... and the opponent's shuffle/cut (S053)
        for name in names:
            o = new_obj(g, s.registry[name], p, p, Zone.DECK)
            pl.deck.append(o.id)
    while True:  # 9.1.3-9.1.4, A16a
        ra = rng.randint(1, 6) + rng.randint(1, 6)
        rb = rng.randint(1, 6) + rng.randint(1, 6)
        g.emit(Roll(ra, rb))
        if ra != rb:
            break
    winner = 0 if ra > rb else 1
    g.decide(winner, DecisionKind.FIRST_PLAYER, [YES, PASS], Resume.FIRST_PLAYER,
             prompt="you won the roll: go first (yes) or second (pass)? (9.1.5)")


def on_first_player(g: Core, d: Decision, a: Action) -> None:
    s = g.s
    first = d.player if a.kind is Kind.YES else 1 - d.player
    s.first_player = first
    s.tp = first
    g.emit(FirstPlayer(first))
    draw(g, first, s.config.starting_hand)  # 9.1.6
    draw(g, 1 - first, s.config.starting_hand + s.config.second_player_extra_cards)  # A56
    g.push_seq([Mulligan(first, 0), Mulligan(1 - first, 0), StartGame()])


def run_mulligan(g: Core, t: Mulligan) -> None:
    p = t.player
    hand = g.s.players[p].hand
    acts = [Action(Kind.CARD, hand_at(i)) for i in range(len(hand))] + [PASS]
    g.decide(p, DecisionKind.MULLIGAN, acts, Resume.MULLIGAN,
             prompt="mulligan: put cards on the bottom, then pass (9.1.7)", task=t)


def on_mulligan(g: Core, d: Decision, a: Action) -> None:
    s = g.s
    t = d.task
    assert isinstance(t, Mulligan)
    p = d.player
    if a.kind is Kind.CARD:
        o = s.objs[s.players[p].hand[a.src.index]]
        move(g, o, Zone.DECK, p, bottom=True)
        g.push(Mulligan(t.player, t.back + 1))
        return
    n = t.back
    draw(g, p, n)
    if n:
        shuffle(g, p)  # 9.1.7.1: only if any went back
    s.players[p].mulliganed = True
    g.emit(MulliganEvent(p, n))


def run_start_game(g: Core, t: StartGame) -> None:
    """9.1.8, A16d: Hosts flip and the Host zones become open (4.6.1); start-of-game
    triggers, then turn 1."""
    s = g.s
    for pl in s.players:
        s.objs[pl.host].face_down = False
    s.version += 1
    s.board += 1
    s.started = True
    s.decisions_this_turn = 0  # the set-up's choices count towards no turn's cap (A52c)
    s.phase = Phase.PREGAME
    s.priority = s.first_player
    g.emit(GameStarted())
    if not s.pending:
        begin_turn(g, first=True)
