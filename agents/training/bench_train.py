"""Training throughput of hostwcg_v0 against hostwcg_v1, for the same wall time on the same
machine, and where v1's seconds go (docs/env_v1.md, "Training speed").

    python scripts/bench_train.py --seconds 120 --eval-games 40 --out runs/bench_train.json

Each recipe trains MaskablePPO against the random opponent for ``--seconds`` of wall time, then
plays ``--eval-games`` games against the random agent with the trained policy (deterministic,
seats alternating) and reports learner steps per second of training (per second of wall time
and per CPU second of this process, which a busy machine disturbs less), the win rate, and
where the time went:

* v0: ``SingleAgentEnv`` (the flat 11,964-float observation) in a ``DummyVecEnv`` of ``--v0-envs``
  copies, an MLP of 128 x 128 (the defaults of ``scripts/train_ppo.py``: 1,024-step rollouts,
  batch 512, 4 epochs);
* v1: ``hostwcg_v1.vector_env(--v1-envs)`` (card rows, the opponent batched) with the set-based
  policy (``agents.set_policy_torch.SetPolicy``), rollouts of ``--v1-envs`` x ``--v1-n-steps``,
  batch ``--v1-batch``, ``--v1-epochs`` epochs, entropy bonus 0.01, gamma 0.995 (the defaults of
  ``scripts/train_v1.py``: 64 x 32, 1,024, 2).

The phases (seconds of wall time, measured by timers around the methods, not a profiler):
``update`` (PPO's gradient steps), ``rollout`` (collecting the samples), within it ``env_step``
(the vector env's step: the learner's action, the opponent's moves and the learner's next
observation), ``encode`` (writing v1 observation rows: the vector env's ``_write_row``), ``opponent``
(the opponent's moves), ``policy_forward`` (the policy choosing the learner's actions) and
``sb3_other`` (the rest: tensors, rollout buffer, masks). v1 also reports ``env_steps``, the
decisions of both seats (the learner's and the opponent's). The win rates are those of the
greedy policy (``win_rate``) and of the policy sampling its actions (``win_rate_sampled``).

``--rss`` measures the memory of the vector env: each of two fresh processes makes
``vector_env(n)`` for its n, plays ``--rss-steps`` random steps, and the resident set size
difference between the two, divided by the difference of n, is the memory per env.

Torch runs on ``--threads`` threads (default 1, so both recipes get the same cores; numpy's
BLAS is held to one thread too: on a busy 2-core machine more threads only contend). Needs the
``train`` extra (torch, sb3-contrib). Prints one JSON object and writes it to ``--out``.

``scripts/bench_train.py`` is the command line; ``report`` makes its JSON object. Set
``OPENBLAS_NUM_THREADS`` (and OMP, MKL) before numpy loads, as the script does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import gymnasium

def _stop_after(seconds: float) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class StopAfter(BaseCallback):
        """Stops learning once ``seconds`` of wall time have passed since training began."""

        def _on_training_start(self) -> None:
            self.t0 = time.perf_counter()

        def _on_step(self) -> bool:
            return time.perf_counter() - self.t0 < seconds

    return StopAfter()


def _evaluate(model: Any, env: Any, games: int, seed: int) -> dict[str, float]:
    """Win rates of ``model`` against the env's opponent over ``games`` episodes: greedy
    (``win_rate``) and sampling its actions as it trains (``win_rate_sampled``)."""
    out: dict[str, float] = {"games": games}
    for key, det in (("win_rate", True), ("win_rate_sampled", False)):
        wins = draws = 0.0
        for g in range(games):
            obs, _info = env.reset(seed=seed + g)  # a seeded reset alternates the learner's seat
            done = False
            reward = 0.0
            while not done:
                action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=det)
                obs, r, terminated, truncated, _info = env.step(int(action))
                reward += float(r)
                done = terminated or truncated
            wins += reward > 0
            draws += reward == 0
        out[key] = (wins + 0.5 * draws) / games if games else float("nan")
    return out


class Phases:
    """Wall-time accumulators around methods (``wrap(obj, name, phase)``)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def wrap(self, obj: Any, name: str, phase: str, count: Callable[..., int] | None = None) -> None:
        inner = getattr(obj, name)
        seconds, calls = self.seconds, self.calls
        seconds[phase] += 0.0  # reported even if never called (a run too short for an update)

        def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                seconds[phase] += time.perf_counter() - t
                calls[phase] += count(*args, **kwargs) if count is not None else 1

        setattr(obj, name, timed)

    def report(self, wall: float) -> dict[str, Any]:
        s = dict(self.seconds)
        if "rollout" in s:
            s["sb3_other"] = s["rollout"] - s.get("env_step", 0.0) - s.get("policy_forward", 0.0)
        return {k: {"seconds": round(v, 2), "share": round(v / wall, 3)} for k, v in sorted(s.items())}


def _train(name: str, model: Any, seconds: float, phases: Phases) -> dict[str, Any]:
    phases.wrap(model, "train", "update")
    phases.wrap(model, "collect_rollouts", "rollout")
    phases.wrap(model.policy, "forward", "policy_forward")
    load0 = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=10**9, callback=_stop_after(seconds))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    steps = int(model.num_timesteps)
    return {"recipe": name, "learner_steps": steps, "train_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
            "steps_per_second": round(steps / wall, 1), "steps_per_cpu_second": round(steps / cpu, 1),
            "load_average": [round(load0, 2), round(os.getloadavg()[0], 2)], "phases": phases.report(wall)}


