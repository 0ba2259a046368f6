"""Teach the hostwcg_v1 network its own check: a network fitted to the lookahead's scores.

The command-line front end of ``agents.training.learned_check``, where the logic, its options and its
documentation live (``python scripts/learned_check.py --help``).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy loads its BLAS: threads only contend here

from agents.training.learned_check import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
