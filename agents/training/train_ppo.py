"""Train the MaskablePPO baseline by self-play (sb3-contrib, CPU) and export it for numpy.

    python scripts/train_ppo.py --steps 2000000 --envs 2 --out runs/ppo
    python scripts/train_ppo.py --resume runs/ppo/latest.zip --steps 1000000
    python scripts/train_ppo.py --init runs/bc/bc.zip --lr 5e-5 --clip 0.1 --ent-coef 0.001 \
        --opponents heuristic,heuristic,heuristic,random --envs 1 --out runs/ppo_ft

The learner plays hostwcg_v0 through the single-agent view (seat alternating each episode) against
an opponent pool: random, heuristic, and frozen snapshots of itself added every ``--snapshot-every``
steps (drawn uniformly per episode, so ``--opponents heuristic,heuristic,random`` weights the
heuristic 2:1; each snapshot is one more entry). Every ``--eval-every`` steps it is evaluated (numpy
policy, greedy) against random and heuristic; TensorBoard logs go to OUT/tb. The final model is
OUT/latest.zip and every snapshot (or every ``--save-every`` steps) is kept as OUT/step_<N>.zip;
each loads directly as an opponent (``hostwcg play --vs ppo:OUT/latest.zip``, ``hostwcg evaluate
--agents heuristic,ppo:OUT/latest.zip``). OUT/run.json holds the run's facts (the command, steps,
wall time, evaluations, each labelled with its own numbers, and what was written). The policy is
exported as numpy weights only where asked: ``--export PATH.npz`` (with PATH.json beside it); to
replace the shipped policy, give ``--export agents/checkpoints/ppo_hostwcg_v0.npz``.

``--init PATH.zip`` starts from another model's weights (e.g. the behaviour-cloning warm start
of ``scripts/pretrain_bc.py``, whose value head is pretrained too) with a fresh optimizer and
timestep count and this run's hyperparameters (``--lr``, ``--clip``, ``--ent-coef``, ...); its
``net_arch`` is taken from the model. For fine-tuning, a low learning rate (1e-4 or less) and a
small clip range keep PPO from undoing the warm start.

``--init PATH.npz`` starts from an exported numpy policy (e.g. the shipped
``agents/checkpoints/ppo_hostwcg_v0.npz``): it holds the actor only, so the critic starts fresh.
``--critic-warmup N`` then trains the critic alone for the first N steps (the actor frozen, at
``--warmup-lr``), so that the first policy updates do not follow the advantages of an untrained
value function:

    python scripts/train_ppo.py --init agents/checkpoints/ppo_hostwcg_v0.npz --critic-warmup 100000 \
        --lr 1e-4 --clip 0.1 --ent-coef 0.001 --target-kl 0.03 \
        --opponents heuristic,heuristic,heuristic,heuristic,random
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import gymnasium
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.base_class import BaseAlgorithm
    from stable_baselines3.common.callbacks import BaseCallback

ROOT = Path(__file__).resolve().parents[2]  # the checkout: runs/ and agents/checkpoints/ below it


def make_env(rank: int, seed: int, opponents: list[str],
             decks: str = "all") -> Callable[[], gymnasium.Env]:
    def _init() -> gymnasium.Env:
        from agents import make_agent
        from agents.ppo import NumpyPolicy
        from hostwcg_env.env import shipped_decks
        from hostwcg_env.env.single import SingleAgentEnv

        kw: dict = {}
        if decks == "all":  # every seat draws any preconstructed deck each episode
            pool = shipped_decks()
            kw["deck_pools"] = [pool, pool]
        else:  # the two stand-in test decks
            kw["decks"] = "test"
        env_seed = seed + 1000 * rank
        # the env takes policies: agents by name are made here ("random" is the env's own)
        pool_of = [o if o == "random" else make_agent(o, seed=env_seed) for o in opponents]
        return SingleAgentEnv(opponent=pool_of, seed=env_seed,
                              from_weights=lambda w, s: NumpyPolicy(w, deterministic=False, seed=s), **kw)

    return _init


def weights_of(model: BaseAlgorithm) -> dict[str, np.ndarray]:
    import tempfile

    from agents.ppo import export_sb3

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "w.npz"
        export_sb3(model, path)
        with np.load(path) as z:
            return {k: z[k] for k in z.files}


def read_actor(path: str) -> tuple[dict[str, np.ndarray], list[int]]:
    """The arrays of an exported numpy policy (``agents.ppo.export_sb3``) and its hidden layer
    sizes (the ``net_arch`` of the actor)."""
    with np.load(path, allow_pickle=False) as z:
        weights = {k: z[k] for k in z.files}
    net: list[int] = []
    while f"pi.{len(net)}.bias" in weights:
        net.append(int(weights[f"pi.{len(net)}.bias"].shape[0]))
    return weights, net


def load_actor(model: MaskablePPO, weights: dict[str, np.ndarray]) -> None:
    """Copy an exported numpy policy (``agents.ppo.export_sb3``'s layout) into the actor of an
    sb3 MlpPolicy of the same shape; the critic is left as it is."""
    import torch

    pol = model.policy
    linear = [m for m in pol.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    head = pol.action_net
    assert isinstance(head, torch.nn.Linear)  # a Discrete action space: sb3's action head is one Linear
    pairs = [(lin, f"pi.{i}") for i, lin in enumerate(linear)] + [(head, "action")]
    if f"pi.{len(linear)}.weight" in weights:
        raise ValueError(f"the exported policy has more hidden layers than the model ({len(linear)})")
    with torch.no_grad():
        for lin, key in pairs:
            w, b = weights[f"{key}.weight"], weights[f"{key}.bias"]
            if tuple(lin.weight.shape) != w.shape:
                raise ValueError(f"{key}.weight: the exported shape {w.shape} is not the model's "
                                 f"{tuple(lin.weight.shape)}")
            lin.weight.copy_(torch.as_tensor(w))
            lin.bias.copy_(torch.as_tensor(b))


def critic_warmup(model: MaskablePPO, steps: int, lr: float) -> BaseCallback:
    """A callback that freezes the actor (its gradients off) and trains the critic at ``lr`` for
    the first ``steps`` timesteps, then restores the actor and the run's learning rate."""
    from stable_baselines3.common.callbacks import BaseCallback

    pol = model.policy
    actor = list(pol.mlp_extractor.policy_net.parameters()) + list(pol.action_net.parameters())
    schedule = model.lr_schedule

    class CriticWarmup(BaseCallback):
        def _on_training_start(self) -> None:
            self.active = self.model.num_timesteps < steps
            if self.active:
                for prm in actor:
                    prm.requires_grad_(False)
                self.model.lr_schedule = lambda _progress: lr

        def _on_step(self) -> bool:
            return True

        def _on_rollout_end(self) -> None:
            # called before the update on this rollout: unfreeze once the warm-up steps are done
            if self.active and self.model.num_timesteps >= steps:
                self.active = False
                for prm in actor:
                    prm.requires_grad_(True)
                self.model.lr_schedule = schedule
                self.logger.record("selfplay/critic_warmup_done", self.model.num_timesteps)

    return CriticWarmup()


def evaluate(weights: dict[str, np.ndarray], opponent: str, games: int, seed: int) -> float:
    from agents import make_agent
    from agents.ppo import NumpyPolicy
    from hostwcg_env.env import shipped_decks
    from hostwcg_env.env.single import SingleAgentEnv

    pool = shipped_decks()
    env = SingleAgentEnv(opponent=[make_agent(opponent, seed=seed)], seed=seed, deck_pools=[pool, pool])
    pol = NumpyPolicy(weights)
    wins = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g) if g == 0 else env.reset()
        done = False
        while not done:
            obs, r, term, trunc, _ = env.step(pol.act(obs, env.action_masks()))
            done = term or trunc
        wins += 1.0 if r > 0 else 0.5 if r == 0 else 0.0
    return wins / games


