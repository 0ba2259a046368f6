"""Selectors and targets (30): which objects qualify, from one player's point of view."""

from __future__ import annotations

from .carddef import CardType, Selector
from .state import GameState, Obj
from .stats import has_keyword, health, in_play, is_permanent, power


def matches(s: GameState, sel: Selector, o: Obj, controller: int, source: int | None) -> bool:
    """Does ``o`` qualify for ``sel``? A card is each of its subtypes: a 'Human Wizard' is a
    Human and a Wizard (13.5.1, 13.5.1.1)."""
    t = sel.type
    if t == "entity":
        ok = o.zone == "front"
    elif t == "host":
        ok = o.zone == "host"
    elif t == "entity_or_host":
        ok = o.zone in ("front", "host")
    elif t == "permanent":
        ok = is_permanent(o)
    elif t == "card":
        ok = o.zone in ("deck", "hand", "drop")
        if ok and sel.card_type is not None:
            ok = o.card.type.value == sel.card_type or (
                sel.card_type == "entity" and o.card.type is CardType.TOKEN
            )
    else:
        ok = False
    if not ok:
        return False
    if sel.controller == "you" and o.controller != controller:
        return False
    if sel.controller == "opponent" and o.controller == controller:
        return False
    if sel.subtype is not None and sel.subtype not in o.card.subtypes:
        return False
    if sel.other and source is not None and o.id == source:
        return False
    if o.zone in ("front",):
        if sel.power_max is not None and power(s, o) > sel.power_max:
            return False
        if sel.power_min is not None and power(s, o) < sel.power_min:
            return False
        if sel.health_max is not None and health(s, o) > sel.health_max:
            return False
        if sel.health_min is not None and health(s, o) < sel.health_min:
            return False
    return True


def candidates(s: GameState, sel: Selector, controller: int, source: int | None) -> list[int]:
    """Object ids (or -sid for stack items) that ``sel`` can name now, in a stable order.
    What an effect targets (30.1) is in play; markers, in no slot (24.2), are never named."""
    if sel.type == "effect":
        return [-it.sid for it in s.stack if it.targets and it.sid != _sid_of(s, source)]
    out: list[int] = []
    if sel.type in ("host", "entity_or_host"):
        for p in s.players:
            h = s.objs[p.host]
            if matches(s, sel, h, controller, source):
                out.append(h.id)
    if sel.type == "host":
        return out
    for o in in_play(s):
        if o.zone != "marker" and matches(s, sel, o, controller, source):
            out.append(o.id)
    return out


def _sid_of(s: GameState, source: int | None) -> int | None:
    return None if source is None or source >= 0 else -source


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
