"""The typed event log (docs/engine.md "Events"): every state change, in order, one frozen
dataclass per kind of event.

``str(event)`` is the event's text (docs/scenarios.md "Event texts"), the form that logs,
records and replays keep. Fields hold what the rules name: the player an event is about
(``player``, 0 for A), the object (``subject``, an object id) and the card's name (``name``),
amounts, places (``f2``, ``b0``). An event that names a card only one player may see has
``hidden`` set (or a card field that only its ``player`` sees); ``event.redact(viewer)`` is the
event as ``viewer`` saw it: hidden card names become ``?`` or are left out, and ids of cards in
hidden zones are dropped (a view gives those cards fresh ids of its own, docs/env.md
"Hidden information"). ``redact(None)`` is the full event (a replay, an audit);
``redact(PUBLIC)`` what a spectator, neither player, may see.

``TRIGGER_NAMES`` maps event types to the trigger names of card files (docs/cards.md
"Triggers"); matching.py reads the typed fields (player, subject, last known information).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Final

from .kinds import Phase, PhaseStep

# a viewer who is neither player (a spectator): ``redact(PUBLIC)`` keeps only public facts
PUBLIC: Final = -1


def _p(player: int) -> str:
    return "AB"[player]


@dataclass(frozen=True)
class Event:
    """The common base: an event's text is ``str(event)``; ``redact`` gives what one player saw."""

    def __str__(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} has no text")

    def redact(self, viewer: int | None) -> Event:
        """This event as ``viewer`` saw it (``None``: everything); most events are public."""
        return self

    def trigger_subject(self) -> tuple[int | None, str]:
        """The object a trigger on this event is about, and its name as triggers show it."""
        return None, ""


@dataclass(frozen=True)
class PlayerEvent(Event):
    """An event about one player (a trigger's "you" or "your opponent", 28.2)."""

    player: int


@dataclass(frozen=True)
class CardEvent(PlayerEvent):
    """An event about one object in play or on the stack: its id and its card's name. A
    trigger it causes names the card (``trigger_subject``), except where a kind overrides
    that: those triggers have always named no card."""

    subject: int | None
    name: str

    def trigger_subject(self) -> tuple[int | None, str]:
        return self.subject, self.name


@dataclass(frozen=True)
class HiddenCardEvent(CardEvent):
    """A card event whose card may be face down (6.2): only ``player`` sees its name then;
    the other player sees ``?`` and no object id (a view hides a face-down card's id)."""

    hidden: bool

    def trigger_subject(self) -> tuple[int | None, str]:
        # triggers are public: a face-down card's name stays out (6.2)
        return self.subject, "?" if self.hidden else self.name

    def redact(self, viewer: int | None) -> Event:
        if not self.hidden or viewer is None or viewer == self.player:
            return self
        return dataclasses.replace(self, subject=None, name="?")


# ------------------------------------------------------------ setup and the turn (9, 10)
@dataclass(frozen=True)
class Roll(Event):
    """Both players' dice for the first player (9.1.5)."""

    a: int
    b: int

    def __str__(self) -> str:
        return f"Roll(A={self.a}, B={self.b})"


@dataclass(frozen=True)
class FirstPlayer(PlayerEvent):
    def __str__(self) -> str:
        return f"FirstPlayer({_p(self.player)})"


@dataclass(frozen=True)
class Mulligan(PlayerEvent):
    """``count`` cards went back (9.1.7)."""

    count: int

    def __str__(self) -> str:
        return f"Mulligan({_p(self.player)}, {self.count})"


@dataclass(frozen=True)
class GameStarted(Event):
    def __str__(self) -> str:
        return "GameStarted()"


@dataclass(frozen=True)
class GameOver(Event):
    """``winner`` None: a draw."""

    winner: int | None
    reason: str

    def __str__(self) -> str:
        w = "draw" if self.winner is None else _p(self.winner)
        return f"GameOver(winner={w}, reason={self.reason})"


