"""One env core, one observer per version (docs/env.md "Observers"): hostwcg_v0 and
hostwcg_v1 share the AEC class, the parallel class and the single-agent and vector stack, and
a new observation is one class satisfying ``hostwcg_env.env.observers.Observer``."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

from hostwcg_env import hostwcg_v0, hostwcg_v1
from hostwcg_env.engine import Action, Game, RuleConfig
from hostwcg_env.env.aec import HostAECEnv, StandardWrappers
from hostwcg_env.env.codec import Codec
from hostwcg_env.env.layout import action_layout
from hostwcg_env.env.observers import Observer, Skip
from hostwcg_env.env.observers.v0 import V0Observer
from hostwcg_env.env.observers.v1 import V1Observer
from hostwcg_env.env.parallel import HostParallelEnv
from hostwcg_env.env.single import SingleAgentEnv
from hostwcg_env.env.v1.vector import SingleEnv, VectorEnv
from hostwcg_env.env.vector import GameBatch, HostSingleEnv, HostVectorEnv

LIFECYCLE = ("__init__", "reset", "start_from", "_settle", "_apply", "step", "observe", "action_mask",
             "render", "_repr_html_", "close", "observation_space", "action_space")


def test_versions_share_one_aec_class() -> None:
    """A version's raw_env only binds its observer: the lifecycle is HostAECEnv's."""
    for raw in (hostwcg_v0.raw_env, hostwcg_v1.raw_env):
        assert issubclass(raw, HostAECEnv)
        assert not set(LIFECYCLE) & set(vars(raw)), f"{raw.__module__}.raw_env redefines the lifecycle"
    assert type(hostwcg_v0.raw_env().observer) is V0Observer
    assert type(hostwcg_v1.raw_env().observer) is V1Observer
    assert hostwcg_v0.raw_env.metadata["name"] == "hostwcg_v0"
    assert hostwcg_v1.raw_env.metadata["name"] == "hostwcg_v1"


def test_versions_share_one_parallel_class() -> None:
    for make, raw in ((hostwcg_v0.parallel_env, hostwcg_v0.raw_env), (hostwcg_v1.parallel_env, hostwcg_v1.raw_env)):
        p = make()
        assert isinstance(p, HostParallelEnv) and type(p.aec) is raw
        assert not {"reset", "step", "render", "close"} & set(vars(type(p))) - set(vars(HostParallelEnv))
    assert hostwcg_v1.parallel_env().metadata["name"] == "hostwcg_v1"


def test_observers_satisfy_the_protocol() -> None:
    o0: Observer = V0Observer(RuleConfig())  # mypy checks the protocol on these lines
    o1: Observer = V1Observer(RuleConfig())
    assert o0.layout.n == o1.layout.n  # the same action space


class HandObserver:
    """A toy version in one class: a player sees its hand size and the turn, and acts through
    v0's flat codec; its single-agent and vector envs take every one-action decision."""

    skip: Skip = "forced"

    def __init__(self, config: RuleConfig) -> None:
        self.layout = action_layout(config)
        self.codec = Codec(self.layout)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1000, (2,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.n,), np.int8),
        })
        self.applied = 0

    def reset(self) -> None:
        self.applied = 0

    def refresh(self, game: Game) -> None:
        self.codec.refresh(game)

    def before_apply(self, game: Game, player: int, action: Action) -> None:
        self.applied += 1

    def decode(self, game: Game, index: int) -> Action | None:
        return self.codec.decode(game, index)

    def mask(self, game: Game) -> np.ndarray:
        return self.codec.mask(game)

    def observe(self, game: Game, player: int, deciding: bool) -> dict[str, np.ndarray]:
        v = game.view(player)
        obs = np.array([len(v.hand()), game.state.turn], dtype=np.float32)
        mask = self.codec.mask(game).copy() if deciding else np.zeros(self.layout.n, np.int8)
        return {"observation": obs, "action_mask": mask}


class hand_env(HostAECEnv):  # noqa: N801
    metadata = {**HostAECEnv.metadata, "name": "hostwcg_hand"}

    def make_observer(self, config: RuleConfig) -> Observer:
        return HandObserver(config)


class HandParallel(HostParallelEnv):
    metadata = {**HostParallelEnv.metadata, "name": "hostwcg_hand"}
    aec_class = hand_env


