"""PlayerView: everything one player may see and nothing else (6, 41, A09, A13), and
``determinize``: a full game consistent with a view (for search agents).

A view is a redacted copy of the game state: every card the viewer may not see is replaced by
an unknown placeholder; the random generator is removed; the event log is cut to what the
viewer saw; the other player's pending choices show only their kind.
Hidden: both decks (4.1.1), the opponent's hand (4.3.1), the opponent's face-down cards (6.2),
the opponent's damage zone (2.1.1, A09), the opponent's Host before the game starts (A13).

A hidden card in a closed or semi-open zone (a deck, the opponent's hand or damage zone) also
carries no object id that could follow it: each view gives those cards fresh ids of its own,
in an order that says nothing about them. A card put from the hand into the damage zone
becomes a new object there (36.2) and the opponent does not see which card it was (2.1.1): with
stable ids it could tell which of the hand's cards left, and so follow a card it once saw
revealed. A face-down card in a slot or on the stack keeps its id: where it lies is public,
and it got that id when it entered, in public (36.2).

``PlayerView``'s public API (properties and methods without a leading underscore) returns
public facts, the viewer's own cards and redacted copies only, never the real game state:
agents receive nothing else.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Final

from .actions import Decision, DecisionKind, Place, Resume
from .announce import Announce
from .carddef import CardDef, CardType
from .config import RuleConfig
from .damage import HostPoint
from .events import Event
from .kinds import EndReason, Phase, PhaseStep, Zone
from .legal import priority_actions
from .places import resolve_place, resolve_ref
from .primitives import LookOrder
from .resolution import ItemWork
from .state import Battle, GameState, HiddenCache, Obj, PendingTrigger, StackItem
from .stats import has_keyword, host_health, host_soul, keywords, stat
from .tasks import Task

UNKNOWN: Final = CardDef(name="?", type=CardType.ENTITY)
UNKNOWN_AMBUSH: Final = CardDef(name="?", type=CardType.AMBUSH)
UNKNOWN_HOST: Final = CardDef(name="?", type=CardType.HOST)
_SECRET_ZONES: Final = frozenset((Zone.BACK, Zone.MARKER, Zone.STACK))
_OPEN_ZONES: Final = frozenset((Zone.FRONT, Zone.FORM, Zone.DROP, Zone.BANISHED))


def hidden_ids(s: GameState, viewer: int) -> frozenset[int]:
    """Object ids whose identity ``viewer`` may not see (cached per state version and the cards
    shown to the viewer by its own decision; every move, creation or flip bumps the version)."""
    shown = _shown(s, viewer)
    key = (s.version, s.started)
    cache = s.hidden_cache
    if cache is None or cache.key != key:
        cache = HiddenCache(key)
        s.hidden_cache = cache
    hit = cache.by_player.get(viewer)
    if hit is None or hit[0] != shown:
        hit = cache.by_player[viewer] = (shown, frozenset(_hidden_ids(s, viewer)))
    return hit[1]


def _face_down_hidden(o: Obj, viewer: int) -> bool:
    """6.2: a face-down card in a backrow, as a marker or on the stack is hidden from all but
    its controller."""
    return o.face_down and o.controller != viewer and o.zone in _SECRET_ZONES


def _shown(s: GameState, viewer: int) -> tuple[int, ...]:
    """Cards the viewer's own decision shows it: looked at (41.2.1), or the whole deck it is
    searching (41.3.1, 41.3.2)."""
    d = s.decision
    if d is None or d.player != viewer:
        return ()
    return d.cards + d.seen if d.seen else d.cards


def _hidden_ids(s: GameState, viewer: int) -> list[int]:
    """Zones are open, semi-open or closed (6.1). Open ones (6.1.1, 6.1.1.1), such as the
    banished zone (4.9.1), hide nothing; semi-open ones (6.1.2, 6.1.2.1), such as a hand, are
    hidden from the opponent; closed ones (6.1.3, 6.1.3.1), the decks, from both. The damage
    zone (4.8.1) is hidden from the opponent (A09); a Host is hidden until the game begins
    (4.6.1)."""
    out: list[int] = []
    me = s.players[viewer]
    opp = s.players[1 - viewer]
    out += me.deck + opp.deck + opp.hand + opp.damage
    if not s.started:
        out.append(opp.host)
    for o in s.objs.values():
        if _face_down_hidden(o, viewer):
            out.append(o.id)
    shown = set(_shown(s, viewer))
    if shown:
        out = [o for o in out if o not in shown]
    return out


class PlayerView:
    """What ``player`` may see. Queries read the game without copying and return public facts,
    the viewer's own cards, or redacted copies; ``state`` is a full redacted copy (built on
    first use) for search agents and renderers. Nothing public returns the real game state."""

    def __init__(self, state: GameState, player: int) -> None:
        self._s = state
        self.player = player
        self._hidden: frozenset[int] | None = None
        self._state: GameState | None = None

    # ------------------------------------------------------------ the redacted copy
    @property
    def _hidden_set(self) -> frozenset[int]:
        """Ids of the real objects whose identity the viewer may not see (private: the real
        ids of hidden cards would let an agent follow them)."""
        if self._hidden is None:
            self._hidden = hidden_ids(self._s, self.player)
        return self._hidden

    @property
    def state(self) -> GameState:
        """A redacted copy of the whole game (see the module docstring)."""
        if self._state is None:
            self._state = _redacted(self._s, self.player, self._hidden_set)
        return self._state

    @property
    def events(self) -> list[Event]:
        """The event log as this player saw it: each event ``redact``-ed for the viewer
        (docs/engine.md "Events"); ``str(e)`` is its text."""
        return redacted_events(self._s.events, self.player)

    def events_from(self, start: int) -> list[Event]:
        """``events[start:]`` without redacting the events before ``start``: for a reader that
        keeps its place in the log (the log only grows during a game)."""
        return redacted_events(self._s.events[start:], self.player)

    # ------------------------------------------------------------ public scalars
    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def turn(self) -> int:
        return self._s.turn

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def step(self) -> PhaseStep:
        return self._s.step

    @property
    def turn_player(self) -> int:
        return self._s.tp

    @property
    def first_player(self) -> int:
        return self._s.first_player

    @property
    def started(self) -> bool:
        """Whether the Hosts were flipped and the game began (9.1.8)."""
        return self._s.started

    @property
    def over(self) -> bool:
        return self._s.over

    @property
    def winner(self) -> int | None:
        return self._s.winner

    @property
    def reason(self) -> EndReason:
        return self._s.reason

    @property
    def config(self) -> RuleConfig:
        return self._s.config

    @property
    def deciding(self) -> int | None:
        """Who decides now (public: the other player's decision shows its kind only)."""
        d = self._s.decision
        return None if d is None or self._s.over else d.player

    @property
    def decision_kind(self) -> DecisionKind | None:
        d = self._s.decision
        return None if d is None or self._s.over else d.kind

    @property
    def stack_size(self) -> int:
        return len(self._s.stack)

    @property
    def battle(self) -> Battle | None:
        """A copy of the battle under way (25): attacker, its controller, the target."""
        b = self._s.battle
        if b is None:
            return None
        return b.clone()

    @property
    def changes(self) -> tuple[int, int, int, int]:
        """Counters that move whenever public things change, for caches: objects made, moved
        or flipped (``version``), in play or as a Host (``board``), stat modifications
        (``modv``), damage on Entities (``dmg``). Every move of a card is public, hidden
        ones included (a draw, Host damage); only what the card is may be hidden."""
        s = self._s
        return (s.version, s.board, s.modv, s.dmg)

    @property
    def game_key(self) -> object:
        """An opaque token, the same for every view of one game state object and different
        for any other (copies included): for caches that must start again on a new game."""
        return self._s.ident

    # ------------------------------------------------------------ public objects
    def public(self, oid: int) -> Obj | None:
        """The object if it exists and its identity is visible to the viewer, else None."""
        o = self._s.objs.get(oid)
        return None if o is None or self._is_hidden(o) else o

    def _is_hidden(self, o: Obj) -> bool:
        """Whether ``o`` is hidden from the viewer, asked of its zone first (cheaper in play)."""
        z = o.zone
        if z in _OPEN_ZONES:
            return False
        if z in _SECRET_ZONES:
            return _face_down_hidden(o, self.player) and o.id not in _shown(self._s, self.player)
        if z is Zone.HOST:
            return not self._s.started and o.owner != self.player
        return o.id in self._hidden_set

    def _subject_hidden(self, sid: int | None) -> bool:
        o = self._s.objs.get(sid) if sid is not None else None
        return o is not None and self._is_hidden(o)

    def at(self, place: Place | str) -> Obj | None:
        """The object at a board place (an action's ``Place``, or its text: ``B.f0``,
        ``A.host``) if the viewer may see it; None for an empty or hidden place and for a stack
        item."""
        oid = resolve_place(self._s, place) if isinstance(place, str) else resolve_ref(self._s, place)
        return None if oid is None or oid < 0 else self.public(oid)

    def hand(self) -> list[Obj]:
        return [self._s.objs[o] for o in self._s.players[self.player].hand]

    def count(self, p: int, zone: str) -> int:
        """How many cards p has in an owner zone (deck, hand, drop, damage, banished) or in
        the Form zone (forms), or how many slots a row has (front, back); public (6)."""
        pl = self._s.players[p]
        if zone == "forms":
            return len(pl.forms)
        if zone == "front" or zone == "back":
            return len(pl.front if zone == "front" else pl.back)
        box = pl.owner_zone(Zone(zone))
        if box is None:
            raise ValueError(f"count: {zone!r} is not a zone that holds a list of cards")
        return len(box)

    def zone_sizes(self, p: int) -> tuple[int, int, int, int, int, int]:
        """How many cards p has in its damage zone, hand, deck, drop zone, banished zone and
        Form zone (public counts, 6.1)."""
        pl = self._s.players[p]
        return (len(pl.damage), len(pl.hand), len(pl.deck), len(pl.drop), len(pl.banished), len(pl.forms))

    def row(self, p: int, row: str) -> list[Obj | None | str]:
        """Slots of a row; an opponent's face-down card is the string ``"face-down"`` (6.2).
        Only a face-down object can be hidden in a slot, so the rule is asked of each object
        (as ``_hidden_ids`` does) instead of building the whole hidden set."""
        out: list[Obj | None | str] = []
        s = self._s
        objs = s.objs
        pl = s.players[p]
        for oid in (pl.front if row == "front" else pl.back):
            if oid is None:
                out.append(None)
                continue
            o = objs[oid]
            if _face_down_hidden(o, self.player) and oid not in _shown(s, self.player):
                out.append("face-down")
            else:
                out.append(o)
        return out

    def forms(self, p: int) -> list[Obj]:
        return [self._s.objs[o] for o in self._s.players[p].forms]

    def markers(self, o: Obj) -> list[Obj | str]:
        """The markers of a visible object; a face-down one of the opponent is ``"face-down"``."""
        return [m if (m := self.public(oid)) is not None else "face-down" for oid in o.markers]

    def host(self, p: int) -> Obj | None:
        """A Host is hidden from the opponent until the game begins (4.6.1, A13)."""
        s = self._s
        if s.started or p == self.player:
            return s.objs[s.players[p].host]
        return None

    def damage_zone(self, p: int) -> list[Obj] | None:
        if p != self.player:
            return None
        return [self._s.objs[o] for o in self._s.players[p].damage]

    def drop(self, p: int) -> list[Obj]:
        return [self._s.objs[o] for o in self._s.players[p].drop]

    def banished(self, p: int) -> list[Obj]:
        return [self._s.objs[o] for o in self._s.players[p].banished]

    def pool(self, p: int) -> dict[str, int]:
        return dict(self._s.players[p].pool)

    def ap(self, p: int) -> int:
        return self._s.players[p].ap

    # ------------------------------------------------------------ stats of visible objects
    def stat(self, o: Obj, which: str) -> int:
        """The current health, power or soul of a visible Entity or Host (26, 20.1)."""
        return stat(self._s, self._visible(o), which)

    def health(self, o: Obj) -> int:
        return stat(self._s, self._visible(o), "health")

    def power(self, o: Obj) -> int:
        return stat(self._s, self._visible(o), "power")

    def keywords(self, o: Obj) -> frozenset[str]:
        return keywords(self._s, self._visible(o))

    def has_keyword(self, o: Obj, kw: str) -> bool:
        return has_keyword(self._s, self._visible(o), kw)

    def host_health(self, p: int) -> int:
        return host_health(self._s, p) if self.host(p) is not None else 0

    def host_soul(self, p: int) -> int:
        return host_soul(self._s, p) if self.host(p) is not None else 0

    def _visible(self, o: Obj) -> Obj:
        """Only real objects the viewer may see are asked about (a redacted copy's placeholder
        would read the real card's cached stats)."""
        if self._s.objs.get(o.id) is not o or self._is_hidden(o):
            raise ValueError(f"object {o.id} is not an object {'AB'[self.player]} may see")
        return o

    # ------------------------------------------------------------ stack, decisions
    def stack(self) -> list[tuple[StackItem, CardDef | None]]:
        """Stack items bottom first, with the source card if visible (None if face down). A
        face-down item of the opponent is a redacted copy."""
        out: list[tuple[StackItem, CardDef | None]] = []
        for it in self._s.stack:
            if it.face_down and it.controller != self.player:
                out.append((_redacted_item(it), None))
            elif self._subject_hidden(it.subject):
                out.append((_scrubbed(it), it.card))
            else:
                out.append((it, it.card))
        return out

    def decision(self) -> Decision | None:
        """The viewer's own decision (less the other player's hidden choices and the ids of
        hidden subjects in its task), or the other player's kind only."""
        d = self._s.decision
        if d is None or self._s.over:
            return None
        if d.player != self.player:
            return _redact_decision(d, self.player)
        d = _own_decision(d, self.player)
        if d.task is not None and any(self._subject_hidden(x.subject) for x in _task_subjects(d.task)):
            d = d.clone()
            assert d.task is not None
            _rename_subjects(d.task, self._forget)
        return d

    def _forget(self, sid: int | None, name: str) -> tuple[int | None, str]:
        """A hidden subject's id and name forgotten (its id would follow the card)."""
        if self._subject_hidden(sid):
            return None, ("?" if name else "")
        return sid, name

    def my_pending(self) -> list[PendingTrigger]:
        return [_scrubbed_trigger(t) if self._subject_hidden(t.subject) else t
                for t in self._s.pending if t.controller == self.player]

    def choice_cards(self) -> list[Obj]:
        """Cards shown to the deciding player alone, e.g. the deck being searched (41.3.1)."""
        d = self._s.decision
        if d is None or d.player != self.player:
            return []
        return [self._s.objs[o] for o in d.cards if o in self._s.objs]

    def hand_names(self, p: int) -> list[str] | None:
        if p != self.player:
            return None
        return [o.name for o in self.hand()]

    def card_names(self) -> list[str]:
        """Every card name that appears anywhere in the redacted state (for leak tests)."""
        st = self.state
        return ([o.name for o in st.objs.values()] + [it.source_name for it in st.stack]
                + [it.subject_name for it in st.stack] + [t.subject_name for t in st.pending]
                + [op[4] for op in st.ambush_ops])


def _redacted_item(it: StackItem) -> StackItem:
    out = _scrubbed(it) if it.subject is not None else it.clone()
    out.card = UNKNOWN_AMBUSH
    out.source_name = "?"
    return out


def _scrubbed(it: StackItem) -> StackItem:
    """A copy of a stack item that forgets its hidden subject (its id would follow the card)."""
    out = it.clone()
    out.subject = None
    out.subject_name = "?" if it.subject_name else ""
    return out


def _trigger_with(t: PendingTrigger, sid: int | None, name: str) -> PendingTrigger:
    """A copy of a pending trigger with another subject (triggers are shared, never changed)."""
    return PendingTrigger(t.controller, t.source, t.card, t.ability, t.kind, sid, name, t.targets,
                          t.hold, t.seq)


def _scrubbed_trigger(t: PendingTrigger) -> PendingTrigger:
    return _trigger_with(t, None, "?" if t.subject_name else "")


def _task_subjects(t: Task) -> list[StackItem | PendingTrigger]:
    """The stack item or trigger a task works on, whose subject may be hidden."""
    if isinstance(t, ItemWork):
        return [t.item]
    if isinstance(t, Announce) and t.trig is not None:
        return [t.trig]
    return []


def _rename_subjects(t: Task, rename: Callable[[int | None, str], tuple[int | None, str]]) -> None:
    """Give the stack item or trigger of ``t`` (a copy: changed in place) the subject
    ``rename`` returns for its own."""
    if isinstance(t, ItemWork):
        it = t.item
        it.subject, it.subject_name = rename(it.subject, it.subject_name)
    elif isinstance(t, Announce) and t.trig is not None:
        sid, name = rename(t.trig.subject, t.trig.subject_name)
        if sid != t.trig.subject or name != t.trig.subject_name:
            t.trig = _trigger_with(t.trig, sid, name)


def _redacted(s: GameState, player: int, hidden: frozenset[int]) -> GameState:
    """The redacted copy (see the module docstring): every field checked for what the viewer
    may not see (tests/test_view_hidden.py)."""
    red = s.copy(events=False)
    red.rng = None
    red.rng_shared = False
    red.sim = None
    q = 1 - player
    me, opp = red.players[player], red.players[q]
    # hidden cards of closed and semi-open zones get fresh ids of this view only (36.2, 2.1.1):
    # decks in id order (4.1.1: their order is closed), the opponent's hand and damage zone
    # in place (their order is the order they came in, which the viewer saw happen)
    relabel: dict[int, int] = {}
    nid = s.next_id
    for ids in (sorted(me.deck), sorted(opp.deck), opp.hand, opp.damage):
        for oid in ids:
            if oid in hidden:
                relabel[oid] = nid
                nid += 1
    red.next_id = nid
    objs = red.objs
    for oid, new in relabel.items():
        o = objs.pop(oid)
        objs[new] = Obj(new, _placeholder(o), o.owner, o.controller, o.zone, face_down=o.face_down)
    if relabel:
        for pl in red.players:
            pl.deck = [relabel.get(x, x) for x in pl.deck]
            pl.hand = [relabel.get(x, x) for x in pl.hand]
            pl.damage = [relabel.get(x, x) for x in pl.damage]
    for pl in red.players:  # 4.1.1: the order of a deck is closed to both players
        pl.deck.sort()
    for oid in hidden:  # face-down cards in slots, as markers, on the stack; a Host before 9.1.8
        if oid not in relabel:
            o = objs[oid]
            o.card = _placeholder(o)
            o.mods = ()

    def subject(sid: int | None, name: str) -> tuple[int | None, str]:
        if sid is None or sid not in hidden:
            return sid, name
        return relabel.get(sid, sid), ("?" if name else name)

    for item in red.stack:
        if item.face_down and item.controller != player:
            item.card = UNKNOWN_AMBUSH
            item.source_name = "?"
        item.subject, item.subject_name = subject(item.subject, item.subject_name)
    pending = []
    for t in red.pending:  # shared with the real state: copied before any change
        sid, name = subject(t.subject, t.subject_name)
        if (sid, name) != (t.subject, t.subject_name):
            t = _trigger_with(t, sid, name)
        pending.append(t)
    red.pending = pending
    red.ambush_ops = [(c, o, i, *subject(sid, name)) for c, o, i, sid, name in red.ambush_ops if c == player]
    d = red.decision  # a copy already
    if d is not None and d.player == player:
        red.decision = d = _own_decision(d, player, relabel)
        for task in [d.task, *red.tasks] if d.task is not None else red.tasks:  # copies
            _rename_subjects(task, subject)
    else:
        red.decision = _redact_decision(d, player)
        red.tasks = []
    if not s.config.public_decklists:
        opp.decklist = []
    return red


def _placeholder(o: Obj) -> CardDef:
    if o.zone is Zone.HOST:
        return UNKNOWN_HOST
    if o.face_down and (o.zone is Zone.BACK or o.zone is Zone.STACK):
        return UNKNOWN_AMBUSH
    return UNKNOWN


def _redact_decision(d: Decision | None, viewer: int) -> Decision | None:
    """The other player's decision: its player and kind only."""
    if d is None:
        return None
    if d.player == viewer:
        return d.clone()
    return Decision(d.player, d.kind, (), "", Resume.PRIORITY, None, ())


def _own_decision(d: Decision, viewer: int, relabel: dict[int, int] | None = None) -> Decision:
    """The viewer's own decision, less what its task data holds of the other player's hidden
    choices: when both Hosts take damage at once (2.1, A04), the card the other player
    already chose for its damage zone; the look-at-the-top cards already put back are given
    this view's ids (``relabel``). The real decision when nothing needs changing."""
    task = d.task
    if isinstance(task, HostPoint):
        if any(p != viewer for p in task.chosen):
            out = d.clone()
            assert isinstance(out.task, HostPoint)
            out.task.chosen = {p: c for p, c in task.chosen.items() if p == viewer}
            return out
    elif isinstance(task, LookOrder) and relabel:
        if any(x in relabel for x in task.done):
            out = d.clone()
            assert isinstance(out.task, LookOrder)
            out.task.done = [relabel.get(x, x) for x in task.done]
            return out
    return d


def determinize(view: PlayerView, rng: random.Random, opponent_cards: list[str] | None = None,
                registry: dict[str, CardDef] | None = None) -> GameState:
    """Sample a full state consistent with ``view`` (hidden cards drawn without replacement
    from what remains of each decklist; the opponent's list is ``opponent_cards``, the public
    decklist, or a uniform draw from the registry's playable cards)."""
    s = view.state.copy(events=False)
    reg = registry if registry is not None else s.registry
    s.rng = random.Random(rng.getrandbits(64))
    s.rng_shared = False
    s.events = []
    for p in (0, 1):
        pl = s.players[p]
        unknown = [o for o in s.objs.values() if o.owner == p and o.card.name == "?"]
        if not unknown:
            continue
        known = Counter(o.card.name for o in s.objs.values() if o.owner == p and o.card.name != "?"
                        and not o.token and o.card.type is not CardType.HOST)
        if p == view.player or pl.decklist:
            pool = Counter(pl.decklist) - known
        elif opponent_cards is not None:
            pool = Counter(opponent_cards) - known
        else:
            pool = Counter()
        bag = list(pool.elements())
        rng.shuffle(bag)
        fallback, hosts, ambushes = _fallbacks(reg)
        for o in sorted(unknown, key=lambda x: (x.card.type is not CardType.AMBUSH, x.id)):
            o.card = _draw_card(o, bag, fallback, hosts, ambushes, reg, rng)
    for item in s.stack:  # a face-down card being laid: the item shows the sampled card
        if item.card.name == "?" and item.obj is not None and item.obj in s.objs:
            item.card = s.objs[item.obj].card
            item.source_name = item.card.name
    d = s.decision
    if d is not None and not d.actions and d.kind is DecisionKind.PRIORITY:
        d.actions = tuple(priority_actions(s, d.player))
        d.resume = Resume.PRIORITY
    return s


_FALLBACKS: dict[int, tuple[dict[str, CardDef], int, list[CardDef], list[CardDef], list[CardDef]]] = {}
_FALLBACKS_MAX = 8  # every game has its own registry dict: a cache without a bound holds them all


def _fallbacks(reg: dict[str, CardDef]) -> tuple[list[CardDef], list[CardDef], list[CardDef]]:
    """Playable cards, Hosts and Ambushes of a registry (cached per registry and size)."""
    hit = _FALLBACKS.get(id(reg))
    if hit is None or hit[0] is not reg or hit[1] != len(reg):
        fallback = [c for c in reg.values() if c.type not in (CardType.HOST, CardType.TOKEN)]
        hosts = [c for c in reg.values() if c.type is CardType.HOST]
        ambushes = [c for c in fallback if c.type is CardType.AMBUSH] or fallback
        if len(_FALLBACKS) >= _FALLBACKS_MAX:
            _FALLBACKS.clear()
        hit = _FALLBACKS[id(reg)] = (reg, len(reg), fallback, hosts, ambushes)
    return hit[2], hit[3], hit[4]


def _draw_card(o: Obj, bag: list[str], fallback: list[CardDef], hosts: list[CardDef],
               ambushes: list[CardDef], reg: dict[str, CardDef], rng: random.Random) -> CardDef:
    if o.card.type is CardType.HOST:
        return rng.choice(hosts)
    want_ambush = o.card.type is CardType.AMBUSH
    for i, name in enumerate(bag):
        card = reg.get(name)
        if card is not None and (not want_ambush or card.type is CardType.AMBUSH):
            bag.pop(i)
            return card
    return rng.choice(ambushes if want_ambush else fallback)


def redacted_events(events: list[Event], viewer: int | None) -> list[Event]:
    """``events`` as ``viewer`` saw them (``None``: all of them, unredacted)."""
    return [e.redact(viewer) for e in events]
