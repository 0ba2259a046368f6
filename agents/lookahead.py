"""A one-ply lookahead player: try every legal action in sampled worlds, play the rest of the
turn out with a fast policy, and score the positions with a documented evaluation.

For each choice (a decision with two or more legal actions) the agent

1. samples ``worlds`` full games consistent with its own PlayerView (``determinize``: the
   opponent's hidden cards drawn from the decklist of the shipped deck whose Host it plays,
   as ISMCTS does; the agent's own deck shuffled); it never reads the real game;
2. in each world, for each legal action, applies the action to a clone of the world and plays
   on with the rollout policy (the heuristic, for both players) until the turn ends, the game
   ends, or ``max_rollout`` decisions were taken;
3. scores each resulting position with :func:`evaluate` (a win is 1, a loss 0) and averages
   over the worlds;
4. takes the best-scoring action, but keeps the heuristic's own choice unless another action
   scored better by more than ``margin``: a search with one world refines the heuristic instead
   of replacing it with noise.

With ``stall=TURN`` (``lookahead:1:stall=50``; off by default, on by default in ``pimc``), from
that turn on an attack the heuristic proposes is made without a search (stalled boards,
``docs/agents.md``).

Setup choices (who goes first, mulligans) and the order of simultaneous triggers are the
heuristic's: a rollout to the end of the turn does not see what they change.

The evaluation (:func:`evaluate`, weights in :class:`Weights`) reads only what a player could
count on the table, and the sampled world's hand and deck sizes; ``docs/agents.md`` explains it.
The agent is deterministic for a seed: the worlds are drawn from its own generator, and
nothing depends on time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from hostwcg_env.engine import Action, Game
from hostwcg_env.engine.actions import PASS, Decision, DecisionKind, Kind
from hostwcg_env.engine.carddef import CardDef
from hostwcg_env.engine.primitives import Damage, Modify
from hostwcg_env.engine.state import GameState
from hostwcg_env.engine.stats import has_keyword, health, host_health, host_soul, power
from hostwcg_env.engine.view import PlayerView, determinize

from .base import EngineAgent
from .heuristic import HeuristicAgent
from .ismcts import _shipped_lists
from .sensible import sensible

# Decisions the search leaves to the heuristic: setup, and ordering simultaneous triggers.
HEURISTIC_KINDS = frozenset({DecisionKind.FIRST_PLAYER, DecisionKind.MULLIGAN, DecisionKind.PLACE_TRIGGERS})


def searched(decision: Decision | None, n_options: int) -> bool:
    """Whether a check races the options of ``decision``: two or more, and not a decision left
    to the heuristic (``HEURISTIC_KINDS``). One test for every check (``agents/set_search.py``,
    ``agents/set_agent.py``, ``scripts/learned_check.py``)."""
    return n_options > 1 and decision is not None and decision.kind not in HEURISTIC_KINDS


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights (``docs/agents.md``, "lookahead"). Every term is the player's
    own value minus the opponent's, so the evaluation of a position for one player is one minus
    its evaluation for the other."""

    # Fitted by scripts/fit_lookahead_eval.py to the 30,604 turn starts of 2,374 kept games (docs/agents.md)
    life: float = 0.0  # per point of life: min(health left, cards in hand + 1) (it acts through danger)
    danger: float = 4.5  # times -danger_base ** (life - threat): near death costs the most
    danger_base: float = 0.8
    threat_next: float = 0.5  # weight of the opponent's threat when the opponent moves next ...
    threat_later: float = 0.5  # ... and when the player itself moves next
    reach: float = 1.0  # weight of the Host damage the cards in hand can deal, in the threat
    hand: float = -0.3  # per card in hand up to the Host's soul, beyond what it adds to life
    entity: float = -0.35  # per Entity in the front row ...
    power: float = 0.14  # ... plus per point of its power ...
    toughness: float = 0.17  # ... and per point of health it has left
    form: float = 0.18  # per card in the Form zone
    back: float = -0.12  # per card in the back row (face-down Ambushes, Lingering cards)
    resource: float = 0.05  # per resource in the pool, up to pool_cap
    pool_cap: int = 6
    deck_low: float = 1.1  # per card under deck_safe left in the deck (an empty deck loses, 1.1.2)
    deck_safe: int = 5
    tempo: float = 0.37  # for being the player whose turn it is

    @classmethod
    def parse(cls, text: str) -> Weights:
        """``"life=0.3,danger=2.5"``: named weights changed from the defaults."""
        known = {f.name: f for f in fields(cls)}
        out: dict[str, Any] = {}
        for item in filter(None, (x.strip() for x in text.split(","))):
            key, _, value = item.partition("=")
            if key not in known:
                raise ValueError(f"unknown lookahead weight {key!r} (known: {', '.join(known)})")
            try:
                out[key] = int(value) if known[key].type in (int, "int") else float(value)
            except ValueError:
                raise ValueError(f"lookahead weight {key}: {value!r} is not a number") from None
        return cls(**out)


DEFAULT_WEIGHTS = Weights()


