"""Selectors and targets (30): which objects qualify, from one player's point of view.
Queries only."""

from __future__ import annotations

from .carddef import Selector
from .kinds import Controller, SelectorType, Zone
from .selectors import in_play, matches_kind
from .state import GameState, Obj
from .stats import has_keyword, health, power


def matches(s: GameState, sel: Selector, o: Obj, controller: int, source: int | None) -> bool:
    """Does ``o`` qualify for ``sel``: its kind, side and subtypes (``matches_kind``), its
    current keywords, and an Entity's current power and health within the selector's filters?"""
    if not matches_kind(sel, o, controller, source):
        return False
    if sel.keyword is not None and not has_keyword(s, o, sel.keyword):
        return False  # its keywords now: printed, and granted by statics and effects (29)
    if o.zone is Zone.FRONT:
        if sel.power_max is not None and power(s, o) > sel.power_max:
            return False
        if sel.power_min is not None and power(s, o) < sel.power_min:
            return False
        if sel.health_max is not None and health(s, o) > sel.health_max:
            return False
        if sel.health_min is not None and health(s, o) < sel.health_min:
            return False
    elif sel.zone is not None:  # a card outside play has its printed stats (13.3, 13.4)
        pw, hp = o.card.power, o.card.health
        if (sel.power_max is not None and pw > sel.power_max) or (sel.power_min is not None and pw < sel.power_min):
            return False
        if (sel.health_max is not None and hp > sel.health_max) or (sel.health_min is not None and hp < sel.health_min):
            return False
    return True


def candidates(s: GameState, sel: Selector, controller: int, source: int | None) -> list[int]:
    """Object ids (or -sid for stack items) that ``sel`` can name now, in a stable order.
    What an effect targets (30.1) is in play; markers, in no slot (24.2), are never named. A
    selector with a ``zone`` names cards in the drop or banished zones instead (chosen on
    resolution, 30.2, never targeted: the loader refuses it in ``targets``)."""
    if sel.type is SelectorType.EFFECT:
        own = None if source is None or source >= 0 else -source
        return [-it.sid for it in s.stack if it.targets and it.sid != own]
    out: list[int] = []
    if sel.zone is not None:
        # cards in the drop zones or banished zones (4.2.1, 4.9.1: open zones), the
        # selector's controller first: a card there is its owner's (37.1, A49)
        first = controller if sel.controller is not Controller.OPPONENT else 1 - controller
        for q in (first, 1 - first):
            for oid in s.players[q].owner_zone(sel.zone) or ():
                if matches(s, sel, s.objs[oid], controller, source):
                    out.append(oid)
        return out
    if sel.type is SelectorType.HOST or sel.type is SelectorType.ENTITY_OR_HOST:
        for p in s.players:
            h = s.objs[p.host]
            if matches(s, sel, h, controller, source):
                out.append(h.id)
    if sel.type is SelectorType.HOST:
        return out
    for o in in_play(s):
        if o.zone is not Zone.MARKER and matches(s, sel, o, controller, source):
            out.append(o.id)
    return out


def still_legal(s: GameState, sel: Selector, tid: int, controller: int, source: int | None) -> bool:
    """30.4: a chosen target must still exist (same object, 36.2) and still qualify."""
    if tid < 0:
        return any(it.sid == -tid for it in s.stack)
    o = s.objs.get(tid)
    if o is None:
        return False
    return matches(s, sel, o, controller, source)


def cannot_block(s: GameState, o: Obj) -> bool:
    return has_keyword(s, o, "cannot_block")
