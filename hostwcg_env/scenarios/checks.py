"""Checking a scenario's ``expect`` table against a game (docs/scenarios.md "expect")."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hostwcg_env.engine import Game, IllegalActionError
from hostwcg_env.engine.events import Event
from hostwcg_env.engine.notation import resolve_line
from hostwcg_env.engine.selectors import is_permanent
from hostwcg_env.engine.state import GameState
from hostwcg_env.engine.stats import host_health, host_soul, keywords, stat

ORDERED = {"deck", "damage_zone", "front", "back"}
ZONES = {"hand": "hand", "deck": "deck", "drop": "drop", "damage_zone": "damage",
         "banished": "banished", "forms": "forms"}


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
    if key == "host":
        if parts[2:] == ["health"]:
            return host_health(s, p)
        if parts[2:] == ["soul"]:
            return host_soul(s, p)
        return s.objs[pl.host].name
    if key[0] in "fb" and key[1:].isdigit():
        row = pl.front if key[0] == "f" else pl.back
        i = int(key[1:])
        oid = row[i] if i < len(row) else None
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


def _events(expected: list[str], got: list[str]) -> str | None:
    i = 0
    for want in expected:
        while i < len(got) and not got[i].startswith(want):
            i += 1
        if i == len(got):
            return want
        i += 1
    return None


def check_expect(game: Game, expect: dict[str, Any], step_events: list[Event] | list[str]) -> list[str]:
    """Mismatches between ``expect`` and the game, as 'key: expected X, got Y' lines."""
    out: list[str] = []
    texts = [e if isinstance(e, str) else e.text for e in step_events]
    for key, want in expect.items():
        if key == "error":
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
        except (KeyError, ValueError, IndexError) as e:
            out.append(f"{key}: cannot read this path ({e})")
            continue
        if not _same(key, want, got):
            out.append(f"{key}: expected {want!r}, got {got!r}")
    return out


def _check_view(view: Any, table: dict[str, Any]) -> list[str]:
    out = []
    everything = view.card_names() + view.events
    for key, want in table.items():
        if key in ("contains", "not_contains"):
            for name in want:
                present = any(name == n or name in n for n in everything)
                if present != (key == "contains"):
                    out.append(f"{key}: {name!r} {'missing' if key == 'contains' else 'present'}")
            continue
        try:
            got = get_value(None, view.state, key)
        except (KeyError, ValueError, IndexError) as e:
            out.append(f"{key}: cannot read this path ({e})")
            continue
        if not _same(key, want, got):
            out.append(f"{key}: expected {want!r}, got {got!r}")
    return out
