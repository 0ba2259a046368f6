"""Behaviour-cloning warm start for MaskablePPO: imitate the heuristic agent, save a PPO .zip.

    python scripts/pretrain_bc.py --games 6000 --data runs/bc/demos.npz --out runs/bc/bc.zip
    python scripts/pretrain_bc.py --data runs/bc/demos.npz --reuse-data --epochs 8 --out runs/bc/bc.zip
    python scripts/pretrain_bc.py --games 1500 --dagger runs/bc/bc.zip --data runs/bc/dagger1.npz \
        --merge runs/bc/demos.npz --init runs/bc/bc.zip --out runs/bc/bc_dagger1.zip
    python scripts/train_ppo.py --init runs/bc/bc.zip --lr 5e-5 --clip 0.1 --ent-coef 0.001 \\
        --opponents heuristic,heuristic,heuristic,random --out runs/ppo_ft
    python scripts/pretrain_bc.py --ladder agents/ladder_results/history/ismcts045_vs_heuristic.jsonl.gz \\
        --ladder-agent ismcts:0.45s --data runs/bc/ismcts.npz --init agents/checkpoints/ppo_hostwcg_v0.npz \\
        --out runs/bc/distilled.zip

Why: PPO from scratch on a small CPU needs tens of millions of steps to learn what the
rule-based heuristic already does. Cloning it first gives PPO a policy that already plays
the heuristic's game, and a value head that already predicts who wins, so that fine-tuning
starts from there instead of from a random net.

1. **Demonstrations.** The heuristic plays games through the PettingZoo env (``raw_env``,
   ``auto_single=True``, every shipped deck drawn per seat, seats alternating): heuristic
   against heuristic (both seats recorded) and, for ``--vs-random`` of the games, heuristic
   against random (only the heuristic's seat recorded). For each decision of the heuristic
   with at least two legal actions (the env takes the forced ones itself, as the learner sees
   it) it records the observation exactly as the env gives it to that agent
   (``env.observe(agent)``, 11,964 float32, stored sparse: column indices + float16 values),
   the action mask (bit-packed), the index of the heuristic's choice (``codec.encode``, as
   ``agents.base.EngineAgent.act`` does) and the game's result from that player's side
   (+1/-1/0). The value target is the discounted return PPO would see at that decision:
   ``gamma ** (decisions left after it) * result`` (the reward comes at the last step).
2. **Training.** A MaskablePPO ``MlpPolicy`` with the same ``net_arch`` as
   ``scripts/train_ppo.py`` is built on a ``SingleAgentEnv``; its actor is trained by
   cross-entropy on masked logits (illegal logits at -inf) and its critic by squared error to
   the value target (``--value-coef``). A held-out set of whole games (``--holdout``) gives the
   accuracy (the greedy masked policy picks the heuristic's action) after every epoch.
3. **Another teacher (optional).** ``--ladder FILE.jsonl --ladder-agent NAME`` takes the
   demonstrations from the ladder instead: every choice of that agent (ISMCTS, say) in the
   games of the results file, replayed from their action logs (``agents/demos.py``), with the
   observation each choice was made from. ``--init`` takes a MaskablePPO .zip or the exported
   numpy actor (``agents/checkpoints/ppo_hostwcg_v0.npz``), so a shipped policy can be
   distilled further from a stronger teacher. ``--overrides-only heuristic`` (with an .npz
   ``--init``) labels a choice with the teacher's action only where it departs from the
   heuristic's own choice in that state, and with the initial policy's own greedy choice
   elsewhere (``agents.demos.overrides_only``): the student learns what the search adds
   without being pulled back towards the heuristic.
4. **DAgger (optional).** ``--dagger MODEL.zip`` plays the recorded seat with a cloned
   policy while the heuristic labels every decision, so the labels cover the states the
   student reaches by itself; ``--merge`` trains on several demonstration files at once and
   ``--init`` continues from a model's weights.
5. **Output.** ``--out`` is an ordinary sb3-contrib MaskablePPO .zip (``MaskablePPO.load``
   works; ``train_ppo.py --init`` continues from it), with a JSON of the run's facts beside it.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

import numpy as np

from agents.demos import DemoBuilder, merge

if TYPE_CHECKING:
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from agents.ppo import NumpyPolicy

ROOT = Path(__file__).resolve().parents[2]  # the checkout: runs/ and agents/checkpoints/ below it


class _Bar(Protocol):
    """What the loops use of a progress bar (tqdm's, or a silent one without tqdm)."""

    def update(self, n: int = 1) -> object: ...
    def set_postfix(self, **kw: object) -> object: ...
    def close(self) -> object: ...


def _progress(total: int, desc: str, enabled: bool) -> _Bar:
    try:
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, disable=not enabled, mininterval=2.0)
    except ImportError:  # pragma: no cover
        class _Null:
            def update(self, n: int = 1) -> None: ...
            def set_postfix(self, **kw: object) -> None: ...
            def close(self) -> None: ...
        return _Null()


