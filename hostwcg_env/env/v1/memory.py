"""What one player remembers: built only from the events its PlayerView showed it
(``view.events_from``) and its own choices, never from hidden state.

What the rules make known is remembered exactly as long as it stays certain:

* **The opponent's known hand** (``opp_hand``): the cards of a public reveal of its hand
  (41.1, ``Reveal(B, hand=[...])``: the whole hand) and a searched card shown to both
  (41.3.3, ``Reveal(B, card=X)``). A card that leaves the hand in public takes its name out
  (``WouldPlay(B, X)``: played; ``Discard(B, X)``). A card that leaves it unseen (a Host-damage
  card put face down into the damage zone by the opponent's hidden choice, 2.1; an Ambush laid
  face down, 14.3; a mulligan, 9.1.7) could have been any of them, so one copy of each name it
  could have been is forgotten: what stays is exactly what is certain whichever card it was.
  Cards only join the hand unseen (draws, unrevealed searches), which changes nothing known.
  Knowledge is kept as names, never object ids: a hidden card has an id of one view only
  (2.1.1), so the names follow public events.
* **What the opponent knows of my hand** (``my_known``): the same rules from the opponent's
  side, applied to the public form of my own events (my draw, Host-damage card or face-down
  Ambush is hidden from it): the ``known_to_opp`` flag of my hand rows.
* **The known top of my deck** (``deck_top``, top first): after a look at the top (41.2,
  ``Look(A, deck, n, [...])``) the cards go back in the order I chose; my draws take them off
  the top one by one; a shuffle (a search, a mulligan) forgets them.
* **History**: the last ``HISTORY_LEN`` public events of interest (plays, activations,
  triggers, attacks, action points, discards, Host damage, destructions, reveals, ...) as the
  viewer saw them, most recent first.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from hostwcg_env.engine import Action, CardDef, CardType, Kind
from hostwcg_env.engine.actions import Area
from hostwcg_env.engine.events import (
    Activated,
    APSpent,
    Attacks,
    AttacksHost,
    Blocks,
    ControlChanged,
    DamageCard,
    DamageDealt,
    Destroyed,
    Discard,
    Draw,
    Equipped,
    Event,
    Fizzled,
    HostDamaged,
    HostHealed,
    Look,
    Mulligan,
    PhaseBegan,
    Reveal,
    Search,
    SentToDrop,
    Shuffle,
    TriggerPlaced,
    TurnBegan,
    WouldPlay,
)
from hostwcg_env.engine.view import PlayerView

from .cards import FACE_DOWN, NONE, UNKNOWN, card_id
from .layout import HISTORY_KIND_ID, HISTORY_LEN, PHASES, H

NO_TURN = 1 << 30  # the turn of an empty history row: always "0 turns ago" once clipped
_TURN = 6  # the history column that holds turns_ago

_PHASE_ID = {p: i + 1 for i, p in enumerate(PHASES)}
_RES_ID = {"&": 1, "£": 2, "!": 3, "%": 4}
def _remove_one(known: list[str], name: str) -> bool:
    if name in known:
        known.remove(name)
        return True
    return False


def _unseen_leaves(known: list[str], could_be: Any = None) -> None:
    """One card left unseen: forget one copy of each name it could have been (``could_be``:
    a test on a name, None for any)."""
    for name in list(dict.fromkeys(known)):
        if could_be is None or could_be(name):
            known.remove(name)


class Memory:
    """One viewer's memory of a game. ``sync(view)`` reads the events since the last call;
    ``own_action(action)`` is told each of the viewer's own choices (the order in which it put
    looked-at cards back, 41.2). ``stamp`` changes whenever anything remembered changes."""

    __slots__ = ("viewer", "pos", "opp_hand", "my_known", "deck_top", "looking", "look_done",
                 "table", "logged", "acts", "turn", "_where_map", "phase", "stamp", "game", "_cards")

    def __init__(self, viewer: int) -> None:
        self.viewer = viewer
        self._cards: dict[str, CardDef] = {}
        self._where_map: dict[str, int] | None = None
        self.reset(None)

    def reset(self, game: object) -> None:
        self.game = game
        self.pos = 0
        self.opp_hand: list[str] = []
        self.my_known: list[str] = []
        self.deck_top: list[str] = []
        self.looking: list[str] | None = None
        self.look_done: list[str] = []
        # the history, most recent first: the columns of HISTORY_COLUMNS, but the turn each
        # entry happened in where the observation has turns_ago (an empty row: NO_TURN)
        self.table = np.zeros((HISTORY_LEN, H), dtype=np.int32)
        self.table[:, _TURN] = NO_TURN
        self.logged = 0  # entries ever logged (the table keeps the last HISTORY_LEN)
        self.acts = 0  # attacks and activations seen (what marks a card attacked or used)
        self.turn = 0
        self.phase = 0
        self.stamp = 0

    def copy(self, game_key: object = None) -> Memory:
        """A copy; with ``game_key`` (a ``PlayerView.game_key``) one that goes on reading
        another game object holding the same events (a clone, or one whose hidden cards were
        drawn again), instead of starting afresh there."""
        m = Memory(self.viewer)
        m.game = self.game if game_key is None else game_key
        m.pos = self.pos
        m.opp_hand = list(self.opp_hand)
        m.my_known = list(self.my_known)
        m.deck_top = list(self.deck_top)
        m.looking = None if self.looking is None else list(self.looking)
        m.look_done = list(self.look_done)
        m.table = self.table.copy()
        m.logged, m.acts = self.logged, self.acts
        m.turn, m.phase, m.stamp = self.turn, self.phase, self.stamp
        m._cards = self._cards
        return m

    # ------------------------------------------------------------------ reading events
    def sync(self, view: PlayerView) -> None:
        """Read the events ``view`` shows since the last call (a new game starts afresh)."""
        game = view.game_key
        if game is not self.game:
            self.reset(game)
        events = view.events_from(self.pos)
        if not events:
            return
        self.pos += len(events)
        self._where_map = None
        changed = False
        for ev in events:
            changed |= self._event(view, ev)
        if changed:
            self.stamp += 1
        if not (self.opp_hand or self.my_known or self.deck_top):
            return
        # a safety net for a way out of the hand no rule above reads: never more known
        # cards than the hand holds (each excess card is taken as a card that left unseen)
        changed = False
        opp_hand = view.zone_sizes(1 - self.viewer)[1]
        while len(self.opp_hand) > opp_hand:
            _unseen_leaves(self.opp_hand)
            changed = True
        my_hand = view.zone_sizes(self.viewer)[1]
        while len(self.my_known) > my_hand:
            _unseen_leaves(self.my_known)
            changed = True
        deck = view.zone_sizes(self.viewer)[2]
        if len(self.deck_top) > deck:
            self.deck_top = []
            changed = True
        if changed:
            self.stamp += 1

    def own_action(self, action: Action) -> None:
        """One of the viewer's own choices: while it puts looked-at cards back (41.2), ``card dI``
        names the next card from the top. Call ``sync`` first (the look starts with an event)."""
        src = action.source
        if self.looking is None or action.kind is not Kind.CARD or src is None or src.area is not Area.LISTED:
            return
        i = src.index
        if 0 <= i < len(self.looking):
            self.look_done.append(self.looking.pop(i))
            if len(self.looking) <= 1:
                self._look_finished()
            self.stamp += 1

    def _look_finished(self) -> None:
        assert self.looking is not None
        order = self.look_done + self.looking
        self.deck_top = order + self.deck_top[len(order):]
        self.looking = None
        self.look_done = []

    def _card(self, name: str) -> CardDef | None:
        card = self._cards.get(name)
        if card is None:
            from hostwcg_env.cards import default_pool

            card = default_pool().get(name)
            if card is not None:
                self._cards[name] = card
        return card

    def _could_be_ambush(self, name: str) -> bool:
        card = self._card(name)
        return card is None or card.type is CardType.AMBUSH

    def _of(self, player: int) -> int:
        """0 for the viewer, 1 for the opponent."""
        return 0 if player == self.viewer else 1

    def _log(self, kind: str, actor: int, card: int = NONE, target: int = NONE, owner: int = 2,
             amount: int = 0) -> None:
        t = self.table
        t[1:] = t[:-1]
        t[0] = (HISTORY_KIND_ID[kind], actor, card, target, owner, max(0, min(15, amount)), self.turn,
                self.phase)
        self.logged += 1

    def _event(self, view: PlayerView, ev: Event) -> bool:
        """Apply one event (as the viewer saw it); True if the memory changed."""
        match ev:
            case PhaseBegan():
                self.phase = _PHASE_ID.get(ev.phase, 0)
                return False
            case TurnBegan():
                self.turn = ev.turn
                self._log("turn", self._of(ev.player), amount=self.turn)
            case WouldPlay():
                mine = ev.player == self.viewer
                name = ev.name
                self._log("play", self._of(ev.player), card_id(name))
                if mine:
                    card = self._card(name)
                    if card is not None and card.type is CardType.AMBUSH:  # laid face down (14.3)
                        _unseen_leaves(self.my_known, self._could_be_ambush)
                    else:
                        _remove_one(self.my_known, name)
                elif name == "?":
                    _unseen_leaves(self.opp_hand, self._could_be_ambush)
                else:
                    _remove_one(self.opp_hand, name)
            case Activated():
                self.acts += 1
                self._log("activate", self._of(ev.player), card_id(ev.name))
            case TriggerPlaced():
                self._log("trigger", self._of(ev.player), card_id(ev.name))
            case Attacks():
                self.acts += 1
                self._log("attack", self._of(ev.player), card_id(ev.name))
            case AttacksHost():
                entry = self._last("attack")
                if entry is not None:
                    side = self._of(ev.player)
                    defender = 1 - self.viewer if side == 0 else self.viewer
                    host = view.host(defender)
                    entry[3] = card_id(host.card.name) if host is not None else UNKNOWN
                    entry[4] = 1 - side
            case Blocks():
                entry = self._last("attack")
                if entry is not None:
                    entry[3] = card_id(ev.name)
                    entry[4] = self._of(ev.player)
            case APSpent():
                side = self._of(ev.player)
                if ev.use == "draw":
                    self._log("ap_draw", side)
                elif ev.use == "host":
                    self._log("ap_host", side)
                else:
                    self._log("ap_any", side, amount=_RES_ID.get(ev.use.split()[-1], 0))
            case Discard():
                mine = ev.player == self.viewer
                self._log("discard", self._of(ev.player), card_id(ev.card))
                _remove_one(self.my_known if mine else self.opp_hand, ev.card)
            case DamageCard():
                # face down from the hand (4.8.1): the opponent never sees which card (2.1.1)
                self._log("damage_card", self._of(ev.player), UNKNOWN if ev.card is None else card_id(ev.card))
                _unseen_leaves(self.my_known if ev.player == self.viewer else self.opp_hand)
            case HostDamaged():
                self._log("host_damaged", self._of(ev.player), amount=ev.amount)
            case HostHealed():
                self._log("host_healed", self._of(ev.player), amount=ev.amount)
            case Destroyed():
                src = ev.source
                self._log("destroyed", self._where(view, ev.name), card_id(ev.name),
                          NONE if src == "none" else card_id(src), self._where(view, src))
            case SentToDrop():
                self._log("sent_to_drop", self._where(view, ev.name), card_id(ev.name))
            case DamageDealt():
                src = ev.source
                self._log("damage_dealt", self._where(view, src), NONE if src == "none" else card_id(src),
                          card_id(ev.name), self._where(view, ev.name), ev.amount)
            case Equipped():
                self._log("equipped", self._where(view, ev.source), card_id(ev.source),
                          card_id(ev.name), self._where(view, ev.name))
            case Reveal():
                mine = ev.player == self.viewer
                if ev.zone == "hand":
                    self._log("reveal", self._of(ev.player), amount=len(ev.cards))
                    if mine:
                        self.my_known = list(ev.cards)
                    else:
                        self.opp_hand = list(ev.cards)
                elif ev.zone is None:  # a searched card, shown to both, goes to the hand
                    name = ev.cards[0]
                    self._log("reveal", self._of(ev.player), card_id(name), amount=1)
                    (self.my_known if mine else self.opp_hand).append(name)
            case Search():
                self._log("search", self._of(ev.player))
            case Look():
                self._log("look", self._of(ev.player), amount=ev.count)
                if ev.player == self.viewer and ev.cards is not None:
                    self.looking = list(ev.cards)
                    self.look_done = []
                    if len(self.looking) <= 1:
                        self._look_finished()
            case Shuffle():
                self._log("shuffle", self._of(ev.player))
                if ev.player == self.viewer:
                    self.deck_top = []
            case Draw():
                if ev.player == self.viewer and self.deck_top:
                    if self.deck_top[0] == ev.card:
                        self.deck_top.pop(0)
                    else:  # cannot happen while the rules above hold: forget rather than be wrong
                        self.deck_top = []
                    return True
                return False
            case Mulligan():
                self._log("mulligan", self._of(ev.player), amount=ev.count)
                if ev.count:
                    if ev.player == self.viewer:
                        self.my_known = []
                    else:
                        self.opp_hand = []
            case Fizzled():
                self._log("fizzled", self._where(view, ev.source), card_id(ev.source))
            case ControlChanged():
                self._log("control", self._of(ev.player), card_id(ev.name))
            case _:
                return False
        return True

    def _last(self, kind: str) -> np.ndarray | None:
        """The most recent entry of a kind (a row of the table, to change in place)."""
        k = HISTORY_KIND_ID[kind]
        for entry in self.table:
            if entry[0] == k:
                return entry
        return None

    def history(self) -> list[list[int]]:
        """The history's entries, most recent first, each as the observation has it but with
        the turn it happened in (not how many turns ago)."""
        return [list(map(int, e)) for e in self.table if e[0]]

    def _where(self, view: PlayerView, name: str) -> int:
        """The side (0 me, 1 the opponent) a card of this name is public on now, in play, as a
        Host or among the last cards of a drop zone; 2 when it is on both sides or on neither."""
        if name in ("none", "?", ""):
            return 2
        where = self._where_map
        if where is None:  # once per batch of events: the view is the same for all of them
            where = {}
            for p in (0, 1):
                side = 0 if p == self.viewer else 1
                h = view.host(p)
                objs: list[Any] = [h] if h is not None else []
                objs += view.row(p, "front") + view.row(p, "back") + view.forms(p) + view.drop(p)[-4:]
                for o in objs:
                    if o is not None and not isinstance(o, str):
                        n = o.card.name
                        where[n] = side if where.get(n, side) == side else 2
            self._where_map = where
        return where.get(name, 2)

    # ------------------------------------------------------------------ queries
    def opp_hand_counts(self) -> Counter[str]:
        return Counter(self.opp_hand)


__all__ = ["FACE_DOWN", "Memory"]
