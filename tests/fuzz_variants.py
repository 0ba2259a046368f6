"""Every RuleConfig flag off its default, one variant per value (used by the flag fuzz in
tests/test_fuzz_flags.py and by scripts/fuzz.py)."""

from __future__ import annotations

import dataclasses

from hostwcg_env.engine import RuleConfig
from hostwcg_env.engine.config import _CHOICES

# A value off the default for every numeric flag: smaller and larger boards and hands, fewer
# and more action points, short games, a tight per-turn decision cap.
NUMERIC_VALUES: dict[str, tuple[int, ...]] = {
    "frontrow_slots": (2, 7),
    "backrow_slots": (1, 6),
    "ap_per_turn": (0, 2, 7),
    "starting_hand": (0, 9),
    "turn_limit": (12,),
    "max_decisions_per_turn": (30,),
    "first_turn_ap_cut": (2, 9),  # A56: down to no # on turn 1
    "second_player_extra_cards": (2,),
    "second_turn_extra_ap": (2,),
    "second_turn_draw": (1, 3),
}


def flag_variants() -> list[tuple[str, RuleConfig]]:
    """(label, config) for the default and every flag set to each value other than its default."""
    default = RuleConfig()
    out: list[tuple[str, RuleConfig]] = [("default", default)]
    for f in dataclasses.fields(RuleConfig):
        value = getattr(default, f.name)
        if isinstance(value, bool):
            others: tuple[object, ...] = (not value,)
        elif f.name in _CHOICES:
            others = tuple(v for v in _CHOICES[f.name] if v != value)
        else:
            others = NUMERIC_VALUES[f.name]  # a KeyError here: a new numeric flag needs values
        for v in others:
            out.append((f"{f.name}={str(v).lower()}", dataclasses.replace(default, **{f.name: v})))
    return out
