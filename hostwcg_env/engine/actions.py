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
_PLACE: Final = re.compile(r"^(?:[AB]\.(?:f\d+|b\d+|host|form\d+)(?:\.m\d+)?|stack\d+|f\d+|b\d+|auto|h\d+|d\d+|[&£!%$])$")


@dataclass(frozen=True, order=True, init=False)
class Action:
    """One answer to a decision. ``arg`` is a place, index or resource; ``n`` an ability index."""

    kind: Kind
    arg: str
    n: int

    def __init__(self, kind: Kind, arg: str = "", n: int = -1) -> None:
        # frozen: the fields are set once, past the dataclass's __setattr__ (a hand-written
        # __init__ is several times faster than the generated one when compiled)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "arg", arg)
        object.__setattr__(self, "n", n)

    def __copy__(self) -> Action:
        return self  # immutable: copies share it

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    def __str__(self) -> str:
        if self.kind is Kind.ACTIVATE:
            return f"activate {self.arg} {self.n}"
        if self.kind in (Kind.PLAY, Kind.CARD):
            return f"{self.kind} {self.arg}"
        if self.arg:
            return f"{self.kind} {self.arg}"
        return str(self.kind)

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
                return Action(Kind.AP_ANY, res_symbol(words[2]))
        if head == "activate" and len(words) == 3 and words[2].isdigit():
            return Action(Kind.ACTIVATE, _place(words[1]), int(words[2]))
        if head == "trigger" and len(words) == 2 and words[1].isdigit():
            return Action(Kind.TRIGGER, words[1])
        if head == "pay" and len(words) == 2:
            arg = "auto" if words[1].lower() == "auto" else res_symbol(words[1], generic=True)
            return Action(Kind.PAY, arg)
        if head in ("play", "attack", "slot", "target", "card") and len(words) == 2:
            return Action(Kind(head), _place(words[1]))
        raise ValueError(f"cannot parse action {text!r} (see docs/scenarios.md)")


def _place(word: str) -> str:
    if not _PLACE.match(word):
        raise ValueError(f"bad place {word!r}")
    return word


def res_symbol(word: str, generic: bool = False) -> str:
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
    return r.value


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
