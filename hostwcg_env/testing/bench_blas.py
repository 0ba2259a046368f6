"""ppo_v1's network with one BLAS thread against numpy's default, on a batch of observations,
alone or beside a busy Python loop (docs/benchmarks.md, "Inference under load").

    python scripts/bench_blas.py --batch 32 --seconds 20 [--busy]

The two configurations alternate in blocks of ``--repeat`` forwards within one process
(``threadpoolctl.threadpool_limits``), so a machine whose load changes during the run slows both
alike. Prints, for each, the mean wall and CPU milliseconds a forward and the machine's 1-minute
load average at the start and the end. ``--busy`` runs ``while True: pass`` in another process
for the length of the run (a competing CPU-bound job).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from threadpoolctl import threadpool_info, threadpool_limits


def measure(batch: int, seconds: float, repeat: int = 20) -> dict[int, tuple[float, float, int]]:
    """Per BLAS thread count (1 and numpy's default): (wall ms, CPU ms, forwards) of ppo_v1's
    forward on ``batch`` observations of a hostwcg_v1 game at its start."""
    from agents.set_agent import DEFAULT_V1
    from agents.set_policy import NumpySetPolicy, load_weights
    from hostwcg_env import hostwcg_v1

    default = max((i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"), default=1)
    with threadpool_limits(limits=default, user_api="blas"):  # the limits are this function's to set
        policy = NumpySetPolicy(load_weights(DEFAULT_V1))
    obs = hostwcg_v1.vector_env(batch, seed=3).reset()
    acc = {n: [0.0, 0.0, 0] for n in dict.fromkeys((1, default))}
    end = time.time() + seconds
    while time.time() < end or not all(k for _w, _c, k in acc.values()):
        for n, a in acc.items():
            with threadpool_limits(limits=n, user_api="blas"):
                wall, cpu = time.perf_counter(), time.process_time()
                for _ in range(repeat):
                    policy.forward(obs)
                a[0] += time.perf_counter() - wall
                a[1] += time.process_time() - cpu
                a[2] += repeat
    return {n: (1000 * w / k, 1000 * c / k, int(k)) for n, (w, c, k) in acc.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench_blas.py", description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=32, help="observations a forward (default 32)")
    ap.add_argument("--seconds", type=float, default=20.0, help="length of the run (default 20)")
    ap.add_argument("--repeat", type=int, default=20, help="forwards a block (default 20)")
    ap.add_argument("--busy", action="store_true", help="a busy Python loop in another process meanwhile")
    args = ap.parse_args(argv)
    if args.batch < 1 or args.seconds <= 0 or args.repeat < 1:
        ap.error("--batch and --repeat take 1 or more, --seconds more than 0")
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    try:
        load0 = os.getloadavg()[0]
        result = measure(args.batch, args.seconds, args.repeat)
        load1 = os.getloadavg()[0]
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
    beside = "beside a busy loop" if args.busy else "without a busy loop"
    print(f"ppo_v1 forward, batch {args.batch}, {beside}; load average {load0:.2f} -> {load1:.2f} "
          f"on {os.cpu_count()} cores")
    for n, (wall, cpu, k) in result.items():
        print(f"  {n} BLAS thread{'s' if n > 1 else ''}: {wall:.3f} ms wall, {cpu:.3f} ms CPU a forward "
              f"({k} forwards)")
    return 0

