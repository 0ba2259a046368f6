"""Damage and healing: damage counters on Entities (18.4, 38) and Host damage, one point at a
time, a card from hand to the damage zone (2.1, A03, A04); healing a Host (2.2, 2.3, A08)."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Decision, DecisionKind, Kind, Resume, hand_at
from .core import Core
from .events import DamageCard, DamageDealt, Healed, HostDamaged, HostHealed
from .hands import draw
from .kinds import Zone
from .state import Obj
from .stats import health
from .tasks import Task
from .zones import Source, move


def damage_entity(g: Core, o: Obj, n: int, src: Source) -> None:
    """Mark damage; the Entity's health is unchanged (18.4). Lethal damage records its
    source, combat (38.1.1) or card effect (38.1.2): the final damage decides, even after
    the health was reduced (38.3.1)."""
    if n <= 0:
        return
    o.damage += n
    g.s.dmg += 1
    g.emit(DamageDealt(o.controller, o.id, o.name, n, src[1], src[2]))
    if o.damage >= health(g.s, o):
        o.lethal = src  # 38.1, 38.2: the final damage decides the source


@dataclass(init=False)
class HostPoint(Task):
    """One point of Host damage to each of ``players`` at once, from the card named
    ``source_name``; ``chosen`` holds the card each damaged player has put up so far (None:
    an empty hand)."""

    players: list[int]
    chosen: dict[int, int | None]
    source_name: str

    def __init__(self, players: list[int], chosen: dict[int, int | None], source_name: str) -> None:
        self.players = players
        self.chosen = chosen
        self.source_name = source_name

    def clone(self) -> HostPoint:
        return HostPoint(list(self.players), dict(self.chosen), self.source_name)


def run_host_point(g: Core, t: HostPoint) -> None:
    """2.1, A03: one point of Host damage; the damaged player picks the card (A04), which
    goes face down into the damage zone (4.8, 4.8.1)."""
    s = g.s
    chosen = t.chosen
    for p in t.players:
        if p in chosen:
            continue
        hand = s.players[p].hand
        if not hand:
            chosen[p] = None
        elif len(hand) == 1:
            chosen[p] = hand[0]
        elif s.config.damage_card_choice == "random":
            chosen[p] = s.random().choice(hand)
        else:
            acts = [Action(Kind.CARD, hand_at(i)) for i in range(len(hand))]
            g.decide(p, DecisionKind.CHOOSE_CARD, acts, Resume.HOST_POINT_CARD,
                     prompt="Host damage: choose a card from your hand for the damage zone (2.1)",
                     task=t)
            return
    for p in t.players:
        cid = chosen[p]
        if cid is None:
            s.players[p].hit_empty = True  # 1.1.3
        else:
            o = s.objs[cid]
            move(g, o, Zone.DAMAGE, p, face_down=True)
            g.emit(DamageCard(p, o.name))
        g.emit(HostDamaged(p, 1, t.source_name))
    if s.config.damage_draws:  # A05
        for p in t.players:
            if chosen[p] is not None and s.players[p].deck:
                draw(g, p, 1)


def on_host_point_card(g: Core, d: Decision, a: Action) -> None:
    t = d.task
    assert isinstance(t, HostPoint)
    t.chosen[d.player] = g.s.players[d.player].hand[a.src.index]
    g.push(t)


def host_points(players: list[int], n: int, source: str) -> list[Task]:
    """``n`` points of Host damage to ``players``, one task a point (2.1)."""
    return [HostPoint(players, {}, source) for _ in range(n)]


def heal_host(g: Core, p: int, n: int) -> None:
    """2.2, 2.3, A08: heal from the top of the damage zone, face up to the drop zone."""
    s = g.s
    pl = s.players[p]
    k = min(n, len(pl.damage))
    if k <= 0:
        return
    dest = Zone.HAND if s.config.heal_destination == "hand" else Zone.DROP
    for _ in range(k):
        o = s.objs[pl.damage[-1]]
        move(g, o, dest, p)
        if dest is Zone.HAND:  # from one hidden zone to another (4.8.1, 4.3.1): shown to no one
            g.emit(Healed(p, o.name, True))
        else:  # face up into the open drop zone (4.2.1)
            g.emit(Healed(p, o.name, False))
    g.emit(HostHealed(p, k))
