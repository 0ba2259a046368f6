"""Self-play training with Ray RLlib (PPO, new API stack) on hostwcg_v1 (or hostwcg_v0).

Both seats are played by one shared policy, ``"shared"`` (multi-agent self-play): RLlib's
``PettingZooEnv`` wraps the env's PettingZoo AEC API, whose observations carry the legal-action
mask, and the RLModule gives illegal actions probability 0, so they are never sampled (the
unwrapped AEC env raises on an illegal action: a run that sampled one would fail).

* ``hostwcg_v1``: the v1 Dict observation (card rows, history, globals, actions described)
  goes whole to ``agents.rllib_module.SetRLModule``, the set encoder and pointer head of
  ``agents/set_policy_torch.py`` (the network MaskablePPO trains in scripts/bench_train.py).
* ``hostwcg_v0``: the flat observation, renamed to the ``{"observations", "action_mask"}`` dict
  of RLlib's ``ActionMaskingTorchRLModule`` (an MLP).

``--snapshot-every K`` adds a frozen opponent: every K iterations the shared policy's weights are
copied into ``"snapshot"`` (not trained), and in ``--snapshot-share`` of the games one seat
plays it.

``scripts/train_rllib.py`` is the command line (docs/balance.md, "RLlib").
Nothing here imports ray or torch at import time (tests/test_rllib_script.py): the RLlib parts
are imported inside the functions that need them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

RLLIB_ENV = "hostwcg_rllib"
ENVS = ("hostwcg_v1", "hostwcg_v0")
POLICY = "shared"
SNAPSHOT = "snapshot"


# ============================================================================ envs (no ray needed)


def rllib_obs_space(space: spaces.Dict) -> spaces.Dict:
    """hostwcg_v0's ``{"observation", "action_mask"}`` space as RLlib's masking module wants it."""
    obs = space["observation"]
    mask = space["action_mask"]
    assert isinstance(obs, spaces.Box), f"the observation space is a Box, not {obs}"
    return spaces.Dict({
        "action_mask": spaces.Box(0.0, 1.0, mask.shape, np.float32),
        "observations": spaces.Box(obs.low, obs.high, obs.shape, np.float32),
    })


def rllib_obs(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {"action_mask": obs["action_mask"].astype(np.float32), "observations": obs["observation"]}


class RLlibObsWrapper(BaseWrapper):
    """hostwcg_v0's AEC env with observations renamed and the mask as float32 (``rllib_obs_space``)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._space = rllib_obs_space(env.observation_space(env.possible_agents[0]))

    def observation_space(self, agent: str) -> spaces.Space:
        return self._space

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return rllib_obs(self.env.observe(agent))


def rule_overrides(items: Sequence[str] | None) -> dict[str, str]:
    """``["damage_draws=true"]`` -> ``{"damage_draws": "true"}`` (RuleConfig checks the flags
    and parses the values)."""
    out: dict[str, str] = {}
    for it in items or ():
        flag, eq, value = it.partition("=")
        if not eq or not flag.strip():
            raise ValueError(f"rule {it!r}: write FLAG=VALUE (e.g. damage_draws=true)")
        out[flag.strip()] = value.strip()
    return out


def make_env(config: dict[str, Any] | None = None) -> Any:
    """The unwrapped AEC env RLlib steps (an illegal action raises). ``config``: ``env``
    (``hostwcg_v1``, default, or ``hostwcg_v0``), ``decks`` (ids, prefixes or files; default two
    shipped decks), ``turn_limit``, ``rules`` (RuleConfig overrides, ``FLAG=VALUE``), ``seed``."""
    from hostwcg_env.engine import RuleConfig

    config = dict(config or {})
    version = config.get("env", ENVS[0])
    if version not in ENVS:
        raise ValueError(f"env {version!r}: RLlib training supports {', '.join(ENVS)}")
    decks = list(config.get("decks") or ["brae_deep_roots", "karsh_ember_tide"])  # names or paths
    kw = {"deck_pools": [decks, list(decks)],
          "config": RuleConfig().with_overrides(rule_overrides(config.get("rules"))),
          "turn_limit": config.get("turn_limit", 200)}
    if version == "hostwcg_v1":
        from hostwcg_env.env.v1 import raw_env as raw_v1

        env: Any = raw_v1(**kw)
    else:
        from hostwcg_env.env import raw_env as raw_v0

        env = RLlibObsWrapper(raw_v0(**kw))
    if "seed" in config:
        env.reset(seed=int(config["seed"]))
    return env


