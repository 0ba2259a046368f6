#!/usr/bin/env python
"""Distil a search agent into the hostwcg_v1 set policy: its recorded choices, cloned.

    # 1. the rows: every choice of the lookahead in kept game records (balance shards, ladder files)
    python scripts/distill_v1.py extract runs/skill/lookahead --agent lookahead --games 3000 \\
        --out runs/distill/lookahead.npz --workers 2
    # 2. train the set policy on them (a MaskablePPO .zip that scripts/train_v1.py --init continues)
    python scripts/distill_v1.py train runs/distill/lookahead.npz --epochs 4 --out runs/distill/bc.zip \\
        --export runs/distill/bc.npz
    # 3. its strength, greedy, against fixed agents
    python scripts/distill_v1.py eval runs/distill/bc.npz --opponents random,heuristic,lookahead --games 100

Why: PPO from a random set policy learns slowly on 2 cores (docs/agents.md, "The v1 league": 35%
against the heuristic after 400,000 steps). The lookahead's own games are already recorded with
every action (``hostwcg balance --agent lookahead`` keeps them), so replaying them through
``hostwcg_v1`` gives each of its choices exactly as the v1 env would show it
(``agents/demos_v1.py``: memory and history included) at no game's cost.

* ``extract``: replays the records (in file order; ``--games`` at most, ``--agent`` the recorded
  seats' name, or every seat) in ``--workers`` processes; writes one ``.npz``.
* ``train``: cross-entropy of the masked logits against the recorded action plus
  ``--value-coef`` times the squared error of the value against the discounted result; whole
  games held out (``--holdout``) give the accuracy after each epoch; ``--init`` continues from a
  .zip or from numpy weights (.npz), ``--head H`` adds the action MLP of H units to weights that
  lack it (at zero output, so the network starts as it was), ``--only-head`` trains that MLP
  alone. The output is an ordinary ``MaskablePPO.load``-able .zip (``agents.set_policy_torch.SetPolicy``),
  with its facts in a .json beside it and, with ``--export``, the numpy weights
  (``agents.set_policy.NumpySetPolicy``).
* ``eval``: the numpy policy, greedy, in ``--games`` games (seats alternating) against each agent.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from agents.training.train_v1 import DECKS, deck_kwargs, opponent_of, play

if TYPE_CHECKING:
    from hostwcg_env.analysis.records import Record
    from hostwcg_env.engine.actions import Action
    from hostwcg_env.engine.view import PlayerView


@runtime_checkable
class _Labeller(Protocol):
    """A teacher that remembers the game (``ppo_v1``, ``ppo_v1:look``): it labels a choice
    without playing it and is then told the action played."""

    def label(self, view: PlayerView, actions: tuple[Action, ...]) -> Action: ...
    def record(self, action: Action) -> None: ...


ROOT = Path(__file__).resolve().parents[2]  # the checkout: runs/ and agents/checkpoints/ below it


def _records(paths: list[str], agent: str | None, games: int | None) -> list[Record]:
    from hostwcg_env.analysis.replay import replayable

    out = []
    for rec in replayable(paths, warn=False):
        if rec.get("rules") or (agent is not None and agent not in rec["agents"]):
            continue
        out.append(rec)
        if games is not None and len(out) >= games:
            break
    return out


def _extract_part(args: tuple[list[Record], str | None, float]) -> dict[str, np.ndarray]:
    from hostwcg_env.analysis.distill import v1_from_records as from_records

    recs, agent, gamma = args
    return from_records(recs, agent=agent, gamma=gamma)


def extract(paths: list[str], agent: str | None, games: int | None, out: str, workers: int = 1,
            gamma: float = 0.995) -> dict[str, Any]:
    from agents.demos_v1 import merge

    t0 = time.time()
    recs = _records(paths, agent, games)
    if not recs:
        raise SystemExit(f"error: no replayable record{' with agent ' + repr(agent) if agent else ''} in {paths}")
    chunks = [recs[k::max(1, workers) * 8] for k in range(max(1, workers) * 8)]
    chunks = [c for c in chunks if c]
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_extract_part, [(c, agent, gamma) for c in chunks])
    else:
        parts = [_extract_part((c, agent, gamma)) for c in chunks]
    data = merge(parts)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, allow_pickle=True, **data)
    facts = {"records": [str(p) for p in paths], "agent": agent, "games": int(data["n_games"]),
             "skipped_unexpressible": sum(int(p["skipped_unexpressible"]) for p in parts),
             "rows": int(len(data["actions"])), "seconds": round(time.time() - t0, 1),
             "bytes": int(sum(v.nbytes for v in data.values()))}
    print(json.dumps(facts))
    return facts


def load(paths: list[str]) -> dict[str, np.ndarray]:
    from agents.demos_v1 import merge

    parts = []
    for p in paths:
        with np.load(p) as z:
            parts.append({k: z[k] for k in z.files})
    return parts[0] if len(parts) == 1 else merge(parts)


def build_model(dim: int, emb: int, seed: int, init: str | None = None, head: int = 0) -> Any:
    """A MaskablePPO(SetPolicy) model: new, or continued from ``init``, a saved model (.zip, with
    its optimizer) or numpy weights (.npz, whose ``dim`` and ``emb`` it takes). ``head`` > 0 adds
    the action MLP to numpy weights that lack it (started at zero output: it plays as they did)."""
    import torch
    from sb3_contrib import MaskablePPO

    from agents.set_policy import load_weights, sizes
    from agents.set_policy_torch import SetPolicy, card_kwargs, import_weights
    from hostwcg_env.env.v1.vector import VectorEnv

    torch.set_num_threads(1)
    vec = VectorEnv(1, seed=seed)
    if init and not init.endswith(".npz"):
        return MaskablePPO.load(init, env=vec, device="cpu")
    weights = load_weights(init) if init else None
    if weights is not None:
        dim, emb, own_head = sizes(weights)
        head = own_head or head
    model = MaskablePPO(SetPolicy, vec, n_steps=32, batch_size=1024, seed=seed, device="cpu",
                        policy_kwargs={"dim": dim, "emb": emb, "head": head, **card_kwargs()})
    if weights is not None:
        import_weights(model, weights)
    return model


def obs_tensors(data: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, Any]:
    """The observations of demonstration ``rows`` as torch tensors, the float arrays as float32."""
    import torch as th

    from agents.demos_v1 import batch

    obs = {k: th.as_tensor(v) for k, v in batch(data, rows).items()}
    obs["cards"] = obs["cards"].float()
    obs["globals"] = obs["globals"].float()
    return obs


def policy_outputs(policy: Any, data: dict[str, np.ndarray], rows: np.ndarray) -> tuple[Any, Any]:
    """A MaskablePPO(SetPolicy)'s logits on ``rows`` (-1e9 at the illegal actions) and values."""
    fe = policy.features_extractor
    obs = obs_tensors(data, rows)
    feats = fe(obs)
    logits = feats[:, : fe.n_actions].masked_fill(obs["action_mask"] == 0, -1e9)
    return logits, policy.value_net(feats[:, fe.n_actions :]).squeeze(-1)


