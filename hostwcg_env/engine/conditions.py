"""Conditions of conditional steps ("if ⟨state⟩, ⟨effect⟩" inside an effect body: a condition
checked when that part resolves, A54; docs/cards.md "Conditions"). Queries only."""

from __future__ import annotations

from .carddef import Cond, CondKind
from .references import players_of, ref_ids
from .state import GameState, StackItem
from .stats import has_keyword, stat
from .targeting import candidates


def _within(n: int, c: Cond) -> bool:
    return (c.least is None or n >= c.least) and (c.most is None or n <= c.most)


def holds(s: GameState, item: StackItem, c: Cond, previous: bool) -> bool:
    """Does ``c`` hold now for the resolving ``item``? ``previous``: whether the step before
    the conditional one happened (it was reached, its own conditions held and it could be
    performed, 40.3.2)."""
    k = c.kind
    if k is CondKind.PREVIOUS:
        return previous == c.happened
    if k is CondKind.COUNT:
        assert c.selector is not None  # the loader gives every count condition its selector
        return _within(len(candidates(s, c.selector, item.controller, item.source)), c)
    if k is CondKind.ZONE:
        assert c.zone is not None
        n = 0
        for q in players_of(s, item, c.who):
            box = s.players[q].owner_zone(c.zone)
            n += len(box) if box is not None else 0
        return _within(n, c)
    # a stat or keyword of what ``of`` names now: every one of them must have it, and a
    # reference that names nothing (a target gone, 36.2) has nothing
    objs = [s.objs[i] for i in ref_ids(s, item, c.of) if i >= 0 and i in s.objs]
    if not objs:
        return False
    if k is CondKind.KEYWORD:
        kw = c.keyword or ""
        return all(has_keyword(s, o, kw) for o in objs)
    which = c.stat or "health"
    return all(_within(stat(s, o, which), c) for o in objs)


def all_hold(s: GameState, item: StackItem, conds: tuple[Cond, ...], previous: bool) -> bool:
    """Every condition of a step holds (an empty list always does)."""
    for c in conds:
        if not holds(s, item, c, previous):
            return False
    return True
