"""ppo_v1's inference with one BLAS thread against numpy's default, alone or beside a busy loop
(docs/benchmarks.md, "Inference under load").

The command-line front end of ``hostwcg_env.testing.bench_blas``, where the logic, its options and
its documentation live (``python scripts/bench_blas.py --help``).
"""

from hostwcg_env.testing.bench_blas import main

if __name__ == "__main__":
    raise SystemExit(main())
