"""Game state as plain data: objects, players, the stack, battle, pending work.

Rules live in the other modules; this one only holds the data: the state is plain data.
Zones (4): deck, hand, drop, damage, banished, front, back, host, form, stack, marker.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from .actions import Decision
from .carddef import CardDef, CardType
from .config import RuleConfig
from .events import Event

IN_PLAY_ZONES = ("front", "back", "form", "marker")  # 5.1


@dataclass
class Mod:
    """A stat change given to one object by an effect (18.6, 20.1): add, set, or grant."""

    kind: str  # add | set | grant
    stat: str  # health | power | soul | keyword name for grants
    value: int
    ts: int
    until_eot: bool = False


_new_obj = object.__new__


@dataclass
class Obj:
    """One card (or token, or Host) in one zone. A zone change makes a new Obj (36.2).

    ``owner`` is whom the card belonged to when the game began (37.1), ``controller`` who has
    it in play now (37.2). A marker (24.1) is attached to ``attached_to``; a card lists its
    ``markers``.
    """

    id: int
    card: CardDef
    owner: int
    controller: int
    zone: str
    slot: int = -1
    face_down: bool = False
    damage: int = 0
    sick: bool = False
    attacked: bool = False
    token: bool = False
    ts: int = 0
    mods: list[Mod] = field(default_factory=list)
    markers: list[int] = field(default_factory=list)
    attached_to: int | None = None
    used_s: list[int] = field(default_factory=list)  # abilities whose Ⓢ was used this turn
    used_during: dict[int, tuple[int, str]] = field(default_factory=dict)
    lethal: tuple[int | None, str, str] | None = None  # (source obj id, source name, kind)
    effects_left: int = 0  # a cast Sorcery's effects still to leave the stack (A40)

    @property
    def name(self) -> str:
        return self.card.name

    def clone(self) -> Obj:
        """A copy with its own lists (stat mods are never changed in place, so shared).
        Built from the attribute dict: the same result as copy.copy, several times faster
        (clone() and search agents copy every object)."""
        o = _new_obj(Obj)
        d = self.__dict__.copy()
        d["mods"] = list(self.mods)
        d["markers"] = list(self.markers)
        d["used_s"] = list(self.used_s)
        d["used_during"] = dict(self.used_during)
        o.__dict__ = d
        return o

    @property
    def is_entity(self) -> bool:
        return self.card.type in (CardType.ENTITY, CardType.TOKEN)


@dataclass
class Player:
    """One player's zones and counters; ``ap`` is their action points, # (11.1)."""

    idx: int
    host: int = 0
    deck: list[int] = field(default_factory=list)  # index 0 = top
    hand: list[int] = field(default_factory=list)
    drop: list[int] = field(default_factory=list)
    damage: list[int] = field(default_factory=list)  # index 0 = bottom, last = top (2.1.2)
    banished: list[int] = field(default_factory=list)
    forms: list[int] = field(default_factory=list)
    front: list[int | None] = field(default_factory=list)
    back: list[int | None] = field(default_factory=list)
    pool: dict[str, int] = field(default_factory=dict)
    ap: int = 0
    hit_empty: bool = False  # took Host damage with an empty hand (1.1.3)
    decklist: list[str] = field(default_factory=list)
    mulliganed: bool = False

    def clone(self) -> Player:
        p = copy.copy(self)
        for name in ("deck", "hand", "drop", "damage", "banished", "forms", "front", "back", "decklist"):
            setattr(p, name, list(getattr(self, name)))
        p.pool = dict(self.pool)
        return p


@dataclass
class StackItem:
    """An item on the stack (32): a card being played, or an effect."""

    sid: int
    kind: str  # card | ability | trigger | spell | ambush | during
    controller: int
    source: int | None  # object id of the source when the item was made
    source_name: str
    card: CardDef
    ability: int = -1
    targets: dict[str, list[int]] = field(default_factory=dict)  # obj ids; stack items as -sid
    obj: int | None = None  # the card object on the stack (kind == card)
    subject: int | None = None  # "event.subject" of a trigger
    subject_name: str = ""
    in_response_to: int | None = None
    face_down: bool = False

    def clone(self) -> StackItem:
        it = copy.copy(self)
        it.targets = {k: list(v) for k, v in self.targets.items()}
        return it

    @property
    def ability_def(self) -> Any:
        return self.card.abilities[self.ability] if self.ability >= 0 else None


