"""Write agents/checkpoints/MODEL_CARD.md from the training run's JSON and a ladder report.

    python scripts/model_card.py --ladder runs/ladder.md
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CKPT = ROOT / "agents" / "checkpoints" / "ppo_hostwcg_v0"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ladder", help="a markdown report of hostwcg evaluate")
    p.add_argument("--notes", default="", help="extra text (targets, what is missing)")
    args = p.parse_args(argv)
    meta = json.loads(CKPT.with_suffix(".json").read_text())
    evals = meta.get("evaluations", [])
    lines = [
        "# Model card: ppo_hostwcg_v0",
        "",
        "A MaskablePPO policy (sb3-contrib) for `hostwcg_v0`, trained by self-play and shipped as numpy",
        "weights (`ppo_hostwcg_v0.npz`): `agents.make_agent(\"ppo\")` plays it without torch.",
        "",
        "| fact | value |",
        "|---|---|",
        f"| command | `{meta['command']}` |",
        f"| environment steps | {meta['steps']:,} |",
        f"| wall time | {meta['wall_time_s'] / 60:.0f} min |",
        f"| hardware | {meta['hardware']}, {meta['envs']} env processes (the 2-core machine was shared with other jobs) |",
        f"| network | MLP {meta['net_arch']}, tanh; observation {11964} floats, {254} actions |",
        f"| opponents | {', '.join(meta['opponents'])} and frozen snapshots of itself |",
        f"| decks | every shipped deck, drawn per seat each episode |",
        f"| seed | {meta['seed']} |",
        f"| software | Python {meta['python']}, torch {meta['torch']} |",
        "",
        "## Evaluation during training (greedy policy, 20 games per point)",
        "",
        "| steps | vs random | vs heuristic |",
        "|---:|---:|---:|",
    ]
    lines += [f"| {e['steps']:,} | {e['random']:.0%} | {e['heuristic']:.0%} |" for e in evals]
    fin = meta.get("final_eval_200_games_greedy", {})
    lines += ["", "## Final evaluation (greedy, 200 games each, seats alternating, all shipped decks)", "",
              f"* against random: {fin.get('random', float('nan')):.1%}",
              f"* against heuristic: {fin.get('heuristic', float('nan')):.1%}", ""]
    if args.ladder:
        lines += ["## Ladder", "", Path(args.ladder).read_text().strip(), ""]
    if args.notes:
        lines += ["## Targets and what would close the gap", "", args.notes, ""]
    (CKPT.parent / "MODEL_CARD.md").write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
