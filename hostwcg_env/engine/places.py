"""Places in the action notation (docs/scenarios.md): ``A.f2``, ``B.host``, ``A.form0``,
``A.f0.m0`` (a marker), ``stack1``; object ids (stack items as -sid) <-> place text, and
<-> the typed ``Place`` that actions carry (``place_ref``, ``resolve_ref``)."""

from __future__ import annotations

from .actions import Area, Place
from .state import GameState


def place_of(s: GameState, oid: int) -> str:
    """The place of an object (or of a stack item, given as -sid)."""
    if oid < 0:
        for i, it in enumerate(s.stack):
            if it.sid == -oid:
                return f"stack{i}"
        return f"stack?{-oid}"
    o = s.objs[oid]
    side = "AB"[o.controller]
    pl = s.players[o.controller]
    if o.zone == "front":
        return f"{side}.f{o.slot}"
    if o.zone == "back":
        return f"{side}.b{o.slot}"
    if o.zone == "host":
        return f"{'AB'[o.owner]}.host"
    if o.zone == "form":
        return f"{side}.form{pl.forms.index(oid)}"
    if o.zone == "marker" and o.attached_to is not None and o.attached_to in s.objs:
        host = s.objs[o.attached_to]
        return f"{place_of(s, host.id)}.m{host.markers.index(oid)}"
    return f"{side}.{o.zone}:{o.name}"


def place_ref(s: GameState, oid: int) -> Place:
    """The board or stack place of an object (or of a stack item, given as -sid), typed:
    ``str(place_ref(s, oid)) == place_of(s, oid)``. Raises RuntimeError for an object that
    has no such place (in a hand, deck or drop zone)."""
    if oid < 0:
        for i, it in enumerate(s.stack):
            if it.sid == -oid:
                return Place(Area.STACK, i)
        raise RuntimeError(f"engine error: stack item {-oid} is not on the stack")
    o = s.objs[oid]
    z = o.zone
    if z == "front" or z == "back":
        return Place(Area.FRONT if z == "front" else Area.BACK, o.slot, o.controller)
    if z == "host":
        return Place(Area.HOST, -1, o.owner)
    if z == "form":
        return Place(Area.FORM, s.players[o.controller].forms.index(oid), o.controller)
    if z == "marker" and o.attached_to is not None and o.attached_to in s.objs:
        host = s.objs[o.attached_to]
        at = place_ref(s, host.id)
        return Place(at.area, at.index, at.side, host.markers.index(oid))
    raise RuntimeError(f"engine error: {o.name} ({z}) has no place in the action notation")


def resolve_ref(s: GameState, place: Place) -> int | None:
    """The object id at a board or stack place (a stack item as -sid), or None if the place
    is empty or is not one (a hand index, a list item, an unqualified slot)."""
    area = place.area
    i = place.index
    if area is Area.STACK:
        return -s.stack[i].sid if 0 <= i < len(s.stack) else None
    if place.side < 0:
        return None
    pl = s.players[place.side]
    oid: int | None = None
    if area is Area.HOST:
        oid = pl.host
    elif area is Area.FORM:
        oid = pl.forms[i] if 0 <= i < len(pl.forms) else None
    elif area is Area.FRONT or area is Area.BACK:
        row = pl.front if area is Area.FRONT else pl.back
        oid = row[i] if 0 <= i < len(row) else None
    if oid is not None and place.marker >= 0:
        ms = s.objs[oid].markers
        oid = ms[place.marker] if place.marker < len(ms) else None
    return oid


def resolve_place(s: GameState, place: str) -> int | None:
    """The object id at a place (a stack item as -sid), or None if the place is empty."""
    if place.startswith("stack"):
        i = int(place[5:])
        return -s.stack[i].sid if 0 <= i < len(s.stack) else None
    parts = place.split(".")
    if len(parts) < 2 or parts[0] not in ("A", "B"):
        return None
    pl = s.players["AB".index(parts[0])]
    where = parts[1]
    oid: int | None = None
    if where == "host":
        oid = pl.host
    elif where.startswith("form"):
        i = int(where[4:])
        oid = pl.forms[i] if i < len(pl.forms) else None
    elif where[0] in "fb" and where[1:].isdigit():
        row = pl.front if where[0] == "f" else pl.back
        i = int(where[1:])
        oid = row[i] if i < len(row) else None
    if oid is not None and len(parts) == 3 and parts[2].startswith("m"):
        ms = s.objs[oid].markers
        i = int(parts[2][1:])
        oid = ms[i] if i < len(ms) else None
    return oid
