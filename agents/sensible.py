"""The sensible-action filter: the legal actions worth considering at a choice, from the
chooser's own view (``docs/agents.md``, "The sensible-action filter").

Search agents search only these (the lookahead, ``turnsearch``, and ISMCTS at its root), and
the shipped PPO policy's choices of a target are masked to them, so that no agent makes the
blunder audit's clear blunders (R1, R2) or its self-harm (R6):

* a target for an effect that clearly harms (damage, destroy, banish, return to hand, gain
  control, a cut to power, health or soul, harmful Equipment) is an opposing object, and one
  for an effect that clearly helps is one's own, whenever such a target (or declining an "up
  to" target) is legal; one's own object that an opposing effect on the stack targets may still
  be chosen (a rescue, such as returning it to hand);
* no card is played nor ability activated whose harmful target could only be one's own, nor
  whose helpful target could only be an opponent's;
* no 2 action points for a resource type that no card in hand costs, nor for the Host's own
  type while 1 action point gives it (11.3.1, 11.3.3).

When no action passes, every legal action is kept. Mixed or undirected effects (moving,
retargeting) are never filtered.
"""

from __future__ import annotations

from hostwcg_env.engine import Action
from hostwcg_env.engine.actions import DecisionKind, Kind
from hostwcg_env.engine.carddef import Ability, CardDef, CardType
from hostwcg_env.engine.legal import attack_targets
from hostwcg_env.engine.primitives import Grant, Modify, Set
from hostwcg_env.engine.state import GameState, Obj
from hostwcg_env.engine.targeting import candidates
from hostwcg_env.engine.view import PlayerView

from .heuristic import HARMFUL, fight, resolve, source_of


def direction(card: CardDef, ability: int | None) -> int:
    """-1 when the effect clearly harms what it targets (damage, destroy, banish, return to hand,
    gain control, a cut to power, health or soul, harmful Equipment), +1 when it clearly helps
    (healing, boosts, First Strike, helpful Equipment), 0 otherwise or when mixed."""
    abilities: tuple[Ability, ...] = card.abilities if ability is None or ability < 0 else (card.abilities[ability],)
    signs: list[int] = []
    for ab in abilities:
        named = {name for name, _sel in ab.targets}
        for st in ab.steps:
            if st.to is None or (st.to.name not in named and st.to.choose is None):
                continue
            if st.do in HARMFUL:
                signs.append(-1)
            elif st.do == "heal":
                signs.append(1)
            elif isinstance(st, Modify):
                signs += [(v > 0) - (v < 0) for v in (st.power, st.health, st.soul) if v]
            elif isinstance(st, Set):
                signs += [-1 for v in (st.power, st.health) if v is not None and v <= 1]
            elif isinstance(st, Grant):
                signs.append(1 if st.keyword == "first_strike" else -1 if st.keyword == "cannot_block" else 0)
            elif st.do == "equip":
                for eq in card.abilities:
                    if eq.kind == "static" and eq.affects == "equipped":
                        signs += [(v > 0) - (v < 0) for v in (eq.power, eq.health, eq.soul) if v]
                        signs += [-1 for v in (eq.set_power, eq.set_health) if v is not None and v <= 1]
                        signs += [1 for g in eq.grants if g == "first_strike"]
    signs = [x for x in signs if x]
    if signs and all(x < 0 for x in signs):
        return -1
    if signs and all(x > 0 for x in signs):
        return 1
    return 0


def right_side_exists(s: GameState, me: int, card: CardDef, ai: int, source: int | None) -> bool:
    """Whether ability ``ai`` of ``card`` has, for each of its targets, a legal one on the side
    its effect is meant for: an opposing object for a harmful effect, one's own for a helpful.
    ``s`` is the chooser's view's redacted copy (``PlayerView.state``)."""
    ab = card.abilities[ai]
    sign = direction(card, ai) if ab.targets else 0
    if not sign:
        return True
    for _name, sel in ab.targets:
        ids = candidates(s, sel, me, source)
        if not any((s.objs[i].controller == me) == (sign > 0) for i in ids if i >= 0):
            return False
    return True


