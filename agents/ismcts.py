"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration samples a full game consistent with the agent's own PlayerView
(``determinize``: hidden cards drawn from what the agent cannot see), walks a tree whose
edges are actions in text notation, choosing among the actions legal in that sample by UCB
with availability counts, expands one node, plays a rollout (cut at a depth, then scored by a
material estimate) and backs the result up. It reads nothing but the view: the same view and
seed give the same choice whatever the hidden cards really are (tested).

Rollouts are played by the heuristic agent (``rollout="heuristic"``, the default: search then
improves on the heuristic's own play, as in Tesauro and Galperin's rollout algorithm) or
uniformly at random (``rollout="random"``: cheaper, weaker). With a time limit the search
stops when it runs out; ``iterations`` caps it.

Two pieces of public knowledge sharpen it. The opponent's Host is public once the game has
begun (4.6.1), and each preconstructed deck has its own Host: the opponent's hidden cards are
sampled from the decklist of the shipped deck with that Host (``opponent_decks``), not from the
whole card pool. And with ``anchor`` (a margin, default 0.03) the search keeps the heuristic's
own choice unless another action scored better by more than the margin, each with at least
``min_visits`` visits: a short search then refines the heuristic instead of replacing it with
noise.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from hostwcg_env.engine import Action, Game
from hostwcg_env.engine.stats import host_health
from hostwcg_env.engine.view import PlayerView, determinize

from .base import EngineAgent
from .sensible import sensible


@dataclass
class Node:
    player: int = -1  # who chose the action leading here
    n: int = 0
    w: float = 0.0
    avail: int = 0
    children: dict[str, Node] = field(default_factory=dict)


_LISTS: dict[str, list[str]] = {}


def _shipped_lists() -> dict[str, list[str]]:
    """Host name -> main-deck list of each shipped preconstructed deck with a Host of its own."""
    if not _LISTS:
        from hostwcg_env.env import shipped_decks

        by_host: dict[str, list[list[str]]] = {}
        for d in shipped_decks(include_test=True):
            by_host.setdefault(d.host, []).append(list(d.main))
        _LISTS.update({h: lists[0] for h, lists in by_host.items() if len(lists) == 1})
    return _LISTS


def evaluate(game: Game, p: int) -> float:
    """Score in [0, 1] for player p: the result, or a material estimate for an unfinished game."""
    s = game.state
    if s.over:
        return 0.5 if s.winner is None else float(s.winner == p)
    q = 1 - p
    me, opp = s.players[p], s.players[q]
    margin = (len(opp.damage) / max(1, host_health(s, q))) - (len(me.damage) / max(1, host_health(s, p)))
    board = sum(1 for x in me.front if x is not None) - sum(1 for x in opp.front if x is not None)
    cards = len(me.hand) - len(opp.hand)
    return max(0.0, min(1.0, 0.5 + 0.6 * margin + 0.04 * board + 0.02 * cards))


class ISMCTSAgent(EngineAgent):
    name = "ismcts"

    def __init__(self, iterations: int = 200, time_limit: float | None = None, rollout_depth: int = 60,
                 exploration: float = 0.7, seed: int | None = None, rollout: str = "heuristic",
                 anchor: float | None = 0.03, min_visits: int = 6,
                 opponent_decks: dict[str, list[str]] | None = None, sensible: bool = True) -> None:
        if rollout not in ("heuristic", "random"):
            raise ValueError(f"rollout must be 'heuristic' or 'random', not {rollout!r}")
        self.iterations = iterations
        self.time_limit = time_limit
        self.rollout_depth = rollout_depth
        self.c = exploration
        self.seed = seed
        self.rollout = rollout
        self.anchor = anchor
        self.min_visits = min_visits
        self.sensible = sensible
        self.opponent_decks = opponent_decks if opponent_decks is not None else _shipped_lists()
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        from .heuristic import HeuristicAgent

        if seed is not None:
            self.seed = seed
        self.rng = random.Random(self.seed)
        self.policy = HeuristicAgent(self.rng.getrandbits(32)) if self.rollout == "heuristic" else None

    def choose(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        if len(actions) == 1:
            return actions[0]
        root = Node()
        start = time.perf_counter()
        opp_cards = self._opponent_cards(view)
        for i in range(self.iterations):
            if self.time_limit is not None and i > 0 and time.perf_counter() - start > self.time_limit:
                break
            game = Game(determinize(view, self.rng, opponent_cards=opp_cards))
            self._iterate(game, root)
        # the choice is made among the sensible actions (agents/sensible.py: no clear blunder);
        # the tree below the root searches every legal action
        legal = {str(a): a for a in (sensible(view, actions) if self.sensible else actions)}
        best = max((k for k in root.children if k in legal), key=lambda k: (root.children[k].n, k), default=None)
        if self.anchor is not None and self.policy is not None:
            return self._anchored(view, actions, root, legal, best)
        return legal[best] if best is not None else next(iter(legal.values()))

    def _anchored(self, view: PlayerView, actions: tuple[Action, ...], root: Node,
                  legal: dict[str, Action], best: str | None) -> Action:
        """The heuristic's choice, unless a well-visited action beat it by the margin."""
        assert self.policy is not None and self.anchor is not None
        own = self.policy.choose(view, actions)
        mine = root.children.get(str(own))
        scored = [(c.w / c.n, k) for k, c in root.children.items() if k in legal and c.n >= self.min_visits]
        if mine is None or mine.n < self.min_visits or not scored:
            return own
        top, k = max(scored)
        return legal[k] if top > mine.w / mine.n + self.anchor else own

    def _opponent_cards(self, view: PlayerView) -> list[str] | None:
        """The decklist of the shipped deck whose Host the opponent plays, if the Host is
        public yet (4.6.1) and one deck has it; else None (a uniform draw)."""
        host = view.host(view.opponent)
        if host is None:
            return None
        return self.opponent_decks.get(host.card.name)

    def _iterate(self, game: Game, root: Node) -> None:
        node = root
        path: list[Node] = []
        while not game.is_over and game.decision is not None and game.decision.actions:
            d = game.decision
            keys = {str(a): a for a in d.actions}
            for k in keys:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            untried = [k for k in keys if k not in node.children]
            if untried:
                k = self.rng.choice(sorted(untried))
                child = node.children[k] = Node(player=d.player, avail=1)
                game.apply(keys[k])
                path.append(child)
                break
            parent_n = node
            k = max(sorted(keys), key=lambda k: self._ucb(parent_n.children[k]))
            child = node.children[k]
            game.apply(keys[k])
            path.append(child)
            node = child
        policy = self.policy
        for _ in range(self.rollout_depth):
            dd = game.decision
            if game.is_over or dd is None or not dd.actions:
                break
            if len(dd.actions) == 1:
                game.apply(dd.actions[0])
            elif policy is not None:
                game.apply(policy.choose(game.view(dd.player), dd.actions))
            else:
                game.apply(self.rng.choice(dd.actions))
        scores = (evaluate(game, 0), evaluate(game, 1))
        for nd in path:
            nd.n += 1
            nd.w += scores[nd.player]

    def _ucb(self, child: Node) -> float:
        if child.n == 0:
            return math.inf
        return child.w / child.n + self.c * math.sqrt(math.log(max(1, child.avail)) / child.n)
