"""PlayerView: everything one player may see and nothing else (6, 41, A09, A13), and
``determinize``: a full game consistent with a view (for search agents).

A view is a redacted copy of the game state: every card the viewer may not see is replaced by
an unknown placeholder with the same object id; the random generator is removed; the event log
is cut to what the viewer saw; the other player's pending choices show only their kind.
Hidden: both decks (4.1.1), the opponent's hand (4.3.1), the opponent's face-down cards (6.2),
the opponent's damage zone (2.1.1, A09), the opponent's Host before the game starts (A13).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from .actions import Decision
from .carddef import CardDef, CardType
from .events import Event
from .state import GameState, Obj

if TYPE_CHECKING:
    from .game import Game

UNKNOWN = CardDef(name="?", type=CardType.ENTITY)
UNKNOWN_AMBUSH = CardDef(name="?", type=CardType.AMBUSH)
UNKNOWN_HOST = CardDef(name="?", type=CardType.HOST)


def hidden_ids(s: GameState, viewer: int) -> frozenset[int]:
    """Object ids whose identity ``viewer`` may not see (cached per state version and the cards
    shown to the viewer by its own decision; every move, creation or flip bumps the version)."""
    shown = _shown(s, viewer)
    key = (s.version, s.started)
    cache = s.hidden_cache
    if cache is None or cache[0] != key:
        cache = (key, {})
        s.hidden_cache = cache
    hit = cache[1].get(viewer)
    if hit is None or hit[0] != shown:
        hit = cache[1][viewer] = (shown, frozenset(_hidden_ids(s, viewer)))
    return hit[1]


def _face_down_hidden(o: Obj, viewer: int) -> bool:
    """6.2: a face-down card in a backrow, as a marker or on the stack is hidden from all but
    its controller."""
    return o.face_down and o.controller != viewer and o.zone in ("back", "marker", "stack")


def _shown(s: GameState, viewer: int) -> tuple[int, ...]:
    """Cards the viewer's own decision shows it: searched or looked at (41.2.1, 41.3.2)."""
    d = s.decision
    return d.cards if d is not None and d.player == viewer else ()


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
    """What ``player`` may see. Queries read the game without copying; ``state`` is a full
    redacted copy (built on first use) for search agents and tests."""

    def __init__(self, state: GameState, player: int) -> None:
        self._s = state
        self.player = player
        self._hidden: frozenset[int] | None = None
        self._state: GameState | None = None

    @classmethod
    def of(cls, game: Game, player: int) -> PlayerView:
        return cls(game.state, player)

    # ------------------------------------------------------------ the redacted copy
    @property
    def hidden(self) -> frozenset[int]:
        if self._hidden is None:
            self._hidden = hidden_ids(self._s, self.player)
        return self._hidden

    @property
    def state(self) -> GameState:
        if self._state is None:
            self._state = _redacted(self._s, self.player, self.hidden)
        return self._state

    @property
    def events(self) -> list[str]:
        return [e.text_for(self.player) for e in self._s.events]

    # ------------------------------------------------------------ fast queries (public parts)
    @property
    def opponent(self) -> int:
        return 1 - self.player

    def public(self, oid: int) -> Obj | None:
        """The object if its identity is visible to the viewer, else None."""
        if oid in self.hidden:
            return None
        return self._s.objs[oid]

    def hand(self) -> list[Obj]:
        return [self._s.objs[o] for o in self._s.players[self.player].hand]

    def count(self, p: int, zone: str) -> int:
        return len(getattr(self._s.players[p], zone))

    def row(self, p: int, row: str) -> list[Obj | None | str]:
        """Slots of a row; an opponent's face-down card is the string ``"face-down"`` (6.2).
        Only a face-down object can be hidden in a slot, so the rule is asked of each object
        (as ``_hidden_ids`` does) instead of building the whole hidden set."""
        out: list[Obj | None | str] = []
        s = self._s
        objs = s.objs
        for oid in getattr(s.players[p], row):
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

    def pool(self, p: int) -> dict[str, int]:
        return dict(self._s.players[p].pool)

    def ap(self, p: int) -> int:
        return self._s.players[p].ap

    def stack(self) -> list[tuple[Any, CardDef | None]]:
        """Stack items bottom first, with the source card if visible (None if face down)."""
        out = []
        for it in self._s.stack:
            hidden = it.face_down and it.controller != self.player
            out.append((it, None if hidden else it.card))
        return out

    def decision(self) -> Decision | None:
        d = self._s.decision
        if d is None or self._s.over:
            return None
        return d if d.player == self.player else _redact_decision(d, self.player)

    def my_pending(self) -> list[Any]:
        return [t for t in self._s.pending if t.controller == self.player]

    def choice_cards(self) -> list[Obj]:
        """Cards shown to the deciding player alone, e.g. the deck being searched (41.3.1)."""
        d = self._s.decision
        if d is None or d.player != self.player:
            return []
        return [self._s.objs[o] for o in d.cards if o in self._s.objs]

    @property
    def game(self) -> GameState:
        """Public scalars only: turn, phase, step, tp, over, winner (do not read hidden parts)."""
        return self._s

    def hand_names(self, p: int) -> list[str] | None:
        if p != self.player:
            return None
        return [o.name for o in self.hand()]

    def card_names(self) -> list[str]:
        """Every card name that appears anywhere in the redacted state (for leak tests)."""
        st = self.state
        return [o.name for o in st.objs.values()] + [it.source_name for it in st.stack]


