"""The agent interface (DESIGN.md "Agents").

Every agent answers ``act(observation, action_mask) -> int`` over the flat action space of
hostwcg_v0. Search and rule-based agents also implement the engine-level
``choose(view, actions) -> Action``, which receives only the deciding player's PlayerView and
the legal engine actions; ``act`` is then available when the agent is bound to a game
(``bind``), as the ladder and the env's in-process opponents do.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from hostwcg_env.engine import Action, Game
from hostwcg_env.engine.view import PlayerView


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


class EngineAgent:
    """Base for agents that decide from a PlayerView and the legal engine actions."""

    name = "engine"
    game: Game | None = None

    def choose(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        raise NotImplementedError

    def bind(self, game: Game) -> None:
        """Attach to a game so the flat ``act`` interface can read this player's view."""
        self.game = game

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        from hostwcg_env.env.codec import encode
        from hostwcg_env.env.layout import action_layout

        g = self.game
        if g is None or g.decision is None:
            raise RuntimeError(f"{self.name}: act() needs bind(game) first (an engine-level agent)")
        d = g.decision
        a = self.choose(g.view(d.player), d.actions)
        return encode(action_layout(g.state.config), g.state, d.player, a)

    def reset(self, seed: int | None = None) -> None:
        """Called at the start of each game."""


def decide(agent: Any, game: Game, encoder: Any = None, codec: Any = None) -> Action:
    """One decision of ``agent`` for the deciding player of ``game`` (engine or flat agents)."""
    d = game.decision
    assert d is not None
    if hasattr(agent, "choose"):
        return agent.choose(game.view(d.player), d.actions)  # type: ignore[no-any-return]
    from hostwcg_env.env.codec import Codec
    from hostwcg_env.env.layout import action_layout
    from hostwcg_env.env.observation import ObservationEncoder

    cfg = game.state.config
    encoder = encoder or ObservationEncoder(cfg)
    codec = codec or Codec(action_layout(cfg))
    obs = encoder.encode(game.view(d.player))
    mask = codec.mask(game)
    a = codec.decode(game, agent.act(obs, mask))
    if a is None:
        raise ValueError(f"{getattr(agent, 'name', agent)} chose an illegal action")
    return a
