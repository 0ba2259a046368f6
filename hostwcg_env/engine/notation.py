"""Reading action lines written by people: ``"A play Squire"``, ``"target B:Squire"``.

The canonical notation is parsed by ``Action.parse``; here a card name may stand for a hand
index, a place or a list item when it is unambiguous among the legal actions
(docs/scenarios.md). Errors say what was meant and what is possible.
"""

from __future__ import annotations

from typing import Final

from .actions import Action, Area, IllegalActionError, Kind
from .matching import placeable
from .places import resolve_ref
from .state import GameState

_NAMED: Final = {"play", "target", "attack", "card", "trigger", "activate", "slot"}


def split_player(line: str) -> tuple[int | None, str]:
    words = line.strip().split(None, 1)
    if len(words) == 2 and words[0] in ("A", "B"):
        return "AB".index(words[0]), words[1]
    return None, line.strip()


def _legal(s: GameState) -> tuple[Action, ...]:
    d = s.decision
    return d.actions if d is not None and not s.over else ()


def resolve_line(s: GameState, line: str) -> tuple[int | None, Action]:
    player, text = split_player(line)
    try:
        return player, Action.parse(text)
    except ValueError:
        pass
    words = text.split(None, 1)
    if len(words) != 2 or words[0].lower() not in _NAMED:
        raise ValueError(f"cannot read action {line!r} (see docs/scenarios.md)")
    verb, name = words[0].lower(), words[1].strip()
    side = None
    if ":" in name and name.split(":", 1)[0] in ("A", "B"):
        side, name = name.split(":", 1)
    matches = [a for a in _legal(s) if a.kind.value == verb and _names(s, a, name, side)]
    if len(matches) == 1 or (matches and all(a.source is not None and a.source.area is Area.HAND for a in matches)):
        return player, matches[0]  # identical cards in hand: any copy will do
    if not matches:
        legal = ", ".join(str(a) for a in _legal(s))
        d = s.decision
        who = f"{'AB'[d.player]} {d.kind.value}" if d else "nobody"
        raise IllegalActionError("31.1", f"'{text}' matches no legal action of {who} (legal: {legal})")
    raise ValueError(f"'{text}' is ambiguous: {', '.join(str(a) for a in matches)}")


def _names(s: GameState, a: Action, name: str, side: str | None) -> bool:
    d = s.decision
    if d is None:
        return False
    oid: int | None = None
    place = a.source if a.source is not None else a.target
    if place is None:
        return False
    area = place.area
    if area is Area.HAND:
        oid = s.players[d.player].hand[place.index]
    elif area is Area.LISTED:
        oid = d.cards[place.index]
    elif a.kind is Kind.ATTACK:
        oid = s.players[d.player].front[place.index]
    elif area is Area.PENDING:
        mine = [t for t in placeable(s) if t.controller == d.player]
        return mine[place.index].card.name == name
    elif a.kind in (Kind.TARGET, Kind.ACTIVATE):
        oid = resolve_ref(s, place)
        if oid is not None and oid < 0:
            item = next((x for x in s.stack if x.sid == -oid), None)
            return item is not None and item.source_name == name
    if oid is None or oid not in s.objs:
        return False
    o = s.objs[oid]
    if side is not None and "AB"[o.controller] != side:
        return False
    return o.name == name
