"""``hostwcg train RECIPE`` and ``hostwcg exploit AGENT``: the training pipeline from a recipe,
and a best response to a frozen agent (``agents/training/pipeline.py``, docs/training.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

# The shipped recipes (agents/recipes/*.toml), named in the help without importing ``agents`` at
# start-up; tests/test_train_recipe.py checks the list against the folder.
SHIPPED_RECIPES = ("hardened", "in_2h", "in_4h", "ppo_v1", "smoke")


def add_parser(sub: Any) -> None:
    names = ", ".join(SHIPPED_RECIPES)
    tr = sub.add_parser(
        "train", help="train a hostwcg_v1 policy from a recipe: demos, cloning, DAgger, league PPO, expert "
                      "iteration (docs/training.md)",
        description=f"Run the stages of a recipe (a TOML file, or a shipped recipe's name: {names}) in a "
                    "run directory: each stage with its time budget, a progress bar and TensorBoard logs; then the "
                    "evaluation games and MODEL_CARD.md. A killed run continues with --resume. Needs the train "
                    "extra (pip install 'hostwcg[train]').")
    tr.add_argument("recipe", metavar="RECIPE", help=f"a recipe file (.toml) or a shipped recipe's name ({names})")
    tr.add_argument("--run-dir", type=Path, metavar="DIR", help="the run directory (default runs/train/NAME)")
    tr.add_argument("--resume", action="store_true", help="continue the run in --run-dir, skipping finished stages")
    tr.add_argument("--quiet", action="store_true", help="no progress bars")
    tr.set_defaults(func=cmd_train)

    ex = sub.add_parser(
        "exploit", help="train a best response to a frozen agent and report its win rate over time (docs/training.md)",
        description="Clone AGENT from its own games, then PPO against it alone; every --points share of the PPO "
                    "budget the exploiter plays --curve-games games against AGENT. Writes exploit.csv and "
                    "EXPLOIT.md (win rate over time, 95% intervals) and keeps every game. Needs the train extra.")
    ex.add_argument("agent", metavar="AGENT",
                    help="the frozen target: any agent name (heuristic, lookahead, ppo_v1, ...)")
    ex.add_argument("--minutes", type=float, default=60.0, help="the whole budget in wall minutes (default 60)")
    ex.add_argument("--run-dir", type=Path, metavar="DIR", help="the run directory (default runs/exploit/AGENT)")
    ex.add_argument("--resume", action="store_true", help="continue the run in --run-dir")
    ex.add_argument("--curve-games", type=int, default=40, help="games against AGENT at each point (default 40)")
    ex.add_argument("--points", type=int, default=6, help="points on the curve after the start (default 6)")
    ex.add_argument("--games", type=int, default=200, help="final evaluation games on fresh seeds (default 200)")
    ex.add_argument("--seed", type=int, default=0)
    ex.add_argument("--decks", nargs="+", metavar="DECK",
                    help="deck names or files the games deal (default: the eight preconstructed; 'ladder' adds "
                         "the two stand-in test decks)")
    ex.add_argument("--envs", type=int, default=32, help="PPO's games at once (default 32)")
    ex.add_argument("--quiet", action="store_true", help="no progress bars")
    ex.set_defaults(func=cmd_exploit)


def cmd_train(args: argparse.Namespace) -> int:
    from agents.training.pipeline import run_recipe
    from agents.training.recipe import RecipeError, load_recipe

    try:
        recipe = load_recipe(args.recipe)
        out = run_recipe(recipe, args.run_dir, resume=args.resume, quiet=args.quiet, argv=sys.argv[1:])
    except RecipeError as e:
        print(f"hostwcg train: {e}", file=sys.stderr)
        return 2
    for r in out["evaluation"]:  # the result, on stdout (progress went to stderr)
        print(f"{recipe.name}: {r['win_rate']:.1%} [{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}] of {r['games']} "
              f"games against {r['opponent']}")
    print(f"run directory: {out['run_dir']} (MODEL_CARD.md, policy.npz)")
    return 0


def cmd_exploit(args: argparse.Namespace) -> int:
    from agents.training.exploit import run_exploit
    from agents.training.recipe import RecipeError

    decks: str | list[str] = "preconstructed"
    if args.decks in (["preconstructed"], ["ladder"]):
        decks = args.decks[0]
    elif args.decks:
        decks = [str(Path(d).resolve()) if d.endswith(".toml") else d for d in args.decks]
    try:
        out = run_exploit(args.agent, args.minutes, args.run_dir, resume=args.resume, quiet=args.quiet,
                          argv=sys.argv[1:], curve_games=args.curve_games, points=args.points, games=args.games,
                          seed=args.seed, decks=decks, envs=args.envs)
    except RecipeError as e:
        print(f"hostwcg exploit: {e}", file=sys.stderr)
        return 2
    print(out["table"])
    print(f"run directory: {out['run_dir']} (exploit.csv, EXPLOIT.md, MODEL_CARD.md)")
    return 0
