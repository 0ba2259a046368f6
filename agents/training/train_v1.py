#!/usr/bin/env python
"""Train the set policy on hostwcg_v1 in a self-play league (docs/agents.md, "The v1 league").

    python scripts/train_v1.py --steps 5000000 --out runs/v1 --opponents random,heuristic,lookahead
    python scripts/train_v1.py --steps 8000000 --out runs/v1      # the same run, continued
    tensorboard --logdir runs/v1/tb

MaskablePPO trains ``agents.set_policy_torch.SetPolicy`` on ``hostwcg_v1.vector_env(--envs)``
whose opponent pool is the league (``agents/league.py``): the fixed agents of ``--opponents``
and a frozen snapshot of the learner every ``--snapshot-every`` steps (its numpy weights in
OUT/snapshots/, at most ``--max-snapshots`` drawn, the oldest retired). Each game draws its
opponent by prioritised fictitious self-play: ``(1 - p) ** --pfsp-power`` of the learner's win
rate ``p`` over its last ``--window`` training games against that member, so harder opponents
come more often (``--pfsp variance``: ``p (1 - p)``, those it beats about half the time). Every
``--eval-every`` steps the learner (sampling, or ``--eval-greedy``) plays ``--eval-games``
evaluation games against each fixed agent, the ``--eval-snapshots`` latest snapshots and the
active exploiters (members added between runs by ``agents/training/exploiters.py``); the
ratings are fitted to all the evaluation games so far (Elo scale, ``random`` the anchor at 1000).
TensorBoard (OUT/tb) gets the PPO losses, ``league/elo_learner``, ``league/elo/<member>``, ``league/p/<member>`` (PFSP
probability), ``league/win_rate/<member>`` (recent training games) and
``eval/win_rate_vs/<member>``.

Resumable: at every snapshot and evaluation (and at the end) the model (OUT/latest.zip, with
its optimizer) and the league (OUT/league.json: members, recent results, ratings, the sampler's
state, the next snapshot and evaluation steps) are saved; run the same command again and it
continues from there to ``--steps`` in all (the league's and PPO's settings come from the saved
state, ``FIXED_AT_START``, and OUT/league.json records them so, except ``--lr`` when it is given;
the evaluation and schedule options are the command's; the games that were under way are lost). ``--init
MODEL.zip`` starts a new run from a behaviour-cloned policy (``scripts/distill_v1.py``).
``--export PATH.npz`` writes the final policy's numpy
weights (``agents.set_policy.NumpySetPolicy``) with PATH.json beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from agents.league import League, Member

ROOT = Path(__file__).resolve().parents[2]  # the checkout: runs/ and agents/checkpoints/ below it


def opponent_of(member: Member, seed: int) -> Any:
    """What the vector env plays for a league member: ``"random"``, an engine-level agent, or
    a snapshot's or an exploiter's numpy policy (sampling, as the learner trains)."""
    from agents import make_agent
    from agents.set_policy import NumpySetPolicy, load_weights

    if member.kind in ("snapshot", "exploiter"):
        assert member.path is not None
        return NumpySetPolicy(load_weights(member.path), deterministic=False, seed=seed)
    if member.name == "random":
        return "random"
    return make_agent(member.name, seed=seed)


DECKS = ("shipped", "ladder")


def deck_kwargs(decks: str) -> dict[str, Any]:
    """The env's decks for ``--decks``: ``shipped`` (the eight preconstructed decks, the env's
    default), ``ladder`` (those and the two stand-in test decks: the ladder's ten, ``hostwcg
    evaluate --include-test``, its default before 2026-11-27), or deck names and deck files
    separated by commas (``brae,karsh`` or ``my/decks/a.toml,my/decks/b.toml``: each seat draws
    from them; docs/training.md, "The recipe")."""
    if decks == "shipped":
        return {}
    if decks == "ladder":
        from hostwcg_env.env.aec import shipped_decks

        pool: list[Any] = list(shipped_decks(include_test=True))
        return {"deck_pools": [pool, list(pool)]}
    from hostwcg_env.analysis.simulate import resolve_decks

    items = [d.strip() for d in decks.split(",") if d.strip()]
    if not items:
        raise ValueError(f"--decks: {decks!r} names no deck: give shipped, ladder or deck names/files")
    try:
        refs: list[Any] = resolve_decks(items)
    except ValueError as e:
        raise ValueError(f"--decks: {e}") from None
    return {"deck_pools": [refs, list(refs)]}


def play(weights: dict[str, np.ndarray], opponent: Any, games: int, seed: int, greedy: bool = False,
         **env_kwargs: Any) -> list[float]:
    """The scores (1 win, 0.5 draw, 0 loss) of the numpy policy ``weights`` (sampling its
    actions as it trains, or ``greedy``) in ``games`` games against ``opponent`` (seats
    alternating), all played to the end."""
    from agents.set_policy import NumpySetPolicy
    from hostwcg_env.env.v1.vector import VectorEnv

    vec = VectorEnv(games, opponent=opponent, seed=seed, autoreset=False, copy_obs=False, **env_kwargs)
    pol = NumpySetPolicy(weights, deterministic=greedy, seed=seed)
    obs = vec.reset()
    scores: list[float | None] = [None] * games
    while any(s is None for s in scores):
        actions, _ = pol.predict(obs, action_masks=vec.action_masks())
        vec.step_async(actions)  # vec.step, typed as VectorEnv's (dict) observations
        obs, rewards, dones, _infos = vec.step_wait()
        for i in np.flatnonzero(dones):
            scores[i] = 1.0 if rewards[i] > 0 else 0.5 if rewards[i] == 0 else 0.0
    return [float(s) for s in scores if s is not None]


def weights_of(model: Any) -> dict[str, np.ndarray]:
    from agents.set_policy_torch import export_weights

    return export_weights(model)


# the settings a resumed run takes from its saved model and league, whatever the command says
FIXED_AT_START = ("opponents", "n_steps", "batch_size", "epochs", "gamma", "clip", "ent_coef", "dim", "emb",
                  "max_snapshots", "window", "pfsp", "pfsp_power", "pfsp_floor", "init")


class Run:
    """The league run: its model, vector env, league and schedule (see the module docstring)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out)
        self.state_path = self.out / "league.json"
        self.model_path = self.out / "latest.zip"
        self.resumed = self.state_path.exists() and self.model_path.exists()
        if self.resumed:
            self.league, extra = League.load(self.state_path)
            self.next_snapshot = int(extra["next_snapshot"])
            self.next_eval = int(extra["next_eval"])
            self.evaluations: list[dict[str, Any]] = extra.get("evaluations", [])
            self.history: list[dict[str, Any]] = extra.get("runs", [])
            self.saved_steps = int(extra["steps"])
            saved = extra.get("args", {})
            if args.decks is None:  # the decks a run was started with, unless given again
                args.decks = saved.get("decks") or "shipped"
            for name in FIXED_AT_START:  # the model and the league hold these: recorded as they are
                if name in saved:
                    setattr(args, name, saved[name])
            if args.lr is None:
                args.lr = saved.get("lr")
            if not self.league.evals:  # a state saved before the games were kept: rebuild them
                self._rebuild_evals()
        else:
            agents = [o for o in args.opponents.split(",") if o]
            self.league = League(agents, window=args.window, power=args.pfsp_power, floor=args.pfsp_floor,
                                 max_snapshots=args.max_snapshots, seed=args.seed, weighting=args.pfsp)
            self.next_snapshot = args.snapshot_every
            self.next_eval = args.eval_every
            self.evaluations = []
            self.history = []
            self.saved_steps = 0
            args.decks = args.decks or "shipped"
        self.env_kwargs = deck_kwargs(args.decks)
        self.pool = [opponent_of(m, args.seed + 7919 * (i + 1)) for i, m in enumerate(self.league.members)]

    def _rebuild_evals(self) -> None:
        lg = self.league
        names = {m.name: i for i, m in enumerate(lg.members)}
        for m in lg.members:  # counted again below, game by game
            m.eval_games = 0
        lg.learner_eval_games = 0
        for row in self.evaluations:
            games = int(row["games_per_opponent"])
            for name, mean in row.items():
                if name in names:
                    total = float(mean) * games
                    wins, half = int(total), total - int(total) >= 0.25
                    for s in [1.0] * wins + [0.5] * half + [0.0] * (games - wins - half):
                        lg.record_eval(names[name], s, int(row["steps"]))
        lg.fit_ratings()

    def make_model(self) -> Any:
        import torch
        from sb3_contrib import MaskablePPO

        from agents.set_policy_torch import SetPolicy, card_kwargs
        from hostwcg_env import hostwcg_v1

        torch.set_num_threads(self.args.threads)
        a = self.args
        seed = a.seed + self.saved_steps  # a resumed run does not replay the games it played
        self.vec = hostwcg_v1.vector_env(a.envs, opponent=self.pool, seed=seed, **self.env_kwargs)
        self.vec.pick = lambda _game: self.league.sample()
        if self.resumed:
            custom: dict[str, Any] = {}
            if a.lr is not None:  # a new learning rate for the rest of the run
                custom = {"learning_rate": a.lr, "lr_schedule": lambda _progress: a.lr}
            model = MaskablePPO.load(self.model_path, env=self.vec, device="cpu", custom_objects=custom)
            model.tensorboard_log = str(self.out / "tb")
        else:
            model = MaskablePPO(SetPolicy, self.vec, n_steps=a.n_steps, batch_size=a.batch_size, n_epochs=a.epochs,
                                learning_rate=3e-4 if a.lr is None else a.lr, gamma=a.gamma, gae_lambda=0.95,
                                ent_coef=a.ent_coef,
                                clip_range=a.clip, seed=a.seed, device="cpu", tensorboard_log=str(self.out / "tb"),
                                policy_kwargs={"dim": a.dim, "emb": a.emb, **card_kwargs()})
            if a.init:  # start from a cloned policy's weights (scripts/distill_v1.py train)
                init = MaskablePPO.load(a.init, device="cpu")
                model.policy.load_state_dict(init.policy.state_dict())
        self.model = model
        return model

    # ------------------------------------------------------------ league steps
    def snapshot(self, steps: int) -> None:
        snap_dir = self.out / "snapshots"
        snap_dir.mkdir(parents=True, exist_ok=True)
        path = snap_dir / f"step_{steps}.npz"
        np.savez(path, allow_pickle=True, **weights_of(self.model))
        i = self.league.add_snapshot(f"snap_{steps}", str(path), steps)
        self.pool.append(opponent_of(self.league.members[i], self.args.seed + 7919 * (i + 1)))
        self.vec.set_opponents(self.pool)

    def evaluate(self, steps: int) -> dict[str, Any]:
        lg = self.league
        snaps = [i for i, m in enumerate(lg.members) if m.kind == "snapshot" and m.active]
        exploiters = [i for i, m in enumerate(lg.members) if m.kind == "exploiter" and m.active]
        agents = [i for i, m in enumerate(lg.members) if m.kind == "agent"]
        who = agents + snaps[-self.args.eval_snapshots:] + exploiters
        w = weights_of(self.model)
        row: dict[str, Any] = {"steps": steps, "games_per_opponent": self.args.eval_games}
        for k, i in enumerate(who):
            m = lg.members[i]
            opp = opponent_of(m, 555 + steps + k)
            scores = play(w, opp, self.args.eval_games, seed=10_000 + steps % 1_000_000 + 97 * k,
                          greedy=self.args.eval_greedy, **self.env_kwargs)
            for s in scores:
                lg.record_eval(i, s, steps)
            row[m.name] = round(float(np.mean(scores)), 3)
        lg.fit_ratings()
        row["elo_learner"] = round(lg.learner_rating, 1)
        self.evaluations.append(row)
        return row

    def save(self) -> None:
        tmp = self.out / "latest.tmp.zip"
        self.model.save(tmp)
        os.replace(tmp, self.model_path)
        self.league.save(self.state_path, {"steps": int(self.model.num_timesteps), "next_snapshot": self.next_snapshot,
                                           "next_eval": self.next_eval, "evaluations": self.evaluations,
                                           "runs": self.history, "args": vars(self.args)})

    def log(self, logger: Any) -> None:
        lg = self.league
        p = lg.weights()
        logger.record("league/elo_learner", lg.learner_rating)
        logger.record("league/members_active", sum(m.active for m in lg.members))
        for i, m in enumerate(lg.members):
            if m.active:
                logger.record(f"league/p/{m.name}", float(p[i]))
                logger.record(f"league/win_rate/{m.name}", lg.win_rate(i))
            if m.eval_games and not m.anchor:
                logger.record(f"league/elo/{m.name}", m.rating)


