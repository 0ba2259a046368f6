"""Train the MaskablePPO baseline by self-play (sb3-contrib, CPU) and export it for numpy.

The command-line front end of ``agents.training.train_ppo``, where the logic, its options and its
documentation live (``python scripts/train_ppo.py --help``).
"""

from agents.training.train_ppo import main

if __name__ == "__main__":
    raise SystemExit(main())
