"""Resolving the stack (14.7-14.10, 21, 23, 30.4, 32, 34, 40, 42.1): a card enters play, an
effect's parts run.

Resolution is a sequence of tasks so that a choice in the middle (a Host-damage card, a
discard, a slot) is an ordinary decision. Before anything happens the item is checked: every
target still legal (30.4, 34.2.1) and every part performable now (34.2.2, A47). Then the parts
run in text order; 'then' parts are separated by game actions (40.3), 'and' parts are not (40.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import (
    PASS,
    YES,
    Action,
    Area,
    Decision,
    DecisionKind,
    Kind,
    Resume,
    listed_at,
    slot_at,
)
from .carddef import CardType
from .conditions import all_hold
from .core import Core
from .events import (
    Cast,
    Created,
    Embodied,
    EntersSlot,
    Fizzled,
    Laid,
    LoopCut,
    Played,
    Resolution,
    Resolved,
)
from .kinds import AbilityKind, ItemKind, Link, Zone
from .legal import open_slots
from .loops import loops_forever
from .primitives import as_primitive
from .references import ref_ids
from .state import Obj, PendingTrigger, StackItem
from .targeting import candidates, still_legal
from .tasks import Source, Task
from .zones import game_actions, move

# 14.4: the 'did' event is named by the play verb: Created, Cast, Embodied, Laid
VERB_EVENT: Final[dict[CardType, type[Resolution]]] = {
    CardType.ENTITY: Created, CardType.SORCERY: Cast, CardType.FORM: Embodied, CardType.AMBUSH: Laid}


# ------------------------------------------------------------ the work
@dataclass(init=False)
class ResolveTop(Task):
    """Resolve the top item of the stack (32.4)."""

    def __init__(self) -> None:
        pass

    def clone(self) -> ResolveTop:
        return ResolveTop()


@dataclass(init=False)
class RunGameActions(Task):
    """The game actions, between the 'then' parts of an effect (40.3)."""

    def __init__(self) -> None:
        pass

    def clone(self) -> RunGameActions:
        return RunGameActions()


@dataclass(init=False)
class ItemWork(Task):
    """Work on a resolving item (off the stack by now)."""

    item: StackItem

    def __init__(self, item: StackItem) -> None:
        self.item = item

    def source(self) -> Source | None:
        return Source(self.item.card, self.item.ability)


@dataclass(init=False)
class Group(ItemWork):
    """The parts ``steps`` of ``item``'s effect linked by 'and': performable together or not
    at all (40.3.2, 40.4.2)."""

    steps: list[int]

    def __init__(self, item: StackItem, steps: list[int]) -> None:
        self.item = item
        self.steps = steps

    def clone(self) -> Group:
        return Group(self.item.clone(), list(self.steps))


@dataclass(init=False)
class ExecStep(ItemWork):
    """Part ``step`` of ``item``'s effect, done to ``ids`` (None: what its reference names
    when it runs; a choice on resolution, 30.2, is asked first)."""

    step: int
    ids: list[int] | None

    def __init__(self, item: StackItem, step: int, ids: list[int] | None) -> None:
        self.item = item
        self.step = step
        self.ids = ids

    def clone(self) -> ExecStep:
        return ExecStep(self.item.clone(), self.step, None if self.ids is None else list(self.ids))


@dataclass(init=False)
class ItemDone(ItemWork):
    """``item`` has fully resolved (34.5)."""

    def __init__(self, item: StackItem) -> None:
        self.item = item

    def clone(self) -> ItemDone:
        return ItemDone(self.item.clone())


@dataclass(init=False)
class ItemChoice(ItemWork):
    """``item`` waits for its controller's choice: a slot for a card, or whether to use an
    optional effect."""

    def __init__(self, item: StackItem) -> None:
        self.item = item

    def clone(self) -> ItemChoice:
        return ItemChoice(self.item.clone())


# ------------------------------------------------------------ resolving the top item
def run_resolve_top(g: Core, t: ResolveTop) -> None:
    """Resolve the last card/effect that entered the Stack (32.4), as in 32.9; it is taken
    off the stack here, and ItemDone marks it fully resolved (34.5)."""
    s = g.s
    item = s.stack[-1]
    if (item.kind is ItemKind.TRIGGER or item.kind is ItemKind.SPELL) and loops_forever(g, item, ResolveTop()):
        s.stack.pop()  # 42.1.2: it does not resolve; the initial action stands
        g.emit(LoopCut(item.sid, item.source_name))
        after_item(g, item)
        return
    s.stack.pop()
    if item.kind is ItemKind.CARD:
        resolve_card(g, item)
    else:
        resolve_effect(g, item)


def fizzle(g: Core, item: StackItem, reason: str) -> None:
    g.emit(Fizzled(item.sid, item.source_name, reason))
    if item.kind is ItemKind.CARD and item.obj is not None and item.obj in g.s.objs:
        move(g, g.s.objs[item.obj], Zone.DROP)
    else:
        after_item(g, item)


def resolve_card(g: Core, item: StackItem) -> None:
    """14.7-14.10: the card enters its slot, or a Form its Form zone (4.7, 4.7.1); then the
    'did' events fire (D16). With no open slot it cannot enter (18.7) and fizzles (A41)."""
    s = g.s
    card = item.card
    p = item.controller
    assert item.obj is not None  # a card item has its card object
    if card.type is CardType.FORM:
        if any(s.objs[f].name == card.name for f in s.players[p].forms):
            fizzle(g, item, "unique")  # A42
            return
        new = move(g, s.objs[item.obj], Zone.FORM, p)
        assert new is not None
        after_enter(g, item, new)
        return
    row = "f" if card.type is CardType.ENTITY else "b"  # 4.4.1 Entities, 4.5.1 the others
    slots = open_slots(s, p, row)
    if not slots:
        fizzle(g, item, "no_slot")  # A41
        return
    acts = [Action(Kind.SLOT, target=slot_at(row, i)) for i in slots]
    g.decide(p, DecisionKind.CHOOSE_SLOT, acts, Resume.CARD_SLOT, prompt=f"slot for {card.name}",
             task=ItemChoice(item))


def on_card_slot(g: Core, d: Decision, a: Action) -> None:
    t = d.task
    assert isinstance(t, ItemChoice)
    item = t.item
    assert item.obj is not None  # a card item has its card object
    o = g.s.objs[item.obj]
    zone = Zone.FRONT if a.dst.area is Area.FRONT else Zone.BACK
    new = move(g, o, zone, item.controller, slot=a.dst.index, face_down=item.face_down)
    assert new is not None
    if zone is Zone.FRONT:
        new.sick = True  # 18.5.1
    after_enter(g, item, new)


def after_enter(g: Core, item: StackItem, new: Obj) -> None:
    """The card is in play: its 'did' event fires under its play verb, Created, Cast,
    Embodied or Laid (14.4.1-14.4.4), for effects such as 'when your opponent creates an
    Entity' (14.10.1). A Sorcery's effects trigger; a Sorcery with none goes to the drop
    zone at once unless it is Lingering, which stays in its slot (22.1)."""
    s = g.s
    card = item.card
    p = item.controller
    if card.type is CardType.SORCERY:
        spells = [i for i, ab in enumerate(card.abilities) if ab.kind is AbilityKind.SPELL]
        for ai in spells:  # 21.2.1: each effect triggers on its own, targets from the cast
            ab = card.abilities[ai]
            targets = {name: list(item.targets.get(f"{ai}:{name}", [])) for name, _ in ab.targets}
            s.trigger_seq += 1
            s.pending.append(PendingTrigger(p, new.id, card, ai, ItemKind.SPELL, None, "", targets,
                                            False, s.trigger_seq))
        new.effects_left = len(spells)
    hidden = new.face_down
    # the triggers these events cause are public (a "when your opponent lays a card"
    # trigger): a face-down card's name stays out of them (6.2, HiddenCardEvent)
    g.emit(VERB_EVENT[card.type](p, new.id, card.name, hidden))
    if new.zone is Zone.FRONT or new.zone is Zone.BACK:
        place = f"{'f' if new.zone is Zone.FRONT else 'b'}{new.slot}"
        g.emit(EntersSlot(p, new.id, card.name, hidden, place))
    g.emit(Played(p, new.id, card.name, hidden))
    if card.type is CardType.SORCERY and not new.effects_left and not card.is_lingering:
        move(g, new, Zone.DROP)


def after_item(g: Core, item: StackItem) -> None:
    """A40: a used Sorcery or Ambush goes to the drop zone (4.2, 4.2.1) once its effects
    have left; a Lingering one stays in its slot (22.1), an Ambush face up (22.3.1)."""
    s = g.s
    src = s.objs.get(item.source) if item.source is not None else None
    if src is None or src.zone is not Zone.BACK:
        return
    if item.kind is ItemKind.SPELL:
        src.effects_left -= 1
        if src.effects_left <= 0 and not src.card.is_lingering:
            move(g, src, Zone.DROP)
    elif item.kind is ItemKind.AMBUSH and not src.card.is_lingering:
        move(g, src, Zone.DROP)


def resolve_effect(g: Core, item: StackItem) -> None:
    """Resolve an effect (14.10.2): every chosen target must still be legal, also where any
    number could be chosen (30.4.1), and if any part cannot be performed the entire effect
    does not resolve (40.2.2)."""
    ab = item.ability_def
    for name, sel in ab.targets:
        for tid in item.targets.get(name, []):
            if not still_legal(g.s, sel, tid, item.controller, item.source):
                fizzle(g, item, "target")  # 30.4, 34.2.2.1
                return
    for st in ab.steps:
        # a conditional part is judged when it is reached (A54), not before (docs/cards.md)
        if not st.cond and not as_primitive(st).feasible(g, item):
            fizzle(g, item, "incomplete")  # 34.2.2, A47
            return
    if ab.optional:
        g.decide(item.controller, DecisionKind.YES_NO, [YES, PASS], Resume.OPTIONAL,
                 prompt=f"{item.source_name}: use its effect?", task=ItemChoice(item))
        return
    run_steps(g, item)


def on_optional(g: Core, d: Decision, a: Action) -> None:
    t = d.task
    assert isinstance(t, ItemChoice)
    item = t.item
    if a.kind is Kind.YES:
        run_steps(g, item)
    else:
        g.emit(Resolved(item.sid, item.source_name))
        after_item(g, item)


def run_steps(g: Core, item: StackItem) -> None:
    """Resolve the parts in card-text order (34.3); every part after a ';' belongs to the one
    ability (29.3). 'then' and 'and' matter only now (40.1, 40.2): game actions run between
    'then' parts (40.3), never inside an 'and' group (40.4.1), and after the last part, still
    inside the resolution: a game action happens at once (35.2, 35.4), so an Entity the effect
    destroyed or sent to the drop zone goes before the effect has resolved and its card has
    left (34.5). It all runs as tasks, with no priority given and nothing else resolving until
    it is done (31.4, 40.3.1)."""
    groups: list[list[int]] = []
    for i, st in enumerate(item.ability_def.steps):
        if groups and st.link is Link.AND:
            groups[-1].append(i)
        else:
            groups.append([i])
    tasks: list[Task] = []
    for steps in groups:
        tasks.append(Group(item, steps))
        tasks.append(RunGameActions())  # 40.3 between 'then' parts; 35.2, 35.4 after the last
    tasks.append(ItemDone(item))
    g.push_seq(tasks)


def run_game_actions(g: Core, t: RunGameActions) -> None:
    game_actions(g)


def run_group(g: Core, t: Group) -> None:
    """One part of the effect, or several linked by 'and'. A conditional step ("if ...",
    A54) is checked now: when its condition does not hold it is not performed, and the rest
    of the group goes on. What is left is performed together or, if any of it cannot be
    performed now, not at all (40.3.2, 40.4.2). Whether the group's last step happened is
    kept for a following step's ``previous`` condition."""
    s = g.s
    item = t.item
    steps = item.ability_def.steps
    run: list[int] = []
    happened = s.step_done
    last = t.steps[-1]
    for i in t.steps:
        st = steps[i]
        if st.cond and not all_hold(s, item, st.cond, happened):
            happened = False
            continue
        run.append(i)
        happened = True
    for i in run:  # 40.3.2, 40.4.2
        if not as_primitive(steps[i]).feasible(g, item):
            s.step_done = False
            return
    s.step_done = last in run
    g.push_seq([ExecStep(item, i, None) for i in run])


