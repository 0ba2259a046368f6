"""hostwcg_v1.vector_env: n games in one process as an SB3 VecEnv with a batched opponent;
hostwcg_v1.single_env: one game as a gymnasium Env (both checkers)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from stable_baselines3.common.vec_env import VecEnv

from hostwcg_env import hostwcg_v1
from hostwcg_env.env import AGENTS
from hostwcg_env.env.v1.encoder import fresh


def _random_actions(v, rng: np.random.Generator) -> np.ndarray:  # type: ignore[no-untyped-def]
    return np.array([rng.choice(np.flatnonzero(m)) for m in v.action_masks()])


def test_vector_env_is_a_vecenv_with_preallocated_rows() -> None:
    v = hostwcg_v1.vector_env(4, seed=1)
    assert isinstance(v, VecEnv) and v.num_envs == 4
    obs = v.reset()
    space = v.observation_space
    for k, arr in obs.items():
        assert arr.shape == (4, *space[k].shape) and arr.dtype == space[k].dtype, k
        assert v.buffers[k].shape == arr.shape
    for i in range(4):
        assert space.contains({k: a[i] for k, a in obs.items()})
    assert v.action_space.n == 266
    masks = v.action_masks()
    assert masks.shape == (4, 266) and masks.dtype == bool and masks.any(axis=1).all()
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    assert is_masking_supported(v) and np.array_equal(get_action_masks(v), masks)


def test_every_row_is_the_learners_observation_of_its_game() -> None:
    """Each row written in place equals a fresh encoding of that game from the learner's
    seat (its view, its memory, its legal actions), every step, across automatic resets."""
    v = hostwcg_v1.vector_env(3, seed=5)
    obs = v.reset()
    rng = np.random.default_rng(5)
    done_games = 0
    for _ in range(400):
        for i, e in enumerate(v.games):
            learner = AGENTS[int(v.seats[i])]
            assert e.agent_selection == learner and not e.game.is_over
            p = int(v.seats[i])
            f = fresh(e.game.view(p), e.memories[learner], e.legal.pairs, config=e.config)
            for k in f:
                assert np.array_equal(obs[k][i], f[k]), f"game {i}: {k} is not the learner's observation"
            assert np.array_equal(obs["action_mask"][i], e.action_mask(learner))
        obs, rewards, dones, infos = v.step(_random_actions(v, rng))
        for i in np.flatnonzero(dones):
            done_games += 1
            info = infos[i]
            assert rewards[i] in (-1.0, 0.0, 1.0)
            term = info["terminal_observation"]
            assert v.observation_space.contains(term)
            assert not term["action_mask"].any()  # the game is over: nothing to decide
            assert rewards[i] == (0.0 if info["winner"] is None else (1.0 if info["winner"] == info["seat"] else -1.0))
    assert done_games >= 3


def test_seats_alternate_and_rewards_follow_the_learner() -> None:
    v = hostwcg_v1.vector_env(2, seed=3)
    v.reset()
    seats: list[list[int]] = [[int(v.seats[0])], [int(v.seats[1])]]
    rng = np.random.default_rng(3)
    while min(len(s) for s in seats) < 4:
        _, _, dones, _ = v.step(_random_actions(v, rng))
        for i in np.flatnonzero(dones):
            seats[i].append(int(v.seats[i]))
    assert seats[0][:4] == [0, 1, 0, 1] and seats[1][:4] == [1, 0, 1, 0]
    fixed = hostwcg_v1.vector_env(2, seed=3, seat=1)
    fixed.reset()
    assert fixed.seats.tolist() == [1, 1]


def test_the_opponent_is_asked_once_for_all_the_games_that_wait_on_it() -> None:
    calls: list[int] = []

    def opponent(obs: dict[str, np.ndarray], masks: np.ndarray) -> np.ndarray:
        m = masks.shape[0]
        assert all(a.shape[0] == m for a in obs.values())
        calls.append(m)
        return np.array([np.flatnonzero(row)[0] for row in masks])  # the first legal action

    v = hostwcg_v1.vector_env(8, opponent=opponent, seed=2)
    v.reset()
    rng = np.random.default_rng(2)
    for _ in range(60):
        v.step(_random_actions(v, rng))
    assert max(calls) >= 4, "the games waiting on the opponent are batched"
    assert sum(calls) > len(calls)


def test_same_seed_same_games() -> None:
    def run(seed: int) -> list[np.ndarray]:
        v = hostwcg_v1.vector_env(2, seed=seed)
        out = [v.reset()["card_id"].copy()]
        rng = np.random.default_rng(0)
        for _ in range(50):
            out.append(v.step(_random_actions(v, rng))[0]["card_id"].copy())
        return out

    a, b, c = run(7), run(7), run(8)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_an_illegal_action_loses_that_game_only() -> None:
    v = hostwcg_v1.vector_env(2, seed=4)
    v.reset()
    masks = v.action_masks()
    bad = int(np.flatnonzero(~masks[0])[0])
    good = int(np.flatnonzero(masks[1])[0])
    _, rewards, dones, infos = v.step(np.array([bad, good]))
    assert dones[0] and rewards[0] == -1.0 and infos[0]["illegal_action"]
    assert "illegal_action" not in infos[1]
    assert v.action_masks()[0].any()  # game 0 started again


def test_an_illegal_opponent_action_raises() -> None:
    v = hostwcg_v1.vector_env(1, opponent=lambda obs, masks: np.array([int(np.flatnonzero(masks[0] == 0)[0])]),
                              seat=1, seed=0)
    with pytest.raises(ValueError, match="opponent policy chose an illegal action"):
        v.reset()


def test_bad_arguments_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="number of games"):
        hostwcg_v1.vector_env(0)
    with pytest.raises(ValueError, match="seat"):
        hostwcg_v1.vector_env(1, seat=2)
    with pytest.raises(ValueError, match="opponent"):
        hostwcg_v1.vector_env(1, opponent="heuristic")
    v = hostwcg_v1.vector_env(2)
    with pytest.raises(RuntimeError, match="reset"):
        v.step(np.array([0, 0]))
    v.reset()
    with pytest.raises(ValueError, match="one action per game"):
        v.step(np.array([0]))


def test_single_env_passes_the_gymnasium_and_sb3_checkers() -> None:
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SB3 recommends flat observations; v1's are 2-D by design
        check_env(hostwcg_v1.single_env(), skip_render_check=True)
        sb3_check_env(hostwcg_v1.single_env())


def test_single_env_plays_to_the_end() -> None:
    env = hostwcg_v1.single_env(seat=0)
    obs, info = env.reset(seed=3)
    assert info["seat"] == "player_0"
    rng = np.random.default_rng(3)
    for _ in range(5000):
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            break
    assert term or trunc
    assert reward in (-1.0, 0.0, 1.0) and not obs["action_mask"].any()
    with pytest.raises(RuntimeError, match="after the game is over"):
        env.step(0)


def test_maskable_ppo_trains_on_the_vector_env() -> None:
    """Smoke: SB3-contrib's MaskablePPO with its stock Dict policy runs on the VecEnv."""
    from sb3_contrib import MaskablePPO

    v = hostwcg_v1.vector_env(4, seed=0)
    model = MaskablePPO("MultiInputPolicy", v, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=64)
    assert model.num_timesteps >= 64


