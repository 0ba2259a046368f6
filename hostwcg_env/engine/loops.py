"""Loops (42.1, A52): an effect whose mandatory consequences would repeat it forever, with no
progress towards an end, does not resolve. Found by playing the mandatory chain ahead on a
copy of the game, every choice at its default."""

from __future__ import annotations

from .actions import PASS, YES, Kind
from .core import Core
from .kinds import AbilityKind, ItemKind
from .primitives import events_of
from .state import GameState, LoopProbe, StackItem
from .stats import active_abilities
from .tasks import Task

SIM_LIMIT = 400  # decisions a simulation plays before it gives up looking (no loop)


class LoopFound(Exception):
    """Raised inside a simulation when the chain comes back to its first effect (42.1.1)."""


class NoLoopHere(Exception):
    """Raised inside a simulation when a later effect repeats but the first one does not."""


def progress_key(s: GameState) -> tuple[object, ...]:
    """What a loop must change to be making progress towards an end (42.1.1.1, A52b)."""
    key: list[object] = []
    for p in s.players:
        key += [len(p.deck), len(p.hand), len(p.damage), len(p.drop), len(p.banished)]
        key += [tuple(p.front), tuple(p.back), tuple(p.forms)]
    objs = s.objs
    key.append(sum(objs[x].damage for p in s.players for x in p.front if x is not None))
    return tuple(key)


def may_loop(s: GameState, item: StackItem) -> bool:
    """Cheap filter: can resolving ``item`` lead, through the triggered abilities in play,
    back to the same ability? (A graph search over which events each ability causes.)"""
    if item.kind is not ItemKind.TRIGGER:
        return False  # a Sorcery's effects trigger only when it is cast (21.2.1)
    listeners = [(o.card.name, i, ab) for o, i, ab in active_abilities(s, AbilityKind.TRIGGERED)
                 if ab.when is not None]
    start = (item.card.name, item.ability)
    frontier = [item.ability_def]
    seen: set[tuple[str, int]] = set()
    while frontier:
        ab = frontier.pop()
        events: set[str] = set()
        for st in ab.steps:
            events |= events_of(st)
        for name, i, other in listeners:
            if other.when is not None and other.when.event in events:
                if (name, i) == start:
                    return True
                if (name, i) not in seen:
                    seen.add((name, i))
                    frontier.append(other)
    return False


def loops_forever(g: Core, item: StackItem, resolve_top: Task) -> bool:
    """42.1.2, A52: would resolving ``item`` (the top of the stack) repeat it forever with no
    progress? ``resolve_top`` is the task that resolves the top item, to start the copy.
    Inside a simulation this only records the effect, and ends the simulation when an
    effect comes back."""
    s = g.s
    key = (item.card.name, item.ability, item.controller, item.kind, progress_key(s))
    probe = s.sim
    if probe is not None:
        if key in probe.seen:
            if key == probe.first:
                raise LoopFound
            raise NoLoopHere
        probe.seen.append(key)
        return False
    if not may_loop(s, item):
        return False
    sim = g.spawn(s.copy(events=False))
    sim.s.sim = LoopProbe(key)
    try:
        _simulate_chain(sim, len(s.stack) - 1, resolve_top)
    except NoLoopHere:
        return False  # a later effect loops; it will be cut when it comes to resolve
    except LoopFound:
        return True
    return False


def _simulate_chain(sim: Core, base: int, resolve_top: Task) -> None:
    s = sim.s
    sim.push(resolve_top)
    sim.run()
    for _ in range(SIM_LIMIT):
        if s.over or (len(s.stack) <= base and not s.pending and not s.tasks):
            return
        d = s.decision
        if d is None:
            return
        acts = d.actions
        pick = next((a for a in acts if a.kind is Kind.TRIGGER), None) or (
            PASS if PASS in acts else YES if YES in acts else acts[0])
        sim.apply(pick)
