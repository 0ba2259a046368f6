"""Moving cards between zones (4, 7, 8, 24, 36, 37) and the game actions (35).

A card that changes zone becomes a new object with a new id (36.2); moving between one's own
slots does not (8.2, 36.2.1). Cards always go to their owner's hand, deck, drop zone or
banished zone (A49). Tokens that leave play cease to exist (36.3.1). Markers drop with their
card (24.3, 35.3.3).
"""

from __future__ import annotations

from .carddef import CardDef
from .core import Core
from .events import Destroyed, Destroys, LeavesPlay, MarkerDropped, MovesSlot, SentToDrop, TokenGone
from .kinds import Zone
from .state import BOARD_ZONES, IN_PLAY_ZONES, Obj, Player
from .stats import health

Source = tuple[int | None, str, str]  # (source object id, source name, combat | effect | none)


def new_obj(g: Core, card: CardDef, owner: int, controller: int, zone: Zone, slot: int = -1,
            face_down: bool = False, token: bool = False, sick: bool = False,
            attached_to: int | None = None) -> Obj:
    """A new object (36.2); the caller puts it in its zone (``attach``)."""
    s = g.s
    o = Obj(id=s.next_id, card=card, owner=owner, controller=controller, zone=zone, slot=slot,
            face_down=face_down, sick=sick, token=token, ts=g.tick(), attached_to=attached_to)
    s.next_id += 1
    s.version += 1
    if zone in BOARD_ZONES:
        s.board += 1
    s.objs[o.id] = o
    return o


def _container(g: Core, o: Obj) -> list[int] | None:
    pl: Player = g.s.players[o.owner]
    box = pl.owner_zone(o.zone)
    if box is not None:
        return box
    if o.zone is Zone.FORM:
        return g.s.players[o.controller].forms
    return None


def detach(g: Core, o: Obj) -> None:
    """Take ``o`` out of the list or slot that holds it."""
    s = g.s
    s.version += 1
    zone = o.zone
    if zone in BOARD_ZONES:
        s.board += 1
    if zone is Zone.FRONT:
        s.players[o.controller].front[o.slot] = None
    elif zone is Zone.BACK:
        s.players[o.controller].back[o.slot] = None
    elif zone is Zone.MARKER and o.attached_to is not None:
        card = s.objs[o.attached_to]
        card.markers = tuple(m for m in card.markers if m != o.id)
    else:
        box = _container(g, o)
        if box is not None:
            box.remove(o.id)


def attach(g: Core, o: Obj, bottom: bool = False) -> None:
    """Put ``o`` in the list or slot of its zone (a deck's top unless ``bottom``)."""
    s = g.s
    s.version += 1
    zone = o.zone
    if zone in BOARD_ZONES:
        s.board += 1
    if zone is Zone.FRONT:
        s.players[o.controller].front[o.slot] = o.id
    elif zone is Zone.BACK:
        s.players[o.controller].back[o.slot] = o.id
    elif zone is Zone.MARKER and o.attached_to is not None:
        card = s.objs[o.attached_to]
        card.markers = (*card.markers, o.id)
    else:
        box = _container(g, o)
        if box is None:
            return
        if zone is Zone.DECK and not bottom:
            box.insert(0, o.id)
        else:
            box.append(o.id)


def move(g: Core, o: Obj, zone: Zone, controller: int | None = None, slot: int = -1,
         face_down: bool = False, bottom: bool = False, attached_to: int | None = None) -> Obj | None:
    """Move ``o`` to a new zone as a new object; returns it (None for a token that left play).
    A card persists only while it stays in one zone (36.1); it goes to its owner (37.1)
    unless a controller is given."""
    s = g.s
    ctrl = o.owner if controller is None else controller
    leaving = o.zone in IN_PLAY_ZONES and (zone not in IN_PLAY_ZONES or ctrl != o.controller)
    detach(g, o)
    del s.objs[o.id]
    if leaving:
        g.emit(LeavesPlay(o.controller, o.id, o.name, o.face_down, o))
        for m in o.markers:
            mo = s.objs.pop(m)
            mo.attached_to = None
            if not mo.token:
                d = new_obj(g, mo.card, mo.owner, mo.owner, Zone.DROP)
                attach(g, d)
            g.emit(MarkerDropped(m, mo.name))
        if o.token:
            g.emit(TokenGone(o.id, o.name))
            return None
    if o.token and zone not in IN_PLAY_ZONES:
        return None
    new = new_obj(g, o.card, o.owner, ctrl, zone, slot=slot, face_down=face_down, token=o.token,
                  attached_to=attached_to)
    attach(g, new, bottom=bottom)
    return new