def callback(run: Run, t0: float) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    a = run.args

    class LeagueCallback(BaseCallback):
        def _on_step(self) -> bool:
            infos, dones, rewards = self.locals["infos"], self.locals["dones"], self.locals["rewards"]
            for i in np.flatnonzero(dones):
                k = infos[i].get("opponent")
                if k is not None:
                    run.league.record(int(k), float(rewards[i]))
            n = self.num_timesteps
            changed = False
            if n >= run.next_snapshot:
                run.next_snapshot = (n // a.snapshot_every + 1) * a.snapshot_every
                run.snapshot(n)
                changed = True
            if n >= run.next_eval and a.eval_games:
                run.next_eval = (n // a.eval_every + 1) * a.eval_every
                row = run.evaluate(n)
                for name, v in row.items():
                    if name not in ("steps", "games_per_opponent", "elo_learner"):
                        self.logger.record(f"eval/win_rate_vs/{name}", v)
                print(json.dumps(row), flush=True)
                changed = True
            if changed:
                run.save()
            if a.max_minutes is not None and time.time() - t0 > 60 * a.max_minutes:
                return False
            return True

        def _on_rollout_end(self) -> None:
            run.log(self.logger)

    return LeagueCallback()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=5_000_000, help="learner steps in all (a resumed run counts its past)")
    p.add_argument("--out", default="runs/v1")
    p.add_argument("--opponents", default="random,heuristic,lookahead",
                   help="the fixed members: agent specs for agents.make_agent (random is the rating anchor)")
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--n-steps", type=int, default=32, help="rollout steps per env")
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=None,
                   help="learning rate (default 3e-4; given to a resumed run, it replaces the saved one)")
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--emb", type=int, default=32)
    p.add_argument("--snapshot-every", type=int, default=200_000)
    p.add_argument("--max-snapshots", type=int, default=20)
    p.add_argument("--window", type=int, default=200, help="recent training games per member for PFSP")
    p.add_argument("--pfsp", choices=("hard", "variance"), default="hard",
                   help="hard: (1 - p) ** power, the opponents it beats least most often; variance: p (1 - p), "
                        "those it beats about half the time (a curriculum for a weak learner)")
    p.add_argument("--pfsp-power", type=float, default=2.0)
    p.add_argument("--pfsp-floor", type=float, default=0.05,
                   help="every member gets at least this share of the top weight")
    p.add_argument("--eval-every", type=int, default=200_000)
    p.add_argument("--eval-games", type=int, default=20)
    p.add_argument("--eval-snapshots", type=int, default=2)
    p.add_argument("--eval-greedy", action="store_true",
                   help="evaluate the greedy policy (default: sampling its actions, as it trains and plays)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--max-minutes", type=float, default=None, help="stop (and save) after this wall time")
    p.add_argument("--decks", default=None,
                   help="shipped: the eight preconstructed decks (default); ladder: those and the two "
                        "stand-in test decks, the ladder's ten (evaluate --include-test); or deck names and "
                        "files separated by commas (a resumed run keeps its own)")
    p.add_argument("--init", default=None, metavar="MODEL.zip",
                   help="a new run starts from this model's policy weights (a behaviour-cloned one: "
                        "scripts/distill_v1.py train); its --dim/--emb must match")
    p.add_argument("--export", default=None, metavar="PATH.npz", help="write the final policy's numpy weights here")
    args = p.parse_args(argv)
    from hostwcg_env.extras import require

    if args.decks is not None:
        try:
            deck_kwargs(args.decks)
        except ValueError as e:
            p.error(str(e))
    require("train")  # torch, stable-baselines3, sb3-contrib: one line naming the extra if missing
    for name in ("steps", "envs", "n_steps", "batch_size", "epochs", "snapshot_every", "eval_every", "threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if args.eval_games < 0 or args.eval_snapshots < 0:
        p.error("--eval-games and --eval-snapshots must be >= 0")

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    run = Run(args)
    model = run.make_model()
    done = int(model.num_timesteps)
    t0 = time.time()
    if done < args.steps:
        model.learn(total_timesteps=args.steps - done, callback=callback(run, t0), reset_num_timesteps=not run.resumed,
                    tb_log_name="league", progress_bar=False)
    wall = time.time() - t0
    given = argv if argv is not None else sys.argv[1:]
    run.history.append({"command": " ".join(["python", "scripts/train_v1.py", *given]),
                        "from_steps": done, "to_steps": int(model.num_timesteps), "wall_time_s": round(wall),
                        "resumed": run.resumed})
    run.save()
    summary = {"steps": int(model.num_timesteps), "wall_time_s": round(wall), "league": run.league.summary(),
               "elo_learner": round(run.league.learner_rating, 1),
               "last_evaluation": run.evaluations[-1] if run.evaluations else None}
    if args.export:
        import torch

        path = Path(args.export)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, allow_pickle=True, **weights_of(model))
        facts = {"policy": "agents.set_policy.NumpySetPolicy", "env": "hostwcg_v1", "runs": run.history,
                 "steps": int(model.num_timesteps), "evaluations": run.evaluations, "league": run.league.summary(),
                 "hardware": f"{platform.processor() or platform.machine()}, CPU only",
                 "python": platform.python_version(), "torch": torch.__version__}
        path.with_suffix(".json").write_text(json.dumps(facts, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
