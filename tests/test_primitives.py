"""The effect primitives are one class each (hostwcg_env/engine/primitives.py): every class
declares its card-file schema, builds from exactly the fields it declares, writes its own text,
and is what the loader makes of a step (docs/cards.md "Adding a primitive")."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from hostwcg_env.cards import default_pool
from hostwcg_env.cards.text import PRIMITIVE_WORDS
from hostwcg_env.engine.carddef import SELECTOR_TYPES, Cond, CondKind, Ref, Selector
from hostwcg_env.engine.kinds import Duration, Link, SelectorType, Who
from hostwcg_env.engine.primitives import (
    PRIMITIVE_CLASSES,
    PRIMITIVES,
    SPECS_BY_CLASS,
    Primitive,
    StepFields,
    as_primitive,
    events_of,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "cards.md"
STEP_FIELD_NAMES = {f.name for f in dataclasses.fields(StepFields)}
SOURCE = Path(__file__).resolve().parent.parent / "hostwcg_env" / "engine" / "primitives.py"


def _docstring(cls: type) -> str:
    """The class's docstring, from the source (a compiled class keeps none)."""
    import ast

    for node in ast.parse(SOURCE.read_text()).body:
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return (ast.get_docstring(node) or "").strip()
    return ""


def test_the_twenty_one_primitives_are_registered_by_their_classes() -> None:
    assert len(PRIMITIVES) == 21
    for do, cls in PRIMITIVE_CLASSES.items():
        assert issubclass(cls, Primitive) and cls.spec().do == do
        assert SPECS_BY_CLASS[cls] == cls.spec()
        assert _docstring(cls), f"{cls.__name__} needs a docstring"


def test_the_docs_table_lists_every_primitive() -> None:
    table = re.findall(r"^\| `(\w+)` \|", DOCS.read_text(), re.M)
    assert PRIMITIVES <= set(table)


@pytest.mark.parametrize("do", sorted(PRIMITIVES))
def test_spec_is_consistent(do: str) -> None:
    spec = PRIMITIVE_CLASSES[do].spec()
    allowed = STEP_FIELD_NAMES | {"count"}
    assert set(spec.fields) <= allowed, f"{do} declares fields the loader does not read"
    assert set(spec.required_fields()) <= set(spec.fields)
    assert spec.acts_on is None or set(spec.acts_on) <= SELECTOR_TYPES
    assert spec.acts_on is None or "to" in spec.fields
    assert spec.words and spec.words == spec.words.lower()
    assert spec.amount_key in ("amount", "count")
    if spec.amount_key == "count":
        assert "count" in spec.fields and "amount" not in spec.fields


@pytest.mark.parametrize("do", sorted(PRIMITIVES))
def test_build_takes_the_declared_fields(do: str) -> None:
    """Every field a primitive declares reaches the object it builds, and only those do."""
    cls = PRIMITIVE_CLASSES[do]
    f = StepFields(link=Link.AND, to=Ref(name="t"), amount=3, who=Who.EACH, resource="host",
                   health=2, power=-1, soul=1, duration=Duration.END_OF_TURN, keyword="fast",
                   token="Wolf", filter=Selector(type=SelectorType.CARD), reveal=False,
                   cond=(Cond(kind=CondKind.PREVIOUS, happened=False),))
    step = cls.build(f)
    assert type(step) is cls and as_primitive(step) is step and step.do == do
    assert step.link is Link.AND
    declared = set(cls.spec().fields) | {"link"}
    if "count" in declared:
        declared = (declared - {"count"}) | {"amount"}
    own = {x.name for x in dataclasses.fields(step)}
    assert own == declared | {"to", "cond"}, f"{do}: fields {sorted(own)} vs declared {sorted(declared)}"
    assert step.cond == f.cond  # every step may be conditional (docs/cards.md "Conditions")
    for name in declared:
        assert getattr(step, name) == getattr(f, name), (do, name)
    if "to" not in cls.spec().fields:
        assert step.to == f.to  # kept, never read


def test_every_step_of_the_pool_is_a_primitive_with_text_and_events() -> None:
    from hostwcg_env.engine.wording import TextCtx

    seen = set()
    for card in default_pool().values():
        for ab in card.abilities:
            tc = TextCtx(card, ab)
            for st in ab.steps:
                prim = as_primitive(st)
                seen.add(prim.do)
                assert PRIMITIVE_WORDS[prim.do] in prim.text(tc).lower()
                assert events_of(st) == prim.spec().events
    assert seen == PRIMITIVES


def test_as_primitive_refuses_a_bare_step() -> None:
    from hostwcg_env.engine.carddef import Step

    with pytest.raises(TypeError, match="not an effect primitive"):
        as_primitive(Step())