# ---------------------------------------------------------------------------- demonstrations
def generate(games: int, seed: int = 0, vs_random: float = 0.3, gamma: float = 0.995,
             progress: bool = True, max_minutes: float | None = None,
             driver: NumpyPolicy | None = None) -> dict[str, np.ndarray]:
    """Play ``games`` games with the heuristic and return the demonstrations as sparse arrays.

    With ``driver`` (an object with ``act(observation, action_mask)``, e.g. the cloned policy)
    the recorded seat is played by the driver and the heuristic only labels its decisions
    (DAgger: the labels then cover the states the student itself reaches); the other seat is
    the heuristic or, for ``vs_random`` of the games, random, and is not recorded."""
    from agents.heuristic import HeuristicAgent
    from hostwcg_env.env import shipped_decks
    from hostwcg_env.env.aec import AGENTS, raw_env
    from hostwcg_env.env.codec import encode
    from hostwcg_env.env.single import RandomPolicy

    pool = shipped_decks()
    env = raw_env(deck_pools=[pool, pool])
    rng = random.Random(seed)
    heur = [HeuristicAgent(seed), HeuristicAgent(seed + 1)]
    rand = RandomPolicy(seed + 2)
    demos = DemoBuilder(env.encoder.size, env.layout.n)
    t0 = time.time()
    bar = _progress(games, "games", progress)
    played = 0
    for g_i in range(games):
        if max_minutes is not None and time.time() - t0 > 60 * max_minutes:
            break
        env.reset(seed=rng.getrandbits(62))
        for h in heur:
            h.reset()
        # seats alternate: the recorded (or driven) seat of a game against random is g_i % 2
        student = g_i % 2
        random_seat = (1 - student) if rng.random() < vs_random else None
        game = env.game
        assert game is not None
        while env.agents and not game.is_over:
            agent = env.agent_selection
            p = AGENTS.index(agent)
            d = game.decision
            assert d is not None
            if p == random_seat:
                env.step(int(rand.act(None, env.action_mask(agent))))
                continue
            o = env.observe(agent)
            mask = o["action_mask"]
            a = heur[p].choose(game.view(d.player), d.actions)
            idx = encode(env.layout, game.state, d.player, a)
            record = driver is None or p == student
            if record and int(mask.sum()) >= 2:
                demos.add(o["observation"], mask, idx, p)
                if driver is not None:
                    idx = int(driver.act(o["observation"], mask))
            env.step(idx)
            game = env.game
            assert game is not None
        demos.end_game(game.state.winner, gamma)
        played += 1
        bar.update(1)
        bar.set_postfix(decisions=len(demos.actions))
    bar.close()
    return demos.arrays(seconds=time.time() - t0)


def densify(data: dict[str, np.ndarray], rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dense float32 observations and bool masks of the given rows."""
    size = int(data["obs_size"])
    n_act = int(data["n_actions"])
    x = np.zeros((len(rows), size), dtype=np.float32)
    ptr, ind, val = data["indptr"], data["indices"], data["values"]
    for i, r in enumerate(rows):
        a, b = ptr[r], ptr[r + 1]
        x[i, ind[a:b].astype(np.int64)] = val[a:b]
    m = np.unpackbits(data["masks"][rows], axis=1, count=n_act).astype(bool)
    return x, m


# ---------------------------------------------------------------------------- model
def _train_ppo() -> ModuleType:
    """agents.training.train_ppo (its env factory and weight loading), imported when needed."""
    from agents.training import train_ppo

    return train_ppo


def build_model(net: list[int], seed: int = 0, decks: str = "all") -> MaskablePPO:
    """A fresh MaskablePPO on a SingleAgentEnv, as train_ppo.py builds it."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    vec = DummyVecEnv([_train_ppo().make_env(0, seed, ["random"], decks)])
    return MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, policy_kwargs={"net_arch": net},
                       seed=seed, verbose=0, device="cpu")


