"""Typed events (docs/engine.md "Events"): one class per kind, ``str(event)`` the recorded
text, ``redact(viewer)`` exactly what that player saw, and no code that tells events apart by
comparing strings.

``tests/data/event_texts.json.gz`` holds eight random games as the engine logged them before
events were typed: every event's text and the texts each player's view showed. The games are
played again here and must give the same texts, event for event.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import enum
import gzip
import json
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

from hostwcg_env.cards import default_ruleset
from hostwcg_env.cards.decks import pool_decks
from hostwcg_env.engine import Game
from hostwcg_env.engine import events as ev
from hostwcg_env.engine.state import Obj

ROOT = Path(__file__).resolve().parent.parent
RECORDED = ROOT / "tests" / "data" / "event_texts.json.gz"
# the bases every kind shares; each other class of the module is one kind of event
BASES = (ev.Event, ev.PlayerEvent, ev.CardEvent, ev.HiddenCardEvent, ev.Announced, ev.Resolution,
         ev.ItemEvent)


def _recorded() -> list[dict[str, Any]]:
    with gzip.open(RECORDED, "rt", encoding="utf-8") as f:
        games: list[dict[str, Any]] = json.load(f)
    return games


def _replay(rec: dict[str, Any]) -> Game:
    decks = list(pool_decks().values())
    g = default_ruleset().with_overrides(rec["overrides"]).new_game(decks[rec["a"]], decks[rec["b"]], seed=rec["seed"])
    rng = random.Random(rec["seed"])
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.fixture(scope="module")
def games() -> list[tuple[dict[str, Any], Game]]:
    return [(rec, _replay(rec)) for rec in _recorded()]


# ----------------------------------------------------------------------------- the classes
def test_every_kind_has_its_class_and_its_own_text() -> None:
    kinds = {c for c in vars(ev).values() if isinstance(c, type) and issubclass(c, ev.Event) and c not in BASES}
    assert kinds == set(ev.EVENT_TYPES.values())
    for name, cls in ev.EVENT_TYPES.items():
        assert cls.__name__ == name
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, name  # type: ignore[attr-defined]
        assert any("__str__" in vars(c) for c in cls.__mro__ if c is not ev.Event), f"{name} has no text"
    assert set(ev.TRIGGER_NAMES) <= set(ev.EVENT_TYPES.values())


def test_every_event_the_engine_emits_is_a_kind() -> None:
    """Every ``emit(...)`` of the engine builds an event of a listed class (or one picked by
    card type from a table of them)."""
    found = 0
    for path in sorted((ROOT / "hostwcg_env" / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit" \
                    and node.args:
                made = node.args[0]
                assert isinstance(made, ast.Call), f"{path.name}:{node.lineno}: emit of something not built there"
                f = made.func
                name = f.id if isinstance(f, ast.Name) else f.value.id if isinstance(f, ast.Subscript) \
                    and isinstance(f.value, ast.Name) else None
                assert name is not None, f"{path.name}:{node.lineno}"
                if name.endswith("Event") and name not in ev.EVENT_TYPES:  # imported under an alias
                    name = name[: -len("Event")]
                assert name in ev.EVENT_TYPES or name in ("VERB_EVENT", "WOULD_EVENT"), \
                    f"{path.name}:{node.lineno}: {name}"
                found += 1
    assert found >= 60


def test_the_texts_are_the_recorded_ones(games: list[tuple[dict[str, Any], Game]]) -> None:
    """str(event) is the text the engine logged before events were typed, and each view shows
    the texts that player was shown; each event's class is the name its text starts with."""
    kinds = set()
    for rec, g in games:
        assert [str(e) for e in g.events] == rec["full"]
        for p in (0, 1):
            assert [str(e) for e in g.view(p).events] == rec["views"][p]
            assert [str(e.redact(p)) for e in g.events] == rec["views"][p]
        for e in g.events:
            assert str(e).startswith(type(e).__name__ + "(")
            assert e.redact(None) is e
            kinds.add(type(e))
    assert len(kinds) >= 50, "the recorded games show most kinds"


# ----------------------------------------------------------------------------- redaction
def _changed(value: Any) -> Any:
    """Another value of the same field: what a different hidden card would have put there."""
    if isinstance(value, enum.Enum):
        return value  # the kind of phase or step: public
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1000
    if isinstance(value, str):
        return value + " II"
    if isinstance(value, tuple):
        return (*value, "Other")
    if value is None:
        return "Other"
    if isinstance(value, Obj):
        return value.clone() if hasattr(value, "clone") else copy.copy(value)
    return value


def _hidden_fields(e: ev.Event, viewer: int) -> set[str]:
    """The fields that ``viewer`` may not see, by the rules: the card a player draws, puts in
    its damage zone from the hand, heals into the hand or looks at (4.3.1, 2.1.1, 4.8.1, 41.2),
    a face-down card's name and id (6.2); and for every viewer the game objects that triggers
    read (last known information, A45)."""
    out = {"lki"} if isinstance(e, ev.LeavesPlay | ev.Destroys) else set()
    if not isinstance(e, ev.PlayerEvent) or viewer == e.player:
        return out
    if isinstance(e, ev.Draw):
        return out | {"card", "subject"}
    if isinstance(e, ev.DamageCard):
        return out | {"card"}
    if isinstance(e, ev.Look):
        return out | {"cards"}
    if isinstance(e, ev.Healed) and e.hidden:
        return out | {"card"}
    if isinstance(e, ev.HiddenCardEvent) and e.hidden:
        return out | {"name", "subject"}
    return out


