"""What the board shows from one seat: the one model the text, HTML and image boards draw.

``board_of(game, seat)`` answers, zone by zone, what ``seat`` may see:

* a player (``0`` = A, ``1`` = B): built only from ``game.view(seat)``, the PlayerView, so
  nothing that player may not see can reach a board (6: the opponent's hand, both decks, the
  opponent's face-down cards and damage zone are counts or card backs);
* ``"spectator"``: what is public, built only from the two players' views (a card is shown
  when both players may see it: no hand, every face-down card a back, no damage zone, no
  legal actions);
* ``None``: everything (the referee's board the text render and ``hostwcg demo`` draw).

The renderers (``hostwcg_env.render``, ``hostwcg_env.board.html``, ``hostwcg_env.board.image``)
only lay this model out; the words they share (a card's stats, a target, the decision) are
methods here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from hostwcg_env.engine.actions import Decision
from hostwcg_env.engine.carddef import CardDef
from hostwcg_env.engine.places import place_of
from hostwcg_env.engine.state import GameState, Obj, StackItem
from hostwcg_env.engine.stats import health, host_health, host_soul, keywords, power
from hostwcg_env.engine.view import PlayerView

SIDES = "AB"
SPECTATOR = "spectator"
RESOURCES = ("&", "£", "!", "%", "$")  # authority, strife, emotion, amity, generic (12.1)
RESOURCE_NAMES = {"&": "authority", "£": "strife", "!": "emotion", "%": "amity", "$": "generic"}

Seat = int | str | None


# ============================================================================ the model


@dataclass(frozen=True)
class CardFace:
    """One card as this seat sees it. ``name`` is None for a card it may not see (a back)."""

    place: str  # A.f0, B.b2, A.h3, A.form0, A.f0.m0, A.drop, A.banished, A.damage
    name: str | None
    type: str = ""  # the CardType value: entity, sorcery, form, ambush, token, host
    cost: str = ""  # resource symbols, e.g. "££$"
    resource: str = ""  # the card's resource symbol
    subtypes: tuple[str, ...] = ()
    text: str = ""  # rules text (docs/cards.md)
    power: int | None = None  # current stats of an Entity in play, printed ones elsewhere
    health: int | None = None
    printed_power: int | None = None
    printed_health: int | None = None
    damage: int = 0  # damage marked on it (18.4)
    keywords: tuple[str, ...] = ()  # sorted, granted ones included (in play)
    sick: bool = False  # Creation Sickness (17.4)
    attacked: bool = False
    face_down: bool = False  # face down (only its controller sees the name)
    token: bool = False
    owner: int = 0
    controller: int = 0
    markers: tuple[CardFace, ...] = ()  # attached markers (Equipment, 24)

    @property
    def hidden(self) -> bool:
        return self.name is None

    @property
    def is_entity(self) -> bool:
        return self.type in ("entity", "token")

    @property
    def left(self) -> int | None:
        """Health left after the damage marked on it."""
        return None if self.health is None else self.health - self.damage

    def stats(self) -> str:
        """``P3 H2/4`` (power, health left / health), or ``""`` for a card without stats."""
        if not self.is_entity or self.power is None or self.health is None:
            return ""
        if self.damage:
            return f"P{self.power} H{self.left}/{self.health}"
        return f"P{self.power} H{self.health}"

    def tooltip(self) -> str:
        """The card's full description (type line, cost, stats, text) in one line."""
        if self.name is None:
            return "face-down card" if self.face_down else "hidden card"
        parts = [self.name, self.type_line()]
        if self.cost:
            parts.append(f"cost {self.cost}")
        if self.stats():
            parts.append(self.stats() + (f" ({self.damage} damage)" if self.damage else ""))
        if self.text:
            parts.append(self.text)
        return " | ".join(p for p in parts if p)

    def short_type(self) -> str:
        """The type line for a small box: an Entity's subtypes (its stats say it is one)."""
        if self.type == "entity" and self.subtypes:
            return " ".join(self.subtypes)
        return self.type_line()

    def type_line(self) -> str:
        line = self.type.capitalize()
        if self.subtypes:
            line += " - " + " ".join(self.subtypes)
        return line