def run_item_done(g: Core, t: ItemDone) -> None:
    """The effect has fully resolved and is off the stack (34.5); its card may now go to
    the drop zone."""
    item = t.item
    g.emit(Resolved(item.sid, item.source_name))
    after_item(g, item)


# ------------------------------------------------------------ executing one step
def run_exec_step(g: Core, t: ExecStep) -> None:
    item = t.item
    st = item.ability_def.steps[t.step]
    ids = t.ids
    if ids is None and st.to is not None and st.to.choose is not None:
        cands = candidates(g.s, st.to.choose, item.controller, item.source)
        if not cands:
            return
        if st.to.choose.zone is not None:
            # a card in a drop or banished zone (open zones, 6.1.1): chosen from a list, one
            # item for each card name of each owner (copies there are alike)
            seen: set[tuple[int, str]] = set()
            cards: list[int] = []
            for c in cands:
                o = g.s.objs[c]
                if (o.owner, o.name) not in seen:
                    seen.add((o.owner, o.name))
                    cards.append(c)
            g.decide(item.controller, DecisionKind.CHOOSE_CARD,
                     [Action(Kind.CARD, listed_at(i)) for i in range(len(cards))],
                     Resume.CHOOSE_ON_RESOLUTION, prompt=f"{item.source_name}: choose a card (30.2)",
                     cards=tuple(cards), task=t)
            return
        acts = [Action(Kind.TARGET, target=g.place_ref(c)) for c in cands]
        g.decide(item.controller, DecisionKind.CHOOSE_TARGET, acts, Resume.CHOOSE_ON_RESOLUTION,
                 prompt=f"{item.source_name}: choose (30.2)", task=t)
        return
    if ids is None:
        ids = ref_ids(g.s, item, st.to)
    as_primitive(st).resolve(g, item, ids)


def on_choose_on_resolution(g: Core, d: Decision, a: Action) -> None:
    t = d.task
    assert isinstance(t, ExecStep)
    oid = d.cards[a.src.index] if a.kind is Kind.CARD else g.resolve_ref(a.dst)
    assert oid is not None  # one of the decision's own targets
    g.push(ExecStep(t.item, t.step, [oid]))
