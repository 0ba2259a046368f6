"""Observation encoder: a float32 vector built only from one agent's PlayerView (its public
API: public facts and the agent's own cards, never the real game state).

Cards are encoded by *features* (type, resource, cost, stats, keywords, ability and effect
tags), so a policy can meet cards it never saw. The vector has named sections
(``OBS_SECTIONS``); ``section(obs, name)`` slices it. Ego-centric: the agent's side first.
"""

from __future__ import annotations

import numpy as np

from hostwcg_env.engine import CardDef, CardType, RuleConfig
from hostwcg_env.engine.actions import DecisionKind
from hostwcg_env.engine.carddef import EVENTS
from hostwcg_env.engine.primitives import PRIMITIVES
from hostwcg_env.engine.state import Obj
from hostwcg_env.engine.travel import register_class
from hostwcg_env.engine.view import PlayerView

from .layout import MAX_FORMS, MAX_LIST, MAX_STACK, OBS_PENDING, hand_slots
from .observers.v0_encoder import EncoderCore, EncoderHooks

CARD_TYPES = [t.value for t in CardType]
RES = ["&", "£", "!", "%", "$"]
KW = ["fast", "first_strike", "cannot_block", "lingering", "unique", "equipment"]
AB_KINDS = ["spell", "static", "triggered", "activated", "ambush", "during"]
# v0's card features name the primitives there were when its layout was fixed (the shipped
# checkpoint reads this layout): a primitive added since has no v0 column; hostwcg_v1's card
# table shows it (hostwcg_env.env.v1.cards.V1_CARD_EXTRA).
PRIMS = ["banish", "create_token", "damage", "destroy", "discard", "draw", "equip", "gain_control",
         "gain_resource", "grant", "heal", "look_top", "modify", "move_slot", "retarget",
         "return_to_hand", "reveal_hand", "search", "set"]
assert set(PRIMS) <= PRIMITIVES
EVS = sorted(EVENTS)
PHASES = ["setup", "pregame", "start", "action1", "battle", "action2", "end"]
STEPS = ["declare", "attack", "block", "early_damage", "normal_damage", "after", "main", "discard", "expire"]
DECISIONS = [k.value for k in DecisionKind]
ITEM_KINDS = ["card", "ability", "trigger", "spell", "ambush", "during"]

CARD_FEATURES = (
    [f"type:{t}" for t in CARD_TYPES] + [f"resource:{r}" for r in RES] + ["cost_total"]
    + [f"cost:{r}" for r in RES] + ["health", "power", "soul"] + [f"kw:{k}" for k in KW]
    + [f"abilities:{k}" for k in AB_KINDS] + [f"does:{p}" for p in PRIMS] + [f"on:{e}" for e in EVS]
    + ["static_health", "static_power", "static_soul", "static_sets", "once_per_turn", "optional", "activation_cost"]
)
F = len(CARD_FEATURES)
ENTITY_EXTRA = ["cur_health", "cur_power", "damage", "sick", "attacked", "markers", "token", "marker_power"]
LIMIT = 10.0  # every value lies in [-LIMIT, LIMIT], the observation space's bounds


def _clip(x: float) -> float:
    """Counts and stats grow without bound in long games (a pool nobody spends): saturate."""
    return x if -LIMIT <= x <= LIMIT else max(-LIMIT, min(LIMIT, x))
_TYPE_INDEX = {t: CARD_TYPES.index(t.value) for t in CardType}
PLAYER_FIELDS = (["health", "soul", "damage", "hand", "deck", "drop", "banished", "forms", "ap"]
                 + [f"pool:{r}" for r in RES])
# what each player field is divided by (Host stats and small zones by 10, deck and drop by 50,
# forms by the section's rows, action points by 4, each pool by 5)
_PLAYER_DIV = (10, 10, 10, 10, 50, 50, 10, MAX_FORMS, 4) + (5,) * len(RES)
_NV = len(PLAYER_FIELDS)

_cache: dict[int, tuple[CardDef, np.ndarray]] = {}


