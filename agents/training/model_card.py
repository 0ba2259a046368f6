"""Write agents/checkpoints/MODEL_CARD.md from the training run's JSON and a ladder report.

    python scripts/model_card.py --ladder runs/ladder.md
    python scripts/model_card.py --ladder runs/ladder.md --notes "..." --notes-title "Targets"

The JSON beside the checkpoint (``ppo_hostwcg_v0.json``, written by ``scripts/train_ppo.py`` or
by hand when a snapshot is shipped) gives the facts. Optional keys: ``bc`` (the behaviour-cloning
warm start: ``commands``, ``games``, ``decisions``, ``holdout_accuracy``, ``wall_time_s``),
``stages`` (a list of ``{"name", "command", "steps", "wall_time_s"}``), ``evaluation`` (a list of
``{"policy", "opponent", "games", "win_rate", "ci95"}``, with a ``evaluation_note``),
``n_actions``, ``obs_size``, ``note``.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout
CKPT = ROOT / "agents" / "checkpoints" / "ppo_hostwcg_v0"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("--ladder", help="a markdown report of hostwcg evaluate")
    p.add_argument("--notes", default="", help="extra text (targets, what is missing)")
    p.add_argument("--notes-title", default="Targets and what would close the gap")
    p.add_argument("--meta", default=str(CKPT.with_suffix(".json")), help="the run's JSON")
    p.add_argument("--out", default=str(CKPT.parent / "MODEL_CARD.md"))
    args = p.parse_args(argv)
    meta = json.loads(Path(args.meta).read_text())
    evals = meta.get("evaluations", [])
    bc = meta.get("bc")
    how = ("first cloned from the rule-based heuristic (behaviour cloning, `scripts/pretrain_bc.py`), then "
           "fine-tuned by MaskablePPO against the heuristic, random and snapshots of itself" if bc else
           "trained by self-play")
    lines = [
        "# Model card: ppo_hostwcg_v0",
        "",
        f"A MaskablePPO policy (sb3-contrib) for `hostwcg_v0`, {how}, and shipped as numpy",
        "weights (`ppo_hostwcg_v0.npz`): `agents.make_agent(\"ppo\")` plays it without torch.",
        "",
        "| fact | value |",
        "|---|---|",
    ]
    if bc:
        for i, c in enumerate(bc.get("commands", [])):
            lines.append(f"| behaviour cloning, step {i + 1} | `{c}` |")
        lines.append(f"| demonstrations | {bc['games']:,} games, {bc['decisions']:,} decisions of the heuristic "
                     f"(two or more legal actions){', ' + bc['data_note'] if bc.get('data_note') else ''} |")
        lines.append(f"| behaviour cloning result | {bc['holdout_accuracy']:.1%} of held-out decisions match the "
                     f"heuristic; {bc['wall_time_s'] / 60:.0f} min (data and training) |")
    for st in meta.get("stages", []):
        lines.append(f"| {st['name']} | `{st['command']}` ({st['steps']:,} steps, {st['wall_time_s'] / 60:.0f} min) |")
    if not meta.get("stages"):
        lines.append(f"| command | `{meta['command']}` |")
    lines += [
        f"| environment steps (PPO) | {meta['steps']:,} |",
        f"| wall time | {meta['wall_time_s'] / 60:.0f} min{' in all' if bc else ''} |",
        f"| hardware | {meta['hardware']}, {meta['envs']} env process(es) "
        "(the 2-core machine was shared with other jobs) |",
        f"| network | MLP {meta['net_arch']}, tanh, separate actor and critic; observation "
        f"{meta.get('obs_size', 11964):,} floats, {meta.get('n_actions', 254)} actions |",
        f"| opponents | {', '.join(meta['opponents'])} and frozen snapshots of itself |",
        "| decks | every shipped deck, drawn per seat each episode |",
        f"| seed | {meta['seed']} |",
        f"| software | Python {meta['python']}, torch {meta['torch']} |",
        "",
    ]
    if meta.get("note"):
        lines += [meta["note"], ""]
    if evals:
        lines += ["## Evaluation during training (greedy policy)", "",
                  "| steps | vs random | vs heuristic |", "|---:|---:|---:|"]
        lines += [f"| {e['steps']:,} | {e['random']:.1%} | {e['heuristic']:.1%} |" for e in evals]
        lines.append("")
    if meta.get("evaluation"):
        lines += ["## Evaluation (greedy)", ""]
        if meta.get("evaluation_note"):
            lines += [meta["evaluation_note"], ""]
        lines += ["| policy | opponent | games | win rate | 95% CI (Wilson) |", "|---|---|---:|---:|---|"]
        for e in meta["evaluation"]:
            lo, hi = e["ci95"]
            lines.append(f"| {e['policy']} | {e['opponent']} | {e['games']:,} | {e['win_rate']:.1%} | "
                         f"{lo:.1%} - {hi:.1%} |")
        lines.append("")
    else:
        games, fin = final_eval(meta)
        lines += [f"## Final evaluation (greedy, {games} games each, seats alternating, all shipped decks)", "",
                  f"* against random: {fin.get('random', float('nan')):.1%}",
                  f"* against heuristic: {fin.get('heuristic', float('nan')):.1%}", ""]
    if args.ladder:
        lines += ["## Ladder", "", Path(args.ladder).read_text().strip(), ""]
    if args.notes:
        lines += [f"## {args.notes_title}", "", args.notes, ""]
    Path(args.out).write_text("\n".join(lines))
    return 0


def final_eval(meta: dict) -> tuple[str, dict]:
    """The final evaluation of a run.json (``final_eval_<N>_games_greedy``: N its games per
    opponent) as (N, win rates); ("no", {}) when the run had none."""
    for key, value in meta.items():
        m = re.fullmatch(r"final_eval_(\d+)_games_greedy", key)
        if m and value:
            return m.group(1), value
    return "no", {}


if __name__ == "__main__":
    raise SystemExit(main())