@dataclass(frozen=True)
class Conceded(PlayerEvent):
    def __str__(self) -> str:
        return f"Conceded({_p(self.player)})"


@dataclass(frozen=True)
class TurnBegan(PlayerEvent):
    """``player`` is the turn player."""

    turn: int

    def __str__(self) -> str:
        return f"TurnBegan({_p(self.player)}, {self.turn})"


@dataclass(frozen=True)
class PhaseBegan(PlayerEvent):
    """``player`` is the turn player."""

    phase: Phase

    def __str__(self) -> str:
        return f"PhaseBegan({self.phase})"


@dataclass(frozen=True)
class StepBegan(Event):
    step: PhaseStep

    def __str__(self) -> str:
        return f"StepBegan({self.step})"


@dataclass(frozen=True)
class EffectsExpired(Event):
    """'Until end of turn' effects end (10.6)."""

    def __str__(self) -> str:
        return "EffectsExpired()"


@dataclass(frozen=True)
class LosesSickness(CardEvent):
    """Its triggers wait until start-of-phase triggers have resolved (A50)."""

    def __str__(self) -> str:
        return f"LosesSickness({self.name})"


# ------------------------------------------------------------ action points and resources
@dataclass(frozen=True)
class APSpent(PlayerEvent):
    """``use``: ``draw``, ``host`` or ``any X`` (the resource bought)."""

    use: str

    def __str__(self) -> str:
        return f"APSpent({_p(self.player)}, {self.use})"


@dataclass(frozen=True)
class GainAP(PlayerEvent):
    amount: int

    def __str__(self) -> str:
        return f"GainAP({_p(self.player)}, {self.amount})"


@dataclass(frozen=True)
class GainResource(PlayerEvent):
    resource: str
    amount: int

    def __str__(self) -> str:
        return f"GainResource({_p(self.player)}, {self.resource}, {self.amount})"


@dataclass(frozen=True)
class Paid(PlayerEvent):
    """``cost``: the symbols paid, for the card or ability ``name``."""

    cost: str
    name: str

    def __str__(self) -> str:
        return f"Paid({_p(self.player)}, {self.cost}, {self.name})"


# ------------------------------------------------------------ hand and deck
@dataclass(frozen=True)
class Draw(PlayerEvent):
    """``card``: the name, seen by ``player`` alone (4.3.1); ``subject``: the card in hand."""

    subject: int | None
    card: str | None

    def trigger_subject(self) -> tuple[int | None, str]:
        return self.subject, ""

    def redact(self, viewer: int | None) -> Event:
        if viewer is None or viewer == self.player:
            return self
        return Draw(self.player, None, None)

    def __str__(self) -> str:
        if self.card is None:
            return f"Draw({_p(self.player)})"
        return f"Draw({_p(self.player)}, {self.card})"


@dataclass(frozen=True)
class Discard(PlayerEvent):
    """``subject``: the card in the drop zone (4.2.1)."""

    subject: int | None
    card: str

    def trigger_subject(self) -> tuple[int | None, str]:
        return self.subject, ""

    def __str__(self) -> str:
        return f"Discard({_p(self.player)}, {self.card})"


@dataclass(frozen=True)
class Shuffle(PlayerEvent):
    def __str__(self) -> str:
        return f"Shuffle({_p(self.player)})"


@dataclass(frozen=True)
class Search(PlayerEvent):
    def __str__(self) -> str:
        return f"Search({_p(self.player)})"


@dataclass(frozen=True)
class Look(PlayerEvent):
    """``player`` looks at the top ``count`` cards of their deck; ``cards`` only they see."""

    count: int
    cards: tuple[str, ...] | None

    def redact(self, viewer: int | None) -> Event:
        if viewer is None or viewer == self.player:
            return self
        return Look(self.player, self.count, None)

    def __str__(self) -> str:
        if self.cards is None:
            return f"Look({_p(self.player)}, deck, {self.count})"
        return f"Look({_p(self.player)}, deck, {self.count}, [{', '.join(self.cards)}])"