def card_vector(card: CardDef) -> np.ndarray:
    """The feature vector of a card definition (cached)."""
    hit = _cache.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    v = np.zeros(F, dtype=np.float32)
    idx = {name: i for i, name in enumerate(CARD_FEATURES)}
    v[idx[f"type:{card.type.value}"]] = 1
    v[idx[f"resource:{card.resource.value}"]] = 1
    v[idx["cost_total"]] = len(card.cost) / 5
    for r in card.cost:
        v[idx[f"cost:{r.value}"]] += 1 / 3
    v[idx["health"]] = card.health / 10
    v[idx["power"]] = card.power / 10
    v[idx["soul"]] = card.soul / 10
    for k in card.keywords:
        if f"kw:{k}" in idx:
            v[idx[f"kw:{k}"]] = 1
    if card.is_equipment:
        v[idx["kw:equipment"]] = 1
    for ab in card.abilities:
        v[idx[f"abilities:{ab.kind}"]] += 1
        for st in ab.steps:
            col = idx.get(f"does:{st.do}")
            if col is not None:
                v[col] = 1
        if ab.when is not None:
            v[idx[f"on:{ab.when.event}"]] = 1
        if ab.kind == "static":
            v[idx["static_health"]] += ab.health / 5
            v[idx["static_power"]] += ab.power / 5
            v[idx["static_soul"]] += ab.soul / 5
            v[idx["static_sets"]] += int(ab.set_health is not None or ab.set_power is not None
                                         or ab.set_soul is not None)
        v[idx["once_per_turn"]] += int(ab.once_per_turn)
        v[idx["optional"]] += int(ab.optional)
        v[idx["activation_cost"]] += len(ab.cost) / 5
    np.clip(v, -LIMIT, LIMIT, out=v)
    _cache[id(card)] = (card, v)
    return v


def obs_sections(config: RuleConfig) -> list[tuple[str, int, int, str]]:
    """(name, rows, width, description) for every section, in order."""
    f, b = config.frontrow_slots, config.backrow_slots
    hand = hand_slots(config)
    return [
        ("global", 1, 1 + len(PHASES) + len(STEPS) + 2 + len(DECISIONS) + 1 + 4,
         "turn/limit, phase, step, my turn, I went first, my decision kind, stack size, battle flags"),
        ("me", 1, len(PLAYER_FIELDS) + F, "my Host stats and zone counts, pool, Host card features"),
        ("opponent", 1, len(PLAYER_FIELDS) + F, "the same for the opponent (counts only for hidden zones)"),
        ("my_hand", hand, 1 + F, "present flag + card features for each hand index"),
        ("my_front", f, 1 + F + len(ENTITY_EXTRA), "my frontrow slots: present, card, current stats"),
        ("opp_front", f, 1 + F + len(ENTITY_EXTRA), "the opponent's frontrow slots"),
        ("my_back", b, 2 + F, "my backrow: present, face-down, card features"),
        ("opp_back", b, 2 + F, "the opponent's backrow (a face-down card shows only its flag)"),
        ("my_forms", MAX_FORMS, 1 + F, "my form zone"),
        ("opp_forms", MAX_FORMS, 1 + F, "the opponent's form zone"),
        ("stack", MAX_STACK, 3 + len(ITEM_KINDS) + 1 + F,
         "stack items bottom first: present, mine, targets, kind, hidden, source card"),
        ("pending", OBS_PENDING, 1 + F, "my first pending triggers, in the order `trigger i` names them"),
        ("choice", MAX_LIST, 1 + F, "the cards of a search or look decision, as `card` list items"),
        ("drops", 2, len(CARD_TYPES), "card types in my and the opponent's drop zone (counts / 10)"),
    ]

# copies and pickles of an env hold the encoder; compiled, its classes need a reducer
# (hostwcg_env.engine.travel): the attributes each __init__ argument sets, in order
register_class(EncoderHooks, ("hand", "max_forms", "max_stack", "nv", "player_div", "limit", "item_kinds",
                              "type_index", "card_vector", "sections", "global_row", "entity_nums", "drop_block"))
register_class(EncoderCore, ("h",))


