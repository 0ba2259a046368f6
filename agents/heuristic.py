"""A rule-based player with a documented strategy (docs/agents.md).

It reads only its own PlayerView, through its public API (public facts and its own cards).
In short:

* **Setup**: go first; mulligan back cards costing 4 or more (at most two).
* **Curve out**: in its own Action Phase, first make sure it can pay for its best card
  (spend # on its Host's type, or 2 # on the type it lacks), then play the most expensive
  card it can: Entities and Forms first, then Equipment onto its best Entity, then removal
  Sorceries when there is an opposing Entity worth hitting, then Ambushes face down.
* **Action points**: left-over # draw a card while the hand is below the Host's soul and the
  deck is not nearly empty (deck-out loses, 1.1.2); otherwise they gain the Host's type.
* **Battle**: attack the Host whenever it may (1 damage, no risk); attack an Entity only when
  the attacker kills it and survives, or trades up in value.
* **Protect the hand**: Host damage and discards give up the least valuable card.
* **Hold Fast cards and Ambushes**: Fast cards are kept for the opponent's turn, where a Fast
  removal spell is cast on an attacking Entity it can kill; Ambushes are activated whenever
  their moment comes (they only come when they matter).
* **Never hurt its own**: a harmful targeted card or ability is played only when it has an
  opposing target, a helpful one only when it has one of its own; an "up to" target that
  would hurt its own (or help the opponent) is declined.
* **Break stalls**: from turn ``STALL_TURN`` on (games that last that long are stalled boards:
  walls on both sides), it also attacks Entities it cannot kill when its attacker survives
  (damage stays on Entities), trades attackers for blockers, and plays its Fast cards on its
  own turn.
"""

from __future__ import annotations

import random
from typing import Any

from hostwcg_env.engine import Action, CardDef, CardType, Kind, Res
from hostwcg_env.engine.actions import PASS, YES, Area, Place, hand_at
from hostwcg_env.engine.carddef import Ability, Selector
from hostwcg_env.engine.costs import can_pay
from hostwcg_env.engine.places import resolve_ref
from hostwcg_env.engine.primitives import Damage, Modify, Set
from hostwcg_env.engine.state import GameState, Obj
from hostwcg_env.engine.targeting import candidates
from hostwcg_env.engine.view import PlayerView

from .base import EngineAgent

HARMFUL = {"damage", "destroy", "return_to_hand", "banish", "gain_control", "retarget"}
STALL_TURN = 50  # half of all games end by turn 11, and nearly every one still going at 60 is a stall


def card_value(card: CardDef) -> float:
    v = len(card.cost) + 0.5 * len(card.abilities)
    if card.type in (CardType.ENTITY, CardType.TOKEN):
        v += 0.5 * (card.power + card.health)
    return v


def harmful(card: CardDef, ability: int | None = None) -> bool:
    abilities = card.abilities if ability is None or ability < 0 else (card.abilities[ability],)
    for ab in abilities:
        for st in ab.steps:
            if st.do in HARMFUL:
                return True
            if isinstance(st, (Modify, Set)) and ((st.power or 0) < 0 or (st.health or 0) < 0 or st.do == "set"):
                return True
    return False


def harmful_targets(ab: Ability) -> list[tuple[bool, Selector]]:
    """(harmful?, selector) for each target of an ability that one of its steps acts on."""
    out = []
    for name, sel in ab.targets:
        steps = [st for st in ab.steps if st.to is not None and st.to.name == name]
        if steps:
            out.append((any(st.do in HARMFUL or isinstance(st, Set) or (isinstance(st, Modify) and (
                (st.power or 0) < 0 or (st.health or 0) < 0)) for st in steps), sel))
    return out


