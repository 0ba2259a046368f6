"""Load card TOML files (docs/cards.md) into frozen :class:`CardDef` values.

Every field is checked at load time. A bad file is refused with a :class:`CardError` that lists
every problem of it, each naming the file, the card and the field, e.g.::

    cards/data/x.toml: card 'Raider': field 'abilities[0].when.event': unknown event 'attackz' (...)
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from hostwcg_env.cards._reader import Scope, Table, type_name, unknown
from hostwcg_env.cards.abilities import KIND_FIELDS, CardContext, parse_ability
from hostwcg_env.cards.text import card_text
from hostwcg_env.engine.carddef import (
    KEYWORDS,
    RES_NAMES,
    TYPED,
    Ability,
    CardDef,
    CardType,
    Res,
    parse_cost,
)
from hostwcg_env.engine.config import RuleConfig
from hostwcg_env.engine.ruleset import Ruleset

DATA_DIR = Path(__file__).parent / "data"
_REPO_ROOT = Path(__file__).parent.parent.parent

CARD_FIELDS = (
    "name",
    "type",
    "subtypes",
    "resource",
    "cost",
    "health",
    "power",
    "soul",
    "keywords",
    "test_id",
    "text",
    "abilities",
)
TYPE_WORDS = {t: t.value.capitalize() for t in CardType}  # for messages: "Entity", "Host", ...
PLURALS = {t: "Entities" if t is CardType.ENTITY else f"{TYPE_WORDS[t]}s" for t in CardType}
PLAYED_TYPES = (CardType.ENTITY, CardType.SORCERY, CardType.FORM, CardType.AMBUSH)
STAT_OWNERS = {
    "health": (CardType.HOST, CardType.ENTITY, CardType.TOKEN),
    "power": (CardType.ENTITY, CardType.TOKEN),
    "soul": (CardType.HOST,),
}
# Ability kinds each card type may carry. A sorcery or ambush keeps a permanent ability only
# while it stays in play, i.e. when Lingering (22.3) or, for a static, as Equipment (23).
ALWAYS_KINDS = {
    CardType.HOST: ("static", "triggered", "activated", "during"),
    CardType.ENTITY: ("static", "triggered", "activated", "during"),
    CardType.TOKEN: ("static", "triggered", "activated", "during"),
    CardType.FORM: ("static", "triggered", "activated", "during"),
    CardType.SORCERY: ("spell",),
    CardType.AMBUSH: ("ambush",),
}
PERMANENT_KINDS = ("static", "triggered", "activated", "during")


class CardError(Exception):
    """A card file (or inline card) was refused; ``problems`` lists every reason, one a line."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


# --------------------------------------------------------------------------- public API


def load_cards(path_or_paths: str | Path | Iterable[str | Path]) -> dict[str, CardDef]:
    """Load one or more card files (a directory means its ``*.toml``), keyed by card name."""
    problems: list[str] = []
    cards: dict[str, CardDef] = {}
    origin: dict[str, str] = {}
    tokens: list[tuple[Scope, str, str]] = []
    for path in _expand(path_or_paths):
        source = _display(path)
        doc = _read_toml(path, source, problems)
        if doc is not None:
            if not doc.get("card"):
                problems.append(f"{source}: the file defines no cards (write each card as [[card]])")
            _load_document(doc, source, cards, origin, problems, tokens)
    _check_tokens(tokens, cards)
    _check_test_ids(cards, origin, problems)
    if problems:
        raise CardError(problems)
    return cards


def load_card_table(
    table: Mapping[str, Any], source: str, pool: Mapping[str, CardDef] | None = None
) -> CardDef:
    """One card given as a TOML table (scenario files define extra cards inline).

    With ``pool``, ``create_token`` steps must name a token of the pool (or this card).
    """
    return load_card_tables([table], source, pool)[_name_of(table)]


