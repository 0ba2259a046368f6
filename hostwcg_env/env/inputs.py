"""What a user passes to the envs, checked the same way by every env and wrapper (docs/env.md
"Inputs"): integer options are integers (never a string, a bool or a float), seeds follow
gymnasium's rule (None or a non-negative int), an agent is one of the agent names, and a step
after the game is over raises one error. Each check fails with one line naming the argument."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

AGENTS: Final = ["player_0", "player_1"]


def _is_int(value: Any) -> bool:
    return (isinstance(value, int | np.integer)) and not isinstance(value, bool | np.bool_)


def check_int(name: str, value: Any, least: int | None = None) -> int:
    """``value`` as a plain int: an int or a numpy integer, at least ``least`` where given;
    a string, bool or float is a TypeError, a value below ``least`` a ValueError."""
    if not _is_int(value):
        raise TypeError(f"{name} must be an integer{'' if least is None else f' >= {least}'}, "
                        f"got {type(value).__name__} {value!r}"[:300])
    n = int(value)
    if least is not None and n < least:
        raise ValueError(f"{name} must be an integer >= {least}, got {n}")
    return n


def check_seed(seed: Any, name: str = "seed") -> int | None:
    """A seed as gymnasium takes one (``gymnasium.utils.seeding.np_random``): None or a
    non-negative Python int (a bool, float, string or numpy integer is refused)."""
    if seed is None:
        return None
    if type(seed) is not int:
        raise TypeError(f"{name} must be None or a non-negative int (gymnasium's rule), "
                        f"got {type(seed).__name__} {seed!r}"[:300])
    if seed < 0:
        raise ValueError(f"{name} must be None or a non-negative int (gymnasium's rule), got {seed}")
    return seed


def seat_of(agent: Any) -> int:
    """The seat (0 or 1) of an agent name; anything else is refused (``observe``,
    ``action_mask``)."""
    if type(agent) is str:
        if agent == AGENTS[0]:
            return 0
        if agent == AGENTS[1]:
            return 1
    raise ValueError(f"unknown agent {agent!r} (the agents are {', '.join(AGENTS)})"[:300])


class Selected:
    """The default of ``action_mask()``: the agent to act (``agent_selection``)."""

    def __repr__(self) -> str:
        return "<the agent to act>"


SELECTED: Final = Selected()


def step_after_end() -> RuntimeError:
    """The one error of a step after the game is over, from every env and wrapper."""
    return RuntimeError("step() after the game is over: call env.reset() to start a new game")


__all__ = ["SELECTED", "Selected", "check_int", "check_seed", "seat_of", "step_after_end"]
