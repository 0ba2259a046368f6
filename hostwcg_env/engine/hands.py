"""Cards to and from the hand, and resources to the pool: drawing (4.3), discarding (4.2),
shuffling a deck, gaining resources (11.3, 12)."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Decision, DecisionKind, Kind, Resume, hand_at
from .core import Core
from .events import Discard, Draw, GainResource, Shuffle
from .kinds import Zone
from .tasks import Task
from .zones import move


def draw(g: Core, p: int, n: int) -> None:
    """p draws ``n`` cards from the top of the deck, as many as there are."""
    s = g.s
    pl = s.players[p]
    for _ in range(n):
        if not pl.deck:
            return
        o = s.objs[pl.deck[0]]
        new = move(g, o, Zone.HAND, p)
        g.emit(Draw(p, new.id if new else None, o.name))


def discard(g: Core, p: int, oid: int) -> None:
    """A discarded card goes to the drop zone (4.2, 4.2.1)."""
    o = g.s.objs[oid]
    new = move(g, o, Zone.DROP, p)
    g.emit(Discard(p, new.id if new else None, o.name))


@dataclass(init=False)
class DiscardCards(Task):
    """``player`` discards ``left`` more cards of their choice (an effect, or the End Phase
    discard, 10.6.2); with no more cards than that, the whole hand."""

    player: int
    left: int

    def __init__(self, player: int, left: int) -> None:
        self.player = player
        self.left = left

    def clone(self) -> DiscardCards:
        return DiscardCards(self.player, self.left)


def run_discard(g: Core, t: DiscardCards) -> None:
    s = g.s
    p = t.player
    hand = s.players[p].hand
    if t.left <= 0 or not hand:
        return
    if len(hand) <= t.left:
        for oid in list(hand):
            discard(g, p, oid)
        return
    acts = [Action(Kind.CARD, hand_at(i)) for i in range(len(hand))]
    g.decide(p, DecisionKind.CHOOSE_CARD, acts, Resume.DISCARD_CARD,
             prompt=f"discard {t.left} card(s)", task=t)


def on_discard_card(g: Core, d: Decision, a: Action) -> None:
    t = d.task
    assert isinstance(t, DiscardCards)
    discard(g, d.player, g.s.players[d.player].hand[a.src.index])
    g.push(DiscardCards(t.player, t.left - 1))


def shuffle(g: Core, p: int) -> None:
    g.s.random().shuffle(g.s.players[p].deck)
    g.emit(Shuffle(p))


def gain(g: Core, p: int, sym: str, n: int) -> None:
    """p gains ``n`` resources of the type ``sym`` (a symbol, 12.2) in their pool."""
    pool = g.s.players[p].pool
    pool[sym] = pool.get(sym, 0) + n
    g.emit(GainResource(p, sym, n))
