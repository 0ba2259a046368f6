"""Distil a search agent into the hostwcg_v1 set policy: its recorded choices, cloned.

The command-line front end of ``agents.training.distill_v1``, where the logic, its options and its
documentation live (``python scripts/distill_v1.py --help``).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy loads its BLAS: threads only contend here

from agents.training.distill_v1 import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
