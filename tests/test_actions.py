"""Typed actions (docs/engine.md "Actions"): an ``Action`` carries its kind, a source and a
target ``Place``, a resource and an ability index, which the rules and the env read directly;
text is made only by ``str`` and read by ``Action.parse`` (docs/scenarios.md "The action
notation"), and stays byte-identical to the text kept game records hold.

* every form of the notation parses into the documented fields and prints back as written;
* a place a kind does not take is refused at parsing, naming the word;
* in random games, ``place_ref`` agrees with ``place_of`` and ``resolve_ref`` inverts it,
  every legal action's fields are typed and it round-trips through text, pickle and copies;
* every action text of the tracked game records prints back byte for byte;
* no code outside the engine's notation reads an action's text apart: there is no ``.arg``
  left in hostwcg_env, agents or scripts, and no ``Action(...)`` is built from a string.
"""

from __future__ import annotations

import ast
import copy
import gzip
import json
import pickle
import random
from itertools import islice
from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401  (registers the default card pool)
from hostwcg_env.cards import default_ruleset, load_deck
from hostwcg_env.engine import Action, Area, Kind, Place, Res, RuleConfig
from hostwcg_env.engine.places import place_of, place_ref, resolve_place, resolve_ref

ROOT = Path(__file__).resolve().parents[1]
DECKS = {p.stem: load_deck(p) for p in sorted((ROOT / "hostwcg_env" / "cards" / "decks").glob("*.toml"))}

# text -> (kind, source, target, res, n): every row of the notation's table (docs/scenarios.md)
FORMS: dict[str, tuple[Kind, Place | None, Place | None, Res | None, int]] = {
    "pass": (Kind.PASS, None, None, None, -1),
    "yes": (Kind.YES, None, None, None, -1),
    "concede": (Kind.CONCEDE, None, None, None, -1),
    "ap host": (Kind.AP_HOST, None, None, None, -1),
    "ap draw": (Kind.AP_DRAW, None, None, None, -1),
    "ap any £": (Kind.AP_ANY, None, None, Res.STRIFE, -1),
    "play h3": (Kind.PLAY, Place(Area.HAND, 3), None, None, -1),
    "activate A.f1 0": (Kind.ACTIVATE, Place(Area.FRONT, 1, 0), None, None, 0),
    "activate B.b3 2": (Kind.ACTIVATE, Place(Area.BACK, 3, 1), None, None, 2),
    "activate A.host 1": (Kind.ACTIVATE, Place(Area.HOST, -1, 0), None, None, 1),
    "activate B.form1 0": (Kind.ACTIVATE, Place(Area.FORM, 1, 1), None, None, 0),
    "attack f2": (Kind.ATTACK, Place(Area.FRONT, 2), None, None, -1),
    "slot f3": (Kind.SLOT, None, Place(Area.FRONT, 3), None, -1),
    "slot b0": (Kind.SLOT, None, Place(Area.BACK, 0), None, -1),
    "target B.f0": (Kind.TARGET, None, Place(Area.FRONT, 0, 1), None, -1),
    "target A.host": (Kind.TARGET, None, Place(Area.HOST, -1, 0), None, -1),
    "target A.f0.m1": (Kind.TARGET, None, Place(Area.FRONT, 0, 0, 1), None, -1),
    "target stack12": (Kind.TARGET, None, Place(Area.STACK, 12), None, -1),
    "pay £": (Kind.PAY, None, None, Res.STRIFE, -1),
    "pay $": (Kind.PAY, None, None, Res.GENERIC, -1),
    "pay auto": (Kind.PAY, None, None, None, -1),
    "card h2": (Kind.CARD, Place(Area.HAND, 2), None, None, -1),
    "card d4": (Kind.CARD, Place(Area.LISTED, 4), None, None, -1),
    "trigger 1": (Kind.TRIGGER, Place(Area.PENDING, 1), None, None, -1),
}


@pytest.mark.parametrize("text", list(FORMS))
def test_every_form_parses_into_its_fields_and_prints_back(text: str) -> None:
    a = Action.parse(text)
    assert (a.kind, a.source, a.target, a.res, a.n) == FORMS[text]
    assert str(a) == text
    assert Action.parse(str(a)) == a and hash(Action.parse(text)) == hash(a)
    assert Action(*FORMS[text]) == a


def test_aliases_and_resource_words_read_as_the_canonical_action() -> None:
    assert Action.parse("done") == Action.parse("decline") == Action.parse("no") == Action(Kind.PASS)
    assert Action.parse("first") == Action(Kind.YES)
    assert Action.parse("ap any strife") == Action(Kind.AP_ANY, res=Res.STRIFE)
    assert str(Action.parse("pay Authority")) == "pay &"


