"""Evaluate a PPO policy (.zip or exported .npz) against agents on the ladder's schedule, fast.

    python scripts/eval_policy.py runs/ppo_ft/step_200000.zip --vs heuristic,random --games 400

Games come in pairs that share a seed and the decks with the seats swapped, exactly as
``hostwcg evaluate`` schedules them (``agents.ladder.schedule``), and the opponent is built the
same way (``make_agent(name, seed=2 * seed + seat)``). The policy plays greedily through the
numpy forward pass with one incremental observation encoder per seat (the ladder encodes every
decision from scratch, which makes PPO games several times slower). Win rates count draws as
half, with Wilson 95% intervals. ``--json`` writes the results.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402


def load_policy(path: str):  # type: ignore[no-untyped-def]
    """A greedy NumpyPolicy from an exported .npz or a MaskablePPO .zip."""
    from agents.ppo import NumpyPolicy, export_sb3

    if path.endswith(".npz"):
        return NumpyPolicy.load(path)
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(path, device="cpu")
    with tempfile.TemporaryDirectory() as d:
        export_sb3(model, Path(d) / "w.npz")
        return NumpyPolicy.load(Path(d) / "w.npz")


def play(policy, opponent: str, spec, decks) -> float:  # type: ignore[no-untyped-def]
    """One game of the schedule; ``spec.a == 'policy'`` puts the policy in seat 0. Returns the
    policy's score (1, 0.5, 0)."""
    from agents import decide, make_agent
    from hostwcg_env.engine import Game
    from hostwcg_env.env.codec import Codec
    from hostwcg_env.env.layout import action_layout
    from hostwcg_env.env.observation import ObservationEncoder

    game = Game.new(decks[spec.deck_a], decks[spec.deck_b], seed=spec.seed)
    seat = 0 if spec.a == "policy" else 1
    opp = make_agent(opponent, seed=2 * spec.seed + (1 - seat))
    cfg = game.state.config
    enc = ObservationEncoder(cfg)
    codec = Codec(action_layout(cfg))
    buf = np.zeros(enc.size, dtype=np.float32)
    while not game.is_over:
        d = game.decision
        assert d is not None
        if d.player == seat:
            if len(d.actions) == 1:
                game.apply(d.actions[0])
                continue
            codec.refresh(game)
            obs = enc.encode(game.view(seat), buf)
            a = codec.decode(game, policy.act(obs, codec.mask(game)))
            if a is None:
                raise ValueError("the policy chose an illegal action")
            game.apply(a)
        else:
            game.apply(decide(opp, game))
    if game.winner is None:
        return 0.5
    return 1.0 if game.winner == seat else 0.0


def evaluate(path: str, opponents: list[str], games: int, seed: int = 0, progress: bool = True) -> dict:
    from agents.ladder import schedule, wilson
    from hostwcg_env.env import shipped_decks

    policy = load_policy(path)
    decks = shipped_decks()
    out: dict = {"policy": path, "games": games, "seed": seed, "results": {}}
    for opp in opponents:
        specs = schedule(["policy", opp], games, seed=seed, n_decks=len(decks))
        t0 = time.time()
        score = 0.0
        for i, spec in enumerate(specs):
            score += play(policy, opp, spec, decks)
            if progress and (i + 1) % 50 == 0:
                print(f"  {opp}: {i + 1}/{len(specs)} games, {score / (i + 1):.3f}", file=sys.stderr, flush=True)
        p, lo, hi = wilson(score, len(specs))
        out["results"][opp] = {"games": len(specs), "score": score, "win_rate": p, "ci95": [lo, hi],
                               "seconds": round(time.time() - t0, 1)}
        print(json.dumps({"opponent": opp, **out["results"][opp]}), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("policy", help="a MaskablePPO .zip or an exported .npz")
    p.add_argument("--vs", default="heuristic,random", help="comma-separated agent names")
    p.add_argument("--games", type=int, default=200, help="games per opponent (seat-swapped pairs)")
    p.add_argument("--seed", type=int, default=0, help="first seed of the schedule")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    res = evaluate(args.policy, [o for o in args.vs.split(",") if o], args.games, args.seed, not args.quiet)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
