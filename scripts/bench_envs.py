"""Env and peer benchmark rows for scripts/bench.py (README.md "Speed").

hostwcg_v0 through ``env()`` (standard wrappers) and ``raw_env()``, random masked actions,
observing every step; memory per env; and the same throughput for the peers when installed
(``make bench`` builds .venv-bench with them): PettingZoo classic leduc_holdem_v4 and
connect_four_v3 (``env()`` and ``raw_env()``) and gym-locm's battle env (rules 1.2 and 1.5).
A peer that is not installed gives no row.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

Row = tuple[str, float, str]
STEPS_PER_GAME = 120  # env steps measured per --games (50 games -> 6,000 steps)


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random legal index: the same sampler for every env measured here.

    About 2 us a call; ``np.random.Generator.choice(np.flatnonzero(mask))`` costs about 10 us,
    which is harness time, not env time, and would flatten every ratio toward 1."""
    idx = mask.nonzero()[0]
    return int(idx[rng.randrange(len(idx))])


def _aec_steps(make: Callable[[], Any], steps: int, seed: int) -> tuple[float, float]:
    """Steps/s and games/s of an AEC env with random masked actions, observing every step;
    seeded on the first reset only, later resets unseeded, as a training loop (and the shared
    peers harness) runs: reseeding every episode costs some envs more than others."""
    e = make()
    rng = random.Random(seed)
    n = games = 0
    t0 = time.perf_counter()
    e.reset(seed=seed)
    first = True
    while n < steps:
        if not first:
            e.reset()
        first = False
        for agent in e.agent_iter():
            obs, _r, term, trunc, _i = e.last()
            if term or trunc:
                e.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else None
            a = pick(mask, rng) if mask is not None else e.action_space(agent).sample()
            e.step(a)
            n += 1
        games += 1
    dt = time.perf_counter() - t0
    return n / dt, games / dt


def _steps(cfg: Any) -> int:
    return STEPS_PER_GAME * cfg.games


def bench_env_wrapped(cfg: Any) -> Row:
    from hostwcg_env import hostwcg_v0

    return "hostwcg_v0 env() (wrappers)", _aec_steps(hostwcg_v0.env, _steps(cfg), cfg.seed)[0], "steps/s"


def bench_env_raw(cfg: Any) -> Row:
    from hostwcg_env import hostwcg_v0

    return "hostwcg_v0 raw_env()", _aec_steps(hostwcg_v0.raw_env, _steps(cfg), cfg.seed)[0], "steps/s"


def bench_env_games(cfg: Any) -> Row:
    from hostwcg_env import hostwcg_v0

    return "hostwcg_v0 env() full games", _aec_steps(hostwcg_v0.env, _steps(cfg), cfg.seed)[1], "games/s"


def bench_env_reset(cfg: Any) -> Row:
    from hostwcg_env import hostwcg_v0

    e = hostwcg_v0.env()
    t0 = time.perf_counter()
    n = 2 * cfg.games
    for i in range(n):
        e.reset(seed=i)
    return "hostwcg_v0 reset()", 1e3 * (time.perf_counter() - t0) / n, "ms/reset"


def bench_env_memory(cfg: Any) -> Row:
    from hostwcg_env import hostwcg_v0

    tracemalloc.start()
    envs = []
    base = tracemalloc.get_traced_memory()[0]
    for i in range(10):
        e = hostwcg_v0.env()
        e.reset(seed=i)
        envs.append(e)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return "hostwcg_v0 memory per env", used / 10 / 1024, "KiB"


def _pz(name: str, raw: bool) -> Callable[[Any], Row]:
    def bench(cfg: Any) -> Row:
        import importlib

        mod = importlib.import_module(f"pettingzoo.classic.{name}")
        make = mod.raw_env if raw else mod.env
        return f"peer {name} {'raw_env()' if raw else 'env()'}", _aec_steps(make, _steps(cfg), cfg.seed)[0], "steps/s"

    bench.__name__ = f"bench_peer_{name}_{'raw' if raw else 'env'}"
    return bench


def _locm(version: str) -> Callable[[Any], Row]:
    def bench(cfg: Any) -> Row:
        """gym-locm's battle as the shared peers harness drives it: the two-player env
        (``LOCM-battle-2p-v0``, both seats played by the random legal policy, every step a
        decision of one of them; the single-agent env would hide its built-in opponent's
        moves inside each step), seeded once when made, every reset unseeded."""
        import warnings

        import gym_locm  # noqa: F401  (registers the envs)
        import gymnasium as gym

        warnings.filterwarnings("ignore")
        e = gym.make("LOCM-battle-2p-v0", version=version, seed=cfg.seed)
        u = e.unwrapped
        rng = random.Random(cfg.seed)
        n = 0
        t0 = time.perf_counter()
        while n < _steps(cfg) // 2:
            e.reset()
            done = False
            while not done:
                mask = np.asarray(u.action_mask, dtype=bool)
                _o, _r, term, trunc, _i = e.step(pick(mask, rng))
                done = term or trunc
                n += 1
        return f"peer gym-locm battle {version}", n / (time.perf_counter() - t0), "steps/s"

    bench.__name__ = f"bench_peer_locm_{version.replace('.', '_')}"
    return bench


def available() -> list[Callable[[Any], Row]]:
    rows: list[Callable[[Any], Row]] = [bench_env_wrapped, bench_env_raw, bench_env_games, bench_env_reset,
                                        bench_env_memory]
    try:
        import pettingzoo.classic.leduc_holdem_v4  # noqa: F401

        rows += [_pz("leduc_holdem_v4", False), _pz("leduc_holdem_v4", True),
                 _pz("connect_four_v3", False), _pz("connect_four_v3", True)]
    except Exception:  # noqa: BLE001 (rlcard or pygame missing: no peer row)
        pass
    try:
        import gym_locm  # noqa: F401

        rows += [_locm("1.2"), _locm("1.5")]
    except Exception:  # noqa: BLE001
        pass
    return rows


def ratios(results: list[dict[str, Any]]) -> list[str]:
    """The ratios README.md "Speed" reports: hostwcg_v0 env() against each peer. With the runs of
    every round (``runs``, interleaved), the ratio is the median of the per-round ratios, each
    taken from runs made side by side, with their range; else the ratio of the medians."""
    import statistics

    by = {r["name"]: r for r in results}
    ours = by.get("hostwcg_v0 env() (wrappers)")
    if not ours or not ours["median"]:
        return []
    out = []
    for name, r in by.items():
        if not name.startswith("peer ") or not r["median"]:
            continue
        a, b = ours.get("runs"), r.get("runs")
        if a and b and len(a) == len(b) and all(b):
            per = [x / y for x, y in zip(a, b, strict=True)]
            out.append(f"hostwcg_v0 env() / {name[5:]}: {statistics.median(per):.2f}x "
                       f"(per round {min(per):.2f}x - {max(per):.2f}x)")
        else:
            out.append(f"hostwcg_v0 env() / {name[5:]}: {ours['median'] / r['median']:.2f}x")
    return out
