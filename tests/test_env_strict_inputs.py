"""Strict env inputs, the same through every env and wrapper (docs/env.md "Inputs"): integer
options are integers (no str, no bool, no float), seeds follow gymnasium's rule (None or a
non-negative int), ``action_mask`` checks an agent as ``observe`` does, and a step after the
game is over raises one error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from hostwcg_env import hostwcg_v0, hostwcg_v1
from hostwcg_env.env.single import SingleAgentEnv

MAKERS: dict[str, Callable[..., Any]] = {
    "v0 raw_env": hostwcg_v0.raw_env, "v0 env": hostwcg_v0.env, "v0 parallel_env": hostwcg_v0.parallel_env,
    "v1 raw_env": hostwcg_v1.raw_env, "v1 env": hostwcg_v1.env, "v1 parallel_env": hostwcg_v1.parallel_env,
    "SingleAgentEnv": SingleAgentEnv, "v1 single_env": hostwcg_v1.single_env,
    "v1 vector_env": lambda **kw: hostwcg_v1.vector_env(1, **kw),
}
AEC = ("v0 raw_env", "v0 env", "v1 raw_env", "v1 env")


@pytest.mark.parametrize("bad", ["5", True, 5.5, "abc"])
@pytest.mark.parametrize("kind", list(MAKERS))
def test_integer_options_take_integers_only(kind: str, bad: Any) -> None:
    with pytest.raises(TypeError, match=r"turn_limit must be an integer >= 1, got "):
        MAKERS[kind](turn_limit=bad)


@pytest.mark.parametrize("kind", list(MAKERS))
def test_integer_options_take_integers(kind: str) -> None:
    with pytest.raises(ValueError, match="turn_limit must be an integer >= 1, got 0"):
        MAKERS[kind](turn_limit=0)
    MAKERS[kind](turn_limit=5)
    MAKERS[kind](turn_limit=np.int64(5))


def _reset(kind: str, e: Any, seed: Any) -> None:
    if kind == "v1 vector_env":
        e.seed(seed)
    else:
        e.reset(seed=seed)


@pytest.mark.parametrize(("bad", "error"), [(1.5, TypeError), ("abc", TypeError), (True, TypeError),
                                            (np.int64(3), TypeError), (-1, ValueError)])
@pytest.mark.parametrize("kind", list(MAKERS))
def test_seeds_follow_gymnasiums_rule(kind: str, bad: Any, error: type) -> None:
    e = MAKERS[kind](turn_limit=3)
    with pytest.raises(error, match=r"seed must be None or a non-negative int \(gymnasium's rule\)"):
        _reset(kind, e, bad)
    _reset(kind, e, None)
    _reset(kind, e, 7)


@pytest.mark.parametrize("kind", ["SingleAgentEnv", "v1 vector_env"])
def test_constructor_seeds_follow_the_same_rule(kind: str) -> None:
    with pytest.raises(TypeError, match="seed must be None or a non-negative int"):
        MAKERS[kind](seed="abc")


@pytest.mark.parametrize("bad", [0, None, "", "player_2", 1.0])
@pytest.mark.parametrize("kind", AEC)
def test_action_mask_checks_the_agent_as_observe_does(kind: str, bad: Any) -> None:
    e = MAKERS[kind]()
    e.reset(seed=0)
    with pytest.raises(ValueError) as observed:
        e.observe(bad)
    with pytest.raises(ValueError) as masked:
        e.action_mask(bad)
    assert str(masked.value) == str(observed.value)
    assert f"unknown agent {bad!r}" in str(masked.value)
    assert np.array_equal(e.action_mask(), e.action_mask(e.agent_selection))
    assert e.action_mask().any()


def _finish(kind: str, e: Any) -> Any:
    """Play ``e`` to its end with the first legal action; the next ``step`` argument."""
    if kind.endswith("parallel_env"):
        obs, _ = e.reset(seed=0)
        while e.agents:
            actor = e.aec.agent_selection
            obs, *_ = e.step({actor: int(np.flatnonzero(obs[actor]["action_mask"])[0])})
        return {"player_0": 0, "player_1": 0}
    if kind in ("SingleAgentEnv", "v1 single_env"):
        e.reset(seed=0)
        done = False
        while not done:
            mask = e.action_masks()
            _, _, term, trunc, _ = e.step(int(np.flatnonzero(mask)[0]))
            done = term or trunc
        return 0
    e.reset(seed=0)
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(int(np.flatnonzero(e.action_mask(agent))[0]))
    return 0


@pytest.mark.parametrize("kind", [k for k in MAKERS if k != "v1 vector_env"])
def test_stepping_a_finished_game_raises_one_error_through_every_wrapper(kind: str) -> None:
    e = MAKERS[kind](turn_limit=2)
    action = _finish(kind, e)
    with pytest.raises(RuntimeError) as err:
        e.step(action)
    assert str(err.value) == "step() after the game is over: call env.reset() to start a new game"