def row_weights(data: dict[str, np.ndarray], actions: np.ndarray, kind_weights: dict[str, float]) -> np.ndarray:
    """Each row's weight in the cloning loss: the weight of its label's action kind
    (``hostwcg_v1``'s ``action_kind``, docs/observation_v1.md "Action kinds")."""
    from hostwcg_env.env.v1.layout import ACTION_KINDS

    kinds = list(ACTION_KINDS)
    unknown = sorted(set(kind_weights) - set(kinds))
    if unknown:
        raise ValueError(f"not an action kind: {', '.join(unknown)} (the kinds: {', '.join(kinds)})")
    per_kind = np.ones(len(kinds), np.float32)
    for k, w in kind_weights.items():
        per_kind[kinds.index(k)] = w
    return per_kind[data["action_kind"][actions]]


def train(data: dict[str, np.ndarray], out: str, epochs: int = 4, batch_size: int = 512, lr: float = 1e-3,
          value_coef: float = 0.5, holdout: float = 0.05, dim: int = 64, emb: int = 32, seed: int = 0,
          init: str | None = None, export: str | None = None, max_minutes: float | None = None,
          head: int = 0, only_head: bool = False, kind_weights: dict[str, float] | None = None) -> dict[str, Any]:
    """Clone the rows' labels (and fit the value). ``kind_weights``: action kind (``hostwcg_v1``'s
    ``action_kind``, docs/observation_v1.md) -> the weight of the cross-entropy on the rows
    whose label is of that kind (1 for the others): a rare choice the network is blind to, such
    as ``ap_any``, weighs more."""
    import torch as th

    from agents.set_policy_torch import export_weights

    t0 = time.time()
    model = build_model(dim, emb, seed, init, head)
    policy = model.policy
    policy.train()
    fe = policy.features_extractor
    if only_head:  # the rest of the network stays as it was: only the action MLP learns
        if not fe.head:
            raise ValueError("--only-head needs the action MLP (--head H, or weights that have it)")
        for name, p in policy.named_parameters():
            p.requires_grad_(name.startswith(("features_extractor.head1.", "features_extractor.head2.")))
    opt = th.optim.Adam([p for p in policy.parameters() if p.requires_grad], lr=lr)
    rng = np.random.default_rng(seed)
    games = data["games"]
    n_games = int(data["n_games"])
    held = set(rng.choice(n_games, size=max(1, int(round(holdout * n_games))), replace=False).tolist()) \
        if holdout > 0 else set()
    is_held = np.isin(games, np.fromiter(held, dtype=np.int64)) if held else np.zeros(len(games), bool)
    train_rows, test_rows = np.flatnonzero(~is_held), np.flatnonzero(is_held)
    actions = data["actions"].astype(np.int64)
    targets = data["value_targets"].astype(np.float32)
    weights = row_weights(data, actions, kind_weights) if kind_weights else None
    total_batches = epochs * int(np.ceil(len(train_rows) / batch_size))
    sched = th.optim.lr_scheduler.LambdaLR(opt, lambda k: max(0.05, 1.0 - k / max(1, total_batches)))

    def evaluate(rows: np.ndarray) -> dict[str, float]:
        policy.eval()
        hits = n = 0
        vloss = 0.0
        with th.no_grad():
            for k in range(0, len(rows), 2048):
                r = rows[k : k + 2048]
                logits, values = policy_outputs(policy, data, r)
                hits += int((logits.argmax(1).numpy() == actions[r]).sum())
                vloss += float(((values - th.as_tensor(targets[r])) ** 2).sum())
                n += len(r)
        policy.train()
        return {"accuracy": hits / max(1, n), "value_mse": vloss / max(1, n)}

    log: list[dict[str, Any]] = []
    stopped = False
    for epoch in range(epochs):
        order = rng.permutation(train_rows)
        ce_sum = v_sum = 0.0
        seen = 0
        for k in range(0, len(order), batch_size):
            r = order[k : k + batch_size]
            logits, values = policy_outputs(policy, data, r)
            if weights is None:
                ce = th.nn.functional.cross_entropy(logits, th.as_tensor(actions[r]))
            else:
                each = th.nn.functional.cross_entropy(logits, th.as_tensor(actions[r]), reduction="none")
                ce = (each * th.as_tensor(weights[r])).mean()
            vl = th.nn.functional.mse_loss(values, th.as_tensor(targets[r]))
            loss = ce + value_coef * vl
            opt.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            sched.step()
            ce_sum += float(ce.detach()) * len(r)
            v_sum += float(vl.detach()) * len(r)
            seen += len(r)
            if max_minutes is not None and time.time() - t0 > 60 * max_minutes:
                stopped = True
                break
        row = {"epoch": epoch + 1, "train_ce": ce_sum / max(1, seen), "train_value_mse": v_sum / max(1, seen),
               **{f"holdout_{k}": v for k, v in evaluate(test_rows).items()}, "seconds": round(time.time() - t0, 1)}
        log.append(row)
        print(json.dumps(row), flush=True)
        if stopped:
            break
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    facts = {"rows": int(len(actions)), "games": n_games, "train_rows": int(len(train_rows)),
             "holdout_rows": int(len(test_rows)), "epochs": log, "lr": lr, "batch_size": batch_size,
             "value_coef": value_coef, "dim": fe.dim, "emb": fe.emb, "head": fe.head, "only_head": only_head,
             "kind_weights": dict(kind_weights or {}),
             "seed": seed, "init": init,
             "seconds": round(time.time() - t0, 1), "stopped_early": stopped}
    if export:
        np.savez(export, allow_pickle=True, **export_weights(model))
    Path(out).with_suffix(".json").write_text(json.dumps(facts, indent=1) + "\n")
    return facts


