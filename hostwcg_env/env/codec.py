"""Action codec: every legal engine action <-> exactly one index of the flat action space.

Encoding is relative to the deciding player (ego-centric places). A legal action the layout
cannot express raises ``LayoutError``: options are never dropped silently. One bound is
documented instead (docs/action_space.md, "Triggers"): with more than ``MAX_TRIGGERS`` pending
triggers to order (33.2), the player picks the next among the first ``MAX_TRIGGERS``
(``offered``); the others wait their turn, so every trigger still goes on the stack.
"""

from __future__ import annotations

import numpy as np

from hostwcg_env.engine import Action, Game, Kind
from hostwcg_env.engine.actions import Area, Place
from hostwcg_env.engine.state import GameState

from .layout import (
    MAX_ABILITIES,
    MAX_FORMS,
    MAX_LIST,
    MAX_STACK,
    MAX_TRIGGERS,
    PAY_SYMBOLS,
    TYPES,
    ActionLayout,
)


class LayoutError(RuntimeError):
    """A legal action that the fixed action layout cannot express."""


def _own_place_index(lay: ActionLayout, s: GameState | None, p: int, place: Place) -> int:
    if place.side != p:
        raise LayoutError(f"activate names another player's object: {place}")
    if place.marker >= 0:
        raise LayoutError(f"cannot activate at {place}")
    if place.area is Area.FORM:
        if place.index >= MAX_FORMS:
            raise LayoutError(f"more than {MAX_FORMS} forms")
        return lay.front + lay.back + place.index
    if place.area is Area.FRONT:
        return place.index
    if place.area is Area.BACK:
        return lay.front + place.index
    raise LayoutError(f"cannot activate at {place}")


def _target_index(lay: ActionLayout, s: GameState | None, p: int, place: Place) -> int:
    if place.area is Area.STACK:
        if place.index >= MAX_STACK:
            raise LayoutError(f"stack deeper than {MAX_STACK}")
        return 2 * lay.side_places + place.index
    if not place.on_board or place.marker >= 0:
        raise LayoutError(f"cannot target {place}")
    side = 0 if place.side == p else lay.side_places
    if place.area is Area.HOST:
        return side
    if place.area is Area.FORM:
        if place.index >= MAX_FORMS:
            raise LayoutError(f"more than {MAX_FORMS} forms")
        return side + 1 + lay.front + lay.back + place.index
    if place.area is Area.FRONT:
        return side + 1 + place.index
    if place.area is Area.BACK:
        return side + 1 + lay.front + place.index
    raise LayoutError(f"cannot target {place}")


def encode(lay: ActionLayout, s: GameState | None, p: int, a: Action) -> int:
    """The index of legal action ``a`` for deciding player ``p`` (a function of the action and
    the player alone: ``s`` may be None, as for an agent that sees only its PlayerView)."""
    k = a.kind
    st = lay.starts
    if k is Kind.PASS:
        return st["pass"]
    if k is Kind.YES:
        return st["yes"]
    if k is Kind.AP_HOST:
        return st["ap_host"]
    if k is Kind.AP_DRAW:
        return st["ap_draw"]
    if k is Kind.AP_ANY:
        return st["ap_any"] + TYPES.index(str(a.res))
    if k is Kind.PLAY:
        i = a.src.index
        if i >= lay.hand:
            raise LayoutError(f"hand index {i} >= {lay.hand}")
        return st["play"] + i
    if k is Kind.ACTIVATE:
        if a.n >= MAX_ABILITIES:
            raise LayoutError(f"ability {a.n} >= {MAX_ABILITIES}")
        return st["activate"] + _own_place_index(lay, s, p, a.src) * MAX_ABILITIES + a.n
    if k is Kind.ATTACK:
        return st["attack"] + a.src.index
    if k is Kind.SLOT:
        i = a.dst.index
        return st["slot"] + (i if a.dst.area is Area.FRONT else lay.front + i)
    if k is Kind.TARGET:
        return st["target"] + _target_index(lay, s, p, a.dst)
    if k is Kind.PAY:
        return st["pay"] + PAY_SYMBOLS.index("auto" if a.res is None else a.res.value)
    if k is Kind.CARD:
        i = a.src.index
        if a.src.area is Area.HAND:
            if i >= lay.hand:
                raise LayoutError(f"hand index {i} >= {lay.hand}")
            return st["card"] + i
        if i >= MAX_LIST:
            raise LayoutError(f"list item {i} >= {MAX_LIST}")
        return st["card"] + lay.hand + i
    if k is Kind.TRIGGER:
        i = a.src.index
        if i >= MAX_TRIGGERS:
            raise LayoutError(f"trigger index {i} >= {MAX_TRIGGERS}")
        return st["trigger"] + i
    raise LayoutError(f"action {a} has no index")


def offered(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The legal actions the layout offers: all of them, except pending triggers past the
    first ``MAX_TRIGGERS`` (33.2: the player orders its triggers one by one; with more pending,
    it picks among the first ``MAX_TRIGGERS`` each time, and the later ones move up as earlier
    ones go on the stack). Agents that choose engine actions inside an env choose among these."""
    if len(actions) <= MAX_TRIGGERS or not any(a.kind is Kind.TRIGGER and a.src.index >= MAX_TRIGGERS
                                               for a in actions):
        return actions
    return tuple(a for a in actions if not (a.kind is Kind.TRIGGER and a.src.index >= MAX_TRIGGERS))


class Codec:
    """Mask and index<->action mapping for the current decision of a game (cached per decision)."""

    def __init__(self, lay: ActionLayout) -> None:
        self.lay = lay
        self._key: object = None
        self._map: dict[int, Action] = {}
        self._mask = np.zeros(lay.n, dtype=np.int8)
        self._memo: dict[tuple[Action, int], int] = {}

    def refresh(self, game: Game) -> None:
        d = game.decision
        if d is self._key:
            return
        self._key = d
        self._mask[:] = 0
        self._map = {}
        if d is None or game.is_over:
            return
        s = game.state
        memo = self._memo
        for a in offered(d.actions):
            key = (a, d.player)
            i = memo.get(key)
            if i is None:
                i = encode(self.lay, s, d.player, a)  # a pure function of the action and player
                if len(memo) < 100_000:
                    memo[key] = i
            if i in self._map:
                raise LayoutError(f"two legal actions share index {i}: {self._map[i]} and {a}")
            self._map[i] = a
            self._mask[i] = 1

    def mask(self, game: Game) -> np.ndarray:
        self.refresh(game)
        return self._mask

    def decode(self, game: Game, index: int) -> Action | None:
        self.refresh(game)
        return self._map.get(int(index))
