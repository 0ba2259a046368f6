"""turnsearch: a Monte Carlo tree search over the rest of the turn, in sampled worlds, with the
lookahead's evaluation at the leaves (``docs/agents.md``, "The turnsearch agent").

At each choice (a decision with two or more legal actions) the agent

1. keeps the sensible actions (``agents/sensible.py``): no clear blunder is ever searched;
2. samples ``worlds`` full games consistent with its own PlayerView (``determinize``; the
   opponent's hidden cards drawn from the decklist of the shipped deck whose Host it plays);
3. tries every sensible action in every world (as the lookahead does, with one world): the
   action, then the heuristic for both players to the end of the turn, scored by the lookahead's
   evaluation (``agents.lookahead.evaluate``); the same worlds for every action, so actions are
   compared on the same hidden cards;
4. spends the rest of its ``iterations`` on a tree of its own later choices in this turn: at
   the root by UCB on the mean evaluation, and at each later choice of its own by UCB with
   progressive widening (a choice visited n times considers its first ceil(widen * n^alpha)
   sensible actions, the heuristic's own choice first, so the tree grows along the heuristic's
   plan and branches where visits accumulate); the opponent's choices within the turn are the
   heuristic's; each iteration reuses the sampled worlds in turn;
5. plays the most visited root action (its mean breaking ties, then the heuristic's choice).

Setup choices (going first, mulligans) and the order of simultaneous triggers are the
heuristic's, as for the lookahead. The budget is a number of iterations, not a time: the agent
is deterministic for its seed and plays the same on a busy machine as on a quiet one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from hostwcg_env.engine import Action, Game
from hostwcg_env.engine.view import PlayerView

from .ismcts import _shipped_lists
from .lookahead import DEFAULT_WEIGHTS, HEURISTIC_KINDS, HeuristicGuidedAgent, Weights, evaluate
from .sensible import sensible


@dataclass
class Node:
    """One choice of the searching player: visits, summed value, and the children tried."""

    n: int = 0
    w: float = 0.0
    options: tuple[str, ...] = ()  # the sensible actions in widening order (the heuristic's first)
    children: dict[str, Node] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return self.w / self.n if self.n else 0.0


class TurnSearchAgent(HeuristicGuidedAgent):
    name = "turnsearch"

    def __init__(self, iterations: int = 64, worlds: int = 4, seed: int | None = None, c: float = 0.1,
                 widen: float = 1.0, alpha: float = 0.5, turns: int = 1, max_rollout: int = 200,
                 weights: Weights | None = None, opponent_decks: dict[str, list[str]] | None = None) -> None:
        if iterations < 1 or worlds < 1 or turns < 1:
            raise ValueError(f"turnsearch: iterations, worlds and turns must be at least 1 "
                             f"(got {iterations}, {worlds}, {turns})")
        self.iterations = iterations
        self.worlds = worlds
        self.c = c
        self.widen = widen
        self.alpha = alpha
        self.turns = turns
        self.max_rollout = max_rollout
        self.weights = weights or DEFAULT_WEIGHTS
        self.opponent_decks = opponent_decks if opponent_decks is not None else _shipped_lists()
        self.seed = seed
        self.reset()

    # ------------------------------------------------------------ choosing
    def pick(self, view: PlayerView, options: tuple[Action, ...], own: Action) -> Action:
        root = self.search(view, options, own)
        by_key = {str(a): a for a in options}
        best = max(root.children.items(), key=lambda kv: (kv[1].n, kv[1].mean, kv[0] == str(own)))
        return by_key[best[0]]

    def search(self, view: PlayerView, options: tuple[Action, ...], own: Action) -> Node:
        """The root of the search tree after every iteration (its children: ``options``)."""
        me = view.player
        until = view.turn + self.turns
        opp_cards = self.opponent_cards(view)
        worlds = [self.world(view, opp_cards) for _ in range(self.worlds)]
        ordered = ([own] if own in options else []) + [a for a in options if a != own]
        root = Node(options=tuple(str(a) for a in ordered))
        by_key = {str(a): a for a in options}
        for k in root.options:
            root.children[k] = Node()
        # every action in every world first (common worlds: actions compared on the same cards)
        first = min(self.worlds, max(1, self.iterations // len(ordered)))
        done = 0
        for w in range(first):
            for k in root.options:
                self._simulate(worlds[w].clone(), root, by_key[k], me, until)
                done += 1
        w = first
        while done < self.iterations:
            total = root.n
            k = max(root.options, key=lambda k: self._ucb(root.children[k], total))
            self._simulate(worlds[w % self.worlds].clone(), root, by_key[k], me, until)
            w += 1
            done += 1
        return root

    def _ucb(self, child: Node, parent_n: int) -> float:
        if child.n == 0:
            return math.inf
        return child.mean + self.c * math.sqrt(math.log(max(1, parent_n)) / child.n)

    def _simulate(self, g: Game, root: Node, first: Action, me: int, until: int) -> None:
        """One iteration: ``first`` in world ``g``, then down the tree of its own later
        choices, then the heuristic to the end; the value backed up along the path."""
        g.apply(first)
        node = root.children[str(first)]
        path = [root, node]
        s = g.state
        policy = self.policy
        in_tree = True
        for _ in range(self.max_rollout):
            d = s.decision
            if s.over or d is None or s.turn >= until:
                break
            if len(d.actions) == 1:
                g.apply(d.actions[0])
                continue
            if in_tree and d.player == me and d.kind not in HEURISTIC_KINDS:
                a = self._tree_step(g, node, d.actions)
                if a is not None:
                    key = str(a)
                    child = node.children.get(key)
                    if child is None:
                        child = node.children[key] = Node()
                        in_tree = False  # expanded one node: the rest is the rollout
                    node = child
                    path.append(node)
                    g.apply(a)
                    continue
                in_tree = False
            g.apply(policy.choose(g.view(d.player), d.actions))
        value = evaluate(s, me, self.weights)
        for nd in path:
            nd.n += 1
            nd.w += value

    def _tree_step(self, g: Game, node: Node, actions: tuple[Action, ...]) -> Action | None:
        """The action the tree takes at one of its own later choices: progressive widening
        over the node's sensible actions (the heuristic's first); None when none is legal in
        this world."""
        if not node.options:
            d = g.state.decision
            assert d is not None  # the tree steps at a choice of the game
            view = g.view(d.player)
            own = self.policy.choose(view, actions)
            opts = sensible(view, actions)
            node.options = tuple(str(a) for a in ([own] if own in opts else []) + [a for a in opts if a != own])
        legal = {str(a): a for a in actions}
        allowed = max(1, math.ceil(self.widen * node.n ** self.alpha)) if node.n else 1
        keys = [k for k in node.options[:allowed] if k in legal]
        if not keys:
            return None
        untried = [k for k in keys if k not in node.children]
        if untried:
            return legal[untried[0]]
        return legal[max(keys, key=lambda k: self._ucb(node.children[k], node.n))]
