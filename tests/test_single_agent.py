"""The single-agent gymnasium view for Stable-Baselines3 (docs/env.md)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from hostwcg_env import hostwcg_v0
from hostwcg_env.env import AGENTS
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


def _pick(obs: np.ndarray, mask: np.ndarray) -> int:
    """A policy that is a function of what it sees: the same observation, the same choice."""
    legal = np.flatnonzero(mask)
    return int(legal[zlib.crc32(obs.tobytes()) % len(legal)])


def test_learner_is_never_asked_a_one_action_decision() -> None:
    """Inside SingleAgentEnv neither seat observes the other's stops, so every decision with
    one legal action, of either seat, is taken without asking: the learner is asked only
    where it has a choice (the AEC env asks some one-action stops: who is asked must tell
    the other agent nothing there)."""
    env = SingleAgentEnv(seed=3)
    rng = np.random.default_rng(3)
    asked = 0
    for _ in range(6):
        env.reset()
        done = False
        while not done:
            g = env.aec.game
            assert g is not None and g.decision is not None
            assert g.decision.player == AGENTS.index(env.learner)
            mask = env.action_masks()
            assert mask.sum() >= 2 and len(g.decision.actions) == mask.sum()
            _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = term or trunc
            asked += 1
    assert asked > 100


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_single_agent_plays_the_games_the_aec_env_plays(seed: int) -> None:
    """The same game as the AEC env where every stop is played: with policies that are
    functions of what they see, SingleAgentEnv's game (its event log, its end, its reward)
    equals raw_env's from the same seed, and the learner's observations are exactly the
    AEC env's observations of the learner at its decisions with more than one legal action."""
    sae = SingleAgentEnv(opponent=_pick, seed=seed)
    game_seeds: list[int | None] = []
    aec_reset = sae.aec.reset

    def reset(seed: int | None = None, options: dict | None = None) -> None:
        game_seeds.append(seed)
        aec_reset(seed=seed, options=options)

    sae.aec.reset = reset  # type: ignore[method-assign]
    obs, info = sae.reset(seed=seed)
    learner = info["seat"]
    seen_by_learner = [obs]
    done = False
    while not done:
        obs, reward, term, trunc, info = sae.step(_pick(obs, sae.action_masks()))
        seen_by_learner.append(obs)
        done = term or trunc
    g1 = sae.aec.game
    assert g1 is not None and g1.is_over

    ref = hostwcg_v0.raw_env()
    ref.reset(seed=game_seeds[0])
    choices = []
    end: tuple[float, bool, bool] | None = None
    for agent in ref.agent_iter():
        o, r, t, tr, _i = ref.last()
        if t or tr:
            if agent == learner:
                end = (r, t, tr)
            ref.step(None)
            continue
        if agent == learner and o["action_mask"].sum() > 1:
            choices.append(o["observation"])
        ref.step(_pick(o["observation"], o["action_mask"]))
    g2 = ref.game
    assert g2 is not None
    assert [str(e) for e in g1.state.events] == [str(e) for e in g2.state.events]
    assert ((g1.winner, g1.state.reason, g1.state.decisions_total)
            == (g2.winner, g2.state.reason, g2.state.decisions_total))
    assert (reward, term, trunc) == end
    assert len(choices) == len(seen_by_learner) - 1  # the last observation is the end's
    assert all(np.array_equal(a, b) for a, b in zip(choices, seen_by_learner, strict=False))


def test_random_opponent_plays_the_same_without_an_observation() -> None:
    """The built-in random opponent reads the mask alone, so the env does not encode its
    observation; it plays exactly what the same policy given its observation plays."""
    seen = []
    for wrap in (False, True):
        rp = RandomPolicy(7)
        opponent = (lambda o, m, rp=rp: rp.act(o, m)) if wrap else rp
        env = SingleAgentEnv(opponent=opponent, seed=3)
        trace = []
        for _ in range(2):
            obs, _ = env.reset()
            done = False
            while not done:
                obs, reward, term, trunc, _ = env.step(_pick(obs, env.action_masks()))
                trace.append((obs.tobytes(), reward, term, trunc))
                done = term or trunc
        seen.append(trace)
    assert len(seen[0]) > 20 and seen[0] == seen[1]


def test_an_illegal_opponent_action_says_the_opponent_chose_it() -> None:
    """The opponent is asked through the one single-agent and vector core, which names the
    opponent as the one that chose an illegal action (a ValueError, as IllegalActionError is)."""

    def illegal(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    env = SingleAgentEnv(opponent=illegal, seat=0, seed=0)
    with pytest.raises(ValueError, match="the opponent policy chose an illegal action"):
        env.reset()
        for _ in range(200):
            env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_the_v0_env_and_the_core_import_neither_stable_baselines3_nor_torch() -> None:
    """SingleAgentEnv runs on the one stack's core (``hostwcg_env.env.batch``), which leaves
    Stable-Baselines3 (and so torch) to the VecEnv views: playing v0 stays a light import."""
    import subprocess
    import sys

    code = ("import sys; import hostwcg_env.env.single, hostwcg_env.env.batch; "
            "print(sorted(m for m in ('stable_baselines3', 'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"