@dataclass
class Side:
    """What the evaluation counts of one player."""

    life: int  # host damage points that would end the game: min(health left, hand + 1) (1.1.1, 1.1.3)
    hand: int
    soul: int
    entities: int
    attackers: int  # Entities that can attack on this player's next turn
    blockers: int  # Entities that can be attacked, so shield the Host (25.3.1)
    power: int
    toughness: int  # health left, summed over the Entities
    forms: int
    back: int
    pool: int
    deck: int
    reach: int  # Host damage the cards in hand could deal (burn)


_REACH: dict[int, int] = {}


def host_reach(card: CardDef) -> int:
    """The damage a card's spell or Ambush effects can deal to an opposing Host (direct damage,
    or a cut to its health), cached per card."""
    hit = _REACH.get(id(card))
    if hit is not None:
        return hit
    n = 0
    for ab in card.abilities:
        if ab.kind not in ("spell", "ambush"):
            continue
        named = dict(ab.targets)
        for st in ab.steps:
            to = st.to
            if to is None or to.name is None:
                continue
            sel = named.get(to.name)
            hits_host = to.name in ("opponent_host", "each_host") or (
                sel is not None and sel.type in ("host", "entity_or_host") and sel.controller != "you")
            if not hits_host:
                continue
            if isinstance(st, Damage):
                n += st.amount
            elif isinstance(st, Modify) and (st.health or 0) < 0:
                n -= st.health or 0
    _REACH[id(card)] = n
    return n


def side(s: GameState, p: int) -> Side:
    pl = s.players[p]
    left = host_health(s, p) - len(pl.damage)
    hand = len(pl.hand)
    ents = attackers = blockers = pw = tough = 0
    for oid in pl.front:
        if oid is None:
            continue
        o = s.objs[oid]
        ents += 1
        pw += power(s, o)
        tough += max(0, health(s, o) - o.damage)
        if not has_keyword(s, o, "cannot_block"):
            blockers += 1
        attackers += 1
    return Side(life=max(0, min(left, hand + 1)), hand=hand, soul=max(0, host_soul(s, p)), entities=ents,
                attackers=attackers, blockers=blockers, power=pw, toughness=tough, forms=len(pl.forms),
                back=sum(1 for b in pl.back if b is not None), pool=sum(pl.pool.values()), deck=len(pl.deck),
                reach=sum(host_reach(s.objs[o].card) for o in pl.hand))


# The weights that multiply a feature; the other fields of Weights shape the features.
LINEAR = ("life", "danger", "hand", "entity", "power", "toughness", "form", "back", "resource", "deck_low",
          "tempo")


def _terms(me: Side, opp: Side, next_to_act: bool, w: Weights) -> tuple[float, ...]:
    """One player's features, in the order of ``LINEAR`` but the last (tempo)."""
    # attacks the opponent's board can land on the Host, and the burn in its hand
    threat = max(0, opp.attackers - me.blockers) + w.reach * opp.reach
    exposure = me.life - threat * (w.threat_later if next_to_act else w.threat_next)
    return (me.life, -w.danger_base ** max(0.0, exposure), min(me.hand, me.soul), me.entities, me.power,
            me.toughness, me.forms, me.back, min(me.pool, w.pool_cap), -max(0, w.deck_safe - me.deck))


