"""The agent interface (docs/agents.md, docs/write-an-agent.md).

An agent is a ``ViewAgent`` or a ``PolicyAgent`` (``Agent``, the union, is what
``agents.make_agent`` returns). A ``ViewAgent`` implements the engine-level
``choose(view, actions) -> Action``, which receives only the deciding player's PlayerView and
the legal engine actions; a ``PolicyAgent`` answers ``act(observation, action_mask) -> int``
over the flat action space of hostwcg_v0. Search and rule-based agents derive from
``EngineAgent``, whose ``act`` is available when the agent is bound to a game (``bind``), as the
env's in-process opponents do.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeAlias, runtime_checkable

import numpy as np

from hostwcg_env.engine import Action, Game
from hostwcg_env.engine.view import PlayerView


@runtime_checkable
class ViewAgent(Protocol):
    """An agent that decides from what its player may see: ``choose(view, actions)`` gets the
    deciding player's PlayerView and the legal engine actions and returns one of them
    (docs/write-an-agent.md). ``EngineAgent`` adds ``act``, ``bind`` and ``reset``."""

    def choose(self, view: PlayerView, actions: tuple[Action, ...]) -> Action: ...


@runtime_checkable
class PolicyAgent(Protocol):
    """An agent over the flat action space of hostwcg_v0: ``act(observation, action_mask)``
    returns the index of a legal action (the PPO policies; an engine agent once bound)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


Agent: TypeAlias = ViewAgent | PolicyAgent  # what agents.make_agent returns; decide() plays either


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


class Observer:
    """What flat agents see of one game: an observation encoder, an action codec and one
    persistent observation buffer per player, so that each decision rewrites only the parts of
    the observation that changed since that player's last one (the env's own incremental
    encoding, docs/observation.md). Make one per game and pass it to every ``decide`` call of
    that game; without one, ``decide`` encodes each observation from scratch (the same values,
    several times slower)."""

    def __init__(self, config: Any) -> None:
        from hostwcg_env.env.codec import Codec
        from hostwcg_env.env.layout import action_layout
        from hostwcg_env.env.observation import ObservationEncoder

        self.encoder = ObservationEncoder(config)
        self.codec = Codec(action_layout(config))
        self.buffers = [np.zeros(self.encoder.size, dtype=np.float32) for _ in (0, 1)]

    def observe(self, game: Game) -> tuple[np.ndarray, np.ndarray]:
        """The deciding player's observation and legal-action mask (views of reused buffers:
        valid until the next call)."""
        d = game.decision
        assert d is not None
        obs = self.encoder.encode(game.view(d.player), self.buffers[d.player])
        return obs, self.codec.mask(game)

    def only(self, game: Game, keep: tuple[Action, ...]) -> np.ndarray:
        """The legal-action mask of the deciding player narrowed to the actions ``keep``."""
        from hostwcg_env.env.codec import encode

        d = game.decision
        assert d is not None
        mask = np.zeros_like(self.codec.mask(game))
        for a in keep:
            mask[encode(self.codec.lay, game.state, d.player, a)] = 1
        return mask


def decide(agent: Any, game: Game, observer: Observer | None = None) -> Action:
    """One decision of ``agent`` for the deciding player of ``game`` (engine or flat agents).
    A flat agent sees its observation through ``observer`` (one per game) when given; a flat
    agent with ``narrow(view, actions) -> actions`` (the shipped PPO policy's guard) has its
    mask narrowed to the actions that method keeps."""
    d = game.decision
    assert d is not None
    if hasattr(agent, "choose"):
        return agent.choose(game.view(d.player), d.actions)
    observer = observer or Observer(game.state.config)
    obs, mask = observer.observe(game)
    narrow = getattr(agent, "narrow", None)
    if narrow is not None:  # a flat agent that also rules out some legal actions from its view
        keep = narrow(game.view(d.player), d.actions)
        if len(keep) < len(d.actions):
            mask = observer.only(game, keep)
    a = observer.codec.decode(game, agent.act(obs, mask))
    if a is None:
        raise ValueError(f"{getattr(agent, 'name', agent)} chose an illegal action")
    return a