@dataclass(frozen=True)
class HostFace:
    name: str | None  # None: hidden (the opponent's Host before the game begins, 4.6.1)
    health: int | None = None  # None before the game begins
    soul: int | None = None
    resource: str = ""
    text: str = ""


@dataclass(frozen=True)
class Side:
    """One player's side of the table."""

    player: int
    host: HostFace
    ap: int
    pool: dict[str, int]  # resource symbol -> amount (only those the player has)
    hand: tuple[CardFace, ...] | None  # None: only the count is shown
    hand_count: int
    deck: int
    damage: tuple[CardFace, ...] | None  # the damage zone, None: only the count is shown
    damage_count: int
    drop: tuple[CardFace, ...]  # bottom first
    banished: tuple[CardFace, ...]
    forms: tuple[CardFace, ...]
    front: tuple[CardFace | None, ...]  # one entry per slot, None = empty
    back: tuple[CardFace | None, ...]

    @property
    def label(self) -> str:
        return SIDES[self.player]

    def pool_items(self) -> list[tuple[str, int]]:
        """(symbol, amount) for each resource held, in the rules' order."""
        return [(r, self.pool[r]) for r in RESOURCES if self.pool.get(r)] + sorted(
            (r, n) for r, n in self.pool.items() if n and r not in RESOURCES)


@dataclass(frozen=True)
class Target:
    name: str  # the target's name on the effect's text (``t``)
    what: tuple[str, ...]  # each chosen object: ``B.f0 Squire``, ``stack1 Bolt``, ``A.host``


@dataclass(frozen=True)
class StackEntry:
    index: int  # stack{index}, 0 = bottom
    controller: int
    name: str | None  # None: a face-down card this seat may not see
    kind: str  # card | ability | trigger | spell | ambush | during
    face_down: bool
    targets: tuple[Target, ...]
    card: CardFace | None = None  # the source card (None when hidden)

    def title(self) -> str:
        """``Bolt``, ``Grace [trigger]``, or ``face-down card``."""
        if self.name is None:
            return "face-down card"
        return self.name if self.kind == "card" else f"{self.name} [{self.kind}]"

    def targets_text(self) -> str:
        return "; ".join(f"{t.name}={', '.join(t.what) or 'none'}" for t in self.targets)


@dataclass(frozen=True)
class BattleView:
    controller: int
    attacker: str
    target: str | None  # the blocker's description, or None
    target_is_host: bool

    def text(self) -> str:
        line = f"{SIDES[self.controller]}'s {self.attacker} attacks"
        if self.target_is_host:
            line += f" the Host of {SIDES[1 - self.controller]}"
        elif self.target is not None:
            line += f" {self.target}"
        return line


@dataclass(frozen=True)
class DecisionView:
    player: int
    kind: str  # the DecisionKind value
    prompt: str  # "" when this seat may not read it
    actions: tuple[str, ...]  # legal actions in the notation; () when not this seat's to see
    cards: tuple[CardFace, ...] = ()  # the list ``card d<i>`` picks from (a search, a look, 41)

    def kind_text(self) -> str:
        return self.kind.replace("_", " ")


