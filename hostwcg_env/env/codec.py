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


def _own_place_index(lay: ActionLayout, s: GameState | None, p: int, place: str) -> int:
    side, where = place.split(".", 1)
    if "AB".index(side) != p:
        raise LayoutError(f"activate names another player's object: {place}")
    if where.startswith("form"):
        i = int(where[4:])
        if i >= MAX_FORMS:
            raise LayoutError(f"more than {MAX_FORMS} forms")
        return lay.front + lay.back + i
    if where[0] == "f":
        return int(where[1:])
    if where[0] == "b":
        return lay.front + int(where[1:])
    raise LayoutError(f"cannot activate at {place}")


def _target_index(lay: ActionLayout, s: GameState | None, p: int, place: str) -> int:
    if place.startswith("stack"):
        i = int(place[5:])
        if i >= MAX_STACK:
            raise LayoutError(f"stack deeper than {MAX_STACK}")
        return 2 * lay.side_places + i
    parts = place.split(".")
    if len(parts) != 2:
        raise LayoutError(f"cannot target {place}")
    side = 0 if "AB".index(parts[0]) == p else lay.side_places
    where = parts[1]
    if where == "host":
        return side
    if where.startswith("form"):
        i = int(where[4:])
        if i >= MAX_FORMS:
            raise LayoutError(f"more than {MAX_FORMS} forms")
        return side + 1 + lay.front + lay.back + i
    if where[0] == "f":
        return side + 1 + int(where[1:])
    if where[0] == "b":
        return side + 1 + lay.front + int(where[1:])
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
        return st["ap_any"] + TYPES.index(a.arg)
    if k is Kind.PLAY:
        i = int(a.arg[1:])
        if i >= lay.hand:
            raise LayoutError(f"hand index {i} >= {lay.hand}")
        return st["play"] + i
    if k is Kind.ACTIVATE:
        if a.n >= MAX_ABILITIES:
            raise LayoutError(f"ability {a.n} >= {MAX_ABILITIES}")
        return st["activate"] + _own_place_index(lay, s, p, a.arg) * MAX_ABILITIES + a.n
    if k is Kind.ATTACK:
        return st["attack"] + int(a.arg[1:])
    if k is Kind.SLOT:
        i = int(a.arg[1:])
        return st["slot"] + (i if a.arg[0] == "f" else lay.front + i)
    if k is Kind.TARGET:
        return st["target"] + _target_index(lay, s, p, a.arg)
    if k is Kind.PAY:
        return st["pay"] + PAY_SYMBOLS.index(a.arg)
    if k is Kind.CARD:
        i = int(a.arg[1:])
        if a.arg[0] == "h":
            if i >= lay.hand:
                raise LayoutError(f"hand index {i} >= {lay.hand}")
            return st["card"] + i
        if i >= MAX_LIST:
            raise LayoutError(f"list item {i} >= {MAX_LIST}")
        return st["card"] + lay.hand + i
    if k is Kind.TRIGGER:
        i = int(a.arg)
        if i >= MAX_TRIGGERS:
            raise LayoutError(f"trigger index {i} >= {MAX_TRIGGERS}")
        return st["trigger"] + i
    raise LayoutError(f"action {a} has no index")


def offered(actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The legal actions the layout offers: all of them, except pending triggers past the
    first ``MAX_TRIGGERS`` (33.2: the player orders its triggers one by one; with more pending,
    it picks among the first ``MAX_TRIGGERS`` each time, and the later ones move up as earlier
    ones go on the stack). Agents that choose engine actions inside an env choose among these."""
    if len(actions) <= MAX_TRIGGERS or not any(a.kind is Kind.TRIGGER and int(a.arg) >= MAX_TRIGGERS
                                               for a in actions):
        return actions
    return tuple(a for a in actions if not (a.kind is Kind.TRIGGER and int(a.arg) >= MAX_TRIGGERS))


class Codec:
    """Mask and index<->action mapping for the current decision of a game (cached per decision)."""

    def __init__(self, lay: ActionLayout) -> None:
        self.lay = lay
        self._key: object = None
        self._map: dict[int, Action] = {}
        self._mask = np.zeros(lay.n, dtype=np.int8)
        self._memo: dict[tuple[str, str, int, int], int] = {}

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
            key = (a.kind._value_, a.arg, a.n, d.player)  # a plain str hashes faster than an Enum
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