def has_side_target(s: GameState, me: int, ab: Ability, source: int | None) -> bool:
    """Whether every target the ability's steps act on can be an opposing object when the
    step harms it, and one of ``me``'s own when it helps. ``s`` is a view's redacted copy
    (``PlayerView.state``): what can be targeted in play is public."""
    for hurt, sel in harmful_targets(ab):
        ids = candidates(s, sel, me, source)
        if not any((s.objs[i].controller != me) == hurt for i in ids if i >= 0):
            return False
    return True


def resolve(s: GameState, place: Place) -> Obj | None:
    """The object at a board place of an action in ``s`` (a view's redacted copy)."""
    oid = resolve_ref(s, place)
    return s.objs.get(oid) if oid is not None and oid >= 0 else None


def source_of(view: PlayerView, d: Any) -> tuple[CardDef | None, int | None]:
    """The card and ability index whose effect a target decision ``d`` chooses for (from the
    decision's task: a trigger, a stack item or an activated object), or (None, None)."""
    src = d.task.source() if d is not None and d.task is not None else None
    if src is None:
        return None, None
    if src.card is not None:
        return src.card, src.ability
    o = view.public(src.obj) if src.obj is not None else None
    return (o.card if o is not None else None), src.ability


def _activation_aimed(view: PlayerView, a: Action) -> bool:
    """Whether an activation's targets can fall on the side its effect is meant for (its
    source is the viewer's own card, so visible to it)."""
    o = view.at(a.src)
    if o is None:
        return True
    ab = o.card.abilities[a.n]
    return not ab.targets or has_side_target(view.state, view.player, ab, o.id)


def fight(view: PlayerView, att: Obj, blk: Obj) -> tuple[bool, bool]:
    """(the attacker destroys the attacked Entity, the attacker survives) by the numbers on the
    board: each deals its power (26.2.1), First Strike first (25.4.1.2), an Entity that cannot
    block deals none (25.3.3.1)."""
    kills = view.power(att) + blk.damage >= view.health(blk)
    if view.has_keyword(blk, "cannot_block"):
        return kills, True
    att_fs = view.has_keyword(att, "first_strike")
    blk_fs = view.has_keyword(blk, "first_strike")
    if att_fs and not blk_fs and kills:
        return True, True
    survives = view.power(blk) + att.damage < view.health(att)
    if blk_fs and not att_fs and not survives:
        return False, False
    return kills, survives


def _entities(view: PlayerView, p: int) -> list[Obj]:
    """The Entities in p's frontrow, slot order (a frontrow card is always face up)."""
    return [o for o in view.row(p, "front") if isinstance(o, Obj)]