@dataclass(frozen=True)
class Reveal(PlayerEvent):
    """``player`` shows cards to both players (41.1.1): one card (``zone`` None) or a hidden
    zone as a multiset, in name order."""

    zone: str | None
    cards: tuple[str, ...]

    def __str__(self) -> str:
        if self.zone is None:
            return f"Reveal({_p(self.player)}, card={self.cards[0]})"
        return f"Reveal({_p(self.player)}, {self.zone}=[{', '.join(self.cards)}])"


# ------------------------------------------------------------ announcing and resolving (30-32)
@dataclass(frozen=True)
class Announced(HiddenCardEvent):
    """The base of ``WouldPlay`` and ``Would<verb>``: a card is announced (30) and is on the
    stack as item ``sid``."""

    sid: int

    def trigger_subject(self) -> tuple[int | None, str]:
        return self.subject, ""

    def __str__(self) -> str:
        return f"{type(self).__name__}({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class WouldPlay(Announced):
    pass


@dataclass(frozen=True)
class WouldCreate(Announced):
    pass


@dataclass(frozen=True)
class WouldCast(Announced):
    pass


@dataclass(frozen=True)
class WouldEmbody(Announced):
    pass


@dataclass(frozen=True)
class WouldLay(Announced):
    pass


@dataclass(frozen=True)
class Resolution(HiddenCardEvent):
    """The base of ``Played`` and ``Created``/``Cast``/``Embodied``/``Laid``: a card resolved
    (32); ``Created`` also comes from a token made by an effect."""

    def __str__(self) -> str:
        return f"{type(self).__name__}({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class Played(Resolution):
    pass


@dataclass(frozen=True)
class Created(Resolution):
    pass


@dataclass(frozen=True)
class Cast(Resolution):
    pass


@dataclass(frozen=True)
class Embodied(Resolution):
    pass


@dataclass(frozen=True)
class Laid(Resolution):
    pass


@dataclass(frozen=True)
class TriggerPlaced(PlayerEvent):
    name: str

    def __str__(self) -> str:
        return f"TriggerPlaced({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class TriggerSkipped(PlayerEvent):
    """No legal target: the trigger is not placed (30.5, A44)."""

    name: str

    def __str__(self) -> str:
        return f"TriggerSkipped({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class Activated(CardEvent):
    def trigger_subject(self) -> tuple[int | None, str]:
        return self.subject, ""

    def __str__(self) -> str:
        return f"Activated({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class ItemEvent(Event):
    """An event about stack item ``sid``, named for its source."""

    sid: int
    source: str


@dataclass(frozen=True)
class Resolved(ItemEvent):
    def __str__(self) -> str:
        return f"Resolved({self.source})"


@dataclass(frozen=True)
class Fizzled(ItemEvent):
    reason: str

    def __str__(self) -> str:
        return f"Fizzled({self.source}, reason={self.reason})"


@dataclass(frozen=True)
class LoopCut(ItemEvent):
    """A loop that would never end: the item does not resolve (42.1.2)."""

    def __str__(self) -> str:
        return f"LoopCut({self.source})"


@dataclass(frozen=True)
class Retargeted(Event):
    source: str

    def __str__(self) -> str:
        return f"Retargeted({self.source})"


@dataclass(frozen=True)
class RetargetFailed(Event):
    source: str

    def __str__(self) -> str:
        return f"RetargetFailed({self.source})"


# ------------------------------------------------------------ cards in play
@dataclass(frozen=True)
class EntersSlot(HiddenCardEvent):
    """``place``: the slot, ``f2`` or ``b0``."""

    place: str

    def __str__(self) -> str:
        return f"EntersSlot({_p(self.player)}, {self.name}, {self.place})"


