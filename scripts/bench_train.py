#!/usr/bin/env python
"""Training throughput of hostwcg_v0 against hostwcg_v1, for the same wall time on the same
machine (docs/env_v1.md, "Training speed").

    python scripts/bench_train.py --seconds 300 --eval-games 100 --out runs/bench_train.json

Each recipe trains MaskablePPO against the random opponent for ``--seconds`` of wall time, then
plays ``--eval-games`` games against the random agent with the trained policy (deterministic,
seats alternating) and reports learner steps per second of training and the win rate:

* v0: ``SingleAgentEnv`` (the flat 11,964-float observation) in a ``DummyVecEnv`` of ``--v0-envs``
  copies, an MLP of 128 x 128 (the defaults of ``scripts/train_ppo.py``: 1,024-step rollouts,
  batch 512, 4 epochs);
* v1: ``hostwcg_v1.vector_env(--v1-envs)`` (card rows, the opponent batched) with the set-based
  policy (``agents.set_policy_torch.SetPolicy``), the same rollout size, batch and epochs.

Torch runs on ``--threads`` threads (default 1, so both recipes get the same cores). Needs the
``train`` extra (torch, sb3-contrib). Prints one JSON object and writes it to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


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
    """Win rate of ``model`` (deterministic) against the env's opponent over ``games`` episodes."""
    wins = draws = 0.0
    for g in range(games):
        obs, _info = env.reset(seed=seed + g)  # a seeded reset alternates the learner's seat
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, r, terminated, truncated, _info = env.step(int(action))
            reward += float(r)
            done = terminated or truncated
        wins += reward > 0
        draws += reward == 0
    return {"games": games, "win_rate": (wins + 0.5 * draws) / games if games else float("nan")}


def _train(name: str, model: Any, seconds: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    model.learn(total_timesteps=10**9, callback=_stop_after(seconds))
    wall = time.perf_counter() - t0
    return {"recipe": name, "learner_steps": int(model.num_timesteps), "train_seconds": round(wall, 1),
            "steps_per_second": round(model.num_timesteps / wall, 1)}


def run(seconds: float, eval_games: int, v0_envs: int, v1_envs: int, seed: int, threads: int) -> list[dict[str, Any]]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from agents.set_policy_torch import SetPolicy
    from hostwcg_env import hostwcg_v1
    from hostwcg_env.env.single import SingleAgentEnv

    torch.set_num_threads(threads)
    rows = []
    venv = DummyVecEnv([lambda i=i: SingleAgentEnv(opponent="random", seed=seed + i) for i in range(v0_envs)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=max(8, 1024 // v0_envs), batch_size=512, n_epochs=4,
                        seed=seed, device="cpu", policy_kwargs={"net_arch": [128, 128]})
    row = _train("v0: SingleAgentEnv + MLP 128x128", model, seconds)
    row.update(_evaluate(model, SingleAgentEnv(opponent="random", seed=seed), eval_games, 10_000 + seed))
    row["parameters"] = sum(p.numel() for p in model.policy.parameters())
    rows.append(row)
    v = hostwcg_v1.vector_env(v1_envs, seed=seed)
    model = MaskablePPO(SetPolicy, v, n_steps=max(8, 1024 // v1_envs), batch_size=512, n_epochs=4, seed=seed,
                        device="cpu")
    row = _train(f"v1: vector_env({v1_envs}) + set policy", model, seconds)
    row.update(_evaluate(model, hostwcg_v1.single_env(opponent="random", seed=seed), eval_games, 10_000 + seed))
    row["parameters"] = sum(p.numel() for p in model.policy.parameters())
    rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=300.0, help="training wall time per recipe")
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--v0-envs", type=int, default=2)
    ap.add_argument("--v1-envs", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.eval_games < 0 or args.v0_envs < 1 or args.v1_envs < 1 or args.threads < 1:
        ap.error("--seconds must be > 0, --eval-games >= 0, --v0-envs, --v1-envs and --threads >= 1")
    rows = run(args.seconds, args.eval_games, args.v0_envs, args.v1_envs, args.seed, args.threads)
    text = json.dumps({"seconds": args.seconds, "threads": args.threads, "recipes": rows}, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
