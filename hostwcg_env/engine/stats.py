"""Stat layering for Entities (18.6, 26) and Hosts (20.1): adds, then decreases, then sets;
and what the abilities in play are.

A set wins over every add (18.6.3); sets apply in timestamp order, the last one counting
(A35). Power is floored at 0 only in the final value (26.2.2). Queries only: nothing here
changes the game (the caches it keeps in the state are derived from it).
"""

from __future__ import annotations

from typing import Final

from .carddef import Ability, CardDef, CardType, Selector
from .kinds import AbilityKind, ModKind, Zone
from .selectors import in_play, matches_kind
from .state import BoardCache, Found, GameState, Obj, StatCache

_NONE: Final[list[Found]] = []  # never mutated


def _board(s: GameState) -> BoardCache:
    """The per-board cache: abilities by kind and what is derived from them, rebuilt when
    anything enters, leaves, moves or turns face up in play or as a Host (``state.board``)."""
    cache = s.ability_cache
    if cache is None or cache.board != s.board:
        cache = BoardCache(s.board)
        by_kind = cache.by_kind
        objs = [s.objs[p.host] for p in s.players if p.host in s.objs]
        objs.extend(in_play(s))  # a Host is not in play (A13) but its text works
        for o in objs:
            if o.face_down:
                continue
            for i, ab in enumerate(o.card.abilities):
                found = by_kind.get(ab.kind)
                if found is None:
                    found = by_kind[ab.kind] = []
                found.append((o, i, ab))
        s.ability_cache = cache
    return cache


def _values(s: GameState) -> StatCache:
    """The per-state cache of stats and keywords, rebuilt when the board or a modification
    changes (``state.board``, ``state.modv``)."""
    cache = s.stat_cache
    if cache is None or cache.board != s.board or cache.modv != s.modv:
        cache = StatCache(s.board, s.modv)
        s.stat_cache = cache
    return cache


def active_abilities(s: GameState, kind: AbilityKind) -> list[Found]:
    """Abilities of a kind on face-up cards in play and on Hosts (cached per board)."""
    return _board(s).by_kind.get(kind, _NONE)


def activatables(s: GameState, p: int) -> list[Found]:
    """Abilities p might activate (27, 39.2, and Ambushes with a requirement, 29.4) on objects
    p controls in play, face up or not; whether each can be activated now is asked separately.
    Cached per board."""
    cache = _board(s)
    hit = cache.activatable.get(p)
    if hit is None:
        hit = []
        for o in in_play(s):
            if o.controller != p or o.zone is Zone.MARKER:
                continue
            for i, ab in enumerate(o.card.abilities):
                k = ab.kind
                if k is AbilityKind.ACTIVATED or k is AbilityKind.DURING or (
                        k is AbilityKind.AMBUSH and ab.while_):
                    hit.append((o, i, ab))
        cache.activatable[p] = hit
    return hit


def face_down_ambushes(s: GameState) -> list[Found]:
    """Event-keyed Ambush abilities (17, 29.4) of face-down cards in both backrows, player A's
    first, slot order (cached per board)."""
    cache = _board(s)
    hit = cache.face_down_ambush
    if hit is None:
        hit = []
        for p in s.players:
            for oid in p.back:
                if oid is None:
                    continue
                o = s.objs[oid]
                if o.face_down:
                    hit.extend((o, i, ab) for i, ab in enumerate(o.card.abilities)
                               if ab.kind is AbilityKind.AMBUSH and ab.when is not None)
        cache.face_down_ambush = hit
    return hit


def face_down_cards(s: GameState) -> list[Obj]:
    """Face-down cards in both backrows (17.1: laid Ambushes), player A's first, slot order.
    Where they are is public; what they are is not (6.2) (cached per board)."""
    cache = _board(s)
    hit = cache.face_down
    if hit is None:
        hit = [s.objs[oid] for p in s.players for oid in p.back
               if oid is not None and s.objs[oid].face_down]
        cache.face_down = hit
    return hit


def trigger_events(s: GameState) -> frozenset[str]:
    """The event names that some triggered ability in play or on a Host (28.5), or some
    face-down event-keyed Ambush (29.4), waits for: an event naming none of them, with
    nothing just gone from play, cannot trigger anything (cached per board). The public
    chances of the pool's Ambushes are collected before this check
    (matching.collect_triggers)."""
    cache = _board(s)
    hit = cache.trigger_events
    if hit is None:
        names: set[str] = set()
        for _o, _i, ab in active_abilities(s, AbilityKind.TRIGGERED):
            if ab.when is not None:
                names.add(ab.when.event)
        for _o, _i, ab in face_down_ambushes(s):
            if ab.when is not None:
                names.add(ab.when.event)
        hit = cache.trigger_events = frozenset(names)
    return hit


