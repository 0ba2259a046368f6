"""Measure hostwcg_v1 (docs/env_v1.md "Figures"): env steps per second with random legal
actions on one core (seeded once), the size of one observation, the memory of one game.

    python scripts/bench_v1.py                 # all figures, ~1 minute
    python scripts/bench_v1.py --seconds 5     # shorter runs

* ``aec``: ``hostwcg_v1.raw_env``, every step observes the deciding agent (what an RL loop
  does) and takes a uniform legal action; steps of both players counted.
* ``vector``: ``hostwcg_v1.vector_env(n)`` with the batched random opponent; the learner's
  actions drawn uniformly from ``action_masks()``; learner steps and all steps (both players).
* ``memory``: traced Python allocations of n games (``tracemalloc``) after stepping them, per
  game, and the bytes of the two observation rows each game holds in the vector env.

``scripts/bench_v1.py`` is the command line; ``bench_aec``, ``bench_vector`` and
``bench_memory`` measure.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np

from hostwcg_env import hostwcg_v1


def bench_aec(seconds: float, seed: int = 0) -> dict[str, float]:
    e = hostwcg_v1.raw_env()
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        game = e.game
        assert game is not None  # the env was reset
        if not e.agents or game.is_over:
            e.reset()
            games += 1
            continue
        agent = e.agent_selection
        obs = e.observe_into(agent)
        e.step(int(rng.choice(np.flatnonzero(obs.mask))))
        steps += 1
    dt = time.perf_counter() - t0
    return {"steps_per_s": steps / dt, "games": games, "steps": steps}


def bench_vector(n: int, seconds: float, seed: int = 0) -> dict[str, float]:
    from hostwcg_env.env.v1.vector import RandomBatchPolicy

    random_opponent = RandomBatchPolicy(seed)
    opponent_steps = [0]

    def opponent(obs: dict[str, np.ndarray], masks: np.ndarray) -> np.ndarray:
        opponent_steps[0] += masks.shape[0]
        return random_opponent(obs, masks)

    v = hostwcg_v1.vector_env(n, opponent=opponent, seed=seed, copy_obs=False)
    v.reset()
    rng = np.random.default_rng(seed)
    learner = finished = 0
    opponent_steps[0] = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        masks = v.action_masks()
        u = rng.random(masks.shape)
        u[~masks] = -1
        _, _, dones, _ = v.step(u.argmax(axis=1))
        learner += n
        finished += int(dones.sum())
    dt = time.perf_counter() - t0
    return {"learner_steps_per_s": learner / dt, "steps_per_s": (learner + opponent_steps[0]) / dt,
            "games_finished": finished}


def bench_memory(n: int = 16, steps: int = 200, seed: int = 0) -> dict[str, float]:
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    v = hostwcg_v1.vector_env(n, seed=seed, copy_obs=False)
    v.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        masks = v.action_masks()
        u = rng.random(masks.shape)
        u[~masks] = -1
        v.step(u.argmax(axis=1))
    now = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    row_bytes = sum(b[0].nbytes for b in v.buffers.values()) * 2
    return {"bytes_per_game": (now - base) / n, "obs_row_bytes": row_bytes}
