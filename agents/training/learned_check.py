#!/usr/bin/env python
"""Teach the hostwcg_v1 network its own check: a network fitted to the lookahead's scores.

    # 1. rows: the network plays the heuristic; at each of its choices the check
    #    (ppo_v1:look) scores the network's 4 most probable actions (5 x 1,000 games)
    for c in $(seq 0 4); do
      python scripts/learned_check.py rows agents/checkpoints/ppo_hostwcg_v1.npz \\
          --seed $((130000000 + 1000 * c)) --games 1000 --out runs/check/rows/c$c.npz --workers 2
    done
    # 2. the head, fitted on those rows; the network's weights with the head beside them
    python scripts/learned_check.py train agents/checkpoints/ppo_hostwcg_v1.npz 'runs/check/rows/c*.npz' \\
        --margin 0.02 --out runs/check/net_check.npz
    # 3. play it: ppo_v1:runs/check/net_check.npz (ppo_v1:PATH:plain leaves the check out)

Why: ``ppo_v1:look`` (``agents/set_search.py``) wins about 8 points more against the heuristic
than the network alone by racing the network's most probable actions through the engine; a
network that must choose without the engine can still learn what those races say. ``rows``
plays ``--games`` seat-swapped games on the ladder's decks (``hostwcg_env.analysis.ladder.schedule``)
between ``--opponent`` and the network (guarded, as ``ppo_v1`` plays); at every choice the
check would race (two or more sensible actions, not a setup choice) it records the network's
observation (``agents.demos_v1`` rows), its ``--top`` most probable actions and their logits,
and the lookahead's evaluation of each after a rollout to the end of the next turn in
``--worlds`` sampled worlds (``LookaheadAgent.scores``). Every other game plays the check's
choice, the rest the network's, so the rows cover the states both reach. ``train`` fits a
second set network (``SetEncoder.parts``, started from the policy's weights) and an MLP head
(``CheckNet``) to those evaluations, centred within each choice (squared error; whole games
held out give its error and how often its pick matches the check's), and writes the policy's
weights with the check's (``check.*``), its ``--margin`` and ``--top``. The agent then plays
the check's pick among the network's top actions when it scores more than the margin over the
network's own (``NumpySetPolicy.check_choice``): no engine, numpy alone.
``docs/agents.md`` ("Where the check's gain comes from, and a learned check") has the
measurements: in pilots it did not beat the network alone.

``improve`` teaches the policy itself instead, by soft expert iteration: each choice's target
is the network's own distribution with each scored action's logit raised by ``--beta`` times
how much its score beats the first's (``soft_targets``), so the network keeps its preferences
and moves towards an action by how much better the check found it, and a small gap in a noisy
one-world score moves it little. It trains from the weights the rows were made with
(cross-entropy to the targets, squared error of the value to the game's result), writes the
model (``--out``, a MaskablePPO .zip) and numpy weights (``--export``); the next round makes
its rows with those weights:

    python scripts/learned_check.py improve agents/checkpoints/ppo_hostwcg_v1.npz \
        'runs/check/rows/c*.npz' --beta 30 --out runs/ei/r1.zip --export runs/ei/r1.npz
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from agents.set_policy import CHECK_LOGIT_SCALE

ROOT = Path(__file__).resolve().parents[2]  # the checkout: runs/ and agents/checkpoints/ below it


def _recorder(weights: str, seed: int, worlds: int, top: int, play_check: bool) -> Any:
    from types import SimpleNamespace

    from agents.demos_v1 import V1Demos
    from agents.lookahead import searched
    from agents.set_search import SearchedSetAgent

    class Recorder(SearchedSetAgent):
        """``ppo_v1:look`` that records, at each choice it checks, what ``train`` fits: the
        network's observation, its ``top`` most probable actions, their logits and scores."""

        demos: Any
        extra: list[tuple[np.ndarray, np.ndarray, np.ndarray]]
        play_check: bool

        def label(self, view: Any, actions: Any) -> Any:
            own, options = self.net.propose(view, actions)
            d = view.decision()
            if not searched(d, len(options)) or len(self.net.ranked) < 2:
                return own
            opts = self.net.ranked[: self.top]
            scores = self.scores(view, opts)
            enc, slate, legal = self.net._parts[view.config]
            if self.demos is None:
                self.demos = V1Demos(SimpleNamespace(obs_layout=enc.lay, encoder=enc))
            index = {a: i for i, a in legal.pairs}
            n = len(opts)
            idx = np.full(self.top, -1, np.int16)
            idx[:n] = [index[a] for a in opts]
            logits = self.net.logits  # the network's, from its proposal above
            assert logits is not None
            sc = np.full(self.top, np.nan, np.float32)
            sc[:n] = scores
            lg = np.full(self.top, np.nan, np.float32)
            lg[:n] = logits[idx[:n]]
            self.demos.add(slate.arrays, int(idx[0]), view.player)
            self.extra.append((idx, sc, lg))
            return self.prefer(opts, scores, own, range(n)) if self.play_check else own

    r = Recorder(weights, seed=seed, worlds=worlds, turns=2, top=top, margin=0.05, check=False)
    r.demos = None
    r.extra = []
    r.play_check = play_check
    return r


