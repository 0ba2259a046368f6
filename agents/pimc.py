"""pimc: the lookahead's search with many sampled worlds, spent where the choice is close
(``docs/agents.md``, "The pimc agent").

Perfect-information Monte Carlo: at each choice (a decision with two or more sensible actions)
the agent samples worlds consistent with its own PlayerView (``determinize``, as the lookahead
does), plays each action in a world followed by the heuristic for both players to the end of
the next turn (``turns=2``, the default: a choice in its own turn sees the opponent's reply;
``turns=1`` stops at the end of the current turn, as the lookahead does) and scores the position
with the lookahead's evaluation (``agents.lookahead.evaluate``). Rather than every action in every
world, it races the actions by successive halving:

1. every sensible action is scored in the first ``first`` worlds (2);
2. the better half of the actions still in the race (by their mean over the same worlds;
   ``keep`` sets the share kept, 0.5) goes on, and the number of worlds doubles: the
   survivors are scored in the new worlds too, up to ``worlds`` (16) in all;
3. the heuristic's own choice always stays in the race, and the agent keeps it unless the best
   survivor's mean over the same worlds is higher (by more than ``margin``).

From turn ``stall`` on (``STALL_TURN``, 50, as the heuristic's; ``stall=0`` never) an attack the
heuristic proposes is made without a search: a game that long is a stalled board, and the
evaluation, which charges the damage that stays on an attacker and sees only to the end of
the next turn, would decline to clear blockers that are remade every turn (Soldier tokens,
Saplings) although clearing them opens the Host the turn after (``docs/agents.md``, "Stalls").

So a clear choice costs about ``first`` rollouts an action, and a close one is settled by up to
``worlds`` worlds. Every action still racing is scored in the same worlds, so actions are
compared on the same hidden cards. The budget is counted in worlds, not time: the agent is
deterministic for its seed and plays the same on a busy machine as on a quiet one.
"""

from __future__ import annotations

import math
from typing import Any

from hostwcg_env.engine import Action, Game
from hostwcg_env.engine.view import PlayerView

from .heuristic import STALL_TURN
from .lookahead import LookaheadAgent, evaluate


class PIMCAgent(LookaheadAgent):
    name = "pimc"
    # its name's options (no "stop": the race scores each action by its own continuation only):
    # agents/registry.py

    def __init__(self, worlds: int = 16, seed: int | None = None, first: int = 2, keep: float = 0.5,
                 turns: int = 2, stall: int = STALL_TURN, **kw: Any) -> None:
        if not 1 <= first <= worlds:
            raise ValueError(f"pimc: first must be from 1 to worlds ({worlds}), not {first}")
        if not 0.0 < keep <= 1.0:
            raise ValueError(f"pimc: keep must be a share in (0, 1], not {keep}")
        self.first = first
        self.keep = keep
        super().__init__(worlds=worlds, seed=seed, turns=turns, stall=stall, **kw)

    def pick(self, view: PlayerView, options: tuple[Action, ...], own: Action) -> Action:
        means, alive = self.race(view, options, own)
        return self.prefer(options, means, own, alive)

    def race(self, view: PlayerView, options: tuple[Action, ...], own: Action) -> tuple[list[float], list[int]]:
        """Successive halving: each action's mean evaluation over the worlds it was scored in,
        and the indices of the actions left in the race (all scored in the same worlds)."""
        me = view.player
        until = view.turn + self.turns
        opp_cards = self.opponent_cards(view)
        worlds: list[Game] = []
        sums = [0.0] * len(options)
        done = [0] * len(options)
        mine = options.index(own) if own in options else None
        alive = list(range(len(options)))
        n = self.first
        while True:
            while len(worlds) < n:
                worlds.append(self.world(view, opp_cards))
            for i in alive:
                for w in range(done[i], n):
                    sums[i] += self.score(worlds[w], w, options[i], me, until)
                done[i] = n
            if len(alive) == 1 or n >= self.worlds:
                break
            ranked = sorted(alive, key=lambda i: (-sums[i], i))
            kept = ranked[: max(1, math.ceil(len(alive) * self.keep))]
            if mine is not None and mine not in kept:
                kept.append(mine)
            alive = sorted(kept)
            n = min(self.worlds, 2 * n)
        return [sums[i] / done[i] if done[i] else -math.inf for i in range(len(options))], alive

    def score(self, world: Game, _index: int, action: Action, me: int, until: int) -> float:
        """The evaluation for ``me`` of ``action`` in a clone of sampled world number
        ``_index``, followed by the rollout policy until turn ``until`` begins."""
        g = world.clone()
        g.apply(action)
        self._rollout(g, until)
        return evaluate(g.state, me, self.weights)
