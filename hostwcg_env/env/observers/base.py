"""The ``Observer`` protocol: what the one AEC class (``hostwcg_env.env.aec.HostAECEnv``)
asks of a version's observer (docs/env.md "Observers")."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from gymnasium import spaces

from hostwcg_env.engine import Action, Game

from ..layout import ActionLayout


class Observer(Protocol):
    """One env version's view of the game. The env calls, in this order within an episode:
    ``reset`` once, then per decision ``refresh`` (the decision just reached; raises
    ``LayoutError`` if the action space cannot express an option), ``before_apply`` before
    every action (forced ones too), and ``observe``/``mask``/``decode`` at will. Every method
    reads one player's view of ``game`` only, except ``mask``/``decode``, which read the
    current decision (its player's options)."""

    @property
    def layout(self) -> ActionLayout:
        """The action space's blocks (docs/action_space.md)."""

    @property
    def observation_space(self) -> spaces.Space:
        """One object, the same for every agent."""

    def reset(self) -> None:
        """A new episode starts (forget what the last one showed)."""

    def refresh(self, game: Game) -> None:
        """``game`` stands at a decision an agent takes: index its legal actions."""

    def before_apply(self, game: Game, player: int, action: Action) -> None:
        """``player`` is about to take ``action`` in ``game`` (its observer may remember it)."""

    def decode(self, game: Game, index: int) -> Action | None:
        """The legal action of the current decision at ``index``, or None."""

    def mask(self, game: Game) -> np.ndarray:
        """The current decision's mask (int8, the observer's own buffer: copy to keep)."""

    def observe(self, game: Game, player: int, deciding: bool) -> Any:
        """``player``'s observation (fresh arrays the caller may keep); ``deciding`` says
        whether ``player`` holds the current decision."""


__all__ = ["Observer"]