def sparse_batch(data: dict[str, np.ndarray], rows: np.ndarray) -> torch.Tensor:
    """The observations of the given rows as a sparse COO torch tensor (about 1.5% non-zero)."""
    import torch

    ptr = data["indptr"]
    starts, ends = ptr[rows], ptr[rows + 1]
    lens = ends - starts
    idx = (np.concatenate([np.arange(a, b) for a, b in zip(starts, ends, strict=True)]) if len(rows)
           else np.zeros(0, np.int64))
    r = np.repeat(np.arange(len(rows)), lens)
    c = data["indices"][idx].astype(np.int64)
    v = data["values"][idx].astype(np.float32)
    return torch.sparse_coo_tensor(torch.as_tensor(np.stack([r, c])), torch.as_tensor(v),
                                   (len(rows), int(data["obs_size"])), is_coalesced=True,
                                   check_invariants=False)


def forward(policy: MaskableActorCriticPolicy, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Action logits and values of an sb3 ActorCriticPolicy (MlpPolicy with separate pi and vf
    nets) for a batch of observations, dense or sparse. For a sparse batch the first Linear of
    each net is a sparse matmul with the same weights: the same function, several times faster."""
    import torch

    if not x.is_sparse:
        latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(x))
    else:
        def run(seq: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
            assert isinstance(seq, torch.nn.Sequential)  # sb3's MlpExtractor: Linear first, then the rest
            first = seq[0]
            assert isinstance(first, torch.nn.Linear)
            return seq[1:](torch.sparse.mm(x, first.weight.t()) + first.bias)

        latent_pi = run(policy.mlp_extractor.policy_net, x)
        latent_vf = run(policy.mlp_extractor.value_net, x)
    return policy.action_net(latent_pi), policy.value_net(latent_vf).squeeze(-1)


def masks_of(data: dict[str, np.ndarray], rows: np.ndarray) -> torch.Tensor:
    import torch

    return torch.as_tensor(np.unpackbits(data["masks"][rows], axis=1, count=int(data["n_actions"])).astype(bool))


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions get -inf (as MaskableCategorical, which uses a large negative number)."""
    return logits.masked_fill(~mask, float("-inf"))


def train(model: MaskablePPO, data: dict[str, np.ndarray], epochs: int = 5, batch_size: int = 512, lr: float = 1e-3,
          value_coef: float = 0.5, holdout: float = 0.05, seed: int = 0, progress: bool = True,
          max_minutes: float | None = None) -> dict:
    """Train ``model.policy`` on the demonstrations; returns the per-epoch history."""
    import torch
    import torch.nn.functional as F

    policy = model.policy
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    games = np.unique(data["games"])
    n_hold = max(1, int(round(holdout * len(games)))) if holdout > 0 and len(games) > 1 else 0
    hold_games = set(rng.choice(games, size=n_hold, replace=False).tolist()) if n_hold else set()
    is_hold = np.array([g in hold_games for g in data["games"]], dtype=bool)
    train_rows = np.flatnonzero(~is_hold)
    hold_rows = np.flatnonzero(is_hold)
    acts = torch.as_tensor(data["actions"].astype(np.int64))
    vt = torch.as_tensor(data["value_targets"])
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    steps_per_epoch = math.ceil(len(train_rows) / batch_size)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(1, epochs * steps_per_epoch),
                                                pct_start=0.1)
    history: list[dict] = []
    t0 = time.time()

    def evaluate_rows(rows: np.ndarray) -> dict:
        policy.eval()
        correct, ce, mse, n = 0, 0.0, 0.0, 0
        with torch.no_grad():
            for s in range(0, len(rows), 1024):
                r = rows[s:s + 1024]
                logits, v = forward(policy, sparse_batch(data, r))
                ml = masked_logits(logits, masks_of(data, r))
                a = acts[r]
                correct += int((ml.argmax(1) == a).sum())
                ce += F.cross_entropy(ml, a, reduction="sum").item()
                mse += ((v - vt[r]) ** 2).sum().item()
                n += len(r)
        policy.train()
        return {"accuracy": correct / max(n, 1), "cross_entropy": ce / max(n, 1), "value_mse": mse / max(n, 1)}

    stop = False
    for ep in range(epochs):
        perm = rng.permutation(train_rows)
        bar = _progress(steps_per_epoch, f"epoch {ep + 1}/{epochs}", progress)
        tot = {"loss": 0.0, "acc": 0, "n": 0}
        for s in range(0, len(perm), batch_size):
            r = np.sort(perm[s:s + batch_size])
            logits, v = forward(policy, sparse_batch(data, r))
            ml = masked_logits(logits, masks_of(data, r))
            a = acts[r]
            loss_pi = F.cross_entropy(ml, a)
            loss_v = F.mse_loss(v, vt[r])
            loss = loss_pi + value_coef * loss_v
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            sched.step()
            tot["loss"] += loss.item() * len(r)
            tot["acc"] += int((ml.argmax(1) == a).sum())
            tot["n"] += len(r)
            bar.update(1)
            bar.set_postfix(loss=f"{tot['loss'] / tot['n']:.3f}", acc=f"{tot['acc'] / tot['n']:.3f}")
            if max_minutes is not None and time.time() - t0 > 60 * max_minutes:
                stop = True
                break
        bar.close()
        row = {"epoch": ep + 1, "train_loss": tot["loss"] / max(tot["n"], 1),
               "train_accuracy": tot["acc"] / max(tot["n"], 1), "seconds": round(time.time() - t0)}
        if len(hold_rows):
            row.update({f"holdout_{k}": v for k, v in evaluate_rows(hold_rows).items()})
        history.append(row)
        print(json.dumps(row), flush=True)
        if stop:
            break
    return {"history": history, "train_decisions": int(len(train_rows)), "holdout_decisions": int(len(hold_rows)),
            "holdout_games": int(n_hold)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("--games", type=int, default=2000, help="games to play for demonstrations")
    p.add_argument("--vs-random", type=float, default=0.3,
                   help="fraction of games heuristic vs random (the rest heuristic vs heuristic)")
    p.add_argument("--data", default="runs/bc/demos.npz", help="where the demonstrations are written (.npz)")
    p.add_argument("--reuse-data", action="store_true", help="load --data instead of generating it")
    p.add_argument("--dagger", metavar="MODEL.zip", help="DAgger: this model plays the recorded seat (greedy), "
                   "the heuristic labels its decisions")
    p.add_argument("--ladder", metavar="FILE.jsonl", help="take the demonstrations from the choices of "
                   "--ladder-agent in these ladder results (replayed) instead of generating games")
    p.add_argument("--ladder-agent", default="ismcts:0.45s", help="whose choices --ladder keeps")
    p.add_argument("--overrides-only", metavar="ANCHOR", help="with --ladder and an .npz --init: keep the "
                   "teacher's label only where it differs from this agent's choice (the search's anchor, "
                   "heuristic), the --init policy's own choice elsewhere")
    p.add_argument("--merge", default="", help="comma-separated further demonstration files to train on too")
    p.add_argument("--init", metavar="MODEL", help="start training from this model's weights: a MaskablePPO "
                   ".zip, or an exported .npz (the actor only; the critic starts fresh)")
    p.add_argument("--gen-minutes", type=float, default=None, help="stop generating after this wall time")
    p.add_argument("--net", default="128,128", help="net_arch of pi and vf (as train_ppo.py --net)")
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--lr", type=float, default=1e-3, help="peak learning rate (one-cycle schedule)")
    p.add_argument("--value-coef", type=float, default=0.5)
    p.add_argument("--gamma", type=float, default=0.995, help="discount of the value target (as train_ppo.py)")
    p.add_argument("--holdout", type=float, default=0.05, help="fraction of games held out for accuracy")
    p.add_argument("--train-minutes", type=float, default=None, help="stop training after this wall time")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/bc/bc.zip", help="the MaskablePPO .zip to write")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    from hostwcg_env.extras import require

    require("train")  # torch, stable-baselines3, sb3-contrib: one line naming the extra if missing

    import torch

    torch.set_num_threads(1)
    random.seed(args.seed)
    np.random.seed(args.seed)
    data_path = Path(args.data)
    if args.reuse_data:
        with np.load(data_path) as z:
            data = {k: z[k] for k in z.files}
    elif args.ladder:
        from hostwcg_env.analysis.distill import from_records
        from hostwcg_env.analysis.recordfile import iter_records

        relabel = None
        if args.overrides_only:
            if not (args.init and args.init.endswith(".npz")):
                p.error("--overrides-only needs --init POLICY.npz (whose own choices label the rest)")
            from agents import make_agent
            from agents.demos import overrides_only
            from agents.ppo import NumpyPolicy

            relabel = overrides_only(make_agent(args.overrides_only, seed=0), NumpyPolicy.load(args.init))
        t_gen = time.time()
        data = from_records(iter_records(args.ladder), args.ladder_agent, gamma=args.gamma, relabel=relabel)
        data["seconds"] = np.asarray(time.time() - t_gen)
        data_path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(data_path, allow_pickle=True, **data)
    else:
        driver = None
        if args.dagger:
            import tempfile

            from sb3_contrib import MaskablePPO

            from agents.ppo import NumpyPolicy, export_sb3

            with tempfile.TemporaryDirectory() as d:
                export_sb3(MaskablePPO.load(args.dagger, device="cpu"), Path(d) / "w.npz")
                driver = NumpyPolicy.load(Path(d) / "w.npz")
        data = generate(args.games, seed=args.seed, vs_random=args.vs_random, gamma=args.gamma,
                        progress=not args.no_progress, max_minutes=args.gen_minutes, driver=driver)
        data_path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(data_path, allow_pickle=True, **data)
    parts = [data]
    for extra in [x for x in args.merge.split(",") if x]:
        with np.load(extra) as z:
            parts.append({k: z[k] for k in z.files})
    data = merge(parts)
    n = len(data["actions"])
    n_legal = np.unpackbits(data["masks"], axis=1).sum(1)
    summary = {"games": int(data["n_games"]), "decisions": n,
               **({"ladder_games_without_actions": int(data["skipped_without_actions"])}
                  if "skipped_without_actions" in data else {}),
               **({"relabelled": int(data["relabelled"])} if "relabelled" in data else {}),
               "generate_seconds": round(float(data["seconds"])),
               "mean_nonzeros": float(data["indptr"][-1] / max(n, 1)), "mean_legal": float(n_legal.mean()) if n else 0,
               "data_bytes": data_path.stat().st_size if data_path.exists() else None}
    print(json.dumps(summary), flush=True)

    net = [int(x) for x in args.net.split(",")]
    actor = None
    if args.init and args.init.endswith(".npz"):
        actor, net = _train_ppo().read_actor(args.init)
    model = build_model(net, seed=args.seed)
    if actor is not None:
        _train_ppo().load_actor(model, actor)
    elif args.init:
        from sb3_contrib import MaskablePPO

        model.policy.load_state_dict(MaskablePPO.load(args.init, device="cpu").policy.state_dict())
    t0 = time.time()
    result = train(model, data, epochs=args.epochs, batch_size=args.batch_size, lr=args.lr,
                   value_coef=args.value_coef, holdout=args.holdout, seed=args.seed,
                   progress=not args.no_progress, max_minutes=args.train_minutes)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    meta = {"command": " ".join(["python", "scripts/pretrain_bc.py", *(argv if argv is not None else sys.argv[1:])]),
            "data": summary, "net_arch": net, "train_seconds": round(time.time() - t0), **result,
            "hardware": f"{platform.processor() or platform.machine()}, CPU only", "python": platform.python_version(),
            "torch": torch.__version__}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=2))
    print(json.dumps({"saved": str(out), **{k: v for k, v in meta.items() if k != "history"}}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
