"""Card definitions: the typed effect vocabulary the engine executes.

Cards are data (docs/cards.md). The loader in ``hostwcg_env.cards`` turns TOML into these
frozen values after validating every field; the engine only ever reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from .kinds import (
    TURN_PHASES,
    AbilityKind,
    Condition,
    Controller,
    Link,
    Phase,
    SelectorType,
    Who,
    Zone,
)


class CardType(StrEnum):
    HOST = "host"
    ENTITY = "entity"
    SORCERY = "sorcery"
    FORM = "form"
    AMBUSH = "ambush"
    TOKEN = "token"


class Res(StrEnum):
    """The 4 resource types and a generic type (12.1): & £ ! % (12.2) and $ (12.4)."""

    AUTHORITY = "&"
    STRIFE = "£"
    EMOTION = "!"
    AMITY = "%"
    GENERIC = "$"


TYPED = (Res.AUTHORITY, Res.STRIFE, Res.EMOTION, Res.AMITY)
RES_NAMES = {
    "authority": Res.AUTHORITY,
    "strife": Res.STRIFE,
    "emotion": Res.EMOTION,
    "amity": Res.AMITY,
    "generic": Res.GENERIC,
}
RES_LETTERS = {"A": Res.AUTHORITY, "S": Res.STRIFE, "E": Res.EMOTION, "M": Res.AMITY, "G": Res.GENERIC}

KEYWORDS = frozenset({"fast", "first_strike", "cannot_block", "lingering", "unique"})

EVENTS = frozenset(
    {
        "start_of_game",
        "start_of_turn",
        "end_of_turn",
        "start_of_phase",
        "would_play",
        "would_create",
        "would_cast",
        "would_embody",
        "would_lay",
        "played",
        "created",
        "cast",
        "embodied",
        "laid",
        "enters_slot",
        "leaves_play",
        "moves_slot",
        "attacks",
        "blocks",
        "destroyed",
        "destroys",
        "loses_sickness",
        "draws",
        "discards",
        "gains_resource",
        "host_damaged",
        "host_healed",
    }
)

SELECTOR_TYPES: Final = frozenset(t.value for t in SelectorType)
PHASES: Final = tuple(p.value for p in TURN_PHASES)
STATE_CONDITIONS: Final = frozenset(c.value for c in Condition)


class _Shared:
    """Immutable card data is shared by game clones instead of copied."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self

    def __copy__(self) -> Any:
        return self


@dataclass(frozen=True)
class Selector(_Shared):
    """Which objects qualify (docs/cards.md "Selectors")."""

    type: SelectorType = SelectorType.ENTITY
    controller: Controller = Controller.ANY
    subtype: str | None = None
    other: bool = False
    power_max: int | None = None
    power_min: int | None = None
    health_max: int | None = None
    health_min: int | None = None
    card_type: CardType | None = None  # for type "card": entity, sorcery, form or ambush
    count: int = 1
    up_to: bool = False
    keyword: str | None = None  # has this keyword now, printed or granted (29)
    zone: Zone | None = None  # for type "card": the drop zone or the banished zone (4.2, 4.9)


@dataclass(frozen=True)
class Ref(_Shared):
    """What a step acts on: a target name, a keyword reference, or all/choose a selector."""

    name: str | None = None  # target name, "self", "event.subject", "your_host", ...
    all: Selector | None = None
    choose: Selector | None = None


class CondKind(StrEnum):
    """What a step's condition looks at (docs/cards.md "Conditions", A54)."""

    COUNT = "count"  # how many objects or cards a selector names now
    STAT = "stat"  # a stat of what a reference names
    KEYWORD = "keyword"  # whether what a reference names has a keyword (granted ones too)
    ZONE = "zone"  # how many cards a player's zone holds
    PREVIOUS = "previous"  # whether the step before happened


COND_STATS: Final = ("health", "power", "soul")
COND_ZONES: Final = (Zone.HAND, Zone.DECK, Zone.DROP, Zone.BANISHED, Zone.DAMAGE)