def _rows_of_game(args: tuple[Any, ...]) -> tuple[dict[str, np.ndarray], float] | None:
    from agents import make_agent
    from hostwcg_env.analysis.runner import play

    spec, k, weights, worlds, top = args
    me = spec.agents.index("X")
    r = _recorder(weights, spec.agent_seeds[me], worlds, top, play_check=k % 2 == 0)
    players = [r if n == "X" else make_agent(n, seed=s) for n, s in zip(spec.agents, spec.agent_seeds, strict=True)]
    winner = play(spec, players=players).record["winner"]
    if r.demos is None:
        return None
    r.demos.end_game(winner, 0.995)
    data = r.demos.arrays()
    cols = list(zip(*r.extra, strict=True))
    data.update(top_idx=np.stack(cols[0]), scores=np.stack(cols[1]), logits=np.stack(cols[2]))
    return data, 0.5 if winner is None else float(winner == me)


def _merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One set of rows of several (``agents.demos_v1.merge``, with the check's own arrays)."""
    from agents.demos_v1 import merge

    data = merge(parts)
    for k in ("top_idx", "scores", "logits"):
        data[k] = np.concatenate([p[k] for p in parts])
    return data


def load_rows(paths: list[str]) -> tuple[list[str], dict[str, np.ndarray]]:
    """The rows files matching ``paths`` (glob patterns), sorted, and their rows as one set."""
    files = sorted(f for p in paths for f in glob.glob(p))
    if not files:
        raise SystemExit(f"error: no rows file matches {paths}")
    parts = []
    for f in files:
        with np.load(f) as z:
            parts.append({k: z[k] for k in z.files})
    return files, _merge(parts)


def rows(weights: str, out: str, games: int, seed: int, opponent: str = "heuristic", worlds: int = 1,
         top: int = 4, workers: int = 1, decks: Any = None) -> dict[str, Any]:
    """The rows of ``games`` games (module docstring), dealt from ``decks`` (DeckRefs; default
    the eight preconstructed decks)."""
    from hostwcg_env.analysis.ladder import schedule

    t0 = time.time()
    specs = schedule([opponent, "X"], games, seed, decks)
    jobs = [(s, i, weights, worlds, top) for i, s in enumerate(specs)]
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers) as pool:
            res = [x for x in pool.imap(_rows_of_game, jobs, chunksize=2) if x is not None]
    else:
        res = [x for x in map(_rows_of_game, jobs) if x is not None]
    data = _merge([r[0] for r in res])
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, allow_pickle=True, **data)
    facts = {"weights": weights, "opponent": opponent, "seed": seed, "games": len(res),
             "rows": len(data["actions"]), "worlds": worlds, "top": top,
             "score": float(np.mean([r[1] for r in res])), "seconds": round(time.time() - t0, 1)}
    print(json.dumps(facts), flush=True)
    return facts


