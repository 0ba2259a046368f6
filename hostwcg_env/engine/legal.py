"""What a player may do now (queries only): priority actions, playability, attack targets,
and the rule an illegal action breaks (15, 31.1, 14, 17, 21, 19.1, 25, 27, 39.2)."""

from __future__ import annotations

from typing import Final

from .actions import (
    PASS,
    Action,
    Decision,
    DecisionKind,
    IllegalActionError,
    Kind,
    hand_at,
    slot_at,
)
from .carddef import TYPED, Ability, CardType, Res
from .costs import can_pay
from .kinds import AbilityKind, Condition, Phase, PhaseStep, Zone
from .places import place_ref, resolve_ref
from .state import GameState, Obj
from .stats import activatables, pool_tables
from .targeting import candidates, cannot_block

Problem = tuple[str, str] | None

# Actions are immutable values: the common ones are made once (priority is the hot path).
_PLAY: Final = tuple(Action(Kind.PLAY, hand_at(i)) for i in range(64))
_ATTACK: Final = tuple(Action(Kind.ATTACK, slot_at("f", k)) for k in range(16))
_AP_HOST: Final = Action(Kind.AP_HOST)
_AP_DRAW: Final = Action(Kind.AP_DRAW)
_AP_ANY: Final = tuple(Action(Kind.AP_ANY, res=r) for r in TYPED)


def slow_ok(s: GameState, p: int) -> bool:
    """15.2.1, 31.1.1: Slow, one of the 2 speeds (15.1), only in your own Action Phase 1 or
    2 (10.3, 10.3.1, 10.5.1), with an empty stack."""
    return (s.started and p == s.tp and (s.phase is Phase.ACTION1 or s.phase is Phase.ACTION2)
            and not s.stack)


def priority_actions(s: GameState, p: int) -> list[Action]:
    """What p may do with priority (31.1.2): pass; Slow actions such as # spends and playing
    cards (14.1) when ``slow_ok``; Fast cards and abilities whenever p has priority, in
    response to any action (15.1, 15.3, 15.3.1); attackers in the declare step."""
    pl = s.players[p]
    acts = [PASS]
    slow = slow_ok(s, p)
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
        if play_problem(s, p, o) is None:
            acts.append(_PLAY[i] if i < len(_PLAY) else Action(Kind.PLAY, hand_at(i)))
    for o, i, ab in activatables(s, p):
        if activation_problem(s, p, o, i, ab) is None:
            acts.append(Action(Kind.ACTIVATE, place_ref(s, o.id), n=i))
    if s.phase is Phase.BATTLE and s.step is PhaseStep.DECLARE and p == s.tp and not s.stack:
        for k, slot in enumerate(pl.front):
            if slot is not None and attack_problem(s, p, k) is None:
                acts.append(_ATTACK[k] if k < len(_ATTACK) else Action(Kind.ATTACK, slot_at("f", k)))
    return acts


def only_pass_publicly(s: GameState, p: int) -> bool:
    """Whether p, whose only priority action now is to pass, could see that from what both
    players know (31.1.2, 6.1.2.1, 6.2).

    p's hand and face-down cards are hidden from the other player, so "nothing but pass" is
    public only if no card of the card pool could be played from p's hand now (Fast cards
    alone outside p's own Action Phase with an empty stack, 15.2.1, 15.3), judged with p's
    public pool, slots and targets, and no face-down card of p could be an Ambush whose state
    requirement holds and whose cost p can pay (29.4, 17.2.1). Action points, face-up
    abilities and attacks are public and were already judged. A driver may skip a stop only
    when this holds: skipping it otherwise would tell the other player that p holds nothing
    usable (Game.forced_action)."""
    pl = s.players[p]
    tables = pool_tables(s.registry)
    if pl.hand:
        pool = pl.pool
        for card in tables.playable if slow_ok(s, p) else tables.fast:
            if card.type is not CardType.AMBUSH and not can_pay(pool, card.cost):
                continue
            if play_problem(s, p, Obj(0, card, p, p, Zone.HAND)) is None:
                return False
    if tables.state_ambush:
        for oid in pl.back:
            o = s.objs[oid] if oid is not None else None
            if o is None or not o.face_down:
                continue
            for card, i, ab in tables.state_ambush:  # any face-down card could be any of them
                probe = Obj(o.id, card, p, p, Zone.BACK, o.slot, face_down=True)
                if activation_problem(s, p, probe, i, ab) is None:
                    return False
            break
    return True