@dataclass(frozen=True)
class Board:
    seat: Seat  # 0, 1, "spectator" (public only) or None (everything)
    started: bool
    turn: int
    tp: int  # whose turn
    phase: str
    step: str
    over: bool
    winner: int | None
    reason: str
    decision: DecisionView | None
    battle: BattleView | None
    stack: tuple[StackEntry, ...]  # bottom first (32.2); ``stack_top_first`` for drawing
    sides: tuple[Side, Side]

    @property
    def viewer(self) -> int | None:
        return self.seat if isinstance(self.seat, int) else None

    @property
    def everything(self) -> bool:
        return self.seat is None

    @property
    def bottom(self) -> Side:
        """The side drawn at the bottom: the viewer's (A for a spectator)."""
        return self.sides[self.viewer or 0]

    @property
    def top(self) -> Side:
        return self.sides[1 - (self.viewer or 0)]

    @property
    def stack_top_first(self) -> list[StackEntry]:
        return list(reversed(self.stack))

    def sees_private(self, p: int) -> bool:
        """Whether this board shows ``p``'s hand and damage zone by name."""
        return self.seat is None or self.seat == p

    def seat_text(self) -> str:
        if self.seat is None:
            return "every card shown"
        if self.seat == SPECTATOR:
            return "spectator, public cards only"
        return f"{SIDES[int(self.seat)]}'s view"

    def where_text(self) -> str:
        """``Turn 3 (A's turn) | phase battle | step block`` or ``game setup``."""
        if not self.started or self.turn == 0:
            return "game setup"
        where = f"Turn {self.turn} ({SIDES[self.tp]}'s turn) | phase {self.phase}"
        if self.step and self.phase in ("battle", "end"):
            where += f" | step {self.step}"
        return where

    def result_text(self) -> str:
        w = "draw" if self.winner is None else f"{SIDES[self.winner]} wins"
        return f"Game over: {w} ({self.reason})"

    def decision_text(self) -> str:
        """Whose decision it is and its kind (and, where this seat may read it, the prompt)."""
        if self.over:
            return self.result_text()
        d = self.decision
        if d is None:
            return "No decision pending"
        line = f"{SIDES[d.player]} to decide: {d.kind_text()}"
        return line + (f" ({d.prompt})" if d.prompt else "")

    def mine(self) -> bool:
        """Whether the pending decision's legal actions are this seat's to see."""
        d = self.decision
        return d is not None and not self.over and (self.seat is None or self.seat == d.player)


# ============================================================================ what a seat sees


class _Eyes(Protocol):
    """What one seat may see, zone by zone: the only door from a game to a board."""

    seat: Seat

    def state(self) -> GameState: ...  # public scalars, stats and places (see ``_Public``)
    def host(self, p: int) -> Obj | None: ...
    def hand(self, p: int) -> list[Obj] | None: ...
    def count(self, p: int, zone: str) -> int: ...
    def row(self, p: int, row: str) -> list[Obj | None | str]: ...
    def forms(self, p: int) -> list[Obj]: ...
    def drop(self, p: int) -> list[Obj]: ...
    def damage(self, p: int) -> list[Obj] | None: ...
    def pool(self, p: int) -> dict[str, int]: ...
    def ap(self, p: int) -> int: ...
    def stack(self) -> list[tuple[StackItem, CardDef | None]]: ...
    def decision(self) -> Decision | None: ...
    def choices(self) -> list[Obj]: ...  # the cards the deciding seat's own decision shows it
    def obj(self, oid: int) -> Obj | None: ...  # None: not there, or not visible


class _Public:
    """Public scalars (turn, phase, step, battle, result), stats of visible cards, places and
    the (open, 4.9.1) banished zone, read from a state every card of which this seat may see:
    the view's redacted copy for a player. The one place that reads them, to switch easily
    when the PlayerView grows properties for them."""

    def __init__(self, s: GameState) -> None:
        self.s = s

    def scalars(self) -> dict[str, Any]:
        s = self.s
        return {"started": s.started, "turn": s.turn, "tp": s.tp, "phase": s.phase,
                "step": s.step, "over": s.over, "winner": s.winner, "reason": s.reason}

    def battle(self) -> Any:
        return self.s.battle

    def banished(self, p: int) -> list[Obj]:
        return [self.s.objs[o] for o in self.s.players[p].banished]

    def power(self, o: Obj) -> int:
        return power(self.s, self.s.objs[o.id])

    def health(self, o: Obj) -> int:
        return health(self.s, self.s.objs[o.id])

    def keywords(self, o: Obj) -> frozenset[str]:
        return keywords(self.s, self.s.objs[o.id])

    def host_stats(self, p: int) -> tuple[int, int]:
        return host_health(self.s, p), host_soul(self.s, p)

    def zone(self, oid: int) -> str | None:
        o = self.s.objs.get(oid)
        return None if o is None else o.zone

    def place(self, oid: int) -> str:
        """The notation place of a visible object (``B.f0``, ``A.host``, ``A.hand``)."""
        o = self.s.objs[oid]
        if o.zone == "marker" and (o.attached_to is None or o.attached_to not in self.s.objs):
            return f"{SIDES[o.controller]}.marker"
        return place_of(self.s, oid).split(":")[0]