@pytest.mark.parametrize("text,says", [
    ("play f2", "'f2' is not a place 'play' takes"), ("play A.h1", "bad place 'A.h1'"),
    ("attack A.f0", "'A.f0' is not a place 'attack' takes"), ("attack b1", "'b1' is not a place"),
    ("slot A.f1", "'A.f1' is not a place 'slot' takes"), ("slot h0", "'h0' is not a place"),
    ("target h3", "'h3' is not a place 'target' takes"), ("target f2", "'f2' is not a place"),
    ("card f0", "'f0' is not a place 'card' takes"), ("card A.f0", "'A.f0' is not a place"),
    ("activate f0 1", "'f0' is not a place 'activate' takes"), ("activate stack0 0", "'stack0' is not"),
    ("play auto", "bad place 'auto'"), ("target &", "bad place '&'"), ("slot B.x0", "bad place 'B.x0'"),
    ("trigger h1", "cannot parse action 'trigger h1'"), ("pay h3", "unknown resource 'h3'"),
    ("ap any $", "11.3.3: '$' is not a resource type you can gain"), ("play", "cannot parse action 'play'"),
    ("activate A.f0", "cannot parse action"), ("attack f2 f3", "cannot parse action 'attack f2 f3'"),
])
def test_a_place_the_kind_does_not_take_is_refused_at_parsing(text: str, says: str) -> None:
    with pytest.raises(ValueError) as e:
        Action.parse(text)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_the_place_helpers_say_what_is_missing() -> None:
    assert Action.parse("play h3").src == Place(Area.HAND, 3)
    assert Action.parse("slot b1").dst == Place(Area.BACK, 1)
    with pytest.raises(ValueError, match="'pass' acts from no place"):
        _ = Action(Kind.PASS).src
    with pytest.raises(ValueError, match="'play h3' acts on no place"):
        _ = Action.parse("play h3").dst


def _board_places(s) -> list[int]:  # type: ignore[no-untyped-def]
    out: list[int] = [-it.sid for it in s.stack]
    for pl in s.players:
        out += [o for o in (*pl.front, *pl.back, pl.host, *pl.forms) if o is not None]
        out += [m for o in (*pl.front, *pl.back) if o is not None for m in s.objs[o].markers]
    return out


def test_typed_places_agree_with_the_text_and_actions_travel() -> None:
    """Random games over several deck pairs: every board and stack object's typed place prints
    as its text place and leads back to it; every legal action is typed, round-trips through
    its text, and pickles and copies to an equal action."""
    names = sorted(DECKS)
    kinds: set[Kind] = set()
    areas: set[Area] = set()
    for seed in range(6):
        rng = random.Random(seed)
        a, b = names[seed % len(names)], names[(3 * seed + 1) % len(names)]
        g = default_ruleset(RuleConfig()).new_game(DECKS[a], DECKS[b], seed=seed)
        steps = 0
        while not g.is_over and steps < 600:
            s = g.state
            for oid in _board_places(s):
                ref = place_ref(s, oid)
                assert str(ref) == place_of(s, oid)
                assert resolve_ref(s, ref) == oid == resolve_place(s, str(ref))
                assert Place.parse(str(ref)) == ref
            for act in g.legal_actions():
                assert isinstance(act.kind, Kind) and isinstance(act.n, int)
                for place in (act.source, act.target):
                    assert place is None or (isinstance(place, Place) and isinstance(place.area, Area))
                    if place is not None:
                        areas.add(place.area)
                assert act.res is None or isinstance(act.res, Res)
                assert Action.parse(str(act)) == act
                assert pickle.loads(pickle.dumps(act)) == act and copy.deepcopy(act) == act
                kinds.add(act.kind)
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    assert {Kind.PLAY, Kind.ATTACK, Kind.TARGET, Kind.SLOT, Kind.CARD, Kind.AP_ANY} <= kinds
    assert {Area.HAND, Area.FRONT, Area.BACK} <= areas


def _record_files() -> list[Path]:
    return sorted(ROOT.glob("agents/ladder_results/**/*.jsonl.gz"))


@pytest.mark.skipif(not _record_files(), reason="no game records in this checkout")
def test_recorded_action_texts_print_back_byte_for_byte() -> None:
    """Kept records replay by parsing their texts: each parses and ``str`` gives it back."""
    texts: set[str] = set()
    for f in _record_files():
        with gzip.open(f, "rt", encoding="utf-8") as fh:
            for line in islice(fh, 40):
                texts.update(json.loads(line).get("actions", []))
    assert len(texts) > 20
    changed = [t for t in sorted(texts) if str(Action.parse(t)) != t]
    assert not changed, f"texts that no longer print as recorded: {changed[:5]}"


# ------------------------------------------------------------------ no text parsing left
SOURCES = ("hostwcg_env", "agents", "scripts")


def _modules() -> list[Path]:
    return sorted(p for d in SOURCES for p in (ROOT / d).rglob("*.py"))


def _offences(tree: ast.AST, where: str) -> list[str]:
    """``.arg`` reads and ``Action(...)`` calls given a string or f-string in a module."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "arg":
            found.append(f"{where}:{node.lineno}: .arg")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Action":
            values = [*node.args, *(k.value for k in node.keywords)]
            if any(isinstance(v, ast.JoinedStr) or (isinstance(v, ast.Constant) and isinstance(v.value, str))
                   for v in values):
                found.append(f"{where}:{node.lineno}: Action(...) from text")
    return found


def test_no_code_reads_an_arg_string_or_builds_an_action_from_text() -> None:
    """No ``.arg`` (the string field actions had) is read anywhere, and no ``Action(...)`` is
    made from a string or f-string: places are ``Place`` values, resources ``Res``."""
    modules = _modules()
    assert len(modules) > 100
    found = [x for path in modules
             for x in _offences(ast.parse(path.read_text(encoding="utf-8")), str(path.relative_to(ROOT)))]
    assert not found, "\n".join(found)
    assert not hasattr(Action(Kind.PASS), "arg")


def test_the_check_finds_what_it_looks_for() -> None:
    """The walk above flags each pattern (so its silence means something)."""
    src = ('a = Action(Kind.PLAY, f"h{i}")\nb = Action(Kind.PAY, res="auto")\n'
           'c = int(a.arg[1:])\nd = Action(Kind.PASS)\n')
    assert _offences(ast.parse(src), "x.py") == [
        "x.py:1: Action(...) from text", "x.py:2: Action(...) from text", "x.py:3: .arg"]
