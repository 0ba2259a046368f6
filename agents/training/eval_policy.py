"""Evaluate a PPO policy (a MaskablePPO .zip or an exported .npz) against agents on the ladder.

    python scripts/eval_policy.py runs/ppo_ft/step_200000.zip --vs heuristic,random --games 400
    python scripts/eval_policy.py agents/checkpoints/ppo_hostwcg_v0.npz --vs heuristic \\
        --games 10000 --seed 900000 --workers 2 --results agents/ladder_results/history/ppo_vs_heuristic.jsonl

It plays the ladder's own games (``hostwcg_env.analysis.ladder.run_ladder``): pairs of games that share a
seed and the decks with the seats swapped, the opponent built as ``make_agent(name, seed=2 *
seed + seat)``, the policy greedy through the numpy forward pass. A ``.zip`` is first exported
to numpy weights (cached under the temporary directory by the file's hash, so a results file
names the same policy on every run). Win rates count draws as half, with Wilson 95%
intervals; ``--results`` keeps every game and resumes, as ``hostwcg evaluate`` does; ``--json``
writes the summary.

``scripts/eval_policy.py`` is the command line; ``evaluate`` plays and summarises. Exporting a
``.zip`` needs the ``train`` extra (sb3-contrib).
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import time
from pathlib import Path
from typing import Any


def policy_agent(path: str) -> str:
    """The ladder's name for the policy at ``path``: ``ppo`` for the shipped checkpoint,
    ``ppo:PATH`` for another .npz, and for a .zip the .npz it is exported to."""
    from agents.ppo import DEFAULT

    p = Path(path)
    if not p.exists():
        raise SystemExit(f"eval_policy: no policy file {path}")
    if p.suffix == ".npz":
        return "ppo" if p.resolve() == DEFAULT.resolve() else f"ppo:{path}"
    if p.suffix != ".zip":
        raise SystemExit(f"eval_policy: {path}: expected a MaskablePPO .zip or an exported .npz")
    digest = hashlib.sha1(p.read_bytes()).hexdigest()[:12]
    out = Path(tempfile.gettempdir()) / "hostwcg_eval" / f"{p.stem}-{digest}.npz"
    if not out.exists():
        from sb3_contrib import MaskablePPO

        from agents.ppo import export_sb3

        export_sb3(MaskablePPO.load(str(p), device="cpu"), out)
    return f"ppo:{out}"


def evaluate(path: str, opponents: list[str], games: int, seed: int = 0, progress: bool = True,
             workers: int = 1, results: str | None = None) -> dict[str, Any]:
    from hostwcg_env.analysis.ladder import run_ladder

    name = policy_agent(path)
    out: dict[str, Any] = {"policy": path, "agent": name, "games": games, "seed": seed, "results": {}}
    for opp in opponents:
        t0 = time.time()
        res = run_ladder([name, opp], games, workers=workers, seed=seed, quiet=not progress, results=results)
        row = res.rows()[0]
        out["results"][opp] = {"games": row["games"], "score": row["wins"], "win_rate": row["win_rate"],
                               "ci95": [row["ci95_low"], row["ci95_high"]],
                               "seconds": round(time.time() - t0, 1), "from_results_file": res.resumed}
        print(json.dumps({"opponent": opp, **out["results"][opp]}), flush=True)
    return out
