"""Env inputs: an action is exactly an integer index of the action space; calls out of order
(before reset, after the end) and missing agents raise errors that say what to do. The
wrapped env() keeps PettingZoo's wrapper semantics; SingleAgentEnv checks its inputs, renders
from the learner's seat and alternates seats under seeded resets."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from hostwcg_env import hostwcg_v0
from hostwcg_env.cards import DeckError
from hostwcg_env.env import AGENTS
from hostwcg_env.env.single import SingleAgentEnv
from hostwcg_env.render import render_text

N = hostwcg_v0.raw_env().action_space(AGENTS[0]).n


def started(**kw: Any) -> Any:
    e = hostwcg_v0.raw_env(**kw)
    e.reset(seed=0)
    return e


def legal(e: Any) -> int:
    return int(np.flatnonzero(e.action_mask())[0])


# ---------------------------------------------------------------------------- raw_env.step


@pytest.mark.parametrize("kind", [int, np.int64, np.int8, np.uint16, lambda i: np.array(i)],
                         ids=["int", "int64", "int8", "uint16", "0-d array"])
def test_step_takes_an_integer_index(kind: Any) -> None:
    e = started()
    before = e.game.state.decisions_total
    e.step(kind(legal(e)))
    assert e.game.state.decisions_total > before


@pytest.mark.parametrize("bad", [True, False, np.True_, 0.0, 1.5, np.float32(0), "0", None,
                                 np.array([0]), [0], 1 + 0j],
                         ids=repr)
def test_step_refuses_what_is_not_an_integer(bad: Any) -> None:
    e = started()
    before = e.game.state.decisions_total
    with pytest.raises(TypeError, match="integer index 0..") as info:
        e.step(bad)
    if bad is None:
        assert "agent that is done" in str(info.value)
    assert e.game.state.decisions_total == before  # nothing happened


@pytest.mark.parametrize("bad", [-1, N, N + 100, np.int64(-5)])
def test_step_refuses_an_index_outside_the_space(bad: Any) -> None:
    e = started()
    with pytest.raises(ValueError, match=rf"outside the action space Discrete\({N}\): give an index 0..{N - 1}"):
        e.step(bad)


def _finish(e: Any) -> None:
    rng = np.random.default_rng(0)
    for _ in e.agent_iter():
        obs, _r, term, trunc, _i = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_stepping_a_finished_game_says_reset() -> None:
    e = started()
    _finish(e)
    assert not e.agents
    for action in (None, 0):
        with pytest.raises(RuntimeError, match=r"after the game is over.*call env.reset\(\)"):
            e.step(action)
    e.reset(seed=1)  # and reset starts a new one
    e.step(legal(e))


def test_a_done_agent_steps_only_with_none() -> None:
    e = started(turn_limit=1)
    while not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
        e.step(legal(e))
    with pytest.raises(ValueError, match="only valid action is None"):
        e.step(0)


@pytest.mark.parametrize("call", ["observe", "render", "step", "action_mask"])
def test_calls_before_reset_say_reset(call: str) -> None:
    e = hostwcg_v0.raw_env(render_mode="ansi")
    args = {"observe": ("player_0",), "step": (0,)}.get(call, ())
    with pytest.raises(RuntimeError, match=rf"{call}\(\) before reset\(\): call env.reset\(\) first"):
        getattr(e, call)(*args)


def test_unknown_agent_is_named() -> None:
    e = started()
    with pytest.raises(ValueError, match="unknown agent 'player_2' .*player_0, player_1"):
        e.observe("player_2")


def test_bad_render_view_is_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="render_view must be 0, 1 or 'spectator'"):
        hostwcg_v0.raw_env(render_view="opponent")


# ---------------------------------------------------------------------------- wrapped env()


def test_wrapped_env_keeps_pettingzoo_semantics() -> None:
    """Out of the space: AssertOutOfBoundsWrapper's assertion; an illegal index: termination
    with -1 (TerminateIllegalWrapper); a bool is not an index."""
    for bad in (N, -1, 1.5, "0", True):
        w = hostwcg_v0.env()
        w.reset(seed=0)
        with pytest.raises(AssertionError, match="action is not in action space"):
            w.step(bad)
    w = hostwcg_v0.env()
    w.reset(seed=0)
    actor = w.agent_selection
    illegal = int(np.flatnonzero(w.observe(actor)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w.step(illegal)
    assert w.terminations[actor] and w.rewards[actor] == -1


# ---------------------------------------------------------------------------- parallel_env


def test_parallel_step_needs_the_deciding_agents_action() -> None:
    p = hostwcg_v0.parallel_env()
    with pytest.raises(RuntimeError, match="before reset"):
        p.step({a: 0 for a in AGENTS})
    obs, _ = p.reset(seed=0)
    actor = p.aec.agent_selection
    other = AGENTS[1 - AGENTS.index(actor)]
    with pytest.raises(ValueError, match=f"no action for {actor}, the agent whose decision it is"):
        p.step({other: 0})
    with pytest.raises(ValueError, match="unknown agents"):
        p.step({actor: 0, "player_7": 0})
    with pytest.raises(TypeError, match="dict of agent -> action"):
        p.step([0, 0])  # type: ignore[arg-type]
    # the deciding agent's action alone is enough
    p.step({actor: int(np.flatnonzero(obs[actor]["action_mask"])[0])})


def test_parallel_step_after_the_end_says_reset() -> None:
    p = hostwcg_v0.parallel_env(turn_limit=2)
    obs, _ = p.reset(seed=0)
    while p.agents:
        actor = p.aec.agent_selection
        obs, *_ = p.step({actor: int(np.flatnonzero(obs[actor]["action_mask"])[0])})
    with pytest.raises(RuntimeError, match="after the game is over"):
        p.step({a: 0 for a in AGENTS})


# ---------------------------------------------------------------------------- SingleAgentEnv


def _play_out(s: SingleAgentEnv) -> None:
    done = False
    while not done:
        _, _, term, trunc, _ = s.step(int(np.flatnonzero(s.action_masks())[0]))
        done = term or trunc


def test_single_agent_calls_before_reset_say_reset() -> None:
    s = SingleAgentEnv(seed=0, render_mode="ansi")
    with pytest.raises(RuntimeError, match=r"action_masks\(\) before reset\(\): call env.reset\(\)"):
        s.action_masks()
    with pytest.raises(RuntimeError, match=r"step\(\) before reset\(\)"):
        s.step(0)


def test_single_agent_step_after_the_episode_raises() -> None:
    s = SingleAgentEnv(seed=0, turn_limit=3)
    s.reset(seed=0)
    _play_out(s)
    with pytest.raises(RuntimeError, match=r"after the game is over: call env.reset\(\)"):
        s.step(0)
    s.reset()
    s.step(int(np.flatnonzero(s.action_masks())[0]))


def test_single_agent_step_after_an_illegal_action_raises() -> None:
    s = SingleAgentEnv(seed=0)
    s.reset(seed=0)
    illegal = int(np.flatnonzero(~s.action_masks())[0])
    _, reward, term, _, info = s.step(illegal)
    assert reward == -1.0 and term and info["illegal_action"]
    with pytest.raises(RuntimeError, match="after the game is over"):
        s.step(int(np.flatnonzero(s.action_masks())[0]) if s.action_masks().any() else 0)


@pytest.mark.parametrize("bad", [N, -1, 10**6])
def test_single_agent_out_of_range_action_raises(bad: int) -> None:
    s = SingleAgentEnv(seed=0)
    s.reset(seed=0)
    with pytest.raises(ValueError, match=rf"outside the action space Discrete\({N}\)"):
        s.step(bad)


@pytest.mark.parametrize("bad", [True, 1.0, "3", None])
def test_single_agent_non_integer_action_raises(bad: Any) -> None:
    s = SingleAgentEnv(seed=0)
    s.reset(seed=0)
    with pytest.raises(TypeError, match="integer index"):
        s.step(bad)


def test_single_agent_renders_from_the_learners_seat() -> None:
    s = SingleAgentEnv(seed=0, render_mode="ansi")
    seen = set()
    for seed in range(2):
        _, info = s.reset(seed=seed)
        seat = AGENTS.index(info["seat"])
        seen.add(seat)
        game = s.aec.game
        assert s.render() == render_text(game, seat)
        assert s.render() != render_text(game, 1 - seat)  # not the opponent's side
    assert seen == {0, 1}


def test_single_agent_render_view_given_is_kept() -> None:
    s = SingleAgentEnv(seed=0, render_mode="ansi", render_view="spectator")
    s.reset(seed=1)
    assert s.render() == render_text(s.aec.game, "spectator")  # public cards only, as HTML and images


def test_seeded_resets_alternate_the_seat_and_repeat() -> None:
    s = SingleAgentEnv(seed=0)
    seats = [s.reset(seed=i)[1]["seat"] for i in range(6)]
    assert seats == ["player_0", "player_1"] * 3
    # the same seed gives the same episode (gymnasium's determinism check)
    a, _ = s.reset(seed=5)
    b, _ = s.reset(seed=5)
    assert np.array_equal(a, b)
    # unseeded resets after a seeded one keep alternating
    s.reset(seed=0)
    assert [s.reset()[1]["seat"] for _ in range(3)] == ["player_1", "player_0", "player_1"]


# ---------------------------------------------------------------------------- constructors


@pytest.mark.parametrize(("kw", "error", "needle"), [
    ({"decks": ["a.toml", "b.toml"]}, DeckError, "a.toml: FORMAT: cannot read the file"),
    ({"decks": ["krash", "brae"]}, DeckError, "no such deck .did you mean 'karsh'"),
    ({"decks": "karsh"}, ValueError, "give two decks"),
    ({"decks": [1, 2]}, TypeError, "a deck is a Deck"),
    ({"deck_pools": [[], []]}, ValueError, r"deck_pools\[0\] is empty"),
    ({"deck_pools": [[("Test Host", ["Squire"] * 50)]]}, ValueError, "two pools of decks"),
    ({"config": {"damage_draws": True}}, TypeError, "config must be a RuleConfig"),
], ids=["deck files missing", "deck name typo", "one deck name", "not decks", "empty pool", "one pool",
        "config dict"])
def test_env_constructor_refuses_bad_arguments(kw: dict[str, Any], error: type, needle: str) -> None:
    with pytest.raises(error, match=needle):
        hostwcg_v0.raw_env(**kw)


def test_env_takes_host_and_main_pairs_as_decks() -> None:
    pair = ("Test Host", ["Squire"] * 50)
    e = hostwcg_v0.raw_env(decks=[pair, pair])
    e.reset(seed=0)
    assert e.agents


@pytest.mark.parametrize(("kw", "needle"), [({"seat": 2}, "seat must be 'alternate', 0 or 1"),
                                            ({"seat": "player_1"}, "seat must be"),
                                            ({"opponent": []}, "the pool is empty")])
def test_single_agent_constructor_refuses_bad_arguments(kw: dict[str, Any], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        SingleAgentEnv(**kw)
