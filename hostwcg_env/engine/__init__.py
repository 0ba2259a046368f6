"""The Host WCG rules engine: typed Python, standard library only (docs/engine.md; the rules
it plays: docs/how-to-play.md, docs/rulings.md).

Installed with a C compiler, its modules are compiled with mypyc; ``BUILD`` says which build
runs ("compiled", or "pure" with the reason), ``HOSTWCG_PURE=1`` forces the Python one
(docs/engine.md).
"""

import os as _os

from ._build import select as _select

BUILD: str = _select(_os.path.dirname(__file__))

from .actions import Action, Decision, DecisionKind, IllegalActionError, Kind  # noqa: E402
from .carddef import Ability, CardDef, CardType, Ref, Res, Selector, Step, Trigger  # noqa: E402
from .config import RuleConfig  # noqa: E402
from .events import Event  # noqa: E402
from .game import Game  # noqa: E402
from .ruleset import Ruleset  # noqa: E402
from .state import GameState, Obj, StackItem  # noqa: E402


def compiled() -> bool:
    """True when the engine's modules run as mypyc-compiled machine code."""
    from . import state

    return not (state.__file__ or "").endswith(".py")


__all__ = [
    "BUILD", "Ability", "Action", "CardDef", "CardType", "Decision", "DecisionKind", "Event", "Game",
    "GameState", "IllegalActionError", "Kind", "Obj", "Ref", "Res", "RuleConfig", "Ruleset", "Selector",
    "StackItem", "Step", "Trigger", "compiled",
]
