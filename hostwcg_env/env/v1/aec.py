"""hostwcg_v1: the PettingZoo AEC and parallel environments with v1 observations.

The game, its agents, decks, rewards, truncation, rendering and action space are those of
hostwcg_v0 (docs/env.md); the observation is v1's Dict of fixed-shape arrays
(docs/observation_v1.md): cards as rows with card ids, the viewer's memory of what the rules
made known, a short public history, globals, and the legal actions described by content.
Each agent's observation is written only from its PlayerView, the events that view showed it
and its own choices.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import hostwcg_env  # noqa: F401  (registers the card pool)
from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import Game, IllegalActionError, RuleConfig

from ..aec import (
    AGENTS,
    RENDER_FPS,
    RENDER_MODES,
    StandardWrappers,
    action_index,
    board_seat,
    check_render,
    config_for,
    deck_pools_for,
    finish_episode,
)
from ..inputs import SELECTED, Selected, check_seed, seat_of, step_after_end
from ..parallel import HostParallelEnv
from .encoder import Encoder, Slate
from .layout import obs_layout
from .memory import Memory
from .spaces import Legal, observation_space

NAME = "hostwcg_v1"


class raw_env(AECEnv):  # noqa: N801  (PettingZoo naming)
    """The v1 AEC env without wrappers; an illegal action raises IllegalActionError. Arguments
    as ``hostwcg_v0.raw_env`` (docs/env.md)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": NAME, "is_parallelizable": True,
                "render_fps": RENDER_FPS}

    def __init__(
        self,
        decks: Sequence[Any] | str | None = None,
        deck_pools: Sequence[Sequence[Any]] | None = None,
        config: RuleConfig | None = None,
        turn_limit: int | None = None,
        auto_single: bool = True,
        render_mode: str | None = None,
        render_view: int | str = 0,
    ) -> None:
        super().__init__()
        cfg = config_for(config, turn_limit)
        self.config = cfg
        self.rules = default_ruleset(cfg)
        self.deck_pools = deck_pools_for(decks, deck_pools)
        check_render(render_mode, render_view)
        self.render_mode = render_mode
        self.render_view = render_view
        self.auto_single = auto_single
        self.obs_layout = obs_layout(cfg)
        self.layout = self.obs_layout.actions
        self.encoder = Encoder(layout=self.obs_layout)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._obs_space = observation_space(self.obs_layout)
        self._act_space: spaces.Discrete = spaces.Discrete(self.layout.n)
        self.legal = Legal(self.obs_layout)
        self._slates: dict[str, Slate] = {a: self.encoder.slate() for a in AGENTS}
        self.memories: dict[str, Memory] = {a: Memory(i) for i, a in enumerate(AGENTS)}
        self._rng = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    # ------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if check_seed(seed) is not None:
            self._rng.seed(seed)
        game_seed = self._rng.getrandbits(63)
        decks = [self._rng.choice(pool) for pool in self.deck_pools]
        self.start_from(self.rules.new_game(decks[0], decks[1], seed=game_seed))

    def start_from(self, game: Game) -> None:
        """Start an episode from an engine ``Game`` before its first action (a recorded game's
        replay, ``hostwcg_env.analysis.distill.v1_from_records``); ``reset`` does this with a game of its own dealing."""
        self.game = game
        self.game.auto_pass = self.auto_single
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        for m in self.memories.values():
            m.reset(None)
        self._settle()

    def _apply(self, player: int, action: Any) -> None:
        """Apply a player's action; its memory hears of its own choice first (41.2)."""
        g = self.game
        assert g is not None
        mem = self.memories[AGENTS[player]]
        mem.sync(g.view(player))
        mem.own_action(action)
        g.apply(action)

    def _settle(self) -> None:
        """Take the decisions whose being forced is public (``Game.forced_action``), as v0."""
        g = self.game
        assert g is not None
        if self.auto_single:
            while not g.is_over:
                a = g.forced_action()
                if a is None:
                    break
                d = g.decision
                assert d is not None
                self._apply(d.player, a)
        if g.is_over:
            self._finish()
            return
        d = g.decision
        assert d is not None
        self.legal.refresh(g)
        self.agent_selection = AGENTS[d.player]

    def _finish(self) -> None:
        finish_episode(self)

    def step(self, action: Any) -> None:
        g = self.game
        if g is None:
            raise RuntimeError("step() before reset(): call env.reset() first")
        if not self.agents:
            raise step_after_end()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.legal.refresh(g)
        a = self.legal.decode(action_index(action, self.layout.n))
        if a is None:
            raise IllegalActionError("31.1", f"action index {action} is not legal for {agent} now "
                                     f"(legal: {np.flatnonzero(self.legal.mask).tolist()})")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._apply(AGENTS.index(agent), a)
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------ observing
    def observe_into(self, agent: str) -> Slate:
        """Bring ``agent``'s arrays up to date (no copy): its slate."""
        g = self.game
        if g is None:
            raise RuntimeError("observe() before reset(): call env.reset() first")
        p = _seat(agent)
        view = g.view(p)
        mem = self.memories[agent]
        mem.sync(view)
        sl = self._slates[agent]
        deciding = not g.is_over and g.decision is not None and g.decision.player == p
        if deciding:
            self.legal.refresh(g)
        self.encoder.encode(view, mem, sl, self.legal.pairs if deciding else None,
                            self.legal.token if deciding else None)
        return sl

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        sl = self.observe_into(agent)
        return {k: a.copy() for k, a in sl.arrays.items()}

    def action_mask(self, agent: str | Selected = SELECTED) -> np.ndarray:
        """As hostwcg_v0's: the agent to act by default, any other agent checked as ``observe``."""
        g = self.game
        if g is None:
            raise RuntimeError("action_mask() before reset(): call env.reset() first")
        p = AGENTS.index(self.agent_selection) if isinstance(agent, Selected) else seat_of(agent)
        if g.is_over or g.decision is None or g.decision.player != p:
            return np.zeros(self.layout.n, dtype=np.int8)
        self.legal.refresh(g)
        return self.legal.mask.copy()

    def render(self) -> str | np.ndarray | None:
        """The board from ``render_view``'s seat, as hostwcg_v0 draws it."""
        if self.render_mode is None:
            return None
        g = self.game
        if g is None:
            raise RuntimeError("render() before reset(): call env.reset() first")
        if self.render_mode == "rgb_array":
            from hostwcg_env.board.image import render_rgb

            return render_rgb(g, board_seat(self.render_view))
        from hostwcg_env.render import render_text

        text = render_text(g, board_seat(self.render_view))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _repr_html_(self) -> str:
        from hostwcg_env.env.html import render_html

        if self.game is None:
            return f"<pre>{NAME}: call reset() to start a game</pre>"
        return render_html(self.game, board_seat(self.render_view))

    def close(self) -> None:
        pass


def _seat(agent: str) -> int:
    return seat_of(agent)


def env(**kwargs: Any) -> AECEnv:
    """The v1 AEC env with PettingZoo's standard wrappers (illegal action -> -1 and game over,
    action bounds, call order), fused into one layer as v0's ``env()``."""
    return StandardWrappers(raw_env(**kwargs), illegal_reward=-1)


class ParallelEnv(HostParallelEnv):
    """The parallel view of hostwcg_v1 (as v0's: only the deciding agent's action counts)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": NAME, "render_fps": RENDER_FPS}

    def __init__(self, **kwargs: Any) -> None:
        self.aec = raw_env(**kwargs)  # type: ignore[assignment]
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.render_mode = self.aec.render_mode


def parallel_env(**kwargs: Any) -> ParallelEnv:
    return ParallelEnv(**kwargs)


__all__ = ["AGENTS", "NAME", "ParallelEnv", "env", "parallel_env", "raw_env"]