def open_slots(s: GameState, p: int, row: str) -> list[int]:
    """Open slots of a row ("f" or "b"), those with nothing in them (7.1); any card or token
    occupies one (7.2)."""
    slots = s.players[p].front if row == "f" else s.players[p].back
    return [i for i, oid in enumerate(slots) if oid is None]


def _targets_declarable(s: GameState, p: int, o: Obj, abilities: list[Ability]) -> bool:
    for ab in abilities:
        for _name, sel in ab.targets:
            need = 0 if sel.up_to else sel.count
            if len(candidates(s, sel, p, o.id)) < need:
                return False
    return True


def play_problem(s: GameState, p: int, o: Obj) -> Problem:
    """Why ``o`` (in p's hand) cannot be played now, ignoring timing; None if it can."""
    card = o.card
    t = card.type
    if t is CardType.ENTITY:
        if not open_slots(s, p, "f"):
            return ("18.1", f"{card.name}: no open frontrow slot")
    elif t is CardType.SORCERY:
        if not open_slots(s, p, "b"):
            return ("21.1", f"{card.name}: no open backrow slot")
        spells = [ab for ab in card.abilities if ab.kind is AbilityKind.SPELL]
        if not _targets_declarable(s, p, o, spells):
            rule = "23.2" if card.is_equipment else "21.2"
            return (rule, f"{card.name}: not every target can be declared")
    elif t is CardType.AMBUSH:
        if not open_slots(s, p, "b"):
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


def activation_problem(s: GameState, p: int, o: Obj, i: int, ab: Ability) -> Problem:
    """Why ability i of o cannot be activated now; None if it can. A Fast ability needs no
    Slow timing (15.3); an Ambush's keyword requirement, the condition before its ';'
    (rule 29, 29.4), must hold."""
    pl = s.players[p]
    if ab.kind is AbilityKind.ACTIVATED:
        if o.face_down:
            return ("17.2", "a face-down card has no abilities")
        if not (ab.fast or slow_ok(s, p)):
            return ("27.6", f"{o.name}: activated effects are Slow (15.2.1)")
        if ab.once_per_turn and i in o.used_s:
            return ("27.5", f"{o.name}: Ⓢ was already used this turn")
        if not can_pay(pl.pool, ab.cost):
            return ("27.4", f"{o.name}: cannot pay the cost")
    elif ab.kind is AbilityKind.DURING:
        if o.face_down or s.phase != ab.phase or s.tp != p:
            return ("39.2", f"{o.name}: only during your {ab.phase} phase")
        if o.used_during.get(i) == (s.turn, s.phase):
            return ("39.2", f"{o.name}: already used this phase")
    elif ab.kind is AbilityKind.AMBUSH:
        if not o.face_down:
            return ("17.2", f"{o.name}: an Ambush is activated once (A39)")
        if ab.while_ is None or not state_holds(s, p, ab.while_):
            return ("17.2", f"{o.name}: its activation requirement is not met")
        if not can_pay(pl.pool, o.card.cost):
            return ("17.2.1", f"{o.name}: cannot pay the cost")
    else:
        return ("27", f"{o.name}: that ability cannot be activated")
    if not _targets_declarable(s, p, o, [ab]):
        return ("30.5", f"{o.name}: no legal target")
    return None


def state_holds(s: GameState, p: int, cond: Condition) -> bool:
    """An Ambush's state requirement (29.2), from p's side."""
    if cond is Condition.OPPONENT_CONTROLS_ENTITY:
        return any(x is not None for x in s.players[1 - p].front)
    if cond is Condition.YOU_CONTROL_NO_ENTITY:
        return all(x is None for x in s.players[p].front)
    if cond is Condition.YOUR_HAND_EMPTY:
        return not s.players[p].hand
    if cond is Condition.OPPONENT_ATTACKING:
        return s.battle is not None and s.battle.controller != p
    return False


