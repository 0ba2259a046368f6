"""Putting things on the stack: playing cards (14), activating (27, 17.2, 39.2), placing
triggers (28.6, 33); declaring targets (30.3, 34.1) and paying (12.5, A23).

Each announcement is one task, :class:`Announce`, re-entered after every choice; nothing
changes in the game until it commits, so an abandoned or illegal choice loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import PASS, Action, Decision, DecisionKind, Kind, Resume
from .carddef import CardDef, CardType, Res, Selector
from .core import Core
from .costs import Cost, auto_choice, generic_count, generic_options, pay_typed, spend, symbol
from .events import (
    Activated,
    Announced,
    Paid,
    TriggerPlaced,
    TriggerSkipped,
    WouldCast,
    WouldCreate,
    WouldEmbody,
    WouldLay,
    WouldPlay,
)
from .kinds import AbilityKind, ItemKind, Zone
from .state import PendingTrigger, StackItem
from .targeting import candidates
from .tasks import Source, Task
from .zones import move

# 14.4: the play is named by the card's type (14.4.1-14.4.4): WouldCreate, WouldCast, ...
WOULD_EVENT: Final[dict[CardType, type[Announced]]] = {
    CardType.ENTITY: WouldCreate,
    CardType.SORCERY: WouldCast,
    CardType.FORM: WouldEmbody,
    CardType.AMBUSH: WouldLay,
}
# what is announced: a card played, an ability activated, an Ambush, a trigger placed
PLAY: Final = "play"
ACTIVATE: Final = "activate"
DURING: Final = "during"
AMBUSH: Final = "ambush"
TRIGGER: Final = "trigger"
_ITEM_KIND: Final = {ACTIVATE: ItemKind.ABILITY, DURING: ItemKind.DURING, AMBUSH: ItemKind.AMBUSH}


@dataclass(init=False)
class Announce(Task):
    """An announcement in progress (see the module docstring): ``what`` is announced by
    ``player`` for the object ``obj`` (ability ``ability``, -1 for a card played), or for the
    trigger ``trig``; ``specs`` lists the targets to declare as [ability, name] and ``spec_i``
    the next one; ``chosen`` the targets declared ("ability:name" -> ids); ``cost`` the cost
    to pay and ``picked`` how each generic symbol is paid so far."""

    what: str
    player: int
    obj: int | None
    ability: int
    specs: list[tuple[int, str]]
    cost: Cost
    spec_i: int
    chosen: dict[str, list[int]]
    picked: list[str]
    subject: int | None
    subject_name: str
    trig: PendingTrigger | None

    def __init__(
        self,
        what: str,
        player: int,
        obj: int | None,
        ability: int,
        specs: list[tuple[int, str]],
        cost: Cost,
        spec_i: int = 0,
        chosen: dict[str, list[int]] | None = None,
        picked: list[str] | None = None,
        subject: int | None = None,
        subject_name: str = "",
        trig: PendingTrigger | None = None,
    ) -> None:
        self.what = what
        self.player = player
        self.obj = obj
        self.ability = ability
        self.specs = specs
        self.cost = cost
        self.spec_i = spec_i
        self.chosen = {} if chosen is None else chosen
        self.picked = [] if picked is None else picked
        self.subject = subject
        self.subject_name = subject_name
        self.trig = trig

    def clone(self) -> Announce:
        return Announce(self.what, self.player, self.obj, self.ability, list(self.specs), self.cost,
                        self.spec_i, {k: list(v) for k, v in self.chosen.items()}, list(self.picked),
                        self.subject, self.subject_name, self.trig)

    def source(self) -> Source | None:
        if self.trig is not None:
            return Source(self.trig.card, self.trig.ability)
        return Source(None, self.ability, self.obj)


# ------------------------------------------------------------ starting
def start_play(g: Core, p: int, hand_index: int) -> None:
    """Announce playing a card from hand. Every target of a Sorcery's effects is declared
    now, 'then' and 'and' parts alike (40.2.1), an Equipment's permanent included (23.2.1);
    an Ambush is laid for no cost (14.2.1)."""
    s = g.s
    o = s.objs[s.players[p].hand[hand_index]]
    specs: list[tuple[int, str]] = []
    if o.card.type is CardType.SORCERY:
        for ai, ab in enumerate(o.card.abilities):
            if ab.kind is AbilityKind.SPELL:
                specs.extend((ai, name) for name, _sel in ab.targets)
    cost: Cost = () if o.card.type is CardType.AMBUSH else o.card.cost
    g.push(Announce(PLAY, p, o.id, -1, specs, cost))


def start_activate(g: Core, p: int, a: Action) -> None:
    oid = g.resolve_ref(a.src)
    assert oid is not None  # one of the decision's own actions
    o = g.s.objs[oid]
    ab = o.card.abilities[a.n]
    if ab.kind is AbilityKind.ACTIVATED:
        what = ACTIVATE
    elif ab.kind is AbilityKind.DURING:
        what = DURING
    else:
        what = AMBUSH
    cost = o.card.cost if ab.kind is AbilityKind.AMBUSH else ab.cost
    g.push(Announce(what, p, o.id, a.n, [(a.n, name) for name, _ in ab.targets], cost))


def start_ambush(g: Core, p: int, op: tuple[int, int, int, int | None, str]) -> None:
    _ctrl, oid, ai, subject, subject_name = op
    o = g.s.objs[oid]
    ab = o.card.abilities[ai]
    g.push(Announce(AMBUSH, p, oid, ai, [(ai, name) for name, _ in ab.targets], o.card.cost,
                    subject=subject, subject_name=subject_name))


def place_trigger(g: Core, t: PendingTrigger) -> None:
    g.s.pending.remove(t)
    ab = t.card.abilities[t.ability]
    specs = [] if t.targets is not None else [(t.ability, name) for name, _ in ab.targets]
    chosen = {f"{t.ability}:{k}": list(v) for k, v in (t.targets or {}).items()}
    g.push(Announce(TRIGGER, t.controller, t.source, t.ability, specs, (), chosen=chosen, trig=t))


# ------------------------------------------------------------ the task
def _card_of(g: Core, t: Announce) -> CardDef:
    if t.trig is not None:
        return t.trig.card
    assert t.obj is not None
    return g.s.objs[t.obj].card


def _selector(g: Core, t: Announce, ai: int, name: str) -> Selector:
    for n, sel in _card_of(g, t).abilities[ai].targets:
        if n == name:
            return sel
    raise KeyError(name)


def run_announce(g: Core, t: Announce) -> None:
    """Declare every target first (40.2.1), then choose how to pay the generic cost, then
    commit."""
    s = g.s
    p = t.player
    while t.spec_i < len(t.specs):
        ai, name = t.specs[t.spec_i]
        sel = _selector(g, t, ai, name)
        got = t.chosen.setdefault(f"{ai}:{name}", [])
        if len(got) >= sel.count:
            t.spec_i += 1
            continue
        cands = [c for c in candidates(s, sel, p, t.obj) if c not in got]
        acts = [Action(Kind.TARGET, target=g.place_ref(c)) for c in cands]
        if sel.up_to:
            acts.append(PASS)
        if not acts:
            if t.trig is not None:  # 30.5, A44: a trigger with no legal target is not placed
                g.emit(TriggerSkipped(p, t.trig.card.name))
                return
            raise RuntimeError("engine error: targets were checked before announcing")
        card = _card_of(g, t)
        g.decide(p, DecisionKind.CHOOSE_TARGET, acts, Resume.ANNOUNCE_TARGET,
                 prompt=f"target '{name}' for {card.name}", task=t)
        return
    cost = _cost_left(t)
    pool = _pool_after(g, p, t.picked)
    if generic_count(cost) > 0:
        opts = generic_options(pool, cost)
        distinct = [k for k, v in pool.items() if v > 0]
        if s.config.auto_pay or len(distinct) <= 1:
            t.picked.append(auto_choice(pool, cost, symbol(_card_of(g, t).resource)))
            g.push(t)
            return
        acts = [Action(Kind.PAY, res=Res(o)) for o in opts] + [Action(Kind.PAY)]
        g.decide(p, DecisionKind.PAY, acts, Resume.ANNOUNCE_PAY,
                 prompt=f"pay $ of {_card_of(g, t).name} with", task=t)
        return
    commit(g, t)


def _cost_left(t: Announce) -> Cost:
    """The cost still to assign: a generic symbol goes for each payment picked."""
    if not t.picked:
        return t.cost
    cost = list(t.cost)
    for _ in t.picked:
        cost.remove(Res.GENERIC)
    return tuple(cost)


def _pool_after(g: Core, p: int, picked: list[str]) -> dict[str, int]:
    pool = dict(g.s.players[p].pool)
    for sym in picked:
        spend(pool, sym)
    return pool


def on_announce_target(g: Core, d: Decision, a: Action) -> None:
    t = d.task
    assert isinstance(t, Announce)
    if a.kind is Kind.PASS:
        t.spec_i += 1
    else:
        ai, name = t.specs[t.spec_i]
        tid = g.resolve_ref(a.dst)
        assert tid is not None  # one of the decision's own targets
        t.chosen[f"{ai}:{name}"].append(tid)
    g.push(t)


def on_announce_pay(g: Core, d: Decision, a: Action) -> None:
    t = d.task
    assert isinstance(t, Announce)
    if a.res is None:  # pay auto
        pool = _pool_after(g, t.player, t.picked)
        t.picked.append(auto_choice(pool, _cost_left(t), symbol(_card_of(g, t).resource)))
    else:
        t.picked.append(a.res.value)
    g.push(t)


# ------------------------------------------------------------ committing
def _pay(g: Core, p: int, t: Announce, name: str) -> None:
    if not t.cost:
        return
    pool = g.s.players[p].pool
    for sym in t.picked:
        spend(pool, sym)
    pay_typed(pool, t.cost)
    g.emit(Paid(p, "".join(t.cost), name))


def new_item(g: Core, kind: ItemKind, controller: int, source: int | None, source_name: str,
             card: CardDef, ability: int = -1, targets: dict[str, list[int]] | None = None,
             obj: int | None = None, subject: int | None = None, subject_name: str = "",
             face_down: bool = False, respond_to_top: bool = True,
             in_response_to: int | None = None) -> StackItem:
    """Put an item on top of the Stack (32.1, 32.2), after every item already there (32.2.1,
    32.5.1); it is 'in response' to the item below it (31.7) unless ``respond_to_top`` is
    False, when it responds to ``in_response_to`` (31.8)."""
    s = g.s
    base = (s.stack[-1].sid if s.stack else None) if respond_to_top else in_response_to
    item = StackItem(s.next_sid, kind, controller, source, source_name, card, ability,
                     targets if targets is not None else {}, obj, subject, subject_name, base,
                     face_down)
    s.next_sid += 1
    s.stack.append(item)
    return item


def commit(g: Core, t: Announce) -> None:
    """Commit the announcement; until now nothing in the game has changed.

    Playing a card: pay (14.2), reveal it, an Ambush only as a face-down card (14.3), name
    the play by its type (14.4), put it on the stack (14.5); the 'would' events fire now
    (14.6.1). An Ambush is activated (17.2.3): flipped face up, and a Lingering one stays
    face up (22.3.1); its effect enters the stack (17.2.4). Triggers and Ambushes put on
    the stack in one window respond to the item below them all (31.8).
    """
    s = g.s
    p = t.player
    what = t.what
    if what == PLAY:
        assert t.obj is not None
        o = s.objs[t.obj]
        card = o.card
        _pay(g, p, t, card.name)
        face_down = card.type is CardType.AMBUSH
        new = move(g, o, Zone.STACK, p, face_down=face_down)
        assert new is not None
        item = new_item(g, ItemKind.CARD, p, new.id, card.name, card, targets=t.chosen, obj=new.id,
                        face_down=face_down)
        g.emit(WouldPlay(p, new.id, card.name, face_down, item.sid))
        g.emit(WOULD_EVENT[card.type](p, new.id, card.name, face_down, item.sid))
        return
    targets = {k.split(":", 1)[1]: v for k, v in t.chosen.items()}
    if what == TRIGGER:
        tr = t.trig
        assert tr is not None
        new_item(g, tr.kind, p, tr.source, tr.card.name, tr.card, tr.ability, targets,
                 subject=tr.subject, subject_name=tr.subject_name, respond_to_top=False,
                 in_response_to=s.window_base)
        g.emit(TriggerPlaced(p, tr.card.name))
        return
    assert t.obj is not None
    o = s.objs[t.obj]
    _pay(g, p, t, o.name)
    ai = t.ability
    if what == ACTIVATE and o.card.abilities[ai].once_per_turn:
        o.used_s = (*o.used_s, ai)
    if what == DURING:
        o.used_during = {**o.used_during, ai: (s.turn, s.phase)}  # replaced: copies share it
    subject: int | None = None
    subject_name = ""
    respond_to_top = True
    if what == AMBUSH:
        o.face_down = False  # 17.2.2: flipped face up; the same object (S119)
        s.version += 1
        s.board += 1
        subject, subject_name = t.subject, t.subject_name
        if s.window_active:
            respond_to_top = False
    new_item(g, _ITEM_KIND[what], p, o.id, o.name, o.card, ai, targets, subject=subject,
             subject_name=subject_name, respond_to_top=respond_to_top, in_response_to=s.window_base)
    g.emit(Activated(p, o.id, o.name))