@dataclass(frozen=True)
class LeavesPlay(HiddenCardEvent):
    """``lki``: the object (a ``state.Obj``) as it last was in play (A45), for triggers;
    not in a view."""

    lki: object | None

    def redact(self, viewer: int | None) -> Event:
        if viewer is None:
            return self
        if self.hidden and viewer != self.player:
            return LeavesPlay(self.player, None, "?", True, None)
        return LeavesPlay(self.player, self.subject, self.name, self.hidden, None)

    def __str__(self) -> str:
        return f"LeavesPlay({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class MovesSlot(CardEvent):
    """From slot ``old`` to ``new`` (``f1``, ``f3``)."""

    old: str
    new: str

    def __str__(self) -> str:
        return f"MovesSlot({_p(self.player)}, {self.name}, {self.old}, {self.new})"


@dataclass(frozen=True)
class PutIntoPlay(CardEvent):
    place: str

    def trigger_subject(self) -> tuple[int | None, str]:
        return self.subject, ""

    def __str__(self) -> str:
        return f"PutIntoPlay({_p(self.player)}, {self.name}, {self.place})"


@dataclass(frozen=True)
class ControlChanged(CardEvent):
    """``player`` now controls it."""

    def trigger_subject(self) -> tuple[int | None, str]:
        return self.subject, ""

    def __str__(self) -> str:
        return f"ControlChanged({self.name}, {_p(self.player)})"


@dataclass(frozen=True)
class NoSlot(PlayerEvent):
    """No open slot for the card ``name``: it does not enter (18.5)."""

    name: str

    def __str__(self) -> str:
        return f"NoSlot({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class Equipped(Event):
    """Equipment ``source`` attached to ``subject`` (named ``name``)."""

    subject: int
    name: str
    source: str

    def __str__(self) -> str:
        return f"Equipped({self.source}, {self.name})"


@dataclass(frozen=True)
class StatsChanged(Event):
    subject: int
    name: str

    def __str__(self) -> str:
        return f"StatsChanged({self.name})"


@dataclass(frozen=True)
class MarkerDropped(Event):
    subject: int
    name: str

    def __str__(self) -> str:
        return f"MarkerDropped({self.name})"


@dataclass(frozen=True)
class TokenGone(Event):
    """A token left play and ceased to exist (13.2)."""

    subject: int
    name: str

    def __str__(self) -> str:
        return f"TokenGone({self.name})"


@dataclass(frozen=True)
class SentToDrop(CardEvent):
    """A game action put it into the drop zone (35)."""

    def trigger_subject(self) -> tuple[int | None, str]:
        return self.subject, ""

    def __str__(self) -> str:
        return f"SentToDrop({self.name})"


# ------------------------------------------------------------ battle and damage (25, 38)
@dataclass(frozen=True)
class Attacks(CardEvent):
    def __str__(self) -> str:
        return f"Attacks({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class AttacksHost(CardEvent):
    """The attack goes to the Host: nothing blocks it."""

    def trigger_subject(self) -> tuple[int | None, str]:
        return self.subject, ""

    def __str__(self) -> str:
        return f"AttacksHost({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class Blocks(CardEvent):
    def __str__(self) -> str:
        return f"Blocks({_p(self.player)}, {self.name})"


@dataclass(frozen=True)
class DamageDealt(CardEvent):
    """``amount`` damage to ``subject`` from the source named ``source``, of ``kind``
    (combat or effect, 38.1)."""

    amount: int
    source: str
    kind: str

    def __str__(self) -> str:
        return f"DamageDealt({self.name}, {self.amount}, source={self.source}, kind={self.kind})"


@dataclass(frozen=True)
class Destroyed(CardEvent):
    """``source``/``source_id``: what dealt the final damage (38), ``none`` if nothing did."""

    source: str
    kind: str
    source_id: int | None

    def __str__(self) -> str:
        return f"Destroyed({self.name}, source={self.source}, kind={self.kind})"


