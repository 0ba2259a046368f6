"""Putting things on the stack: playing cards (14), activating (27, 17.2, 39.2), placing
triggers (28.6, 33); declaring targets (30.3, 34.1) and paying (12.5, A23); and the action-point
spends (11.3), which are game actions that use no stack (11.5).

Each announcement is one task, ``announce``, re-entered after every choice; nothing changes
in the game until it commits, so an abandoned or illegal choice loses nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import PASS, Action, Decision, DecisionKind, Kind
from .carddef import CardType, Res, Selector, parse_cost
from .costs import auto_choice, generic_count, generic_options, pay_typed, spend
from .state import PendingTrigger, StackItem
from .targeting import candidates

if TYPE_CHECKING:
    from .state import GameState

# 14.4: the play is named by the card's type (14.4.1-14.4.4)
VERB = {
    CardType.ENTITY: "Create",
    CardType.SORCERY: "Cast",
    CardType.FORM: "Embody",
    CardType.AMBUSH: "Lay",
}


class AnnounceMixin:
    s: GameState

    # ------------------------------------------------------------ starting
    def _start_play(self, p: int, hand_index: int) -> None:
        """Announce playing a card from hand. Every target of a Sorcery's effects is declared
        now, 'then' and 'and' parts alike (40.2.1), an Equipment's permanent included (23.2.1);
        an Ambush is laid for no cost (14.2.1)."""
        o = self.s.objs[self.s.players[p].hand[hand_index]]
        specs: list[Any] = []
        if o.card.type is CardType.SORCERY:
            for ai, ab in enumerate(o.card.abilities):
                if ab.kind == "spell":
                    specs.extend([ai, name] for name, _sel in ab.targets)
        cost = "" if o.card.type is CardType.AMBUSH else o.card.cost_text()
        self._push("announce", what="play", player=p, obj=o.id, ability=-1, specs=specs,  # type: ignore[attr-defined]
                   spec_i=0, chosen={}, cost=cost, picked=[])

    def _start_activate(self, p: int, a: Action) -> None:
        oid = self._resolve_place(a.arg)  # type: ignore[attr-defined]
        o = self.s.objs[oid]
        ab = o.card.abilities[a.n]
        what = {"activated": "activate", "during": "during", "ambush": "ambush"}[ab.kind]
        cost = o.card.cost_text() if ab.kind == "ambush" else "".join(r.value for r in ab.cost)
        self._push("announce", what=what, player=p, obj=o.id, ability=a.n,  # type: ignore[attr-defined]
                   specs=[[a.n, name] for name, _ in ab.targets], spec_i=0, chosen={}, cost=cost,
                   picked=[], subject=None, subject_name="")

    def _start_ambush(self, p: int, op: tuple[int, int, int, int | None, str]) -> None:
        _ctrl, oid, ai, subject, subject_name = op
        o = self.s.objs[oid]
        ab = o.card.abilities[ai]
        self._push("announce", what="ambush", player=p, obj=oid, ability=ai,  # type: ignore[attr-defined]
                   specs=[[ai, name] for name, _ in ab.targets], spec_i=0, chosen={},
                   cost=o.card.cost_text(), picked=[], subject=subject, subject_name=subject_name)

    def _place_trigger(self, t: PendingTrigger) -> None:
        self.s.pending.remove(t)
        ab = t.card.abilities[t.ability]
        specs = [] if t.targets is not None else [[t.ability, name] for name, _ in ab.targets]
        chosen = {f"{t.ability}:{k}": v for k, v in (t.targets or {}).items()}
        self._push("announce", what="trigger", player=t.controller, obj=t.source,  # type: ignore[attr-defined]
                   ability=t.ability, specs=specs, spec_i=0, chosen=chosen, cost="", picked=[],
                   trig=t)

    # ------------------------------------------------------------ the task
    def _card_of(self, data: dict[str, Any]) -> Any:
        if data["what"] == "trigger":
            return data["trig"].card
        return self.s.objs[data["obj"]].card

    def _selector(self, data: dict[str, Any], ai: int, name: str) -> Selector:
        ab = self._card_of(data).abilities[ai]
        return dict(ab.targets)[name]

    def _t_announce(self, data: dict[str, Any]) -> None:
        """Declare every target first (40.2.1), then choose how to pay the generic cost, then
        commit."""
        s = self.s
        p = data["player"]
        specs = data["specs"]
        while data["spec_i"] < len(specs):
            ai, name = specs[data["spec_i"]]
            sel = self._selector(data, ai, name)
            got = data["chosen"].setdefault(f"{ai}:{name}", [])
            if len(got) >= sel.count:
                data["spec_i"] += 1
                continue
            cands = [c for c in candidates(s, sel, p, data["obj"]) if c not in got]
            acts = [Action(Kind.TARGET, self._place_of(c)) for c in cands]  # type: ignore[attr-defined]
            if sel.up_to:
                acts.append(PASS)
            if not acts:
                if data["what"] == "trigger":  # 30.5, A44: a trigger with no legal target is not placed
                    t = data["trig"]
                    self._emit("TriggerSkipped", f"TriggerSkipped({'AB'[p]}, {t.card.name})")  # type: ignore[attr-defined]
                    return
                raise RuntimeError("engine error: targets were checked before announcing")
            card = self._card_of(data)
            self._decide(p, DecisionKind.CHOOSE_TARGET, acts, "announce_target",  # type: ignore[attr-defined]
                         prompt=f"target '{name}' for {card.name}", task=data)
            return
        cost = list(parse_cost(data["cost"]))
        for _ in data["picked"]:
            cost.remove(Res.GENERIC)
        pool = self._pool_after(p, data["picked"])
        if generic_count(tuple(cost)) > 0:
            opts = generic_options(pool, tuple(cost))
            distinct = [k for k, v in pool.items() if v > 0]
            if s.config.auto_pay or len(distinct) <= 1:
                data["picked"].append(auto_choice(pool, tuple(cost), self._card_of(data).resource.value))
                self._push("announce", **data)  # type: ignore[attr-defined]
                return
            acts = [Action(Kind.PAY, o) for o in opts] + [Action(Kind.PAY, "auto")]
            self._decide(p, DecisionKind.PAY, acts, "announce_pay",  # type: ignore[attr-defined]
                         prompt=f"pay $ of {self._card_of(data).name} with", task=data)
            return
        self._commit(data)

    def _pool_after(self, p: int, picked: list[str]) -> dict[str, int]:
        pool = dict(self.s.players[p].pool)
        for sym in picked:
            spend(pool, sym)
        return pool

    def _on_announce_target(self, d: Decision, a: Action) -> None:
        data = d.data["task"]
        if a.kind is Kind.PASS:
            data["spec_i"] += 1
        else:
            ai, name = data["specs"][data["spec_i"]]
            data["chosen"][f"{ai}:{name}"].append(self._resolve_place(a.arg))  # type: ignore[attr-defined]
        self._push("announce", **data)  # type: ignore[attr-defined]

    def _on_announce_pay(self, d: Decision, a: Action) -> None:
        data = d.data["task"]
        p = data["player"]
        if a.arg == "auto":
            cost = list(parse_cost(data["cost"]))
            for _ in data["picked"]:
                cost.remove(Res.GENERIC)
            pool = self._pool_after(p, data["picked"])
            data["picked"].append(auto_choice(pool, tuple(cost), self._card_of(data).resource.value))
        else:
            data["picked"].append(a.arg)
        self._push("announce", **data)  # type: ignore[attr-defined]

    # ------------------------------------------------------------ committing
    def _pay(self, p: int, data: dict[str, Any], name: str) -> None:
        if not data["cost"]:
            return
        pool = self.s.players[p].pool
        cost = parse_cost(data["cost"])
        for sym in data["picked"]:
            spend(pool, sym)
        pay_typed(pool, cost)
        self._emit("Paid", f"Paid({'AB'[p]}, {data['cost']}, {name})", player=p)  # type: ignore[attr-defined]

    def _new_item(self, **kw: Any) -> StackItem:
        """Put an item on top of the Stack (32.1, 32.2), after every item already there (32.2.1,
        32.5.1); it is 'in response' to the item below it (31.7) unless told otherwise."""
        s = self.s
        base = kw.pop("in_response_to", s.stack[-1].sid if s.stack else None)
        item = StackItem(sid=s.next_sid, in_response_to=base, **kw)
        s.next_sid += 1
        s.stack.append(item)
        return item

    def _commit(self, data: dict[str, Any]) -> None:
        """Commit the announcement; until now nothing in the game has changed.

        Playing a card: pay (14.2), reveal it, an Ambush only as a face-down card (14.3), name
        the play by its type (14.4), put it on the stack (14.5); the 'would' events fire now
        (14.6.1). An Ambush is activated (17.2.3): flipped face up, and a Lingering one stays
        face up (22.3.1); its effect enters the stack (17.2.4). Triggers and Ambushes put on
        the stack in one window respond to the item below them all (31.8).
        """
        s = self.s
        p = data["player"]
        what = data["what"]
        P = "AB"[p]
        if what == "play":
            o = s.objs[data["obj"]]
            card = o.card
            self._pay(p, data, card.name)
            face_down = card.type is CardType.AMBUSH
            new = self._move(o, "stack", p, face_down=face_down)  # type: ignore[attr-defined]
            assert new is not None
            item = self._new_item(kind="card", controller=p, source=new.id, source_name=card.name,
                                  card=card, targets=data["chosen"], obj=new.id, face_down=face_down)
            verb = VERB[card.type]
            shown = "?" if face_down else card.name
            priv = p if face_down else None
            self._emit("WouldPlay", f"WouldPlay({P}, {card.name})", private=priv,  # type: ignore[attr-defined]
                       public=f"WouldPlay({P}, {shown})", player=p, subject=new.id, sid=item.sid)
            self._emit("Would" + verb, f"Would{verb}({P}, {card.name})", private=priv,  # type: ignore[attr-defined]
                       public=f"Would{verb}({P}, {shown})", player=p, subject=new.id, sid=item.sid)
            return
        if what == "trigger":
            t = data["trig"]
            targets = {k.split(":", 1)[1]: v for k, v in data["chosen"].items()}
            self._new_item(kind=t.kind, controller=p, source=t.source, source_name=t.card.name,
                           card=t.card, ability=t.ability, targets=targets, subject=t.subject,
                           subject_name=t.subject_name, in_response_to=s.window_base)
            self._emit("TriggerPlaced", f"TriggerPlaced({P}, {t.card.name})", player=p)  # type: ignore[attr-defined]
            return
        o = s.objs[data["obj"]]
        targets = {k.split(":", 1)[1]: v for k, v in data["chosen"].items()}
        self._pay(p, data, o.name)
        ai = data["ability"]
        if what == "activate" and o.card.abilities[ai].once_per_turn:
            o.used_s.append(ai)
        if what == "during":
            o.used_during[ai] = (s.turn, s.phase)
        extra: dict[str, Any] = {}
        if what == "ambush":
            o.face_down = False  # 17.2.2: flipped face up; the same object (S119)
            s.version += 1
            s.board += 1
            extra = {"subject": data["subject"], "subject_name": data["subject_name"]}
            if s.window_active:
                extra["in_response_to"] = s.window_base
        kind = {"activate": "ability", "during": "during", "ambush": "ambush"}[what]
        self._new_item(kind=kind, controller=p, source=o.id, source_name=o.name, card=o.card,
                       ability=ai, targets=targets, **extra)
        self._emit("Activated", f"Activated({P}, {o.name})", player=p, subject=o.id)  # type: ignore[attr-defined]

    # ------------------------------------------------------------ action points
    def _spend_ap(self, p: int, a: Action) -> None:
        """11.3 (11.3.1-11.3.3): spend # (11.1). A game action (11.5) that uses no stack (31.2) and completes
        before any Fast response (15.3.2.2, 15.3.2.2.1); priority is not passed (31.2.1, A55)."""
        s = self.s
        pl = s.players[p]
        P = "AB"[p]
        if a.kind is Kind.AP_DRAW:
            pl.ap -= 1
            self._emit("APSpent", f"APSpent({P}, draw)", player=p)  # type: ignore[attr-defined]
            self._draw(p, 1)  # type: ignore[attr-defined]
        elif a.kind is Kind.AP_HOST:
            pl.ap -= 1
            sym = s.objs[pl.host].card.resource.value
            self._emit("APSpent", f"APSpent({P}, host)", player=p)  # type: ignore[attr-defined]
            self._gain(p, sym, 1)  # type: ignore[attr-defined]
        else:
            pl.ap -= 2
            self._emit("APSpent", f"APSpent({P}, any {a.arg})", player=p)  # type: ignore[attr-defined]
            self._gain(p, a.arg, 1)  # type: ignore[attr-defined]