def dagger(weights_path: str, out: str, games: int, teacher: str = "lookahead",
           opponents: str = "lookahead,heuristic,self", envs: int = 32, seed: int = 0, greedy: bool = False,
           gamma: float = 0.995, decks: str = "shipped", max_minutes: float | None = None) -> dict[str, Any]:
    """DAgger rows: the student (the numpy policy ``weights_path``, sampling unless ``greedy``)
    plays ``games`` games in one seat against ``opponents`` (agent names, ``self`` for the
    student itself, drawn per game), and ``teacher`` labels every choice of the student from
    the student's own view; the student's action is played, so the rows cover the states the
    student reaches by itself. A teacher that remembers the game (``ppo_v1``, ``ppo_v1:look``)
    ``label``s each choice without playing it and is then told (``record``) the student's
    action, so its memory follows the game played. ``decks`` as ``train_v1.py --decks``
    (``ladder``: the stand-in test decks too). With ``max_minutes`` it stops after that wall
    time with the games finished by then (at least one game each slot may have under way is
    dropped)."""
    from agents import EngineAgent, make_agent
    from agents.demos_v1 import V1Demos, merge
    from agents.set_policy import NumpySetPolicy, load_weights
    from hostwcg_env.env.aec import AGENTS
    from hostwcg_env.env.codec import encode, offered
    from hostwcg_env.env.v1.vector import VectorEnv

    t0 = time.time()
    w = load_weights(weights_path)
    student = NumpySetPolicy(w, deterministic=greedy, seed=seed)
    pool: list[Any] = []
    for k, name in enumerate(o for o in opponents.split(",") if o):
        pool.append(NumpySetPolicy(w, deterministic=greedy, seed=seed + 17 + k) if name == "self"
                    else "random" if name == "random" else make_agent(name, seed=seed + 31 * (k + 1)))
    # one teacher a game slot, reset with each new game: a teacher that keeps a memory of the
    # game (``ppo_v1:look``, the v1 network's own memory) must see one game's choices in order
    labels: list[EngineAgent] = []
    for i in range(envs):
        t = make_agent(teacher, seed=seed + 1 + i)
        if not isinstance(t, EngineAgent):
            raise ValueError(f"teacher {teacher!r}: not an agent that chooses from a view")
        labels.append(t)
    vec = VectorEnv(envs, opponent=pool, seed=seed, copy_obs=False, **deck_kwargs(decks))
    builders = [V1Demos(vec.games[0]) for _ in range(envs)]
    obs = vec.reset()
    finished = agree = labelled = 0
    while finished < games:
        if max_minutes is not None and time.time() - t0 > 60 * max_minutes and finished:
            break
        masks = vec.action_masks()
        actions, _ = student.predict(obs, action_masks=masks)
        for i in range(envs):
            if masks[i].sum() < 2:
                continue
            e = vec.games[i]
            g = e.game
            assert g is not None
            d = g.decision
            assert d is not None
            acts = offered(d.actions)
            teacher_i = labels[i]
            if isinstance(teacher_i, _Labeller):  # a teacher with a memory is told the student's action
                a = teacher_i.label(g.view(d.player), acts)
                e.legal.refresh(g)  # the env's own index -> action map of this decision (v1/spaces.py)
                played = e.legal.decode(int(actions[i]))
                assert played is not None  # the student plays a legal (masked) action
                teacher_i.record(played)
            else:
                a = teacher_i.choose(g.view(d.player), acts)
            idx = encode(e.layout, g.state, d.player, a)
            builders[i].add({k: v[i] for k, v in obs.items()}, idx, d.player)
            agree += int(actions[i] == idx)
            labelled += 1
        vec.step_async(actions)  # vec.step, typed as VectorEnv's (dict) observations
        obs, _rewards, dones, infos = vec.step_wait()
        for i in np.flatnonzero(dones).tolist():
            win = infos[i].get("winner")
            builders[i].end_game(None if win is None else AGENTS.index(win), gamma)
            finished += 1
            labels[i].reset(int(seed + 1 + i + envs * finished))
    for b in builders:  # the rows of the games still under way (the last ones) are dropped
        b.truncate(sum(1 for gi in b.games if gi < b.n_games))
    data = merge([b.arrays() for b in builders])
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, allow_pickle=True, **data)
    facts = {"student": weights_path, "teacher": teacher, "opponents": opponents, "decks": decks,
             "games": int(data["n_games"]),
             "rows": int(len(data["actions"])), "agreement": agree / max(1, labelled),
             "stopped_early": finished < games,
             "seconds": round(time.time() - t0, 1)}
    print(json.dumps(facts), flush=True)
    return facts


