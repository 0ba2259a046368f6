"""Which abilities an event triggers (28, A45, A53): events are matched against triggered
abilities when they happen (28.5) and the matches wait in ``state.pending`` for the next
trigger window (triggers.py); event-keyed Ambushes wait in ``state.ambush_ops``.

This runs inside the event emitter (core.Core.emit), so it only reads the game and records
what waits; nothing is put on the stack here (34.4).
"""

from __future__ import annotations

from typing import Any, Final

from .carddef import CardDef, CardType, Selector, Trigger
from .events import (
    TRIGGER_NAMES,
    Destroys,
    Event,
    LeavesPlay,
    LosesSickness,
    PhaseBegan,
    PlayerEvent,
)
from .kinds import AbilityKind, Controller, ItemKind, Phase, SelectorType, Zone
from .state import Found, GameState, Obj, PendingTrigger
from .stats import (
    active_abilities,
    face_down_ambushes,
    face_down_cards,
    has_keyword,
    pool_tables,
    trigger_events,
)
from .targeting import matches

_NONE: Final[list[str]] = []  # never mutated
_IN_PLAY_OR_HOST: Final = frozenset((Zone.FRONT, Zone.BACK, Zone.FORM, Zone.HOST))


def event_names(ev: Event) -> list[str]:
    """Trigger names of an event; the Start Phase and End Phase beginning are the start and
    end of the turn (10.2.2, 10.6.1)."""
    if isinstance(ev, PhaseBegan):
        phase = ev.phase
        names = ["start_of_phase"]
        if phase == Phase.START:
            names.append("start_of_turn")
        if phase == Phase.END:
            names.append("end_of_turn")
        return names
    name = TRIGGER_NAMES.get(type(ev))
    return [name] if name else _NONE


def last_known(ev: Event) -> Obj | None:
    """The object as it last was in play (A45), for an event about one that just left: the
    card that left play, or the destroyer of a ``Destroys``."""
    if isinstance(ev, LeavesPlay) or isinstance(ev, Destroys):
        lki = ev.lki
        if isinstance(lki, Obj):
            return lki
    return None


def loose_match(sel: Selector, o: Obj, controller: int, source: int | None) -> bool:
    """Match an object that is not in play (on the stack, or last known information); a card
    is still each of its subtypes (13.5.1). A face-down card shows none of them (6.2): only
    that it is a face-down card (an Ambush, 14.3) and whose, so no trigger can tell what it is."""
    t = sel.type
    is_ent = o.card.type is CardType.ENTITY or o.card.type is CardType.TOKEN
    if t is SelectorType.ENTITY and not is_ent:
        return False
    if t is SelectorType.HOST and o.card.type is not CardType.HOST:
        return False
    if sel.controller is Controller.YOU and o.controller != controller:
        return False
    if sel.controller is Controller.OPPONENT and o.controller == controller:
        return False
    if sel.subtype is not None and (o.face_down or sel.subtype not in o.card.subtypes):
        return False
    if sel.other and o.id == source:
        return False
    return True


def trigger_matches(s: GameState, tr: Trigger, names: list[str], ev: Event, src: Obj) -> bool:
    """Does the event meet the trigger ``tr`` of an ability of ``src`` (28.2)?"""
    if tr.event not in names:
        return False
    if tr.phase is not None and (not isinstance(ev, PhaseBegan) or ev.phase != tr.phase):
        return False
    ctrl = src.controller
    pl = ev.player if isinstance(ev, PlayerEvent) else None
    if tr.player is Controller.YOU and pl != ctrl:
        return False
    if tr.player is Controller.OPPONENT and pl != 1 - ctrl:
        return False
    subj = tr.subject
    if subj is None:
        return True
    sid = ev.trigger_subject()[0]
    if subj == "self":
        return bool(sid == src.id)
    if subj == "other":
        return sid is not None and sid != src.id
    if not isinstance(subj, Selector):
        return False
    so: Any = s.objs.get(sid) if sid is not None else None
    if so is None:
        so = last_known(ev)
        if so is None or so.id != sid:
            return False
    if so.zone in _IN_PLAY_OR_HOST:
        return matches(s, subj, so, ctrl, src.id)
    if subj.keyword is not None and (so.face_down or not has_keyword(s, so, subj.keyword)):
        return False  # a face-down card shows no keyword (6.2)
    return loose_match(subj, so, ctrl, src.id)


