"""``ppo_v1:look``: the hostwcg_v1 network's choice, checked by the lookahead's search.

At each choice ``SearchedSetAgent`` asks the set policy (``agents/set_agent.py``, its guard
included) for its action, then races the network's ``top`` most probable actions (4; 0: every
action it chose among) as the lookahead does (``agents/lookahead.py``): in ``worlds`` sampled
worlds (1) consistent with its own PlayerView (``determinize``), each action followed by the
heuristic for both players to the end of the next turn (``turns=2``; 1: of this one), the
position scored by ``agents.lookahead.evaluate``. It keeps the network's action unless another
scored better by more than ``margin`` (0.05; ``LookaheadAgent.prefer``): the lookahead refines
the heuristic's choice the same way, with the network in the heuristic's place. Setup choices
(first player, mulligans, trigger order) and a stalled board's attacks are the network's (or
the guard's) without a search, as they are the heuristic's in the lookahead. The network's
memory records the action played, not the one it proposed.

Cost: the network's choice (about 0.6 ms) and up to ``top`` rollouts through the next turn;
about 2.5 ms a choice in all on the 2-core machine. The agent is deterministic for its seed.
``docs/agents.md`` ("The network with a search's check") says how the defaults were chosen and
what they measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from hostwcg_env.engine import Action
from hostwcg_env.engine.view import PlayerView

from .lookahead import LookaheadAgent, searched
from .set_agent import SetPolicyAgent


class SearchedSetAgent(LookaheadAgent):
    name = "ppo_v1:look"

    def __init__(self, weights: str | Path | dict[str, np.ndarray], seed: int | None = None,
                 margin: float = 0.05, worlds: int = 1, turns: int = 2, top: int = 4, attacks: bool = False,
                 check: bool = True, **kw: Any) -> None:
        if top < 0:
            raise ValueError(f"ppo_v1:look: top must be a number of actions (0: all), not {top}")
        self.top = top
        self.net = SetPolicyAgent(weights, seed=seed, attacks=attacks, check=check)
        super().__init__(worlds=worlds, seed=seed, margin=margin, turns=turns, **kw)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.net.reset(seed)

    def choose(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        chosen = self.label(view, actions)
        self.record(chosen)
        return chosen

    def record(self, action: Action) -> None:
        """The action played at the choice ``label`` last read (the network's memory,
        ``SetPolicyAgent.record``)."""
        self.net.record(action)

    def label(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        """The checked choice, not recorded as played (``SetPolicyAgent.label``)."""
        own, options = self.net.propose(view, actions)
        chosen = own
        d = view.decision()
        if searched(d, len(options)):
            if self.top:  # only the network's most probable actions race (its own is the first)
                options = self.net.ranked[: self.top]
            chosen = self.pick(view, options, own)
        return chosen


__all__ = ["SearchedSetAgent"]