@dataclass(frozen=True)
class Cond(_Shared):
    """One condition of a conditional step, checked when that step is reached (A54):
    ``count`` of ``selector``, ``stat`` or ``keyword`` of ``of``, the size of ``who``'s
    ``zone``, each between ``least`` and ``most``; or whether the previous step ``happened``."""

    kind: CondKind
    selector: Selector | None = None
    of: Ref | None = None
    stat: str | None = None
    keyword: str | None = None
    zone: Zone | None = None
    who: Who = Who.YOU
    least: int | None = None
    most: int | None = None
    happened: bool = True


@dataclass(frozen=True)
class Step(_Shared):
    """One part of an effect (docs/cards.md "Steps"): what every effect primitive has. The
    primitives themselves, each with its own fields, checks, resolution and text, are the
    subclasses in ``primitives.py``; ``do`` is the name a card file gives one."""

    link: Link = Link.THEN  # then | and (40)
    to: Ref | None = None  # what it acts on, for the primitives that act on objects
    cond: tuple[Cond, ...] = ()  # "if ..., ": all must hold when the step is reached (A54)

    @property
    def do(self) -> str:
        return ""


@dataclass(frozen=True)
class Trigger(_Shared):
    """An event pattern (28.2): event name plus filters relative to the ability's controller."""

    event: str
    subject: str | Selector | None = None  # None | "self" | "other" | Selector
    player: Controller = Controller.ANY
    phase: Phase | None = None


@dataclass(frozen=True)
class Ability(_Shared):
    """One ability of a card. An activated one is a cost before the colon (27.2, ``cost``)
    and an effect after it (27.3, ``steps``); a triggered one is a trigger (``when``) and the
    effect after it (28.1, 28.4). A keyword with an added effect (29.1), such as an Ambush's
    'Activate' requirement, keeps the requirement in ``when``/``while_``. What an effect
    targets (30.1) is declared in ``targets``."""

    kind: AbilityKind
    steps: tuple[Step, ...] = ()
    targets: tuple[tuple[str, Selector], ...] = ()
    when: Trigger | None = None
    while_: Condition | None = None  # ambush state requirement
    optional: bool = False
    cost: tuple[Res, ...] = ()
    once_per_turn: bool = False
    fast: bool = False
    phase: Phase | None = None
    # static fields
    affects: str | Selector | None = None  # a reference word or a Selector
    health: int = 0
    power: int = 0
    soul: int = 0
    set_health: int | None = None
    set_power: int | None = None
    set_soul: int | None = None
    grants: tuple[str, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class CardDef(_Shared):
    name: str
    type: CardType
    resource: Res = Res.GENERIC
    cost: tuple[Res, ...] = ()
    subtypes: tuple[str, ...] = ()
    health: int = 0
    power: int = 0
    soul: int = 0
    keywords: frozenset[str] = field(default_factory=frozenset)
    abilities: tuple[Ability, ...] = ()
    test_id: str | None = None
    text: str = ""  # printed text, never read by the engine: flavour words do nothing (29.5)

    @property
    def is_equipment(self) -> bool:
        return self.type is CardType.SORCERY and "Equipment" in self.subtypes

    @property
    def is_lingering(self) -> bool:
        return "lingering" in self.keywords

    @property
    def is_fast(self) -> bool:
        return "fast" in self.keywords

    def cost_text(self) -> str:
        return "".join(self.cost)


def parse_cost(text: str) -> tuple[Res, ...]:
    """Parse a cost string such as ``££$`` or ``SSG`` (12, 13.2). Raises ValueError."""
    out: list[Res] = []
    for ch in text.replace(" ", ""):
        if ch in RES_LETTERS:
            out.append(RES_LETTERS[ch])
            continue
        try:
            out.append(Res(ch))
        except ValueError:
            raise ValueError(f"unknown cost symbol {ch!r} in {text!r}") from None
    return tuple(out)
