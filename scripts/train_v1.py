"""Train the set policy on hostwcg_v1 in a self-play league (docs/agents.md, "The v1 league").

The command-line front end of ``agents.training.train_v1``, where the logic, its options and its
documentation live (``python scripts/train_v1.py --help``).
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy loads its BLAS: threads only contend here

from agents.training.train_v1 import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
