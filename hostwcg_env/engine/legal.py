"""What a player may do now (queries only): priority actions, playability, and the rule an
illegal action breaks (15, 31.1, 14, 17, 21, 19.1, 25, 27, 39.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import PASS, Action, Decision, DecisionKind, IllegalActionError, Kind
from .carddef import TYPED, Ability, CardType, Res
from .costs import can_pay
from .state import Obj
from .stats import activatables
from .targeting import candidates

if TYPE_CHECKING:
    from .state import GameState

Problem = tuple[str, str] | None

# Actions are immutable values: the common ones are made once (priority is the hot path).
_PLAY = tuple(Action(Kind.PLAY, f"h{i}") for i in range(64))
_ATTACK = tuple(Action(Kind.ATTACK, f"f{k}") for k in range(16))
_AP_HOST = Action(Kind.AP_HOST)
_AP_DRAW = Action(Kind.AP_DRAW)
_AP_ANY = tuple(Action(Kind.AP_ANY, r.value) for r in TYPED)


class LegalMixin:
    s: GameState

    def _slow_ok(self, p: int) -> bool:
        """15.2.1, 31.1.1: Slow, one of the 2 speeds (15.1), only in your own Action Phase 1 or
        2 (10.3, 10.3.1, 10.5.1), with an empty stack."""
        s = self.s
        return s.started and p == s.tp and s.phase in ("action1", "action2") and not s.stack

    def _priority_actions(self, p: int) -> list[Action]:
        """What p may do with priority (31.1.2): pass; Slow actions such as # spends and playing
        cards (14.1) when _slow_ok; Fast cards and abilities whenever p has priority, in
        response to any action (15.1, 15.3, 15.3.1); attackers in the declare step."""
        s = self.s
        pl = s.players[p]
        acts = [PASS]
        slow = self._slow_ok(p)
        if slow:
            if pl.ap >= 1:
                if s.objs[pl.host].card.resource is not Res.GENERIC:
                    acts.append(_AP_HOST)
                acts.append(_AP_DRAW)
            if pl.ap >= 2:
                acts.extend(_AP_ANY)
        pool = pl.pool
        for i, oid in enumerate(pl.hand):
            o = s.objs[oid]
            card = o.card
            if not (slow or card.is_fast):
                continue
            # the cheapest test first: most unplayable cards cannot be paid for (14.2)
            if card.type is not CardType.AMBUSH and not can_pay(pool, card.cost):
                continue
            if self._play_problem(p, o) is None:
                acts.append(_PLAY[i] if i < len(_PLAY) else Action(Kind.PLAY, f"h{i}"))
        for o, i, ab in self._own_activatables(p):
            if self._activation_problem(p, o, i, ab) is None:
                acts.append(Action(Kind.ACTIVATE, self._place_of(o.id), i))  # type: ignore[attr-defined]
        if s.phase == "battle" and s.step == "declare" and p == s.tp and not s.stack:
            for k, slot in enumerate(pl.front):
                if slot is not None and self._attack_problem(p, k) is None:
                    acts.append(_ATTACK[k] if k < len(_ATTACK) else Action(Kind.ATTACK, f"f{k}"))
        return acts

    def _open_slots(self, p: int, row: str) -> list[int]:
        """Open slots of a row, those with nothing in them (7.1); any card or token occupies one (7.2)."""
        slots = self.s.players[p].front if row == "f" else self.s.players[p].back
        return [i for i, oid in enumerate(slots) if oid is None]

    def _targets_declarable(self, p: int, o: Obj, abilities: list[Ability]) -> bool:
        for ab in abilities:
            for _name, sel in ab.targets:
                need = 0 if sel.up_to else sel.count
                if len(candidates(self.s, sel, p, o.id)) < need:
                    return False
        return True

    def _play_problem(self, p: int, o: Obj) -> Problem:
        """Why ``o`` (in p's hand) cannot be played now, ignoring timing; None if it can."""
        s = self.s
        card = o.card
        t = card.type
        if t is CardType.ENTITY:
            if not self._open_slots(p, "f"):
                return ("18.1", f"{card.name}: no open frontrow slot")
        elif t is CardType.SORCERY:
            if not self._open_slots(p, "b"):
                return ("21.1", f"{card.name}: no open backrow slot")
            spells = [ab for ab in card.abilities if ab.kind == "spell"]
            if not self._targets_declarable(p, o, spells):
                rule = "23.2" if card.is_equipment else "21.2"
                return (rule, f"{card.name}: not every target can be declared")
        elif t is CardType.AMBUSH:
            if not self._open_slots(p, "b"):
                return ("17.1.1", f"{card.name}: no open backrow slot")
            return None  # 14.2.1: Ambushes cost nothing to lay
        elif t is CardType.FORM:
            if any(s.objs[f].name == card.name for f in s.players[p].forms):
                return ("19.1", f"you already control {card.name} (Unique)")
        else:
            return ("14", f"{card.name} cannot be played")
        if not can_pay(s.players[p].pool, card.cost):
            return ("14.2", f"{card.name}: cannot pay {card.cost_text()}")
        return None

    def _own_activatables(self, p: int) -> list[tuple[Obj, int, Ability]]:
        return activatables(self.s, p)

    def _activation_problem(self, p: int, o: Obj, i: int, ab: Ability) -> Problem:
        """Why ability i of o cannot be activated now; None if it can. A Fast ability needs no
        Slow timing (15.3); an Ambush's keyword requirement, the condition before its ';'
        (rule 29, 29.4), must hold."""
        s = self.s
        pl = s.players[p]
        if ab.kind == "activated":
            if o.face_down:
                return ("17.2", "a face-down card has no abilities")
            if not (ab.fast or self._slow_ok(p)):
                return ("27.6", f"{o.name}: activated effects are Slow (15.2.1)")
            if ab.once_per_turn and i in o.used_s:
                return ("27.5", f"{o.name}: Ⓢ was already used this turn")
            if not can_pay(pl.pool, ab.cost):
                return ("27.4", f"{o.name}: cannot pay the cost")
        elif ab.kind == "during":
            if o.face_down or s.phase != ab.phase or s.tp != p:
                return ("39.2", f"{o.name}: only during your {ab.phase} phase")
            if o.used_during.get(i) == (s.turn, s.phase):
                return ("39.2", f"{o.name}: already used this phase")
        elif ab.kind == "ambush":
            if not o.face_down:
                return ("17.2", f"{o.name}: an Ambush is activated once (A39)")
            if not self._state_holds(p, ab.while_ or ""):
                return ("17.2", f"{o.name}: its activation requirement is not met")
            if not can_pay(pl.pool, o.card.cost):
                return ("17.2.1", f"{o.name}: cannot pay the cost")
        else:
            return ("27", f"{o.name}: that ability cannot be activated")
        if not self._targets_declarable(p, o, [ab]):
            return ("30.5", f"{o.name}: no legal target")
        return None

    def _state_holds(self, p: int, cond: str) -> bool:
        s = self.s
        mine = [x for x in s.players[p].front if x is not None]
        theirs = [x for x in s.players[1 - p].front if x is not None]
        if cond == "opponent_controls_entity":
            return bool(theirs)
        if cond == "you_control_no_entity":
            return not mine
        if cond == "your_hand_empty":
            return not s.players[p].hand
        if cond == "opponent_attacking":
            return s.battle is not None and s.battle.controller != p
        return False

    def _attack_problem(self, p: int, k: int) -> Problem:
        s = self.s
        if not (s.phase == "battle" and s.step == "declare" and p == s.tp and not s.stack):
            return ("25.2", "attackers are declared in your Battle Phase with an empty stack (10.4.1)")
        pl = s.players[p]
        if not 0 <= k < len(pl.front) or pl.front[k] is None:
            return ("25.2.1", f"no Entity in slot f{k}")
        o = s.objs[pl.front[k]]  # type: ignore[index]
        if o.sick:
            return ("18.5.2.1", f"{o.name} has Creation Sickness")
        if o.attacked:
            return ("25.5.1", f"{o.name} already attacked this turn")
        return None

    # ------------------------------------------------------------ explanations
    def _explain_illegal(self, d: Decision, a: Action) -> IllegalActionError:
        s = self.s
        p = d.player
        kind = a.kind
        if d.kind is DecisionKind.PRIORITY:
            slow = self._slow_ok(p)
            if kind in (Kind.AP_HOST, Kind.AP_DRAW, Kind.AP_ANY):
                if not slow:
                    return IllegalActionError("11.4", "action points are spent only in your Action Phase with an empty stack (15.2.1)")
                need = 2 if kind is Kind.AP_ANY else 1
                return IllegalActionError("11.3", f"needs {need} # and you have {s.players[p].ap}")
            if kind is Kind.PLAY:
                i = int(a.arg[1:]) if a.arg[1:].isdigit() else -1
                hand = s.players[p].hand
                if not 0 <= i < len(hand):
                    return IllegalActionError("14.2", f"no card at hand index {a.arg}")
                o = s.objs[hand[i]]
                prob = self._play_problem(p, o)
                if prob:
                    return IllegalActionError(*prob)
                return IllegalActionError("15.2.1", f"{o.name} is Slow: only in your Action Phase with an empty stack")
            if kind is Kind.ATTACK:
                prob = self._attack_problem(p, int(a.arg[1:]))
                if prob:
                    return IllegalActionError(*prob)
            if kind is Kind.ACTIVATE:
                oid = self._resolve_place(a.arg)  # type: ignore[attr-defined]
                if oid is None or oid < 0 or s.objs[oid].controller != p:
                    return IllegalActionError("27.4", f"you control nothing at {a.arg} to activate")
                o = s.objs[oid]
                if not 0 <= a.n < len(o.card.abilities):
                    return IllegalActionError("27.1", f"{o.name} has no ability {a.n}")
                ab = o.card.abilities[a.n]
                if ab.kind == "ambush" and ab.when is not None:
                    return IllegalActionError("17.2", f"{o.name} can only be activated in the trigger window of its event (A53)")
                prob = self._activation_problem(p, o, a.n, ab)
                if prob:
                    return IllegalActionError(*prob)
        if d.kind is DecisionKind.CHOOSE_SLOT and kind is Kind.SLOT:
            return IllegalActionError("14.7.1", f"slot {a.arg} is occupied or not of the right row")
        if d.kind is DecisionKind.CHOOSE_ATTACK_TARGET and kind is Kind.TARGET:
            oid = self._resolve_place(a.arg)  # type: ignore[attr-defined]
            if oid is not None and oid >= 0 and s.objs[oid].zone == "host":
                return IllegalActionError("25.3.2", "the Host can be attacked only when no opposing Entity can block")
            return IllegalActionError("25.3.1", f"{a.arg} is not an opposing Entity or Host")
        if d.kind is DecisionKind.CHOOSE_TARGET and kind is Kind.TARGET:
            return IllegalActionError("30.5", f"{a.arg} is not a legal target")
        if d.kind is DecisionKind.PAY and kind is Kind.PAY:
            return IllegalActionError("12.5.1", f"paying $ with {a.arg} leaves the rest of the cost unpayable")
        if d.kind is DecisionKind.PLACE_TRIGGERS and kind is Kind.PASS:
            return IllegalActionError("28.6.1", "triggered effects must be put on the stack")
        if d.kind is DecisionKind.PLACE_TRIGGERS and kind is Kind.ACTIVATE:
            return IllegalActionError("33.5", f"{a.arg} cannot be activated for this event")
        return IllegalActionError(
            "31.1", f"'{a}' is not a legal answer to {'AB'[p]}'s {d.kind.value} decision now"
        )

