"""The single-agent gymnasium view for Stable-Baselines3 (docs/env.md)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from hostwcg_env.env.single import RandomPolicy, SingleAgentEnv


def test_gymnasium_env_checker_passes() -> None:
    check_env(SingleAgentEnv(seed=0), skip_render_check=True)


def test_learner_seat_alternates_and_masks_are_legal() -> None:
    env = SingleAgentEnv(seed=1)
    seats = []
    rng = np.random.default_rng(0)
    for _ in range(4):
        obs, info = env.reset()
        seats.append(info["seat"])
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.any()
            obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = term or trunc
        assert reward in (-1.0, 0.0, 1.0)
    assert seats == ["player_0", "player_1", "player_0", "player_1"]


def test_opponent_pool_of_callables() -> None:
    calls = []

    def first_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        calls.append(1)
        return int(np.flatnonzero(mask)[0])

    env = SingleAgentEnv(opponent=[first_legal, RandomPolicy(3)], seed=2)
    env.reset(seed=2)
    for _ in range(30):
        _, _, term, trunc, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if term or trunc:
            env.reset()


def _make() -> SingleAgentEnv:
    return SingleAgentEnv(seed=7)


@pytest.mark.slow
def test_subproc_vec_env_and_maskable_ppo_trains() -> None:
    sb3 = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vec = make_vec_env(_make, n_envs=2, vec_env_cls=SubprocVecEnv)
    try:
        model = sb3.MaskablePPO("MlpPolicy", vec, n_steps=256, batch_size=128, n_epochs=1,
                                policy_kwargs={"net_arch": [64, 64]}, seed=0, verbose=0)
        model.learn(total_timesteps=2048)
        assert model.num_timesteps >= 2048
    finally:
        vec.close()


def test_opponents_are_policies_and_agent_names_are_resolved_by_the_caller() -> None:
    """The env takes policies (the env layer does not import the agents): an agent made by
    agents.make_agent plays; an agent name other than "random" is a clear error saying how;
    add_opponent makes a policy of a dict of weights with the env's from_weights."""
    from agents import make_agent
    from agents.ppo import DEFAULT, NumpyPolicy

    env = SingleAgentEnv(opponent=make_agent("heuristic", seed=1), seed=1)
    env.reset(seed=1)
    for _ in range(20):
        _, _, term, trunc, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if term or trunc:
            env.reset()
    with pytest.raises(ValueError, match=r"make the agent first: agents.make_agent\('heuristic'"):
        SingleAgentEnv(opponent="heuristic")
    with pytest.raises(TypeError, match="from_weights"):
        SingleAgentEnv(seed=0).add_opponent({"pi.0.weight": np.zeros((1, 1))})
    made: list[int] = []

    def from_weights(w: dict, seed: int) -> NumpyPolicy:
        made.append(seed)
        return NumpyPolicy(w, deterministic=False, seed=seed)

    weights = dict(np.load(DEFAULT))
    env = SingleAgentEnv(seed=3, from_weights=from_weights)
    assert env.add_opponent(weights) == 2 and len(made) == 1
