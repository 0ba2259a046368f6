"""Measure hostwcg_v1 (docs/env_v1.md "Figures"): env steps per second with random legal
actions on one core (seeded once), the size of one observation, the memory of one game.

    python scripts/bench_v1.py                 # all figures, ~1 minute
    python scripts/bench_v1.py --seconds 5     # shorter runs

The command-line front end of ``hostwcg_env.testing.bench_v1``, which says what each figure is.
"""

from __future__ import annotations

import argparse

from hostwcg_env.env.v1.layout import obs_layout
from hostwcg_env.testing.bench_v1 import bench_aec, bench_memory, bench_vector


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--memory-steps", type=int, default=200)
    args = ap.parse_args(argv)
    floats, ints = obs_layout().counts()
    print(f"observation: {floats} floats + {ints} integers = {floats + ints} values "
          f"(hostwcg_v0: 11964 floats)")
    a = bench_aec(args.seconds)
    print(f"aec: {a['steps_per_s']:.0f} env steps/s (both players, observe + random legal action), "
          f"{a['games']} games")
    v = bench_vector(args.n, args.seconds)
    print(f"vector_env({args.n}): {v['steps_per_s']:.0f} env steps/s (both players), "
          f"{v['learner_steps_per_s']:.0f} learner steps/s, batched random opponent, "
          f"{v['games_finished']} games finished")
    m = bench_memory(args.n, args.memory_steps)
    print(f"memory: {m['bytes_per_game'] / 1024:.0f} KiB per game (traced, after {args.memory_steps} steps), "
          f"observation rows {m['obs_row_bytes'] / 1024:.1f} KiB per game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
