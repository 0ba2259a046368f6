"""Observation encoder: a float32 vector built only from one agent's PlayerView (its public
API: public facts and the agent's own cards, never the real game state).

Cards are encoded by *features* (type, resource, cost, stats, keywords, ability and effect
tags), so a policy can meet cards it never saw. The vector has named sections
(``OBS_SECTIONS``); ``section(obs, name)`` slices it. Ego-centric: the agent's side first.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hostwcg_env.engine import CardDef, CardType, RuleConfig
from hostwcg_env.engine.actions import DecisionKind
from hostwcg_env.engine.carddef import EVENTS
from hostwcg_env.engine.primitives import PRIMITIVES
from hostwcg_env.engine.state import Obj
from hostwcg_env.engine.view import PlayerView

from .layout import MAX_FORMS, MAX_LIST, MAX_STACK, OBS_PENDING, hand_slots

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
_UNSET = object()
LIMIT = 10.0  # every value lies in [-LIMIT, LIMIT], the observation space's bounds


def _clip(x: float) -> float:
    """Counts and stats grow without bound in long games (a pool nobody spends): saturate."""
    return x if -LIMIT <= x <= LIMIT else max(-LIMIT, min(LIMIT, x))
_TYPE_INDEX = {t: CARD_TYPES.index(t.value) for t in CardType}
PLAYER_FIELDS = ["health", "soul", "damage", "hand", "deck", "drop", "banished", "forms", "ap"] + [f"pool:{r}" for r in RES]
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
            v[idx["static_sets"]] += int(ab.set_health is not None or ab.set_power is not None or ab.set_soul is not None)
        v[idx["once_per_turn"]] += int(ab.once_per_turn)
        v[idx["optional"]] += int(ab.optional)
        v[idx["activation_cost"]] += len(ab.cost) / 5
    np.clip(v, -LIMIT, LIMIT, out=v)
    _cache[id(card)] = (card, v)
    return v


def _type_counts(pile: list[Obj]) -> list[int]:
    """How many cards of each type (CARD_TYPES order) a pile holds."""
    out = [0] * len(CARD_TYPES)
    for o in pile:
        out[_TYPE_INDEX[o.card.type]] += 1
    return out


def _card_rows(rows: np.ndarray, cards: list[CardDef]) -> None:
    """Rows of (present flag, card features), as many as the section has."""
    for i, card in enumerate(cards[: rows.shape[0]]):
        rows[i, 0] = 1
        rows[i, 1:] = card_vector(card)


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
        ("stack", MAX_STACK, 3 + len(ITEM_KINDS) + 1 + F, "stack items bottom first: present, mine, targets, kind, hidden, source card"),
        ("pending", OBS_PENDING, 1 + F, "my first pending triggers, in the order `trigger i` names them"),
        ("choice", MAX_LIST, 1 + F, "the cards of a search or look decision, as `card` list items"),
        ("drops", 2, len(CARD_TYPES), "card types in my and the opponent's drop zone (counts / 10)"),
    ]


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
        self._buf_views: dict[int, tuple[np.ndarray, dict[str, np.ndarray], dict[str, Any]]] = {}
        self._global_rows: dict[tuple, np.ndarray] = {}  # the global row of each key met
        self._entity_rows: dict[tuple, np.ndarray] = {}  # an Entity row's stat numbers, by its stats
        self._drop_rows: dict[tuple, np.ndarray] = {}  # the drops section, by each pile's type counts
        # the public stats of objects in play, shared by every buffer (both agents' views read
        # the same values: a frontrow card and a Host after the game begins are public, 6.1):
        # (game, board, modv) -> {object id: its stats}
        self._stats_key: tuple = ()
        self._stats: dict[Any, tuple] = {}

    def view_of(self, buf: np.ndarray, name: str) -> np.ndarray:
        start, rows, width = self.offsets[name]
        return buf[start : start + rows * width].reshape(rows, width)

    def _memo(self, buf: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Section views of a persistent buffer and what each section (or row) last showed."""
        hit = self._buf_views.get(id(buf))
        if hit is None or hit[0] is not buf:
            if len(self._buf_views) >= 8:  # the env and agents keep one buffer per player; a
                self._buf_views.clear()  # caller passing fresh buffers must not grow this table
            hit = (buf, {name: self.view_of(buf, name) for name in self.offsets}, {})
            self._buf_views[id(buf)] = hit
        return hit[1], hit[2]

    def encode(self, view: PlayerView, out: np.ndarray | None = None) -> np.ndarray:
        """Encode ``view``. With a persistent ``out`` buffer, only the sections and rows whose
        inputs changed since the last call on that buffer are rewritten (incremental); the
        result is identical to a fresh encoding.

        Every input is read first, through the view's public queries, and compared with what
        the buffer last showed: the global row (turn, phase, step...: it moves at most stops)
        on its own, then everything else at once (``rest``), so that a stop where nothing but
        the global row changed costs those queries and two comparisons; only where ``rest``
        changed are the sections compared one by one."""
        if out is None:
            buf = np.zeros(self.size, dtype=np.float32)
            v = {n: self.view_of(buf, n) for n in self.offsets}
            keys: dict[str, Any] = {}
        else:
            buf = out
            v, keys = self._memo(buf)
        me = view.player
        game = view.game_key
        if keys.get("viewer") != me or keys.get("state") is not game:
            # a buffer reused for another player or another game (object ids, the board
            # counter and the timestamps start again in every game) starts afresh
            keys.clear()
            keys["viewer"] = me
            keys["state"] = game
        opp = 1 - me
        changes = view.changes
        mine_now = view.deciding == me
        stack_size = view.stack_size
        b = view.battle

        # global scalars: the turn, and a row per distinct rest of the key (kept for the next
        # time it comes back)
        turn = view.turn
        gkey = (view.phase, view.step, view.turn_player, view.first_player,
                view.decision_kind if mine_now else None, stack_size,
                None if b is None else (b.controller, b.target_is_host, b.target is not None))
        if keys.get("global") != gkey:
            keys["global"] = gkey
            keys["turn"] = None
            rows_g = self._global_rows
            rkey = (me, gkey)
            row = rows_g.get(rkey)
            if row is None:
                if len(rows_g) > 50_000:
                    rows_g.clear()
                row = np.zeros(v["global"].shape[1], dtype=np.float32)
                self._global(view, row)
                rows_g[rkey] = row
            v["global"][0] = row
        if keys.get("turn") != turn:
            keys["turn"] = turn
            v["global"][0, 0] = turn / max(1, view.config.turn_limit)

        # everything the other sections read: the change counters (objects made, moved or
        # flipped, ``version``; in play, ``board``; stat modifications, ``modv``; damage,
        # ``dmg``), the zone counts, action points and pools, who is in each frontrow slot and
        # whether it is sick or attacked, the stack, my pending triggers, the cards my
        # decision shows me
        started = view.started
        counts = ((view.zone_sizes(me), view.ap(me), view.pool(me)),
                  (view.zone_sizes(opp), view.ap(opp), view.pool(opp)))
        fronts = (view.row(me, "front"), view.row(opp, "front"))  # a frontrow card is never face down
        fquick = ([o if o is None else (o.id, o.sick, o.attacked) for o in fronts[0]],  # type: ignore[union-attr]
                  [o if o is None else (o.id, o.sick, o.attacked) for o in fronts[1]])  # type: ignore[union-attr]
        items = view.stack() if stack_size else []
        skey = tuple([(it.sid, tuple(map(tuple, it.targets.values()))) for it, _c in items])
        mine = view.my_pending()
        pkey = tuple([t.seq for t in mine])
        choice = view.choice_cards() if mine_now else []
        shown = tuple([o.id for o in choice])
        rest = (changes, started, counts, fquick, skey, pkey, shown)
        if keys.get("rest") == rest:
            return buf
        keys["rest"] = rest
        version, board, modv, dmg = changes

        def whole(name: str, key: Any) -> bool:
            """True (and the section zeroed) if the section's key changed."""
            if keys.get(name, _UNSET) == key:
                return False
            keys[name] = key
            v[name][:] = 0
            return True

        def rows_of(name: str, new: list[Any]) -> list[int]:
            """Rows of a section whose key changed (zeroed, to be written); records the keys."""
            old = keys.get(name)
            if old == new:
                return []
            keys[name] = new
            rows = v[name]
            if old is None or len(old) != len(new):
                rows[:] = 0
                return list(range(len(new)))
            changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
            for i in changed:
                rows[i] = 0
            return changed

        # players: Host stats, zone counts, pool, Host card
        # a Host's stats change only with state.board / state.modv, and it is hidden until
        # the game begins (4.6.1): its stats read 0
        skey_now = (game, board, modv)
        if self._stats_key != skey_now:
            self._stats_key = skey_now
            self._stats = {}
        stats = self._stats
        hkey_all = (board, modv, started)
        if keys.get("hosts") != hkey_all:
            keys["hosts"] = hkey_all
            hvals = []
            for h in (view.host(me), view.host(opp)):
                if h is None:
                    hvals.append((None, 0, 0))
                    continue
                hs = stats.get(("host", h.id))
                if hs is None:
                    hs = stats[("host", h.id)] = (view.stat(h, "health"), view.stat(h, "soul"))
                hvals.append((h, *hs))
            keys["hosts/vals"] = hvals
        for (name, vkey, hkey), (sizes, ap, pool), (host, h_health, h_soul) in zip(
                (("me", "me/vals", "me/host"), ("opponent", "opponent/vals", "opponent/host")),
                counts, keys["hosts/vals"], strict=True):
            g = pool.get
            raw = (h_health, h_soul, *sizes, ap, g("&", 0), g("£", 0), g("!", 0), g("%", 0), g("$", 0))
            old = keys.get(vkey)
            if old != raw:
                keys[vkey] = raw
                r = v[name][0]
                if old is None:
                    r[:_NV] = [_clip(x / d) for x, d in zip(raw, _PLAYER_DIV, strict=True)]
                else:  # only the values that moved (one or two, mostly)
                    for i, x in enumerate(raw):
                        if x != old[i]:
                            r[i] = _clip(x / _PLAYER_DIV[i])
            hid = None if host is None else host.id
            if keys.get(hkey, _UNSET) != hid:
                keys[hkey] = hid
                v[name][0][_NV:] = 0 if host is None else card_vector(host.card)

        # zone contents (hands, form zones, drop zones, which object sits in a slot, face up
        # or down) change only with state.version: every creation, move, removal or flip
        # bumps it, so nothing below that reads only them is looked at while it stands still
        zones_same = keys.get("version") == version
        keys["version"] = version

        # my hand: one row per card
        my_hand = [] if zones_same else view.hand()
        hand_ids = tuple([o.id for o in my_hand])
        if not zones_same and keys.get("my_hand/quick") != hand_ids:
            keys["my_hand/quick"] = hand_ids
            hand = [o.card for o in my_hand[: self.hand]]
            rows = v["my_hand"]
            for i in rows_of("my_hand", [id(c) for c in hand] + [None] * (self.hand - len(hand))):
                if i < len(hand):
                    rows[i, 0] = 1
                    rows[i, 1:] = card_vector(hand[i])

        # frontrows: card and current stats per slot
        for name, qkey, slots, fq in (("my_front", "my_front/quick", fronts[0], fquick[0]),
                                      ("opp_front", "opp_front/quick", fronts[1], fquick[1])):
            # stats change only with state.board / state.modv; damage with state.dmg
            quick = (board, modv, dmg, fq)
            if keys.get(qkey) == quick:
                continue
            keys[qkey] = quick
            rkeys: list[Any] = []
            for o in slots:
                if isinstance(o, Obj):
                    st = stats.get(o.id)
                    if st is None:
                        kw = view.keywords(o)
                        st = stats[o.id] = (view.health(o), view.power(o), "first_strike" in kw, "cannot_block" in kw)
                    rkeys.append((o.id, st[0], st[1], o.damage, o.sick, o.attacked,
                                  len(o.markers), o.token, st[2], st[3]))
                else:
                    rkeys.append(None)
            rows = v[name]
            for i in rows_of(name, rkeys):
                k = rkeys[i]
                if k is not None:
                    self._entity(slots[i], k, rows[i])  # type: ignore[arg-type]

        # backrows: present, face-down, card (an opponent's face-down card shows its flag only);
        # a row shows only which object is in each slot, face down or not, whose, and whether
        # a decision of mine shows it (6.2)
        backs_same = zones_same and keys.get("shown") == shown
        keys["shown"] = shown
        for name, qkey, p in () if backs_same else (("my_back", "my_back/quick", me), ("opp_back", "opp_back/quick", opp)):
            slots = view.row(p, "back")
            rkeys = [None if o is None else ("face-down" if isinstance(o, str) else (o.id, o.face_down))
                     for o in slots]
            if keys.get(qkey) == rkeys:
                continue
            keys[qkey] = rkeys
            rows = v[name]
            for i in rows_of(name, rkeys):
                o = slots[i]
                if o is None:
                    continue
                rows[i, 0] = 1
                if isinstance(o, Obj):
                    rows[i, 1] = float(o.face_down)
                    rows[i, 2:] = card_vector(o.card)
                else:
                    rows[i, 1] = 1

        # form zones
        for name, qkey, p in () if zones_same else (("my_forms", "my_forms/quick", me), ("opp_forms", "opp_forms/quick", opp)):
            form_objs = view.forms(p)
            form_ids = tuple([o.id for o in form_objs])
            if keys.get(qkey) == form_ids:
                continue
            keys[qkey] = form_ids
            forms = [o.card for o in form_objs[:MAX_FORMS]]
            rows = v[name]
            for i in rows_of(name, [id(c) for c in forms] + [None] * (MAX_FORMS - len(forms))):
                if i < len(forms):
                    rows[i, 0] = 1
                    rows[i, 1:] = card_vector(forms[i])

        # the stack, bottom first
        if whole("stack", skey):
            rows = v["stack"]
            for i, (it, card) in enumerate(items[:MAX_STACK]):
                r = rows[i]
                r[0] = 1
                r[1] = float(it.controller == me)
                r[2] = _clip(sum(len(t) for t in it.targets.values()) / 3)
                r[3 + ITEM_KINDS.index(it.kind)] = 1
                k = 3 + len(ITEM_KINDS)
                if card is None:
                    r[k] = 1
                else:
                    r[k + 1 :] = card_vector(card)

        # my pending triggers and the cards of a search / look decision
        if whole("pending", pkey):
            _card_rows(v["pending"], [t.card for t in mine])
        if choice or keys.get("choice") != ():
            if whole("choice", shown):
                _card_rows(v["choice"], [o.card for o in choice])

        # card types in the drop zones
        if not zones_same:
            drops = (view.drop(me), view.drop(opp))
            dkey = tuple([tuple([o.id for o in pile]) for pile in drops])
            if keys.get("drops", _UNSET) != dkey:
                keys["drops"] = dkey
                counts_t = tuple([tuple(_type_counts(pile)) for pile in drops])
                block = self._drop_rows.get(counts_t)
                if block is None:
                    block = np.zeros(v["drops"].shape, dtype=np.float32)
                    for j, pile in enumerate(drops):
                        for o in pile:
                            block[j, _TYPE_INDEX[o.card.type]] += 0.1
                    np.minimum(block, LIMIT, out=block)  # counts: never below 0
                    if len(self._drop_rows) > 50_000:
                        self._drop_rows.clear()
                    self._drop_rows[counts_t] = block
                v["drops"][:] = block
        return buf

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

    def _entity(self, o: Obj, key: tuple, r: np.ndarray) -> None:
        """An Entity row from its card and the stats in its row key (see ``encode``)."""
        r[0] = 1
        r[1 : 1 + F] = card_vector(o.card)
        extra = key[1:]
        nums = self._entity_rows.get(extra)
        if nums is None:
            h, pw, dmg, sick, attacked, markers, token, fs, cb = extra
            if len(self._entity_rows) > 50_000:
                self._entity_rows.clear()
            nums = self._entity_rows[extra] = np.array(
                (_clip(h / 10), _clip(pw / 10), _clip(dmg / 10), float(sick), float(attacked),
                 _clip(markers / 3), float(token), float(fs) + float(cb) * 0.5), dtype=np.float32)
        r[1 + F :] = nums


def section(obs: np.ndarray, name: str, config: RuleConfig | None = None) -> np.ndarray:
    """Slice a flat observation vector by section name: returns a (rows, width) array."""
    enc = ObservationEncoder(config or RuleConfig())
    if name not in enc.offsets:
        raise KeyError(f"unknown section {name!r} (sections: {', '.join(enc.offsets)})")
    if obs.shape[-1] != enc.size:
        raise ValueError(f"the observation has {obs.shape[-1]:,} values; this table's have {enc.size:,}: "
                         "pass the env's RuleConfig as config")
    return enc.view_of(obs, name)