def test_redact_hides_exactly_what_the_rules_hide(games: list[tuple[dict[str, Any], Game]]) -> None:
    """Resampling each field of each event: what a player sees of it changes with every field
    it may see and with no field it may not."""
    checked = 0
    for _rec, g in games[:4]:
        for e in g.events:
            for viewer in (0, 1, ev.PUBLIC):
                hidden = _hidden_fields(e, viewer)
                seen = e.redact(viewer)
                for f in dataclasses.fields(e):
                    value = getattr(e, f.name)
                    other = _changed(value)
                    if other == value and not isinstance(value, Obj):
                        continue
                    if f.name == "hidden":
                        continue  # a face-down card is face down for everyone (6.2)
                    twin = dataclasses.replace(e, **{f.name: other})
                    if f.name in hidden:
                        assert twin.redact(viewer) == seen, f"{e} shows its {f.name} to {viewer}"
                    else:
                        assert getattr(twin.redact(viewer), f.name) == other, f"{e} hides its {f.name} from {viewer}"
                checked += 1
    assert checked > 3000


def test_a_spectator_sees_what_both_players_see() -> None:
    draw = ev.Draw(0, 41, "Squire")
    assert str(draw.redact(ev.PUBLIC)) == "Draw(A)" and str(draw.redact(0)) == "Draw(A, Squire)"
    laid = ev.Laid(1, 57, "Snare", True)
    assert laid.redact(ev.PUBLIC) == ev.Laid(1, None, "?", True) == laid.redact(0)
    assert laid.redact(1) is laid
    healed = ev.Healed(0, "Ogre", False)  # into the open drop zone: public
    assert healed.redact(1) is healed and str(ev.Healed(0, "Ogre", True).redact(1)) == "Healed(A)"
    assert str(ev.Look(1, 2, ("Squire", "Wall")).redact(0)) == "Look(B, deck, 2)"


def test_events_pickle_and_copy(games: list[tuple[dict[str, Any], Game]]) -> None:
    """Events travel with a game (engine/travel.py): a pickled or copied event is an equal event
    of the same class (last known information as an equal copy)."""
    _rec, g = games[0]
    for e in g.events:
        for twin in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e), copy.copy(e)):
            assert type(twin) is type(e) and str(twin) == str(e)
            assert twin.redact(0) == e.redact(0) and twin.redact(1) == e.redact(1)


def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Events\n"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    exec(compile(code.group(1), "docs/engine.md", "exec"), {})
    out = capsys.readouterr().out
    assert "I drew " in out and "B drew a card: Draw(B)" in out


# ----------------------------------------------------------------------------- no strings
_EVENT_NAMES = frozenset(ev.EVENT_TYPES)
_TEXT_OF_EVENT = re.compile(r"^({})\(".format("|".join(sorted(_EVENT_NAMES, key=len, reverse=True))))


def _names_an_event(node: ast.AST) -> bool:
    """A string constant (or a tuple, list or set of them) that is an event's name or the
    start of an event's text (``"Draw"``, ``"Reveal(B, hand="``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value in _EVENT_NAMES or bool(_TEXT_OF_EVENT.match(node.value))
    if isinstance(node, ast.JoinedStr) and node.values:
        return _names_an_event(node.values[0])
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_an_event(x) for x in node.elts)
    return False


def _string_kind_tests(tree: ast.AST) -> list[tuple[int, str]]:
    """Where code tells events apart by a string: a comparison (``==``, ``in``, ...) with an
    event's name or the start of its text, a ``startswith``/``endswith`` on one, or a dict or
    set keyed by event names. Other kinds compared with strings (a card's, an ability's, a
    stack item's: ``"triggered"``, ``"card"``) are not events and pass."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_an_event(x) for x in sides):
                out.append((node.lineno, "compares with an event name"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "endswith") and node.args and _names_an_event(node.args[0]):
            out.append((node.lineno, f"{node.func.attr} on an event text"))
        elif isinstance(node, ast.Dict) and any(k is not None and _names_an_event(k) for k in node.keys):
            out.append((node.lineno, "a dict keyed by event names"))
        elif isinstance(node, ast.Set) and _names_an_event(node):
            out.append((node.lineno, "a set of event names"))
    return out


def test_no_code_compares_event_kinds_as_strings() -> None:
    """The package, the agents and the scripts read events by type (isinstance, match): no
    string names an event in a test of what an event is, except in engine/events.py itself,
    which writes the texts."""
    bad = []
    for folder in ("hostwcg_env", "agents", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "hostwcg_env" / "engine" / "events.py":
                continue
            for line, why in _string_kind_tests(ast.parse(path.read_text(encoding="utf-8"))):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {why}")
    assert not bad, bad


def test_the_string_guard_catches_each_form() -> None:
    for code in ('e.kind == "Draw"', 'kind in ("Played", "Activated")', 'text.startswith("Reveal(B, hand=")',
                 't.startswith(f"Reveal({Q}, card=")', '{"WouldPlay": 1}', '{"TurnBegan", "PhaseBegan"}',
                 'name == "Draw(A)"'):
        assert _string_kind_tests(ast.parse(code)), code
    for code in ('ab.kind == "triggered"', 'it.kind == "card"', 'str(e) == text', 'isinstance(e, Draw)',
                 'm.kind == "snapshot"', '{"draw": 1}'):
        assert not _string_kind_tests(ast.parse(code)), code
