"""Actions and decisions: every player choice, with a text notation that round-trips.

``Action.parse(str(a)) == a`` for every action (docs/scenarios.md "The action notation").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .carddef import RES_NAMES, Res
from .tasks import Task


class IllegalActionError(ValueError):
    """An action that breaks a rule. The message starts with the rule number."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message  # with ``rule``, what a copy is made from (travel.py: pickled by Ray)


class Kind(StrEnum):
    PASS = "pass"
    YES = "yes"
    CONCEDE = "concede"
    AP_HOST = "ap host"
    AP_DRAW = "ap draw"
    AP_ANY = "ap any"
    PLAY = "play"
    ACTIVATE = "activate"
    ATTACK = "attack"
    SLOT = "slot"
    TARGET = "target"
    PAY = "pay"
    CARD = "card"
    TRIGGER = "trigger"


class DecisionKind(StrEnum):
    FIRST_PLAYER = "first_player"
    MULLIGAN = "mulligan"
    PRIORITY = "priority"
    PLACE_TRIGGERS = "place_triggers"
    CHOOSE_TARGET = "choose_target"
    CHOOSE_ATTACK_TARGET = "choose_attack_target"
    CHOOSE_SLOT = "choose_slot"
    PAY = "pay"
    CHOOSE_CARD = "choose_card"
    YES_NO = "yes_no"


class Resume(StrEnum):
    """Which rule continues when a decision is answered (``game.RESUMES`` maps each to the
    function that takes the answer)."""

    FIRST_PLAYER = "first_player"
    MULLIGAN = "mulligan"
    PRIORITY = "priority"
    PLACE_TRIGGERS = "place_triggers"
    ATTACK_TARGET = "attack_target"
    ANNOUNCE_TARGET = "announce_target"
    ANNOUNCE_PAY = "announce_pay"
    CARD_SLOT = "card_slot"
    OPTIONAL = "optional"
    CHOOSE_ON_RESOLUTION = "choose_on_resolution"
    HOST_POINT_CARD = "host_point_card"
    DISCARD_CARD = "discard_card"
    TOKEN_SLOT = "token_slot"
    MOVE_SLOT = "move_slot"
    CONTROL_SLOT = "control_slot"
    SEARCH_PICK = "search_pick"
    LOOK_PICK = "look_pick"
    RETARGET_PICK = "retarget_pick"
    PUT_SLOT = "put_slot"


_ALIASES: Final = {"done": "pass", "decline": "pass", "no": "pass", "second": "pass", "first": "yes"}


class Area(StrEnum):
    """What a ``Place`` indexes (docs/scenarios.md "The action notation"); the value is its
    prefix in the notation."""

    HAND = "h"  # the deciding player's hand: h3
    LISTED = "d"  # the decision's listed cards (Decision.cards): d4
    FRONT = "f"  # a frontrow slot: f2, A.f2
    BACK = "b"  # a backrow slot: b0, B.b1
    HOST = "host"  # a Host: A.host
    FORM = "form"  # the Form zone, in arrival order: B.form0
    STACK = "stack"  # the stack, from the bottom: stack0
    PENDING = "trigger"  # the deciding player's pending triggers: the 1 of "trigger 1"


_BOARD: Final = re.compile(r"^([AB])\.(?:(f|b|form)(\d+)|host)(?:\.m(\d+))?$")
_OWN: Final = re.compile(r"^(h|d|f|b|stack)(\d+)$")
_AREAS: Final = {a.value: a for a in Area}


