"""The words card text is made of: nouns for selectors and references, articles, counts and
verb agreement. Each effect primitive writes its own sentence with these (primitives.py); the
rest of a card's text (keywords, triggers, costs) is put together in ``hostwcg_env.cards.text``.
"""

from __future__ import annotations

from typing import Final

from .carddef import Ability, CardDef, CardType, Cond, CondKind, Ref, Selector
from .kinds import Controller, Duration, SelectorType, Who, Zone

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


ZONE_WORDS: Final[dict[str, str]] = {
    Zone.DROP: "drop zone",
    Zone.BANISHED: "banished zone",
    Zone.HAND: "hand",
    Zone.DECK: "deck",
    Zone.DAMAGE: "damage zone",
}


def _filters(sel: Selector) -> str:
    """`` with power 2 or less and First Strike``, or ``""``."""
    filters = []
    for stat, low, high in (("power", sel.power_min, sel.power_max), ("health", sel.health_min, sel.health_max)):
        if low is not None and high is not None:
            filters.append(f"{stat} {low} to {high}")
        elif low is not None:
            filters.append(f"{stat} {low} or more")
        elif high is not None:
            filters.append(f"{stat} {high} or less")
    if sel.keyword is not None:
        filters.append(KEYWORD_WORDS.get(sel.keyword, sel.keyword))
    return " with " + " and ".join(filters) if filters else ""


def zone_phrase(sel: Selector, many: bool = False) -> str:
    """``your drop zone``, ``your opponent's banished zone``, ``either player's drop zone``."""
    where = ZONE_WORDS.get(sel.zone or "", str(sel.zone))
    if sel.controller == Controller.YOU:
        return f"your {where}"
    if sel.controller == Controller.OPPONENT:
        return f"your opponent's {where}"
    return f"the {where}s" if many else f"either player's {where}"


def selector_noun(sel: Selector, plural: bool = False, zone_word: str = "in", side: bool = True) -> str:
    """``Knight Entity you control with power 2 or less`` (without an article); a card in a
    zone: ``Entity card with First Strike in your drop zone`` (``zone_word`` "from": ``...
    from your drop zone``). ``side``: say whose it is."""
    if sel.type == SelectorType.CARD:
        noun = CARD_TYPE_NOUNS.get(sel.card_type or "", "card")
        if plural:
            noun += "s"
        if sel.subtype:
            noun = f"{sel.subtype} {noun}"
        if sel.zone is not None:
            noun += _filters(sel)
            if side:
                noun += f" {zone_word} {zone_phrase(sel, plural)}"
        return noun
    one, many = TYPE_NOUNS.get(sel.type, (sel.type, sel.type + "s"))
    noun = many if plural else one
    if sel.subtype:
        noun = f"{sel.subtype} {noun}"
    if sel.other:
        noun = f"other {noun}"
    if side and sel.controller == Controller.YOU:
        noun += " you control"
    elif side and sel.controller == Controller.OPPONENT:
        noun += " your opponent controls"
    return noun + _filters(sel)


def owner_zone_phrase(sel: Selector, zone: str, many: bool) -> str:
    """Where a card goes: its owner's ``zone`` ("your hand", "their owners' hands")."""
    if sel.controller == Controller.YOU:
        return f"your {zone}"
    if sel.controller == Controller.OPPONENT:
        return f"your opponent's {zone}"
    return f"their owners' {zone}s" if many else f"its owner's {zone}"


def target_phrase(sel: Selector) -> str:
    if sel.count == 1 and not sel.up_to:
        return "target " + selector_noun(sel)
    n = count(sel.count) if sel.count > 1 else "one"
    noun = selector_noun(sel, plural=sel.count > 1)
    return f"{'up to ' if sel.up_to else ''}{n} target {noun}"


def ref_phrase(tc: TextCtx, ref: Ref | None, possessive: bool = False, zone_word: str = "in") -> str:
    """The object(s) a step acts on, as a noun phrase ("target Entity", "it", "your Host")."""
    if ref is None:
        return ""
    if ref.all is not None:
        text = "all " + selector_noun(ref.all, plural=True, zone_word=zone_word)
        tc.last = None
        return text + ("'" if possessive else "")
    if ref.choose is not None:
        tc.last = None
        return article(selector_noun(ref.choose, zone_word=zone_word)) + ("'s" if possessive else "")
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


# ------------------------------------------------------------ conditions (A54)
def _quantity(least: int | None, most: int | None, words: bool = False) -> str:
    """``3 or more``, ``2 or less``, ``exactly 2``, ``1 to 3``, ``no``; with ``words`` the
    numbers of things are words (``two or more``)."""
    def n(x: int) -> str:
        return count(x) if words and x > 1 else str(x)
    if most == 0:
        return "no"
    if least is not None and most is not None:
        return f"exactly {n(least)}" if least == most else f"{n(least)} to {n(most)}"
    if least is not None:
        return f"{n(least)} or more"
    return f"{n(most or 0)} or fewer" if words else f"{most} or less"


def _count_phrase(sel: Selector, least: int | None, most: int | None) -> str:
    one = least == 1 and most is None
    noun = article(selector_noun(sel, side=False)) if one else (
        f"{_quantity(least, most, words=True)} {selector_noun(sel, plural=True, side=False)}")
    if sel.zone is not None:
        have = "is" if one else "are"
        return f"there {have} {noun} in {zone_phrase(sel, True)}"
    if sel.controller == Controller.YOU:
        return f"you control {noun}"
    if sel.controller == Controller.OPPONENT:
        return f"your opponent controls {noun}"
    return f"there {'is' if one else 'are'} {noun} in play"


def condition_phrase(tc: TextCtx, c: Cond) -> str:
    """One condition, after "if": ``you control two or more Guard Entities``."""
    k = c.kind
    if k is CondKind.PREVIOUS:
        return "that happened" if c.happened else "that did not happen"
    if k is CondKind.COUNT:
        assert c.selector is not None
        return _count_phrase(c.selector, c.least, c.most)
    if k is CondKind.ZONE:
        where = ZONE_WORDS.get(c.zone or "", str(c.zone))
        cards_ = "card" if c.least == 1 and c.most is None else "cards"
        q = "a" if cards_ == "card" else _quantity(c.least, c.most, words=True)
        place = "in hand" if c.zone is Zone.HAND else f"in {'your' if c.who == Who.YOU else 'their'} {where}"
        who = "you have" if c.who == Who.YOU else "your opponent has"
        return f"{who} {q} {cards_} {place}"
    subject = ref_phrase(tc, c.of)
    has = verb(tc, c.of, "has", "have")
    if k is CondKind.KEYWORD:
        return f"{subject} {has} {KEYWORD_WORDS.get(c.keyword or '', c.keyword)}"
    return f"{subject} {has} {_quantity(c.least, c.most)} {c.stat}"


def condition_text(tc: TextCtx, conds: tuple[Cond, ...]) -> str:
    """``if you control a Guard Entity and your hand is ...``: a conditional step's opening."""
    return "if " + " and ".join(condition_phrase(tc, c) for c in conds)