def test_gym_make_hostwcg_v1_is_the_single_env() -> None:
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    import hostwcg_env.env
    from hostwcg_env.env.v1.vector import SingleEnv

    assert hostwcg_env.env.GYM_ID == hostwcg_env.env.GYM_ID_V1 == "hostwcg/HostWCG-v1"
    env = gym.make(hostwcg_env.env.GYM_ID, opponent="random", seat=1)
    assert isinstance(env.unwrapped, SingleEnv) and env.spec is not None and env.spec.id == "hostwcg/HostWCG-v1"
    obs, info = env.reset(seed=0)
    assert info["seat"] == "player_1" and env.observation_space.contains(obs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)


def test_bench_v1_script_runs() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    run = subprocess.run([sys.executable, str(root / "scripts" / "bench_v1.py"), "--seconds", "0.3", "--n", "2",
                          "--memory-steps", "3"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert "4104 floats + 1994 integers" in out and "env steps/s" in out and "KiB per game" in out


def test_the_random_opponent_without_observations_plays_the_same_games() -> None:
    """The random opponent reads only the masks, so the vector env writes no observation for
    it; the games are those of the same random policy asked through the observation path."""
    from hostwcg_env.env.v1.vector import RandomBatchPolicy

    inner = RandomBatchPolicy(5)

    def through_observations(obs: dict[str, np.ndarray], masks: np.ndarray) -> np.ndarray:
        assert obs["action_mask"].any(axis=1).all()  # the opponent's rows were written
        return inner(obs, masks)

    runs = []
    for opp in (RandomBatchPolicy(5), through_observations):
        v = hostwcg_v1.vector_env(3, opponent=opp, seed=2)
        if isinstance(opp, RandomBatchPolicy):
            opp.reseed(5)  # seed() reseeded it with the env's seed; match the other
        out = [v.reset()["card_id"].copy()]
        rng = np.random.default_rng(0)
        for _ in range(60):
            out.append(v.step(_random_actions(v, rng))[0]["cards"].copy())
        runs.append(out)
        if isinstance(opp, RandomBatchPolicy):
            assert not v.opponent_buffers["action_mask"].any()
    assert all(np.array_equal(x, y) for x, y in zip(*runs, strict=True))


def test_an_engine_agent_opponent_decides_for_its_own_seat_from_its_view() -> None:
    from agents import make_agent

    heuristic = make_agent("heuristic", seed=0)
    players: list[int] = []

    class Seen:
        def choose(self, view, actions):  # type: ignore[no-untyped-def]
            players.append(view.player)
            return heuristic.choose(view, actions)

    v = hostwcg_v1.vector_env(2, opponent=Seen(), seat=0, seed=1)
    v.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        v.step(_random_actions(v, rng))
    assert players and set(players) == {1}
