"""What is in play, and which objects a selector names by kind, side and subtype (30, 13.5.1,
16.2) before any stat filter. Queries only.

Stat filters (``power_max`` ...) need the stats (stats.py), which need this module for the
static abilities' ``affects``: those never have stat filters (the loader refuses them, 18.6),
so ``matches_kind`` is all a static needs, and ``targeting.matches`` adds the filters.
"""

from __future__ import annotations

from .carddef import CardType, Selector
from .kinds import Controller, SelectorType, Zone
from .state import GameState, Obj


def in_play(s: GameState) -> list[Obj]:
    """Every object in play (5.1): slots, Form zones (4.7.1) and markers, both players; a
    marker is in play but not in the slot of its card (24.2)."""
    out: list[Obj] = []
    objs = s.objs
    for p in s.players:
        for row in (p.front, p.back):
            for oid in row:
                if oid is not None:
                    o = objs[oid]
                    out.append(o)
                    for m in o.markers:
                        out.append(objs[m])
        for oid in p.forms:
            o = objs[oid]
            out.append(o)
            for m in o.markers:
                out.append(objs[m])
    return out


def is_permanent(o: Obj) -> bool:
    """16.2 and 22.2: the permanents (16.1) are Entities (16.2.1), Forms (16.2.2), and
    face-up Lingering cards in play."""
    if o.zone is Zone.FRONT or o.zone is Zone.FORM:
        return True
    return o.zone is Zone.BACK and not o.face_down and o.card.is_lingering


def matches_kind(sel: Selector, o: Obj, controller: int, source: int | None) -> bool:
    """Does ``o`` qualify for ``sel`` by its zone and type, its side (from ``controller``'s
    point of view), its subtypes and not being the source, stat filters aside? A card is each
    of its subtypes: a 'Human Wizard' is a Human and a Wizard (13.5.1, 13.5.1.1)."""
    t = sel.type
    zone = o.zone
    if t is SelectorType.ENTITY:
        ok = zone is Zone.FRONT
    elif t is SelectorType.HOST:
        ok = zone is Zone.HOST
    elif t is SelectorType.ENTITY_OR_HOST:
        ok = zone is Zone.FRONT or zone is Zone.HOST
    elif t is SelectorType.PERMANENT:
        ok = is_permanent(o)
    elif t is SelectorType.CARD:
        if sel.zone is not None:  # a card in a drop zone or banished zone (4.2, 4.9)
            ok = zone is sel.zone
        else:
            ok = zone is Zone.DECK or zone is Zone.HAND or zone is Zone.DROP
        if ok and sel.card_type is not None:
            ok = o.card.type == sel.card_type or (
                sel.card_type is CardType.ENTITY and o.card.type is CardType.TOKEN
            )
    else:
        ok = False
    if not ok:
        return False
    if sel.controller is Controller.YOU and o.controller != controller:
        return False
    if sel.controller is Controller.OPPONENT and o.controller == controller:
        return False
    if sel.subtype is not None and sel.subtype not in o.card.subtypes:
        return False
    if sel.other and source is not None and o.id == source:
        return False
    return True
