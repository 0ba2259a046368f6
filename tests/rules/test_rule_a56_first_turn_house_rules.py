"""A56 (docs/rulings.md): the first-turn house rules. Each flag's default is the rules as
written (9.1.6, 10.2.1, 11.2); each other value changes exactly the turn it names."""

from __future__ import annotations

from typing import Any

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.engine import RuleConfig

from ._util import make, play, texts


def started(config: dict[str, Any] | None = None, seed: int = 0):  # type: ignore[no-untyped-def]
    """A real game set up by 9.1 under ``config``: the roll's winner goes first, nobody
    mulligans; it stops at the first player's turn-1 Action Phase 1."""
    g = make({"new_game": True, "seed": seed}, config=config)
    play(g, "yes", "pass", "pass", "to T1 action1")
    return g


def first_second(g) -> tuple[Any, Any]:  # type: ignore[no-untyped-def]
    s = g.state
    return s.players[s.first_player], s.players[1 - s.first_player]


def test_rule_a56_defaults_are_the_rules_as_written() -> None:
    """A56: every first-turn house rule is 0 by default: 5 cards each (9.1.6), 4 # on turn 1
    and on turn 2 (10.2.1, 11.2), no draw as turn 2 starts."""
    c = RuleConfig()
    assert (c.first_turn_ap_cut, c.second_player_extra_cards, c.second_turn_extra_ap,
            c.second_turn_draw) == (0, 0, 0, 0)
    g = started()
    first, second = first_second(g)
    assert (first.ap, len(first.hand), len(second.hand)) == (4, 5, 5)
    play(g, "to T2 action1")
    assert (second.ap, len(second.hand)) == (4, 5)


@pytest.mark.parametrize("cut, ap", [(1, 3), (2, 2), (4, 0), (9, 0)])
def test_rule_10_2_1_first_turn_ap_cut_lowers_only_the_first_players_turn_1(cut: int, ap: int) -> None:
    """10.2.1 under A56 ``first_turn_ap_cut``: the first player replenishes to 4 - cut (never
    below 0) on turn 1; the second player's turn 2 and the first player's turn 3 get 4 again."""
    g = started({"first_turn_ap_cut": cut})
    first, second = first_second(g)
    assert first.ap == ap
    play(g, "to T2 action1")
    assert second.ap == 4
    play(g, "to T3 action1")
    assert first.ap == 4


def test_rule_9_1_6_second_player_extra_cards_in_the_opening_hand() -> None:
    """9.1.6 under A56 ``second_player_extra_cards``: the second player draws 5 + N in the
    set-up (before the mulligans), the first player 5."""
    g = make({"new_game": True, "seed": 3}, config={"second_player_extra_cards": 2})
    play(g, "yes")
    first = g.state.first_player
    draws = [t for t in texts(g) if t.startswith("Draw(")]
    assert sum(t.startswith(f"Draw({'AB'[first]}") for t in draws) == 5
    assert sum(t.startswith(f"Draw({'AB'[1 - first]}") for t in draws) == 7
    play(g, "pass", "pass", "to T1 action1")
    f, s = first_second(g)
    assert (len(f.hand), len(s.hand)) == (5, 7)


def test_rule_11_2_second_turn_extra_ap_on_the_second_players_first_turn_only() -> None:
    """11.2 under A56 ``second_turn_extra_ap``: the second player replenishes to 4 + N on turn
    2, and to 4 from turn 4 on (unused # carry over, A18, so their count then is max(left, 4))."""
    g = started({"second_turn_extra_ap": 1})
    first, second = first_second(g)
    assert first.ap == 4
    play(g, "to T2 action1")
    assert second.ap == 5
    second.ap = 0  # as if all were spent
    play(g, "to T4 action1")
    assert second.ap == 4


def test_rule_10_2_second_turn_draw_as_the_second_players_first_turn_starts() -> None:
    """10.2 under A56 ``second_turn_draw``: as turn 2 starts the second player draws N; no
    one draws on turn 1 or on turn 3 (a 3-card opening hand keeps the End Phase discard away)."""
    g = started({"second_turn_draw": 2, "starting_hand": 3})
    first, second = first_second(g)
    assert (len(first.hand), len(second.hand)) == (3, 3)
    mark = len(g.events)
    play(g, "to T2 action1")
    assert len(second.hand) == 5
    assert sum(1 for t in texts(g, mark) if t.startswith("Draw(")) == 2
    mark = len(g.events)
    play(g, "to T3 action1")
    assert not any(t.startswith("Draw(") for t in texts(g, mark))


def test_rule_a56_flags_are_checked_like_every_flag() -> None:
    """A56: the house rules are RuleConfig flags with ranges, so a bad value is one clear line."""
    with pytest.raises(ValueError, match=r"RuleConfig.second_player_extra_cards = 46: must be an integer from 0 to 45"):
        RuleConfig(second_player_extra_cards=46)
    with pytest.raises(ValueError, match=r"RuleConfig.first_turn_ap_cut = -1: must be an integer >= 0"):
        RuleConfig().with_overrides({"first_turn_ap_cut": "-1"})
