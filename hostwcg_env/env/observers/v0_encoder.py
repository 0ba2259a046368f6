"""The hot part of hostwcg_v0's observation encoder, compiled with the engine (setup.py).

``hostwcg_env.env.observation.ObservationEncoder`` owns the observation's layout (sections,
card features, scaling) and the numpy buffers; this module runs its incremental ``encode``:
it reads one player's ``PlayerView`` through its public queries only, compares what it read
with what each buffer last showed, and rewrites only the rows that changed. Compiled in the
same mypyc group as ``view``, its queries of the view and of ``Obj`` are direct calls and
field reads instead of Python attribute lookups (docs/benchmarks.md).

Standard library and the engine only, like the engine itself: the buffers and rows are whatever the
encoder passes (numpy arrays), used through indexing alone, and every value that needs numpy
to be made (a card's feature vector, a cached row) comes from a function the encoder gives
(``EncoderHooks``), called only when a cache misses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from hostwcg_env.engine.carddef import CardDef, CardType
from hostwcg_env.engine.state import Obj, StackItem
from hostwcg_env.engine.view import PlayerView

_UNSET: Final = object()


class EncoderHooks:
    """What the encoder's layout gives the compiled part: sizes, scales, and the functions
    that build numpy values (each called only on a cache miss)."""

    def __init__(self, hand: int, max_forms: int, max_stack: int, nv: int, player_div: tuple[int, ...],
                 limit: float, item_kinds: list[str], type_index: dict[CardType, int],
                 card_vector: Callable[[CardDef], Any], sections: Callable[[Any], dict[str, Any]],
                 global_row: Callable[[PlayerView], Any], entity_nums: Callable[[tuple[Any, ...]], Any],
                 drop_block: Callable[[list[list[Obj]]], Any]) -> None:
        self.hand = hand
        self.max_forms = max_forms
        self.max_stack = max_stack
        self.nv = nv
        self.player_div = player_div
        self.limit = limit
        self.item_kinds = item_kinds
        self.type_index = type_index
        self.card_vector = card_vector  # CardDef -> its feature row
        self.sections = sections  # buffer -> {section name: (rows, width) view of it}
        self.global_row = global_row  # view -> the global row but its turn value
        self.entity_nums = entity_nums  # an Entity row key's stats -> the row's stat numbers
        self.drop_block = drop_block  # the two drop zones -> the drops section


def clip(x: float, limit: float) -> float:
    """Counts and stats grow without bound in long games (a pool nobody spends): saturate."""
    return x if -limit <= x <= limit else max(-limit, min(limit, x))


class EncoderCore:
    """The incremental encoder: per buffer, the section views and what each section (or row)
    last showed; caches shared by every buffer (rows by key, public stats by board)."""

    def __init__(self, hooks: EncoderHooks) -> None:
        self.h = hooks
        self._buf_views: dict[int, tuple[Any, dict[str, Any], dict[str, Any]]] = {}
        self._global_rows: dict[tuple[Any, ...], Any] = {}  # the global row of each key met
        self._entity_rows: dict[tuple[Any, ...], Any] = {}  # an Entity row's stat numbers, by its stats
        self._drop_rows: dict[tuple[Any, ...], Any] = {}  # the drops section, by each pile's type counts
        # the public stats of objects in play, shared by every buffer (both agents' views read
        # the same values: a frontrow card and a Host after the game begins are public, 6.1),
        # for one (game, board, modv)
        self._stats_key: tuple[Any, ...] = ()
        self._stats: dict[int, tuple[int, int, bool, bool]] = {}
        self._host_stats: dict[int, tuple[int, int]] = {}

    def encode(self, view: PlayerView, buf: Any) -> Any:
        """Encode ``view`` into the persistent buffer ``buf`` (see ``ObservationEncoder.encode``)."""
        hit = self._buf_views.get(id(buf))
        if hit is None or hit[0] is not buf:
            if len(self._buf_views) >= 8:  # the env and agents keep one buffer per player; a
                self._buf_views.clear()  # caller passing fresh buffers must not grow this table
            hit = (buf, self.h.sections(buf), {})
            self._buf_views[id(buf)] = hit
        self.write(view, hit[1], hit[2])
        return buf

    def write(self, view: PlayerView, v: dict[str, Any], keys: dict[str, Any]) -> None:
        """Bring the sections ``v`` up to ``view``, given what ``keys`` says they show."""
        h = self.h
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
                row = h.global_row(view)
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
        my_front = view.row(me, "front")  # a frontrow card is never face down
        opp_front = view.row(opp, "front")
        fquick = (_quick(my_front), _quick(opp_front))
        items: list[tuple[StackItem, CardDef | None]] = view.stack() if stack_size else []
        skey = tuple([(it.sid, tuple([tuple(t) for t in it.targets.values()])) for it, _c in items])
        mine = view.my_pending()
        pkey = tuple([t.seq for t in mine])
        choice = view.choice_cards() if mine_now else []
        shown = tuple([o.id for o in choice])
        rest = (changes, started, counts, fquick, skey, pkey, shown)
        if keys.get("rest") == rest:
            return
        keys["rest"] = rest
        version, board, modv, dmg = changes

        # players: Host stats, zone counts, pool, Host card
        # a Host's stats change only with state.board / state.modv, and it is hidden until
        # the game begins (4.6.1): its stats read 0
        skey_now = (game, board, modv)
        if self._stats_key != skey_now:
            self._stats_key = skey_now
            self._stats = {}
            self._host_stats = {}
        stats = self._stats
        hkey_all = (board, modv, started)
        if keys.get("hosts") != hkey_all:
            keys["hosts"] = hkey_all
            hvals: list[tuple[Obj | None, int, int]] = []
            for host in (view.host(me), view.host(opp)):
                if host is None:
                    hvals.append((None, 0, 0))
                    continue
                hs = self._host_stats.get(host.id)
                if hs is None:
                    hs = self._host_stats[host.id] = (view.stat(host, "health"), view.stat(host, "soul"))
                hvals.append((host, hs[0], hs[1]))
            keys["hosts/vals"] = hvals
        hosts: list[tuple[Obj | None, int, int]] = keys["hosts/vals"]
        self._player(v["me"], keys, "me/vals", "me/host", counts[0], hosts[0])
        self._player(v["opponent"], keys, "opponent/vals", "opponent/host", counts[1], hosts[1])

        # zone contents (hands, form zones, drop zones, which object sits in a slot, face up
        # or down) change only with state.version: every creation, move, removal or flip
        # bumps it, so nothing below that reads only them is looked at while it stands still
        zones_same = keys.get("version") == version
        keys["version"] = version

        # my hand: one row per card
        if not zones_same:
            my_hand = view.hand()
            hand_ids = tuple([o.id for o in my_hand])
            if keys.get("my_hand/quick") != hand_ids:
                keys["my_hand/quick"] = hand_ids
                self._cards(v, keys, "my_hand", [o.card for o in my_hand[: h.hand]], h.hand)

        # frontrows: card and current stats per slot
        self._front(view, v, keys, "my_front", "my_front/quick", my_front,
                    (board, modv, dmg, fquick[0]), stats)
        self._front(view, v, keys, "opp_front", "opp_front/quick", opp_front,
                    (board, modv, dmg, fquick[1]), stats)

        # backrows: present, face-down, card (an opponent's face-down card shows its flag only);
        # a row shows only which object is in each slot, face down or not, whose, and whether
        # a decision of mine shows it (6.2)
        backs_same = zones_same and keys.get("shown") == shown
        keys["shown"] = shown
        if not backs_same:
            self._back(view, v, keys, "my_back", "my_back/quick", me)
            self._back(view, v, keys, "opp_back", "opp_back/quick", opp)

        # form zones
        if not zones_same:
            for name, qkey, p in (("my_forms", "my_forms/quick", me), ("opp_forms", "opp_forms/quick", opp)):
                form_objs = view.forms(p)
                form_ids = tuple([o.id for o in form_objs])
                if keys.get(qkey) == form_ids:
                    continue
                keys[qkey] = form_ids
                self._cards(v, keys, name, [o.card for o in form_objs[: h.max_forms]], h.max_forms)

        # the stack, bottom first
        if self._whole(v, keys, "stack", skey):
            rows = v["stack"]
            nk = len(h.item_kinds)
            for i, (it, card) in enumerate(items[: h.max_stack]):
                r = rows[i]
                r[0] = 1
                r[1] = float(it.controller == me)
                r[2] = clip(sum([len(t) for t in it.targets.values()]) / 3, h.limit)
                r[3 + h.item_kinds.index(it.kind)] = 1
                k = 3 + nk
                if card is None:
                    r[k] = 1
                else:
                    r[k + 1 :] = h.card_vector(card)

        # my pending triggers and the cards of a search / look decision
        if self._whole(v, keys, "pending", pkey):
            self._card_rows(v["pending"], [t.card for t in mine])
        if choice or keys.get("choice") != ():
            if self._whole(v, keys, "choice", shown):
                self._card_rows(v["choice"], [o.card for o in choice])

        # card types in the drop zones
        if not zones_same:
            drops = [view.drop(me), view.drop(opp)]
            dkey = tuple([tuple([o.id for o in pile]) for pile in drops])
            if keys.get("drops", _UNSET) != dkey:
                keys["drops"] = dkey
                tindex = h.type_index
                counts_t = tuple([_type_counts(pile, tindex) for pile in drops])
                block = self._drop_rows.get(counts_t)
                if block is None:
                    block = h.drop_block(drops)
                    if len(self._drop_rows) > 50_000:
                        self._drop_rows.clear()
                    self._drop_rows[counts_t] = block
                v["drops"][:] = block

    # ------------------------------------------------------------ sections
    def _player(self, r2: Any, keys: dict[str, Any], vkey: str, hkey: str,
                count: tuple[tuple[int, ...], int, dict[str, int]], host: tuple[Obj | None, int, int]) -> None:
        """A player's row: Host stats, zone counts, pool, Host card (only the values that moved)."""
        h = self.h
        sizes, ap, pool = count
        g = pool.get
        raw = (host[1], host[2], *sizes, ap, g("&", 0), g("£", 0), g("!", 0), g("%", 0), g("$", 0))
        old = keys.get(vkey)
        r = r2[0]
        if old != raw:
            keys[vkey] = raw
            div = h.player_div
            limit = h.limit
            if old is None:
                r[: h.nv] = [clip(x / d, limit) for x, d in zip(raw, div, strict=True)]
            else:  # only the values that moved (one or two, mostly)
                for i, x in enumerate(raw):
                    if x != old[i]:
                        r[i] = clip(x / div[i], limit)
        obj = host[0]
        hid = None if obj is None else obj.id
        if keys.get(hkey, _UNSET) != hid:
            keys[hkey] = hid
            r[h.nv :] = 0 if obj is None else h.card_vector(obj.card)

    def _cards(self, v: dict[str, Any], keys: dict[str, Any], name: str, cards: list[CardDef], n: int) -> None:
        """A section of card rows (present flag, card features), rewriting the changed rows."""
        ids: list[Any] = [id(c) for c in cards]
        ids += [None] * (n - len(cards))
        rows = v[name]
        for i in self._rows_of(v, keys, name, ids):
            if i < len(cards):
                rows[i, 0] = 1
                rows[i, 1:] = self.h.card_vector(cards[i])

    def _front(self, view: PlayerView, v: dict[str, Any], keys: dict[str, Any], name: str, qkey: str,
               slots: list[Obj | None | str], quick: tuple[Any, ...],
               stats: dict[int, tuple[int, int, bool, bool]]) -> None:
        """A frontrow: card and current stats per slot; stats change only with state.board /
        state.modv, damage with state.dmg."""
        if keys.get(qkey) == quick:
            return
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
        for i in self._rows_of(v, keys, name, rkeys):
            k = rkeys[i]
            o = slots[i]
            if k is not None and isinstance(o, Obj):
                self._entity(o, k, rows[i])

    def _back(self, view: PlayerView, v: dict[str, Any], keys: dict[str, Any], name: str, qkey: str, p: int) -> None:
        """A backrow: present, face-down, card (an opponent's face-down card shows its flag only)."""
        slots = view.row(p, "back")
        rkeys: list[Any] = [None if o is None else ("face-down" if isinstance(o, str) else (o.id, o.face_down))
                            for o in slots]
        if keys.get(qkey) == rkeys:
            return
        keys[qkey] = rkeys
        rows = v[name]
        for i in self._rows_of(v, keys, name, rkeys):
            o = slots[i]
            if o is None:
                continue
            rows[i, 0] = 1
            if isinstance(o, Obj):
                rows[i, 1] = float(o.face_down)
                rows[i, 2:] = self.h.card_vector(o.card)
            else:
                rows[i, 1] = 1

    def _entity(self, o: Obj, key: tuple[Any, ...], r: Any) -> None:
        """An Entity row from its card and the stats in its row key."""
        h = self.h
        r[0] = 1
        extra = key[1:]
        nums = self._entity_rows.get(extra)
        if nums is None:
            if len(self._entity_rows) > 50_000:
                self._entity_rows.clear()
            nums = self._entity_rows[extra] = h.entity_nums(extra)
        vec = h.card_vector(o.card)
        f = len(vec)
        r[1 : 1 + f] = vec
        r[1 + f :] = nums

    def _card_rows(self, rows: Any, cards: list[CardDef]) -> None:
        """Rows of (present flag, card features), as many as the section has."""
        for i, card in enumerate(cards[: len(rows)]):
            rows[i, 0] = 1
            rows[i, 1:] = self.h.card_vector(card)

    def _whole(self, v: dict[str, Any], keys: dict[str, Any], name: str, key: Any) -> bool:
        """True (and the section zeroed) if the section's key changed."""
        if keys.get(name, _UNSET) == key:
            return False
        keys[name] = key
        v[name][:] = 0
        return True

    def _rows_of(self, v: dict[str, Any], keys: dict[str, Any], name: str, new: list[Any]) -> list[int]:
        """Rows of a section whose key changed (zeroed, to be written); records the keys."""
        old = keys.get(name)
        if old == new:
            return []
        keys[name] = new
        rows = v[name]
        if old is None or len(old) != len(new):
            rows[:] = 0
            return list(range(len(new)))
        changed: list[int] = []
        for i in range(len(new)):
            if old[i] != new[i]:
                changed.append(i)
                rows[i] = 0
        return changed


def _quick(slots: list[Obj | None | str]) -> list[tuple[int, bool, bool] | None]:
    """Who is in each frontrow slot, and whether it is sick or has attacked."""
    return [(o.id, o.sick, o.attacked) if isinstance(o, Obj) else None for o in slots]


def _type_counts(pile: list[Obj], type_index: dict[CardType, int]) -> tuple[int, ...]:
    """How many cards of each type (the encoder's type order) a pile holds."""
    out = [0] * len(type_index)
    for o in pile:
        out[type_index[o.card.type]] += 1
    return tuple(out)


__all__ = ["EncoderCore", "EncoderHooks", "clip"]