def test_a_new_version_is_one_observer() -> None:
    """An observer alone makes a working version: PettingZoo's API tests pass, wrapped,
    raw and parallel, and the observer hears of every action before it is applied."""
    e = hand_env(decks="test")
    api_test(StandardWrappers(e), num_cycles=200)
    api_test(hand_env(decks="test"), num_cycles=200)
    parallel_api_test(HandParallel(decks="test"), num_cycles=200)
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)
    assert obs["observation"].shape == (2,) and obs["action_mask"].any()
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert isinstance(e.observer, HandObserver) and e.observer.applied >= 1


def test_versions_share_one_single_agent_and_vector_stack() -> None:
    """v0's SingleAgentEnv and v1's vector and single envs are views over one core; each
    version's skipping is its observer's declaration."""
    assert isinstance(SingleAgentEnv().core, GameBatch) and SingleAgentEnv().core.skip == "forced"
    assert issubclass(VectorEnv, HostVectorEnv) and issubclass(SingleEnv, HostSingleEnv)
    assert VectorEnv(1).skip == "public"
    for cls in (VectorEnv, SingleEnv):
        assert not set(vars(cls)) & {"__init__", "reset", "step", "step_wait", "advance", "_play_opponent"}
    assert V0Observer.skip == "forced" and V1Observer.skip == "public"


class HandVector(HostVectorEnv):
    aec_class = hand_env


class HandSingle(HostSingleEnv):
    vector_class = HandVector


class PublicHandObserver(HandObserver):
    skip: Skip = "public"


class public_hand_env(HostAECEnv):  # noqa: N801
    metadata = {**HostAECEnv.metadata, "name": "hostwcg_hand_public"}

    def make_observer(self, config: RuleConfig) -> Observer:
        return PublicHandObserver(config)


class PublicHandVector(HostVectorEnv):
    aec_class = public_hand_env


def _first_legal(obs: dict[str, np.ndarray], masks: np.ndarray) -> np.ndarray:
    return np.array([int(np.flatnonzero(m)[0]) for m in masks])


def test_a_new_version_gets_single_agent_and_vector_envs_from_its_observer() -> None:
    """The toy observer alone, bound in one line each, makes a gymnasium env that passes
    gymnasium's checker and a vector env whose rows are the observer's observations; with
    ``skip = "forced"`` the learner is never asked a one-action decision, with ``"public"``
    it is asked wherever the AEC env asks it."""
    check_env(HandSingle(decks="test", seed=0), skip_render_check=True)
    single = HandSingle(decks="test", opponent=_first_legal)
    rng = np.random.default_rng(0)
    for ep in range(3):
        obs, info = single.reset(seed=ep)
        done = False
        while not done:
            assert obs["observation"].shape == (2,) and single.action_masks().sum() >= 2
            obs, reward, term, trunc, info = single.step(int(rng.choice(np.flatnonzero(single.action_masks()))))
            done = term or trunc
        assert reward in (-1.0, 0.0, 1.0) and info["winner"] in (None, "player_0", "player_1")
    for cls, skip in ((HandVector, "forced"), (PublicHandVector, "public")):
        v = cls(3, opponent=["random", _first_legal], seed=1, decks="test")
        assert v.skip == skip
        obs = v.reset()
        one_action_asks = finished = 0
        for _ in range(150):
            for i, e in enumerate(v.games):
                g = e.game
                assert g is not None and g.decision is not None and g.decision.player == v.seats[i]
                one_action_asks += len(g.decision.actions) == 1
                fresh = e.observer.observe(g, int(v.seats[i]), True)
                assert all(np.array_equal(obs[k][i], fresh[k]) for k in fresh)
            masks = v.action_masks()
            v.step_async(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
            obs, rewards, dones, infos = v.step_wait()
            finished += int(dones.sum())
        assert finished >= 1
        assert (one_action_asks == 0) == (skip == "forced"), (skip, one_action_asks)


def test_an_observer_without_a_skip_is_refused_by_name() -> None:
    class NoSkip(HandObserver):
        skip = "sometimes"  # type: ignore[assignment]

    class no_skip_env(HostAECEnv):  # noqa: N801
        def make_observer(self, config: RuleConfig) -> Observer:
            return NoSkip(config)  # type: ignore[return-value]

    class NoSkipVector(HostVectorEnv):
        aec_class = no_skip_env

    with pytest.raises(TypeError, match=r"NoSkip.skip must be one of \['forced', 'public'\].*got 'sometimes'"):
        NoSkipVector(1, decks="test")
