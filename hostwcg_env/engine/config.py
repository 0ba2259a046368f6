"""RuleConfig: every rule flag of docs/rulings.md ("The flags"), with its default there.

Changing a flag changes play and nothing else.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

_CHOICES: dict[str, tuple[str, ...]] = {
    "damage_card_choice": ("chooser", "random"),
    "draw_shortfall": ("fail_whole_effect", "draw_max"),
    "heal_destination": ("drop", "hand"),
    "ap_refresh": ("max4", "set4"),
    "resource_decay": ("never", "end_of_turn", "end_of_phase"),
    "priority_after_action": ("actor", "opponent"),
}


@dataclass(frozen=True)
class RuleConfig:
    """Rule flags (docs/rulings.md) and table settings."""

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
    turn_limit: int = 200  # truncation: the game is a draw after this many turns
    max_decisions_per_turn: int = 500  # A52c: environment policy, truncation
    auto_pay: bool = False  # A23: never ask how to pay; use the canonical assignment
    public_decklists: bool = False  # whether each player's decklist is public information

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"RuleConfig.{name} = {value!r}: must be one of {allowed}")
        if self.frontrow_slots < 1 or self.backrow_slots < 1:
            raise ValueError("RuleConfig: slot counts must be at least 1")

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
    if isinstance(value, typ):
        return value
    if isinstance(value, str):
        if typ is bool and value.lower() in ("true", "false", "1", "0", "yes", "no"):
            return value.lower() in ("true", "1", "yes")
        if typ is int:
            try:
                return int(value)
            except ValueError:
                pass
    raise ValueError(f"rule flag {key}: {value!r} is not a {typ.__name__}")
