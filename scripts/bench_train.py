#!/usr/bin/env python
"""Training throughput of hostwcg_v0 against hostwcg_v1 (docs/env_v1.md, "Training speed"), and a
training run's time to strength (docs/training.md, "Time to strength").

    python scripts/bench_train.py --seconds 120 --eval-games 40 --out runs/bench_train.json
    python scripts/bench_train.py --strength runs/train/in_2h --plot runs/in_2h.png   # time to strength

The command-line front end of ``agents.training.bench_train`` and ``agents.training.strength``.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy loads its BLAS

import argparse  # noqa: E402
import json  # noqa: E402
from pathlib import Path  # noqa: E402

from agents.training import bench_train, strength  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=bench_train.__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=300.0, help="training wall time per recipe")
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--v0-envs", type=int, default=2), ap.add_argument("--v1-envs", type=int, default=64)
    ap.add_argument("--v1-n-steps", type=int, default=32, help="rollout steps per env")
    ap.add_argument("--v1-batch", type=int, default=1024), ap.add_argument("--v1-epochs", type=int, default=2)
    ap.add_argument("--only", choices=("v0", "v1"), default=None, help="run one recipe only")
    ap.add_argument("--rss", action="store_true", help="also measure the vector env's memory per game")
    ap.add_argument("--rss-steps", type=int, default=300)
    for flag, kind, default in (("--seed", int, 0), ("--threads", int, 1), ("--out", Path, None)):
        ap.add_argument(flag, type=kind, default=default)
    ap.add_argument("--strength", type=Path, metavar="RUN", help="report a `hostwcg train` run's time to strength")
    ap.add_argument("--plot", type=Path, metavar="PNG", help="with --strength: the learning curve on the run's clock")
    a = ap.parse_args(argv)
    if a.strength:
        text = json.dumps(strength.report(a.strength), indent=1)
        print(text if not a.plot else f"{text}\n{strength.plot(a.strength, a.plot)}")
    elif a.seconds <= 0 or a.eval_games < 0 or a.v0_envs < 1 or a.v1_envs < 1 or a.threads < 1:
        ap.error("--seconds must be > 0, --eval-games >= 0, --v0-envs, --v1-envs and --threads >= 1")
    elif a.v1_batch < 2 or a.v1_epochs < 1 or (a.v1_n_steps is not None and a.v1_n_steps < 1):
        ap.error("--v1-batch must be >= 2, --v1-epochs and --v1-n-steps >= 1")
    else:
        text = json.dumps(bench_train.report(
            a.seconds, a.eval_games, a.v0_envs, a.v1_envs, a.seed, a.threads, a.v1_n_steps, a.v1_batch,
            a.v1_epochs, (a.only,) if a.only else ("v0", "v1"), a.rss, a.rss_steps), indent=1)
        print(text)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