def v1_model(vec: Any, n_steps: int, batch: int, epochs: int, seed: int, **kw: Any) -> Any:
    """The v1 recipe: MaskablePPO with the set policy on ``vec`` and ``scripts/train_v1.py``'s
    defaults (entropy bonus 0.01, gamma 0.995)."""
    from sb3_contrib import MaskablePPO

    from agents.set_policy_torch import SetPolicy

    kw = {"ent_coef": 0.01, "gamma": 0.995, "gae_lambda": 0.95, **kw}
    return MaskablePPO(SetPolicy, vec, n_steps=n_steps, batch_size=batch, n_epochs=epochs, seed=seed, device="cpu",
                       **kw)


def run(seconds: float, eval_games: int, v0_envs: int, v1_envs: int, seed: int, threads: int,
        v1_n_steps: int | None = 32, v1_batch: int = 1024, v1_epochs: int = 2,
        recipes: tuple[str, ...] = ("v0", "v1")) -> list[dict[str, Any]]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from hostwcg_env import hostwcg_v1
    from hostwcg_env.env.single import SingleAgentEnv

    torch.set_num_threads(threads)
    rows = []
    if "v0" in recipes:
        make_v0: list[Callable[[], gymnasium.Env]] = [partial(SingleAgentEnv, opponent="random", seed=seed + i)
                                                       for i in range(v0_envs)]
        venv = DummyVecEnv(make_v0)
        model = MaskablePPO("MlpPolicy", venv, n_steps=max(8, 1024 // v0_envs), batch_size=512, n_epochs=4,
                            seed=seed, device="cpu", policy_kwargs={"net_arch": [128, 128]})
        phases = Phases()
        phases.wrap(venv, "step_wait", "env_step")
        row = _train("v0: SingleAgentEnv + MLP 128x128", model, seconds, phases)
        row.update(_evaluate(model, SingleAgentEnv(opponent="random", seed=seed), eval_games, 10_000 + seed))
        row["parameters"] = sum(p.numel() for p in model.policy.parameters())
        rows.append(row)
    if "v1" in recipes:
        v = hostwcg_v1.vector_env(v1_envs, seed=seed)
        n_steps = v1_n_steps or max(8, 1024 // v1_envs)
        model = v1_model(v, n_steps, v1_batch, v1_epochs, seed)
        phases = Phases()
        phases.wrap(v, "step_wait", "env_step")
        phases.wrap(v, "_play_opponent", "opponent", count=lambda group: len(group))
        phases.wrap(v, "_write_row", "encode")  # every observation row written (learner's and opponent's)
        row = _train(f"v1: vector_env({v1_envs}) + set policy, rollout {v1_envs}x{n_steps}, batch {v1_batch}, "
                     f"{v1_epochs} epochs", model, seconds, phases)
        row["env_steps"] = row["learner_steps"] + phases.calls["opponent"]
        row["env_steps_per_second"] = round(row["env_steps"] / row["train_seconds"], 1)
        row["env_steps_per_cpu_second"] = round(row["env_steps"] / row["cpu_seconds"], 1)
        row.update(_evaluate(model, hostwcg_v1.single_env(opponent="random", seed=seed), eval_games, 10_000 + seed))
        row["parameters"] = sum(p.numel() for p in model.policy.parameters())
        rows.append(row)
    return rows


_RSS_CHILD = """
import sys, numpy as np
from hostwcg_env import hostwcg_v1
def rss():
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * 4096
v = hostwcg_v1.vector_env({n}, seed=0)
v.reset()
rng = np.random.default_rng(0)
for _ in range({steps}):
    v.step(np.array([rng.choice(np.flatnonzero(m)) for m in v.action_masks()]))
print(rss())
"""


def rss_per_env(small: int, large: int, steps: int) -> dict[str, Any]:
    """Resident memory per game of ``vector_env``: the RSS of a process holding ``large`` games
    minus one holding ``small``, over ``large - small`` (each after ``steps`` random steps)."""
    sizes = {}
    for n in (small, large):
        out = subprocess.run([sys.executable, "-c", _RSS_CHILD.format(n=n, steps=steps)],
                             capture_output=True, text=True, timeout=900, check=True)
        sizes[n] = int(out.stdout.split()[-1])
    per = (sizes[large] - sizes[small]) / (large - small)
    return {"rss_bytes": {str(k): v for k, v in sizes.items()}, "steps": steps,
            "rss_per_env_kib": round(per / 1024, 1)}


def report(seconds: float, eval_games: int, v0_envs: int, v1_envs: int, seed: int, threads: int,
           v1_n_steps: int | None, v1_batch: int, v1_epochs: int, recipes: tuple[str, ...],
           rss: bool = False, rss_steps: int = 300) -> dict[str, Any]:
    """The benchmark's JSON object: the settings, a row per recipe (``run``) and, with ``rss``,
    the vector env's memory per game (``rss_per_env`` for an eighth of ``v1_envs`` and all)."""
    rows = run(seconds, eval_games, v0_envs, v1_envs, seed, threads, v1_n_steps, v1_batch, v1_epochs, recipes)
    out: dict[str, Any] = {"seconds": seconds, "threads": threads, "cpus": os.cpu_count(), "recipes": rows}
    if rss:
        out["memory"] = rss_per_env(max(1, v1_envs // 8), v1_envs, rss_steps)
    return out
