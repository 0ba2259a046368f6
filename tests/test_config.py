"""RuleConfig refuses, when it is made, a flag of the wrong type or outside its documented
range, naming the flag and the range (``with_overrides`` goes through the same check)."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from hostwcg_env.engine import RuleConfig
from hostwcg_env.engine.config import _BOOLS, _CHOICES, _RANGES

# flag -> (values that must be refused, values that must be accepted)
NUMERIC = {
    "frontrow_slots": ([0, -1, 65], [1, 5, 64]),
    "backrow_slots": ([0, -4, 65], [1, 4, 64]),
    "ap_per_turn": ([-1, -3], [0, 4, 10]),
    "starting_hand": ([-2, 51], [0, 5, 50]),
    "turn_limit": ([0, -1], [1, 200, 10_000]),
    "max_decisions_per_turn": ([0, -5], [1, 500]),
    "first_turn_ap_cut": ([-1], [0, 2, 9]),
    "second_player_extra_cards": ([-1, 46], [0, 1, 45]),
    "second_turn_extra_ap": ([-1], [0, 1, 10]),
    "second_turn_draw": ([-1, 51], [0, 2, 50]),
}
RANGE_TEXT = {
    "frontrow_slots": "an integer from 1 to 64",
    "backrow_slots": "an integer from 1 to 64",
    "ap_per_turn": "an integer >= 0",
    "starting_hand": "an integer from 0 to 50",
    "turn_limit": "an integer >= 1",
    "max_decisions_per_turn": "an integer >= 1",
    "first_turn_ap_cut": "an integer >= 0",
    "second_player_extra_cards": "an integer from 0 to 45",
    "second_turn_extra_ap": "an integer >= 0",
    "second_turn_draw": "an integer from 0 to 50",
}


def test_every_flag_is_checked() -> None:
    names = {f.name for f in fields(RuleConfig)}
    assert names == set(_RANGES) | set(_BOOLS) | set(_CHOICES)
    assert set(NUMERIC) == set(_RANGES) == set(RANGE_TEXT)


@pytest.mark.parametrize("flag", sorted(NUMERIC))
def test_numeric_flag_out_of_range_is_refused(flag: str) -> None:
    bad, good = NUMERIC[flag]
    for v in bad:
        msg = f"RuleConfig.{flag} = {v}: must be {RANGE_TEXT[flag]}"
        with pytest.raises(ValueError) as e:
            RuleConfig(**{flag: v})
        assert str(e.value) == msg
        with pytest.raises(ValueError) as e:
            RuleConfig().with_overrides({flag: v})
        assert str(e.value) == msg
        with pytest.raises(ValueError) as e:
            RuleConfig().with_overrides({flag: str(v)})  # as the CLI passes it
        assert str(e.value) == msg
    for v in good:
        assert getattr(RuleConfig(**{flag: v}), flag) == v
        assert getattr(RuleConfig().with_overrides({flag: str(v)}), flag) == v


@pytest.mark.parametrize("flag", sorted(NUMERIC))
def test_numeric_flag_of_the_wrong_type_is_refused(flag: str) -> None:
    for v in (True, False, 2.0, "3", None, [1]):
        with pytest.raises(ValueError, match=rf"^RuleConfig\.{flag} = .*: must be an integer"):
            RuleConfig(**{flag: v})
    with pytest.raises(ValueError, match=rf"^RuleConfig\.{flag} = 'many': must be an integer"):
        RuleConfig().with_overrides({flag: "many"})
    lo = _RANGES[flag][0]
    c = RuleConfig(**{flag: np.int64(lo + 1)})  # a numpy integer is an integer, stored as int
    assert type(getattr(c, flag)) is int and getattr(c, flag) == lo + 1


@pytest.mark.parametrize("flag", _BOOLS)
def test_bool_flag_of_the_wrong_type_is_refused(flag: str) -> None:
    for v in ("true", "false", 1, 0, None):
        with pytest.raises(ValueError, match=rf"^RuleConfig\.{flag} = .*: must be true or false"):
            RuleConfig(**{flag: v})
    with pytest.raises(ValueError, match=rf"^RuleConfig\.{flag} = 'maybe': must be true or false"):
        RuleConfig().with_overrides({flag: "maybe"})
    for text, value in (("true", True), ("no", False), ("1", True)):
        assert getattr(RuleConfig().with_overrides({flag: text}), flag) is value
    assert getattr(RuleConfig(**{flag: True}), flag) is True


@pytest.mark.parametrize("flag", sorted(_CHOICES))
def test_choice_flag_outside_its_choices_is_refused(flag: str) -> None:
    for v in ("nonsense", 1, True, None):
        with pytest.raises(ValueError, match=rf"^RuleConfig\.{flag} = .*: must be one of"):
            RuleConfig(**{flag: v})
    for v in _CHOICES[flag]:
        assert getattr(RuleConfig().with_overrides({flag: v}), flag) == v


def test_unknown_flag_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rule flag 'turn_limits'"):
        RuleConfig().with_overrides({"turn_limits": 3})
