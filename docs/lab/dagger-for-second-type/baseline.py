"""The eight-deck evaluation of docs/lab/2026-11-29-dagger-from-ppo-v1-for-second-type.md on the
first screen's own seeds and decks (its recipe's [evaluation]: 200 seat-swapped games each, seed
950,000,000 against the heuristic, 951,000,000 against the lookahead, 952,000,000 against
ppo_v1), kept as a training run's are. Without --network it plays the shipped ppo_v1 (the
baseline; not against itself).

    python docs/lab/dagger-for-second-type/baseline.py runs/train/dagger-second-type-baseline
    python docs/lab/dagger-for-second-type/baseline.py OUT --network runs/train/ei-second-type/policy.npz
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agents.set_agent import DEFAULT_V1
from agents.training.recipe import load_recipe
from agents.training.rundir import play_and_score

RECIPE = Path(__file__).with_name("recipe.toml")

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--network", default=str(DEFAULT_V1), help="numpy weights of the set policy (default ppo_v1's)")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    recipe = load_recipe(str(RECIPE))
    ev = recipe.evaluation
    shipped = Path(args.network).resolve() == DEFAULT_V1.resolve()
    for j, opp in enumerate(ev["opponents"]):
        if opp == "ppo_v1" and shipped:
            continue  # the network against itself
        r = play_and_score(args.network, opp, ev["games"], ev["seed"] + 1_000_000 * j, out / f"vs_{opp}.jsonl",
                           recipe.deck_refs(), workers=ev["workers"])
        print(json.dumps({"opponent": opp, **r}))