def sensible_targets(view: PlayerView, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """At a ``choose_target`` decision, the targets on the side the effect is meant for (and
    declining, where legal), a rescue of one's own object under fire allowed; every action at
    other decisions, or where none is on the right side."""
    d = view.decision()
    if d is None or d.kind is not DecisionKind.CHOOSE_TARGET:
        return actions
    card, ability = source_of(view, d)
    sign = direction(card, ability) if card is not None else 0
    if not sign:
        return actions
    s = view.state  # the redacted copy: nothing hidden is read
    me = view.player
    threatened = {i for it in s.stack if it.controller != me for ids in it.targets.values() for i in ids}
    right = tuple(a for a in actions if a.kind is not Kind.TARGET or (
        (o := resolve(s, a.dst)) is not None and ((o.controller == me) == (sign > 0) or (
            sign < 0 and o.id in threatened))))  # a rescue: its own object under fire
    if any(a.kind is Kind.TARGET or a.kind is Kind.PASS for a in right):
        return right
    return actions


def keeps_deck(view: PlayerView, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """``actions`` less an action point spent to draw the last card of the player's deck: an
    empty deck loses the game at once (1.1, 1.1.2; the audit's R7)."""
    if view.count(view.player, "deck") != 1 or Action(Kind.AP_DRAW) not in actions or len(actions) == 1:
        return actions
    return tuple(a for a in actions if a.kind is not Kind.AP_DRAW)


def losing_fight(view: PlayerView, att: Obj, target: Obj) -> bool:
    """Whether an attack of ``att`` on ``target`` loses the attacker for nothing by the numbers
    on the board (``agents.heuristic.fight``): the target destroys the attacker and survives. An
    attack on a Host (1 damage that always lands, 25.4.2.5) never loses."""
    if target.zone != "front":
        return False
    kills, survives = fight(view, att, target)
    return not kills and not survives


def no_losing_attacks(view: PlayerView, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """``actions`` less the attacks that lose the attacker for nothing by the numbers on the
    board (the audit's R3): declaring an attack whose every legal target (25.3.1-25.3.3) is a
    losing fight (:func:`losing_fight`), or choosing a losing target while another is legal.
    Every action when none would be left. A trick in hand that would turn the fight is not
    counted: the board alone decides."""
    d = view.decision()
    if d is None or len(actions) == 1:
        return actions
    if d.kind is DecisionKind.PRIORITY:
        s = view.state  # the redacted copy: the board is public
        me = view.player
        targets = [o for t in attack_targets(s, me) if (o := view.public(t)) is not None]
        front = s.players[me].front

        def loses(a: Action) -> bool:
            if a.kind is not Kind.ATTACK or not targets:
                return False
            oid = front[a.src.index]
            att = view.public(oid) if oid is not None else None
            return att is not None and all(losing_fight(view, att, t) for t in targets)
    elif d.kind is DecisionKind.CHOOSE_ATTACK_TARGET and view.battle is not None:
        att = view.public(view.battle.attacker)

        def loses(a: Action) -> bool:
            o = view.at(a.dst) if a.kind is Kind.TARGET else None
            return att is not None and o is not None and losing_fight(view, att, o)
    else:
        return actions
    kept = tuple(a for a in actions if not loses(a))
    return kept if kept else actions


def sensible(view: PlayerView, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The actions worth considering (the module docstring); every legal action when none is."""
    d = view.decision()
    if d is not None and d.kind is DecisionKind.CHOOSE_TARGET:
        return sensible_targets(view, actions)
    if d is None or d.kind is not DecisionKind.PRIORITY:
        return actions
    me = view.player
    hand = view.hand()
    host = view.host(me)
    own_type = host.card.resource.value if host is not None else None
    wanted = {r.value for o in hand for r in o.card.cost}
    out = []
    for a in actions:
        if a.kind is Kind.AP_ANY:
            # 2 action points for a type no card in hand costs, or for the Host's own type
            # that 'ap host' gives for 1 (11.3.1, 11.3.3), are never better
            ok = a.res in wanted and not (a.res == own_type and Action(Kind.AP_HOST) in actions)
        elif a.kind is Kind.PLAY:
            o = hand[a.src.index]
            ok = o.card.type is not CardType.SORCERY or all(
                right_side_exists(view.state, me, o.card, i, o.id) for i, ab in enumerate(o.card.abilities)
                if ab.kind == "spell" and ab.targets)
        elif a.kind is Kind.ACTIVATE:
            src = view.at(a.src)
            ok = src is None or not src.card.abilities[a.n].targets or right_side_exists(
                view.state, me, src.card, a.n, src.id)
        else:
            ok = True
        if ok:
            out.append(a)
    return tuple(out) if out else actions