class ObservationEncoder:
    """Writes observations into a preallocated buffer (one per agent)."""

    def __init__(self, config: RuleConfig) -> None:
        self.config = config
        self.sections = obs_sections(config)
        self.offsets: dict[str, tuple[int, int, int]] = {}
        start = 0
        for name, rows, width, _ in self.sections:
            self.offsets[name] = (start, rows, width)
            start += rows * width
        self.size = start
        self.hand = self.offsets["my_hand"][1]
        self._core = EncoderCore(EncoderHooks(
            hand=self.hand, max_forms=MAX_FORMS, max_stack=MAX_STACK, nv=_NV, player_div=_PLAYER_DIV,
            limit=LIMIT, item_kinds=ITEM_KINDS, type_index=_TYPE_INDEX, card_vector=card_vector,
            sections=self._sections, global_row=self._global_row, entity_nums=self._entity_nums,
            drop_block=self._drop_block))

    def view_of(self, buf: np.ndarray, name: str) -> np.ndarray:
        start, rows, width = self.offsets[name]
        return buf[start : start + rows * width].reshape(rows, width)

    def encode(self, view: PlayerView, out: np.ndarray | None = None) -> np.ndarray:
        """Encode ``view``. With a persistent ``out`` buffer, only the sections and rows whose
        inputs changed since the last call on that buffer are rewritten (incremental); the
        result is identical to a fresh encoding.

        Every input is read first, through the view's public queries, and compared with what
        the buffer last showed: the global row (turn, phase, step...: it moves at most stops)
        on its own, then everything else at once, so that a stop where nothing but the global
        row changed costs those queries and two comparisons; only where the rest changed are
        the sections compared one by one. The work is done by
        ``hostwcg_env.env.observers.v0_encoder.EncoderCore``, compiled with the engine (docs/engine.md)."""
        if out is None:
            buf = np.zeros(self.size, dtype=np.float32)
            self._core.write(view, self._sections(buf), {})
            return buf
        return self._core.encode(view, out)

    def _sections(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        return {name: self.view_of(buf, name) for name in self.offsets}

    def _global_row(self, view: PlayerView) -> np.ndarray:
        row = np.zeros(self.offsets["global"][2], dtype=np.float32)
        self._global(view, row)
        return row

    @staticmethod
    def _entity_nums(extra: tuple) -> np.ndarray:
        """An Entity row's stat numbers from its row key's stats."""
        h, pw, dmg, sick, attacked, markers, token, fs, cb = extra
        return np.array((_clip(h / 10), _clip(pw / 10), _clip(dmg / 10), float(sick), float(attacked),
                         _clip(markers / 3), float(token), float(fs) + float(cb) * 0.5), dtype=np.float32)

    def _drop_block(self, drops: list[list[Obj]]) -> np.ndarray:
        """The drops section for the two drop zones (card types, counts / 10)."""
        start, rows, width = self.offsets["drops"]
        block = np.zeros((rows, width), dtype=np.float32)
        for j, pile in enumerate(drops):
            for o in pile:
                block[j, _TYPE_INDEX[o.card.type]] += 0.1
        np.minimum(block, LIMIT, out=block)  # counts: never below 0
        return block

    def _global(self, view: PlayerView, g: np.ndarray) -> None:
        """The global row but its first value (the turn / turn limit, written by ``encode``)."""
        k = 1
        if view.phase in PHASES:
            g[k + PHASES.index(view.phase)] = 1
        k += len(PHASES)
        if view.step in STEPS:
            g[k + STEPS.index(view.step)] = 1
        k += len(STEPS)
        g[k] = float(view.turn_player == view.player)
        g[k + 1] = float(view.first_player == view.player)
        k += 2
        dkind = view.decision_kind
        if dkind is not None and view.deciding == view.player:
            g[k + DECISIONS.index(dkind.value)] = 1
        k += len(DECISIONS)
        g[k] = view.stack_size / MAX_STACK
        k += 1
        b = view.battle
        if b is not None:
            g[k] = 1
            g[k + 1] = float(b.controller == view.player)
            g[k + 2] = float(b.target_is_host)
            g[k + 3] = float(b.target is not None)


def section(obs: np.ndarray, name: str, config: RuleConfig | None = None) -> np.ndarray:
    """Slice a flat observation vector by section name: returns a (rows, width) array."""
    enc = ObservationEncoder(config or RuleConfig())
    if name not in enc.offsets:
        raise KeyError(f"unknown section {name!r} (sections: {', '.join(enc.offsets)})")
    if obs.shape[-1] != enc.size:
        raise ValueError(f"the observation has {obs.shape[-1]:,} values; this table's have {enc.size:,}: "
                         "pass the env's RuleConfig as config")
    return enc.view_of(obs, name)