def _epochs(epochs: int, rng: np.random.Generator, rows: np.ndarray, batch_size: int, loss_of: Any,
            params: list[Any], lr: float, held_out: Any, t0: float, max_minutes: float | None,
            log: list[dict[str, Any]]) -> bool:
    """Minibatch epochs over ``rows`` (shuffled by ``rng``): ``loss_of(batch)`` minimised by Adam
    at ``lr``, decaying linearly to a twentieth, with gradients clipped at norm 1; after each
    epoch its ``held_out()`` figures are logged and printed. True when ``max_minutes`` (from
    ``t0``) stopped it early."""
    import torch as th

    opt = th.optim.Adam(params, lr=lr)
    total = epochs * (len(rows) // batch_size + 1)
    sched = th.optim.lr_scheduler.LambdaLR(opt, lambda k: max(0.05, 1.0 - k / total))
    stopped = False
    for epoch in range(epochs):
        order = rng.permutation(rows)
        for k in range(0, len(order), batch_size):
            loss = loss_of(order[k : k + batch_size])
            opt.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            if max_minutes is not None and time.time() - t0 > 60 * max_minutes:
                stopped = True
                break
        log.append({"epoch": epoch + 1, **held_out(), "seconds": round(time.time() - t0, 1)})
        print(json.dumps(log[-1]), flush=True)
        if stopped:
            break
    return stopped


def pick(q: np.ndarray, valid: np.ndarray, margin: float) -> np.ndarray:
    """Each choice's pick: the best-scored action if it scores more than ``margin`` over the first."""
    s = np.where(valid, q, -np.inf)
    best = s.argmax(1)
    return np.where(s[np.arange(len(s)), best] > s[:, 0] + margin, best, 0)


class CheckNet:
    """The learned check in torch: a set network (``SetEncoder``, started from the policy's
    weights) and an MLP head over [action vector, state vector, logit below the first's, rank]."""

    def __init__(self, weights: dict[str, np.ndarray], top: int, hidden: int) -> None:
        import torch as th

        from agents.set_policy import sizes
        from agents.set_policy_torch import SetEncoder
        from hostwcg_env.engine import RuleConfig
        from hostwcg_env.env.v1.layout import obs_layout
        from hostwcg_env.env.v1.spaces import observation_space

        dim, emb, head = sizes(weights)
        self.enc = SetEncoder(observation_space(obs_layout(RuleConfig())), dim=dim, emb=emb, head=head)
        self.enc.load_state_dict({k[4:]: th.as_tensor(v) for k, v in weights.items() if k.startswith("enc.")})
        self.head = th.nn.Sequential(th.nn.Linear(2 * dim + 1 + top, hidden), th.nn.ReLU(),
                                     th.nn.Linear(hidden, hidden // 2), th.nn.ReLU(), th.nn.Linear(hidden // 2, 1))
        self.top = top

    def parameters(self) -> list[Any]:
        return [*self.enc.parameters(), *self.head.parameters()]

    def scores(self, obs: dict[str, Any], idx: Any, rel: Any) -> Any:
        """(B, top) scores of the actions ``idx`` (B, top; -1 none) with logits ``rel`` below the first's."""
        import torch as th

        _logits, s, ab, an, av = self.enc.parts(obs)
        b = s.shape[0]
        where = th.zeros((b, obs["action_mask"].shape[1]), dtype=th.long)
        where[ab, an] = th.arange(len(ab))
        at = where[th.arange(b)[:, None], idx.clamp(min=0)]  # (B, top) -> rows of av
        x = th.cat([av[at], s[:, None, :].expand(-1, self.top, -1), rel[..., None],
                    th.eye(self.top).expand(b, -1, -1)], dim=-1)
        return self.head(x).squeeze(-1)


def train(weights: str, paths: list[str], out: str, margin: float, hidden: int = 256, epochs: int = 4,
          lr: float = 5e-4, batch_size: int = 512, holdout: float = 0.05, seed: int = 0,
          max_minutes: float | None = None) -> dict[str, Any]:
    import torch as th

    from agents.set_policy import load_weights
    from agents.training.distill_v1 import obs_tensors

    t0 = time.time()
    th.manual_seed(seed)
    th.set_num_threads(max(1, os.cpu_count() or 1))
    files, data = load_rows(paths)
    w = {k: v for k, v in load_weights(weights).items() if not k.startswith("check.")}
    top = data["scores"].shape[1]
    valid = ~np.isnan(data["scores"])
    sc = np.nan_to_num(data["scores"], nan=0.0)
    y = ((sc - (sc * valid).sum(1, keepdims=True) / valid.sum(1, keepdims=True)) * valid).astype(np.float32)
    rel = (np.nan_to_num(data["logits"] - data["logits"][:, :1], nan=0.0) / CHECK_LOGIT_SCALE).astype(np.float32)
    rng = np.random.default_rng(seed)
    n_games = int(data["n_games"])
    held = rng.choice(n_games, size=max(1, int(n_games * holdout)), replace=False)
    test = np.isin(data["games"], held)
    tr, te = np.flatnonzero(~test), np.flatnonzero(test)
    net = CheckNet(w, top, hidden)

    def run(rows: np.ndarray) -> tuple[Any, Any]:
        obs = obs_tensors(data, rows)
        v = th.as_tensor(valid[rows].astype(np.float32))
        q = net.scores(obs, th.as_tensor(data["top_idx"][rows].astype(np.int64)), th.as_tensor(rel[rows]))
        return (q - (q * v).sum(1, keepdim=True) / v.sum(1, keepdim=True)) * v, v

    def held_out() -> dict[str, float]:
        with th.no_grad():
            q = np.concatenate([run(te[k : k + 2048])[0].numpy() for k in range(0, len(te), 2048)])
        v = valid[te]
        truth, mine = pick(data["scores"][te], v, 0.05), pick(q, v, margin)
        return {"mse": float(((q - y[te]) ** 2 * v).sum() / v.sum()),
                "mse_of_zero": float((y[te] ** 2 * v).sum() / v.sum()),
                "switches": float((mine != 0).mean()), "check_switches": float((truth != 0).mean()),
                "agrees_with_check": float((mine == truth).mean())}

    def loss_of(b: np.ndarray) -> Any:
        q, v = run(b)
        return ((q - th.as_tensor(y[b])) ** 2 * v).sum() / v.sum()

    log: list[dict[str, Any]] = []
    stopped = _epochs(epochs, rng, tr, batch_size, loss_of, net.parameters(), lr, held_out, t0, max_minutes, log)
    for k, v in net.enc.state_dict().items():
        w[f"check.enc.{k}"] = v.detach().numpy().astype(np.float32)
    w["check.value.weight"], w["check.value.bias"] = w["value.weight"], w["value.bias"]
    for i, layer in enumerate(net.head):
        if isinstance(layer, th.nn.Linear):
            w[f"check.head.{i}.weight"] = layer.weight.detach().numpy().astype(np.float32)
            w[f"check.head.{i}.bias"] = layer.bias.detach().numpy().astype(np.float32)
    w["check.margin"] = np.array([margin], np.float32)
    w["check.top"] = np.array([top], np.float32)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, allow_pickle=True, **w)
    facts = {"weights": weights, "rows": files, "choices": int(len(y)), "train": int(len(tr)), "held_out": int(len(te)),
             "top": top, "hidden": hidden, "epochs": log, "lr": lr, "batch_size": batch_size, "margin": margin,
             "seed": seed, "seconds": round(time.time() - t0, 1), "stopped_early": stopped}
    Path(out).with_suffix(".json").write_text(json.dumps(facts, indent=1) + "\n")
    return facts


def soft_targets(old_logits: np.ndarray, top_idx: np.ndarray, scores: np.ndarray, beta: float) -> np.ndarray:
    """Each choice's target distribution over the action indices (N, A): the softmax of the
    network's logits ``old_logits`` (-inf at the illegal indices), each scored action's
    (``top_idx``, -1 none; ``scores``, NaN none) raised by ``beta`` times its score less the
    first's. Actions not scored keep their logits; with every score equal, the target is the
    network's own distribution."""
    z = np.asarray(old_logits, dtype=np.float64).copy()
    n, top = top_idx.shape
    valid = (top_idx >= 0) & ~np.isnan(scores)
    gap = np.where(valid, np.nan_to_num(scores) - np.nan_to_num(scores[:, :1]), 0.0)
    rows = np.repeat(np.arange(n), top).reshape(n, top)
    z[rows[valid], top_idx[valid].astype(np.int64)] += beta * gap[valid]
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


def improve(weights: str, paths: list[str], out: str, beta: float = 30.0, epochs: int = 2, lr: float = 3e-4,
            batch_size: int = 512, value_coef: float = 0.5, holdout: float = 0.03, seed: int = 0,
            export: str | None = None, max_minutes: float | None = None) -> dict[str, Any]:
    """One round of soft expert iteration (module docstring): the network of ``weights``, trained
    on the rows ``paths`` (made with those weights) to ``soft_targets``; whole games held out
    give the cross-entropy and how often its choice is the check's pick (margin 0.05, as
    ``ppo_v1:look``) or, where the check keeps the network's choice, still that choice."""
    import torch as th

    from agents.demos_v1 import batch
    from agents.set_policy import NumpySetPolicy, load_weights, sizes
    from agents.set_policy_torch import export_weights
    from agents.training.distill_v1 import build_model, policy_outputs

    t0 = time.time()
    th.manual_seed(seed)
    th.set_num_threads(max(1, os.cpu_count() or 1))
    files, data = load_rows(paths)
    w = {k: v for k, v in load_weights(weights).items() if not k.startswith("check.")}
    policy_np = NumpySetPolicy(w)
    n = len(data["actions"])
    old = []
    for k in range(0, n, 4096):
        obs = batch(data, np.arange(k, min(n, k + 4096)))
        lg, _ = policy_np.forward(obs)
        old.append(np.where(obs["action_mask"] > 0, lg, -np.inf).astype(np.float32))
    old_logits = np.concatenate(old)
    del old
    top_idx = data["top_idx"].astype(np.int64)
    # the rows' first choice is this network's: its logit is the row's best, up to float noise
    # (a barely trained network has near ties, and the rows' BLAS may sum in another order)
    first = old_logits[np.arange(n), top_idx[:, 0]]
    if not (first >= old_logits.max(1) - 1e-4 * (1.0 + np.abs(first))).mean() > 0.99:
        raise SystemExit(f"error: the rows {paths} were not made with {weights}: its first choice is not "
                         f"theirs (the rows of `learned_check.py rows WEIGHTS`)")
    target = soft_targets(old_logits, top_idx, data["scores"], beta)
    picks = top_idx[np.arange(n), pick(data["scores"], ~np.isnan(data["scores"]), 0.05)]
    values = data["value_targets"].astype(np.float32)
    rng = np.random.default_rng(seed)
    n_games = int(data["n_games"])
    held: np.ndarray | list[int] = (rng.choice(n_games, size=max(1, int(n_games * holdout)), replace=False)
                                    if holdout > 0 else [])
    test = np.isin(data["games"], held)
    tr, te = np.flatnonzero(~test), np.flatnonzero(test)
    dim, emb, head = sizes(w)
    model = build_model(dim, emb, seed, weights, head)
    policy = model.policy
    policy.train()

    def cross_entropy(logits: Any, r: np.ndarray) -> Any:
        """Each row's cross-entropy of the network's distribution to its soft target."""
        return -(th.as_tensor(target[r]) * th.log_softmax(logits, 1)).sum(1)

    def held_out() -> dict[str, float]:
        policy.eval()
        ce, mine = 0.0, []
        with th.no_grad():
            for k in range(0, len(te), 2048):
                r = te[k : k + 2048]
                logits, _ = policy_outputs(policy, data, r)
                ce += float(cross_entropy(logits, r).sum())
                mine.append(logits.argmax(1).numpy())
        policy.train()
        got = np.concatenate(mine) if mine else np.zeros(0, np.int64)
        over = picks[te] != top_idx[te, 0]
        return {"cross_entropy": ce / max(1, len(te)),
                "check_picks_taken": float((got[over] == picks[te][over]).mean()) if over.any() else 0.0,
                "kept": float((got[~over] == top_idx[te, 0][~over]).mean()) if (~over).any() else 0.0}

    def loss_of(r: np.ndarray) -> Any:
        logits, value = policy_outputs(policy, data, r)
        return cross_entropy(logits, r).mean() + value_coef * th.nn.functional.mse_loss(value, th.as_tensor(values[r]))

    log = [{"epoch": 0, **held_out()}]
    print(json.dumps(log[0]), flush=True)
    stopped = _epochs(epochs, rng, tr, batch_size, loss_of, list(policy.parameters()), lr, held_out, t0, max_minutes,
                      log)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    if export:
        np.savez(export, allow_pickle=True, **export_weights(model))
    facts = {"weights": weights, "rows": files, "choices": n, "train": int(len(tr)), "held_out": int(len(te)),
             "beta": beta, "epochs": log, "lr": lr, "batch_size": batch_size, "value_coef": value_coef,
             "seed": seed, "seconds": round(time.time() - t0, 1), "stopped_early": stopped}
    Path(out).with_suffix(".json").write_text(json.dumps(facts, indent=1) + "\n")
    return facts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("rows", help="the check's scores of the network's top actions in its games")
    r.add_argument("weights", help="the network's numpy weights (.npz)")
    r.add_argument("--out", required=True)
    r.add_argument("--games", type=int, default=1000)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--opponent", default="heuristic")
    r.add_argument("--worlds", type=int, default=1)
    r.add_argument("--top", type=int, default=4)
    r.add_argument("--workers", type=int, default=1)
    t = sub.add_parser("train", help="fit the head; the network's weights with it")
    t.add_argument("weights", help="the network's numpy weights (.npz) the rows were made with")
    t.add_argument("rows", nargs="+", help="rows files (glob patterns allowed)")
    t.add_argument("--out", required=True)
    t.add_argument("--margin", type=float, required=True)
    t.add_argument("--hidden", type=int, default=256)
    t.add_argument("--epochs", type=int, default=4)
    t.add_argument("--lr", type=float, default=5e-4)
    t.add_argument("--batch-size", type=int, default=512)
    t.add_argument("--max-minutes", type=float, default=None)
    t.add_argument("--holdout", type=float, default=0.05)
    t.add_argument("--seed", type=int, default=0)
    i = sub.add_parser("improve", help="soft expert iteration: the policy trained towards the check's scores")
    i.add_argument("weights", help="the network's numpy weights (.npz) the rows were made with")
    i.add_argument("rows", nargs="+", help="rows files (glob patterns allowed)")
    i.add_argument("--out", required=True, help="the model (.zip)")
    i.add_argument("--export", default=None, metavar="PATH.npz", help="its numpy weights")
    i.add_argument("--beta", type=float, default=30.0)
    i.add_argument("--epochs", type=int, default=2)
    i.add_argument("--lr", type=float, default=3e-4)
    i.add_argument("--batch-size", type=int, default=512)
    i.add_argument("--value-coef", type=float, default=0.5)
    i.add_argument("--holdout", type=float, default=0.03)
    i.add_argument("--seed", type=int, default=0)
    i.add_argument("--max-minutes", type=float, default=None)
    a = p.parse_args(argv)
    if a.cmd == "rows":
        rows(a.weights, a.out, a.games, a.seed, a.opponent, a.worlds, a.top, a.workers)
    elif a.cmd == "improve":
        improve(a.weights, a.rows, a.out, a.beta, a.epochs, a.lr, a.batch_size, a.value_coef, a.holdout, a.seed,
                a.export, a.max_minutes)
    else:
        train(a.weights, a.rows, a.out, a.margin, a.hidden, a.epochs, a.lr, a.batch_size, a.holdout, a.seed,
              a.max_minutes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
