"""One env core, one observer per version (docs/env.md "Observers"): hostwcg_v0 and
hostwcg_v1 share the AEC class and the parallel class, and a new observation is one class
satisfying ``hostwcg_env.env.observers.Observer``."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo.test import api_test, parallel_api_test

from hostwcg_env import hostwcg_v0, hostwcg_v1
from hostwcg_env.engine import Action, Game, RuleConfig
from hostwcg_env.env.aec import HostAECEnv, StandardWrappers
from hostwcg_env.env.codec import Codec
from hostwcg_env.env.layout import action_layout
from hostwcg_env.env.observers import Observer
from hostwcg_env.env.observers.v0 import V0Observer
from hostwcg_env.env.observers.v1 import V1Observer
from hostwcg_env.env.parallel import HostParallelEnv

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
    v0's flat codec."""

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
