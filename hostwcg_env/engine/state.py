"""Game state as plain data: objects, players, the stack, battle, pending work.

Rules live in the other modules; this one only holds the data. Every mutable part has an
explicit ``clone``/``copy``: a game is cloned at any decision (search agents, loop detection)
and compiled classes are copied fastest by hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from .actions import Decision
from .carddef import Ability, CardDef, CardType
from .config import RuleConfig
from .events import Event
from .kinds import EndReason, ItemKind, ModKind, Phase, PhaseStep, Zone
from .tasks import Task

IN_PLAY_ZONES: Final = frozenset((Zone.FRONT, Zone.BACK, Zone.FORM, Zone.MARKER))  # 5.1
BOARD_ZONES: Final = IN_PLAY_ZONES | {Zone.HOST}  # what ``GameState.board`` counts changes of


# The classes below are dataclasses for their repr and equality, with a hand-written
# __init__: compiled, it is several times faster than the generated one.


@dataclass(init=False)
class Mod:
    """A stat change given to one object by an effect (18.6, 20.1): add, set, or grant.
    Never changed once made, so copies of an object share them."""

    kind: ModKind
    stat: str  # health | power | soul, or the keyword name for a grant
    value: int
    ts: int
    until_eot: bool

    def __init__(self, kind: ModKind, stat: str, value: int, ts: int, until_eot: bool = False) -> None:
        self.kind = kind
        self.stat = stat
        self.value = value
        self.ts = ts
        self.until_eot = until_eot


@dataclass(init=False)
class Obj:
    """One card (or token, or Host) in one zone. A zone change makes a new Obj (36.2).

    ``owner`` is whom the card belonged to when the game began (37.1), ``controller`` who has
    it in play now (37.2). A marker (24.1) is attached to ``attached_to``; a card lists its
    ``markers``. ``mods``, ``markers``, ``used_s`` and ``used_during`` are replaced, never
    changed in place, so copies of the object share them.
    """

    id: int
    card: CardDef
    owner: int
    controller: int
    zone: Zone
    slot: int
    face_down: bool
    damage: int
    sick: bool
    attacked: bool
    token: bool
    ts: int
    mods: tuple[Mod, ...]
    markers: tuple[int, ...]
    attached_to: int | None
    used_s: tuple[int, ...]  # abilities whose Ⓢ was used this turn
    used_during: dict[int, tuple[int, str]]  # ability -> (turn, phase)
    lethal: tuple[int | None, str, str] | None  # (source obj id, source name, kind)
    effects_left: int  # a cast Sorcery's effects still to leave the stack (A40)

    def __init__(self, id: int, card: CardDef, owner: int, controller: int, zone: Zone,
                 slot: int = -1, face_down: bool = False, damage: int = 0, sick: bool = False,
                 attacked: bool = False, token: bool = False, ts: int = 0,
                 mods: tuple[Mod, ...] = (), markers: tuple[int, ...] = (),
                 attached_to: int | None = None, used_s: tuple[int, ...] = (),
                 used_during: dict[int, tuple[int, str]] | None = None,
                 lethal: tuple[int | None, str, str] | None = None, effects_left: int = 0) -> None:
        self.id = id
        self.card = card
        self.owner = owner
        self.controller = controller
        self.zone = zone
        self.slot = slot
        self.face_down = face_down
        self.damage = damage
        self.sick = sick
        self.attacked = attacked
        self.token = token
        self.ts = ts
        self.mods = mods
        self.markers = markers
        self.attached_to = attached_to
        self.used_s = used_s
        self.used_during = {} if used_during is None else used_during
        self.lethal = lethal
        self.effects_left = effects_left

    @property
    def name(self) -> str:
        return self.card.name

    def clone(self) -> Obj:
        """A copy (what it holds is never changed in place, so shared)."""
        return Obj(self.id, self.card, self.owner, self.controller, self.zone, self.slot,
                   self.face_down, self.damage, self.sick, self.attacked, self.token, self.ts,
                   self.mods, self.markers, self.attached_to, self.used_s, self.used_during,
                   self.lethal, self.effects_left)

    @property
    def is_entity(self) -> bool:
        return self.card.type is CardType.ENTITY or self.card.type is CardType.TOKEN


@dataclass(init=False)
class Player:
    """One player's zones and counters; ``ap`` is their action points, # (11.1)."""

    idx: int
    host: int
    deck: list[int]  # index 0 = top
    hand: list[int]
    drop: list[int]
    damage: list[int]  # index 0 = bottom, last = top (2.1.2)
    banished: list[int]
    forms: list[int]
    front: list[int | None]
    back: list[int | None]
    pool: dict[str, int]  # resource symbol -> count
    ap: int
    hit_empty: bool  # took Host damage with an empty hand (1.1.3)
    decklist: list[str]
    mulliganed: bool

    def __init__(self, idx: int, host: int = 0, deck: list[int] | None = None,
                 hand: list[int] | None = None, drop: list[int] | None = None,
                 damage: list[int] | None = None, banished: list[int] | None = None,
                 forms: list[int] | None = None, front: list[int | None] | None = None,
                 back: list[int | None] | None = None, pool: dict[str, int] | None = None,
                 ap: int = 0, hit_empty: bool = False, decklist: list[str] | None = None,
                 mulliganed: bool = False) -> None:
        self.idx = idx
        self.host = host
        self.deck = [] if deck is None else deck
        self.hand = [] if hand is None else hand
        self.drop = [] if drop is None else drop
        self.damage = [] if damage is None else damage
        self.banished = [] if banished is None else banished
        self.forms = [] if forms is None else forms
        self.front = [] if front is None else front
        self.back = [] if back is None else back
        self.pool = {} if pool is None else pool
        self.ap = ap
        self.hit_empty = hit_empty
        self.decklist = [] if decklist is None else decklist
        self.mulliganed = mulliganed

    def clone(self) -> Player:
        """A copy with its own lists (the decklist is never changed once the game is set up,
        so shared)."""
        return Player(self.idx, self.host, list(self.deck), list(self.hand), list(self.drop),
                      list(self.damage), list(self.banished), list(self.forms), list(self.front),
                      list(self.back), dict(self.pool), self.ap, self.hit_empty,
                      self.decklist, self.mulliganed)

    def owner_zone(self, zone: Zone) -> list[int] | None:
        """The list of one of the owner's zones (4): deck, hand, drop, damage, banished."""
        if zone is Zone.HAND:
            return self.hand
        if zone is Zone.DECK:
            return self.deck
        if zone is Zone.DROP:
            return self.drop
        if zone is Zone.DAMAGE:
            return self.damage
        if zone is Zone.BANISHED:
            return self.banished
        return None


