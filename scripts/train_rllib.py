"""Self-play PPO with Ray RLlib (new API stack) on hostwcg_v1 (or ``--env hostwcg_v0``).

One shared policy plays both seats (optionally against frozen snapshots of itself,
``--snapshot-every``), illegal actions are masked, and v1's Dict observation goes whole to the
set-based RLModule (``agents/rllib_module.py``). Everything is in ``agents/rllib_selfplay.py``;
docs/balance.md, "RLlib", has the commands, the cluster ones included:

    python scripts/train_rllib.py --iterations 20 --env-runners 2 --out runs/rllib
    python scripts/train_rllib.py --address auto --env-runners 16 ...   # on a running Ray cluster

Every ``--eval-every`` iterations (and at the end) the shared policy plays ``--eval-games``
games against the random agent (seats alternating) and the win rate is printed.
"""

from __future__ import annotations

from agents.rllib_selfplay import main

if __name__ == "__main__":
    raise SystemExit(main())