@dataclass(frozen=True, init=False)
class Place:
    """A place an action names, typed: ``area`` and ``index`` (-1 for a Host); ``side`` the
    player it belongs to for a board place written with one (0 = ``A.``, 1 = ``B.``), -1 for
    one of the deciding player's own (``h3``, ``f2``, ``d0``) or the stack; ``marker`` the
    marker under the object there (``A.f0.m1``: 1), -1 for none. ``str`` gives the notation
    and ``Place.parse`` reads it back."""

    area: Area
    index: int
    side: int
    marker: int

    def __init__(self, area: Area, index: int = -1, side: int = -1, marker: int = -1) -> None:
        object.__setattr__(self, "area", area)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "marker", marker)

    # written out (the dataclass would generate them in Python): compiled, they run natively,
    # and actions are hashed and compared on every decision (the envs' action codecs)
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Place):
            return NotImplemented
        return (self.area is other.area and self.index == other.index and self.side == other.side
                and self.marker == other.marker)

    def __hash__(self) -> int:
        return hash((self.area, self.index, self.side, self.marker))

    def __copy__(self) -> Place:
        return self  # immutable: copies share it

    def __deepcopy__(self, memo: dict[int, object]) -> Place:
        return self

    def __str__(self) -> str:
        if self.area is Area.PENDING:
            return str(self.index)
        text = "host" if self.area is Area.HOST else f"{self.area.value}{self.index}"
        if self.side >= 0:
            text = f"{'AB'[self.side]}.{text}"
        if self.marker >= 0:
            text = f"{text}.m{self.marker}"
        return text

    @property
    def on_board(self) -> bool:
        """Written with a player (``A.f2``, ``B.host``, ``A.f0.m0``): a board place of either
        player, as targets and activations name them."""
        return self.side >= 0

    @staticmethod
    def parse(word: str) -> Place:
        """A place of the notation; raises ValueError naming the word."""
        m = _BOARD.match(word)
        if m is not None:
            side, area, index, marker = m.groups()
            return Place(_AREAS[area] if area else Area.HOST, int(index) if index else -1,
                         "AB".index(side), int(marker) if marker else -1)
        m = _OWN.match(word)
        if m is not None:
            return Place(_AREAS[m.group(1)], int(m.group(2)))
        raise ValueError(f"bad place {word!r} (see docs/scenarios.md)")


def hand_at(i: int) -> Place:
    """``h<i>``: the card at index i of the deciding player's hand."""
    return Place(Area.HAND, i)


def listed_at(i: int) -> Place:
    """``d<i>``: item i of the cards a decision lists (``Decision.cards``)."""
    return Place(Area.LISTED, i)


def slot_at(row: str, i: int) -> Place:
    """``f<i>`` or ``b<i>``: slot i of the deciding player's frontrow (row "f") or backrow ("b")."""
    return Place(Area.FRONT if row == "f" else Area.BACK, i)


# which places each kind takes (docs/scenarios.md): the deciding player's own, or board ones
_OWN_AREAS: Final = {"play": (Area.HAND,), "attack": (Area.FRONT,), "card": (Area.HAND, Area.LISTED),
                     "slot": (Area.FRONT, Area.BACK), "target": (Area.STACK,)}


def _place_for(head: str, word: str) -> Place:
    pl = Place.parse(word)
    if pl.on_board and head in ("target", "activate"):
        return pl
    if not pl.on_board and pl.area in _OWN_AREAS.get(head, ()):
        return pl
    raise ValueError(f"{word!r} is not a place '{head}' takes (see docs/scenarios.md)")