def collect_triggers(s: GameState, ev: Event) -> None:
    """Match an event against every triggered ability in play, or just gone (A45). Each
    trigger statement of a card is its own ability, matched on its own (28.3); the 'did'
    events feed effects such as 'when your opponent creates an Entity' (14.10.1). Matches
    wait in ``pending`` until their player next has priority (28.5.1), where all of them
    are declared together (33.1); face-down Ambushes whose event matches are offered."""
    names = event_names(ev)
    if not names:
        return
    fd = face_down_cards(s)
    if fd:
        # What the other player may know: each face-down card could be any Ambush of the
        # card pool (6.2). Every pool Ambush that this event would let one of a player's
        # face-down cards answer is a public chance; the real matches below are among them.
        # A match reads the card only for its controller, and for its id when the trigger
        # names the card itself ('self', 'other'): one card of each player is asked otherwise.
        index = pool_tables(s.registry).event_ambush
        chances = s.ambush_chances
        firsts: dict[int, Obj] | None = None
        for n in names:
            entries = index.get(n)
            if not entries:
                continue
            if firsts is None:
                firsts = {}
                for o in fd:
                    firsts.setdefault(o.controller, o)
            for card, i, ab in entries:
                when = ab.when
                assert when is not None  # indexed by its event
                sub = when.subject
                each = sub == "self" or sub == "other" or (isinstance(sub, Selector) and sub.other)
                for o in (fd if each else list(firsts.values())):
                    chance = (o.controller, card, i)
                    if chance not in chances and trigger_matches(s, when, names, ev, o):
                        chances.append(chance)
    lki = last_known(ev)
    if lki is None:
        watched = trigger_events(s)
        for n in names:
            if n in watched:
                break
        else:
            return  # no ability in play waits for this event
    srcs: list[Found] = active_abilities(s, AbilityKind.TRIGGERED)
    # it just left play (A45); a face-down card had no abilities (17.2), and triggering
    # one would show what it was
    if lki is not None and lki.id not in s.objs and not lki.face_down:
        srcs = srcs + [(lki, i, ab) for i, ab in enumerate(lki.card.abilities)
                       if ab.kind is AbilityKind.TRIGGERED]
    sid, subject_name = ev.trigger_subject()
    hold = isinstance(ev, LosesSickness)  # A50: wait for the start-of-phase triggers
    for o, i, ab in srcs:
        if ab.when is not None and trigger_matches(s, ab.when, names, ev, o):
            s.trigger_seq += 1
            s.pending.append(PendingTrigger(o.controller, o.id, o.card, i, ItemKind.TRIGGER, sid,
                                            subject_name, None, hold, s.trigger_seq))
    for o, i, ab in face_down_ambushes(s):
        if ab.when is not None and trigger_matches(s, ab.when, names, ev, o):
            s.ambush_ops.append((o.controller, o.id, i, sid, subject_name))
            if s.registry.get(o.card.name) is not o.card:  # a card from outside the pool
                add_chance(s, o.controller, o.card, i)


def add_chance(s: GameState, player: int, card: CardDef, ability: int) -> None:
    key = (player, card, ability)
    if key not in s.ambush_chances:
        s.ambush_chances.append(key)


def placeable(s: GameState) -> list[PendingTrigger]:
    """Triggers that may be placed now. Start-of-phase triggers go first (39.1): those held
    behind them (A50) wait for an empty stack."""
    unheld = [t for t in s.pending if not t.hold]
    if unheld:
        return unheld
    return list(s.pending) if not s.stack else []