class HeuristicAgent(EngineAgent):
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.returned = 0

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self.returned = 0

    # ------------------------------------------------------------ dispatch
    def choose(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        if len(actions) == 1:
            return actions[0]
        d = view.decision()
        kind = d.kind.value if d is not None else "priority"
        if kind == "first_player":
            return YES
        if kind == "mulligan":
            return self._mulligan(view, actions)
        if kind == "priority":
            return self._priority(view, actions)
        if kind == "place_triggers":
            acts = [a for a in actions if a.kind is Kind.ACTIVATE and _activation_aimed(view, a)]
            return acts[0] if acts else next((a for a in actions if a.kind is Kind.TRIGGER), PASS)
        if kind in ("choose_target", "choose_attack_target"):
            return self._target(view, actions, d)
        if kind == "pay":
            return Action(Kind.PAY) if Action(Kind.PAY) in actions else actions[0]
        if kind == "choose_card":
            return self._card(view, actions, d)
        if kind == "yes_no":
            return YES
        return actions[0]

    # ------------------------------------------------------------ setup
    def _mulligan(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        if self.returned < 2:
            hand = view.hand()
            worst = max(range(len(hand)), key=lambda i: len(hand[i].card.cost))
            if len(hand[worst].card.cost) >= 4:
                self.returned += 1
                return Action(Kind.CARD, hand_at(worst))
        self.returned = 0
        return PASS

    # ------------------------------------------------------------ priority
    def _priority(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        me = view.player
        by_kind: dict[Kind, list[Action]] = {}
        for a in actions:
            by_kind.setdefault(a.kind, []).append(a)
        if view.turn_player != me:
            return self._respond(view, by_kind)
        if Kind.ATTACK in by_kind:
            att = self._best_attack(view, by_kind[Kind.ATTACK])
            return att or PASS
        plays = [a for a in by_kind.get(Kind.PLAY, []) if self._worth_playing(view, a)]
        hand = view.hand()
        stalled = view.turn >= STALL_TURN

        def held(a: Action) -> bool:  # Fast cards wait for the opponent's turn, until a stall
            return hand[a.src.index].card.is_fast and not stalled

        # 1. make the best unaffordable card affordable
        ap = by_kind.get(Kind.AP_HOST, []) + by_kind.get(Kind.AP_ANY, [])
        if ap and not any(not held(a) for a in plays):
            need = self._missing_type(view)
            if need is not None:
                host = view.host(me)
                if host is not None and host.card.resource.value == need and Action(Kind.AP_HOST) in actions:
                    return Action(Kind.AP_HOST)
                if Action(Kind.AP_ANY, res=Res(need)) in actions:
                    return Action(Kind.AP_ANY, res=Res(need))
        # 2. play the most expensive worthwhile card, permanents first
        if plays:
            def rank(a: Action) -> tuple[int, float]:
                c = hand[a.src.index].card
                order = {CardType.ENTITY: 3, CardType.FORM: 3, CardType.SORCERY: 2, CardType.AMBUSH: 1}[c.type]
                return (order, card_value(c))
            non_fast = [a for a in plays if not held(a)]
            if non_fast:
                return max(non_fast, key=rank)
        for a in by_kind.get(Kind.ACTIVATE, []):
            if _activation_aimed(view, a):
                return a
        # 3. left-over action points
        if (Action(Kind.AP_DRAW) in actions and view.count(me, "hand") < max(1, view.host_soul(me))
                and view.count(me, "deck") > 8):
            return Action(Kind.AP_DRAW)
        if Action(Kind.AP_HOST) in actions:
            return Action(Kind.AP_HOST)
        return PASS

    def _respond(self, view: PlayerView, by_kind: dict[Kind, list[Action]]) -> Action:
        """On the opponent's turn: a Fast removal on an attacker it can kill."""
        b = view.battle
        if b is None or b.controller == view.player:
            return PASS
        attacker = view.public(b.attacker)
        if attacker is None or attacker.zone != "front":
            return PASS
        hand = view.hand()
        for a in by_kind.get(Kind.PLAY, []):
            c = hand[a.src.index].card
            if c.is_fast and harmful(c) and self._kills(c, attacker, view):
                return a
        return PASS

    def _kills(self, card: CardDef, target: Obj, view: PlayerView) -> bool:
        for ab in card.abilities:
            for st in ab.steps:
                if st.do == "destroy":
                    return True
                if isinstance(st, Damage) and target.damage + st.amount >= view.health(target):
                    return True
        return False

    def _missing_type(self, view: PlayerView) -> str | None:
        pool = view.pool(view.player)
        best = None
        for o in sorted(view.hand(), key=lambda o: -card_value(o.card)):
            c = o.card
            if c.type is CardType.AMBUSH or c.is_fast or can_pay(pool, c.cost):
                continue
            for r in c.cost:
                if r.value != "$" and pool.get(r.value, 0) < sum(1 for x in c.cost if x is r):
                    return r.value
            best = best or next((r.value for r in c.cost if r.value != "$"), None)
        return best

    def _worth_playing(self, view: PlayerView, a: Action) -> bool:
        c = view.hand()[a.src.index].card
        if c.type is not CardType.SORCERY:
            return True
        opp_entities = _entities(view, view.opponent)
        own_entities = _entities(view, view.player)
        if c.is_equipment or not harmful(c):
            return bool(own_entities) or not any(ab.targets for ab in c.abilities)
        spells = [ab for ab in c.abilities if ab.kind == "spell"]
        if any(hurt for ab in spells for hurt, _sel in harmful_targets(ab)):
            source = view.hand()[a.src.index].id
            return all(has_side_target(view.state, view.player, ab, source) for ab in spells)
        return bool(opp_entities) or any(st.to is not None and st.to.name in ("opponent_host", "each_host")
                                         for ab in c.abilities for st in ab.steps) or any(
            sel.type == "host" for ab in c.abilities for _n, sel in ab.targets)

    # ------------------------------------------------------------ battle
    def _best_attack(self, view: PlayerView, attacks: list[Action]) -> Action | None:
        me = view.player
        opp = _entities(view, view.opponent)
        host_open = not any(not view.has_keyword(o, "cannot_block") for o in opp)
        stalled = view.turn >= STALL_TURN
        mine = view.row(me, "front")
        best: tuple[float, Action] | None = None
        for a in attacks:
            att = mine[a.src.index]
            assert isinstance(att, Obj)
            score = 1.0 if host_open else -1.0
            for blk in opp:
                kills, survives = fight(view, att, blk)
                if kills and survives:
                    score = max(score, 2 + card_value(blk.card))
                elif kills and card_value(blk.card) > card_value(att.card):
                    score = max(score, card_value(blk.card) - card_value(att.card))
                elif stalled and (kills or (survives and view.power(att) > 0)):
                    score = max(score, 0.5)  # a trade, or damage that stays on the blocker
            if score > 0 and (best is None or score > best[0]):
                best = (score, a)
        return best[1] if best else None

    # ------------------------------------------------------------ targets
    def _target(self, view: PlayerView, actions: tuple[Action, ...], d: Any) -> Action:
        me = view.player
        targets = [a for a in actions if a.kind is Kind.TARGET]
        if not targets:
            return actions[0]
        if d.kind.value == "choose_attack_target":
            battle = view.battle
            att = view.public(battle.attacker) if battle else None
            best: tuple[float, Action] | None = None
            for a in targets:
                o = view.at(a.dst)
                if o is None:
                    continue
                if o.zone == "host":
                    score = 1.5
                elif att is not None:
                    kills, survives = fight(view, att, o)
                    score = (2 + card_value(o.card)) if kills and survives else (
                        card_value(o.card) - card_value(att.card) if kills else -view.power(o))
                else:
                    score = 0
                if best is None or score > best[0]:
                    best = (score, a)
            return best[1] if best else targets[0]
        card, ability = self._source_of(view, d)
        hurt = harmful(card, ability) if card is not None else True
        scored = []
        for a in targets:
            o = view.at(a.dst)
            if o is None:
                scored.append((0.0, a))
                continue
            mine = o.controller == me
            value = card_value(o.card) + (view.power(o) if o.zone == "front" else 0)
            if o.zone == "host":
                value = 3.0
            scored.append(((value if mine != hurt else -value), a))
        best_score, best_action = max(scored, key=lambda t: t[0])
        if best_score < 0 and PASS in actions:
            return PASS  # an "up to" target: decline rather than hurt its own or help the opponent
        return best_action

    def _source_of(self, view: PlayerView, d: Any) -> tuple[CardDef | None, int | None]:
        return source_of(view, d)

    # ------------------------------------------------------------ cards
    def _card(self, view: PlayerView, actions: tuple[Action, ...], d: Any) -> Action:
        cards = [a for a in actions if a.kind is Kind.CARD]
        if not cards:
            return actions[0]
        prompt = d.prompt if d is not None else ""
        hand = view.hand()
        listed = view.choice_cards()

        def value(a: Action) -> float:
            i = a.src.index
            o = hand[i] if a.src.area is Area.HAND else listed[i]
            return card_value(o.card)

        if "search" in prompt:
            return max(cards, key=value)
        if "put back" in prompt:
            return max(cards, key=value)
        return min(cards, key=value)  # damage, discard: give up the least valuable card
