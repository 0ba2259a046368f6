"""The words card text is made of: nouns for selectors and references, articles, counts and
verb agreement. Each effect primitive writes its own sentence with these (primitives.py); the
rest of a card's text (keywords, triggers, costs) is put together in ``hostwcg_env.cards.text``.
"""

from __future__ import annotations

from typing import Final

from .carddef import Ability, CardDef, CardType, Ref, Selector
from .kinds import Controller, Duration, SelectorType, Who

KEYWORD_WORDS: Final[dict[str, str]] = {
    "fast": "Fast",
    "first_strike": "First Strike",
    "cannot_block": "Cannot Block",
    "lingering": "Lingering",
    "unique": "Unique",
}
RES_WORDS: Final[dict[str, str]] = {"&": "&", "£": "£", "!": "!", "%": "%"}
NUMBERS: Final[dict[int, str]] = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five"}
TYPE_NOUNS: Final[dict[str, tuple[str, str]]] = {
    "entity": ("Entity", "Entities"),
    "host": ("Host", "Hosts"),
    "permanent": ("permanent", "permanents"),
    "entity_or_host": ("Entity or Host", "Entities or Hosts"),
    "effect": ("effect", "effects"),
}
CARD_TYPE_NOUNS: Final[dict[str, str]] = {
    "entity": "Entity card",
    "sorcery": "Sorcery card",
    "form": "Form card",
    "ambush": "Ambush card",
}
SELF_NOUNS: Final[dict[CardType, str]] = {
    CardType.ENTITY: "this Entity",
    CardType.TOKEN: "this Entity",
    CardType.FORM: "this Form",
    CardType.HOST: "this Host",
}
HOST_REFS: Final = ("your_host", "opponent_host", "each_host")


class TextCtx:
    """What a step's text needs: the card, the ability's targets, and which were named already
    (a target named twice is "it" the second time)."""

    def __init__(self, card: CardDef, ab: Ability) -> None:
        self.card = card
        self.ab = ab
        self.targets: dict[str, Selector] = dict(ab.targets)
        self.named: set[str] = set()
        self.last: str | None = None  # the last reference rendered, for "it"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def count(n: int) -> str:
    return NUMBERS.get(n, str(n))


def cards(n: int) -> str:
    return f"{count(n)} {plural(n, 'card', 'cards')}"


def article(noun: str) -> str:
    if noun.startswith("other "):
        return "another " + noun[len("other "):]
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def selector_noun(sel: Selector, plural: bool = False) -> str:
    """``Knight Entity you control with power 2 or less`` (without an article)."""
    if sel.type == SelectorType.CARD:
        noun = CARD_TYPE_NOUNS.get(sel.card_type or "", "card")
        if plural:
            noun += "s"
        if sel.subtype:
            noun = f"{sel.subtype} {noun}"
        return noun
    one, many = TYPE_NOUNS.get(sel.type, (sel.type, sel.type + "s"))
    noun = many if plural else one
    if sel.subtype:
        noun = f"{sel.subtype} {noun}"
    if sel.other:
        noun = f"other {noun}"
    if sel.controller == Controller.YOU:
        noun += " you control"
    elif sel.controller == Controller.OPPONENT:
        noun += " your opponent controls"
    filters = []
    for stat, low, high in (("power", sel.power_min, sel.power_max), ("health", sel.health_min, sel.health_max)):
        if low is not None and high is not None:
            filters.append(f"{stat} {low} to {high}")
        elif low is not None:
            filters.append(f"{stat} {low} or more")
        elif high is not None:
            filters.append(f"{stat} {high} or less")
    if filters:
        noun += " with " + " and ".join(filters)
    return noun


def target_phrase(sel: Selector) -> str:
    if sel.count == 1 and not sel.up_to:
        return "target " + selector_noun(sel)
    n = count(sel.count) if sel.count > 1 else "one"
    noun = selector_noun(sel, plural=sel.count > 1)
    return f"{'up to ' if sel.up_to else ''}{n} target {noun}"


def ref_phrase(tc: TextCtx, ref: Ref | None, possessive: bool = False) -> str:
    """The object(s) a step acts on, as a noun phrase ("target Entity", "it", "your Host")."""
    if ref is None:
        return ""
    if ref.all is not None:
        text = "all " + selector_noun(ref.all, plural=True)
        tc.last = None
        return text + ("'" if possessive else "")
    if ref.choose is not None:
        tc.last = None
        return article(selector_noun(ref.choose)) + ("'s" if possessive else "")
    name = ref.name or ""
    if name in tc.targets:
        sel = tc.targets[name]
        if name in tc.named:
            text = "it" if sel.count == 1 else "them"
            if possessive:
                text = "its" if sel.count == 1 else "their"
            return text
        tc.named.add(name)
        tc.last = name
        text = target_phrase(sel)
        return text + ("'s" if possessive and sel.count == 1 else "'" if possessive else "")
    if name == "self" and tc.ab.when is not None and tc.ab.when.subject == "self":
        return "its" if possessive else "it"  # "When this Entity blocks, it gains ..."
    if name in ("your_host", "opponent_host") and tc.last == name:
        return "its" if possessive else "it"  # "Your Host heals 1 and it gains +1 health."
    tc.last = name
    words = {
        "self": SELF_NOUNS.get(tc.card.type, "this card"),
        "event.subject": _subject_noun(tc),
        "your_host": "your Host",
        "opponent_host": "your opponent's Host",
        "each_host": "each Host",
    }
    text = words.get(name, name)
    if possessive:
        text += "'s"
    return text


def _subject_noun(tc: TextCtx) -> str:
    when = tc.ab.when
    if when is not None and when.event.startswith("would_"):
        return "that card"
    return "that Entity"


def is_host_ref(tc: TextCtx, ref: Ref | None) -> bool:
    if ref is None:
        return False
    if ref.name in HOST_REFS:
        return True
    if ref.name is not None and ref.name in tc.targets:
        return tc.targets[ref.name].type == SelectorType.HOST
    if ref.name == "self":
        return tc.card.type is CardType.HOST
    return False


def verb(tc: TextCtx, ref: Ref | None, one: str, many: str) -> str:
    """Agreement: "gains" for one object, "gain" for several."""
    if ref is None:
        return one
    if ref.all is not None or ref.name == "each_host":
        return many if ref.all is not None else one
    if ref.name is not None and ref.name in tc.targets and tc.targets[ref.name].count > 1:
        return many
    return one


def stat_changes(health: int | None, power: int | None, soul: int | None, signed: bool) -> str:
    parts = []
    for stat, value in (("health", health), ("power", power), ("soul", soul)):
        if value is None or (signed and value == 0):
            continue
        parts.append(f"{value:+d} {stat}" if signed else f"{value} {stat}")
    return " and ".join(parts)


def players(who: Who, you: str, opponent: str, each: str) -> str:
    return {Who.YOU: you, Who.OPPONENT: opponent, Who.EACH: each}.get(who, you)


def duration(d: Duration) -> str:
    return " until end of turn" if d == Duration.END_OF_TURN else ""
