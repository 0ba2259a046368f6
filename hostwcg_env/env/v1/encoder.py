"""The hostwcg_v1 observation encoder: fixed-shape arrays written from one player's PlayerView
(its public API only), its ``Memory`` of the events it was shown, and its own legal actions.

The arrays live in a ``Slate`` (one per viewer and buffer): they are preallocated and written
incrementally, each zone, row, the globals, the history and the action features rewritten only
when what they show changed (the view's change counters, object ids, the memory's stamp, the
decision). The result is identical to a fresh encoding (``tests/test_env_v1.py`` checks it
after every step).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from hostwcg_env.engine import Action, CardDef, Kind
from hostwcg_env.engine.actions import Area, DecisionKind, Place
from hostwcg_env.engine.state import Obj
from hostwcg_env.engine.view import PlayerView

from ..layout import MAX_ABILITIES, MAX_FORMS, PAY_SYMBOLS, TYPES
from .cards import FACE_DOWN, NONE, UNKNOWN, card_id, sync_index
from .layout import (
    ACTION_KIND_ID,
    CARD_TYPES,
    COL,
    DECISIONS,
    GCOL,
    ITEM_KINDS,
    LIMIT,
    OVERFLOW_ZONES,
    PHASES,
    RES,
    SIDE_DIV,
    SIDE_FIELDS,
    STEPS,
    C,
    G,
    ObsLayout,
    obs_layout,
)
from .memory import Memory

_TYPE_COL = {t: COL[f"type:{t}"] for t in CARD_TYPES}
_ITEM_COL = {k: COL[f"item:{k}"] for k in ITEM_KINDS}
_C_COST, _C_PH, _C_PP = COL["cost"], COL["printed_health"], COL["printed_power"]
_C_MINE, _C_OWN, _C_FD = COL["mine"], COL["owner_differs"], COL["face_down"]
_C_H, _C_P, _C_SOUL, _C_DMG = COL["health"], COL["power"], COL["soul"], COL["damage"]
_C_SICK, _C_ATK, _C_TOKEN, _C_MARK = COL["sick"], COL["attacked"], COL["token"], COL["markers"]
_C_FAST, _C_FS, _C_CB = COL["fast"], COL["first_strike"], COL["cannot_block"]
_C_SLOT, _C_ORDER, _C_TARGETS = COL["slot"], COL["order"], COL["targets"]
_C_TBY_ME, _C_TBY_OPP = COL["targeted_by_me"], COL["targeted_by_opp"]
_C_ATTACKING, _C_ATTACK_TARGET = COL["attacking"], COL["attack_target"]
_C_USED, _C_CARRIER_BACK, _C_KNOWN = COL["used_this_turn"], COL["carrier_back"], COL["known_to_opp"]

_PHASE_COL = {p: GCOL[f"phase:{p}"] for p in PHASES}
_STEP_COL = {s: GCOL[f"step:{s}"] for s in STEPS}
_DEC_COL = {d: GCOL[f"decision:{d}"] for d in DECISIONS}
_SIDE_COLS = [[GCOL[f"{who}:{f}"] for f in SIDE_FIELDS] for who in ("me", "opp")]
_SIDE_DIVS2 = np.array([SIDE_DIV[f] for f in SIDE_FIELDS] * 2, dtype=np.float32)
_LEFT_COLS = {z: GCOL[f"left_out:{z}"] for z in OVERFLOW_ZONES}
_UNSET: Any = object()
_DEC = -2  # in an action's memo: "the decision row"
_G_TURN, _G_MY_TURN, _G_FIRST, _G_STARTED = GCOL["turn"], GCOL["my_turn"], GCOL["went_first"], GCOL["started"]
_G_DECIDING, _G_OPP_DECIDING = GCOL["deciding"], GCOL["opp_deciding"]
_G_STACK, _G_PENDING = GCOL["stack"], GCOL["pending"]
_G_BATTLE, _G_BATTLE_MINE = GCOL["battle"], GCOL["battle_mine"]
_G_BATTLE_HOST, _G_BATTLE_BLOCKED = GCOL["battle_host"], GCOL["battle_blocked"]
_G_KNOWN, _G_UNKNOWN = GCOL["opp_known_hand"], GCOL["opp_unknown_hand"]
_G_DECK_TOP, _G_CHOICE = GCOL["my_deck_top"], GCOL["choice"]
_G_SIDES = GCOL[f"me:{SIDE_FIELDS[0]}"]  # the globals come in three blocks: [:_G_SIDES] time and
_G_KNOWN = GCOL["opp_known_hand"]  # decision, [_G_SIDES:_G_KNOWN] both sides, [_G_KNOWN:] the rest
assert GCOL[f"opp:{SIDE_FIELDS[-1]}"] == _G_KNOWN - 1 and GCOL["battle_blocked"] == _G_SIDES - 1
assert [GCOL["my_deck_top"], GCOL["choice"]] == [_G_KNOWN + 2, _G_KNOWN + 3]
assert [GCOL[f"left_out:{z}"] for z in OVERFLOW_ZONES] == list(range(_G_KNOWN + 4, G))

_static_cache: dict[int, tuple[CardDef, np.ndarray, int]] = {}


def card_static(card: CardDef) -> tuple[np.ndarray, int]:
    """The static part of a card row (type, cost, printed health and power) and its card_id."""
    hit = _static_cache.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1], hit[2]
    v = np.zeros(C, dtype=np.float32)
    v[_TYPE_COL[card.type.value]] = 1
    v[_C_COST] = len(card.cost) / 5
    v[_C_PH] = card.health / 10
    v[_C_PP] = card.power / 10
    np.clip(v, -LIMIT, LIMIT, out=v)
    cid = UNKNOWN if card.name == "?" else card_id(card.name)
    if len(_static_cache) > 4096:  # every game may bring its own registry: stay bounded
        _static_cache.clear()
    _static_cache[id(card)] = (card, v, cid)
    return v, cid


def _clip(x: float) -> float:
    return x if -LIMIT <= x <= LIMIT else max(-LIMIT, min(LIMIT, x))


class Slate:
    """One viewer's observation arrays and what each part last showed (for incremental writes)."""

    def __init__(self, lay: ObsLayout, arrays: dict[str, np.ndarray] | None = None) -> None:
        self.lay = lay
        if arrays is None:
            arrays = {k: np.zeros(shape, dtype=dt) for k, (shape, dt) in lay.sizes().items()}
        self.rebind(arrays)
        self.clear(None, -1)

    def rebind(self, arrays: dict[str, np.ndarray]) -> None:
        """Write into ``arrays`` from now on: new arrays, or arrays that hold what this slate
        showed (a copied vector env's rows of its own buffers)."""
        self.arrays = arrays
        self.cards = arrays["cards"]
        self.card_id = arrays["card_id"]
        self.card_zone = arrays["card_zone"]
        self.globals = arrays["globals"]
        self.history = arrays["history"]
        self.mask = arrays["action_mask"]
        self.act_card = arrays["action_card"]
        self.act_src = arrays["action_source_row"]
        self.act_tgt = arrays["action_target_row"]

    def clear(self, game: object, viewer: int) -> None:
        """Start afresh (a new game or another viewer): every array to its empty value."""
        lay = self.lay
        for k, a in self.arrays.items():
            if k not in ("action_kind", "action_arg"):
                a[...] = 0
        self.act_src[:] = -1
        self.act_tgt[:] = -1
        kinds, args = action_table_arrays(lay)
        self.arrays["action_kind"][:] = kinds
        self.arrays["action_arg"][:] = args
        for z in lay.zones:  # slot rows are always in use
            if z.name in ("my_front", "my_back", "opp_front", "opp_back"):
                self.card_zone[z.start : z.stop] = z.zid
        self.game = game
        self.viewer = viewer
        self.keys: dict[str, Any] = {}
        self.legal_idx: list[int] = []
        self.overlay: list[tuple[int, int]] = []
        self.epoch = 0  # counts row writes: flags written over rows are set again after one
        self.left_out: dict[str, int] = dict.fromkeys(OVERFLOW_ZONES, 0)