def move_slot(g: Core, o: Obj, slot: int) -> None:
    """8.2: moving between one's own slots keeps the object (36.2.1). The slots are one
    zone (7.3), so this is not leaving or entering a slot (7.3.1, 8.1.1) but moving slots
    (8.2.1)."""
    s = g.s
    front = o.zone is Zone.FRONT
    row = s.players[o.controller].front if front else s.players[o.controller].back
    row[o.slot] = None
    s.board += 1
    old = o.slot
    o.slot = slot
    row[slot] = o.id
    r = "f" if front else "b"
    g.emit(MovesSlot(o.controller, o.id, o.name, f"{r}{old}", f"{r}{slot}"))


# ------------------------------------------------------------ game actions (35)
def game_actions(g: Core) -> None:
    """35.3-35.4: losses, Entities at 0 health to the drop zone, lethal damage destroys.

    Game actions (35.1) use no stack (31.2), cannot be responded to and may happen during
    a resolution (35.2). Entities at 0 health are sent to the drop zone (35.3.2); the
    triggers they cause wait for the next window (35.5). An Entity whose health fell to its
    damage or below was destroyed by no source (38.3): ``lethal`` is cleared here.
    """
    s = g.s
    if s.settled == (s.version, s.ts, s.dmg) and not (s.players[0].hit_empty or s.players[1].hit_empty):
        return  # nothing they read has changed since they last found nothing to do
    while not s.over:
        g.check_losses()
        if s.over:
            return
        to_drop: list[Obj] = []
        to_destroy: list[Obj] = []
        for p in (s.tp, 1 - s.tp):
            for oid in s.players[p].front:
                if oid is None:
                    continue
                o = s.objs[oid]
                h = health(s, o)
                if h <= 0:  # 18.3, 26.1.2, 26.1.3: the drop zone wins
                    to_drop.append(o)
                elif o.damage >= h:  # 18.2, 26.1.1.1
                    to_destroy.append(o)
                else:
                    o.lethal = None
        if not to_drop and not to_destroy:
            s.settled = (s.version, s.ts, s.dmg)
            return
        for o in to_drop:
            g.emit(SentToDrop(o.controller, o.id, o.name))
            move(g, o, Zone.DROP)
        destroy(g, to_destroy)


def destroy(g: Core, objs: list[Obj], source: Source | None = None) -> None:
    """Destroy Entities at once (18.2, 35.3.1); the source is what dealt the final damage (38).
    They go to the drop zone (4.2, 4.2.1); with no lethal damage recorded, as when health
    was reduced below the damage, no source claims them (38.3)."""
    s = g.s
    records: list[tuple[Obj, Source]] = []
    for o in objs:
        src = source if source is not None else o.lethal
        if src is None:
            src = (None, "none", "none")
        records.append((o, src))
        sname = src[1] if src[0] is not None or src[1] != "none" else "none"
        g.emit(Destroyed(o.controller, o.id, o.name, sname, src[2], src[0]))
    lkis = {o.id: o for o in objs}
    for o in objs:
        move(g, o, Zone.DROP)
    for o, (sid, sname, _kind) in records:
        if sid is None:
            continue
        so = s.objs.get(sid) or lkis.get(sid)
        if so is None or not so.is_entity:
            continue
        g.emit(Destroys(so.controller, sid, sname, o.id, o.name, so))