@dataclass(init=False)
class StackItem:
    """An item on the stack (32): a card being played, or an effect."""

    sid: int
    kind: ItemKind
    controller: int
    source: int | None  # object id of the source when the item was made
    source_name: str
    card: CardDef
    ability: int
    targets: dict[str, list[int]]  # obj ids; stack items as -sid
    obj: int | None  # the card object on the stack (kind == card)
    subject: int | None  # "event.subject" of a trigger
    subject_name: str
    in_response_to: int | None
    face_down: bool

    def __init__(self, sid: int, kind: ItemKind, controller: int, source: int | None,
                 source_name: str, card: CardDef, ability: int = -1,
                 targets: dict[str, list[int]] | None = None, obj: int | None = None,
                 subject: int | None = None, subject_name: str = "",
                 in_response_to: int | None = None, face_down: bool = False) -> None:
        self.sid = sid
        self.kind = kind
        self.controller = controller
        self.source = source
        self.source_name = source_name
        self.card = card
        self.ability = ability
        self.targets = {} if targets is None else targets
        self.obj = obj
        self.subject = subject
        self.subject_name = subject_name
        self.in_response_to = in_response_to
        self.face_down = face_down

    def clone(self) -> StackItem:
        return StackItem(self.sid, self.kind, self.controller, self.source, self.source_name,
                         self.card, self.ability, {k: list(v) for k, v in self.targets.items()},
                         self.obj, self.subject, self.subject_name, self.in_response_to,
                         self.face_down)

    @property
    def ability_def(self) -> Ability:
        """The ability this effect comes from (not for a card item: it has none)."""
        return self.card.abilities[self.ability]