_ACTION_TABLES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def action_table_arrays(lay: ObsLayout) -> tuple[np.ndarray, np.ndarray]:
    """(action_kind, action_arg) of every index: the same in every state."""
    key = lay.n_actions * 1000 + lay.actions.front * 100 + lay.actions.back * 10 + lay.actions.hand
    hit = _ACTION_TABLES.get(key)
    if hit is not None:
        return hit
    n = lay.n_actions
    kinds = np.zeros(n, dtype=np.int32)
    args = np.zeros(n, dtype=np.int32)
    for b in lay.actions.blocks:
        for i in range(b.size):
            j = b.start + i
            if b.name == "card":
                kinds[j] = ACTION_KIND_ID["card_hand" if i < lay.actions.hand else "card_list"]
                args[j] = i if i < lay.actions.hand else i - lay.actions.hand
            else:
                kinds[j] = ACTION_KIND_ID[b.name]
                args[j] = i
    kinds.setflags(write=False)
    args.setflags(write=False)
    _ACTION_TABLES[key] = (kinds, args)
    return kinds, args


class Encoder:
    """Writes v1 observations into ``Slate`` arrays (see the module docstring)."""

    def __init__(self, config: Any = None, layout: ObsLayout | None = None) -> None:
        sync_index()  # the user's cards get their ids (cards.py)
        self.lay = layout or obs_layout(config)
        lay = self.lay
        self.z = {z.name: z for z in lay.zones}
        self._place_rows: dict[tuple[int, str], int] = {}
        self._prompt_cards: dict[str, str | None] = {}
        self._defs: dict[str, CardDef] = {}
        self._card_names: list[str] | None = None  # every card name, sorted (_prompt_card)
        self._action_rows: dict[tuple[Action, int], tuple[int, int, int]] = {}

    def slate(self, arrays: dict[str, np.ndarray] | None = None) -> Slate:
        return Slate(self.lay, arrays)

    # ================================================================== the entry point
    def encode(self, view: PlayerView, memory: Memory, sl: Slate,
               legal: Sequence[tuple[int, Action]] | None = None, token: object = None) -> None:
        """Write ``view``'s observation into ``sl``. ``memory`` must have read the view's events
        (``memory.sync(view)``). ``legal``: the viewer's legal actions as (index, action) pairs
        when it decides (None otherwise); ``token`` identifies the decision (the same token,
        the same actions)."""
        me = view.player
        if sl.game is not view.game_key or sl.viewer != me:
            sl.clear(view.game_key, me)
        keys = sl.keys
        version, board, modv, dmg = view.changes
        opp = 1 - me
        self._hosts(view, sl, board, modv, version)
        if keys.get("board") != board:  # what is in play, face up or down, with its markers
            keys["board"] = board
            self._back(view, sl, "my_back", me)
            self._back(view, sl, "opp_back", opp)
            self._forms(view, sl, "my_forms", me)
            self._forms(view, sl, "opp_forms", opp)
            self._markers(view, sl, "my_markers", me)
            self._markers(view, sl, "opp_markers", opp)
        if keys.get("version") != version:  # any card moved
            keys["version"] = version
            keys["known"] = memory.stamp
            self._hand(view, sl, memory)
            self._pile(view, sl, "my_damage", view.damage_zone(me) or [])
            self._pile(view, sl, "my_drop", view.drop(me))
            self._pile(view, sl, "opp_drop", view.drop(opp))
            self._pile(view, sl, "my_banished", view.banished(me))
            self._pile(view, sl, "opp_banished", view.banished(opp))
        elif keys.get("known") != memory.stamp:
            keys["known"] = memory.stamp
            self._hand(view, sl, memory)
        # what a frontrow row shows changes with the board, a stat modification, damage, an
        # attack (an event the memory counts) or a new turn (sickness and attacks forgotten)
        fquick = (board, modv, dmg, view.turn, memory.acts)
        if keys.get("front/quick") != fquick:
            keys["front/quick"] = fquick
            self._front(view, sl, "my_front", me, board, modv, dmg)
            self._front(view, sl, "opp_front", opp, board, modv, dmg)
        self._used(view, sl, board, memory)
        if view.stack_size or keys.get("stack"):
            self._stack(view, sl)
        deciding = view.deciding == me
        self._pending(view, sl)
        self._choice(view, sl, deciding)
        self._decision(view, sl, deciding, token)
        if keys.get("memory") != memory.stamp:
            keys["memory"] = memory.stamp
            if keys.get("opp_known_hand") != memory.opp_hand:
                keys["opp_known_hand"] = list(memory.opp_hand)
                self._names(sl, "opp_known_hand", memory.opp_hand, mine=0)
            if keys.get("my_deck_top") != memory.deck_top:
                keys["my_deck_top"] = list(memory.deck_top)
                self._names(sl, "my_deck_top", memory.deck_top, mine=1)
        self._overlay(view, sl)
        self._globals(view, sl, memory, deciding)
        self._history(view, sl, memory)
        self._actions(view, sl, legal if deciding else None, token)

    # ================================================================== rows
    def _row(self, sl: Slate, r: int, zid: int, card: CardDef | None, mine: int) -> np.ndarray:
        """Zero row ``r``, give it its zone and card (static part, card_id); return the row."""
        row = sl.cards[r]
        if card is None:
            row[:] = 0
            sl.card_id[r] = FACE_DOWN
        else:
            v, cid = card_static(card)
            row[:] = v
            sl.card_id[r] = cid
            if card.name not in self._defs and card.name != "?":
                self._defs[card.name] = card
        sl.card_zone[r] = zid
        row[_C_MINE] = mine
        sl.epoch += 1
        return row

    def _empty(self, sl: Slate, start: int, stop: int, slot_zone: int = 0) -> None:
        sl.cards[start:stop] = 0
        sl.card_id[start:stop] = NONE
        sl.card_zone[start:stop] = slot_zone
        sl.epoch += 1

    def _hosts(self, view: PlayerView, sl: Slate, board: int, modv: int, version: int) -> None:
        quick = (board, modv, version, view.started)  # a damage zone's size moves the version
        if sl.keys.get("hosts/quick") == quick:
            return
        sl.keys["hosts/quick"] = quick
        me = view.player
        sizes = (view.zone_sizes(me)[0], view.zone_sizes(1 - me)[0])
        key = (board, modv, view.started, sizes)
        if sl.keys.get("hosts") == key:
            return
        sl.keys["hosts"] = key
        stats: list[tuple[int, int] | None] = []
        for name, p, dz in (("my_host", me, sizes[0]), ("opp_host", 1 - me, sizes[1])):
            z = self.z[name]
            h = view.host(p)
            if h is None:
                row = self._row(sl, z.start, z.zid, None, int(p == me))
                sl.card_id[z.start] = UNKNOWN
                row[_C_DMG] = _clip(dz / 10)
                stats.append(None)
                continue
            row = self._row(sl, z.start, z.zid, h.card, int(p == me))
            health, soul = view.host_health(p), view.host_soul(p)
            stats.append((health, soul))
            row[_C_H] = _clip(health / 10)
            row[_C_SOUL] = _clip(soul / 10)
            row[_C_DMG] = _clip(dz / 10)
        sl.keys["host_stats"] = stats

    def _hand(self, view: PlayerView, sl: Slate, memory: Memory) -> None:
        hand = view.hand()
        z = self.z["my_hand"]
        ids = tuple([o.id for o in hand])
        key = (ids, tuple(memory.my_known))
        if sl.keys.get("my_hand") == key:
            return
        sl.keys["my_hand"] = key
        sl.keys["known"] = memory.stamp
        known = list(memory.my_known)
        shown = hand[: z.rows]
        for i, o in enumerate(shown):
            row = self._row(sl, z.start + i, z.zid, o.card, 1)
            row[_C_ORDER] = i / 10
            if o.card.name in known:
                known.remove(o.card.name)
                row[_C_KNOWN] = 1
        self._empty(sl, z.start + len(shown), z.stop)
        sl.left_out["my_hand"] = len(hand) - len(shown)

    def _front(self, view: PlayerView, sl: Slate, name: str, p: int, board: int, modv: int, dmg: int) -> None:
        slots = view.row(p, "front")
        quick = (board, modv, dmg, [None if o is None or isinstance(o, str) else (o.id, o.sick, o.attacked)
                                    for o in slots])
        if sl.keys.get(name) == quick:
            return
        sl.keys[name] = quick
        z = self.z[name]
        me = view.player
        rk = sl.keys.get(name + "/rows") or [_UNSET] * z.rows
        new = []
        for i, o in enumerate(slots[: z.rows]):
            r = z.start + i
            if o is None or isinstance(o, str):
                k: Any = o
                if rk[i] != k:
                    self._empty(sl, r, r + 1, z.zid)
                    if o is not None:  # a face-down card in a frontrow (not in these rules)
                        row = self._row(sl, r, z.zid, None, int(p == me))
                        row[_C_FD] = 1
                        row[_C_SLOT] = i / 8
                new.append(k)
                continue
            kw = view.keywords(o)
            h, pw = view.health(o), view.power(o)
            k = (o.id, h, pw, o.damage, o.sick, o.attacked, len(o.markers), o.token, o.controller != o.owner,
                 "fast" in kw, "first_strike" in kw, "cannot_block" in kw)
            new.append(k)
            if rk[i] == k:
                continue
            row = self._row(sl, r, z.zid, o.card, int(o.controller == me))
            row[_C_H] = _clip(h / 10)
            row[_C_P] = _clip(pw / 10)
            row[_C_DMG] = _clip(o.damage / 10)
            row[_C_SICK] = o.sick
            row[_C_ATK] = o.attacked
            row[_C_TOKEN] = o.token
            row[_C_MARK] = _clip(len(o.markers) / 3)
            row[_C_OWN] = o.controller != o.owner
            row[_C_FAST] = k[9]
            row[_C_FS] = k[10]
            row[_C_CB] = k[11]
            row[_C_SLOT] = i / 8
        sl.keys[name + "/rows"] = new

    def _back(self, view: PlayerView, sl: Slate, name: str, p: int) -> None:
        slots = view.row(p, "back")
        z = self.z[name]
        me = view.player
        rkeys = [None if o is None else ("face-down" if isinstance(o, str) else (o.id, o.face_down, len(o.markers)))
                 for o in slots]
        if sl.keys.get(name) == rkeys:
            return
        old = sl.keys.get(name) or [_UNSET] * len(slots)
        sl.keys[name] = rkeys
        for i, o in enumerate(slots[: z.rows]):
            if old[i] == rkeys[i]:
                continue
            r = z.start + i
            if o is None:
                self._empty(sl, r, r + 1, z.zid)
                continue
            if isinstance(o, str):
                row = self._row(sl, r, z.zid, None, int(p == me))
            else:
                row = self._row(sl, r, z.zid, o.card, int(o.controller == me))
                row[_C_MARK] = _clip(len(o.markers) / 3)
                row[_C_OWN] = o.controller != o.owner
            row[_C_FD] = 1 if isinstance(o, str) else o.face_down
            row[_C_SLOT] = i / 8

    def _forms(self, view: PlayerView, sl: Slate, name: str, p: int) -> None:
        forms = view.forms(p)
        ids = tuple([(o.id, len(o.markers)) for o in forms])
        if sl.keys.get(name) == ids:
            return
        sl.keys[name] = ids
        z = self.z[name]
        me = view.player
        shown = forms[: z.rows]
        for i, o in enumerate(shown):
            row = self._row(sl, z.start + i, z.zid, o.card, int(o.controller == me))
            row[_C_ORDER] = i / 10
            row[_C_MARK] = _clip(len(o.markers) / 3)
        self._empty(sl, z.start + len(shown), z.stop)
        sl.left_out[name] = len(forms) - len(shown)

    def _markers(self, view: PlayerView, sl: Slate, name: str, p: int) -> None:
        found: list[tuple[Obj | str, int, bool]] = []  # (marker, carrier slot, carrier in the backrow)
        for row_name, back in (("front", False), ("back", True)):
            for i, o in enumerate(view.row(p, row_name)):
                if isinstance(o, Obj) and o.markers:
                    found += [(m, i, back) for m in view.markers(o)]
        for o in view.forms(p):
            if o.markers:
                found += [(m, -1, False) for m in view.markers(o)]
        key = [(m if isinstance(m, str) else m.id, i, b) for m, i, b in found]
        if sl.keys.get(name) == key:
            return
        sl.keys[name] = key
        z = self.z[name]
        me = view.player
        shown = found[: z.rows]
        for j, (m, i, back) in enumerate(shown):
            if isinstance(m, str):
                row = self._row(sl, z.start + j, z.zid, None, int(p == me))
                row[_C_FD] = 1
            else:
                row = self._row(sl, z.start + j, z.zid, m.card, int(m.controller == me))
                row[_C_FD] = m.face_down
            row[_C_SLOT] = max(i, 0) / 8
            row[_C_CARRIER_BACK] = back
        self._empty(sl, z.start + len(shown), z.stop)
        sl.left_out[name] = len(found) - len(shown)

    def _pile(self, view: PlayerView, sl: Slate, name: str, pile: list[Obj]) -> None:
        """An ordered zone whose last card is the top / most recent: rows top first."""
        z = self.z[name]
        shown = pile[-z.rows :] if z.rows < len(pile) else pile
        key = tuple([o.id for o in shown]) + (len(pile),)
        if sl.keys.get(name) == key:
            return
        sl.keys[name] = key
        me = view.player
        n = len(shown)
        for j, o in enumerate(reversed(shown)):
            row = self._row(sl, z.start + j, z.zid, o.card, int(o.owner == me))
            row[_C_ORDER] = j / 10
        self._empty(sl, z.start + n, z.stop)
        sl.left_out[name] = len(pile) - n

    def _names(self, sl: Slate, name: str, names: list[str], mine: int) -> None:
        """Rows of cards known by name (the memory's)."""
        z = self.z[name]
        shown = names[: z.rows]
        for j, n in enumerate(shown):
            card = self._def(n)
            r = z.start + j
            row = self._row(sl, r, z.zid, card, mine)
            if card is None:
                row[:] = 0
                row[_C_MINE] = mine
                sl.card_id[r] = card_id(n)
            row[_C_ORDER] = j / 10
        self._empty(sl, z.start + len(shown), z.stop)

    def _def(self, name: str) -> CardDef | None:
        card = self._defs.get(name)
        if card is None:
            from hostwcg_env.cards import default_pool

            card = default_pool().get(name)
            if card is not None:
                self._defs[name] = card
        return card

    def _used(self, view: PlayerView, sl: Slate, board: int, memory: Memory) -> None:
        """The once-per-turn flag of my cards in play and the opponent's (public: it was used in
        the open). A use is an ``Activated`` event (which the memory's history logs) and the
        uses are forgotten as a turn begins (27.5), so the flags are looked at again only when
        rows, the memory or the turn changed."""
        quick = (sl.epoch, board, view.turn, memory.acts)
        if sl.keys.get("used/quick") == quick:
            return
        sl.keys["used/quick"] = quick
        me = view.player
        flags: list[tuple[int, int]] = []
        for p, prefix in ((me, "my_"), (1 - me, "opp_")):
            for row_name in ("front", "back"):
                z = self.z[prefix + row_name]
                for i, o in enumerate(view.row(p, row_name)[: z.rows]):
                    if isinstance(o, Obj) and o.used_s:
                        flags.append((z.start + i, len(o.used_s)))
            z = self.z[prefix + "forms"]
            for i, o in enumerate(view.forms(p)[: z.rows]):
                if o.used_s:
                    flags.append((z.start + i, len(o.used_s)))
        key = (sl.epoch, flags)
        if sl.keys.get("used") == key:
            return
        for r, _n in sl.keys.get("used", (0, ()))[1]:
            sl.cards[r, _C_USED] = 0
        for r, _n in flags:
            sl.cards[r, _C_USED] = 1
        sl.keys["used"] = (sl.epoch, flags)

    def _stack(self, view: PlayerView, sl: Slate) -> None:
        items = view.stack() if view.stack_size else []
        key = tuple([(it.sid, it.face_down, tuple(map(tuple, it.targets.values()))) for it, _c in items])
        if sl.keys.get("stack") == key:
            return
        sl.keys["stack"] = key
        z = self.z["stack"]
        me = view.player
        shown = items[: z.rows]
        n = len(items)
        for i, (it, card) in enumerate(shown):
            row = self._row(sl, z.start + i, z.zid, card, int(it.controller == me))
            if card is None:
                row[_C_FD] = 1
            else:
                row[_C_FD] = it.face_down
            row[_ITEM_COL[it.kind]] = 1
            row[_C_ORDER] = (n - 1 - i) / 10
            row[_C_TARGETS] = _clip(sum(len(t) for t in it.targets.values()) / 3)
        self._empty(sl, z.start + len(shown), z.stop)
        sl.left_out["stack"] = n - len(shown)

    def _pending(self, view: PlayerView, sl: Slate) -> None:
        mine = view.my_pending()
        key = tuple([t.seq for t in mine])
        if sl.keys.get("pending") == key:
            return
        sl.keys["pending"] = key
        z = self.z["pending"]
        shown = mine[: z.rows]
        for i, t in enumerate(shown):
            row = self._row(sl, z.start + i, z.zid, t.card, 1)
            row[_ITEM_COL[t.kind]] = 1
            row[_C_ORDER] = i / 10
        self._empty(sl, z.start + len(shown), z.stop)
        sl.left_out["pending"] = len(mine) - len(shown)

    def _choice(self, view: PlayerView, sl: Slate, deciding: bool) -> None:
        cards = view.choice_cards() if deciding else []
        key = tuple([o.id for o in cards])
        if sl.keys.get("choice") == key:
            return
        sl.keys["choice"] = key
        z = self.z["choice"]
        shown = cards[: z.rows]
        for i, o in enumerate(shown):
            row = self._row(sl, z.start + i, z.zid, o.card, 1)
            row[_C_ORDER] = i / 10
        self._empty(sl, z.start + len(shown), z.stop)
        sl.left_out["choice"] = len(cards) - len(shown)
        sl.keys["choice_n"] = len(cards)

    def _decision(self, view: PlayerView, sl: Slate, deciding: bool, token: object) -> None:
        """The card my decision is about, named by its prompt (a card being played, activated or
        resolved: "target 't' for Blast", "slot for Squire", "Snare: use its effect?")."""
        tkey = (deciding, token)
        if token is not None and sl.keys.get("decision/token") == tkey:
            return
        sl.keys["decision/token"] = tkey
        prompt = ""
        if deciding and view.decision_kind is not DecisionKind.PRIORITY:  # priority has no prompt
            d = view.decision()
            prompt = d.prompt if d is not None else ""
        if sl.keys.get("decision") == prompt:
            return
        sl.keys["decision"] = prompt
        z = self.z["decision"]
        name = self._prompt_card(prompt) if prompt else None
        card = self._def(name) if name is not None else None
        if card is None:
            self._empty(sl, z.start, z.stop)
            sl.keys["decision_row"] = -1
            return
        self._row(sl, z.start, z.zid, card, 1)
        sl.keys["decision_row"] = z.start

    def _prompt_card(self, prompt: str) -> str | None:
        hit = self._prompt_cards.get(prompt, _UNSET)
        if hit is not _UNSET:
            return hit  # type: ignore[no-any-return]
        if self._card_names is None or len(self._card_names) != len(self._all_names()):
            self._card_names = sorted(self._all_names())
        # the longest name in the prompt; of names alike in length, the one named first ("put on
        # the stack: Rain of Embers, Fury Channeler"): the same card in every process, whatever
        # order the set of names iterates in
        found = min((n for n in self._card_names if n in prompt), key=lambda n: (-len(n), prompt.find(n)), default=None)
        if len(self._prompt_cards) > 10_000:
            self._prompt_cards.clear()
        self._prompt_cards[prompt] = found
        return found

    def _all_names(self) -> set[str]:
        from hostwcg_env.cards import default_pool

        return set(default_pool()) | set(self._defs)

    # ================================================================== overlays
    def _overlay(self, view: PlayerView, sl: Slate) -> None:
        """Flags that point from one row to others: the targets of stack items, the battle."""
        me = view.player
        b = view.battle
        stack_key = sl.keys.get("stack")
        key = (stack_key, None if b is None else (b.attacker, b.target, b.target_is_host), sl.epoch)
        if sl.keys.get("overlay") == key:
            return
        cells: list[tuple[int, int, float]] = []
        if stack_key or b is not None:
            rows = self._object_rows(view, sl)
            z = self.z["stack"]
            items = view.stack() if view.stack_size else []
            for it, _c in items:
                col = _C_TBY_ME if it.controller == me else _C_TBY_OPP
                for ids in it.targets.values():
                    for t in ids:
                        if t < 0:
                            j = next((k for k, (x, _) in enumerate(items) if x.sid == -t), -1)
                            r = z.start + j if 0 <= j < z.rows else -1
                        else:
                            r = rows.get(t, -1)
                        if r >= 0:
                            cells.append((r, col, 1 / 3))
            if b is not None:
                r = rows.get(b.attacker, -1)
                if r >= 0:
                    cells.append((r, _C_ATTACKING, 1.0))
                if b.target is not None:
                    r = rows.get(b.target, -1)
                    if r >= 0:
                        cells.append((r, _C_ATTACK_TARGET, 1.0))
        for r, col in sl.overlay:
            sl.cards[r, col] = 0
        sl.overlay = []
        for r, col, v in cells:
            sl.cards[r, col] = _clip(sl.cards[r, col] + v)
            sl.overlay.append((r, col))
        sl.keys["overlay"] = (stack_key, key[1], sl.epoch)

    def _object_rows(self, view: PlayerView, sl: Slate) -> dict[int, int]:
        """Object id -> row for what is in play or a Host (visible objects only)."""
        out: dict[int, int] = {}
        me = view.player
        for p, prefix in ((me, "my_"), (1 - me, "opp_")):
            h = view.host(p)
            if h is not None:
                out[h.id] = self.z[prefix + "host"].start
            for row_name in ("front", "back"):
                z = self.z[prefix + row_name]
                for i, o in enumerate(view.row(p, row_name)[: z.rows]):
                    if isinstance(o, Obj):
                        out[o.id] = z.start + i
            z = self.z[prefix + "forms"]
            for i, o in enumerate(view.forms(p)[: z.rows]):
                out[o.id] = z.start + i
        return out

    # ================================================================== globals, history
    def _globals(self, view: PlayerView, sl: Slate, memory: Memory, deciding: bool) -> None:
        """Three blocks, each rewritten when its inputs changed: time and decision, both sides'
        numbers, what is known and left out."""
        me, opp = view.player, 1 - view.player
        keys = sl.keys
        b = view.battle
        dkind = view.decision_kind if deciding else None
        npending = len(keys.get("pending") or ())
        bkey = None if b is None else (b.controller, b.target_is_host, b.target is not None)
        key = (view.turn, view.phase, view.step, view.turn_player, view.deciding, dkind, view.stack_size,
               npending, bkey, view.started)
        if keys.get("g/time") != key:
            keys["g/time"] = key
            g = [0.0] * _G_SIDES
            g[_G_TURN] = _clip(view.turn / max(1, view.config.turn_limit))
            col = _PHASE_COL.get(view.phase)
            if col is not None:
                g[col] = 1.0
            col = _STEP_COL.get(view.step)
            if col is not None:
                g[col] = 1.0
            g[_G_MY_TURN] = float(view.turn_player == me)
            g[_G_FIRST] = float(view.first_player == me)
            g[_G_STARTED] = float(view.started)
            g[_G_DECIDING] = float(deciding)
            g[_G_OPP_DECIDING] = float(view.deciding == opp)
            if dkind is not None:
                g[_DEC_COL[dkind.value]] = 1.0
            g[_G_STACK] = _clip(view.stack_size / 6)
            g[_G_PENDING] = _clip(npending / 4)
            if b is not None:
                g[_G_BATTLE] = 1.0
                g[_G_BATTLE_MINE] = float(b.controller == me)
                g[_G_BATTLE_HOST] = float(b.target_is_host)
                g[_G_BATTLE_BLOCKED] = float(b.target is not None and not b.target_is_host)
            sl.globals[:_G_SIDES] = g
        pools = (view.pool(me), view.pool(opp))
        aps = (view.ap(me), view.ap(opp))
        key2 = (keys.get("version"), keys.get("hosts/quick"), aps, pools)
        if keys.get("g/sides") != key2:
            keys["g/sides"] = key2
            sizes = (view.zone_sizes(me), view.zone_sizes(opp))
            markers = (len(keys.get("my_markers") or ()), len(keys.get("opp_markers") or ()))
            vals: list[float] = []
            for side in (0, 1):
                dz, hand, deck, drop, banished, forms = sizes[side]
                pool = pools[side]
                hs = keys["host_stats"][side]
                health, soul = hs if hs is not None else (0, 0)
                vals += (aps[side], *[pool.get(r, 0) for r in RES], health, soul, dz,
                         health - dz if hs is not None else 0, hand, deck, drop, banished, forms, markers[side])
            sides = sl.globals[_G_SIDES:_G_KNOWN]
            sides[:] = vals
            sides /= _SIDE_DIVS2
            np.clip(sides, -LIMIT, LIMIT, out=sides)
        opp_hand = view.zone_sizes(opp)[1]
        key3 = (len(memory.opp_hand), opp_hand, len(memory.deck_top), keys.get("choice_n"),
                tuple(sl.left_out.values()))
        if keys.get("g/known") != key3:
            keys["g/known"] = key3
            known = min(len(memory.opp_hand), opp_hand)
            g = [_clip(known / 10), _clip((opp_hand - known) / 10), _clip(len(memory.deck_top) / 3),
                 _clip((keys.get("choice_n") or 0) / 10)]
            g += [_clip(n / 10) for n in sl.left_out.values()]
            sl.globals[_G_KNOWN:] = g

    def _history(self, view: PlayerView, sl: Slate, memory: Memory) -> None:
        """The memory's table, with how many turns ago each entry happened (0..15)."""
        turn = view.turn
        key = (memory.logged, memory.stamp, turn, memory.game)
        if sl.keys.get("history") == key:
            return
        sl.keys["history"] = key
        h = sl.history
        h[:] = memory.table
        np.clip(turn - memory.table[:, 6], 0, 15, out=h[:, 6])

    # ================================================================== actions
    def _actions(self, view: PlayerView, sl: Slate, legal: Sequence[tuple[int, Action]] | None,
                 token: object) -> None:
        key: Any = None
        if legal is not None:
            key = (token, sl.epoch)
        if sl.keys.get("actions", _UNSET) == key and (key is None or token is not None):
            return
        sl.keys["actions"] = key
        old = sl.legal_idx
        if old:
            sl.mask[old] = 0
            sl.act_card[old] = 0
            sl.act_src[old] = -1
            sl.act_tgt[old] = -1
        sl.legal_idx = []
        if not legal:
            return
        me = view.player
        dec_row = sl.keys.get("decision_row", -1)
        memo = self._action_rows
        idx: list[int] = []
        srcs: list[int] = []
        tgts: list[int] = []
        from_rows: list[int] = []  # the row whose card_id is the action's card (-1: none there)
        beyond: list[tuple[int, Action, bool]] = []
        for i, a in legal:
            mk = (a, me)
            hit = memo.get(mk)
            if hit is None:
                hit = memo[mk] = self._action_rows_of(a, me)
            src, tgt, card_from = hit
            if src == _DEC:
                src = dec_row
            idx.append(i)
            srcs.append(src)
            tgts.append(tgt)
            r = -1 if card_from == 0 else src if card_from == 1 else tgt
            from_rows.append(r)
            if r < 0 and card_from:
                beyond.append((len(idx) - 1, a, card_from == 2))
        sl.legal_idx = idx
        sl.mask[idx] = 1
        sl.act_src[idx] = srcs
        sl.act_tgt[idx] = tgts
        cards = sl.card_id[from_rows]
        for j, a, is_target in beyond:
            cards[j] = self._card_beyond(view, a, is_target)
        if not beyond and -1 in from_rows:
            cards[np.asarray(from_rows) < 0] = NONE
        elif beyond:
            for j, r in enumerate(from_rows):
                if r < 0 and not any(b[0] == j for b in beyond):
                    cards[j] = NONE
        sl.act_card[idx] = cards

    def _action_rows_of(self, a: Action, me: int) -> tuple[int, int, int]:
        """(source row, target row, where the card is: 0 none, 1 the source, 2 the target) of an
        action for viewer ``me``; ``_DEC`` stands for the decision row."""
        k = a.kind
        src = a.source
        if src is not None and (src.area is Area.HAND or src.area is Area.LISTED or src.area is Area.PENDING):
            z = self.z["my_hand" if src.area is Area.HAND else "choice" if src.area is Area.LISTED else "pending"]
            return (z.start + src.index if src.index < z.rows else -1), -1, 1
        if k is Kind.ACTIVATE or k is Kind.ATTACK:
            return self._place_row(me, a.src), -1, 1
        if k is Kind.TARGET:
            return _DEC, self._place_row(me, a.dst), 2
        if k is Kind.SLOT:
            return _DEC, self._place_row(me, a.dst), 1
        if k is Kind.PAY or k is Kind.YES:
            return _DEC, -1, 1
        return -1, -1, 0

    def _card_beyond(self, view: PlayerView, a: Action, target: bool) -> int:
        """The card_id of an action's card that has no row (a zone longer than its rows)."""
        k = a.kind
        cards: list[Any] = []
        place = a.source if a.source is not None else a.target
        if place is None:
            return NONE
        j = place.index
        if place.area is Area.HAND:
            cards = view.hand()
        elif place.area is Area.LISTED:
            cards = view.choice_cards()
        elif place.area is Area.PENDING:
            cards = view.my_pending()
        elif k is Kind.TARGET and place.area is Area.STACK:
            items = view.stack()
            if j < len(items):
                card = items[j][1]
                return card_static(card)[1] if card is not None else FACE_DOWN
            return NONE
        elif k in (Kind.ACTIVATE, Kind.TARGET):
            o = view.at(place)
            return card_static(o.card)[1] if o is not None else (FACE_DOWN if target else NONE)
        else:
            return NONE
        return card_static(cards[j].card)[1] if j < len(cards) else NONE

    def _place_row(self, me: int, place: Place) -> int:
        """The row of a board or stack place; one of ``me``'s own when written without a side
        (``f2`` of an attack or slot)."""
        i = place.index
        if place.area is Area.STACK:
            z = self.z["stack"]
            return z.start + i if i < z.rows else -1
        if place.marker >= 0:  # a marker: not a row of its own here
            return -1
        prefix = "my_" if place.side < 0 or place.side == me else "opp_"
        if place.area is Area.HOST:
            return self.z[prefix + "host"].start
        if place.area is Area.FORM:
            z = self.z[prefix + "forms"]
        elif place.area is Area.FRONT:
            z = self.z[prefix + "front"]
        elif place.area is Area.BACK:
            z = self.z[prefix + "back"]
        else:
            return -1
        return z.start + i if i < z.rows else -1


def fresh(view: PlayerView, memory: Memory, legal: Sequence[tuple[int, Action]] | None = None,
          config: Any = None) -> dict[str, np.ndarray]:
    """A fresh (non-incremental) encoding into new arrays: for tests and one-off use."""
    enc = Encoder(config if config is not None else view.config)
    sl = enc.slate()
    enc.encode(view, memory, sl, legal, None)
    return sl.arrays


__all__ = ["MAX_ABILITIES", "MAX_FORMS", "PAY_SYMBOLS", "TYPES", "Encoder", "Slate", "action_table_arrays",
           "card_static", "fresh"]