def load_card_tables(
    tables: Iterable[Mapping[str, Any]], source: str, pool: Mapping[str, CardDef] | None = None
) -> dict[str, CardDef]:
    """Several inline cards (a scenario's ``[[cards]]``), checked together; see load_card_table."""
    problems: list[str] = []
    cards: dict[str, CardDef] = {}
    tokens: list[tuple[Scope, str, str]] = []
    items = list(tables)
    if not all(isinstance(t, Mapping) for t in items):
        raise CardError([f"{source}: a card must be a table"])
    _load_document({"card": [dict(t) for t in items]}, source, cards, {}, problems, tokens)
    if pool is not None:
        _check_tokens(tokens, {**pool, **cards})
    if problems:
        raise CardError(problems)
    return cards


def default_pool() -> dict[str, CardDef]:
    """Every card of ``hostwcg_env/cards/data/*.toml``, plus the cards of the files
    ``HOSTWCG_CARDS`` names (:func:`extra_card_files`), loaded once per set of files; a fresh
    dict each call."""
    return dict(_pool_of(extra_card_files()))


CARDS_ENV = "HOSTWCG_CARDS"  # card files added to the shipped pool (docs/cards.md, "Your own cards")


def extra_card_files() -> tuple[str, ...]:
    """The card files the default pool adds to the shipped cards: ``HOSTWCG_CARDS``, paths joined
    by ``os.pathsep``. An environment variable, so that worker processes play the same pool."""
    raw = os.environ.get(CARDS_ENV, "")
    return tuple(p for p in raw.split(os.pathsep) if p)


@contextlib.contextmanager
def card_files(files: Iterable[str | Path]) -> Iterator[dict[str, CardDef]]:
    """Within the block the default pool is the shipped cards plus those of ``files`` (for this
    process and the worker processes it starts); yields that pool. The files are checked first:
    a bad one raises the loader's :class:`CardError` (file, card and field), and a card named as
    a shipped one is refused as a duplicate name."""
    paths = tuple(str(Path(f).resolve()) for f in files)
    before = os.environ.get(CARDS_ENV)
    pool = _pool_of(paths)  # checks them before anything changes
    os.environ[CARDS_ENV] = os.pathsep.join(paths)
    try:
        yield dict(pool)
    finally:
        if before is None:
            os.environ.pop(CARDS_ENV, None)
        else:
            os.environ[CARDS_ENV] = before


def default_ruleset(config: RuleConfig | None = None) -> Ruleset:
    """The shipped cards under ``config`` (default: the default rule flags), ready to make
    games: ``default_ruleset().new_game(deck_a, deck_b, seed=7)``."""
    return Ruleset(config if config is not None else RuleConfig(), default_pool())


@functools.cache
def _default_pool() -> dict[str, CardDef]:
    return load_cards(sorted(DATA_DIR.glob("*.toml")))


@functools.cache
def _pool_of(extra: tuple[str, ...]) -> dict[str, CardDef]:
    """The shipped cards and those of ``extra``, loaded together: a token or a card name may be
    shared across them, and a duplicate name is refused with the file that defined it first."""
    if not extra:
        return _default_pool()
    return load_cards([*sorted(DATA_DIR.glob("*.toml")), *(Path(p) for p in extra)])


# --------------------------------------------------------------------------- files


def _expand(path_or_paths: str | Path | Iterable[str | Path]) -> list[Path]:
    items = [path_or_paths] if isinstance(path_or_paths, (str, Path)) else list(path_or_paths)
    out: list[Path] = []
    for item in items:
        path = Path(item)
        out.extend(sorted(path.glob("*.toml")) if path.is_dir() else [path])
    return out


def _display(path: Path) -> str:
    """The package's own files are named from the repository root; others as given."""
    try:
        resolved = path.resolve()
        if resolved.is_relative_to(DATA_DIR.resolve()):
            return resolved.relative_to(_REPO_ROOT.resolve()).as_posix()
    except OSError:
        pass
    return str(path)


