"""The ``Observer`` protocol: what the one AEC class (``hostwcg_env.env.aec.HostAECEnv``)
and the one single-agent and vector stack (``hostwcg_env.env.batch``) ask of a version's
observer (docs/env.md "Observers"); ``WritesRows``, what an observer may add to write a
vector env's rows in place."""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
from gymnasium import spaces

from hostwcg_env.engine import Action, Game

from ..layout import ActionLayout

Skip = Literal["forced", "public"]
SKIPS: tuple[Skip, ...] = ("forced", "public")


class Observer(Protocol):
    """One env version's view of the game. The env calls, in this order within an episode:
    ``reset`` once, then per decision ``refresh`` (the decision just reached; raises
    ``LayoutError`` if the action space cannot express an option), ``before_apply`` before
    every action (forced ones too), and ``observe``/``mask``/``decode`` at will. Every method
    reads one player's view of ``game`` only, except ``mask``/``decode``, which read the
    current decision (its player's options)."""

    skip: Skip
    """Which decisions the single-agent and vector envs take without asking anyone, part of the
    version's episode semantics (docs/env.md "One stack, per-version observers and skipping"):
    ``"forced"``, every decision with one legal action, of either seat (v0); ``"public"``,
    only those whose being forced is public (``Game.forced_action``), as the AEC env does (v1)."""

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


class Row(Protocol):
    """A writer of one player's observation into one row of a vector env's buffers."""

    def rebind(self, arrays: dict[str, np.ndarray]) -> None:
        """Write into ``arrays`` from now on: arrays that hold what this writer showed (the
        rows of a copied env's own buffers)."""


@runtime_checkable
class WritesRows(Protocol):
    """An observer that writes observations in place (optional: without it the vector env
    copies ``observe``'s arrays into its rows)."""

    def row(self, arrays: dict[str, np.ndarray]) -> Row:
        """A writer into ``arrays`` (one row of the vector env's buffers, a view per key)."""

    def bind(self, player: int, row: Row) -> None:
        """``player``'s observations go to ``row`` from now on (a new episode's seats)."""

    def observe_into(self, game: Game, player: int, deciding: bool) -> Any:
        """Bring ``player``'s row up to date, as ``observe`` would (no copy)."""


__all__ = ["SKIPS", "Observer", "Row", "Skip", "WritesRows"]
