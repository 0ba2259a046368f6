"""Self-play PPO with Ray RLlib on hostwcg_v1 against a real local Ray cluster
(``ray.init(num_cpus=2)``, one remote env runner): the shared set-based RLModule trains (env
steps sampled, losses finite, the policy moves), illegal actions are never sampled, the
checkpoint is written and restores (the module alone, and the whole algorithm, which goes on
counting). CI installs Ray RLlib with the dev extra (pyproject.toml)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from agents import rllib_selfplay as m

DECKS = ["brae", "karsh"]


def _spec_module(env: object) -> object:
    spec = m.module_spec(m.parse_args([]))
    spec.observation_space = env.observation_space("player_0")  # type: ignore[attr-defined]
    spec.action_space = env.action_space("player_0")  # type: ignore[attr-defined]
    return spec.build()


def _states(n: int, seed: int = 0, env_name: str = "hostwcg_v1") -> list[dict[str, np.ndarray]]:
    """Observations of the deciding player along random legal games."""
    env = m.make_env({"env": env_name, "decks": DECKS, "turn_limit": 30, "seed": seed})
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.reset(seed=int(rng.integers(1 << 30)))
            continue
        out.append(obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


def _batch(states: list[dict[str, np.ndarray]]) -> dict[str, torch.Tensor]:
    return {k: torch.as_tensor(np.stack([s[k] for s in states])) for k in states[0]}


def test_set_module_never_samples_an_illegal_action() -> None:
    from ray.rllib.core.columns import Columns

    torch.manual_seed(0)
    module = _spec_module(m.make_env({"decks": DECKS}))
    assert sum(p.numel() for p in module.parameters()) > 0
    states = _states(64)
    obs = _batch(states)
    masks = obs["action_mask"].numpy() > 0
    assert (masks.sum(1) >= 2).any()  # some states have a real choice
    with torch.no_grad():
        expl = module.forward_exploration({Columns.OBS: obs})[Columns.ACTION_DIST_INPUTS]
        train = module.forward_train({Columns.OBS: obs})
        values = module.compute_values({Columns.OBS: obs})
        values_from_embeddings = module.compute_values({Columns.OBS: obs}, train[Columns.EMBEDDINGS])
    dist = module.get_exploration_action_dist_cls().from_logits(expl)
    for _ in range(50):
        a = dist.sample().numpy()
        assert masks[np.arange(len(a)), a].all()
    greedy = module.get_inference_action_dist_cls().from_logits(expl).to_deterministic().sample().numpy()
    assert masks[np.arange(len(greedy)), greedy].all()
    probs = torch.softmax(expl, dim=-1).numpy()
    assert np.allclose(probs[~masks], 0.0) and np.allclose(probs.sum(1), 1.0, atol=1e-5)
    assert values.shape == (64,) and torch.isfinite(values).all()
    assert torch.allclose(values, values_from_embeddings)
    assert torch.equal(train[Columns.ACTION_DIST_INPUTS], expl)


def test_v0_module_never_samples_an_illegal_action() -> None:
    """v0's RLlib path: RLlib's action-masking module over the renamed flat observation."""
    from ray.rllib.core.columns import Columns

    torch.manual_seed(0)
    spec = m.module_spec(m.parse_args(["--env", "hostwcg_v0", "--hidden", "32"]))
    env = m.make_env({"env": "hostwcg_v0", "decks": DECKS})
    spec.observation_space, spec.action_space = env.observation_space("player_0"), env.action_space("player_0")
    module = spec.build()
    obs = _batch(_states(32, env_name="hostwcg_v0"))
    masks = obs["action_mask"].numpy() > 0
    with torch.no_grad():
        logits = module.forward_exploration({Columns.OBS: dict(obs)})[Columns.ACTION_DIST_INPUTS]
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    for _ in range(50):
        a = dist.sample().numpy()
        assert masks[np.arange(len(a)), a].all()


@pytest.mark.slow
def test_selfplay_trains_and_restores_on_a_local_ray_cluster(tmp_path: Path) -> None:
    import ray
    from ray.rllib.core.rl_module.rl_module import RLModule

    batch = 120
    argv = ["--decks", *DECKS, "--turn-limit", "6", "--iterations", "2", "--train-batch", str(batch),
            "--minibatch", "60", "--epochs", "2", "--env-runners", "1", "--envs-per-runner", "2",
            "--dim", "32", "--emb", "16", "--snapshot-every", "1", "--snapshot-share", "1",
            "--eval-every", "2", "--eval-games", "2", "--out", str(tmp_path / "run"), "--seed", "3"]
    args = m.parse_args(argv)
    lines: list[str] = []
    torch.set_num_threads(1)
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR", configure_logging=False)
    try:
        assert ray.cluster_resources().get("CPU") == 2
        res = m.train(args, log=lines.append)  # uses this cluster and leaves it running
        assert ray.is_initialized()
        rows = res["rows"]
        assert [r["iteration"] for r in rows] == [1, 2]
        steps = [r["env_steps"] for r in rows]
        assert steps[0] >= batch and steps[1] - steps[0] >= batch  # env steps sampled, each iteration
        assert [r["env_steps_iter"] for r in rows] == [steps[0], steps[1] - steps[0]]
        assert res["env_steps"] == steps[1] and 0 < res["train_seconds"]
        for r in rows:  # every game has one seat on the frozen snapshot (--snapshot-share 1)
            assert set(r["module_steps"]) == {m.POLICY, m.SNAPSHOT}
            assert abs(sum(r["module_steps"].values()) - r["env_steps_iter"]) <= 0.1 * r["env_steps_iter"]
            assert min(r["module_steps"].values()) > 0.2 * r["env_steps_iter"]
        assert rows[-1]["episodes"] >= 1  # games finished (turn limit 6)
        for r in rows:
            for k in ("policy_loss", "vf_loss", "entropy", "total_loss", "mean_kl_loss"):
                assert r[k] is not None and math.isfinite(r[k]), (k, r)
            assert r["mean_kl_loss"] > 0  # the update moved the policy away from the sampler's
            assert r["entropy"] > 0
        assert all(r["env_steps_per_s"] > 0 for r in rows)
        assert 0.0 <= rows[-1]["win_rate_vs_random"] <= 1.0
        logged = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
        assert logged == rows and [json.loads(x) for x in lines[:2]] == rows

        # the checkpoint: the shared module alone, without a cluster, plays legal games
        ckpt = Path(res["checkpoint"])
        modules = ckpt / "learner_group" / "learner" / "rl_module"
        shared = RLModule.from_checkpoint(modules / m.POLICY)
        snapshot = RLModule.from_checkpoint(modules / m.SNAPSHOT)
        saved = {k: v.clone() for k, v in shared.state_dict().items()}
        for k, v in snapshot.state_dict().items():  # copied after the last iteration
            assert torch.equal(v, saved[k]), k
        rate = m.play_vs_random(m.module_policy(shared, greedy=True), games=2, seed=5,
                                config=m.env_config(args))  # an illegal action would raise
        assert 0.0 <= rate <= 1.0

        # the whole algorithm, built anew and restored, here sampling in the driver (the env
        # runners may change on restore; the network may not)
        algo = m.build_config(m.parse_args([*argv, "--env-runners", "0"])).build_algo()
        try:
            fresh = algo.get_module(m.POLICY).state_dict()
            assert any(not torch.equal(fresh[k], saved[k]) for k in saved)  # not yet the checkpoint's
            algo.restore_from_path(str(ckpt))
            restored = algo.get_module(m.POLICY).state_dict()
            for k in saved:
                assert torch.equal(restored[k], saved[k]), k
            r = algo.train()
            row = m.result_row(3, r)
            assert row["env_steps"] >= steps[1] + batch  # the counters go on from the checkpoint
            assert math.isfinite(row["total_loss"])
        finally:
            algo.stop()
    finally:
        ray.shutdown()