def make_rllib_env(config: dict[str, Any] | None = None) -> Any:
    """RLlib's ``PettingZooEnv`` around ``make_env(config)`` (registered as ``RLLIB_ENV``)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    return PettingZooEnv(make_env(config))


def policy_mapping_fn(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Both seats play the same (shared) policy: self-play."""
    return POLICY


class SnapshotMapping:
    """Agents to modules with a frozen opponent: in ``share`` of the games (decided per episode
    from its id, so both seats of a game agree) one seat, alternating, plays ``SNAPSHOT``."""

    def __init__(self, share: float) -> None:
        self.share = float(share)

    def __call__(self, agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
        key = str(getattr(episode, "id_", "")).encode()
        r = random.Random(zlib.crc32(key))
        if r.random() >= self.share:
            return POLICY
        seat = r.randrange(2)
        return SNAPSHOT if str(agent_id).endswith(str(seat)) else POLICY


# ============================================================================ acting (no ray needed)


def masked_argmax(logits: np.ndarray, mask: np.ndarray) -> int:
    return int(np.argmax(np.where(np.asarray(mask) > 0, logits, -np.inf)))


def masked_sample(logits: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    z = np.where(np.asarray(mask) > 0, logits, -np.inf)
    p = np.exp(z - z.max())
    return int(rng.choice(len(p), p=p / p.sum()))


Act = Callable[[dict[str, np.ndarray]], int]


def play_vs_random(act: Act, games: int, seed: int = 0, config: dict[str, Any] | None = None) -> float:
    """Win rate (draws half) of ``act(observation) -> action`` against the random agent, seats
    alternating; the observation is the env's (``make_env``), its ``action_mask`` included."""
    env = make_env(config)
    rng = np.random.default_rng(seed)
    score = 0.0
    for g in range(games):
        env.reset(seed=seed + g)
        me = env.possible_agents[g % 2]
        for agent in env.agent_iter():
            obs, _rew, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = act(obs) if agent == me else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(a)
        w = env.unwrapped.game.winner
        score += 0.5 if w is None else float(env.possible_agents[w] == me)
    return score / max(1, games)


def module_policy(module: Any, greedy: bool = False, seed: int = 0) -> Act:
    """``act(observation)`` from a trained RLModule: a sample from its masked action distribution
    (the policy as trained), or its most probable legal action (``greedy``)."""
    import torch

    rng = np.random.default_rng(seed)

    def act(obs: dict[str, np.ndarray]) -> int:
        with torch.no_grad():
            batch = {"obs": {k: torch.as_tensor(np.asarray(v)[None]) for k, v in obs.items()}}
            logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
        mask = obs["action_mask"]
        return masked_argmax(logits, mask) if greedy else masked_sample(logits, mask, rng)

    return act


# ============================================================================ command line


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="train_rllib.py",
                                description="Self-play PPO with Ray RLlib on hostwcg_v1 (or v0), "
                                            "one shared policy for both seats, illegal actions masked.")
    p.add_argument("--env", choices=ENVS, default=ENVS[0])
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--env-runners", type=int, default=0,
                   help="remote env runners, one CPU each (0: sample in the driver)")
    p.add_argument("--envs-per-runner", type=int, default=4, help="games each env runner steps together")
    p.add_argument("--learners", type=int, default=0, help="remote learners (0: learn in the driver)")
    p.add_argument("--train-batch", type=int, default=2000, help="env steps per training iteration")
    p.add_argument("--minibatch", type=int, default=250)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--dim", type=int, default=64, help="v1: the set policy's state and card vectors")
    p.add_argument("--emb", type=int, default=32, help="v1: the set policy's embeddings")
    p.add_argument("--hidden", default="256,256", help="v0: MLP hidden sizes")
    p.add_argument("--decks", nargs="+", default=["brae_deep_roots", "karsh_ember_tide"])
    p.add_argument("--turn-limit", type=int, default=100)
    p.add_argument("--rule", action="append", default=[], metavar="FLAG=VALUE")
    p.add_argument("--snapshot-every", type=int, default=0,
                   help="copy the policy into a frozen opponent every K iterations (0: pure self-play)")
    p.add_argument("--snapshot-share", type=float, default=0.5,
                   help="share of the games where one seat plays the snapshot")
    p.add_argument("--eval-every", type=int, default=5)
    p.add_argument("--eval-games", type=int, default=20)
    p.add_argument("--eval-greedy", action="store_true",
                   help="evaluate the most probable legal action (default: sample the policy)")
    p.add_argument("--address", help="a running Ray cluster: auto, HOST:6379, ray://HEAD:10001 "
                                      "(default: start a local one)")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray cluster")
    p.add_argument("--torch-threads", type=int, default=None,
                   help="torch threads in this process (the learner when --learners 0)")
    p.add_argument("--ship-code", action="store_true",
                   help="upload this checkout's hostwcg_env and agents to the cluster's workers")
    p.add_argument("--restore", help="a checkpoint folder to continue from")
    p.add_argument("--out", default="runs/rllib", help="checkpoint and metrics folder")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.iterations < 1:
        p.error("--iterations must be at least 1")
    if args.torch_threads is not None and args.torch_threads < 1:
        p.error("--torch-threads must be at least 1")
    if not 0.0 <= args.snapshot_share <= 1.0:
        p.error("--snapshot-share must be between 0 and 1")
    return args