class PoolTables:
    """What any card of the card pool could do, for judging a hidden card by public facts
    alone (``pool_tables``)."""

    def __init__(self, reg: dict[str, CardDef]) -> None:
        cards = [c for c in reg.values() if c.type is not CardType.HOST and c.type is not CardType.TOKEN]
        cards.sort(key=_ambush_first)
        # every card a hand may hold (no Hosts, no tokens), Ambushes first
        self.playable: list[CardDef] = cards
        # those that may be played at Fast timing (15.3, 31.1.2)
        self.fast: list[CardDef] = [c for c in cards if c.is_fast]
        # (card, ability index, ability) of each Ambush with a state requirement (29.4, A53)
        self.state_ambush: list[tuple[CardDef, int, Ability]] = []
        # event name -> (card, ability index, ability) of each Ambush keyed to it (29.4, 33.5)
        self.event_ambush: dict[str, list[tuple[CardDef, int, Ability]]] = {}
        for c in cards:
            if c.type is not CardType.AMBUSH:
                continue
            for i, ab in enumerate(c.abilities):
                if ab.kind is not AbilityKind.AMBUSH:
                    continue
                if ab.when is not None:
                    self.event_ambush.setdefault(ab.when.event, []).append((c, i, ab))
                elif ab.while_:
                    self.state_ambush.append((c, i, ab))


def _ambush_first(c: CardDef) -> bool:
    return c.type is not CardType.AMBUSH


_POOL_TABLES: Final[dict[int, tuple[dict[str, CardDef], int, PoolTables]]] = {}


def pool_tables(reg: dict[str, CardDef]) -> PoolTables:
    """The pool tables of a registry (cached per registry and its size; the games of one
    Ruleset share its registry)."""
    hit = _POOL_TABLES.get(id(reg))
    if hit is None or hit[0] is not reg or hit[1] != len(reg):
        if len(_POOL_TABLES) >= 64:  # registries come and go (scenarios): keep a few
            _POOL_TABLES.clear()
        hit = _POOL_TABLES[id(reg)] = (reg, len(reg), PoolTables(reg))
    return hit[2]


def static_applies(s: GameState, src: Obj, ab: Ability, target: Obj) -> bool:
    """Does the static ability ``ab`` of ``src`` apply to ``target``?"""
    aff = ab.affects
    if isinstance(aff, Selector):
        return matches_kind(aff, target, src.controller, src.id)
    if aff == "self":
        return target.id == src.id
    if aff == "equipped":
        return src.zone is Zone.MARKER and src.attached_to == target.id
    if aff is None or target.zone is not Zone.HOST:
        return False
    if aff == "your_host":
        return target.owner == src.controller
    if aff == "opponent_host":
        return target.owner != src.controller
    return aff == "each_host"


def _static_amounts(ab: Ability, stat: str) -> tuple[int, int | None]:
    if stat == "health":
        return ab.health, ab.set_health
    if stat == "power":
        return ab.power, ab.set_power
    return ab.soul, ab.set_soul


def _statics_for(s: GameState, stat: str) -> list[tuple[Obj, Ability, int, int | None]]:
    """Static abilities in play that add to or set ``stat``, with the amounts (cached per
    board)."""
    cache = _board(s)
    hit = cache.statics.get(stat)
    if hit is None:
        hit = []
        for src, _i, ab in active_abilities(s, AbilityKind.STATIC):
            add, to = _static_amounts(ab, stat)
            if add or to is not None:
                hit.append((src, ab, add, to))
        cache.statics[stat] = hit
    return hit


def _stat(s: GameState, o: Obj, which: str) -> int:
    """(Base + additional) - deducted (26.1.4, 26.1.4.1, 26.2.3, 26.2.3.1): increases and
    decreases alike (18.6.1, 18.6.2), for Hosts too (20.1.1-20.1.3); a set overrides them, the
    latest counting (18.6.3, A35). Damage is not read: it never lowers health (18.4).
    Continuous effects are read here, using no stack and no priority (31.3); increases and
    decreases add up to one total, whatever order they were given in (26.1.4.2, 26.2.3.2)."""
    card = o.card
    base = card.health if which == "health" else card.power if which == "power" else card.soul
    statics = _statics_for(s, which)
    if not o.mods and not statics:
        return max(0, base) if which == "power" else base
    delta = 0
    best_ts = -1
    best: int | None = None  # the latest set: the first of the latest timestamp
    for src, ab, add, to in statics:
        if static_applies(s, src, ab, o):
            delta += add
            if to is not None:
                ts = max(src.ts, o.ts)
                if best is None or ts > best_ts:
                    best_ts, best = ts, to
    for m in o.mods:
        if m.stat != which:
            continue
        if m.kind is ModKind.ADD:
            delta += m.value
        elif m.kind is ModKind.SET and (best is None or m.ts > best_ts):
            best_ts, best = m.ts, m.value
    value = best if best is not None else base + delta
    if which == "power":
        return max(0, value)
    return value


def stat(s: GameState, o: Obj, which: str) -> int:
    """The current value of a stat (cached until anything enters, leaves, moves or turns face
    up in play or as a Host, ``state.board``, or a modification is added or expires,
    ``state.modv``: a stat reads only the card, the statics in play and the modifications)."""
    values = _values(s).values
    k = (o.id, which)
    v = values.get(k)
    if v is None:
        v = values[k] = _stat(s, o, which)
    return v


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
    cache = _values(s).keywords
    hit = cache.get(o.id)
    if hit is None:
        kw = set(o.card.keywords)
        for src, _i, ab in active_abilities(s, AbilityKind.STATIC):
            if ab.grants and static_applies(s, src, ab, o):
                kw.update(ab.grants)
        for m in o.mods:
            if m.kind is ModKind.GRANT:
                kw.add(m.stat)
        hit = cache[o.id] = frozenset(kw)
    return hit


def has_keyword(s: GameState, o: Obj, kw: str) -> bool:
    return kw in keywords(s, o)


def is_host_type(o: Obj) -> bool:
    return o.card.type is CardType.HOST