@dataclass(frozen=True, init=False)
class Action:
    """One answer to a decision, in typed fields (docs/engine.md "Actions"):

    * ``kind``: what is done (``Kind``);
    * ``source``: the place acted from: the hand card played (``play h3``), the object whose
      ability is activated (``activate A.f1 0``), the attacker (``attack f2``), the card
      chosen (``card h2``, ``card d4``), the pending trigger (``trigger 1``); else None;
    * ``target``: the place acted on: the slot entered (``slot f3``), the target or attacked
      object (``target B.f0``, ``target stack1``); else None;
    * ``res``: the resource gained (``ap any £``) or paying a ``$`` (``pay £``); None for
      ``pay auto`` and every other kind;
    * ``n``: the ability index of ``activate``; -1 otherwise.

    ``str`` gives the notation and ``Action.parse(str(a)) == a``."""

    kind: Kind
    source: Place | None
    target: Place | None
    res: Res | None
    n: int

    def __init__(self, kind: Kind, source: Place | None = None, target: Place | None = None,
                 res: Res | None = None, n: int = -1) -> None:
        # frozen: the fields are set once, past the dataclass's __setattr__ (a hand-written
        # __init__ is several times faster than the generated one when compiled)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "res", res)
        object.__setattr__(self, "n", n)

    def __eq__(self, other: object) -> bool:  # written out: see Place.__eq__
        if not isinstance(other, Action):
            return NotImplemented
        return (self.kind is other.kind and self.n == other.n and self.res == other.res
                and self.source == other.source and self.target == other.target)

    def __hash__(self) -> int:
        return hash((self.kind, self.source, self.target, self.res, self.n))

    def __copy__(self) -> Action:
        return self  # immutable: copies share it

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    def __str__(self) -> str:
        kind = self.kind
        if kind is Kind.ACTIVATE:
            return f"activate {self.source} {self.n}"
        if self.source is not None:
            return f"{kind.value} {self.source}"
        if self.target is not None:
            return f"{kind.value} {self.target}"
        if kind is Kind.PAY:
            return f"pay {'auto' if self.res is None else self.res.value}"
        if self.res is not None:
            return f"{kind.value} {self.res.value}"
        return kind.value

    @property
    def src(self) -> Place:
        """``source``, for a kind that has one; raises ValueError naming the action if not."""
        if self.source is None:
            raise ValueError(f"'{self}' acts from no place")
        return self.source

    @property
    def dst(self) -> Place:
        """``target``, for a kind that has one; raises ValueError naming the action if not."""
        if self.target is None:
            raise ValueError(f"'{self}' acts on no place")
        return self.target

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the canonical notation; raises ValueError naming what is wrong."""
        words = text.strip().split()
        if not words:
            raise ValueError("empty action")
        head = _ALIASES.get(words[0].lower(), words[0].lower())
        if head in ("pass", "yes", "concede") and len(words) == 1:
            return Action(Kind(head))
        if head == "ap" and len(words) >= 2:
            sub = words[1].lower()
            if sub in ("host", "draw") and len(words) == 2:
                return Action(Kind.AP_HOST if sub == "host" else Kind.AP_DRAW)
            if sub == "any" and len(words) == 3:
                return Action(Kind.AP_ANY, res=res_symbol(words[2]))
        if head == "activate" and len(words) == 3 and words[2].isdigit():
            return Action(Kind.ACTIVATE, _place_for(head, words[1]), n=int(words[2]))
        if head == "trigger" and len(words) == 2 and words[1].isdigit():
            return Action(Kind.TRIGGER, Place(Area.PENDING, int(words[1])))
        if head == "pay" and len(words) == 2:
            return Action(Kind.PAY, res=None if words[1].lower() == "auto" else res_symbol(words[1], generic=True))
        if head in ("play", "attack", "card") and len(words) == 2:
            return Action(Kind(head), _place_for(head, words[1]))
        if head in ("slot", "target") and len(words) == 2:
            return Action(Kind(head), target=_place_for(head, words[1]))
        raise ValueError(f"cannot parse action {text!r} (see docs/scenarios.md)")


def res_symbol(word: str, generic: bool = False) -> Res:
    w = word.strip()
    if w.lower() in RES_NAMES:
        r = RES_NAMES[w.lower()]
    else:
        try:
            r = Res(w)
        except ValueError:
            raise ValueError(f"unknown resource {word!r}") from None
    if r is Res.GENERIC and not generic:
        raise ValueError("11.3.3: '$' is not a resource type you can gain")
    return r


PASS: Final = Action(Kind.PASS)
YES: Final = Action(Kind.YES)


@dataclass(init=False)
class Decision:
    """Who decides what, and the legal actions. ``resume`` names the rule that takes the
    answer; ``task`` is the work the decision interrupted (plain data, see tasks.py), if any.
    ``seen``: the cards of a closed zone the deciding player sees while deciding, beside
    ``cards`` (the whole deck being searched, 41.3.2).
    ``hidden``: whether there being only one legal action may depend on hidden cards, so a
    driver must ask even then (Game.forced_action)."""

    player: int
    kind: DecisionKind
    actions: tuple[Action, ...]
    prompt: str
    resume: Resume
    task: Task | None
    cards: tuple[int, ...]  # object ids listed by a choose_card over a search/look
    seen: tuple[int, ...]  # object ids the deciding player sees besides ``cards`` (41.3.2)
    hidden: bool

    def __init__(self, player: int, kind: DecisionKind, actions: tuple[Action, ...], prompt: str = "",
                 resume: Resume = Resume.PRIORITY, task: Task | None = None,
                 cards: tuple[int, ...] = (), hidden: bool = False,
                 seen: tuple[int, ...] = ()) -> None:
        self.player = player
        self.kind = kind
        self.actions = actions
        self.prompt = prompt
        self.resume = resume
        self.task = task
        self.cards = cards
        self.seen = seen
        self.hidden = hidden

    def __str__(self) -> str:
        return f"{'AB'[self.player]} {self.kind.value}"

    def clone(self) -> Decision:
        return Decision(self.player, self.kind, self.actions, self.prompt, self.resume,
                        None if self.task is None else self.task.clone(), self.cards, self.hidden,
                        self.seen)