def evaluate_policy(weights_path: str, opponents: list[str], games: int, seed: int,
                    decks: str = "shipped") -> dict[str, float]:
    from agents.league import Member
    from agents.set_policy import load_weights

    w = load_weights(weights_path)
    out = {}
    for k, name in enumerate(opponents):
        opp = opponent_of(Member(name=name, kind="agent"), seed + 7919 * (k + 1))
        scores = play(w, opp, games, seed + 1000 * k, greedy=True, **deck_kwargs(decks))
        out[name] = float(np.mean(scores))
        print(json.dumps({"opponent": name, "games": len(scores), "score": out[name]}), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract", help="records -> v1 demonstration rows (.npz)")
    e.add_argument("records", nargs="+", help="results files or folders of shards")
    e.add_argument("--agent", default=None, help="the recorded agent's name (default: every seat)")
    e.add_argument("--games", type=int, default=None)
    e.add_argument("--out", required=True)
    e.add_argument("--workers", type=int, default=1)
    e.add_argument("--gamma", type=float, default=0.995)
    t = sub.add_parser("train", help="behaviour-clone the set policy on demonstration rows")
    t.add_argument("data", nargs="+")
    t.add_argument("--out", required=True)
    t.add_argument("--epochs", type=int, default=4)
    t.add_argument("--batch-size", type=int, default=512)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--value-coef", type=float, default=0.5)
    t.add_argument("--holdout", type=float, default=0.05)
    t.add_argument("--dim", type=int, default=64)
    t.add_argument("--emb", type=int, default=32)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--init", default=None, metavar="MODEL.zip|WEIGHTS.npz",
                   help="continue from a saved model (.zip) or numpy weights (.npz, their dim and emb)")
    t.add_argument("--head", type=int, default=0,
                   help="units of the action MLP (0: none); added at zero output to --init weights that lack it")
    t.add_argument("--only-head", action="store_true", help="train the action MLP alone, the rest frozen")
    t.add_argument("--export", default=None, metavar="PATH.npz")
    t.add_argument("--max-minutes", type=float, default=None)
    g = sub.add_parser("dagger", help="the student plays, the teacher labels its choices")
    g.add_argument("weights", help="the student's numpy weights (.npz)")
    g.add_argument("--out", required=True)
    g.add_argument("--games", type=int, default=500)
    g.add_argument("--teacher", default="lookahead")
    g.add_argument("--opponents", default="lookahead,heuristic,self")
    g.add_argument("--envs", type=int, default=32)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--greedy", action="store_true")
    v = sub.add_parser("eval", help="the numpy policy, greedy, against fixed agents")
    v.add_argument("weights")
    v.add_argument("--opponents", default="random,heuristic,lookahead")
    v.add_argument("--games", type=int, default=100)
    v.add_argument("--seed", type=int, default=900_000)
    for sp in (g, v):  # the decks the games are dealt from, as train_v1.py --decks
        sp.add_argument("--decks", default="shipped", choices=DECKS,
                        help="shipped: the eight preconstructed decks; ladder: and the two stand-in test decks")
    a = p.parse_args(argv)
    from hostwcg_env.extras import require

    if a.cmd != "extract":  # extracting demonstrations needs numpy alone
        require("train")  # torch, stable-baselines3, sb3-contrib: one line naming the extra if missing
    if a.cmd == "extract":
        extract(a.records, a.agent, a.games, a.out, a.workers, a.gamma)
    elif a.cmd == "train":
        train(load(a.data), a.out, a.epochs, a.batch_size, a.lr, a.value_coef, a.holdout, a.dim, a.emb,
              a.seed, a.init, a.export, a.max_minutes, a.head, a.only_head)
    elif a.cmd == "dagger":
        dagger(a.weights, a.out, a.games, a.teacher, a.opponents, a.envs, a.seed, a.greedy, decks=a.decks)
    else:
        evaluate_policy(a.weights, [o for o in a.opponents.split(",") if o], a.games, a.seed, a.decks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
