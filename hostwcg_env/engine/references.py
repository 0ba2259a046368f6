"""What a resolving effect's words name (queries only): the objects of a reference (a target,
"self", "that Entity", a Host, all of a selector) and the players of a step ("you", "each")."""

from __future__ import annotations

from .carddef import Ref
from .kinds import Who
from .state import GameState, StackItem
from .targeting import candidates


def ref_ids(s: GameState, item: StackItem, ref: Ref | None) -> list[int]:
    """Object ids (stack items as -sid) that ``ref`` names for ``item`` now; a chosen target
    that has left its zone (36.2) or the stack is no longer named."""
    if ref is None:
        return []
    if ref.all is not None:
        return candidates(s, ref.all, item.controller, item.source)
    name = ref.name
    if name is not None and name in item.targets:
        return [t for t in item.targets[name] if (t in s.objs if t >= 0 else any(x.sid == -t for x in s.stack))]
    p = item.controller
    if name == "self":
        return [item.source] if item.source is not None and item.source in s.objs else []
    if name == "event.subject":
        return [item.subject] if item.subject is not None and item.subject in s.objs else []
    if name == "your_host":
        return [s.players[p].host]
    if name == "opponent_host":
        return [s.players[1 - p].host]
    if name == "each_host":
        return [s.players[s.tp].host, s.players[1 - s.tp].host]
    return []


def players_of(s: GameState, item: StackItem, who: Who) -> list[int]:
    """The players a step acts on: its controller, the opponent, or each (turn player first)."""
    p = item.controller
    if who == Who.OPPONENT:
        return [1 - p]
    if who == Who.EACH:
        return [s.tp, 1 - s.tp]
    return [p]