@dataclass(init=False)
class PendingTrigger:
    """A triggered effect waiting for the next trigger window (28.5, A26). Never changed once
    made, so copies of the game share them."""

    controller: int
    source: int | None
    card: CardDef
    ability: int
    kind: ItemKind  # trigger | spell
    subject: int | None
    subject_name: str
    targets: dict[str, list[int]] | None  # preset (a Sorcery's effects, 21.2)
    hold: bool  # waits for an empty stack (A50: start-of-phase triggers go first)
    seq: int

    def __init__(self, controller: int, source: int | None, card: CardDef, ability: int,
                 kind: ItemKind = ItemKind.TRIGGER, subject: int | None = None,
                 subject_name: str = "", targets: dict[str, list[int]] | None = None,
                 hold: bool = False, seq: int = 0) -> None:
        self.controller = controller
        self.source = source
        self.card = card
        self.ability = ability
        self.kind = kind
        self.subject = subject
        self.subject_name = subject_name
        self.targets = targets
        self.hold = hold
        self.seq = seq


@dataclass(init=False)
class Battle:
    """The battle in progress (25): its attacker and target, and who has dealt damage."""

    attacker: int
    attacker_name: str
    controller: int
    target: int | None  # obj id of the blocking Entity or the defending Host
    target_is_host: bool
    dealt: list[int]  # participants that dealt combat damage (A34)

    def __init__(self, attacker: int, attacker_name: str, controller: int, target: int | None = None,
                 target_is_host: bool = False, dealt: list[int] | None = None) -> None:
        self.attacker = attacker
        self.attacker_name = attacker_name
        self.controller = controller
        self.target = target
        self.target_is_host = target_is_host
        self.dealt = [] if dealt is None else dealt

    def clone(self) -> Battle:
        return Battle(self.attacker, self.attacker_name, self.controller, self.target,
                      self.target_is_host, list(self.dealt))


# ---------------------------------------------------------------------------- caches
# Derived from the state and rebuilt when it changes; a copy starts without them.

Found = tuple[Obj, int, Ability]  # an object, the index of one of its abilities, the ability


class BoardCache:
    """What the abilities in play are, valid while ``GameState.board`` is ``board``
    (stats.py)."""

    def __init__(self, board: int) -> None:
        self.board = board
        self.by_kind: dict[str, list[Found]] = {}
        self.activatable: dict[int, list[Found]] = {}
        self.face_down_ambush: list[Found] | None = None
        self.face_down: list[Obj] | None = None
        self.trigger_events: frozenset[str] | None = None
        self.statics: dict[str, list[tuple[Obj, Ability, int, int | None]]] = {}


class StatCache:
    """Stats and keywords computed, valid while ``(board, modv)`` are unchanged (stats.py)."""

    def __init__(self, board: int, modv: int) -> None:
        self.board = board
        self.modv = modv
        self.values: dict[tuple[int, str], int] = {}
        self.keywords: dict[int, frozenset[str]] = {}


class HiddenCache:
    """The ids each player may not identify, valid while ``key`` is unchanged (view.py)."""

    def __init__(self, key: tuple[int, bool]) -> None:
        self.key = key
        self.by_player: dict[int, tuple[tuple[int, ...], frozenset[int]]] = {}


class LoopProbe:
    """Set inside a loop-detection simulation (42.1): the effect it started from and the
    effects it has resolved since (loops.py)."""

    def __init__(self, first: tuple[object, ...]) -> None:
        self.first = first
        self.seen: list[tuple[object, ...]] = []

    def clone(self) -> LoopProbe:
        p = LoopProbe(self.first)
        p.seen = list(self.seen)
        return p


class StateKey:
    """An opaque token: one per state object, never shared with its copies."""