def final_label(games: int) -> str:
    """The run.json key of the final evaluation, from its own number of games."""
    return f"final_eval_{games}_games_greedy"


def run_facts(args: argparse.Namespace, argv: list[str] | None, model: MaskablePPO, wall: float, net: list[int],
              opponents: list[str], evals: list[dict]) -> dict:
    """What the run did, each label derived from the run's own values."""
    import torch

    return {"command": " ".join(["python", "scripts/train_ppo.py", *(argv if argv is not None else sys.argv[1:])]),
            "steps": int(model.num_timesteps), "wall_time_s": round(wall), "envs": args.envs, "seed": args.seed,
            "net_arch": net, "opponents": opponents, "decks": args.decks,
            "hardware": f"{platform.processor() or platform.machine()}, CPU only",
            "python": platform.python_version(), "torch": torch.__version__,
            "evaluations": evals}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=1_000_000)
    p.add_argument("--envs", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/ppo")
    p.add_argument("--resume", default=None, help="a saved model .zip to continue from (its optimizer and steps too)")
    p.add_argument("--init", default=None, help="a saved MaskablePPO .zip whose weights start this run "
                   "(fresh optimizer, timesteps and hyperparameters; e.g. scripts/pretrain_bc.py's output)")
    p.add_argument("--critic-warmup", type=int, default=0,
                   help="train only the critic (actor frozen) for this many steps first")
    p.add_argument("--warmup-lr", type=float, default=1e-3, help="learning rate of the critic warm-up")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    p.add_argument("--clip", type=float, default=0.2, help="PPO clip range")
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--n-epochs", type=int, default=4)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--target-kl", type=float, default=None, help="stop an update's epochs early past this KL")
    p.add_argument("--opponents", default="random,heuristic")
    p.add_argument("--decks", choices=("all", "test"), default="all",
                   help="all: each seat draws one of the eight preconstructed decks per episode; "
                        "test: the two stand-in test decks")
    p.add_argument("--snapshot-every", type=int, default=100_000)
    p.add_argument("--save-every", type=int, default=None,
                   help="keep OUT/step_<N>.zip this often (default: at every snapshot)")
    p.add_argument("--eval-every", type=int, default=100_000)
    p.add_argument("--eval-games", type=int, default=40)
    p.add_argument("--n-steps", type=int, default=1024)
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--net", default="128,128")
    p.add_argument("--export", default=None, metavar="PATH.npz",
                   help="also write the final policy as numpy weights here, with PATH.json (default: "
                        "none; agents/checkpoints/ppo_hostwcg_v0.npz replaces the shipped policy)")
    p.add_argument("--final-games", type=int, default=200,
                   help="games per opponent in the final evaluation (0: none)")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--max-minutes", type=float, default=None, help="stop learning after this wall time")
    args = p.parse_args(argv)
    from hostwcg_env.extras import require

    require("train")  # torch, stable-baselines3, sb3-contrib: one line naming the extra if missing

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from agents.ppo import export_sb3

    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    opponents = [o for o in args.opponents.split(",") if o]
    fns = [make_env(i, args.seed, opponents, args.decks) for i in range(args.envs)]
    vec = SubprocVecEnv(fns) if args.envs > 1 else DummyVecEnv(fns)
    evals: list[dict] = []

    class SelfPlay(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_snap = args.snapshot_every
            self.next_save = args.save_every
            self.next_eval = args.eval_every

        def _on_training_start(self) -> None:
            # a resumed run starts at its saved step count: the next snapshot, save and
            # evaluation are the next multiples past it (not one per step until they catch up)
            n = self.model.num_timesteps

            def after(every: int) -> int:
                return (n // every + 1) * every

            self.next_snap = after(args.snapshot_every)
            self.next_eval = after(args.eval_every)
            if args.save_every is not None:
                self.next_save = after(args.save_every)

        def _on_step(self) -> bool:
            if args.max_minutes is not None and time.time() - t0 > 60 * args.max_minutes:
                return False
            if self.num_timesteps >= self.next_snap:
                self.next_snap += args.snapshot_every
                w = weights_of(self.model)
                sizes = self.training_env.env_method("add_opponent", w)
                self.logger.record("selfplay/pool_size", sizes[0])
                self.model.save(out / "latest.zip")
                if args.save_every is None:
                    self.model.save(out / f"step_{self.num_timesteps}.zip")
            if args.save_every is not None and self.num_timesteps >= self.next_save:
                self.next_save += args.save_every
                self.model.save(out / f"step_{self.num_timesteps}.zip")
            if self.num_timesteps >= self.next_eval:
                self.next_eval += args.eval_every
                w = weights_of(self.model)
                row: dict = {"steps": int(self.num_timesteps), "games_per_opponent": args.eval_games}
                for opp in ("random", "heuristic"):
                    row[opp] = evaluate(w, opp, args.eval_games, seed=10_000 + len(evals))
                    self.logger.record(f"eval/win_rate_vs_{opp}", row[opp])
                evals.append(row)
                print(json.dumps(row), flush=True)
            return True

    net = [int(x) for x in args.net.split(",")]
    init = None
    actor: dict[str, np.ndarray] | None = None
    if args.init and args.init.endswith(".npz"):
        actor, net = read_actor(args.init)
    elif args.init:
        init = MaskablePPO.load(args.init, device="cpu")
        arch = init.policy.net_arch
        net = list(arch["pi"]) if isinstance(arch, dict) else list(arch)
    if args.resume:
        model = MaskablePPO.load(args.resume, env=vec, device="cpu")
    else:
        model = MaskablePPO("MlpPolicy", vec, n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
                            learning_rate=args.lr, gamma=args.gamma, gae_lambda=0.95, ent_coef=args.ent_coef,
                            clip_range=args.clip, vf_coef=args.vf_coef, target_kl=args.target_kl,
                            policy_kwargs={"net_arch": net}, seed=args.seed, verbose=0,
                            tensorboard_log=str(out / "tb"), device="cpu")
    if init is not None:
        model.policy.load_state_dict(init.policy.state_dict())
        del init
    if actor is not None:
        load_actor(model, actor)
    callbacks: list[BaseCallback] = [SelfPlay()]
    if args.critic_warmup > 0:
        callbacks.append(critic_warmup(model, args.critic_warmup, args.warmup_lr))
    t0 = time.time()
    model.learn(total_timesteps=args.steps, callback=callbacks, progress_bar=not args.no_progress,
                reset_num_timesteps=not args.resume)
    wall = time.time() - t0
    model.save(out / "latest.zip")
    w = weights_of(model)
    meta = run_facts(args, argv, model, wall, net, opponents, evals)
    if args.final_games:
        meta[final_label(args.final_games)] = {
            o: evaluate(w, o, args.final_games, seed=99) for o in ("random", "heuristic")}
    if args.init:
        meta["init"] = args.init
    meta["saved"] = str(out / "latest.zip")
    meta["exported"] = args.export or None
    if args.export:
        export_sb3(model, args.export, meta)
    (out / "run.json").write_text(json.dumps(meta, indent=2))
    print(json.dumps(meta, indent=2))
    vec.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
