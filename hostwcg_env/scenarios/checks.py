"""Checking a scenario's ``expect`` table against a game (docs/scenarios.md "expect")."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from hostwcg_env.engine import Game, IllegalActionError
from hostwcg_env.engine.events import Event
from hostwcg_env.engine.notation import resolve_line, split_player
from hostwcg_env.engine.places import place_of, resolve_place
from hostwcg_env.engine.selectors import in_play, is_permanent
from hostwcg_env.engine.state import GameState
from hostwcg_env.engine.stats import host_health, host_soul, keywords, stat

# Zones whose lists are compared in order: the deck top first; the damage zone, drop zone and
# banished zone oldest first (the last card in is on top, 2.1.2); the rows in slot order.
ORDERED = {"deck", "damage_zone", "drop", "banished", "front", "back"}
ZONES = {"hand": "hand", "deck": "deck", "drop": "drop", "damage_zone": "damage",
         "banished": "banished", "forms": "forms"}
ZONE_KEYS = {v: k for k, v in ZONES.items() if k != "forms"}  # engine zone -> expect key
_SLOT = re.compile(r"^(?:(?P<side>[AB])\.)?(?P<row>[fb])(?P<i>\d+)(?:\.m\d+)?$")


class PlaceError(ValueError):
    """A place the board does not have, such as ``A.f5`` with 5 frontrow slots."""


def slot_problem(s: GameState, place: str, player: int | None = None) -> str | None:
    """Why ``place`` (``A.f5``, ``B.b4``, ``A.f0.m0``, or ``f5`` for ``player``) names no slot
    of the configured board; None if it is a real slot or not a slot place at all."""
    m = _SLOT.match(place)
    if m is None:
        return None
    side = "AB".index(m["side"]) if m["side"] else player
    if side is None:
        return None
    row = m["row"]
    slots = s.players[side].front if row == "f" else s.players[side].back
    if int(m["i"]) < len(slots):
        return None
    what = "frontrow" if row == "f" else "backrow"
    return (f"{place}: no such place: {'AB'[side]} has {len(slots)} {what} slots "
            f"({row}0-{row}{len(slots) - 1})")


def line_place_problem(game: Game, line: str) -> str | None:
    """A slot place in an action line that the board does not have (``A target A.f5``,
    ``A slot f5``); None if every place in it exists."""
    player, text = split_player(line)
    words = text.split()
    d = game.decision
    own = player if player is not None else (d.player if d is not None else None)
    for k, word in enumerate(words):
        bare = k > 0 and words[0] in ("slot", "attack")
        if "." in word or bare:
            problem = slot_problem(game.state, word, own if bare else None)
            if problem:
                return problem
    return None


def object_at(s: GameState, place: str) -> int | None:
    """The object id at a place (the card of a stack item), None if the place is empty;
    PlaceError for a slot the board does not have."""
    problem = slot_problem(s, place)
    if problem:
        raise PlaceError(problem)
    oid = resolve_place(s, place)
    if oid is not None and oid < 0:
        item = next((x for x in s.stack if x.sid == -oid), None)
        return item.obj if item is not None else None
    return oid


def where(s: GameState, oid: int) -> str:
    """Where an object is now: a place (``A.f3``, ``B.b0``, ``A.form0``, ``A.f0.m0``,
    ``A.host``, ``stack1``), a zone (``A.hand``, ``A.drop`` ...), or ``gone`` once it has left
    its zone, since a card that changes zone is a new object (36.2)."""
    o = s.objs.get(oid)
    if o is None:
        return "gone"
    if o.zone == "stack":
        for i, item in enumerate(s.stack):
            if item.obj == oid:
                return f"stack{i}"
        return "stack"
    if o.zone in ZONE_KEYS:
        return f"{'AB'[o.owner]}.{ZONE_KEYS[o.zone]}"
    return place_of(s, oid)

def _names(s: GameState, ids: list[int | None]) -> list[str]:
    return [s.objs[i].name for i in ids if i is not None]


def get_value(game: Game | None, s: GameState, path: str) -> Any:
    """The actual value at ``path`` in state ``s`` (``game`` for decision/legality queries)."""
    if path == "winner":
        if not s.over:
            return "none"
        return "draw" if s.winner is None else "AB"[s.winner]
    if path == "over":
        return s.over
    if path in ("turn", "phase", "step"):
        return getattr(s, path)
    if path == "turn_player":
        return "AB"[s.tp]
    if path == "decision":
        d = s.decision
        return "none" if d is None or s.over else f"{'AB'[d.player]} {d.kind.value}"
    if path == "stack":
        return [it.source_name for it in reversed(s.stack)]
    if path == "stack_size":
        return len(s.stack)
    parts = path.split(".")
    if parts[0] not in ("A", "B") or len(parts) < 2:
        raise KeyError(path)
    p = "AB".index(parts[0])
    pl = s.players[p]
    key = parts[1]
    if key in ZONES and len(parts) == 2:
        return _names(s, getattr(pl, ZONES[key]))
    if key == "hand" and parts[2:] == ["visible"]:
        return any(s.objs[i].name != "?" for i in pl.hand) if pl.hand else True
    if key == "front" and len(parts) == 2:
        return _names(s, pl.front)
    if key == "back" and len(parts) == 2:
        return _names(s, pl.back)
    if key == "pool":
        return dict(pl.pool)
    if key == "ap":
        return pl.ap
    if key == "permanents":
        ids = [o.id for o in s.objs.values() if o.controller == p and is_permanent(o)]
        return [s.objs[i].name for i in sorted(ids)]
    if key == "in_play" and len(parts) == 2:
        return [o.name for o in in_play(s) if o.controller == p]  # 5.1
    if key == "host":
        if parts[2:] == ["health"]:
            return host_health(s, p)
        if parts[2:] == ["soul"]:
            return host_soul(s, p)
        return s.objs[pl.host].name
    if key[0] in "fb" and key[1:].isdigit():
        problem = slot_problem(s, f"{parts[0]}.{key}")
        if problem:
            raise PlaceError(problem)
        row = pl.front if key[0] == "f" else pl.back
        oid = row[int(key[1:])]
        if len(parts) == 2:
            return "empty" if oid is None else s.objs[oid].name
        if oid is None:
            return None
        o = s.objs[oid]
        attr = parts[2]
        if attr in ("power", "health", "soul"):
            return stat(s, o, attr)
        if attr == "markers":
            return [s.objs[m].name for m in o.markers]
        if attr in ("owner", "controller"):
            return "AB"[getattr(o, attr)]
        if attr == "keywords":
            return sorted(keywords(s, o))
        return getattr(o, attr)
    raise KeyError(path)


def _same(path: str, expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict) and set(expected) == {"any_order"} and isinstance(actual, list):
        return Counter(expected["any_order"]) == Counter(actual)
    if isinstance(expected, bool) or not isinstance(expected, (int, list)):
        return bool(expected == actual)
    if isinstance(expected, int) and isinstance(actual, list):
        return len(actual) == expected
    if isinstance(expected, list) and isinstance(actual, list):
        last = path.split(".")[-1]
        if path == "stack" or last in ORDERED:
            return expected == actual
        return Counter(expected) == Counter(actual)
    return bool(expected == actual)


def is_legal_line(game: Game, line: str) -> bool:
    """Whether ``line`` (e.g. ``"A play Squire"``) is a legal action of the deciding player now."""
    try:
        player, action = resolve_line(game.state, line)
    except (ValueError, IllegalActionError, IndexError):
        return False
    d = game.decision
    if d is None or (player is not None and d.player != player):
        return False
    return action in game.legal_actions()


def _legal_exactly(game: Game, lines: list[str]) -> list[str]:
    """Mismatches between ``lines`` and the deciding player's legal actions: every line must
    be legal, and nothing else may be."""
    d = game.decision
    if d is None or game.is_over:
        return [f"legal_exactly: nobody is deciding; expected {lines}"]
    who = "AB"[d.player]
    legal = {str(a) for a in game.legal_actions()}
    wanted: set[str] = set()
    out = []
    for line in lines:
        try:
            player, action = resolve_line(game.state, line)
        except (ValueError, IllegalActionError, IndexError) as e:
            out.append(f"legal_exactly: {line!r} is not a legal action now ({e})")
            continue
        if player is not None and player != d.player:
            out.append(f"legal_exactly: {line!r} names {'AB'[player]}, but {who} is deciding")
            continue
        wanted.add(str(action))
    missing = sorted(x for x in wanted if x not in legal)
    extra = sorted(x for x in legal if x not in wanted)
    if missing:
        out.append(f"legal_exactly: not legal: {[f'{who} {x}' for x in missing]}")
    if extra:
        out.append(f"legal_exactly: also legal: {[f'{who} {x}' for x in extra]}")
    return out


def _identity(s: GameState, key: str, want: Any, labels: dict[str, int]) -> str | None:
    """``"<place>.is" = "label"`` / ``"<place>.is_not" = "label"``: the object at the place is
    (or is not) the object the label names. None if it holds."""
    place, _, how = key.rpartition(".")
    if not isinstance(want, str) or want not in labels:
        return f"{key}: {want!r} is not a label (labels: {', '.join(sorted(labels)) or 'none'})"
    oid = object_at(s, place)
    same = oid is not None and oid == labels[want]
    if same == (how == "is"):
        return None
    now = where(s, labels[want])
    held = "nothing" if oid is None else f"{s.objs[oid].name} (another object)" if not same else "it"
    if how == "is":
        return f"{key}: expected the object labelled {want!r} (now {now}); {place} holds {held}"
    return f"{key}: expected another object than the one labelled {want!r}; {place} holds it"


def _events(expected: list[str], got: list[str]) -> str | None:
    i = 0
    for want in expected:
        while i < len(got) and not got[i].startswith(want):
            i += 1
        if i == len(got):
            return want
        i += 1
    return None


def check_expect(game: Game, expect: dict[str, Any], step_events: list[Event] | list[str],
                 labels: dict[str, int] | None = None) -> list[str]:
    """Mismatches between ``expect`` and the game, as 'key: expected X, got Y' lines.
    ``labels`` names objects (label -> object id) for the identity keys ``<place>.is``,
    ``<place>.is_not`` and ``label.<name>``."""
    out: list[str] = []
    labels = labels or {}
    texts = [str(e) for e in step_events]
    for key, want in expect.items():
        if key == "error":
            continue
        if key == "legal_exactly":
            out += _legal_exactly(game, list(want))
            continue
        try:
            if key.endswith((".is", ".is_not")):
                problem = _identity(game.state, key, want, labels)
                if problem:
                    out.append(problem)
                continue
            if key.startswith("label."):
                name = key[len("label."):]
                if name not in labels:
                    out.append(f"{key}: no object is labelled {name!r} (labels: {', '.join(sorted(labels)) or 'none'})")
                elif where(game.state, labels[name]) != want:
                    out.append(f"{key}: expected {want!r}, got {where(game.state, labels[name])!r}")
                continue
        except PlaceError as e:
            out.append(str(e))
            continue
        if key == "legal":
            out += [f"legal: expected '{x}' to be legal; legal now: {[str(a) for a in game.legal_actions()]}"
                    for x in want if not is_legal_line(game, x)]
            continue
        if key == "illegal":
            out += [f"illegal: expected '{x}' to be illegal" for x in want if is_legal_line(game, x)]
            continue
        if key == "events":
            missing = _events(want, texts)
            if missing is not None:
                out.append(f"events: expected {missing!r} (in order); got {texts}")
            continue
        if key == "no_events":
            out += [f"no_events: {x!r} occurred" for x in want if any(t.startswith(x) for t in texts)]
            continue
        if key == "view":
            for side, table in want.items():
                view = game.view("AB".index(side))
                out += [f"view.{side}.{m}" for m in _check_view(view, table)]
            continue
        try:
            got = get_value(game, game.state, key)
        except PlaceError as e:
            out.append(str(e))
            continue
        except (KeyError, ValueError, IndexError) as e:
            out.append(f"{key}: cannot read this path ({e})")
            continue
        if not _same(key, want, got):
            out.append(f"{key}: expected {want!r}, got {got!r}")
    return out


def _check_view(view: Any, table: dict[str, Any]) -> list[str]:
    out = []
    everything = view.card_names() + [str(e) for e in view.events]
    for key, want in table.items():
        if key in ("contains", "not_contains"):
            for name in want:
                present = any(name == n or name in n for n in everything)
                if present != (key == "contains"):
                    out.append(f"{key}: {name!r} {'missing' if key == 'contains' else 'present'}")
            continue
        try:
            got = get_value(None, view.state, key)
        except PlaceError as e:
            out.append(str(e))
            continue
        except (KeyError, ValueError, IndexError) as e:
            out.append(f"{key}: cannot read this path ({e})")
            continue
        if not _same(key, want, got):
            out.append(f"{key}: expected {want!r}, got {got!r}")
    return out