@dataclass(frozen=True)
class Destroys(CardEvent):
    """``subject`` (``name``) destroyed ``victim`` (``victim_name``); ``lki``: the destroyer
    as it last was (a ``state.Obj``), if it is gone too (A45); not in a view."""

    victim: int
    victim_name: str
    lki: object | None

    def redact(self, viewer: int | None) -> Event:
        if viewer is None:
            return self
        return Destroys(self.player, self.subject, self.name, self.victim, self.victim_name, None)

    def __str__(self) -> str:
        return f"Destroys({self.name}, {self.victim_name})"


@dataclass(frozen=True)
class DamageCard(PlayerEvent):
    """A card of ``player``'s hand goes face down into their damage zone (2.1.1, A09)."""

    card: str | None

    def redact(self, viewer: int | None) -> Event:
        if viewer is None or viewer == self.player:
            return self
        return DamageCard(self.player, None)

    def __str__(self) -> str:
        if self.card is None:
            return f"DamageCard({_p(self.player)})"
        return f"DamageCard({_p(self.player)}, {self.card})"


@dataclass(frozen=True)
class HostDamaged(PlayerEvent):
    amount: int
    source: str

    def __str__(self) -> str:
        return f"HostDamaged({_p(self.player)}, {self.amount})"


@dataclass(frozen=True)
class Healed(PlayerEvent):
    """A damage card leaves the damage zone (2.2); ``hidden``: to the hand, seen by no one
    but its player (4.8.1); ``card`` None in a view that may not see it."""

    card: str | None
    hidden: bool

    def redact(self, viewer: int | None) -> Event:
        if not self.hidden or viewer is None or viewer == self.player:
            return self
        return Healed(self.player, None, True)

    def __str__(self) -> str:
        if self.card is None:
            return f"Healed({_p(self.player)})"
        return f"Healed({_p(self.player)}, {self.card})"


@dataclass(frozen=True)
class HostHealed(PlayerEvent):
    amount: int

    def __str__(self) -> str:
        return f"HostHealed({_p(self.player)}, {self.amount})"


# every event type, by name (docs/engine.md "Events")
EVENT_TYPES: Final[dict[str, type[Event]]] = {c.__name__: c for c in (
    Roll, FirstPlayer, Mulligan, GameStarted, GameOver, Conceded, TurnBegan, PhaseBegan, StepBegan,
    EffectsExpired, LosesSickness, APSpent, GainAP, GainResource, Paid, Draw, Discard, Shuffle, Search,
    Look, Reveal, WouldPlay, WouldCreate, WouldCast, WouldEmbody, WouldLay, Played, Created, Cast,
    Embodied, Laid, TriggerPlaced, TriggerSkipped, Activated, Resolved, Fizzled, LoopCut, Retargeted,
    RetargetFailed, EntersSlot, LeavesPlay, MovesSlot, PutIntoPlay, ControlChanged, NoSlot, Equipped,
    StatsChanged, MarkerDropped, TokenGone, SentToDrop, Attacks, AttacksHost, Blocks, DamageDealt,
    Destroyed, Destroys, DamageCard, HostDamaged, Healed, HostHealed)}

# engine event type -> trigger event name (docs/cards.md "Triggers"); PhaseBegan has three
# (matching.event_names)
TRIGGER_NAMES: Final[dict[type[Event], str]] = {
    GameStarted: "start_of_game",
    WouldPlay: "would_play",
    WouldCreate: "would_create",
    WouldCast: "would_cast",
    WouldEmbody: "would_embody",
    WouldLay: "would_lay",
    Played: "played",
    Created: "created",
    Cast: "cast",
    Embodied: "embodied",
    Laid: "laid",
    EntersSlot: "enters_slot",
    LeavesPlay: "leaves_play",
    MovesSlot: "moves_slot",
    Attacks: "attacks",
    Blocks: "blocks",
    Destroyed: "destroyed",
    Destroys: "destroys",
    LosesSickness: "loses_sickness",
    Draw: "draws",
    Discard: "discards",
    GainResource: "gains_resource",
    HostDamaged: "host_damaged",
    HostHealed: "host_healed",
}