def env_config(args: argparse.Namespace) -> dict[str, Any]:
    return {"env": args.env, "decks": list(args.decks), "turn_limit": args.turn_limit,
            "rules": list(args.rule)}


# ============================================================================ training (needs ray[rllib])


def _import_rllib() -> Any:
    try:
        from ray.rllib.algorithms.ppo import PPOConfig
    except ImportError as e:
        raise SystemExit(f"RLlib training needs Ray RLlib ({e}): pip install -e '.[rllib]' "
                         "(docs/balance.md, 'RLlib')") from e
    return PPOConfig


def module_spec(args: argparse.Namespace) -> Any:
    """The RLModuleSpec of the shared policy for ``args.env``."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    if args.env == "hostwcg_v1":
        from agents.rllib_module import SetRLModule

        return RLModuleSpec(module_class=SetRLModule, model_config={"dim": args.dim, "emb": args.emb})
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    hidden = [int(x) for x in args.hidden.split(",") if x]
    return RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                        model_config={"fcnet_hiddens": hidden, "head_fcnet_hiddens": []})


def build_config(args: argparse.Namespace) -> Any:
    """PPO on ``RLLIB_ENV``, both seats mapped to the shared module (and a frozen snapshot)."""
    PPOConfig = _import_rllib()
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.tune.registry import register_env

    register_env(RLLIB_ENV, make_rllib_env)
    spec = module_spec(args)
    specs = {POLICY: spec}
    mapping: Callable[..., str] = policy_mapping_fn
    if args.snapshot_every > 0:
        specs[SNAPSHOT] = spec
        mapping = SnapshotMapping(args.snapshot_share)
    return (
        PPOConfig()
        # RLlib's env check steps random unmasked actions, which the env refuses: skip it
        .environment(RLLIB_ENV, env_config=env_config(args), disable_env_checking=True)
        .multi_agent(policies=set(specs), policy_mapping_fn=mapping, policies_to_train=[POLICY])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner)
        .learners(num_learners=args.learners)
        .training(train_batch_size_per_learner=args.train_batch, minibatch_size=args.minibatch,
                  num_epochs=args.epochs, lr=args.lr)
        .debugging(seed=args.seed)
    )


def copy_to_snapshot(algo: Any) -> None:
    """The frozen opponent takes the shared policy's current weights (learner and env runners)."""
    state = algo.get_module(POLICY).get_state()
    algo.learner_group.foreach_learner(lambda learner: learner.module[SNAPSHOT].set_state(state))
    algo.env_runner_group.foreach_env_runner(lambda runner: runner.module[SNAPSHOT].set_state(state),
                                             local_env_runner=True)


def _get(d: Any, *path: str, default: Any = None) -> Any:
    """``d[path[0]][path[1]]...`` as a plain Python number (numpy's and torch's made plain for
    JSON; NaN, as RLlib gives a mean over no episode, is None), ``default`` where a key is missing."""
    for k in path:
        if not isinstance(d, dict) or k not in d:
            return default
        d = d[k]
    d = d.item() if hasattr(d, "item") else d
    return None if isinstance(d, float) and math.isnan(d) else d


