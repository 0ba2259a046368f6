"""The engine's closed vocabularies as ``StrEnum``s: zones, phases, steps, controllers, selector
types, ability kinds, stack-item kinds, end reasons, ...

A ``StrEnum`` member is the string it stands for (``Zone.FRONT == "front"``, ``f"{Zone.FRONT}"``
is ``"front"``), so the notation, the event texts and the card files read and write the same
words as before; the type says which words are possible, and a misspelt member is an error
where a misspelt string was a silent mismatch.
"""

from __future__ import annotations

from enum import StrEnum


class Zone(StrEnum):
    """Where an object is (4): the owner zones, the slots, the Host and Form zones, the stack,
    and markers (24.1)."""

    DECK = "deck"
    HAND = "hand"
    DROP = "drop"
    DAMAGE = "damage"
    BANISHED = "banished"
    FRONT = "front"
    BACK = "back"
    HOST = "host"
    FORM = "form"
    STACK = "stack"
    MARKER = "marker"


class Phase(StrEnum):
    """The phases of a turn (10), and the two stretches before turn 1."""

    SETUP = "setup"  # 9.1: dealing, rolling, mulligans
    PREGAME = "pregame"  # 9.1.8: Hosts flipped, start-of-game triggers
    START = "start"
    ACTION1 = "action1"
    BATTLE = "battle"
    ACTION2 = "action2"
    END = "end"


TURN_PHASES: tuple[Phase, ...] = (Phase.START, Phase.ACTION1, Phase.BATTLE, Phase.ACTION2, Phase.END)


class PhaseStep(StrEnum):
    """A step inside a phase: battle's sections (25.1) and the End Phase's parts (10.6, A21)."""

    NONE = ""
    DECLARE = "declare"
    ATTACK = "attack"
    BLOCK = "block"
    EARLY_DAMAGE = "early_damage"
    NORMAL_DAMAGE = "normal_damage"
    AFTER = "after"
    MAIN = "main"
    DISCARD = "discard"
    EXPIRE = "expire"


class Controller(StrEnum):
    """Whose objects or events a selector or trigger means, seen from its controller."""

    YOU = "you"
    OPPONENT = "opponent"
    ANY = "any"


class Who(StrEnum):
    """Which players a step acts on (draw, discard, gain_resource, reveal_hand)."""

    YOU = "you"
    OPPONENT = "opponent"
    EACH = "each"


class SelectorType(StrEnum):
    """What a selector can name (docs/cards.md "Selectors")."""

    ENTITY = "entity"
    HOST = "host"
    PERMANENT = "permanent"
    ENTITY_OR_HOST = "entity_or_host"
    EFFECT = "effect"
    CARD = "card"


class AbilityKind(StrEnum):
    """The kinds of ability (docs/cards.md "Ability kinds")."""

    SPELL = "spell"
    STATIC = "static"
    TRIGGERED = "triggered"
    ACTIVATED = "activated"
    AMBUSH = "ambush"
    DURING = "during"


class ItemKind(StrEnum):
    """What a stack item is (32): a card being played, or an effect of one of these kinds."""

    CARD = "card"
    ABILITY = "ability"
    TRIGGER = "trigger"
    SPELL = "spell"
    AMBUSH = "ambush"
    DURING = "during"


class EndReason(StrEnum):
    """Why a game ended (1.1, 35.3.5), or why it was cut short (a truncation)."""

    NONE = ""
    DAMAGE_ZONE = "damage_zone"
    DECK_OUT = "deck_out"
    EMPTY_HAND = "empty_hand"
    DRAW = "draw"
    CONCEDE = "concede"
    TURN_LIMIT = "turn_limit"  # a truncation: RuleConfig.turn_limit turns were played
    DECISION_LIMIT = "decision_limit"  # a truncation: RuleConfig.max_decisions_per_turn (A52c)


class Duration(StrEnum):
    """How long a step's change lasts; 'until end of turn' ends in the End Phase (A21)."""

    PERMANENT = "permanent"
    END_OF_TURN = "end_of_turn"


class Link(StrEnum):
    """How a step follows the one before it (40): 'then' (game actions between) or 'and'."""

    THEN = "then"
    AND = "and"


class ModKind(StrEnum):
    """A stat change an effect gives one object (18.6, 20.1)."""

    ADD = "add"
    SET = "set"
    GRANT = "grant"


class Condition(StrEnum):
    """An Ambush's state requirement, the condition before its ';' (29.2)."""

    OPPONENT_CONTROLS_ENTITY = "opponent_controls_entity"
    YOU_CONTROL_NO_ENTITY = "you_control_no_entity"
    YOUR_HAND_EMPTY = "your_hand_empty"
    OPPONENT_ATTACKING = "opponent_attacking"