@dataclass
class PendingTrigger:
    """A triggered effect waiting for the next trigger window (28.5, A26)."""

    controller: int
    source: int | None
    card: CardDef
    ability: int
    kind: str = "trigger"  # trigger | spell
    subject: int | None = None
    subject_name: str = ""
    targets: dict[str, list[int]] | None = None  # preset (a Sorcery's effects, 21.2)
    hold: bool = False  # waits for an empty stack (A50: start-of-phase triggers go first)
    seq: int = 0


@dataclass
class Battle:
    attacker: int
    attacker_name: str
    controller: int
    target: int | None = None  # obj id of the blocking Entity or the defending Host
    target_is_host: bool = False
    dealt: list[int] = field(default_factory=list)  # participants that dealt combat damage (A34)


@dataclass
class GameState:
    """The whole game. ``stack`` holds the cards and effects played or activated/triggered
    in response to each other, bottom first (32.2)."""

    config: RuleConfig
    registry: dict[str, CardDef]
    rng: random.Random
    players: list[Player] = field(default_factory=list)
    objs: dict[int, Obj] = field(default_factory=dict)
    next_id: int = 1
    next_sid: int = 1
    ts: int = 0
    turn: int = 0
    tp: int = 0
    first_player: int = 0
    phase: str = "setup"
    step: str = ""
    priority: int = 0
    passes: int = 0
    quiet: bool = False  # the last action was a first pass: nothing else changed (see Game._run)
    started: bool = False  # Hosts flipped (9.1.8)
    stack: list[StackItem] = field(default_factory=list)
    pending: list[PendingTrigger] = field(default_factory=list)
    ambush_ops: list[tuple[int, int, int, int | None, str]] = field(default_factory=list)
    window_done: list[bool] = field(default_factory=lambda: [False, False])
    window_active: bool = False
    window_base: int | None = None
    tasks: list[tuple[str, dict]] = field(default_factory=list)
    decision: Decision | None = None
    battle: Battle | None = None
    over: bool = False
    winner: int | None = None
    reason: str = ""
    truncated: bool = False
    events: list[Event] = field(default_factory=list)
    resolving: int = 0  # depth of effect resolution (34.4: triggers wait)
    decisions_this_turn: int = 0
    decisions_total: int = 0
    trigger_seq: int = 0
    version: int = 0  # bumped whenever an object is made, removed or turned face up
    board: int = 0  # bumped when an object enters, leaves, moves in or turns face up in play or as a Host
    modv: int = 0  # bumped when stat or keyword modifications are added or expire
    ability_cache: Any = None  # (board, abilities by kind), see stats.active_abilities
    stat_cache: Any = None  # ((board, modv), {(obj id, stat): value}), see stats.stat
    hidden_cache: Any = None  # ((version, started), {player: hidden ids}), see view.hidden_ids
    loss_stamp: Any = None  # (version, ts) at the last loss check
    dmg: int = 0  # bumped whenever damage on an Entity changes
    settled: Any = None  # (version, ts, dmg) when the game actions last found nothing to do
    sim: list[Any] | None = None  # set inside a loop-detection simulation (42.1)
    revealed: dict[int, list[int]] = field(default_factory=dict)  # viewer -> obj ids shown (41)

    def copy(self, events: bool = True) -> GameState:
        """A copy for clone() and simulations: mutable parts copied, immutable parts (cards,
        config, registry, stat mods, past events) shared. Much cheaper than deepcopy."""
        import copy as _copy
        import random as _random

        new = _copy.copy(self)
        new.players = [p.clone() for p in self.players]
        new.objs = {k: o.clone() for k, o in self.objs.items()}
        new.stack = [it.clone() for it in self.stack]
        new.pending = list(self.pending)
        new.ambush_ops = list(self.ambush_ops)
        new.window_done = list(self.window_done)
        new.tasks = _copy.deepcopy(self.tasks)
        new.decision = _copy.deepcopy(self.decision)
        if self.battle is not None:
            new.battle = _copy.copy(self.battle)
            new.battle.dealt = list(self.battle.dealt)
        new.events = list(self.events) if events else []
        if self.rng is not None:  # a redacted view has none
            new.rng = _random.Random()
            new.rng.setstate(self.rng.getstate())
        new.revealed = {k: list(v) for k, v in self.revealed.items()}
        new.sim = None if self.sim is None else [self.sim[0], list(self.sim[1])]
        new.ability_cache = new.stat_cache = new.hidden_cache = None
        return new

    def obj(self, oid: int) -> Obj:
        return self.objs[oid]

    def opp(self, p: int) -> int:
        return 1 - p
