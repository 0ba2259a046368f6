"""The trigger window (28, 33, A26, A50, A53).

Triggered effects wait in ``state.pending`` (matching.py) and are put on the stack in the next
trigger window, never during a resolution (34.4): the turn player places all of theirs in the
order they choose, then the other player (33.2-33.3). Event-keyed Ambushes are offered only in
that window (A53, 33.5).
"""

from __future__ import annotations

from .actions import PASS, Action, Area, Decision, DecisionKind, Kind, Place, Resume
from .announce import place_trigger, start_ambush
from .core import Core
from .costs import can_pay
from .kinds import Zone
from .matching import placeable
from .state import GameState, Obj
from .stats import face_down_cards
from .targeting import candidates

AmbushOption = tuple[int, int, int, int | None, str]  # see GameState.ambush_ops


def valid_ops(s: GameState, p: int) -> list[AmbushOption]:
    """Event-keyed Ambushes p may activate in this window: only for an event that met the
    condition before the ';' (29.4), as in the 33.6 example; face down, payable, targets."""
    out: list[AmbushOption] = []
    offered: set[tuple[int, int]] = set()
    for op in s.ambush_ops:
        ctrl, oid, ai, _subj, _name = op
        if ctrl != p or oid not in s.objs or (oid, ai) in offered:
            continue  # one offer per Ambush: the first event of the window that matches it
        o = s.objs[oid]
        if o.zone is not Zone.BACK or not o.face_down or o.controller != p:
            continue
        if not can_pay(s.players[p].pool, o.card.cost):
            continue
        ab = o.card.abilities[ai]
        if all(len(candidates(s, sel, p, oid)) >= (0 if sel.up_to else sel.count) for _n, sel in ab.targets):
            out.append(op)
            offered.add((oid, ai))
    return out


def _first_of(objs: list[Obj], p: int) -> Obj | None:
    """The first object of ``objs`` that p controls."""
    for o in objs:
        if o.controller == p:
            return o
    return None


def has_chance(s: GameState, p: int) -> bool:
    """Whether, by public facts alone, p may have an Ambush to activate in this window:
    p still has a face-down card in its backrow, which could be a pool Ambush that answers
    one of the window's events (``ambush_chances``), whose cost p's pool can pay (17.2.1)
    and whose targets exist (30.5). Every real option (``valid_ops``) is one of them (a
    face-down card is never a target, so which one is the source matters not)."""
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


def window(g: Core) -> bool:
    """Run the trigger window; True if it made a decision or queued work.

    Triggers that met their trigger wait for this window (28.5.1, A26). The turn player
    places theirs first (32.8, 33.2), then the other player (33.3); each goes last in the
    stack (32.5.1), which then resolves as normal (33.4). An event-keyed Ambush is
    activated only here, while its controller places effects for the event (A53, 33.5).

    Who is asked depends on public facts only: a player is asked if a trigger of theirs
    is due, or if a face-down card of theirs could be an Ambush for the event that they
    can pay for (``has_chance``), whether or not it is one; a player with one trigger
    and no such chance places it without being asked. The turn player receives priority
    after the window only if triggered effects were put on the stack or an Ambush was
    activated (31.5.1); a window in which everyone passed changes nothing, so a
    face-down card that turns out not to matter changes no one's priority.
    """
    s = g.s
    ready = placeable(s)
    if not s.window_active:
        if not ready and not (s.ambush_chances and (has_chance(s, s.tp) or has_chance(s, 1 - s.tp))):
            s.ambush_ops = []  # no chance is usable, so no real option is (A53: gone)
            s.ambush_chances = []
            return False
        s.window_active = True
        s.window_base = s.stack[-1].sid if s.stack else None
        s.window_done = [False, False]
        s.window_placed = False
    for p in (s.tp, 1 - s.tp):
        mine = [t for t in ready if t.controller == p]
        if mine:
            s.window_done[p] = False
            s.window_placed = True
        if s.window_done[p]:
            continue
        chance = has_chance(s, p)
        if not mine and not chance:
            s.window_done[p] = True
            continue
        if len(mine) == 1 and not chance:
            place_trigger(g, mine[0])
            return True
        ops = valid_ops(s, p)
        acts = [Action(Kind.TRIGGER, Place(Area.PENDING, k)) for k in range(len(mine))]
        acts += [Action(Kind.ACTIVATE, g.place_ref(op[1]), n=op[2]) for op in ops]
        if not mine:
            acts.append(PASS)
        names = ", ".join(t.card.name for t in mine)
        g.decide(p, DecisionKind.PLACE_TRIGGERS, acts, Resume.PLACE_TRIGGERS,
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


def on_place_triggers(g: Core, d: Decision, a: Action) -> None:
    """A choice in the window: place a trigger, activate an event-keyed Ambush for this
    event (the 33.6 example), or pass."""
    s = g.s
    p = d.player
    if a.kind is Kind.PASS:
        s.window_done[p] = True
        s.ambush_ops = [op for op in s.ambush_ops if op[0] != p]
        s.ambush_chances = [c for c in s.ambush_chances if c[0] != p]
        return
    if a.kind is Kind.TRIGGER:
        mine = [t for t in placeable(s) if t.controller == p]
        place_trigger(g, mine[a.src.index])
        return
    oid = g.resolve_ref(a.src)
    for op in valid_ops(s, p):
        if op[1] == oid and op[2] == a.n:
            s.ambush_ops.remove(op)
            s.window_placed = True  # an effect goes on the stack: 31.5.1 after the window
            start_ambush(g, p, op)
            return
