"""Every RuleConfig the engine accepts works in the env: the action layout and the observation
sizes follow the table (slot counts, starting hand), and the default table's spaces are the
published v0 ones."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hostwcg_env import hostwcg_v0
from hostwcg_env.cards.decks import DECK_SIZE
from hostwcg_env.engine import RuleConfig
from hostwcg_env.engine.config import _CHOICES
from hostwcg_env.env import AGENTS, action_layout, section, shipped_decks
from hostwcg_env.env.layout import MAX_HAND, MAX_LIST, hand_slots
from hostwcg_env.env.observation import ObservationEncoder

DECKS = shipped_decks(include_test=True)

# the published v0 spaces (docs/action_space.md, docs/observation.md)
V0_BLOCKS = [("pass", 0, 1), ("yes", 1, 1), ("ap_host", 2, 1), ("ap_draw", 3, 1), ("ap_any", 4, 4),
             ("play", 8, 30), ("activate", 38, 60), ("attack", 98, 5), ("slot", 103, 9),
             ("target", 112, 44), ("pay", 156, 6), ("card", 162, 80), ("trigger", 242, 24)]


def test_default_table_keeps_the_v0_spaces() -> None:
    lay = action_layout(RuleConfig())
    assert [(b.name, b.start, b.size) for b in lay.blocks] == V0_BLOCKS
    assert lay.n == 266 and lay.hand == MAX_HAND == 30
    assert ObservationEncoder(RuleConfig()).size == 11964
    e = hostwcg_v0.env()
    assert e.action_space(AGENTS[0]).n == 266
    assert e.observation_space(AGENTS[0])["observation"].shape == (11964,)


# RuleConfig refuses a starting hand above 50 (a whole deck)
@pytest.mark.parametrize("hand,expected", [(0, 30), (5, 30), (6, 31), (25, 50), (31, 50), (50, 50)])
def test_hand_slots_follow_the_starting_hand(hand: int, expected: int) -> None:
    cfg = RuleConfig(starting_hand=hand)
    assert hand_slots(cfg) == expected
    lay = action_layout(cfg)
    assert lay.block("play").size == expected
    assert lay.block("card").size == expected + MAX_LIST
    assert ObservationEncoder(cfg).offsets["my_hand"][1] == expected


def test_a_whole_deck_fits_in_the_hand_block() -> None:
    assert hand_slots(RuleConfig(starting_hand=DECK_SIZE)) == DECK_SIZE


# a grid of tables: large starting hands, few and many slots, every rule flag's alternatives
GRID: list[dict[str, Any]] = [
    {"starting_hand": 31},
    {"starting_hand": 40},
    {"starting_hand": DECK_SIZE},
    {"frontrow_slots": 1, "backrow_slots": 1},
    {"frontrow_slots": 12, "backrow_slots": 12},
    {"frontrow_slots": 30, "backrow_slots": 30},
    {"ap_per_turn": 0},
    {"ap_per_turn": 20},
    {"max_decisions_per_turn": 5},
    {"starting_hand": DECK_SIZE, "frontrow_slots": 30, "backrow_slots": 30, "ap_per_turn": 20,
     "damage_draws": True, "heal_destination": "hand", "auto_pay": True},
    {"starting_hand": 31, "frontrow_slots": 12, "backrow_slots": 12, "ap_per_turn": 10,
     "priority_after_action": "opponent", "draw_shortfall": "draw_max"},
    *({k: v} for k, vs in _CHOICES.items() for v in vs[1:]),
    {"damage_draws": True}, {"auto_pay": True}, {"entity_damage_clears_at_end_of_turn": True},
    {"public_decklists": True},
    {"second_player_extra_cards": 40, "second_turn_draw": 5},  # A56: the second player holds up to 50 cards
    {"first_turn_ap_cut": 4, "second_turn_extra_ap": 3},
]


@pytest.mark.parametrize("overrides", GRID, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_games_play_to_the_end_on_every_table(overrides: dict[str, Any]) -> None:
    cfg = RuleConfig(**overrides)
    lay = action_layout(cfg)
    for seed in range(3):
        e = hostwcg_v0.env(config=cfg, deck_pools=[DECKS, DECKS])
        assert e.action_space(AGENTS[0]).n == lay.n
        space = e.observation_space(AGENTS[0])
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        for agent in e.agent_iter(200_000):
            obs, _r, term, trunc, _i = e.last()
            assert space.contains(obs), "the observation lies in its space"
            if term or trunc:
                e.step(None)
                continue
            game = e.unwrapped.game
            p = AGENTS.index(agent)
            hand = len(game.state.players[p].hand)
            shown = section(obs["observation"], "my_hand", cfg)[:, 0]
            assert shown.sum() == min(hand, len(shown)), "every card in hand is shown"
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) == len(game.legal_actions()), "every legal action has its own index"
            e.step(int(rng.choice(legal)))
        assert e.unwrapped.game.is_over


def test_section_needs_the_table_of_the_observation() -> None:
    cfg = RuleConfig(starting_hand=31)
    e = hostwcg_v0.raw_env(config=cfg)
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)["observation"]
    assert section(obs, "my_hand", cfg).shape[0] == hand_slots(cfg)
    with pytest.raises(ValueError, match="pass the env's RuleConfig as config"):
        section(obs, "my_hand")


def test_a_policy_trained_on_another_table_says_so() -> None:
    from agents.ppo import NumpyPolicy

    policy = NumpyPolicy.load()
    e = hostwcg_v0.raw_env(config=RuleConfig(frontrow_slots=3))
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)
    with pytest.raises(ValueError, match="this policy reads observations of 11,964 values"):
        policy.act(obs["observation"], obs["action_mask"])
