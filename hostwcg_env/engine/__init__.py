"""The Host WCG rules engine: typed Python, standard library only (docs/engine.md; the rules
it plays: docs/how-to-play.md, docs/rulings.md).

Installed with a C compiler, its modules are compiled with mypyc; ``BUILD`` says which build
runs ("compiled", or "pure" with the reason), ``HOSTWCG_PURE=1`` forces the Python one
(docs/engine.md).
"""

import os as _os

from ._build import select as _select

BUILD: str = _select(_os.path.dirname(__file__))

from .actions import Action, Area, Decision, DecisionKind, IllegalActionError, Kind, Place  # noqa: E402
from .carddef import Ability, CardDef, CardType, Ref, Res, Selector, Step, Trigger  # noqa: E402
from .config import RuleConfig  # noqa: E402
from .events import Event  # noqa: E402
from .game import Game  # noqa: E402
from .ruleset import Ruleset  # noqa: E402
from .state import GameState, Obj, StackItem  # noqa: E402
from .travel import register as _register_reducers  # noqa: E402

_register_reducers()  # pickle and deep copies in both builds (travel.py)

# The engine's decision epoch: bumped whenever the sequence of decisions a seeded game asks for
# changes (who is asked, when), so that a recorded game's actions no longer replay. Records
# carry it (docs/balance.md "The game record"). 1: hostwcg 0.1.0. 2: whether a player is asked
# depends on public facts only (docs/env.md "auto_single"), and the turn player gets priority
# after a trigger window only if something was put on the stack (31.5.1). 3: the game actions
# an effect's last part causes happen inside its resolution (35.2, 35.4), so an Entity it
# destroys leaves before the effect's card, and the triggers that causes are collected in
# that order (CHANGELOG.md).
ENGINE_EPOCH = 3


def compiled() -> bool:
    """True when the engine's modules run as mypyc-compiled machine code."""
    from . import state

    return not (state.__file__ or "").endswith(".py")


__all__ = [
    "BUILD", "ENGINE_EPOCH", "Ability", "Action", "Area", "CardDef", "CardType", "Decision", "DecisionKind", "Event",
    "Game", "GameState", "IllegalActionError", "Kind", "Obj", "Place", "Ref", "Res", "RuleConfig", "Ruleset",
    "Selector", "StackItem", "Step", "Trigger", "compiled",
]
