"""The hostwcg_v1 set policy as an engine-level agent: ``make_agent("ppo_v1")`` (the shipped
weights, ``agents/checkpoints/ppo_hostwcg_v1.npz``) or ``make_agent("ppo_v1:PATH.npz")``.

``SetPolicyAgent`` keeps, per game, what the hostwcg_v1 env keeps for its seat: a ``Memory``
that reads the events its ``PlayerView`` shows (``hostwcg_env/env/v1/memory.py``) and the
observation arrays (``Encoder.encode``), so at each choice the policy
(``agents.set_policy.NumpySetPolicy``, numpy alone) reads exactly the observation the env
would give that player (``tests/test_set_agent.py`` checks it against the env step by step).
It can then play wherever an agent plays: the ladder, balance studies, the audit,
``hostwcg play --vs``. Greedy (the most probable legal action) unless ``sample=True``. Its
guard (``guard=False``, ``ppo_v1:PATH:raw``, for the network alone) lets it choose only among
the sensible actions, as the search agents do (``agents/sensible.py``: a harmful effect on an
opposing object and a helpful one on its own whenever legal, no card or ability whose harmful
target could only be its own, no 2 action points for a type no card in hand costs, 11.3.1,
11.3.3). The guard also never spends an action point to draw the last card of its deck (an
empty deck loses at once, 1.1.2: ``agents.sensible.keeps_deck``), and from turn ``stall``
(``STALL_TURN``, 50) on its own turn an attack the heuristic proposes is made (a stalled board,
``docs/agents.md``, "Stalls"). Its other choices are the network's, and inside the env the
network plays alone. ``attacks=True`` (``ppo_v1:attacks``) also keeps it from an attack that
loses the attacker for nothing by the numbers on the board (``agents.sensible.no_losing_attacks``,
the audit's R3).

Weights that carry a learned check (``check.*``, ``scripts/learned_check.py``) add one step:
among the network's ``check.top`` most probable (guarded) actions (not at a setup choice,
``agents.lookahead.HEURISTIC_KINDS``), a second set network with its own head picks the one the
lookahead's rollouts would score best, and the agent plays it
when it scores more than ``check.margin`` over the network's own (``NumpySetPolicy.check_choice``;
numpy alone, no engine). ``check=False`` (``ppo_v1:PATH:plain``) plays the network's own
choice. Inside the env (``predict``, the vector env's batched opponent) the network plays
without its check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from hostwcg_env.engine import Action, Kind
from hostwcg_env.engine.view import PlayerView

from .base import EngineAgent
from .heuristic import STALL_TURN, HeuristicAgent
from .lookahead import searched

DEFAULT_V1 = Path(__file__).resolve().parent / "checkpoints" / "ppo_hostwcg_v1.npz"


class SetPolicyAgent(EngineAgent):
    name = "ppo_v1"

    def __init__(self, weights: str | Path | dict[str, np.ndarray], seed: int | None = None,
                 sample: bool = False, guard: bool = True, stall: int | None = None,
                 attacks: bool = False, check: bool = True) -> None:
        from .set_policy import NumpySetPolicy, load_weights

        if isinstance(weights, (str, Path)):
            path = Path(weights)
            if not path.exists():
                raise ValueError(f"ppo_v1: no weights file {path} (a .npz of scripts/distill_v1.py "
                                 f"train --export or scripts/train_v1.py --export)")
            weights = load_weights(path)
        self.policy = NumpySetPolicy(weights, deterministic=not sample, seed=seed)
        self.sample = sample
        self.check = check  # the weights' learned check, where they carry one (NumpySetPolicy.check_choice)
        self.guard = guard
        self.attacks = attacks  # also no attack that loses the attacker for nothing (sensible.no_losing_attacks)
        self.stall = (STALL_TURN if guard else 0) if stall is None else stall
        self.heuristic = HeuristicAgent(seed)
        self._parts: dict[Any, Any] = {}  # RuleConfig -> (encoder, its arrays, legal actions)
        self.memory: Any = None
        self.slate: Any = None
        self.ranked: tuple[Action, ...] = ()  # the last choice's actions, the network's most probable first
        self.logits: np.ndarray | None = None  # the last choice's logits (the greedy path's; None: one action)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.policy.rng = np.random.default_rng(seed)
        self.heuristic.reset(seed)
        self.memory = None
        self.slate = None

    def choose(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        chosen = self.label(view, actions)
        self.record(chosen)
        return chosen

    def label(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        """The agent's choice, not recorded as played: a labeller (``scripts/distill_v1.py
        dagger``) then ``record``s the action another player made in its place."""
        return self.propose(view, actions)[0]

    def propose(self, view: PlayerView, actions: tuple[Action, ...]) -> tuple[Action, tuple[Action, ...]]:
        """The agent's choice and the actions it chose among (the guarded ones; only the choice
        itself when it was made without the network: a stalled board's attack). It reads the
        view into the memory but does not record the choice: ``record`` the action played
        (``choose`` does both; ``agents/set_search.py`` may play another)."""
        from hostwcg_env.env.v1.encoder import Encoder
        from hostwcg_env.env.v1.layout import obs_layout
        from hostwcg_env.env.v1.memory import Memory
        from hostwcg_env.env.v1.spaces import Legal

        cfg = view.config
        parts = self._parts.get(cfg)
        if parts is None:
            lay = obs_layout(cfg)
            enc = Encoder(layout=lay)
            parts = self._parts[cfg] = (enc, enc.slate(), Legal(lay))
        enc, self.slate, legal = parts
        if self.memory is None or self.memory.viewer != view.player:
            self.memory = Memory(view.player)
        self.memory.sync(view)
        if self.stall and view.turn >= self.stall and view.turn_player == view.player:
            own = self.heuristic.choose(view, actions)
            if own.kind is Kind.ATTACK:  # a stalled board: the heuristic's attack (agents/heuristic.py)
                self.ranked = (own,)
                return own, (own,)
        if self.guard:  # the sensible actions only (agents/sensible.py), as the search agents choose
            from .sensible import keeps_deck, no_losing_attacks, sensible

            actions = keeps_deck(view, sensible(view, actions))
            if self.attacks:
                actions = no_losing_attacks(view, actions)
        legal.set(view.player, actions, object())  # the env's own index of each action (v1/spaces.py)
        enc.encode(view, self.memory, self.slate, legal.pairs, legal.token)
        if len(actions) == 1:  # nothing to choose (a forced decision, or one sensible action): no forward pass
            if self.sample:
                self.policy.rng.random((1, 1))  # the draw ``predict`` makes, so later samples stay the same
            self.logits = None
            self.ranked = (actions[0],)
            return actions[0], actions
        if self.sample:
            index, _ = self.policy.predict(self.slate.arrays)
            chosen = legal.decode(int(index[0]))
            if chosen is None:  # cannot happen: only legal indices are scored
                raise ValueError(f"ppo_v1 chose index {int(index[0])}, not one of the legal actions")
            self.ranked = (chosen,)
            return chosen, actions
        logits = self.logits = self.policy.forward(self.slate.arrays)[0].reshape(-1)
        # the legal actions, most probable first (ties: the lower index, as ``predict``'s argmax)
        order = sorted(legal.pairs, key=lambda p: (-logits[p[0]], p[0]))
        ranked = [a for _, a in order]
        d = view.decision()
        if self.check and self.policy.has_check and searched(d, len(order)):
            k = self.policy.check_choice(self.slate.arrays, logits, np.array([i for i, _ in order]))
            if k:  # the learned check's pick goes first
                ranked.insert(0, ranked.pop(k))
        self.ranked = tuple(ranked)
        return self.ranked[0], actions

    def record(self, action: Action) -> None:
        """The action this agent played at the choice ``propose`` last read (its memory keeps
        what its own choices show it, ``Memory.own_action``)."""
        self.memory.own_action(action)


__all__ = ["DEFAULT_V1", "SetPolicyAgent"]