@dataclass(init=False)
class GameState:
    """The whole game. ``stack`` holds the cards and effects played or activated/triggered
    in response to each other, bottom first (32.2)."""

    config: RuleConfig
    registry: dict[str, CardDef]
    rng: random.Random | None  # None in a player's redacted view; use ``random()``
    rng_shared: bool  # ``rng`` is shared with a copy: copy it before drawing (``random()``)
    players: list[Player]
    objs: dict[int, Obj]
    next_id: int
    next_sid: int
    ts: int
    turn: int
    tp: int
    first_player: int
    phase: Phase
    step: PhaseStep
    priority: int
    passes: int
    quiet: bool  # the last action was a first pass: nothing else changed (core.run)
    started: bool  # Hosts flipped (9.1.8)
    stack: list[StackItem]
    pending: list[PendingTrigger]
    # (controller, face-down card id, ability index, event subject id, subject name) of each
    # event-keyed Ambush whose event happened, offered in the next trigger window (A53)
    ambush_ops: list[tuple[int, int, int, int | None, str]]
    # public: (player, a pool Ambush one of its face-down cards could be, its ability index)
    # for the events of the window that such an Ambush would answer (triggers.window)
    ambush_chances: list[tuple[int, CardDef, int]]
    window_done: list[bool]
    window_active: bool
    window_base: int | None
    window_placed: bool  # a trigger was due or an Ambush activated in this window
    tasks: list[Task]  # pending work, the top runs next
    step_done: bool  # the last step of the resolving effect happened (a step's 'previous' condition)
    decision: Decision | None
    battle: Battle | None
    over: bool
    winner: int | None
    reason: EndReason
    truncated: bool
    events: list[Event]
    decisions_this_turn: int
    decisions_total: int
    trigger_seq: int
    version: int  # bumped whenever an object is made, removed or turned face up
    board: int  # bumped when an object enters, leaves, moves in or turns face up in play or as a Host
    modv: int  # bumped when stat or keyword modifications are added or expire
    dmg: int  # bumped whenever damage on an Entity changes
    loss_stamp: tuple[int, int] | None  # (version, ts) at the last loss check
    settled: tuple[int, int, int] | None  # (version, ts, dmg) when game actions last found nothing
    sim: LoopProbe | None  # set inside a loop-detection simulation (42.1)
    ability_cache: BoardCache | None  # stats.py
    stat_cache: StatCache | None  # stats.py
    hidden_cache: HiddenCache | None  # view.py
    ident: StateKey  # this state object, not its copies (for caches: PlayerView.game_key)

    def __init__(
        self,
        config: RuleConfig,
        registry: dict[str, CardDef],
        rng: random.Random | None,
        rng_shared: bool = False,
        players: list[Player] | None = None,
        objs: dict[int, Obj] | None = None,
        next_id: int = 1,
        next_sid: int = 1,
        ts: int = 0,
        turn: int = 0,
        tp: int = 0,
        first_player: int = 0,
        phase: Phase = Phase.SETUP,
        step: PhaseStep = PhaseStep.NONE,
        priority: int = 0,
        passes: int = 0,
        quiet: bool = False,
        started: bool = False,
        stack: list[StackItem] | None = None,
        pending: list[PendingTrigger] | None = None,
        ambush_ops: list[tuple[int, int, int, int | None, str]] | None = None,
        ambush_chances: list[tuple[int, CardDef, int]] | None = None,
        window_done: list[bool] | None = None,
        window_active: bool = False,
        window_base: int | None = None,
        window_placed: bool = False,
        tasks: list[Task] | None = None,
        step_done: bool = False,
        decision: Decision | None = None,
        battle: Battle | None = None,
        over: bool = False,
        winner: int | None = None,
        reason: EndReason = EndReason.NONE,
        truncated: bool = False,
        events: list[Event] | None = None,
        decisions_this_turn: int = 0,
        decisions_total: int = 0,
        trigger_seq: int = 0,
        version: int = 0,
        board: int = 0,
        modv: int = 0,
        dmg: int = 0,
        loss_stamp: tuple[int, int] | None = None,
        settled: tuple[int, int, int] | None = None,
        sim: LoopProbe | None = None,
        ability_cache: BoardCache | None = None,
        stat_cache: StatCache | None = None,
        hidden_cache: HiddenCache | None = None,
    ) -> None:
        self.config = config
        self.registry = registry
        self.rng = rng
        self.rng_shared = rng_shared
        self.players = [] if players is None else players
        self.objs = {} if objs is None else objs
        self.next_id = next_id
        self.next_sid = next_sid
        self.ts = ts
        self.turn = turn
        self.tp = tp
        self.first_player = first_player
        self.phase = phase
        self.step = step
        self.priority = priority
        self.passes = passes
        self.quiet = quiet
        self.started = started
        self.stack = [] if stack is None else stack
        self.pending = [] if pending is None else pending
        self.ambush_ops = [] if ambush_ops is None else ambush_ops
        self.ambush_chances = [] if ambush_chances is None else ambush_chances
        self.window_done = [False, False] if window_done is None else window_done
        self.window_active = window_active
        self.window_base = window_base
        self.window_placed = window_placed
        self.tasks = [] if tasks is None else tasks
        self.step_done = step_done
        self.decision = decision
        self.battle = battle
        self.over = over
        self.winner = winner
        self.reason = reason
        self.truncated = truncated
        self.events = [] if events is None else events
        self.decisions_this_turn = decisions_this_turn
        self.decisions_total = decisions_total
        self.trigger_seq = trigger_seq
        self.version = version
        self.board = board
        self.modv = modv
        self.dmg = dmg
        self.loss_stamp = loss_stamp
        self.settled = settled
        self.sim = sim
        self.ability_cache = ability_cache
        self.stat_cache = stat_cache
        self.hidden_cache = hidden_cache
        self.ident = StateKey()

    def copy(self, events: bool = True) -> GameState:
        """A copy for clone() and simulations: mutable parts copied, immutable parts (cards,
        config, registry, stat mods, pending triggers, past events) shared; the caches start
        empty."""
        # The random generator is copied on first use, not now (most copies never draw): both
        # games share it until then, as they shared its state at the copy (``random()``).
        self.rng_shared = self.rng is not None
        d = self.decision
        b = self.battle
        sim = self.sim
        return GameState(
            config=self.config, registry=self.registry, rng=self.rng, rng_shared=self.rng_shared,
            players=[p.clone() for p in self.players],
            objs={k: o.clone() for k, o in self.objs.items()},
            next_id=self.next_id, next_sid=self.next_sid, ts=self.ts, turn=self.turn, tp=self.tp,
            first_player=self.first_player, phase=self.phase, step=self.step,
            priority=self.priority, passes=self.passes, quiet=self.quiet, started=self.started,
            stack=[it.clone() for it in self.stack],
            pending=list(self.pending), ambush_ops=list(self.ambush_ops),
            ambush_chances=list(self.ambush_chances), window_done=list(self.window_done),
            window_active=self.window_active, window_base=self.window_base,
            window_placed=self.window_placed,
            tasks=[t.clone() for t in self.tasks], step_done=self.step_done,
            decision=None if d is None else d.clone(),
            battle=None if b is None else b.clone(),
            over=self.over, winner=self.winner, reason=self.reason, truncated=self.truncated,
            events=list(self.events) if events else [],
            decisions_this_turn=self.decisions_this_turn, decisions_total=self.decisions_total,
            trigger_seq=self.trigger_seq, version=self.version, board=self.board, modv=self.modv,
            dmg=self.dmg, loss_stamp=self.loss_stamp, settled=self.settled,
            sim=None if sim is None else sim.clone(),
        )

    def random(self) -> random.Random:
        """The game's random generator, its own: a generator shared with a copy of the game
        is copied first, so that neither game's draws change the other's."""
        rng = self.rng
        if rng is None:
            raise RuntimeError("this state has no random generator (a player's view): "
                               "use view.determinize to sample a game from it")
        if self.rng_shared:
            own = random.Random(0)
            own.setstate(rng.getstate())
            self.rng = rng = own
            self.rng_shared = False
        return rng

    def obj(self, oid: int) -> Obj:
        return self.objs[oid]

    def opp(self, p: int) -> int:
        return 1 - p
