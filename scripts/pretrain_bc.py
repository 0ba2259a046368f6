"""Behaviour-cloning warm start for MaskablePPO: imitate the heuristic agent, save a PPO .zip.

The command-line front end of ``agents.training.pretrain_bc``, where the logic, its options and its
documentation live (``python scripts/pretrain_bc.py --help``).
"""

from agents.training.pretrain_bc import main

if __name__ == "__main__":
    raise SystemExit(main())