def result_row(it: int, r: dict[str, Any]) -> dict[str, Any]:
    """The figures of one ``algo.train()`` result that the log keeps."""
    learner = _get(r, "learners", POLICY, default={})
    return {
        "iteration": it,
        "env_steps": _get(r, "env_runners", "num_env_steps_sampled_lifetime"),
        "env_steps_iter": _get(r, "env_runners", "num_env_steps_sampled"),
        "iteration_s": round(float(r.get("time_this_iter_s", 0.0)), 2),
        "module_steps": {m: _get(r, "env_runners", "num_module_steps_sampled", m)
                         for m in sorted(_get(r, "env_runners", "num_module_steps_sampled", default={}))},
        "episodes": _get(r, "env_runners", "num_episodes_lifetime"),
        "episode_len_mean": _get(r, "env_runners", "episode_len_mean"),
        **{k: _get(learner, k) for k in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "total_loss")},
    }


def train(args: argparse.Namespace, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train ``args.iterations`` iterations; write ``checkpoint/`` and ``metrics.jsonl`` to
    ``args.out``. Uses a Ray session already initialised in this process (left running), else
    starts one (``args.address`` or a local cluster) and shuts it down at the end. Returns
    ``{"rows": [...], "checkpoint": path, "env_steps": n, "train_seconds": s}`` (the time
    in ``algo.train()``, evaluation and setup left out)."""
    import ray

    _import_rllib()
    if args.torch_threads:
        import torch

        torch.set_num_threads(args.torch_threads)
    own = not ray.is_initialized()
    if own:
        kw: dict[str, Any] = {"ignore_reinit_error": True}
        if args.ship_code:
            import agents
            import hostwcg_env

            kw["runtime_env"] = {"py_modules": [hostwcg_env, agents]}
        from hostwcg_env.workers import ray_runtime_env

        kw["runtime_env"] = ray_runtime_env(kw.get("runtime_env"))  # whatever the working folder holds
        if args.address:
            kw["address"] = args.address
        else:
            # "local": a new instance even where `ray start` left one running
            kw.update(address="local", num_cpus=args.num_cpus, include_dashboard=False)
        ray.init(**kw)
    algo = build_config(args).build_algo()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    try:
        if args.restore:
            algo.restore_from_path(str(Path(args.restore).resolve()))
        if args.snapshot_every > 0:
            copy_to_snapshot(algo)
        sampled, train_s = 0, 0.0
        for it in range(1, args.iterations + 1):
            t0 = time.perf_counter()
            r = algo.train()
            wall = time.perf_counter() - t0
            train_s += wall
            row = result_row(it, r)
            if not row["env_steps_iter"]:  # RLlib logs a failed env runner and goes on: stop here
                raise RuntimeError(f"iteration {it} sampled no env steps: the env runners failed "
                                   "(their errors are in the log above)")
            sampled += row["env_steps_iter"]
            row["env_steps_per_s"] = round(row["env_steps_iter"] / max(wall, 1e-9), 1)
            if args.snapshot_every > 0 and it % args.snapshot_every == 0:
                copy_to_snapshot(algo)
            if args.eval_games > 0 and (it % args.eval_every == 0 or it == args.iterations):
                act = module_policy(algo.get_module(POLICY), args.eval_greedy, it)
                row["win_rate_vs_random"] = play_vs_random(act, args.eval_games, seed=10_000 + it,
                                                           config=env_config(args))
            rows.append(row)
            log(json.dumps(row))
        ckpt = algo.save_to_path(str(out.resolve() / "checkpoint"))
        (out / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        log(f"checkpoint: {ckpt}")
        log(json.dumps({"env_steps": sampled, "train_seconds": round(train_s, 1),
                        "env_steps_per_s": round(sampled / max(train_s, 1e-9), 1)}))
    finally:
        algo.stop()
        if own:
            ray.shutdown()
    return {"rows": rows, "checkpoint": str(ckpt), "env_steps": sampled, "train_seconds": train_s}


def main(argv: Sequence[str] | None = None) -> int:
    train(parse_args(argv), log=lambda s: print(s, flush=True))
    return 0


__all__ = ["ENVS", "POLICY", "RLLIB_ENV", "SNAPSHOT", "RLlibObsWrapper", "SnapshotMapping", "build_config",
           "env_config", "main", "make_env", "make_rllib_env", "masked_argmax", "masked_sample",
           "module_policy", "module_spec", "parse_args", "play_vs_random", "policy_mapping_fn", "result_row",
           "train"]
