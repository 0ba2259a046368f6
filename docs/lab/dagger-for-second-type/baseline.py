"""The baseline of docs/lab/2026-11-29-dagger-from-ppo-v1-for-second-type.md: the shipped ppo_v1
on the evaluation's own seeds and decks (the recipe's [evaluation]: 200 games each, seed
950,000,000 against the heuristic, 951,000,000 against the lookahead), kept as the run's are.

    python docs/lab/dagger-for-second-type/baseline.py runs/train/dagger-second-type-baseline
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from agents.set_agent import DEFAULT_V1
from agents.training.recipe import load_recipe
from agents.training.rundir import play_and_score

RECIPE = Path(__file__).with_name("recipe.toml")

if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    recipe = load_recipe(str(RECIPE))
    ev = recipe.evaluation
    for j, opp in enumerate(ev["opponents"]):
        if opp == "ppo_v1":
            continue  # the network against itself
        r = play_and_score(str(DEFAULT_V1), opp, ev["games"], ev["seed"] + 1_000_000 * j, out / f"vs_{opp}.jsonl",
                           recipe.deck_refs(), workers=ev["workers"])
        print(json.dumps({"opponent": opp, **r}))
