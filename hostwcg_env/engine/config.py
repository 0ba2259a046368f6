"""RuleConfig: every rule flag of docs/rulings.md ("The flags"), with its default there.

Changing a flag changes play and nothing else.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from numbers import Integral
from typing import Any

_CHOICES: dict[str, tuple[str, ...]] = {
    "damage_card_choice": ("chooser", "random"),
    "draw_shortfall": ("fail_whole_effect", "draw_max"),
    "heal_destination": ("drop", "hand"),
    "ap_refresh": ("max4", "set4"),
    "resource_decay": ("never", "end_of_turn", "end_of_phase"),
    "priority_after_action": ("actor", "opponent"),
}

# The range of every numeric flag (inclusive; None: no upper bound). A value outside it is
# refused when the RuleConfig is made, naming the flag and its range.
_RANGES: dict[str, tuple[int, int | None]] = {
    "frontrow_slots": (1, 64),  # A11: at least one slot per row
    "backrow_slots": (1, 64),  # A11
    "ap_per_turn": (0, None),  # 10.2.1, 11.2: never negative
    "starting_hand": (0, 50),  # 9.1.6: at most the 50-card main deck (3.1.1)
    "turn_limit": (1, None),  # truncation after this many whole turns (at least one)
    "max_decisions_per_turn": (1, None),  # A52c: at least one decision per turn
    # A56, house rules for the first turn (0: the rules as written)
    "first_turn_ap_cut": (0, None),  # # taken from the first player's replenish on turn 1
    "second_player_extra_cards": (0, 45),  # 9.1.6: the opening hand stays within the deck
    "second_turn_extra_ap": (0, None),  # # added to the second player's replenish on turn 2
    "second_turn_draw": (0, 50),  # cards the second player draws as turn 2 starts
}
_BOOLS = ("damage_draws", "entity_damage_clears_at_end_of_turn", "auto_pay", "public_decklists")


def flag_range(name: str) -> str:
    """The documented range of a numeric flag, in words (``an integer >= 1``)."""
    lo, hi = _RANGES[name]
    return f"an integer >= {lo}" if hi is None else f"an integer from {lo} to {hi}"


@dataclass(frozen=True)
class RuleConfig:
    """Rule flags (docs/rulings.md) and table settings.

    Every numeric flag has a range (``_RANGES``: slots 1 to 64, ``ap_per_turn`` >= 0,
    ``starting_hand`` 0 to 50, ``turn_limit`` and ``max_decisions_per_turn`` >= 1, the first-turn
    house rules of A56 from 0), every
    other flag a type (a bool, or one of the strings in ``_CHOICES``); a value of the wrong
    type or out of range raises ValueError when the config is made (``with_overrides`` too).
    """

    damage_draws: bool = False  # A05: taking Host damage does not draw
    damage_card_choice: str = "chooser"  # A04
    draw_shortfall: str = "fail_whole_effect"  # A07
    heal_destination: str = "drop"  # A08
    frontrow_slots: int = 5  # A11
    backrow_slots: int = 4  # A11
    ap_refresh: str = "max4"  # A18
    resource_decay: str = "never"  # A19
    entity_damage_clears_at_end_of_turn: bool = False  # A22
    priority_after_action: str = "actor"  # A25
    ap_per_turn: int = 4  # 10.2.1, 11.2
    starting_hand: int = 5  # 9.1.6
    turn_limit: int = 200  # truncation: the game is a draw once this many turns were played
    max_decisions_per_turn: int = 500  # A52c: environment policy, truncation
    auto_pay: bool = False  # A23: never ask how to pay; use the canonical assignment
    public_decklists: bool = False  # whether each player's decklist is public information
    # A56: house rules that compensate the second player; 0 is the rules as written
    first_turn_ap_cut: int = 0  # the first player replenishes to ap_per_turn minus this on turn 1
    second_player_extra_cards: int = 0  # the second player's opening hand: starting_hand plus this
    second_turn_extra_ap: int = 0  # the second player replenishes to ap_per_turn plus this on turn 2
    second_turn_draw: int = 0  # the second player draws this many as their first turn starts

    def __post_init__(self) -> None:
        """Refuse a value of the wrong type or outside its range, naming the flag and what it
        must be (a bool is not an integer here, nor a string a bool)."""
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise ValueError(f"RuleConfig.{name} = {value!r}: must be one of {allowed}")
        for name in _BOOLS:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"RuleConfig.{name} = {value!r}: must be true or false (a bool)")
        for name, (lo, hi) in _RANGES.items():
            value = getattr(self, name)
            n = int(value) if isinstance(value, Integral) and not isinstance(value, bool) else None
            if n is None or n < lo or (hi is not None and n > hi):
                raise ValueError(f"RuleConfig.{name} = {value!r}: must be {flag_range(name)}")
            if type(value) is not int:  # e.g. a numpy integer: store a plain int
                object.__setattr__(self, name, n)

    def with_overrides(self, overrides: dict[str, Any]) -> RuleConfig:
        known = {f.name: f for f in fields(self)}
        clean: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in known:
                raise ValueError(f"unknown rule flag {key!r} (known: {', '.join(sorted(known))})")
            clean[key] = _coerce(key, value, type(getattr(self, key)))
        return replace(self, **clean)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _coerce(key: str, value: Any, typ: type) -> Any:
    """Read a text override (the CLI's ``flag=value``) as the flag's type; any other value is
    passed on unchanged for ``__post_init__`` to check."""
    if isinstance(value, str) and typ is not str:
        if typ is bool and value.lower() in ("true", "false", "1", "0", "yes", "no"):
            return value.lower() in ("true", "1", "yes")
        if typ is int:
            try:
                return int(value)
            except ValueError:
                pass
        raise ValueError(f"RuleConfig.{key} = {value!r}: must be "
                         + (flag_range(key) if typ is int else "true or false (a bool)"))
    return value
