"""The turnsearch agent (agents/turnsearch.py) and the sensible-action filter it searches
(agents/sensible.py): legal full games, determinism, the real game untouched, the search's
bookkeeping, no blunders on the audit's positions; the shipped PPO policy's target guard."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

import hostwcg_env  # noqa: F401
from agents import decide, make_agent
from agents.ismcts import ISMCTSAgent
from agents.ppo import NumpyPolicy
from agents.sensible import sensible, sensible_targets
from agents.turnsearch import TurnSearchAgent
from hostwcg_env.engine import Action, Game
from hostwcg_env.env.codec import encode
from hostwcg_env.scenarios.builder import setup_game
from hostwcg_env.scenarios.runner import run_line
from hostwcg_env.testing.agent_games import (
    choice_point,
    deterministic_and_untouched,
    plays_full_games,
)

AUDIT = Path(__file__).parent / "audit"




def _position(name: str) -> Game:
    with open(AUDIT / name, "rb") as f:
        doc = tomllib.load(f)
    game = setup_game(doc, name)
    for line in doc["step"][0]["do"]:
        run_line(game, line)
    return game


def test_make_agent_names_and_options() -> None:
    a = make_agent("turnsearch:24:worlds=2:c=0.3:widen=2:alpha=0.4:turns=2:danger=3", seed=1)
    assert isinstance(a, TurnSearchAgent)
    assert (a.iterations, a.worlds, a.c, a.widen, a.alpha, a.turns, a.weights.danger) == (24, 2, 0.3, 2.0, 0.4, 2, 3.0)
    assert make_agent("turnsearch").iterations == 64
    for bad in ("turnsearch:0", "turnsearch:x", "turnsearch:worlds=0", "turnsearch:nope=1", "turnsearch:c=high"):
        with pytest.raises(ValueError):
            make_agent(bad)


def test_plays_full_games_with_legal_actions() -> None:
    plays_full_games("turnsearch:8")


def test_deterministic_for_a_seed_and_leaves_the_real_game_untouched() -> None:
    deterministic_and_untouched(lambda: TurnSearchAgent(iterations=20, worlds=2, seed=9))


def test_every_sensible_action_is_tried_in_every_world_then_the_tree_grows() -> None:
    for seed, plies in ((3, 80), (6, 120), (7, 61), (8, 90), (9, 40)):
        g = choice_point(seed, plies)
        if g.is_over:
            continue
        p = g.decision.player  # type: ignore[union-attr]
        view = g.view(p)
        options = sensible(view, g.legal_actions())
        if len(options) < 3:
            continue
        agent = TurnSearchAgent(iterations=3 * len(options) + 40, worlds=3, seed=2)
        own = agent.policy.choose(view, g.legal_actions())
        root = agent.search(view, options, own)
        assert set(root.children) == {str(a) for a in options}
        assert root.n == sum(c.n for c in root.children.values()) == agent.iterations
        assert all(c.n >= 3 for c in root.children.values())  # each option once in each world
        assert root.options[0] == str(own)  # widening starts from the heuristic's choice
        return
    pytest.fail("no position with three sensible actions")


@pytest.mark.parametrize(("name", "good"), [
    ("r1_spark_on_own_entity.toml", "target B.f0"),
    ("r2_vigor_on_enemy_entity.toml", "target A.f0"),
    ("r2_equipment_on_enemy_entity.toml", "target A.f0"),
    ("r1_up_to_target_on_own_entity.toml", "pass"),
])
def test_targets_the_right_side(name: str, good: str) -> None:
    game = _position(name)
    d = game.decision
    assert d is not None
    assert TurnSearchAgent(iterations=16, seed=0).choose(game.view(0), d.actions) == Action.parse(good)


def test_sensible_keeps_everything_at_other_decisions_and_when_nothing_is_right() -> None:
    game = _position("r1_spark_on_own_entity.toml")
    d = game.decision
    assert d is not None
    assert [str(a) for a in sensible_targets(game.view(0), d.actions)] == ["target B.f0"]
    # no opposing Entity: the only legal target stays (the audit calls playing it R6, not R1)
    with open(AUDIT / "r1_spark_on_own_entity.toml", "rb") as f:
        doc = tomllib.load(f)
    doc["setup"]["B"].pop("front")
    alone = setup_game(doc, "alone")
    run_line(alone, "A play Spark")
    d = alone.decision
    assert d is not None
    assert sensible_targets(alone.view(0), d.actions) == d.actions


# ---------------------------------------------------------------- the PPO policy's guard


def _policy_preferring(game: Game, action: Action, guard: bool) -> NumpyPolicy:
    """A one-layer 'policy' whose logits rank ``action`` first at this decision."""
    from agents import Observer

    obs = Observer(game.state.config)
    x, mask = obs.observe(game)
    n = len(mask)
    bias = np.zeros(n, np.float32)
    bias[encode(obs.codec.lay, game.state, game.decision.player, action)] = 5.0  # type: ignore[union-attr]
    weights = {"action.weight": np.zeros((n, len(x)), np.float32), "action.bias": bias}
    return NumpyPolicy(weights, guard=guard)


def test_ppo_guard_masks_targets_on_the_wrong_side() -> None:
    game = _position("r1_spark_on_own_entity.toml")
    own = Action.parse("target A.f0")
    assert decide(_policy_preferring(game, own, guard=False), game) == own
    assert decide(_policy_preferring(game, own, guard=True), game) == Action.parse("target B.f0")
    # away from target choices the network's choice stands
    game = setup_game({"setup": {"turn": 3, "phase": "action1", "A": {"hand": ["Spark"], "ap": 4}}}, "ap")
    odd = Action.parse("ap any &")
    assert odd in game.decision.actions  # type: ignore[union-attr]
    assert decide(_policy_preferring(game, odd, guard=True), game) == odd


def test_ppo_names_with_and_without_the_guard() -> None:
    assert make_agent("ppo").guard is True
    raw = make_agent("ppo:raw")
    assert raw.guard is False
    game = _position("r1_spark_on_own_entity.toml")
    d = game.decision
    assert d is not None
    assert raw.narrow(game.view(0), d.actions) == d.actions
    assert make_agent("ppo").narrow(game.view(0), d.actions) == (Action.parse("target B.f0"),)


@pytest.mark.parametrize(("name", "good"), [
    ("r1_spark_on_own_entity.toml", "target B.f0"),
    ("r2_vigor_on_enemy_entity.toml", "target A.f0"),
])
def test_ismcts_chooses_among_the_sensible_actions_unless_raw(name: str, good: str) -> None:
    game = _position(name)
    d = game.decision
    assert d is not None
    for seed in range(3):
        assert make_agent("ismcts:12", seed=seed).choose(game.view(0), d.actions) == Action.parse(good)
        assert ISMCTSAgent(iterations=12, anchor=None, seed=seed).choose(game.view(0), d.actions) == Action.parse(good)
    # with no search at all the first action it may choose is taken: a sensible one, or any
    assert ISMCTSAgent(iterations=0, anchor=None).choose(game.view(0), d.actions) == Action.parse(good)
    first_legal = ISMCTSAgent(iterations=0, anchor=None, sensible=False).choose(game.view(0), d.actions)
    assert first_legal == d.actions[0]
    raw = make_agent("ismcts:12:raw", seed=0)
    assert raw.sensible is False and raw.iterations == 12
    assert make_agent("ismcts:0.2s:raw").time_limit == 0.2 and make_agent("ismcts:raw").sensible is False
    assert make_agent("ismcts").sensible is True
    with pytest.raises(ValueError):
        make_agent("ismcts:12:nope")