def features(s: GameState, p: int, w: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Player ``p``'s features minus the opponent's, and +1 or -1 for whose turn it is (tempo),
    in the order of ``LINEAR``: the evaluation is the logistic of their weighted sum."""
    me, opp = side(s, p), side(s, 1 - p)
    mine = _terms(me, opp, s.tp == p, w)
    theirs = _terms(opp, me, s.tp != p, w)
    return [a - b for a, b in zip(mine, theirs, strict=True)] + [1.0 if s.tp == p else -1.0]


def evaluate(s: GameState, p: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """The position's value for player ``p`` in [0, 1]: 1 won, 0 lost, 0.5 drawn; otherwise
    the logistic of the weighted features (``features``, ``docs/agents.md``)."""
    if s.over:
        return 0.5 if s.winner is None else float(s.winner == p)
    # added left to right, one term at a time: Python 3.12's sum() of floats compensates for
    # rounding and 3.11's does not, so sum() here made a seed play a different game under 3.12
    # in about one game in 400; this loop rounds alike on every version
    u = 0.0
    for k, f in zip(LINEAR, features(s, p, w), strict=True):
        u += getattr(w, k) * f
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, u))))


class HeuristicGuidedAgent(EngineAgent):
    """What the lookahead and turnsearch share: a seeded heuristic that proposes an action, a
    forced or heuristic-only decision (first player, mulligan, trigger order) left to it, and
    a search (``pick``) among the sensible actions only when more than one is left."""

    seed: int | None
    rng: random.Random
    policy: HeuristicAgent
    opponent_decks: dict[str, list[str]]
    stall: int = 0  # from this turn on (0: never) the heuristic's attacks are kept (``choose``)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
        self.rng = random.Random(self.seed)
        self.policy = HeuristicAgent(self.rng.getrandbits(32))

    def choose(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        if len(actions) == 1:
            return actions[0]
        own = self.policy.choose(view, actions)
        d = view.decision()
        if d is None or d.kind in HEURISTIC_KINDS:
            return own
        if self.stall and view.turn >= self.stall and own.kind is Kind.ATTACK:
            return own
        options = self.sensible(view, actions)
        if len(options) == 1:
            return options[0]
        return self.pick(view, options, own)

    def sensible(self, view: PlayerView, actions: tuple[Action, ...]) -> tuple[Action, ...]:
        """The actions worth searching (``agents/sensible.py``): never a harmful effect on its
        own object while an opposing one is legal, nor a helpful one on an opposing object
        while one of its own is (the audit's R1, R2; a rescue allowed); never a card or ability
        whose target could only be the wrong side (R6); never 2 action points for a type no
        card in hand costs, or for its Host's type while 1 action point gives it."""
        return sensible(view, actions)

    def pick(self, view: PlayerView, options: tuple[Action, ...], own: Action) -> Action:
        """The search's choice among two or more sensible ``options``; ``own`` is the heuristic's."""
        raise NotImplementedError

    def opponent_cards(self, view: PlayerView) -> list[str] | None:
        """The decklist the opponent's hidden cards are drawn from: the shipped deck whose Host
        the opponent plays (public once the game has begun, 4.6.1), or None before that."""
        host = view.host(view.opponent)
        return None if host is None else self.opponent_decks.get(host.card.name)

    def world(self, view: PlayerView, opp_cards: list[str] | None) -> Game:
        """A whole game consistent with the agent's own view (``determinize``), auto-passing."""
        g = Game(determinize(view, self.rng, opponent_cards=opp_cards))
        g.auto_pass = True
        return g


class LookaheadAgent(HeuristicGuidedAgent):
    name = "lookahead"
    # its name's options, typed, with the evaluation weights: agents/registry.py

    def __init__(self, worlds: int = 1, seed: int | None = None, margin: float = 0.0, turns: int = 1,
                 stop: bool = False, max_rollout: int = 200, weights: Weights | None = None,
                 opponent_decks: dict[str, list[str]] | None = None, stall: int = 0) -> None:
        if worlds < 1:
            raise ValueError(f"lookahead: worlds must be at least 1, not {worlds}")
        if turns < 1:
            raise ValueError(f"lookahead: turns must be at least 1, not {turns}")
        self.worlds = worlds
        self.turns = turns
        self.stop = stop
        self.margin = margin
        self.max_rollout = max_rollout
        if stall < 0:
            raise ValueError(f"{self.name}: stall must be a turn number (0: never), not {stall}")
        self.stall = stall
        self.weights = weights or DEFAULT_WEIGHTS
        self.opponent_decks = opponent_decks if opponent_decks is not None else _shipped_lists()
        self.seed = seed
        self.reset()

    # ------------------------------------------------------------ choosing
    def pick(self, view: PlayerView, options: tuple[Action, ...], own: Action) -> Action:
        return self.prefer(options, self.scores(view, options), own, range(len(options)))

    def prefer(self, options: tuple[Action, ...], means: list[float], own: Action, among: Iterable[int]) -> Action:
        """The best of the options ``among`` by mean (the first on a tie), unless the heuristic's
        ``own`` is an option and the best does not beat its mean by more than ``margin``."""
        best = max(among, key=lambda i: (means[i], -i))
        if own not in options:
            return options[best]
        mine = options.index(own)
        return options[best] if means[best] > means[mine] + self.margin else own

    def scores(self, view: PlayerView, actions: tuple[Action, ...]) -> list[float]:
        """The mean evaluation, over the sampled worlds, of each action followed by the rollout
        policy to the end of the turn."""
        me = view.player
        opp_cards = self.opponent_cards(view)
        total = [0.0] * len(actions)
        for _ in range(self.worlds):
            world = self.world(view, opp_cards)
            last = len(actions) - 1
            until = view.turn + self.turns
            stop = self.stop and view.turn_player == me
            for i, a in enumerate(actions):
                g = world if i == last else world.clone()
                g.apply(a)
                h = g.clone() if stop else None
                self._rollout(g, until)
                value = evaluate(g.state, me, self.weights)
                if h is not None:
                    self._rollout(h, until, passer=me)
                    value = max(value, evaluate(h.state, me, self.weights))
                total[i] += value
        return [t / self.worlds for t in total]

    def _rollout(self, g: Game, until: int, passer: int = -1) -> None:
        """Play on with the rollout policy until turn ``until`` begins or the game ends; player
        ``passer`` passes whenever it has priority (stops playing) and otherwise follows the
        policy."""
        s = g.state
        policy = self.policy
        for _ in range(self.max_rollout):
            d = s.decision
            if s.over or d is None or s.turn >= until:
                return
            if len(d.actions) == 1:
                g.apply(d.actions[0])
            elif d.player == passer and d.kind is DecisionKind.PRIORITY and PASS in d.actions:
                g.apply(PASS)
            else:
                g.apply(policy.choose(g.view(d.player), d.actions))

