"""Resolving the stack (14.7-14.10, 21, 23, 30.4, 32, 34, 40, 41, 42.1) and the effect primitives.

Resolution is a sequence of tasks so that a choice in the middle (a Host-damage card, a
discard, a slot) is an ordinary decision. Before anything happens the item is checked: every
target still legal (30.4, 34.2.1) and every part performable now (34.2.2, A47). Then the parts
run in text order; 'then' parts are separated by game actions (40.3), 'and' parts are not (40.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import PASS, YES, Action, Decision, DecisionKind, Kind
from .carddef import Ability, CardType, Ref, Res, Step
from .state import Mod, Obj, StackItem
from .stats import health
from .targeting import candidates, matches, still_legal

if TYPE_CHECKING:
    from .state import GameState

# 14.4: the 'did' event is named by the play verb (a Form's "Embodied" is set in _after_enter)
VERB_EVENT = {CardType.ENTITY: "Created", CardType.SORCERY: "Cast", CardType.AMBUSH: "Laid"}


class EffectsMixin:
    s: GameState

    # ------------------------------------------------------------ resolving the top item
    def _t_resolve_top(self, data: dict[str, Any]) -> None:
        """Resolve the last card/effect that entered the Stack (32.4), as in 32.9; it is taken
        off the stack here, and _t_item_done marks it fully resolved (34.5)."""
        item = self.s.stack[-1]
        if item.kind in ("trigger", "spell") and self._loop_cut(item):
            return
        self.s.stack.pop()
        if item.kind == "card":
            self._resolve_card(item)
        else:
            self._resolve_effect(item)

    def _fizzle(self, item: StackItem, reason: str) -> None:
        self._emit("Fizzled", f"Fizzled({item.source_name}, reason={reason})", sid=item.sid)  # type: ignore[attr-defined]
        if item.kind == "card" and item.obj is not None and item.obj in self.s.objs:
            self._move(self.s.objs[item.obj], "drop")  # type: ignore[attr-defined]
        else:
            self._after_item(item)

    def _resolve_card(self, item: StackItem) -> None:
        """14.7-14.10: the card enters its slot, or a Form its Form zone (4.7, 4.7.1); then the
        'did' events fire (D16). With no open slot it cannot enter (18.7) and fizzles (A41)."""
        s = self.s
        card = item.card
        p = item.controller
        if card.type is CardType.FORM:
            if any(s.objs[f].name == card.name for f in s.players[p].forms):
                self._fizzle(item, "unique")  # A42
                return
            new = self._move(s.objs[item.obj], "form", p)  # type: ignore[arg-type, attr-defined, index]
            self._after_enter(item, new)
            return
        row = "f" if card.type is CardType.ENTITY else "b"  # 4.4.1 Entities, 4.5.1 the others
        slots = self._open_slots(p, row)  # type: ignore[attr-defined]
        if not slots:
            self._fizzle(item, "no_slot")  # A41
            return
        acts = [Action(Kind.SLOT, f"{row}{i}") for i in slots]
        self._decide(p, DecisionKind.CHOOSE_SLOT, acts, "card_slot",  # type: ignore[attr-defined]
                     prompt=f"slot for {card.name}", item=item)

    def _on_card_slot(self, d: Decision, a: Action) -> None:
        item: StackItem = d.data["item"]
        o = self.s.objs[item.obj]  # type: ignore[index]
        zone = "front" if a.arg[0] == "f" else "back"
        new = self._move(o, zone, item.controller, slot=int(a.arg[1:]), face_down=item.face_down)  # type: ignore[attr-defined]
        if zone == "front":
            new.sick = True  # 18.5.1
        self._after_enter(item, new)

    def _after_enter(self, item: StackItem, new: Obj) -> None:
        """The card is in play: its 'did' event fires under its play verb, Created, Cast,
        Embodied or Laid (14.4.1-14.4.4), for effects such as 'when your opponent creates an
        Entity' (14.10.1). A Sorcery's effects trigger; a Sorcery with none goes to the drop
        zone at once unless it is Lingering, which stays in its slot (22.1)."""
        s = self.s
        card = item.card
        p = item.controller
        P = "AB"[p]
        if card.type is CardType.SORCERY:
            spells = [i for i, ab in enumerate(card.abilities) if ab.kind == "spell"]
            for ai in spells:  # 21.2.1: each effect triggers on its own, targets from the cast
                ab = card.abilities[ai]
                targets = {name: list(item.targets.get(f"{ai}:{name}", [])) for name, _ in ab.targets}
                s.trigger_seq += 1
                from .state import PendingTrigger

                s.pending.append(PendingTrigger(p, new.id, card, ai, "spell", None, "", targets,
                                                False, s.trigger_seq))
            new.effects_left = len(spells)
        hidden = new.face_down
        verb = "Embodied" if card.type is CardType.FORM else VERB_EVENT[card.type]
        priv = p if hidden else None
        shown = "?" if hidden else card.name
        data = dict(player=p, subject=new.id, subject_name=card.name)
        self._emit(verb, f"{verb}({P}, {card.name})", private=priv, public=f"{verb}({P}, {shown})", **data)  # type: ignore[attr-defined]
        if new.zone in ("front", "back"):
            place = f"{'f' if new.zone == 'front' else 'b'}{new.slot}"
            self._emit("EntersSlot", f"EntersSlot({P}, {card.name}, {place})", private=priv,  # type: ignore[attr-defined]
                       public=f"EntersSlot({P}, {shown}, {place})", **data)
        self._emit("Played", f"Played({P}, {card.name})", private=priv, public=f"Played({P}, {shown})", **data)  # type: ignore[attr-defined]
        if card.type is CardType.SORCERY and not new.effects_left and not card.is_lingering:
            self._move(new, "drop")  # type: ignore[attr-defined]

    def _after_item(self, item: StackItem) -> None:
        """A40: a used Sorcery or Ambush goes to the drop zone (4.2, 4.2.1) once its effects
        have left; a Lingering one stays in its slot (22.1), an Ambush face up (22.3.1)."""
        s = self.s
        src = s.objs.get(item.source) if item.source is not None else None
        if src is None or src.zone != "back":
            return
        if item.kind == "spell":
            src.effects_left -= 1
            if src.effects_left <= 0 and not src.card.is_lingering:
                self._move(src, "drop")  # type: ignore[attr-defined]
        elif item.kind == "ambush" and not src.card.is_lingering:
            self._move(src, "drop")  # type: ignore[attr-defined]

    def _resolve_effect(self, item: StackItem) -> None:
        """Resolve an effect (14.10.2): every chosen target must still be legal, also where any
        number could be chosen (30.4.1), and if any part cannot be performed the entire effect
        does not resolve (40.2.2)."""
        ab = item.ability_def
        for name, sel in ab.targets:
            for tid in item.targets.get(name, []):
                if not still_legal(self.s, sel, tid, item.controller, item.source):
                    self._fizzle(item, "target")  # 30.4, 34.2.2.1
                    return
        if not all(self._feasible(item, st) for st in ab.steps):
            self._fizzle(item, "incomplete")  # 34.2.2, A47
            return
        if ab.optional:
            self._decide(item.controller, DecisionKind.YES_NO, [YES, PASS], "optional",  # type: ignore[attr-defined]
                         prompt=f"{item.source_name}: use its effect?", item=item)
            return
        self._run_steps(item)

    def _on_optional(self, d: Decision, a: Action) -> None:
        item = d.data["item"]
        if a.kind is Kind.YES:
            self._run_steps(item)
        else:
            self._emit("Resolved", f"Resolved({item.source_name})", sid=item.sid)  # type: ignore[attr-defined]
            self._after_item(item)

    def _run_steps(self, item: StackItem) -> None:
        """Resolve the parts in card-text order (34.3); every part after a ';' belongs to the one
        ability (29.3). 'then' and 'and' matter only now (40.1, 40.2): game actions run between
        'then' parts (40.3), never inside an 'and' group (40.4.1). It all runs as tasks, with no
        priority given and nothing else resolving until it is done (31.4, 40.3.1)."""
        ab: Ability = item.ability_def
        groups: list[list[int]] = []
        for i, st in enumerate(ab.steps):
            if groups and st.link == "and":
                groups[-1].append(i)
            else:
                groups.append([i])
        tasks: list[tuple[str, dict]] = []
        for gi, g in enumerate(groups):
            if gi:
                tasks.append(("sba", {}))  # 40.3: game actions between 'then' parts
            tasks.append(("group", {"item": item, "steps": g}))
        tasks.append(("item_done", {"item": item}))
        self._push_seq(tasks)  # type: ignore[attr-defined]

    def _t_sba(self, data: dict[str, Any]) -> None:
        self._game_actions()  # type: ignore[attr-defined]

    def _t_group(self, data: dict[str, Any]) -> None:
        item: StackItem = data["item"]
        steps = [item.ability_def.steps[i] for i in data["steps"]]
        if not all(self._feasible(item, st) for st in steps):  # 40.3.2, 40.4.2
            return
        self._push_seq([("exec_step", {"item": item, "step": i, "ids": None}) for i in data["steps"]])  # type: ignore[attr-defined]

    def _t_item_done(self, data: dict[str, Any]) -> None:
        """The effect has fully resolved and is off the stack (34.5); its card may now go to
        the drop zone."""
        item = data["item"]
        self._emit("Resolved", f"Resolved({item.source_name})", sid=item.sid)  # type: ignore[attr-defined]
        self._after_item(item)

    # ------------------------------------------------------------ references
    def _ref_ids(self, item: StackItem, ref: Ref | None) -> list[int]:
        s = self.s
        if ref is None:
            return []
        if ref.all is not None:
            return candidates(s, ref.all, item.controller, item.source)
        name = ref.name
        if name in item.targets:
            return [t for t in item.targets[name] if (t in s.objs if t >= 0 else any(x.sid == -t for x in s.stack))]
        p = item.controller
        if name == "self":
            return [item.source] if item.source in s.objs else []
        if name == "event.subject":
            return [item.subject] if item.subject in s.objs else []
        if name == "your_host":
            return [s.players[p].host]
        if name == "opponent_host":
            return [s.players[1 - p].host]
        if name == "each_host":
            return [s.players[s.tp].host, s.players[1 - s.tp].host]
        return []

    def _who(self, item: StackItem, who: str) -> list[int]:
        p = item.controller
        if who == "opponent":
            return [1 - p]
        if who == "each":
            return [self.s.tp, 1 - self.s.tp]
        return [p]

    def _feasible(self, item: StackItem, st: Step) -> bool:
        """Can this part be performed now, in its entirety (34.2.2)? An Entity or token that
        would enter a slot needs an open one (18.7)."""
        s = self.s
        p = item.controller
        ref = st.to
        if ref is not None and ref.choose is not None:
            if not candidates(s, ref.choose, p, item.source):
                return False
        elif ref is not None and ref.all is None:
            ids = self._ref_ids(item, ref)
            wanted = item.targets.get(ref.name or "", None)
            if wanted is not None:
                if len(ids) < len(wanted):
                    return False
            elif not ids:
                return False
        do = st.do
        if do == "draw" and s.config.draw_shortfall == "fail_whole_effect":
            return all(len(s.players[q].deck) >= st.amount for q in self._who(item, st.who))
        if do == "discard":
            return all(len(s.players[q].hand) >= st.amount for q in self._who(item, st.who))
        if do == "create_token":
            return bool(self._open_slots(p, "f"))  # type: ignore[attr-defined]
        if do == "destroy":
            return ref is None or ref.choose is not None or ref.all is not None or all(
                s.objs[i].zone == "front" for i in self._ref_ids(item, ref))
        if do == "move_slot":
            return len(self._open_slots(p, "f")) > 0  # type: ignore[attr-defined]
        if do == "gain_control":
            return len(self._open_slots(p, "f")) > 0  # type: ignore[attr-defined]
        if do == "equip":
            src = s.objs.get(item.source) if item.source is not None else None
            return src is not None and src.zone == "back"
        if do == "look_top":
            return len(s.players[p].deck) > 0
        return True

    # ------------------------------------------------------------ executing one step
    def _t_exec_step(self, data: dict[str, Any]) -> None:
        item: StackItem = data["item"]
        st = item.ability_def.steps[data["step"]]
        ids = data["ids"]
        if ids is None and st.to is not None and st.to.choose is not None:
            cands = candidates(self.s, st.to.choose, item.controller, item.source)
            if not cands:
                return
            acts = [Action(Kind.TARGET, self._place_of(c)) for c in cands]  # type: ignore[attr-defined]
            self._decide(item.controller, DecisionKind.CHOOSE_TARGET, acts, "choose_on_resolution",  # type: ignore[attr-defined]
                         prompt=f"{item.source_name}: choose (30.2)", task=data)
            return
        if ids is None:
            ids = self._ref_ids(item, st.to)
        getattr(self, "_do_" + st.do)(item, st, ids)

    def _on_choose_on_resolution(self, d: Decision, a: Action) -> None:
        data = dict(d.data["task"])
        data["ids"] = [self._resolve_place(a.arg)]  # type: ignore[attr-defined]
        self._push("exec_step", **data)  # type: ignore[attr-defined]

    def _source(self, item: StackItem) -> tuple[int | None, str, str]:
        """Damage or destruction by this item is by card effect (38.1.2)."""
        return (item.source, item.source_name, "effect")

    def _do_damage(self, item: StackItem, st: Step, ids: list[int]) -> None:
        s = self.s
        if st.amount <= 0:
            return  # A03d: 0 damage is no damage
        hosts = []
        for i in ids:
            o = s.objs[i]
            if o.zone == "host":
                hosts.append(o.owner)
            elif o.zone == "front":
                self._damage_entity(o, st.amount, self._source(item))
        if hosts:
            self._push_seq([("host_point", {"players": hosts, "chosen": {}, "source": item.source_name})  # type: ignore[attr-defined]
                            for _ in range(st.amount)])

    def _damage_entity(self, o: Obj, n: int, src: tuple[int | None, str, str]) -> None:
        """Mark damage; the Entity's health is unchanged (18.4). Lethal damage records its
        source, combat (38.1.1) or card effect (38.1.2): the final damage decides, even after
        the health was reduced (38.3.1)."""
        if n <= 0:
            return
        o.damage += n
        self.s.dmg += 1
        self._emit("DamageDealt", f"DamageDealt({o.name}, {n}, source={src[1]}, kind={src[2]})",  # type: ignore[attr-defined]
                   subject=o.id, subject_name=o.name, player=o.controller)
        if o.damage >= health(self.s, o):
            o.lethal = src  # 38.1, 38.2: the final damage decides the source

    def _t_host_point(self, data: dict[str, Any]) -> None:
        """2.1, A03: one point of Host damage; the damaged player picks the card (A04), which
        goes face down into the damage zone (4.8, 4.8.1)."""
        s = self.s
        chosen: dict[int, int | None] = data["chosen"]
        for p in data["players"]:
            if p in chosen:
                continue
            hand = s.players[p].hand
            if not hand:
                chosen[p] = None
            elif len(hand) == 1 or s.config.damage_card_choice == "random":
                chosen[p] = hand[0] if len(hand) == 1 else s.rng.choice(hand)
            else:
                acts = [Action(Kind.CARD, f"h{i}") for i in range(len(hand))]
                self._decide(p, DecisionKind.CHOOSE_CARD, acts, "host_point_card",  # type: ignore[attr-defined]
                             prompt="Host damage: choose a card from your hand for the damage zone (2.1)",
                             task=data)
                return
        for p in data["players"]:
            P = "AB"[p]
            cid = chosen[p]
            if cid is None:
                s.players[p].hit_empty = True  # 1.1.3
            else:
                o = s.objs[cid]
                self._move(o, "damage", p, face_down=True)  # type: ignore[attr-defined]
                self._emit("DamageCard", f"DamageCard({P}, {o.name})", private=p, public=f"DamageCard({P})", player=p)  # type: ignore[attr-defined]
            self._emit("HostDamaged", f"HostDamaged({P}, 1)", player=p, source=data["source"])  # type: ignore[attr-defined]
        if s.config.damage_draws:  # A05
            for p in data["players"]:
                if chosen[p] is not None and s.players[p].deck:
                    self._draw(p, 1)

    def _on_host_point_card(self, d: Decision, a: Action) -> None:
        data = d.data["task"]
        data["chosen"][d.player] = self.s.players[d.player].hand[int(a.arg[1:])]
        self._push("host_point", **data)  # type: ignore[attr-defined]

    def _do_destroy(self, item: StackItem, st: Step, ids: list[int]) -> None:
        objs = [self.s.objs[i] for i in ids if self.s.objs[i].zone == "front"]
        if objs:
            self._destroy(objs, self._source(item))  # type: ignore[attr-defined]

    def _do_heal(self, item: StackItem, st: Step, ids: list[int]) -> None:
        s = self.s
        for i in ids:
            o = s.objs[i]
            if o.zone == "host":
                self._heal_host(o.owner, st.amount)
            else:
                o.damage = max(0, o.damage - st.amount)
                s.dmg += 1

    def _heal_host(self, p: int, n: int) -> None:
        """2.2, 2.3, A08: heal from the top of the damage zone, face up to the drop zone."""
        s = self.s
        pl = s.players[p]
        k = min(n, len(pl.damage))
        if k <= 0:
            return
        dest = "hand" if s.config.heal_destination == "hand" else "drop"
        for _ in range(k):
            o = s.objs[pl.damage[-1]]
            self._move(o, dest, p)  # type: ignore[attr-defined]
            self._emit("Healed", f"Healed({'AB'[p]}, {o.name})", player=p)  # type: ignore[attr-defined]
        self._emit("HostHealed", f"HostHealed({'AB'[p]}, {k})", player=p)  # type: ignore[attr-defined]

    def _draw(self, p: int, n: int) -> None:
        s = self.s
        pl = s.players[p]
        for _ in range(n):
            if not pl.deck:
                return
            o = s.objs[pl.deck[0]]
            new = self._move(o, "hand", p)  # type: ignore[attr-defined]
            P = "AB"[p]
            self._emit("Draw", f"Draw({P}, {o.name})", private=p, public=f"Draw({P})",  # type: ignore[attr-defined]
                       player=p, subject=new.id if new else None)

    def _do_draw(self, item: StackItem, st: Step, ids: list[int]) -> None:
        for q in self._who(item, st.who):
            self._draw(q, st.amount)

    def _do_discard(self, item: StackItem, st: Step, ids: list[int]) -> None:
        self._push_seq([("discard", {"player": q, "left": st.amount}) for q in self._who(item, st.who)])  # type: ignore[attr-defined]

    def _t_discard(self, data: dict[str, Any]) -> None:
        s = self.s
        p = data["player"]
        hand = s.players[p].hand
        if data["left"] <= 0 or not hand:
            return
        if len(hand) <= data["left"]:
            for oid in list(hand):
                self._discard(p, oid)
            return
        acts = [Action(Kind.CARD, f"h{i}") for i in range(len(hand))]
        self._decide(p, DecisionKind.CHOOSE_CARD, acts, "discard_card",  # type: ignore[attr-defined]
                     prompt=f"discard {data['left']} card(s)", task=data)

    def _on_discard_card(self, d: Decision, a: Action) -> None:
        data = dict(d.data["task"])
        self._discard(d.player, self.s.players[d.player].hand[int(a.arg[1:])])
        data["left"] -= 1
        self._push("discard", **data)  # type: ignore[attr-defined]

    def _discard(self, p: int, oid: int) -> None:
        """A discarded card goes to the drop zone (4.2, 4.2.1)."""
        o = self.s.objs[oid]
        new = self._move(o, "drop", p)  # type: ignore[attr-defined]
        self._emit("Discard", f"Discard({'AB'[p]}, {o.name})", player=p, subject=new.id if new else None)  # type: ignore[attr-defined]

    def _gain(self, p: int, sym: str, n: int) -> None:
        sym = sym.value if isinstance(sym, Res) else sym
        pool = self.s.players[p].pool
        pool[sym] = pool.get(sym, 0) + n
        self._emit("GainResource", f"GainResource({'AB'[p]}, {sym}, {n})", player=p, resource=sym)  # type: ignore[attr-defined]

    def _do_gain_resource(self, item: StackItem, st: Step, ids: list[int]) -> None:
        for q in self._who(item, st.who):
            sym = st.resource.value if isinstance(st.resource, Res) else (st.resource or "$")
            if sym == "host":
                res = self.s.objs[self.s.players[q].host].card.resource
                if res is Res.GENERIC:
                    continue  # A28: a Host with no type gives nothing
                sym = res.value
            self._gain(q, sym, st.amount)

    def _add_mods(self, item: StackItem, st: Step, ids: list[int], kind: str) -> None:
        s = self.s
        eot = st.duration == "end_of_turn"
        for i in ids:
            o = s.objs[i]
            ts = self._tick()  # type: ignore[attr-defined]
            for stat in ("health", "power", "soul"):
                v = getattr(st, stat)
                if v is not None:
                    o.mods.append(Mod(kind, stat, v, ts, eot))
                    s.modv += 1
            self._emit("StatsChanged", f"StatsChanged({o.name})", subject=i)  # type: ignore[attr-defined]

    def _do_modify(self, item: StackItem, st: Step, ids: list[int]) -> None:
        self._add_mods(item, st, ids, "add")

    def _do_set(self, item: StackItem, st: Step, ids: list[int]) -> None:
        self._add_mods(item, st, ids, "set")

    def _do_grant(self, item: StackItem, st: Step, ids: list[int]) -> None:
        for i in ids:
            self.s.objs[i].mods.append(Mod("grant", st.keyword or "", 1, self._tick(), st.duration == "end_of_turn"))  # type: ignore[attr-defined]
            self.s.modv += 1

    def _do_create_token(self, item: StackItem, st: Step, ids: list[int]) -> None:
        self._push_seq([("token", {"player": item.controller, "token": st.token}) for _ in range(st.amount)])  # type: ignore[attr-defined]

    def _t_token(self, data: dict[str, Any]) -> None:
        """A token enters only an open frontrow slot (18.7); with none it is not created."""
        p = data["player"]
        slots = self._open_slots(p, "f")  # type: ignore[attr-defined]
        if not slots:
            return
        acts = [Action(Kind.SLOT, f"f{i}") for i in slots]
        self._decide(p, DecisionKind.CHOOSE_SLOT, acts, "token_slot", prompt=f"slot for {data['token']}", task=data)  # type: ignore[attr-defined]

    def _on_token_slot(self, d: Decision, a: Action) -> None:
        data = d.data["task"]
        p = data["player"]
        card = self.s.registry[data["token"]]
        o = self._new_obj(card, p, p, "front", slot=int(a.arg[1:]), token=True, sick=True)  # type: ignore[attr-defined]
        self._attach(o)  # type: ignore[attr-defined]
        P = "AB"[p]
        info = dict(player=p, subject=o.id, subject_name=card.name)
        self._emit("Created", f"Created({P}, {card.name})", **info)  # type: ignore[attr-defined]
        self._emit("EntersSlot", f"EntersSlot({P}, {card.name}, {a.arg})", **info)  # type: ignore[attr-defined]

    def _do_return_to_hand(self, item: StackItem, st: Step, ids: list[int]) -> None:
        for i in ids:
            o = self.s.objs.get(i)
            if o is not None:
                self._move(o, "hand")  # type: ignore[attr-defined]

    def _do_banish(self, item: StackItem, st: Step, ids: list[int]) -> None:
        """Banished cards go to the banished zone (4.9, 4.9.1)."""
        for i in ids:
            o = self.s.objs.get(i)
            if o is not None:
                self._move(o, "banished")  # type: ignore[attr-defined]

    def _do_move_slot(self, item: StackItem, st: Step, ids: list[int]) -> None:
        for i in ids:
            o = self.s.objs[i]
            slots = [k for k in self._open_slots(o.controller, "f")]  # type: ignore[attr-defined]
            if slots:
                acts = [Action(Kind.SLOT, f"f{k}") for k in slots]
                self._decide(item.controller, DecisionKind.CHOOSE_SLOT, acts, "move_slot",  # type: ignore[attr-defined]
                             prompt=f"move {o.name} to", obj=i)
                return

    def _on_move_slot(self, d: Decision, a: Action) -> None:
        self._move_slot(self.s.objs[d.data["obj"]], int(a.arg[1:]))  # type: ignore[attr-defined]

    def _do_gain_control(self, item: StackItem, st: Step, ids: list[int]) -> None:
        p = item.controller
        for i in ids:
            o = self.s.objs[i]
            if o.controller == p:
                continue
            slots = self._open_slots(p, "f")  # type: ignore[attr-defined]
            acts = [Action(Kind.SLOT, f"f{k}") for k in slots]
            self._decide(p, DecisionKind.CHOOSE_SLOT, acts, "control_slot", prompt=f"slot for {o.name}", obj=i)  # type: ignore[attr-defined]
            return

    def _on_control_slot(self, d: Decision, a: Action) -> None:
        """A49d: gaining control moves the Entity to your slot, a zone change (a new object);
        you are now its controller (37.2)."""
        o = self.s.objs[d.data["obj"]]
        p = d.player
        new = self._move(o, "front", p, slot=int(a.arg[1:]))  # type: ignore[attr-defined]
        if new is None:
            return
        new.sick = True
        P = "AB"[p]
        self._emit("ControlChanged", f"ControlChanged({o.name}, {P})", player=p, subject=new.id)  # type: ignore[attr-defined]
        self._emit("EntersSlot", f"EntersSlot({P}, {o.name}, f{new.slot})", player=p, subject=new.id, subject_name=o.name)  # type: ignore[attr-defined]

    def _do_equip(self, item: StackItem, st: Step, ids: list[int]) -> None:
        """23.1, 23.3: the Equipment leaves its backrow slot and becomes a face-up marker
        (24.1) attached to the permanent it equips."""
        s = self.s
        src = s.objs.get(item.source) if item.source is not None else None
        if src is None or src.zone != "back" or not ids:
            return
        target = s.objs[ids[0]]
        self._move(src, "marker", src.controller, attached_to=target.id)  # type: ignore[attr-defined]
        self._emit("Equipped", f"Equipped({src.name}, {target.name})", subject=target.id)  # type: ignore[attr-defined]

    def _do_search(self, item: StackItem, st: Step, ids: list[int]) -> None:
        """41.3, A51: search your deck; a search with traits may find nothing; then shuffle.
        The closed deck is shown to the searcher alone, as a choice (41.3.1)."""
        s = self.s
        p = item.controller
        deck = s.players[p].deck
        sel = st.filter
        found = [oid for oid in deck if sel is None or matches(s, sel, s.objs[oid], p, None)]
        self._emit("Search", f"Search({'AB'[p]})", player=p)  # type: ignore[attr-defined]
        acts = [Action(Kind.CARD, f"d{i}") for i in range(len(found))]
        if sel is not None or not found:
            acts.append(PASS)
        self._decide(p, DecisionKind.CHOOSE_CARD, acts, "search_pick",  # type: ignore[attr-defined]
                     prompt="search: choose a card", cards=tuple(found), reveal=st.reveal)

    def _on_search_pick(self, d: Decision, a: Action) -> None:
        """The found card goes to hand, shown to both players (as when it must match traits,
        41.3.3) unless the step has reveal = false; then the deck is shuffled."""
        s = self.s
        p = d.player
        P = "AB"[p]
        if a.kind is Kind.CARD:
            o = s.objs[d.cards[int(a.arg[1:])]]
            if d.data["reveal"]:
                self._emit("Reveal", f"Reveal({P}, card={o.name})", player=p)  # type: ignore[attr-defined]
            self._move(o, "hand", p)  # type: ignore[attr-defined]
        self._shuffle(p)

    def _shuffle(self, p: int) -> None:
        self.s.rng.shuffle(self.s.players[p].deck)
        self._emit("Shuffle", f"Shuffle({'AB'[p]})", player=p)  # type: ignore[attr-defined]

    def _do_reveal_hand(self, item: StackItem, st: Step, ids: list[int]) -> None:
        """Reveal (41.1): the hand is shown to both players, a public event (41.1.1)."""
        s = self.s
        for q in self._who(item, st.who):
            names = ", ".join(s.objs[o].name for o in s.players[q].hand)
            self._emit("Reveal", f"Reveal({'AB'[q]}, hand=[{names}])", player=q)  # type: ignore[attr-defined]

    def _do_look_top(self, item: StackItem, st: Step, ids: list[int]) -> None:
        s = self.s
        p = item.controller
        top = s.players[p].deck[: st.amount]
        names = ", ".join(s.objs[o].name for o in top)
        P = "AB"[p]
        self._emit("Look", f"Look({P}, deck, {len(top)}, [{names}])", private=p,  # type: ignore[attr-defined]
                   public=f"Look({P}, deck, {len(top)})", player=p)
        self._push("look_order", player=p, left=list(top), done=[])  # type: ignore[attr-defined]

    def _t_look_order(self, data: dict[str, Any]) -> None:
        left = data["left"]
        if len(left) <= 1:
            # The looked-at cards go back on top in the chosen order. They are moved, not
            # written over the top slots: in a game sampled from a player's view the deck's
            # order is not the real one (4.1.1), and a card that left the deck meanwhile must
            # not come back as a stale id.
            deck = self.s.players[data["player"]].deck
            inside = set(deck)
            order = [o for o in data["done"] + left if o in inside]
            chosen = set(order)
            deck[:] = order + [o for o in deck if o not in chosen]
            return
        acts = [Action(Kind.CARD, f"d{i}") for i in range(len(left))]
        self._decide(data["player"], DecisionKind.CHOOSE_CARD, acts, "look_pick",  # type: ignore[attr-defined]
                     prompt="put back: choose the next card from the top", cards=tuple(left), task=data)

    def _on_look_pick(self, d: Decision, a: Action) -> None:
        data = d.data["task"]
        oid = d.cards[int(a.arg[1:])]
        data["left"].remove(oid)
        data["done"].append(oid)
        self._push("look_order", **data)  # type: ignore[attr-defined]

    def _do_retarget(self, item: StackItem, st: Step, ids: list[int]) -> None:
        """30.6, 30.6.1: new valid targets, the same number; if impossible nothing changes."""
        s = self.s
        for tid in ids:
            target = next((x for x in s.stack if x.sid == -tid), None)
            if target is None or target.kind == "card":
                continue
            ab = target.ability_def
            old = {i for v in target.targets.values() for i in v}
            plan = []
            for name, sel in ab.targets:
                n = len(target.targets.get(name, []))
                cands = [c for c in candidates(s, sel, target.controller, target.source) if c not in old]
                if len(cands) < n:
                    self._emit("RetargetFailed", f"RetargetFailed({target.source_name})")  # type: ignore[attr-defined]
                    return
                plan.append((name, n))
            self._push("retarget", player=item.controller, sid=target.sid, plan=plan, i=0, new={})  # type: ignore[attr-defined]

    def _t_retarget(self, data: dict[str, Any]) -> None:
        s = self.s
        target = next((x for x in s.stack if x.sid == data["sid"]), None)
        if target is None:
            return
        while data["i"] < len(data["plan"]):
            name, n = data["plan"][data["i"]]
            got = data["new"].setdefault(name, [])
            if len(got) >= n:
                data["i"] += 1
                continue
            sel = dict(target.ability_def.targets)[name]
            old = {i for v in target.targets.values() for i in v}
            cands = [c for c in candidates(s, sel, target.controller, target.source) if c not in old and c not in got]
            acts = [Action(Kind.TARGET, self._place_of(c)) for c in cands]  # type: ignore[attr-defined]
            self._decide(data["player"], DecisionKind.CHOOSE_TARGET, acts, "retarget_pick",  # type: ignore[attr-defined]
                         prompt=f"new target for {target.source_name}", task=data)
            return
        target.targets = {k: list(v) for k, v in data["new"].items()}
        self._emit("Retargeted", f"Retargeted({target.source_name})")  # type: ignore[attr-defined]

    def _on_retarget_pick(self, d: Decision, a: Action) -> None:
        data = d.data["task"]
        name, _n = data["plan"][data["i"]]
        data["new"].setdefault(name, []).append(self._resolve_place(a.arg))  # type: ignore[attr-defined]
        self._push("retarget", **data)  # type: ignore[attr-defined]

    # ------------------------------------------------------------ 42.1 loops
    def _progress_key(self) -> tuple:
        """What a loop must change to be making progress towards an end (42.1.1.1, A52b)."""
        s = self.s
        key: list[Any] = []
        for p in s.players:
            key += [len(p.deck), len(p.hand), len(p.damage), len(p.drop), len(p.banished)]
            key += [tuple(p.front), tuple(p.back), tuple(p.forms)]
        objs = s.objs
        key.append(sum(objs[x].damage for p in s.players for x in p.front if x is not None))
        return tuple(key)

    def _may_loop(self, item: StackItem) -> bool:
        """Cheap filter: can resolving ``item`` lead, through the triggered abilities in play,
        back to the same ability? (A graph search over which events each ability causes.)"""
        if item.kind != "trigger":
            return False  # a Sorcery's effects trigger only when it is cast (21.2.1)
        from .stats import active_abilities

        listeners = [(o.card.name, i, ab) for o, i, ab in active_abilities(self.s, "triggered")
                     if ab.when is not None]
        start = (item.card.name, item.ability)
        frontier = [item.ability_def]
        seen: set[tuple[str, int]] = set()
        while frontier:
            ab = frontier.pop()
            events: set[str] = set()
            for st in ab.steps:
                events |= PRIMITIVE_EVENTS.get(st.do, set())
            for name, i, other in listeners:
                if other.when is not None and other.when.event in events:
                    if (name, i) == start:
                        return True
                    if (name, i) not in seen:
                        seen.add((name, i))
                        frontier.append(other)
        return False

    def _loop_cut(self, item: StackItem) -> bool:
        """42.1.2, A52: an effect whose mandatory consequences repeat it forever, with no
        progress, does not resolve; the initial action stands. Found by playing the mandatory
        chain ahead on a copy of the game with every choice at its default."""
        s = self.s
        key = (item.card.name, item.ability, item.controller, item.kind, self._progress_key())
        if s.sim is not None:
            first, seen = s.sim
            if key in seen:
                raise LoopFound if key == first else NoLoopHere
            seen.append(key)
            return False
        if not self._may_loop(item):
            return False
        sim = type(self)(s.copy(events=False))  # type: ignore[call-arg]
        sim.s.sim = [key, []]
        try:
            sim._simulate_chain(len(s.stack) - 1)  # type: ignore[attr-defined]
        except NoLoopHere:
            return False  # a later effect loops; it will be cut when it comes to resolve
        except LoopFound:
            s.stack.pop()
            self._emit("LoopCut", f"LoopCut({item.source_name})", sid=item.sid)  # type: ignore[attr-defined]
            self._after_item(item)
            return True
        return False

    def _simulate_chain(self, base: int) -> None:
        s = self.s
        self._push("resolve_top")  # type: ignore[attr-defined]
        self._run()  # type: ignore[attr-defined]
        for _ in range(SIM_LIMIT):
            if s.over or (len(s.stack) <= base and not s.pending and not s.tasks):
                return
            d = s.decision
            if d is None:
                return
            acts = d.actions
            pick = next((a for a in acts if a.kind is Kind.TRIGGER), None) or (
                PASS if PASS in acts else YES if YES in acts else acts[0])
            self.apply(pick)  # type: ignore[attr-defined]


class LoopFound(Exception):
    """Raised inside a simulation when the chain comes back to its first effect (42.1.1)."""


class NoLoopHere(Exception):
    """Raised inside a simulation when a later effect repeats but the first one does not."""


SIM_LIMIT = 400
PRIMITIVE_EVENTS: dict[str, set[str]] = {
    "damage": {"host_damaged", "destroyed", "destroys", "leaves_play"},
    "destroy": {"destroyed", "destroys", "leaves_play"},
    "heal": {"host_healed"},
    "draw": {"draws"},
    "discard": {"discards"},
    "gain_resource": {"gains_resource"},
    "modify": {"leaves_play"},
    "set": {"leaves_play"},
    "create_token": {"created", "enters_slot"},
    "return_to_hand": {"leaves_play"},
    "banish": {"leaves_play"},
    "move_slot": {"moves_slot"},
    "gain_control": {"leaves_play", "enters_slot"},
}
