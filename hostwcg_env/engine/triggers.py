"""Triggers and the trigger window (28, 33, A26, A50, A53).

Events are matched against triggered abilities when they happen (28.5); the triggers wait in
``state.pending`` and are put on the stack in the next trigger window, never during a
resolution (34.4): the turn player places all of theirs in the order they choose, then the
other player (33.2-33.3). Event-keyed Ambushes are offered only in that window (A53, 33.5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import PASS, Action, Decision, DecisionKind, Kind
from .carddef import CardType, Selector, Trigger
from .costs import can_pay
from .events import TRIGGER_NAMES, Event
from .state import Obj, PendingTrigger
from .stats import (
    active_abilities,
    face_down_ambushes,
    face_down_cards,
    registry_tables,
    trigger_events,
)
from .targeting import candidates, matches

if TYPE_CHECKING:
    from .state import GameState


def _event_names(ev: Event) -> list[str]:
    """Trigger names of an event; the Start Phase and End Phase beginning are the start and
    end of the turn (10.2.2, 10.6.1)."""
    if ev.kind == "PhaseBegan":
        phase = ev.data["phase"]
        names = ["start_of_phase"]
        if phase == "start":
            names.append("start_of_turn")
        if phase == "end":
            names.append("end_of_turn")
        return names
    name = TRIGGER_NAMES.get(ev.kind)
    return [name] if name else _NONE


_NONE: list[str] = []  # never mutated


def _loose_match(sel: Selector, o: Obj, controller: int, source: int | None) -> bool:
    """Match an object that is not in play (on the stack, or last known information); a card
    is still each of its subtypes (13.5.1). A face-down card shows none of them (6.2): only
    that it is a face-down card (an Ambush, 14.3) and whose, so no trigger can tell what it is."""
    t = sel.type
    is_ent = o.card.type in (CardType.ENTITY, CardType.TOKEN)
    if t == "entity" and not is_ent:
        return False
    if t == "host" and o.card.type is not CardType.HOST:
        return False
    if sel.controller == "you" and o.controller != controller:
        return False
    if sel.controller == "opponent" and o.controller == controller:
        return False
    if sel.subtype is not None and (o.face_down or sel.subtype not in o.card.subtypes):
        return False
    if sel.other and o.id == source:
        return False
    return True


def _first_of(objs: list[Obj], p: int) -> Obj | None:
    """The first object of ``objs`` that p controls."""
    for o in objs:
        if o.controller == p:
            return o
    return None


class TriggersMixin:
    s: GameState

    def _trigger_matches(self, tr: Trigger, names: list[str], ev: Event, src: Obj) -> bool:
        if tr.event not in names:
            return False
        d = ev.data
        if tr.phase is not None and d.get("phase") != tr.phase:
            return False
        ctrl = src.controller
        pl = d.get("player")
        if tr.player == "you" and pl != ctrl:
            return False
        if tr.player == "opponent" and pl != 1 - ctrl:
            return False
        subj = tr.subject
        if subj is None:
            return True
        sid = d.get("subject")
        if subj == "self":
            return sid == src.id
        if subj == "other":
            return sid is not None and sid != src.id
        so = self.s.objs.get(sid) if sid is not None else None
        if so is None:
            so = d.get("lki")
            if so is None or so.id != sid:
                return False
        if so.zone in ("front", "back", "form", "host"):
            return matches(self.s, subj, so, ctrl, src.id)
        return _loose_match(subj, so, ctrl, src.id)

    def _collect_triggers(self, ev: Event) -> None:
        """Match an event against every triggered ability in play, or just gone (A45). Each
        trigger statement of a card is its own ability, matched on its own (28.3); the 'did'
        events feed effects such as 'when your opponent creates an Entity' (14.10.1). Matches
        wait in ``pending`` until their player next has priority (28.5.1), where all of them
        are declared together (33.1); face-down Ambushes whose event matches are offered."""
        names = _event_names(ev)
        if not names:
            return
        s = self.s
        data = ev.data
        fd = face_down_cards(s)
        if fd:
            # What the other player may know: each face-down card could be any Ambush of the
            # card pool (6.2). Every pool Ambush that this event would let one of a player's
            # face-down cards answer is a public chance; the real matches below are among
            # them. A match reads the card only for its controller, and for its id when the
            # trigger names the card itself ('self', 'other'): one card of each player is
            # asked otherwise.
            index = registry_tables(s.registry)["event_ambush"]
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
                    tr = ab.when
                    each = tr.subject in ("self", "other") or getattr(tr.subject, "other", False)
                    for o in fd if each else firsts.values():
                        chance = (o.controller, card, i)
                        if chance not in chances and self._trigger_matches(tr, names, ev, o):
                            chances.append(chance)
        if data.get("lki") is None and data.get("lki_source") is None:
            watched = trigger_events(s)
            for n in names:
                if n in watched:
                    break
            else:
                return  # no ability in play waits for this event
        srcs: list[tuple[Obj, int, Any]] = active_abilities(s, "triggered")
        seen: set[int] = set()
        for key in ("lki", "lki_source"):
            lki = ev.data.get(key)
            # it just left play (A45); a face-down card had no abilities (17.2), and
            # triggering one would show what it was
            if lki is not None and lki.id not in s.objs and lki.id not in seen and not lki.face_down:
                seen.add(lki.id)
                srcs = srcs + [(lki, i, ab) for i, ab in enumerate(lki.card.abilities) if ab.kind == "triggered"]
        sid = ev.data.get("subject")
        subject_name = ev.data.get("subject_name", "")
        hold = bool(ev.data.get("hold"))
        for o, i, ab in srcs:
            if ab.when is not None and self._trigger_matches(ab.when, names, ev, o):
                s.trigger_seq += 1
                s.pending.append(PendingTrigger(o.controller, o.id, o.card, i, "trigger", sid,
                                                subject_name, None, hold, s.trigger_seq))
        for o, i, ab in face_down_ambushes(s):
            if ab.when is not None and self._trigger_matches(ab.when, names, ev, o):
                s.ambush_ops.append((o.controller, o.id, i, sid, subject_name))
                if s.registry.get(o.card.name) is not o.card:  # a card from outside the pool
                    self._add_chance((o.controller, o.card, i))

    def _add_chance(self, key: tuple[int, Any, int]) -> None:
        if key not in self.s.ambush_chances:
            self.s.ambush_chances.append(key)

    # ------------------------------------------------------------ the window
    def _placeable(self) -> list[PendingTrigger]:
        """Triggers that may be placed now. Start-of-phase triggers go first (39.1): those held
        behind them (A50) wait for an empty stack."""
        s = self.s
        unheld = [t for t in s.pending if not t.hold]
        if unheld:
            return unheld
        return list(s.pending) if not s.stack else []

    def _valid_ops(self, p: int) -> list[tuple[int, int, int, int | None, str]]:
        """Event-keyed Ambushes p may activate in this window: only for an event that met the
        condition before the ';' (29.4), as in the 33.6 example; face down, payable, targets."""
        s = self.s
        out = []
        offered: set[tuple[int, int]] = set()
        for op in s.ambush_ops:
            ctrl, oid, ai, _subj, _name = op
            if ctrl != p or oid not in s.objs or (oid, ai) in offered:
                continue  # one offer per Ambush: the first event of the window that matches it
            o = s.objs[oid]
            if o.zone != "back" or not o.face_down or o.controller != p:
                continue
            if not can_pay(s.players[p].pool, o.card.cost):
                continue
            ab = o.card.abilities[ai]
            if all(len(candidates(s, sel, p, oid)) >= (0 if sel.up_to else sel.count) for _n, sel in ab.targets):
                out.append(op)
                offered.add((oid, ai))
        return out

    def _has_chance(self, p: int) -> bool:
        """Whether, by public facts alone, p may have an Ambush to activate in this window:
        p still has a face-down card in its backrow, which could be a pool Ambush that
        answers one of the window's events (``ambush_chances``), whose cost p's pool can pay
        (17.2.1) and whose targets exist (30.5). Every real option (``_valid_ops``) is one of
        them (a face-down card is never a target, so which one is the source matters not)."""
        s = self.s
        if not s.ambush_chances:
            return False
        src = _first_of(face_down_cards(s), p)
        if src is None:
            return False
        pool = s.players[p].pool
        for q, card, ai in s.ambush_chances:
            if q != p or not can_pay(pool, card.cost):
                continue
            ab = card.abilities[ai]
            if all(len(candidates(s, sel, p, src.id)) >= (0 if sel.up_to else sel.count) for _n, sel in ab.targets):
                return True
        return False

    def _window(self) -> bool:
        """Run the trigger window; True if it made a decision or queued work.

        Triggers that met their trigger wait for this window (28.5.1, A26). The turn player
        places theirs first (32.8, 33.2), then the other player (33.3); each goes last in the
        stack (32.5.1), which then resolves as normal (33.4). An event-keyed Ambush is
        activated only here, while its controller places effects for the event (A53, 33.5).

        Who is asked depends on public facts only: a player is asked if a trigger of theirs
        is due, or if a face-down card of theirs could be an Ambush for the event that they
        can pay for (``_has_chance``), whether or not it is one; a player with one trigger
        and no such chance places it without being asked. The turn player receives priority
        after the window only if triggered effects were put on the stack or an Ambush was
        activated (31.5.1); a window in which everyone passed changes nothing, so a
        face-down card that turns out not to matter changes no one's priority.
        """
        s = self.s
        placeable = self._placeable()
        if not s.window_active:
            if not placeable and not (s.ambush_chances and (self._has_chance(s.tp) or self._has_chance(1 - s.tp))):
                s.ambush_ops = []  # no chance is usable, so no real option is (A53: gone)
                s.ambush_chances = []
                return False
            s.window_active = True
            s.window_base = s.stack[-1].sid if s.stack else None
            s.window_done = [False, False]
            s.window_placed = False
        for p in (s.tp, 1 - s.tp):
            mine = [t for t in placeable if t.controller == p]
            if mine:
                s.window_done[p] = False
                s.window_placed = True
            if s.window_done[p]:
                continue
            chance = self._has_chance(p)
            if not mine and not chance:
                s.window_done[p] = True
                continue
            if len(mine) == 1 and not chance:
                self._place_trigger(mine[0])  # type: ignore[attr-defined]
                return True
            ops = self._valid_ops(p)
            acts = [Action(Kind.TRIGGER, str(k)) for k in range(len(mine))]
            acts += [Action(Kind.ACTIVATE, self._place_of(op[1]), op[2]) for op in ops]  # type: ignore[attr-defined]
            if not mine:
                acts.append(PASS)
            names = ", ".join(t.card.name for t in mine)
            self._decide(p, DecisionKind.PLACE_TRIGGERS, acts, "place_triggers",  # type: ignore[attr-defined]
                         prompt=f"put on the stack: {names}" if names else "activate an Ambush?",
                         hidden=True)  # asked on public grounds: never skipped by a driver
            return True
        s.window_active = False
        s.window_base = None
        s.ambush_ops = []
        s.ambush_chances = []
        if s.window_placed:
            s.priority = s.tp  # 31.5.1
            s.passes = 0
        s.window_placed = False
        return False

    def _on_place_triggers(self, d: Decision, a: Action) -> None:
        """A choice in the window: place a trigger, activate an event-keyed Ambush for this
        event (the 33.6 example), or pass."""
        s = self.s
        p = d.player
        if a.kind is Kind.PASS:
            s.window_done[p] = True
            s.ambush_ops = [op for op in s.ambush_ops if op[0] != p]
            s.ambush_chances = [c for c in s.ambush_chances if c[0] != p]
            return
        if a.kind is Kind.TRIGGER:
            mine = [t for t in self._placeable() if t.controller == p]
            self._place_trigger(mine[int(a.arg)])  # type: ignore[attr-defined]
            return
        oid = self._resolve_place(a.arg)  # type: ignore[attr-defined]
        for op in self._valid_ops(p):
            if op[1] == oid and op[2] == a.n:
                s.ambush_ops.remove(op)
                s.window_placed = True  # an effect goes on the stack: 31.5.1 after the window
                self._start_ambush(p, op)  # type: ignore[attr-defined]
                return