def attack_problem(s: GameState, p: int, k: int) -> Problem:
    if not (s.phase is Phase.BATTLE and s.step is PhaseStep.DECLARE and p == s.tp and not s.stack):
        return ("25.2", "attackers are declared in your Battle Phase with an empty stack (10.4.1)")
    pl = s.players[p]
    oid = pl.front[k] if 0 <= k < len(pl.front) else None
    if oid is None:
        return ("25.2.1", f"no Entity in slot f{k}")
    o = s.objs[oid]
    if o.sick:
        return ("18.5.2.1", f"{o.name} has Creation Sickness")
    if o.attacked:
        return ("25.5.1", f"{o.name} already attacked this turn")
    return None


def attack_targets(s: GameState, attacker_controller: int) -> list[int]:
    """25.3.1-25.3.3: any opposing Entity; the Host only when none of them can block."""
    q = 1 - attacker_controller
    ents = [oid for oid in s.players[q].front if oid is not None]
    out = list(ents)
    if not any(not cannot_block(s, s.objs[e]) for e in ents):
        out.append(s.players[q].host)
    return out


# ------------------------------------------------------------ explanations
def explain_illegal(s: GameState, d: Decision, a: Action) -> IllegalActionError:
    """The rule an action that is not among the decision's legal ones breaks."""
    p = d.player
    kind = a.kind
    if d.kind is DecisionKind.PRIORITY:
        slow = slow_ok(s, p)
        if kind in (Kind.AP_HOST, Kind.AP_DRAW, Kind.AP_ANY):
            if not slow:
                return IllegalActionError(
                    "11.4", "action points are spent only in your Action Phase with an empty stack (15.2.1)")
            need = 2 if kind is Kind.AP_ANY else 1
            return IllegalActionError("11.3", f"needs {need} # and you have {s.players[p].ap}")
        if kind is Kind.PLAY:
            i = a.src.index
            hand = s.players[p].hand
            if not 0 <= i < len(hand):
                return IllegalActionError("14.2", f"no card at hand index {a.src}")
            o = s.objs[hand[i]]
            prob = play_problem(s, p, o)
            if prob:
                return IllegalActionError(*prob)
            return IllegalActionError("15.2.1", f"{o.name} is Slow: only in your Action Phase with an empty stack")
        if kind is Kind.ATTACK:
            prob = attack_problem(s, p, a.src.index)
            if prob:
                return IllegalActionError(*prob)
        if kind is Kind.ACTIVATE:
            oid = resolve_ref(s, a.src)
            if oid is None or oid < 0 or s.objs[oid].controller != p:
                return IllegalActionError("27.4", f"you control nothing at {a.src} to activate")
            o = s.objs[oid]
            if not 0 <= a.n < len(o.card.abilities):
                return IllegalActionError("27.1", f"{o.name} has no ability {a.n}")
            ab = o.card.abilities[a.n]
            if ab.kind is AbilityKind.AMBUSH and ab.when is not None:
                return IllegalActionError(
                    "17.2", f"{o.name} can only be activated in the trigger window of its event (A53)")
            prob = activation_problem(s, p, o, a.n, ab)
            if prob:
                return IllegalActionError(*prob)
    if d.kind is DecisionKind.CHOOSE_SLOT and kind is Kind.SLOT:
        return IllegalActionError("14.7.1", f"slot {a.dst} is occupied or not of the right row")
    if d.kind is DecisionKind.CHOOSE_ATTACK_TARGET and kind is Kind.TARGET:
        oid = resolve_ref(s, a.dst)
        if oid is not None and oid >= 0 and s.objs[oid].zone is Zone.HOST:
            return IllegalActionError("25.3.2", "the Host can be attacked only when no opposing Entity can block")
        return IllegalActionError("25.3.1", f"{a.dst} is not an opposing Entity or Host")
    if d.kind is DecisionKind.CHOOSE_TARGET and kind is Kind.TARGET:
        return IllegalActionError("30.5", f"{a.dst} is not a legal target")
    if d.kind is DecisionKind.PAY and kind is Kind.PAY:
        return IllegalActionError("12.5.1", f"paying $ with {a.res} leaves the rest of the cost unpayable")
    if d.kind is DecisionKind.PLACE_TRIGGERS and kind is Kind.PASS:
        return IllegalActionError("28.6.1", "triggered effects must be put on the stack")
    if d.kind is DecisionKind.PLACE_TRIGGERS and kind is Kind.ACTIVATE:
        return IllegalActionError("33.5", f"{a.src} cannot be activated for this event")
    return IllegalActionError(
        "31.1", f"'{a}' is not a legal answer to {'AB'[p]}'s {d.kind.value} decision now"
    )