def not_utf8(exc: UnicodeDecodeError) -> str:
    """Where a file stops being UTF-8 (TOML files are UTF-8 text)."""
    return f"byte {exc.object[exc.start]:#04x} at offset {exc.start} is not UTF-8 (TOML files are UTF-8 text)"


def _read_toml(path: Path, source: str, problems: list[str]) -> dict[str, Any] | None:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        problems.append(f"{source}: cannot read the file: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        problems.append(f"{source}: not a text file: {not_utf8(exc)}")
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{source}: TOML syntax error: {exc}")
    return None


def _load_document(
    doc: dict[str, Any],
    source: str,
    cards: dict[str, CardDef],
    origin: dict[str, str],
    problems: list[str],
    tokens: list[tuple[Scope, str, str]],
) -> None:
    for key in doc:
        if key != "card":
            problems.append(
                f"{source}: {unknown('top-level key', key, ['card'])}: write each card as [[card]]"
            )
    raw = doc.get("card", [])
    if not isinstance(raw, list):
        problems.append(
            f"{source}: 'card' must be an array of tables ([[card]]), got {type_name(raw)}"
        )
        return
    for index, table in enumerate(raw):
        if not isinstance(table, dict):
            problems.append(
                f"{source}: card #{index + 1}: expected a table, got {type_name(table)}"
            )
            continue
        scope = Scope(problems, f"{source}: {_label(table, index)}")
        card = parse_card(Table(scope, table), tokens)
        if card is None:
            continue
        if card.name in origin or card.name in cards:
            scope.err(
                "name",
                f"duplicate card name {card.name!r} (first defined in "
                f"{origin.get(card.name, source)}; the 4-copy limit counts names, 3.1.2)",
            )
            continue
        cards[card.name] = card
        origin[card.name] = source


def _name_of(table: Mapping[str, Any]) -> str:
    name = table.get("name")
    return name.strip() if isinstance(name, str) else ""


def _label(table: Mapping[str, Any], index: int) -> str:
    name = _name_of(table)
    return f"card {name!r}" if name else f"card #{index + 1}"


def _check_tokens(tokens: list[tuple[Scope, str, str]], cards: Mapping[str, CardDef]) -> None:
    known = sorted(n for n, c in cards.items() if c.type is CardType.TOKEN)
    for scope, where, name in tokens:
        card = cards.get(name)
        if card is None:
            scope.err(where, unknown("token", name, known))
        elif card.type is not CardType.TOKEN:
            scope.err(where, f"{name!r} is {_a(TYPE_WORDS[card.type])}, not a token (A49)")


def _check_test_ids(
    cards: Mapping[str, CardDef], origin: Mapping[str, str], problems: list[str]
) -> None:
    seen: dict[str, str] = {}
    for card in cards.values():
        if card.test_id is None:
            continue
        if card.test_id in seen:
            problems.append(
                f"{origin[card.name]}: card {card.name!r}: field 'test_id': "
                f"{card.test_id!r} is already used by {seen[card.test_id]!r}"
            )
        else:
            seen[card.test_id] = card.name


# --------------------------------------------------------------------------- one card


def parse_card(t: Table, tokens: list[tuple[Scope, str, str]]) -> CardDef | None:
    """Check and convert one ``[[card]]`` table; None (after reporting) if anything is wrong."""
    before = len(t.scope.sink)
    t.allow(CARD_FIELDS)
    name = _parse_name(t)
    ctype = _parse_type(t)
    if ctype is None:
        return None
    subtypes = _parse_subtypes(t, ctype)
    keywords = _parse_keywords(t, ctype)
    cost = _parse_card_cost(t, ctype)
    resource = _parse_resource(t, ctype, cost)
    stats = _parse_stats(t, ctype)
    ctx = CardContext(
        ctype.value, "lingering" in keywords, ctype is CardType.SORCERY and "Equipment" in subtypes
    )
    abilities = _parse_abilities(t, ctype, ctx)
    tokens.extend(ctx.token_refs)
    test_id = t.get_str("test_id")
    text = t.get_str("text") or ""
    if ctype is CardType.FORM:
        keywords.add("unique")  # 19.1: every Form has Unique
    if len(t.scope.sink) != before or name is None or resource is None:
        return None
    card = CardDef(
        name=name,
        type=ctype,
        resource=resource,
        cost=cost,
        subtypes=tuple(subtypes),
        health=stats["health"],
        power=stats["power"],
        soul=stats["soul"],
        keywords=frozenset(keywords),
        abilities=abilities,
        test_id=test_id,
        text=text,
    )
    if not text:  # no printed text: the rules text generated from the data (cards/text.py)
        card = dataclasses.replace(card, text=card_text(card))
    return card


def _a(word: str) -> str:
    return f"an {word}" if word[:1].upper() in "AEIOU" else f"a {word}"


def _parse_name(t: Table) -> str | None:
    if not t.require("name"):
        return None
    name = t.get_str("name")
    if name is None:
        return None
    if not name.strip() or name != name.strip():
        t.err("name", f"a name must be non-empty with no leading or trailing spaces, got {name!r}")
        return None
    if "[" in name or "]" in name:
        t.err("name", "a name cannot contain [ or ]: decks use 'Name [print N]' for printings")
        return None
    return name


def _parse_type(t: Table) -> CardType | None:
    if not t.require("type", f"one of {', '.join(c.value for c in CardType)}"):
        return None
    value = t.get_str("type", [c.value for c in CardType], "card type")
    return CardType(value) if value is not None else None


def _parse_subtypes(t: Table, ctype: CardType) -> list[str]:
    subtypes = t.get_strs("subtypes", what="subtype")
    for i, word in enumerate(subtypes):
        if not word or len(word.split()) != 1 or word != word.strip():
            t.err(f"subtypes[{i}]", f"each subtype is one word (13.5), got {word!r}")
        if word == "Equipment" and ctype is not CardType.SORCERY:
            t.err(
                f"subtypes[{i}]",
                f"Equipment is a Sorcery subtype (23, A43), not for {_a(TYPE_WORDS[ctype])}",
            )
    return subtypes


def _parse_keywords(t: Table, ctype: CardType) -> set[str]:
    keywords = set(t.get_strs("keywords", KEYWORDS, "keyword"))
    word = TYPE_WORDS[ctype]
    if "lingering" in keywords and ctype not in (CardType.SORCERY, CardType.AMBUSH):
        t.err(
            "keywords", f"INVALID_KEYWORD Lingering on {word} (22.3: only Sorceries and Ambushes)"
        )
    for kw in ("first_strike", "cannot_block"):
        if kw in keywords and ctype not in (CardType.ENTITY, CardType.TOKEN):
            t.err("keywords", f"INVALID_KEYWORD {kw} on {word} (only Entities fight)")
    if "fast" in keywords and ctype in (CardType.HOST, CardType.TOKEN):
        t.err("keywords", f"INVALID_KEYWORD fast on {word} ({_a(word)} is never played, 15)")
    return keywords


def _parse_card_cost(t: Table, ctype: CardType) -> tuple[Res, ...]:
    if ctype not in PLAYED_TYPES:
        if t.has("cost"):
            t.err("cost", f"{_a(TYPE_WORDS[ctype])} is never played, so it has no cost")
        return ()
    if not t.require("cost", 'the cost symbols, e.g. "££$"; write cost = "" for a free card'):
        return ()
    value = t.get_str("cost")
    if value is None:
        return ()
    try:
        return parse_cost(value)
    except ValueError as exc:
        t.err("cost", f"{exc} (symbols: & £ ! % $ or letters A S E M G)")
        return ()


def _parse_resource(t: Table, ctype: CardType, cost: tuple[Res, ...]) -> Res | None:
    """The card's own type (13.1); if left out, the type of its typed cost symbols."""
    if t.has("resource"):
        value = t.get_str("resource", RES_NAMES, "resource")
        if value is None:
            return None
        res = RES_NAMES[value]
    else:
        typed = {r for r in cost if r in TYPED}
        res = typed.pop() if len(typed) == 1 else Res.GENERIC
    if ctype is CardType.HOST and (not t.has("resource") or res not in TYPED):
        t.err(
            "resource",
            "a Host needs a typed resource: authority, strife, emotion or amity (11.3.1)",
        )
        return None
    return res


def _parse_stats(t: Table, ctype: CardType) -> dict[str, int]:
    out = {"health": 0, "power": 0, "soul": 0}
    for stat, owners in STAT_OWNERS.items():
        if ctype not in owners:
            if t.has(stat):
                t.err(stat, f"{_a(TYPE_WORDS[ctype])} has no {stat} (13.3, 13.4)")
            continue
        if not t.require(
            stat,
            f"{PLURALS[ctype]} need {' and '.join(s for s, o in STAT_OWNERS.items() if ctype in o)}",
        ):
            continue
        value = t.get_int(stat, minimum=1 if stat == "health" else 0)
        if value is not None:
            out[stat] = value
    return out


def _parse_abilities(t: Table, ctype: CardType, ctx: CardContext) -> tuple[Ability, ...]:
    allowed = set(ALWAYS_KINDS[ctype])
    if ctx.lingering:
        allowed.update(PERMANENT_KINDS)
    if ctx.equipment:
        allowed.add("static")
    parsed: list[tuple[Table, Ability | None]] = []
    for at in t.get_tables("abilities"):
        kind = at.data.get("kind")
        if isinstance(kind, str) and kind in KIND_FIELDS and kind not in allowed:
            at.err(
                "kind",
                f"{_a(_describe(ctype, ctx))} cannot have {_a(kind)} ability "
                f"(allowed: {', '.join(sorted(allowed))})",
            )
            continue
        parsed.append((at, parse_ability(at, ctx)))
    abilities = tuple(a for _, a in parsed if a is not None)
    if len(abilities) == len(parsed):
        _check_card_abilities(t, ctype, ctx, abilities)
    return abilities


def _describe(ctype: CardType, ctx: CardContext) -> str:
    if ctx.equipment:
        return "non-Lingering Equipment"
    if ctype in (CardType.SORCERY, CardType.AMBUSH) and not ctx.lingering:
        return f"non-Lingering {TYPE_WORDS[ctype]}"
    return TYPE_WORDS[ctype]


def _check_card_abilities(
    t: Table, ctype: CardType, ctx: CardContext, abilities: tuple[Ability, ...]
) -> None:
    kinds: list[str] = [a.kind.value for a in abilities]
    has_static = "static" in kinds
    if ctype is CardType.SORCERY:
        if ctx.equipment and (kinds.count("spell") != 1 or not _first_step_is_equip(abilities)):
            t.err(
                "abilities",
                "an Equipment sorcery needs exactly one spell ability, whose first step "
                "is equip (23.2)",
            )
        elif not ctx.equipment and "spell" not in kinds and not (ctx.lingering and has_static):
            t.err(
                "abilities",
                "a sorcery needs a spell ability (only a Lingering sorcery with a static "
                "ability may have none)",
            )
    if ctype is CardType.AMBUSH:
        if kinds.count("ambush") != 1:
            t.err(
                "abilities",
                f"an Ambush needs exactly one ambush ability (17.2), found {kinds.count('ambush')}",
            )
        elif not abilities[kinds.index("ambush")].steps and not (ctx.lingering and has_static):
            index = kinds.index("ambush")
            t.err(
                f"abilities[{index}].steps",
                "empty: only a Lingering Ambush with a static ability may do nothing on activation",
            )


def _first_step_is_equip(abilities: tuple[Ability, ...]) -> bool:
    spells = [a for a in abilities if a.kind == "spell"]
    return bool(spells and spells[0].steps and spells[0].steps[0].do == "equip")
