"""The Host WCG rules engine: pure Python, standard library only (docs/how-to-play.md, docs/rulings.md)."""

from .actions import Action, Decision, DecisionKind, IllegalActionError, Kind
from .carddef import Ability, CardDef, CardType, Ref, Res, Selector, Step, Trigger
from .config import RuleConfig
from .events import Event
from .game import Game
from .state import GameState, Obj, StackItem

__all__ = [
    "Ability", "Action", "CardDef", "CardType", "Decision", "DecisionKind", "Event", "Game",
    "GameState", "IllegalActionError", "Kind", "Obj", "Ref", "Res", "RuleConfig", "Selector",
    "StackItem", "Step", "Trigger",
]
