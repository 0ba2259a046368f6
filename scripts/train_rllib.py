"""Train a policy on hostwcg_v0 with Ray RLlib (PPO, new API stack), with action masking.

Both seats share one policy (self-play): RLlib's PettingZooEnv wraps the AEC env, whose
observations are renamed to the dict RLlib's action-masking RLModule reads,
``{"observations": float32[...], "action_mask": float32[N]}``; the module adds log(mask) to the
action logits, so only legal actions are ever sampled.

RLlib pins its own gymnasium and is heavy: install it in its own virtual environment (the
``rllib`` extra), not in the project's (docs/balance.md, "RLlib"):

    python3 -m venv .venv-rllib && .venv-rllib/bin/pip install -e ".[rllib]"
    .venv-rllib/bin/python scripts/train_rllib.py --iterations 20 --env-runners 2
    .venv-rllib/bin/python scripts/train_rllib.py --address auto ...   # on a running Ray cluster

Every ``--eval-every`` iterations (and at the end) the shared policy plays ``--eval-games``
games against the random agent (seats alternating) and the win rate is printed.
The helpers above the ``main`` section import neither ray nor torch (tests/test_rllib_script.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ENV_NAME = "hostwcg_v0_rllib"
POLICY = "shared"


# ============================================================================ helpers (no ray needed)


def rllib_obs_space(space: spaces.Dict) -> spaces.Dict:
    """hostwcg_v0's ``{"observation", "action_mask"}`` space as RLlib's masking module wants it."""
    obs = space["observation"]
    mask = space["action_mask"]
    return spaces.Dict({
        "action_mask": spaces.Box(0.0, 1.0, mask.shape, np.float32),
        "observations": spaces.Box(obs.low, obs.high, obs.shape, np.float32),
    })


def rllib_obs(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {"action_mask": obs["action_mask"].astype(np.float32), "observations": obs["observation"]}


class RLlibObsWrapper(BaseWrapper):
    """The AEC env with observations renamed and the mask as float32 (see ``rllib_obs_space``)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._space = rllib_obs_space(env.observation_space(env.possible_agents[0]))

    def observation_space(self, agent: str) -> spaces.Space:
        return self._space

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return rllib_obs(self.env.observe(agent))


def make_env(config: dict[str, Any] | None = None) -> RLlibObsWrapper:
    """The AEC env for RLlib. ``config``: ``decks`` (ids, prefixes or files; default two shipped
    decks), ``turn_limit``, ``rules`` (RuleConfig overrides), ``seed``."""
    from hostwcg_env.analysis.simulate import parse_rules, resolve_decks
    from hostwcg_env.cards import Deck
    from hostwcg_env.engine import RuleConfig
    from hostwcg_env.env import raw_env

    config = dict(config or {})
    refs = resolve_decks(config.get("decks") or ["brae_deep_roots", "karsh_ember_tide"])
    decks = [Deck(name=r.name, plan="", host=r.host, main=r.main) for r in refs]
    rules = RuleConfig().with_overrides(parse_rules(config.get("rules")))
    env = raw_env(deck_pools=[decks, decks], config=rules, turn_limit=config.get("turn_limit", 200))
    wrapped = RLlibObsWrapper(env)
    if "seed" in config:
        wrapped.reset(seed=int(config["seed"]))
    return wrapped


