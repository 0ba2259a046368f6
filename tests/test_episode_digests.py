"""The episodes a learner sees through the single-agent and vector envs are pinned: for a few
seeds, opponents (random, observation-reading callables, an engine-level agent, pools) and
both versions, everything the learner is shown (observation, mask, reward, flags, info) and
every action it takes is hashed, one SHA-256 digest per case, kept in
``tests/golden/episode_digests.json``. The digests were taken from the envs as they were
before v0's ``SingleAgentEnv`` and v1's vector env came to share one core
(``hostwcg_env.env.batch``); refactoring must leave every digest as it is.

Regenerate only for a deliberate change of an env version (never for a refactor):
``python tests/test_episode_digests.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hostwcg_env import hostwcg_v1
from hostwcg_env.env.single import RandomPolicy, SingleAgentEnv

FIXTURE = Path(__file__).resolve().parent / "golden" / "episode_digests.json"


class Digest:
    """A running SHA-256 of what the learner sees and does, and a count of the steps."""

    def __init__(self) -> None:
        self.h = hashlib.sha256()
        self.steps = 0

    def array(self, a: Any) -> None:
        a = np.ascontiguousarray(a)
        self.h.update(f"{a.dtype.str}{a.shape}".encode())
        self.h.update(a.tobytes())

    def obs(self, o: Any) -> None:
        if isinstance(o, dict):
            for k in sorted(o):
                self.h.update(k.encode())
                self.array(o[k])
        else:
            self.array(o)

    def info(self, info: dict[str, Any]) -> None:
        for k in sorted(info):
            v = info[k]
            self.h.update(k.encode())
            if k == "terminal_observation":
                self.obs(v)
            else:
                self.h.update(repr(v).encode())

    def value(self, *xs: Any) -> None:
        self.h.update(repr(xs).encode())


def _crc_pick(obs: np.ndarray, mask: np.ndarray) -> int:
    """A per-game policy that is a function of what it sees."""
    legal = np.flatnonzero(mask)
    return int(legal[zlib.crc32(np.ascontiguousarray(obs).tobytes()) % len(legal)])


def _crc_batch(obs: dict[str, np.ndarray], masks: np.ndarray) -> np.ndarray:
    """A batched policy that is a function of what it sees (every row of every array)."""
    out = []
    for j in range(masks.shape[0]):
        crc = 0
        for k in sorted(obs):
            crc = zlib.crc32(np.ascontiguousarray(obs[k][j]).tobytes(), crc)
        legal = np.flatnonzero(masks[j])
        out.append(int(legal[crc % len(legal)]))
    return np.array(out)


def _heuristic(seed: int) -> Any:
    from agents import make_agent

    return make_agent("heuristic", seed=seed)


def _learner_action(rng: np.random.Generator, mask: np.ndarray, illegal: bool) -> int:
    if illegal and not mask.all():
        return int(np.flatnonzero(~mask.astype(bool))[0])
    return int(rng.choice(np.flatnonzero(mask)))


def play_single(make: Callable[[], Any], seed: int, episodes: int, illegal_at: int = -1,
                reseed_each: bool = False) -> dict[str, Any]:
    """``episodes`` episodes of a gymnasium single-agent env with a seeded uniform learner;
    the first reset seeded (or every one, ``reseed_each``), the step ``illegal_at`` (counted
    over the whole run) an illegal action."""
    env = make()
    d = Digest()
    rng = np.random.default_rng(12345)
    for ep in range(episodes):
        obs, info = env.reset(seed=(seed + ep if reseed_each else seed) if (ep == 0 or reseed_each) else None)
        d.obs(obs)
        d.info(info)
        done = False
        while not done:
            mask = env.action_masks()
            d.array(mask)
            a = _learner_action(rng, mask, d.steps == illegal_at)
            obs, reward, term, trunc, info = env.step(a)
            d.value(a, float(reward), bool(term), bool(trunc))
            d.obs(obs)
            d.info(info)
            d.steps += 1
            done = term or trunc
        if env.render_mode == "ansi":
            d.value(env.render())
    return {"digest": d.h.hexdigest(), "steps": d.steps}


def play_vector(make: Callable[[], Any], steps: int, illegal_every: int = 0) -> dict[str, Any]:
    """``steps`` steps of a v1 vector env with a seeded uniform learner in every game; with
    ``illegal_every`` the game ``t % n`` plays an illegal action at each step ``t`` that it
    divides."""
    v = make()
    d = Digest()
    rng = np.random.default_rng(6789)
    obs = v.reset()
    d.obs(obs)
    for info in v.reset_infos:
        d.info(info)
    for t in range(steps):
        masks = v.action_masks()
        d.array(masks)
        acts = np.array([_learner_action(rng, masks[i], bool(illegal_every) and t % illegal_every == 0
                                         and i == t % v.num_envs) for i in range(v.num_envs)])
        obs, rewards, dones, infos = v.step(acts)
        d.array(acts)
        d.array(rewards)
        d.array(dones)
        d.obs(obs)
        for info in infos:
            d.info(info)
        d.steps += 1
    d.array(v.seats)
    return {"digest": d.h.hexdigest(), "steps": d.steps}


CASES: dict[str, Callable[[], dict[str, Any]]] = {
    # hostwcg_v0: SingleAgentEnv
    "v0_random": lambda: play_single(lambda: SingleAgentEnv(seed=0), 0, 3),
    "v0_heuristic": lambda: play_single(lambda: SingleAgentEnv(opponent=_heuristic(1), seed=1), 1, 2),
    "v0_callable": lambda: play_single(lambda: SingleAgentEnv(opponent=_crc_pick, seed=2), 2, 2),
    "v0_pool_illegal": lambda: play_single(
        lambda: SingleAgentEnv(opponent=[RandomPolicy(4), _crc_pick, "random"], seed=3), 3, 4, illegal_at=40),
    "v0_seat1_turn_limit_render": lambda: play_single(
        lambda: SingleAgentEnv(seat=1, seed=4, turn_limit=5, render_mode="ansi"), 4, 3, reseed_each=True),
    "v0_test_decks_unseeded_env": lambda: play_single(
        lambda: SingleAgentEnv(opponent=_crc_pick, decks="test"), 5, 2),
    # hostwcg_v1: the vector env and the single env
    "v1_vector_random": lambda: play_vector(lambda: hostwcg_v1.vector_env(3, seed=0), 120),
    "v1_vector_callable_illegal": lambda: play_vector(
        lambda: hostwcg_v1.vector_env(3, opponent=_crc_batch, seed=1), 120, illegal_every=17),
    "v1_vector_heuristic_seat1": lambda: play_vector(
        lambda: hostwcg_v1.vector_env(2, opponent=_heuristic(2), seed=2, seat=1), 100),
    "v1_vector_pool_turn_limit": lambda: play_vector(
        lambda: hostwcg_v1.vector_env(3, opponent=["random", _crc_batch, _heuristic(3)], seed=3, turn_limit=6),
        150),
    "v1_single_random": lambda: play_single(lambda: hostwcg_v1.single_env(), 0, 2),
    "v1_single_heuristic_render": lambda: play_single(
        lambda: hostwcg_v1.single_env(opponent=_heuristic(4), render_mode="ansi", turn_limit=8), 4, 3,
        illegal_at=5, reseed_each=True),
}


def _expected() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(FIXTURE.read_text())
    return data


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_learner_sees_the_recorded_episodes(case: str) -> None:
    want = _expected()[case]
    got = CASES[case]()
    assert got["steps"] == want["steps"], f"{case}: {got['steps']} learner steps, recorded {want['steps']}"
    assert got["digest"] == want["digest"], f"{case}: the same number of steps, but what the learner saw differs"


def test_every_case_is_recorded() -> None:
    assert sorted(_expected()) == sorted(CASES)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_episode_digests.py --write  (regenerates the fixture)")
    FIXTURE.write_text(json.dumps({k: CASES[k]() for k in sorted(CASES)}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {FIXTURE}")