class _PlayerEyes:
    """A player's seat: every answer comes from its PlayerView."""

    def __init__(self, view: PlayerView) -> None:
        self.v = view
        self.seat: Seat = view.player

    def state(self) -> GameState:
        return self.v.state  # the redacted copy: hidden cards are placeholders

    def host(self, p: int) -> Obj | None:
        return self.v.host(p)

    def hand(self, p: int) -> list[Obj] | None:
        return self.v.hand() if p == self.v.player else None

    def count(self, p: int, zone: str) -> int:
        return self.v.count(p, zone)

    def row(self, p: int, row: str) -> list[Obj | None | str]:
        return self.v.row(p, row)

    def forms(self, p: int) -> list[Obj]:
        return self.v.forms(p)

    def drop(self, p: int) -> list[Obj]:
        return self.v.drop(p)

    def damage(self, p: int) -> list[Obj] | None:
        return self.v.damage_zone(p)

    def pool(self, p: int) -> dict[str, int]:
        return self.v.pool(p)

    def ap(self, p: int) -> int:
        return self.v.ap(p)

    def stack(self) -> list[tuple[StackItem, CardDef | None]]:
        return self.v.stack()

    def decision(self) -> Decision | None:
        return self.v.decision()

    def choices(self) -> list[Obj]:
        return self.v.choice_cards()

    def obj(self, oid: int) -> Obj | None:
        try:
            return self.v.public(oid)
        except KeyError:
            return None


class _SpectatorEyes:
    """The public seat: a card is shown only when both players' views show it."""

    def __init__(self, v0: PlayerView, v1: PlayerView) -> None:
        self.v = (v0, v1)
        self.seat: Seat = SPECTATOR

    def state(self) -> GameState:
        return self.v[0].state  # read only for what is public (``_Public``)

    def host(self, p: int) -> Obj | None:
        return self.v[1 - p].host(p)  # hidden from the opponent until the game begins

    def hand(self, p: int) -> list[Obj] | None:
        return None

    def count(self, p: int, zone: str) -> int:
        return self.v[0].count(p, zone)

    def row(self, p: int, row: str) -> list[Obj | None | str]:
        out: list[Obj | None | str] = []
        for a, b in zip(self.v[0].row(p, row), self.v[1].row(p, row), strict=True):
            out.append(a if a is None or (isinstance(a, Obj) and isinstance(b, Obj)) else "face-down")
        return out

    def forms(self, p: int) -> list[Obj]:
        return self.v[0].forms(p)

    def drop(self, p: int) -> list[Obj]:
        return self.v[0].drop(p)

    def damage(self, p: int) -> list[Obj] | None:
        return None

    def pool(self, p: int) -> dict[str, int]:
        return self.v[0].pool(p)

    def ap(self, p: int) -> int:
        return self.v[0].ap(p)

    def stack(self) -> list[tuple[StackItem, CardDef | None]]:
        return [(it, a if a is not None and b is not None else None)
                for (it, a), (_, b) in zip(self.v[0].stack(), self.v[1].stack(), strict=True)]

    def decision(self) -> Decision | None:
        d = self.v[0].decision()
        if d is None:
            return None
        return self.v[1 - d.player].decision()  # as the player not deciding sees it: the kind

    def choices(self) -> list[Obj]:
        return []

    def obj(self, oid: int) -> Obj | None:
        try:
            a, b = self.v[0].public(oid), self.v[1].public(oid)
        except KeyError:
            return None
        return a if a is not None and b is not None else None


