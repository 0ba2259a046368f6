"""Pending work as plain data.

Everything the engine still has to do between two decisions is a :class:`Task` on the task
stack (``GameState.tasks``), and a decision that interrupts a task holds it (``Decision.task``)
until it is answered. Tasks are data (their fields say what is left to do, ``clone`` copies
them), so a game can be cloned at any decision and resumed. Each kind of task is a subclass
defined next to the rule it carries out, and ``game.TASKS`` says which function runs it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .carddef import CardDef


@dataclass(frozen=True)
class Source:
    """The card and ability a decision is about, where there is one: ``card`` if known, else
    ``obj``, the id of the object that has it."""

    card: CardDef | None
    ability: int | None
    obj: int | None = None


class Task:
    """Pending work (see the module docstring)."""

    def clone(self) -> Task:
        """A copy that shares nothing mutable with this one."""
        raise NotImplementedError(type(self).__name__)

    def source(self) -> Source | None:
        """The card and ability this work is for, if any (agents read it to judge a target)."""
        return None