def policy_mapping_fn(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Both seats play the same (shared) policy: self-play."""
    return POLICY


def masked_argmax(logits: np.ndarray, mask: np.ndarray) -> int:
    return int(np.argmax(np.where(np.asarray(mask) > 0, logits, -np.inf)))


def play_vs_random(act: Any, games: int, seed: int = 0, config: dict[str, Any] | None = None) -> float:
    """Win rate (draws half) of ``act(observations, mask) -> int`` against the random agent,
    seats alternating."""
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
            legal = np.flatnonzero(obs["action_mask"])
            a = act(obs["observations"], obs["action_mask"]) if agent == me else int(rng.choice(legal))
            env.step(a)
        w = env.unwrapped.game.winner
        score += 0.5 if w is None else float(env.possible_agents[w] == me)
    return score / max(1, games)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--env-runners", type=int, default=0, help="remote env runners (0: sample in the driver)")
    p.add_argument("--envs-per-runner", type=int, default=1)
    p.add_argument("--train-batch", type=int, default=2000, help="env steps per training iteration")
    p.add_argument("--minibatch", type=int, default=250)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--hidden", default="256,256", help="MLP hidden sizes")
    p.add_argument("--decks", nargs="+", default=["brae_deep_roots", "karsh_ember_tide"])
    p.add_argument("--turn-limit", type=int, default=100)
    p.add_argument("--rule", action="append", default=[], metavar="FLAG=VALUE")
    p.add_argument("--eval-every", type=int, default=5)
    p.add_argument("--eval-games", type=int, default=20)
    p.add_argument("--eval-greedy", action="store_true",
                   help="evaluate the most probable legal action (default: sample the policy)")
    p.add_argument("--address", help="a running Ray cluster (auto, HOST:6379); default: a local one")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray cluster")
    p.add_argument("--out", default="runs/rllib", help="checkpoint and metrics folder")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def env_config(args: argparse.Namespace) -> dict[str, Any]:
    return {"decks": list(args.decks), "turn_limit": args.turn_limit, "rules": list(args.rule)}


# ============================================================================ main (needs ray[rllib])


def build_config(args: argparse.Namespace) -> Any:
    try:
        from ray.rllib.algorithms.ppo import PPOConfig
        from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
        from ray.rllib.core.rl_module.rl_module import RLModuleSpec
        from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
        from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
            ActionMaskingTorchRLModule,
        )
        from ray.tune.registry import register_env
    except ImportError as e:
        raise SystemExit(f"this script needs Ray RLlib ({e}): pip install -e '.[rllib]' in its own venv "
                         "(docs/balance.md)") from e

    register_env(ENV_NAME, lambda cfg: PettingZooEnv(make_env(cfg)))
    hidden = [int(x) for x in args.hidden.split(",") if x]
    return (
        PPOConfig()
        # RLlib's env check steps random unmasked actions, which this env refuses: skip it
        .environment(ENV_NAME, env_config=env_config(args), disable_env_checking=True)
        .multi_agent(policies={POLICY}, policy_mapping_fn=policy_mapping_fn)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            POLICY: RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                 model_config={"fcnet_hiddens": hidden, "head_fcnet_hiddens": []})}))
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner)
        .training(train_batch_size_per_learner=args.train_batch, minibatch_size=args.minibatch,
                  num_epochs=args.epochs, lr=args.lr)
        .debugging(seed=args.seed)
    )


def masked_sample(logits: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    z = np.where(np.asarray(mask) > 0, logits, -np.inf)
    p = np.exp(z - z.max())
    return int(rng.choice(len(p), p=p / p.sum()))


def module_policy(module: Any, greedy: bool = False, seed: int = 0) -> Any:
    """``act(observations, mask)`` from the trained RLModule: a sample from the masked action
    distribution (the policy as trained), or its most probable legal action (``greedy``)."""
    import torch

    rng = np.random.default_rng(seed)

    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            batch = {"obs": {"observations": torch.as_tensor(obs[None], dtype=torch.float32),
                             "action_mask": torch.as_tensor(mask[None], dtype=torch.float32)}}
            logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
        return masked_argmax(logits, mask) if greedy else masked_sample(logits, mask, rng)

    return act


def _get(d: dict[str, Any], *path: str, default: Any = None) -> Any:
    for k in path:
        if not isinstance(d, dict) or k not in d:
            return default
        d = d[k]
    return d


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    import ray

    ray.init(address=args.address, num_cpus=None if args.address else args.num_cpus,
             ignore_reinit_error=True, include_dashboard=False if not args.address else None)
    algo = build_config(args).build_algo()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = []
    t0 = time.time()
    try:
        for it in range(1, args.iterations + 1):
            r = algo.train()
            row = {"iteration": it, "seconds": round(time.time() - t0, 1),
                   "env_steps": _get(r, "num_env_steps_sampled_lifetime"),
                   "episode_len_mean": _get(r, "env_runners", "episode_len_mean"),
                   "episodes": _get(r, "env_runners", "num_episodes_lifetime"),
                   "policy_loss": _get(r, "learners", POLICY, "policy_loss"),
                   "entropy": _get(r, "learners", POLICY, "entropy")}
            if it % args.eval_every == 0 or it == args.iterations:
                row["win_rate_vs_random"] = play_vs_random(module_policy(algo.get_module(POLICY), args.eval_greedy, it),
                                                           args.eval_games, seed=10_000 + it,
                                                           config=env_config(args))
            log.append(row)
            print(json.dumps(row), flush=True)
        ckpt = algo.save(str(out.resolve() / "checkpoint"))
        print(f"checkpoint: {getattr(ckpt, 'checkpoint', ckpt)}")
        (out / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in log))
    finally:
        algo.stop()
        ray.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