class _AllEyes:
    """Everything (the referee's board): the whole state."""

    def __init__(self, s: GameState) -> None:
        self.s = s
        self.seat: Seat = None

    def state(self) -> GameState:
        return self.s

    def host(self, p: int) -> Obj | None:
        return self.s.objs.get(self.s.players[p].host)

    def hand(self, p: int) -> list[Obj] | None:
        return [self.s.objs[o] for o in self.s.players[p].hand]

    def count(self, p: int, zone: str) -> int:
        return len(getattr(self.s.players[p], zone))

    def row(self, p: int, row: str) -> list[Obj | None | str]:
        return [None if o is None else self.s.objs[o] for o in getattr(self.s.players[p], row)]

    def forms(self, p: int) -> list[Obj]:
        return [self.s.objs[o] for o in self.s.players[p].forms]

    def drop(self, p: int) -> list[Obj]:
        return [self.s.objs[o] for o in self.s.players[p].drop]

    def damage(self, p: int) -> list[Obj] | None:
        return [self.s.objs[o] for o in self.s.players[p].damage]

    def pool(self, p: int) -> dict[str, int]:
        return dict(self.s.players[p].pool)

    def ap(self, p: int) -> int:
        return self.s.players[p].ap

    def stack(self) -> list[tuple[StackItem, CardDef | None]]:
        return [(it, it.card) for it in self.s.stack]

    def decision(self) -> Decision | None:
        return self.s.decision

    def choices(self) -> list[Obj]:
        d = self.s.decision
        return [] if d is None else [self.s.objs[o] for o in d.cards if o in self.s.objs]

    def obj(self, oid: int) -> Obj | None:
        return self.s.objs.get(oid)


def eyes_of(game: Any, seat: Seat) -> _Eyes:
    """The seat's eyes: a player's PlayerView, both views for the spectator, the state for
    everything. A player's board never reads ``game.state``."""
    if seat is None:
        return _AllEyes(game.state)
    if seat == SPECTATOR:
        return _SpectatorEyes(game.view(0), game.view(1))
    if seat in (0, 1) and type(seat) is int:
        return _PlayerEyes(game.view(seat))
    raise ValueError(f"seat must be 0, 1, 'spectator' or None (everything), got {seat!r}")


# ============================================================================ building it


def board_of(game: Any, seat: Seat) -> Board:
    """The board ``seat`` sees (0 = A, 1 = B, ``"spectator"``: public only, None: everything)."""
    return _Builder(eyes_of(game, seat)).board()


