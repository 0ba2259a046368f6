"""Turn structure (10), action-point replenish (10.2.1, A18), Creation Sickness (18.5),
End-Phase discard and clean-up (10.6, A21), and battle (25, A30-A34).

A phase or battle step ends when both players pass in a row with an empty stack (A17); the
turn player then receives priority in the next one (31.5.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action, Decision, DecisionKind, Kind
from .state import Battle, Obj
from .stats import has_keyword, host_soul, in_play, power
from .targeting import cannot_block

if TYPE_CHECKING:
    from .state import GameState

PHASES = ("start", "action1", "battle", "action2", "end")
# 25.1: battle's sections (attacker, target, the two damage steps, and after them)
BATTLE_STEPS = ("declare", "attack", "block", "early_damage", "normal_damage", "after")


class TurnMixin:
    s: GameState

    def _t_advance(self, data: dict[str, Any]) -> None:
        """Both players passed on an empty stack: the next phase in order (10.1), none skipped
        (10.1.1) but the first player's first Battle and Action Phase 2 (10.4.2, 10.5.2)."""
        s = self.s
        if s.phase == "pregame":
            self._begin_turn(first=True)
        elif s.phase == "battle":
            self._battle_advance()
        elif s.phase == "end":
            self._end_advance()
        else:
            i = PHASES.index(s.phase) + 1
            nxt = PHASES[i]
            if s.turn == 1 and nxt in ("battle", "action2"):
                nxt = "end"  # 10.4.2, 10.5.2: the first player's first turn (A17)
            self._enter_phase(nxt)

    def _enter_phase(self, phase: str) -> None:
        """Enter a phase, a Fast timing (15.3.2.3); PhaseBegan also triggers the start-of-turn
        and end-of-turn effects (10.2.2, 10.6.1)."""
        s = self.s
        if s.config.resource_decay == "end_of_phase":
            for p in s.players:
                p.pool.clear()
        s.phase = phase
        s.step = {"battle": "declare", "end": "main"}.get(phase, "")
        s.priority = s.tp
        s.passes = 0
        self._emit("PhaseBegan", f"PhaseBegan({phase})", phase=phase, player=s.tp)  # type: ignore[attr-defined]
        if phase == "start":
            self._start_phase()

    def _begin_turn(self, first: bool = False) -> None:
        """The next turn: the other player goes through the same phases (10.1)."""
        s = self.s
        if first:
            s.turn = 1
            s.tp = s.first_player
        else:
            if s.turn >= s.config.turn_limit:
                # Truncation (RuleConfig.turn_limit, not a rule): the game is a draw once
                # ``turn_limit`` turns have been played in full. Checked before the count goes
                # up, so a truncated game ends with ``turn == turn_limit``.
                self._end_game(None, "turn_limit", truncated=True)  # type: ignore[attr-defined]
                return
            s.turn += 1
            s.tp = 1 - s.tp
        s.decisions_this_turn = 0
        # Only objects in play and Hosts can have attacked or used a Ⓢ: a card that changes
        # zones becomes a new object (36.2) with neither
        for o in [s.objs[p.host] for p in s.players if p.host in s.objs] + list(in_play(s)):
            o.attacked = False  # 25.5.1
            o.used_s.clear()  # 27.5, A38: Ⓢ resets every turn
        self._emit("TurnBegan", f"TurnBegan({'AB'[s.tp]}, {s.turn})", player=s.tp, turn=s.turn)  # type: ignore[attr-defined]
        self._enter_phase("start")

    def _start_phase(self) -> None:
        """10.2: replenish (a game action), then Creation Sickness ends (18.5.2.2); those
        triggers are held so that start-of-phase triggers go first (39.1, A50)."""
        s = self.s
        pl = s.players[s.tp]
        want = s.config.ap_per_turn
        pl.ap = want if s.config.ap_refresh == "set4" else max(pl.ap, want)
        for oid in pl.front:
            if oid is not None and s.objs[oid].sick:
                o = s.objs[oid]
                o.sick = False
                # A50: these triggers wait until start-of-phase triggers have resolved
                self._emit("LosesSickness", f"LosesSickness({o.name})", subject=o.id,  # type: ignore[attr-defined]
                           subject_name=o.name, player=o.controller, hold=True)

    # ------------------------------------------------------------ end phase (10.6, A21)
    def _end_advance(self) -> None:
        s = self.s
        if s.step == "main":
            s.step = "discard"
            self._push_seq([("end_discard", {}), ("end_after_discard", {})])  # type: ignore[attr-defined]
        elif s.step == "discard":
            self._expire()
        else:
            self._begin_turn()

    def _t_end_discard(self, data: dict[str, Any]) -> None:
        """10.6.2: the turn player discards down to their Host's soul; with fewer cards, none
        (10.6.3)."""
        s = self.s
        p = s.tp
        excess = len(s.players[p].hand) - max(0, host_soul(s, p))
        if excess > 0:
            self._push("discard", player=p, left=excess)  # type: ignore[attr-defined]

    def _t_end_after_discard(self, data: dict[str, Any]) -> None:
        if not self.s.pending:
            self._expire()

    def _expire(self) -> None:
        """A21 (4): 'until end of turn' effects end, then game actions run."""
        s = self.s
        s.version += 1
        s.modv += 1
        for o in s.objs.values():
            if o.mods:
                o.mods = [m for m in o.mods if not m.until_eot]
        if s.config.entity_damage_clears_at_end_of_turn:
            for pl in s.players:
                for oid in pl.front:  # the objects in a frontrow zone (7.2)
                    if oid is not None:
                        s.objs[oid].damage = 0
                        s.dmg += 1
        if s.config.resource_decay == "end_of_turn":
            for p in s.players:
                p.pool.clear()
        self._emit("EffectsExpired", "EffectsExpired()")  # type: ignore[attr-defined]
        s.step = "expire"
        self._game_actions()  # type: ignore[attr-defined]
        if not s.over and not s.pending:
            self._begin_turn()

    # ------------------------------------------------------------ battle (25)
    def _declare_attack(self, p: int, k: int) -> None:
        """25.2.2: the Entity is 'attacking' and 'attacks' effects trigger; either player may
        then respond (25.2.3), as after any declared attack (15.3.2.4)."""
        s = self.s
        o = s.objs[s.players[p].front[k]]  # type: ignore[index]
        o.attacked = True
        s.battle = Battle(attacker=o.id, attacker_name=o.name, controller=p)
        s.step = "attack"
        self._emit("Attacks", f"Attacks({'AB'[p]}, {o.name})", subject=o.id, subject_name=o.name, player=p)  # type: ignore[attr-defined]

    def _attacker(self) -> Obj | None:
        b = self.s.battle
        if b is None:
            return None
        o = self.s.objs.get(b.attacker)
        return o if o is not None and o.zone == "front" else None

    def _t_combat(self, data: dict[str, Any]) -> None:
        self._combat_damage(first_strike=data["first_strike"])

    def _t_new_step(self, data: dict[str, Any]) -> None:
        self._new_step(data["step"])

    def _new_step(self, step: str) -> None:
        """A battle step begins: a Fast timing like a phase (15.3.2.3), turn player first."""
        s = self.s
        s.step = step
        s.priority = s.tp
        s.passes = 0
        self._emit("StepBegan", f"StepBegan({step})", step=step)  # type: ignore[attr-defined]

    def _battle_advance(self) -> None:
        """Battle in its sections (25.1): attacker, target, the early damage step (25.4.1,
        Fast timing 25.4.1.1), the normal damage step (Fast timing 25.4.2.1) and the timing
        after it (25.4.2.6)."""
        s = self.s
        step = s.step
        if step == "declare":
            self._enter_phase("action2")
        elif step == "attack":
            att = self._attacker()
            if att is None:  # A31a: no target, the damage steps still open
                self._new_step("early_damage")
                return
            self._ask_attack_target(att)
        elif step == "block":
            self._new_step("early_damage")
        elif step == "early_damage":
            # 35.4: the game actions that combat damage causes finish before the next step
            self._push_seq([("combat", {"first_strike": True}), ("sba", {}),  # type: ignore[attr-defined]
                            ("new_step", {"step": "normal_damage"})])
        elif step == "normal_damage":
            self._push_seq([("combat", {"first_strike": False}), ("sba", {}),  # type: ignore[attr-defined]
                            ("new_step", {"step": "after"})])
        else:
            s.battle = None
            self._new_step("declare")

    def attack_targets(self, attacker_controller: int) -> list[int]:
        """25.3.1-25.3.3: any opposing Entity; the Host only when none of them can block."""
        s = self.s
        q = 1 - attacker_controller
        ents = [oid for oid in s.players[q].front if oid is not None]
        out = list(ents)
        if not any(not cannot_block(s, s.objs[e]) for e in ents):
            out.append(s.players[q].host)
        return out

    def _ask_attack_target(self, att: Obj) -> None:
        p = att.controller
        acts = [Action(Kind.TARGET, self._place_of(t)) for t in self.attack_targets(p)]  # type: ignore[attr-defined]
        self._decide(p, DecisionKind.CHOOSE_ATTACK_TARGET, acts, "attack_target",  # type: ignore[attr-defined]
                     prompt=f"what does {att.name} attack?")

    def _on_attack_target(self, d: Decision, a: Action) -> None:
        """The attack target is declared: an Entity is now 'blocking' and 'blocks' effects
        trigger (25.3.4); either player may then respond (25.3.5)."""
        s = self.s
        b = s.battle
        assert b is not None
        tid = self._resolve_place(a.arg)  # type: ignore[attr-defined]
        t = s.objs[tid]
        b.target = tid
        s.step = "block"
        s.priority = s.tp
        s.passes = 0
        if t.zone == "host":
            b.target_is_host = True
            self._emit("AttacksHost", f"AttacksHost({'AB'[b.controller]}, {b.attacker_name})",  # type: ignore[attr-defined]
                       player=b.controller, subject=b.attacker)
        else:
            self._emit("Blocks", f"Blocks({'AB'[t.controller]}, {t.name})", subject=t.id,  # type: ignore[attr-defined]
                       subject_name=t.name, player=t.controller)

    def _combat_damage(self, first_strike: bool) -> None:
        """25.4: First Strike deals damage in the early step (25.4.1.2), the rest in the
        normal one (25.4.2.2), per A32, A34. An Entity deals its power (26.2.1) as combat
        damage (38.1.1); an attack on a Host deals that Host 1 damage (25.4.2.5)."""
        s = self.s
        b = s.battle
        if b is None or b.target is None:
            return
        att = self._attacker()
        if b.target_is_host:
            if first_strike or att is None or att.id in b.dealt:
                return
            b.dealt.append(att.id)
            self._push("host_point", players=[s.objs[b.target].owner], chosen={}, source=att.name)  # type: ignore[attr-defined]
            return
        blk = s.objs.get(b.target)
        if att is None or blk is None or blk.zone != "front":
            return  # 25.4.2.4, A31b: no damage, no redirect
        hits = []
        for x, y in ((att, blk), (blk, att)):
            if x.id in b.dealt:
                continue
            if first_strike and not has_keyword(s, x, "first_strike"):
                continue
            if x is blk and cannot_block(s, blk):
                continue  # 25.3.3.1, A31c
            b.dealt.append(x.id)
            hits.append((x, y, power(s, x)))
        for x, y, n in hits:  # 25.4.2.3: simultaneously
            self._damage_entity(y, n, (x.id, x.name, "combat"))  # type: ignore[attr-defined]
