"""Env and peer benchmark rows for hostwcg_env.testing.bench (scripts/bench.py) (docs/engine.md "Measuring").

hostwcg_v0 through ``env()`` (standard wrappers) and ``raw_env()``, random masked actions,
observing every step; resets; memory per env; and the same throughput for the peers when
installed (``make bench`` builds .venv-bench with them): PettingZoo classic leduc_holdem_v4 and
connect_four_v3 (``env()`` and ``raw_env()``) and gym-locm's battle env (rules 1.2 and 1.5).
A peer that is not installed gives no row.

Every env is seeded once and then reset unseeded, as a training loop does (reseeding every
episode costs some peers more than others); bench.py runs each row in its own process.
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

STEPS_PER_GAME = 120  # env steps measured per --games (50 games -> 6,000 steps)


@dataclass
class Row:
    """One measurement: a name, a unit, the rate per wall-clock second and per CPU second."""

    name: str
    unit: str
    wall: float
    cpu: float


def _row(name: str, unit: str, wall: float, cpu: float) -> Row:
    return Row(name, unit, wall, cpu)


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random legal index: the same sampler for every env measured here.

    About 2 us a call; ``np.random.Generator.choice(np.flatnonzero(mask))`` costs about 10 us,
    which is harness time, not env time, and would flatten every ratio toward 1."""
    idx = mask.nonzero()[0]
    return int(idx[rng.randrange(len(idx))])


def _aec_steps(make: Callable[[], Any], steps: int, seed: int) -> tuple[float, float, float]:
    """Steps/s (wall), steps per CPU second and games/s of an AEC env with random masked
    actions, observing every step; seeded on the first reset only."""
    e = make()
    rng = random.Random(seed)
    e.reset(seed=seed)
    n = games = 0
    w0, c0 = time.perf_counter(), time.process_time()
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
    wall = time.perf_counter() - w0
    cpu = max(time.process_time() - c0, 1e-9)
    return n / wall, n / cpu, games / wall


def _steps(cfg: Any) -> int:
    return STEPS_PER_GAME * cfg.games


def bench_env_wrapped(cfg: Any) -> Row:
    from hostwcg_env import hostwcg_v0

    wall, cpu, _g = _aec_steps(hostwcg_v0.env, _steps(cfg), cfg.seed)
    return _row("hostwcg_v0 env() (wrappers)", "steps/s", wall, cpu)


def bench_env_raw(cfg: Any) -> Row:
    from hostwcg_env import hostwcg_v0

    wall, cpu, _g = _aec_steps(hostwcg_v0.raw_env, _steps(cfg), cfg.seed)
    return _row("hostwcg_v0 raw_env()", "steps/s", wall, cpu)


def bench_env_games(cfg: Any) -> Row:
    from hostwcg_env import hostwcg_v0

    wall, cpu, games = _aec_steps(hostwcg_v0.env, _steps(cfg), cfg.seed)
    return _row("hostwcg_v0 env() full games", "games/s", games, games * cpu / wall)


def bench_env_reset(cfg: Any) -> Row:
    from hostwcg_env import hostwcg_v0

    e = hostwcg_v0.env()
    e.reset(seed=cfg.seed)
    n = 2 * cfg.games
    w0, c0 = time.perf_counter(), time.process_time()
    for _ in range(n):
        e.reset()
    wall, cpu = time.perf_counter() - w0, max(time.process_time() - c0, 1e-9)
    return _row("hostwcg_v0 reset()", "resets/s", n / wall, n / cpu)


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
    kib = used / 10 / 1024
    return _row("hostwcg_v0 memory per env", "KiB", kib, kib)


def _pz(name: str, raw: bool) -> Callable[[Any], Row]:
    def bench(cfg: Any) -> Row:
        import importlib

        mod = importlib.import_module(f"pettingzoo.classic.{name}")
        make = mod.raw_env if raw else mod.env
        wall, cpu, _g = _aec_steps(make, _steps(cfg), cfg.seed)
        return _row(f"peer {name} {'raw_env()' if raw else 'env()'}", "steps/s", wall, cpu)

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
        w0, c0 = time.perf_counter(), time.process_time()
        while n < _steps(cfg) // 2:
            e.reset()
            done = False
            while not done:
                mask = np.asarray(u.action_mask, dtype=np.bool_)  # type: ignore[attr-defined]
                _o, _r, term, trunc, _i = e.step(pick(mask, rng))
                done = term or trunc
                n += 1
        wall, cpu = time.perf_counter() - w0, max(time.process_time() - c0, 1e-9)
        return _row(f"peer gym-locm battle {version}", "steps/s", n / wall, n / cpu)

    bench.__name__ = f"bench_peer_locm_{version.replace('.', '_')}"
    return bench


def env_rows() -> list[Callable[[Any], Row]]:
    """The hostwcg_v0 rows (they run on both builds of the engine)."""
    return [bench_env_wrapped, bench_env_raw, bench_env_games, bench_env_reset, bench_env_memory]


def peer_rows() -> list[Callable[[Any], Row]]:
    """The peers that are installed here."""
    rows: list[Callable[[Any], Row]] = []
    try:
        import pettingzoo.classic.connect_four_v3  # noqa: F401
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
    """hostwcg_v0 env() against each peer, per build. With the runs of every round
    (interleaved), the ratio is the median of the per-round ratios, each taken from runs made
    side by side, with their range; else the ratio of the medians. CPU-time ratios beside."""
    ours = {r.get("build"): r for r in results if r.get("name") == "hostwcg_v0 env() (wrappers)" and "error" not in r}
    peers = [r for r in results if r.get("name", "").startswith("peer ") and "error" not in r]
    out = []
    for build, mine in ours.items():
        label = f"hostwcg_v0 env(){f' [{build}]' if build else ''}"
        for r in peers:
            a, b = mine.get("runs"), r.get("runs")
            if a and b and len(a) == len(b) and all(b):
                per = [x / y for x, y in zip(a, b, strict=True)]
                text = (f"{label} / {r['name'][5:]}: {statistics.median(per):.2f}x "
                        f"(per round {min(per):.2f}x - {max(per):.2f}x)")
            else:
                text = f"{label} / {r['name'][5:]}: {mine['value'] / r['value']:.2f}x"
            if mine.get("cpu") and r.get("cpu"):
                text += f"; CPU time {mine['cpu'] / r['cpu']:.2f}x"
            out.append(text)
    return out