class _Builder:
    def __init__(self, eyes: _Eyes) -> None:
        self.e = eyes
        self.pub = _Public(eyes.state())

    def board(self) -> Board:
        sc = self.pub.scalars()
        d = self.e.decision()
        decision = None
        if d is not None:
            cards = tuple(self.face(o, f"d{i}") for i, o in enumerate(self.e.choices()))
            decision = DecisionView(d.player, d.kind.value, d.prompt,
                                    tuple(str(a) for a in d.actions), cards)
        return Board(seat=self.e.seat, decision=decision, battle=self.battle(),
                     stack=self.stack(), sides=(self.side(0), self.side(1)), **sc)

    # -------------------------------------------------------------- a side
    def side(self, p: int) -> Side:
        e = self.e
        hand = e.hand(p)
        damage = e.damage(p)
        return Side(
            player=p,
            host=self.host(p),
            ap=e.ap(p),
            pool=e.pool(p),
            hand=None if hand is None else tuple(self.face(o, f"{SIDES[p]}.h{i}")
                                                 for i, o in enumerate(hand)),
            hand_count=e.count(p, "hand"),
            deck=e.count(p, "deck"),
            damage=None if damage is None else tuple(self.face(o, f"{SIDES[p]}.damage")
                                                     for o in damage),
            damage_count=e.count(p, "damage"),
            drop=tuple(self.face(o, f"{SIDES[p]}.drop") for o in e.drop(p)),
            banished=tuple(self.face(o, f"{SIDES[p]}.banished") for o in self.pub.banished(p)),
            forms=tuple(self.face(o, f"{SIDES[p]}.form{i}") for i, o in enumerate(e.forms(p))),
            front=self.row(p, "front", "f"),
            back=self.row(p, "back", "b"),
        )

    def host(self, p: int) -> HostFace:
        o = self.e.host(p)
        if o is None or o.name == "?":
            return HostFace(None)
        if not self.pub.scalars()["started"]:
            return HostFace(o.name, resource=o.card.resource.value, text=o.card.text)
        hp, soul = self.pub.host_stats(p)
        return HostFace(o.name, hp, soul, o.card.resource.value, o.card.text)

    def row(self, p: int, row: str, letter: str) -> tuple[CardFace | None, ...]:
        out: list[CardFace | None] = []
        for i, o in enumerate(self.e.row(p, row)):
            place = f"{SIDES[p]}.{letter}{i}"
            if o is None:
                out.append(None)
            elif isinstance(o, str):  # a face-down card this seat may not see (6.2)
                out.append(CardFace(place, None, face_down=True, owner=p, controller=p))
            else:
                out.append(self.face(o, place))
        return tuple(out)

    def face(self, o: Obj, place: str) -> CardFace:
        c = o.card
        markers = []
        for i, mid in enumerate(o.markers):
            m = self.e.obj(mid)
            where = f"{place}.m{i}"
            if m is None:
                markers.append(CardFace(where, None, face_down=True))
            else:
                markers.append(self.face(m, where))
        played = o.zone == "front"  # an Entity in play: current stats and keywords
        return CardFace(
            place=place, name=o.name, type=c.type.value, cost=c.cost_text(),
            resource=c.resource.value, subtypes=tuple(c.subtypes), text=c.text,
            power=self.pub.power(o) if played else c.power,
            health=self.pub.health(o) if played else c.health,
            printed_power=c.power, printed_health=c.health, damage=o.damage,
            keywords=tuple(sorted(self.pub.keywords(o) if played else c.keywords)),
            sick=o.sick, attacked=o.attacked, face_down=o.face_down, token=o.token,
            owner=o.owner, controller=o.controller, markers=tuple(markers))

    # -------------------------------------------------------------- the middle
    def battle(self) -> BattleView | None:
        b = self.pub.battle()
        if b is None:
            return None
        if b.target is None:
            return BattleView(b.controller, b.attacker_name, None, False)
        if b.target_is_host:
            return BattleView(b.controller, b.attacker_name, None, True)
        return BattleView(b.controller, b.attacker_name, self.describe(b.target), False)

    def stack(self) -> tuple[StackEntry, ...]:
        out = []
        for i, (it, card) in enumerate(self.e.stack()):
            if card is None or card.name == "?":
                out.append(StackEntry(i, it.controller, None, it.kind, True, ()))
                continue
            targets = tuple(Target(name.split(":")[-1], tuple(self.describe(t) for t in ids))
                            for name, ids in it.targets.items())  # "0:t": ability 0's t
            face = CardFace(f"stack{i}", card.name, card.type.value, card.cost_text(),
                            card.resource.value, tuple(card.subtypes), card.text,
                            power=card.power, health=card.health, printed_power=card.power,
                            printed_health=card.health, keywords=tuple(sorted(card.keywords)),
                            face_down=it.face_down, controller=it.controller)
            out.append(StackEntry(i, it.controller, it.source_name, it.kind, it.face_down,
                                  targets, face))
        return tuple(out)

    def describe(self, oid: int) -> str:
        """A target: its place and name (``B.f0 Squire``), or a stack item (``stack1 Bolt``)."""
        if oid < 0:
            for i, (it, card) in enumerate(self.e.stack()):
                if it.sid == -oid:
                    hidden = card is None or card.name == "?"
                    return f"stack{i} {'face-down card' if hidden else it.source_name}"
            return "an item no longer on the stack"
        zone = self.pub.zone(oid)
        if zone is None:
            return "?"
        place = self.pub.place(oid)
        if zone == "host":
            return place
        o = self.e.obj(oid)
        return f"{place} {'face-down card' if o is None else o.name}"


def names(cards: Sequence[CardFace]) -> str:
    """``Squire, Ogre`` or ``-``."""
    return ", ".join(c.name or "?" for c in cards) if cards else "-"
