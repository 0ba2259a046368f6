"""Stat layering for Entities (18.6, 26) and Hosts (20.1): adds, then decreases, then sets.

A set wins over every add (18.6.3); sets apply in timestamp order, the last one counting
(A35). Power is floored at 0 only in the final value (26.2.2). Queries only: nothing here
changes state.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .carddef import Ability, CardType, Selector
from .state import GameState, Obj


def in_play(s: GameState) -> Iterator[Obj]:
    """Every object in play (5.1): slots, Form zones (4.7.1) and markers, both players; a
    marker is in play but not in the slot of its card (24.2)."""
    for p in s.players:
        for oid in p.front:
            if oid is not None:
                o = s.objs[oid]
                yield o
                for m in o.markers:
                    yield s.objs[m]
        for oid in p.back:
            if oid is not None:
                o = s.objs[oid]
                yield o
                for m in o.markers:
                    yield s.objs[m]
        for oid in p.forms:
            o = s.objs[oid]
            yield o
            for m in o.markers:
                yield s.objs[m]


def _board_table(s: GameState) -> dict[Any, Any]:
    """The per-board cache: abilities by kind (keys are kinds) and what is derived from them
    (tuple keys), rebuilt when anything enters, leaves, moves or turns face up in play or as
    a Host (``state.board``)."""
    cache = s.ability_cache
    if cache is None or cache[0] != s.board:
        table: dict[Any, Any] = {}
        hosts = [s.objs[p.host] for p in s.players if p.host in s.objs]
        for o in [*hosts, *in_play(s)]:  # a Host is not in play (A13) but its text works
            if o.face_down:
                continue
            for i, ab in enumerate(o.card.abilities):
                table.setdefault(ab.kind, []).append((o, i, ab))
        cache = (s.board, table)
        s.ability_cache = cache
    return cache[1]  # type: ignore[no-any-return]


def _value_table(s: GameState) -> dict[tuple[int, str], Any]:
    """The per-state cache of stats and keywords, rebuilt when the board or a modification
    changes (``state.board``, ``state.modv``)."""
    key = (s.board, s.modv)
    cache = s.stat_cache
    if cache is None or cache[0] != key:
        cache = (key, {})
        s.stat_cache = cache
    return cache[1]  # type: ignore[no-any-return]


def active_abilities(s: GameState, kind: str) -> list[tuple[Obj, int, Ability]]:
    """Abilities of a kind on face-up cards in play and on Hosts (cached per board)."""
    return _board_table(s).get(kind, [])  # type: ignore[no-any-return]


def activatables(s: GameState, p: int) -> list[tuple[Obj, int, Ability]]:
    """Abilities p might activate (27, 39.2, and Ambushes with a requirement, 29.4) on objects
    p controls in play, face up or not; whether each can be activated now is asked separately.
    Cached per board (``_board_table``)."""
    table = _board_table(s)
    key = ("activatable", p)
    hit = table.get(key)
    if hit is None:
        hit = []
        for o in in_play(s):
            if o.controller != p or o.zone == "marker":
                continue
            for i, ab in enumerate(o.card.abilities):
                if ab.kind in ("activated", "during") or (ab.kind == "ambush" and ab.while_):
                    hit.append((o, i, ab))
        table[key] = hit
    return hit  # type: ignore[no-any-return]


def face_down_ambushes(s: GameState) -> list[tuple[Obj, int, Ability]]:
    """Event-keyed Ambush abilities (17, 29.4) of face-down cards in both backrows, player A's
    first, slot order (cached per board, ``_board_table``)."""
    table = _board_table(s)
    hit = table.get(("face_down_ambush",))
    if hit is None:
        hit = []
        for p in s.players:
            for oid in p.back:
                if oid is None:
                    continue
                o = s.objs[oid]
                if o.face_down:
                    hit.extend((o, i, ab) for i, ab in enumerate(o.card.abilities)
                               if ab.kind == "ambush" and ab.when is not None)
        table[("face_down_ambush",)] = hit
    return hit  # type: ignore[no-any-return]


def face_down_cards(s: GameState) -> list[Obj]:
    """Face-down cards in both backrows (17.1: laid Ambushes), player A's first, slot order.
    Where they are is public; what they are is not (6.2) (cached per board)."""
    table = _board_table(s)
    hit = table.get(("face_down",))
    if hit is None:
        hit = [s.objs[oid] for p in s.players for oid in p.back
               if oid is not None and s.objs[oid].face_down]
        table[("face_down",)] = hit
    return hit  # type: ignore[no-any-return]


def trigger_events(s: GameState) -> frozenset[str]:
    """The event names that some triggered ability in play or on a Host (28.5), or some
    face-down event-keyed Ambush (29.4), waits for: an event naming none of them, with
    nothing just gone from play, cannot trigger anything (cached per board)."""
    table = _board_table(s)
    hit = table.get(("trigger_events",))
    if hit is None:
        hit = frozenset(ab.when.event for _o, _i, ab in [*active_abilities(s, "triggered"), *face_down_ambushes(s)]
                        if ab.when is not None)
        table[("trigger_events",)] = hit
    return hit  # type: ignore[no-any-return]


_REGISTRY_TABLES: dict[int, tuple[dict[str, Any], int, dict[str, Any]]] = {}


def registry_tables(reg: dict[str, Any]) -> dict[str, Any]:
    """What any card of the card pool could do, for judging a hidden card by public facts
    alone (cached per registry and its size):

    - ``playable``: every card a hand may hold (no Hosts, no tokens), Ambushes first;
    - ``fast``: those that may be played at Fast timing (15.3, 31.1.2);
    - ``state_ambush``: (card, ability index, ability) of each Ambush with a state
      requirement, activatable whenever it holds (29.4, A53);
    - ``event_ambush``: event name -> (card, ability index, ability) of each Ambush keyed to
      that event (29.4, 33.5, A53).
    """
    hit = _REGISTRY_TABLES.get(id(reg))
    if hit is None or hit[0] is not reg or hit[1] != len(reg):
        if len(_REGISTRY_TABLES) >= 8:  # each game may bring its own registry dict: stay small
            _REGISTRY_TABLES.clear()
        cards = [c for c in reg.values() if c.type not in (CardType.HOST, CardType.TOKEN)]
        cards.sort(key=lambda c: c.type is not CardType.AMBUSH)
        event: dict[str, list[tuple[Any, int, Ability]]] = {}
        state: list[tuple[Any, int, Ability]] = []
        for c in cards:
            if c.type is not CardType.AMBUSH:
                continue
            for i, ab in enumerate(c.abilities):
                if ab.kind != "ambush":
                    continue
                if ab.when is not None:
                    event.setdefault(ab.when.event, []).append((c, i, ab))
                elif ab.while_:
                    state.append((c, i, ab))
        tables = {"playable": cards, "fast": [c for c in cards if c.is_fast],
                  "state_ambush": state, "event_ambush": event}
        hit = _REGISTRY_TABLES[id(reg)] = (reg, len(reg), tables)
    return hit[2]


def static_applies(s: GameState, src: Obj, ab: Ability, target: Obj) -> bool:
    aff = ab.affects
    if isinstance(aff, str):
        if aff == "self":
            return target.id == src.id
        if aff == "equipped":
            return src.zone == "marker" and src.attached_to == target.id
        if target.zone != "host":
            return False
        if aff == "your_host":
            return target.owner == src.controller
        if aff == "opponent_host":
            return target.owner != src.controller
        return aff == "each_host"
    if isinstance(aff, Selector):
        from .targeting import matches

        return matches(s, aff, target, src.controller, src.id)
    return False


def _statics_for(s: GameState, stat: str) -> list[tuple[Obj, Ability, int, int | None]]:
    """Static abilities in play that add to or set ``stat``, with the amounts (cached with
    ``active_abilities``)."""
    table = _board_table(s)
    statics = table.get("static", [])
    key = ("static", stat)
    hit = table.get(key)
    if hit is None:
        hit = table[key] = [
            (src, ab, getattr(ab, stat), getattr(ab, "set_" + stat))
            for src, _i, ab in statics
            if getattr(ab, stat) or getattr(ab, "set_" + stat) is not None
        ]
    return hit  # type: ignore[no-any-return]


def _layers(s: GameState, o: Obj, stat: str) -> tuple[int, list[tuple[int, int]]]:
    """Sum of adds/decreases and the (timestamp, value) list of sets for one stat.

    Increases and decreases (18.6.1, 18.6.2; a Host's 20.1.1, 20.1.2) add up to one total,
    whatever order they were given in (26.1.4.2, 26.2.3.2). Continuous effects are read here,
    using no stack and no priority (31.3).
    """
    delta = 0
    sets: list[tuple[int, int]] = []
    for src, ab, add, st in _statics_for(s, stat):
        if static_applies(s, src, ab, o):
            delta += add
            if st is not None:
                sets.append((max(src.ts, o.ts), st))
    for m in o.mods:
        if m.stat != stat:
            continue
        if m.kind == "add":
            delta += m.value
        elif m.kind == "set":
            sets.append((m.ts, m.value))
    return delta, sets


def stat(s: GameState, o: Obj, which: str) -> int:
    """The current value of a stat (cached until anything enters, leaves, moves or turns face
    up in play or as a Host, ``state.board``, or a modification is added or expires,
    ``state.modv``: a stat reads only the card, the statics in play and the modifications)."""
    table = _value_table(s)
    k = (o.id, which)
    v = table.get(k)
    if v is None:
        v = table[k] = _stat(s, o, which)
    return v  # type: ignore[no-any-return]


def _stat(s: GameState, o: Obj, which: str) -> int:
    """(Base + additional) - deducted (26.1.4, 26.1.4.1, 26.2.3, 26.2.3.1): increases and
    decreases alike (18.6.1, 18.6.2), for Hosts too (20.1.1-20.1.3); a set overrides them, the
    latest counting (18.6.3, A35). Damage is not read: it never lowers health (18.4)."""
    card = o.card
    base = card.health if which == "health" else card.power if which == "power" else card.soul
    if not o.mods and not _statics_for(s, which):
        return max(0, base) if which == "power" else base
    delta, sets = _layers(s, o, which)
    if sets:
        value = max(sets, key=lambda t: t[0])[1]
    else:
        value = base + delta
    if which == "power":
        return max(0, value)
    return value


def power(s: GameState, o: Obj) -> int:
    return stat(s, o, "power")


def health(s: GameState, o: Obj) -> int:
    return stat(s, o, "health")


def host_health(s: GameState, p: int) -> int:
    return stat(s, s.objs[s.players[p].host], "health")


def host_soul(s: GameState, p: int) -> int:
    return stat(s, s.objs[s.players[p].host], "soul")


def keywords(s: GameState, o: Obj) -> frozenset[str]:
    """Printed keywords plus those granted by statics and effects (cached like ``stat``)."""
    table = _value_table(s)
    k = (o.id, "keywords")
    hit = table.get(k)
    if hit is None:
        kw = set(o.card.keywords)
        for src, _i, ab in active_abilities(s, "static"):
            if ab.grants and static_applies(s, src, ab, o):
                kw.update(ab.grants)
        for m in o.mods:
            if m.kind == "grant":
                kw.add(m.stat)
        hit = table[k] = frozenset(kw)
    return hit  # type: ignore[no-any-return]


def has_keyword(s: GameState, o: Obj, kw: str) -> bool:
    return kw in keywords(s, o)


def is_permanent(o: Obj) -> bool:
    """16.2 and 22.2: the permanents (16.1) are Entities (16.2.1), Forms (16.2.2), and
    face-up Lingering cards in play."""
    if o.zone == "front":
        return True
    if o.zone == "form":
        return True
    if o.zone == "back" and not o.face_down and o.card.is_lingering:
        return True
    return False


def is_host_type(o: Obj) -> bool:
    return o.card.type is CardType.HOST
