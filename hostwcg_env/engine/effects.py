"""Resolving the stack (14.7-14.10, 21, 23, 30.4, 32, 34, 40, 41, 42.1) and the effect primitives.

Resolution is a sequence of tasks so that a choice in the middle (a Host-damage card, a
discard, a slot) is an ordinary decision. Before anything happens the item is checked: every
target still legal (30.4, 34.2.1) and every part performable now (34.2.2, A47). Then the parts
run in text order; 'then' parts are separated by game actions (40.3), 'and' parts are not (40.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import PASS, YES, Action, Decision, DecisionKind, Kind
from .carddef import Ability, CardType, Res
from .primitives import (
    CreateToken,
    GainControl,
    LookTop,
    MoveSlot,
    Retarget,
    Search,
    as_primitive,
    events_of,
)
from .references import ref_ids
from .state import Obj, StackItem
from .stats import health
from .targeting import candidates, still_legal

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
        row = "f" if card.type is CardType.ENTITY else "b"
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
        if not all(as_primitive(st).feasible(self, item) for st in ab.steps):  # type: ignore[arg-type]
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
        if not all(as_primitive(st).feasible(self, item) for st in steps):  # type: ignore[arg-type]  # 40.3.2, 40.4.2
            return
        self._push_seq([("exec_step", {"item": item, "step": i, "ids": None}) for i in data["steps"]])  # type: ignore[attr-defined]

    def _t_item_done(self, data: dict[str, Any]) -> None:
        """The effect has fully resolved and is off the stack (34.5); its card may now go to
        the drop zone."""
        item = data["item"]
        self._emit("Resolved", f"Resolved({item.source_name})", sid=item.sid)  # type: ignore[attr-defined]
        self._after_item(item)

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
            ids = ref_ids(self.s, item, st.to)
        as_primitive(st).resolve(self, item, ids)  # type: ignore[arg-type]

    def _on_choose_on_resolution(self, d: Decision, a: Action) -> None:
        data = dict(d.data["task"])
        data["ids"] = [self._resolve_place(a.arg)]  # type: ignore[attr-defined]
        self._push("exec_step", **data)  # type: ignore[attr-defined]

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

    # ---- the continuations of primitives that ask a choice (engine/primitives.py)
    def _t_token(self, data: dict[str, Any]) -> None:
        CreateToken.run_task(self, data)  # type: ignore[arg-type]

    def _on_token_slot(self, d: Decision, a: Action) -> None:
        CreateToken.on_slot(self, d, a)  # type: ignore[arg-type]

    def _on_move_slot(self, d: Decision, a: Action) -> None:
        MoveSlot.on_slot(self, d, a)  # type: ignore[arg-type]

    def _on_control_slot(self, d: Decision, a: Action) -> None:
        GainControl.on_slot(self, d, a)  # type: ignore[arg-type]

    def _on_search_pick(self, d: Decision, a: Action) -> None:
        Search.on_pick(self, d, a)  # type: ignore[arg-type]

    def _t_look_order(self, data: dict[str, Any]) -> None:
        LookTop.run_task(self, data)  # type: ignore[arg-type]

    def _on_look_pick(self, d: Decision, a: Action) -> None:
        LookTop.on_pick(self, d, a)  # type: ignore[arg-type]

    def _t_retarget(self, data: dict[str, Any]) -> None:
        Retarget.run_task(self, data)  # type: ignore[arg-type]

    def _on_retarget_pick(self, d: Decision, a: Action) -> None:
        Retarget.on_pick(self, d, a)  # type: ignore[arg-type]

    def _shuffle(self, p: int) -> None:
        self.s.rng.shuffle(self.s.players[p].deck)
        self._emit("Shuffle", f"Shuffle({'AB'[p]})", player=p)  # type: ignore[attr-defined]

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
                events |= events_of(st)
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
