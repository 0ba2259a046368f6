"""The Host WCG rules engine: pure Python, standard library only (docs/how-to-play.md, docs/rulings.md)."""

from .actions import Action, Decision, DecisionKind, IllegalActionError, Kind
from .carddef import Ability, CardDef, CardType, Ref, Res, Selector, Step, Trigger
from .config import RuleConfig
from .events import Event
from .game import Game
from .state import GameState, Obj, StackItem

# The engine's decision epoch: bumped whenever the sequence of decisions a seeded game asks for
# changes (who is asked, when), so that a recorded game's actions no longer replay. Records
# carry it (docs/balance.md "The game record"). 1: hostwcg 0.1.0. 2: whether a player is asked
# depends on public facts only (docs/env.md "auto_single"), and the turn player gets priority
# after a trigger window only if something was put on the stack (31.5.1).
ENGINE_EPOCH = 2

__all__ = [
    "ENGINE_EPOCH", "Ability", "Action", "CardDef", "CardType", "Decision", "DecisionKind", "Event", "Game",
    "GameState", "IllegalActionError", "Kind", "Obj", "Ref", "Res", "RuleConfig", "Selector",
    "StackItem", "Step", "Trigger",
]
