"""Battle (25, A30-A34): declaring an attacker, its target, and combat damage in the early
(First Strike) and normal damage steps.

A battle step ends when both players pass in a row with an empty stack (A17); the turn player
then receives priority in the next one (31.5.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Decision, DecisionKind, Kind, Resume
from .core import Core
from .damage import HostPoint, damage_entity
from .events import Attacks, AttacksHost, Blocks
from .kinds import Phase, PhaseStep, Zone
from .legal import attack_targets
from .phases import enter_phase, new_step
from .resolution import RunGameActions
from .state import Battle, Obj
from .stats import has_keyword, power
from .targeting import cannot_block
from .tasks import Task


@dataclass(init=False)
class CombatDamage(Task):
    """The combat damage of one damage step: First Strike's (``first_strike``) or the rest."""

    first_strike: bool

    def __init__(self, first_strike: bool) -> None:
        self.first_strike = first_strike

    def clone(self) -> CombatDamage:
        return CombatDamage(self.first_strike)


@dataclass(init=False)
class NextStep(Task):
    """Begin the battle step ``step`` (after the game actions of a damage step, 35.4)."""

    step: PhaseStep

    def __init__(self, step: PhaseStep) -> None:
        self.step = step

    def clone(self) -> NextStep:
        return NextStep(self.step)


def declare_attack(g: Core, p: int, k: int) -> None:
    """25.2.2: the Entity is 'attacking' and 'attacks' effects trigger; either player may
    then respond (25.2.3), as after any declared attack (15.3.2.4)."""
    s = g.s
    oid = s.players[p].front[k]
    assert oid is not None  # a legal attack
    o = s.objs[oid]
    o.attacked = True
    s.battle = Battle(attacker=o.id, attacker_name=o.name, controller=p)
    s.step = PhaseStep.ATTACK
    g.emit(Attacks(p, o.id, o.name))


def attacker(g: Core) -> Obj | None:
    """The attacking Entity, while it is still in its slot."""
    b = g.s.battle
    if b is None:
        return None
    o = g.s.objs.get(b.attacker)
    return o if o is not None and o.zone is Zone.FRONT else None


def run_next_step(g: Core, t: NextStep) -> None:
    new_step(g, t.step)


def battle_advance(g: Core) -> None:
    """Battle in its sections (25.1): attacker, target, the early damage step (25.4.1,
    Fast timing 25.4.1.1), the normal damage step (Fast timing 25.4.2.1) and the timing
    after it (25.4.2.6)."""
    s = g.s
    step = s.step
    if step is PhaseStep.DECLARE:
        enter_phase(g, Phase.ACTION2)
    elif step is PhaseStep.ATTACK:
        att = attacker(g)
        if att is None:  # A31a: no target, the damage steps still open
            new_step(g, PhaseStep.EARLY_DAMAGE)
            return
        ask_attack_target(g, att)
    elif step is PhaseStep.BLOCK:
        new_step(g, PhaseStep.EARLY_DAMAGE)
    elif step is PhaseStep.EARLY_DAMAGE:
        # 35.4: the game actions that combat damage causes finish before the next step
        g.push_seq([CombatDamage(True), RunGameActions(), NextStep(PhaseStep.NORMAL_DAMAGE)])
    elif step is PhaseStep.NORMAL_DAMAGE:
        g.push_seq([CombatDamage(False), RunGameActions(), NextStep(PhaseStep.AFTER)])
    else:
        s.battle = None
        new_step(g, PhaseStep.DECLARE)


def ask_attack_target(g: Core, att: Obj) -> None:
    p = att.controller
    acts = [Action(Kind.TARGET, target=g.place_ref(t)) for t in attack_targets(g.s, p)]
    g.decide(p, DecisionKind.CHOOSE_ATTACK_TARGET, acts, Resume.ATTACK_TARGET,
             prompt=f"what does {att.name} attack?")


def on_attack_target(g: Core, d: Decision, a: Action) -> None:
    """The attack target is declared: an Entity is now 'blocking' and 'blocks' effects
    trigger (25.3.4); either player may then respond (25.3.5)."""
    s = g.s
    b = s.battle
    assert b is not None
    tid = g.resolve_ref(a.dst)
    assert tid is not None  # one of the decision's own targets
    t = s.objs[tid]
    b.target = tid
    s.step = PhaseStep.BLOCK
    s.priority = s.tp
    s.passes = 0
    if t.zone is Zone.HOST:
        b.target_is_host = True
        g.emit(AttacksHost(b.controller, b.attacker, b.attacker_name))
    else:
        g.emit(Blocks(t.controller, t.id, t.name))


def run_combat_damage(g: Core, t: CombatDamage) -> None:
    """25.4: First Strike deals damage in the early step (25.4.1.2), the rest in the
    normal one (25.4.2.2), per A32, A34. An Entity deals its power (26.2.1) as combat
    damage (38.1.1); an attack on a Host deals that Host 1 damage (25.4.2.5)."""
    first_strike = t.first_strike
    s = g.s
    b = s.battle
    if b is None or b.target is None:
        return
    att = attacker(g)
    if b.target_is_host:
        if first_strike or att is None or att.id in b.dealt:
            return
        b.dealt.append(att.id)
        g.push(HostPoint([s.objs[b.target].owner], {}, att.name))
        return
    blk = s.objs.get(b.target)
    if att is None or blk is None or blk.zone is not Zone.FRONT:
        return  # 25.4.2.4, A31b: no damage, no redirect
    hits: list[tuple[Obj, Obj, int]] = []
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
        damage_entity(g, y, n, (x.id, x.name, "combat"))