def _redacted(s: GameState, player: int, hidden: frozenset[int]) -> GameState:
    """The state with every hidden card replaced by a placeholder. Built on ``GameState.copy``
    (every mutable part copied, as for ``Game.clone``; card data, config and registry shared),
    several times cheaper than a deep copy: search agents redact once per choice."""
    red = s.copy(events=False)
    red.rng = None  # type: ignore[assignment]
    red.sim = None
    for oid in hidden:
        o = red.objs[oid]
        o.card = _placeholder(o)
        o.mods = []
    red.decision = _redact_decision(s.decision, player)
    if s.decision is None or s.decision.player != player:
        red.tasks = []
    for item in red.stack:
        if item.face_down and item.controller != player:
            item.card = UNKNOWN_AMBUSH
            item.source_name = "?"
    red.ambush_ops = [op for op in red.ambush_ops if op[0] == player]
    for pl in red.players:  # 4.1.1: the order of a deck is closed to both players
        pl.deck.sort()
    if not s.config.public_decklists:
        red.players[1 - player].decklist = []
    return red


def _placeholder(o: Obj) -> CardDef:
    if o.zone == "host":
        return UNKNOWN_HOST
    if o.face_down and o.zone in ("back", "stack"):
        return UNKNOWN_AMBUSH
    return UNKNOWN


def _redact_decision(d: Decision | None, viewer: int) -> Decision | None:
    if d is None:
        return None
    if d.player == viewer:
        return copy.deepcopy(d)
    return Decision(d.player, d.kind, (), "", "", {}, ())


def determinize(view: PlayerView, rng: random.Random, opponent_cards: list[str] | None = None,
                registry: dict[str, CardDef] | None = None) -> GameState:
    """Sample a full state consistent with ``view`` (hidden cards drawn without replacement
    from what remains of each decklist; the opponent's list is ``opponent_cards``, the public
    decklist, or a uniform draw from the registry's playable cards)."""
    s = view.state.copy(events=False)
    reg = registry if registry is not None else s.registry
    s.rng = random.Random(rng.getrandbits(64))
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
    if d is not None and not d.actions and d.kind.value == "priority":
        from .game import Game

        d.actions = tuple(Game(s)._priority_actions(d.player))
        d.resume = "priority"
    return s


_FALLBACKS: dict[int, tuple[dict[str, CardDef], int, list[CardDef], list[CardDef], list[CardDef]]] = {}


def _fallbacks(reg: dict[str, CardDef]) -> tuple[list[CardDef], list[CardDef], list[CardDef]]:
    """Playable cards, Hosts and Ambushes of a registry (cached per registry and size)."""
    hit = _FALLBACKS.get(id(reg))
    if hit is None or hit[0] is not reg or hit[1] != len(reg):
        fallback = [c for c in reg.values() if c.type not in (CardType.HOST, CardType.TOKEN)]
        hosts = [c for c in reg.values() if c.type is CardType.HOST]
        ambushes = [c for c in fallback if c.type is CardType.AMBUSH] or fallback
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


def event_texts(events: list[Event], viewer: int | None) -> list[str]:
    return [e.text_for(viewer) for e in events]
