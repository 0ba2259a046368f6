"""Behaviour-cloning warm start (scripts/pretrain_bc.py) and PPO fine-tuning from it
(scripts/train_ppo.py --init): smoke tests, a few seconds each."""

from __future__ import annotations

import importlib
import json
import tempfile
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"agents.training.{name}")


@pytest.mark.slow
def test_demonstrations_are_the_heuristics_legal_choices() -> None:
    bc = _load("pretrain_bc")
    data = bc.generate(3, seed=1, vs_random=0.5, progress=False)
    n = len(data["actions"])
    assert n > 20 and int(data["n_games"]) == 3
    masks = np.unpackbits(data["masks"], axis=1, count=int(data["n_actions"])).astype(bool)
    assert (masks.sum(1) >= 2).all()  # forced decisions are not shown by the env, nor recorded
    assert masks[np.arange(n), data["actions"].astype(np.int64)].all()  # the choice is legal
    assert set(np.unique(data["outcomes"])) <= {-1, 0, 1}
    assert (np.sign(data["value_targets"]) == data["outcomes"]).all()
    assert (np.abs(data["value_targets"]) <= 1).all()
    x = bc.sparse_batch(data, np.arange(5)).to_dense().numpy()
    assert x.shape == (5, int(data["obs_size"])) and (x != 0).any()


@pytest.mark.slow
def test_pretrain_bc_writes_a_maskable_ppo_zip_that_plays_legally(tmp_path: Path) -> None:
    sb3 = pytest.importorskip("sb3_contrib")
    bc = _load("pretrain_bc")
    out = tmp_path / "bc.zip"
    assert bc.main(["--games", "2", "--epochs", "1", "--net", "32,32", "--data", str(tmp_path / "d.npz"),
                    "--out", str(out), "--no-progress", "--seed", "3"]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["data"]["decisions"] > 0 and 0 <= meta["history"][-1]["holdout_accuracy"] <= 1
    model = sb3.MaskablePPO.load(out, device="cpu")
    from agents import make_agent
    from hostwcg_env.env import shipped_decks
    from hostwcg_env.env.single import SingleAgentEnv

    pool = shipped_decks()
    env = SingleAgentEnv(opponent=make_agent("heuristic", seed=4), seed=4, deck_pools=[pool, pool])
    obs, _ = env.reset(seed=4)
    for _ in range(60):
        mask = env.action_masks()
        a, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(a)]
        obs, _r, term, trunc, info = env.step(int(a))
        assert not info.get("illegal_action")
        if term or trunc:
            obs, _ = env.reset()
    # the sparse training forward pass is the policy's own forward pass
    import torch

    data = bc.generate(1, seed=5, progress=False)
    rows = np.arange(min(8, len(data["actions"])))
    with torch.no_grad():
        sparse_logits, sparse_v = bc.forward(model.policy, bc.sparse_batch(data, rows))
        dense = bc.sparse_batch(data, rows).to_dense()
        dense_logits, dense_v = bc.forward(model.policy, dense)
        ref_v = model.policy.predict_values(dense).squeeze(-1)
    assert torch.allclose(sparse_logits, dense_logits, atol=1e-5)
    assert torch.allclose(sparse_v, ref_v, atol=1e-5) and torch.allclose(dense_v, ref_v, atol=1e-5)


def test_train_ppo_init_starts_from_the_given_weights(tmp_path: Path) -> None:
    sb3 = pytest.importorskip("sb3_contrib")
    import torch

    bc = _load("pretrain_bc")
    tp = _load("train_ppo")
    src = bc.build_model([32, 16], seed=0)
    with torch.no_grad():
        for prm in src.policy.parameters():
            prm.add_(0.05)  # not what a fresh model of the same seed would have
    src.save(tmp_path / "init.zip")
    out = tmp_path / "ft"
    assert tp.main(["--init", str(tmp_path / "init.zip"), "--steps", "64", "--envs", "1", "--n-steps", "64",
                    "--batch-size", "32", "--lr", "0", "--clip", "0.1", "--ent-coef", "0", "--opponents",
                    "heuristic,random", "--out", str(out), "--export", "", "--final-games", "0",
                    "--eval-every", "1000000", "--snapshot-every", "1000000", "--no-progress"]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["init"].endswith("init.zip") and run["net_arch"] == [32, 16] and run["steps"] >= 64
    tuned = sb3.MaskablePPO.load(out / "latest.zip", device="cpu")
    assert tuned.learning_rate == 0 and tuned.num_timesteps >= 64
    a, b = src.policy.state_dict(), tuned.policy.state_dict()
    assert a.keys() == b.keys()
    for k in a:  # learning rate 0: the weights are exactly the initial model's
        assert torch.equal(a[k], b[k]), k


def test_train_ppo_resume_saves_at_the_next_multiple(tmp_path: Path) -> None:
    """A resumed run keeps its step count; its saves come every --save-every steps after it
    (a bug saved a checkpoint at every step until the counters caught up)."""
    pytest.importorskip("sb3_contrib")
    tp = _load("train_ppo")
    common = ["--envs", "1", "--n-steps", "64", "--batch-size", "32", "--opponents", "random",
              "--export", "", "--final-games", "0", "--eval-every", "1000000", "--snapshot-every", "1000000",
              "--save-every", "64", "--no-progress", "--net", "16,16"]
    first = tmp_path / "a"
    assert tp.main(["--steps", "128", "--out", str(first), *common]) == 0
    assert sorted(p.name for p in first.glob("step_*.zip")) == ["step_128.zip", "step_64.zip"]
    second = tmp_path / "b"
    assert tp.main(["--resume", str(first / "step_128.zip"), "--steps", "128", "--out", str(second), *common]) == 0
    assert sorted(p.name for p in second.glob("step_*.zip")) == ["step_192.zip", "step_256.zip"]


@pytest.mark.slow
def test_train_ppo_init_from_npz_freezes_the_actor_during_critic_warmup(tmp_path: Path) -> None:
    """--init PATH.npz loads an exported (actor-only) policy; during --critic-warmup the actor
    stays exactly as exported while the critic learns, and afterwards the actor learns too."""
    sb3 = pytest.importorskip("sb3_contrib")
    import torch

    from agents.ppo import NumpyPolicy, export_sb3

    bc = _load("pretrain_bc")
    tp = _load("train_ppo")
    src = bc.build_model([32, 16], seed=3)
    npz = tmp_path / "actor.npz"
    export_sb3(src, npz)
    common = ["--init", str(npz), "--envs", "1", "--n-steps", "64", "--batch-size", "32", "--lr", "1e-2",
              "--opponents", "random", "--export", "", "--final-games", "0",
              "--eval-every", "1000000", "--snapshot-every", "1000000", "--no-progress", "--seed", "1"]
    warm = tmp_path / "warm"
    assert tp.main([*common, "--steps", "128", "--critic-warmup", "1000", "--warmup-lr", "1e-2",
                    "--out", str(warm)]) == 0
    assert json.loads((warm / "run.json").read_text())["net_arch"] == [32, 16]
    still = tmp_path / "still"  # the same run at learning rate 0: the critic it starts from
    assert tp.main([*common, "--steps", "128", "--critic-warmup", "1000", "--warmup-lr", "0",
                    "--out", str(still)]) == 0
    tuned = sb3.MaskablePPO.load(warm / "latest.zip", device="cpu")
    fresh = sb3.MaskablePPO.load(still / "latest.zip", device="cpu")
    a, b, c = src.policy.state_dict(), tuned.policy.state_dict(), fresh.policy.state_dict()
    for k in a:
        if k.startswith(("mlp_extractor.policy_net", "action_net")):
            assert torch.equal(a[k], b[k]), k  # the actor is the exported one, untouched
    assert any(not torch.equal(b[k], c[k]) for k in b if k.startswith(("mlp_extractor.value_net", "value_net")))
    # the same numpy policy as exported
    obs = np.random.default_rng(0).normal(size=(3, src.observation_space.shape[0])).astype(np.float32)
    with tempfile.TemporaryDirectory() as d:
        export_sb3(tuned, Path(d) / "t.npz")
        p0, p1 = NumpyPolicy.load(npz), NumpyPolicy.load(Path(d) / "t.npz")
        for o in obs:
            assert np.allclose(p0.logits(o), p1.logits(o), atol=1e-6)
    # past the warm-up the actor learns
    after = tmp_path / "after"
    assert tp.main([*common, "--steps", "192", "--critic-warmup", "64", "--out", str(after)]) == 0
    moved = sb3.MaskablePPO.load(after / "latest.zip", device="cpu").policy.state_dict()
    assert any(not torch.equal(a[k], moved[k]) for k in a if k.startswith("action_net"))


def test_train_ppo_init_npz_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from agents.ppo import export_sb3

    bc = _load("pretrain_bc")
    tp = _load("train_ppo")
    export_sb3(bc.build_model([32, 16], seed=0), tmp_path / "a.npz")
    with np.load(tmp_path / "a.npz") as z:
        w = {k: z[k] for k in z.files}
    w["action.weight"] = w["action.weight"][:, :8]
    np.savez(tmp_path / "bad.npz", **w)
    with pytest.raises(ValueError, match="action.weight"):
        tp.main(["--init", str(tmp_path / "bad.npz"), "--steps", "64", "--envs", "1", "--n-steps", "64",
                 "--export", "", "--final-games", "0", "--out", str(tmp_path / "o"), "--no-progress"])


def test_pretrain_bc_distils_ladder_choices_into_the_shipped_actor(tmp_path: Path) -> None:
    """--ladder FILE --ladder-agent NAME trains on that agent's replayed ladder choices, and
    --init takes the exported numpy actor (the shipped checkpoint's format)."""
    pytest.importorskip("sb3_contrib")
    from agents.ppo import NumpyPolicy, export_sb3
    from hostwcg_env.analysis.ladder import run_ladder

    bc = _load("pretrain_bc")
    results = tmp_path / "ladder.jsonl"
    run_ladder(["heuristic", "random"], games=2, quiet=True, results=results)
    actor = tmp_path / "actor.npz"
    export_sb3(bc.build_model([32, 16], seed=2), actor)
    out = tmp_path / "distilled.zip"
    assert bc.main(["--ladder", str(results), "--ladder-agent", "heuristic", "--data", str(tmp_path / "d.npz"),
                    "--init", str(actor), "--epochs", "1", "--lr", "0", "--out", str(out), "--no-progress"]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["data"]["games"] == 2 and meta["data"]["decisions"] > 10 and meta["net_arch"] == [32, 16]
    from sb3_contrib import MaskablePPO

    with tempfile.TemporaryDirectory() as d:  # learning rate 0: the actor is the one it started from
        export_sb3(MaskablePPO.load(out, device="cpu"), Path(d) / "o.npz")
        a, b = NumpyPolicy.load(actor), NumpyPolicy.load(Path(d) / "o.npz")
        x = np.random.default_rng(0).normal(size=a.layers[0][0].shape[1]).astype(np.float32)
        assert np.allclose(a.logits(x), b.logits(x), atol=1e-6)


def test_pretrain_bc_overrides_only_relabels_with_the_initial_policy(tmp_path: Path) -> None:
    """--overrides-only heuristic: the heuristic's own ladder choices all equal the anchor, so
    every label is the --init policy's choice (the data records how many differ from the
    heuristic's); without an .npz --init the option is refused with the reason."""
    pytest.importorskip("sb3_contrib")
    from agents.ppo import export_sb3
    from hostwcg_env.analysis.ladder import run_ladder

    bc = _load("pretrain_bc")
    results = tmp_path / "ladder.jsonl"
    run_ladder(["heuristic", "random"], games=2, quiet=True, results=results)
    actor = tmp_path / "actor.npz"
    export_sb3(bc.build_model([32, 16], seed=2), actor)  # an untrained actor: mostly not the heuristic
    out = tmp_path / "o.zip"
    assert bc.main(["--ladder", str(results), "--ladder-agent", "heuristic", "--overrides-only", "heuristic",
                    "--data", str(tmp_path / "d.npz"), "--init", str(actor), "--epochs", "1", "--lr", "0",
                    "--out", str(out), "--no-progress"]) == 0
    data = json.loads(out.with_suffix(".json").read_text())["data"]
    assert 0 < data["relabelled"] <= data["decisions"]
    with pytest.raises(SystemExit):
        bc.main(["--ladder", str(results), "--overrides-only", "heuristic", "--data", str(tmp_path / "e.npz"),
                 "--out", str(tmp_path / "e.zip"), "--no-progress"])


@pytest.mark.slow
def test_train_ppo_smoke_run_of_a_few_thousand_steps(tmp_path: Path) -> None:
    """The whole training script for a few thousand steps: two env processes, snapshots of
    itself joining the opponent pool, a periodic evaluation, TensorBoard logs, the saved
    snapshots and the numpy export with its facts, which then plays a full ladder game."""
    pytest.importorskip("sb3_contrib")
    from agents.ppo import NumpyPolicy
    from hostwcg_env.analysis.ladder import play_game, schedule

    tp = _load("train_ppo")
    out, export = tmp_path / "run", tmp_path / "policy.npz"
    assert tp.main(["--steps", "3072", "--envs", "2", "--n-steps", "512", "--batch-size", "256", "--net", "32,32",
                    "--opponents", "random,heuristic", "--snapshot-every", "1024", "--eval-every", "2048",
                    "--eval-games", "2", "--final-games", "2", "--export", str(export), "--out", str(out),
                    "--no-progress", "--seed", "5"]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["steps"] >= 3072 and run["envs"] == 2 and run["net_arch"] == [32, 32]
    assert [e["steps"] for e in run["evaluations"]] == [2048]
    assert all(0 <= run["evaluations"][0][o] <= 1 for o in ("random", "heuristic"))
    assert sorted(int(p.stem.split("_")[1]) for p in out.glob("step_*.zip")) == [1024, 2048, 3072]
    assert list((out / "tb").rglob("events.out.tfevents.*")), "TensorBoard logs"
    assert json.loads(export.with_suffix(".json").read_text())["steps"] == run["steps"]
    from hostwcg_env.engine import RuleConfig
    from hostwcg_env.env.observation import ObservationEncoder

    assert NumpyPolicy.load(export).layers[0][0].shape == (32, ObservationEncoder(RuleConfig()).size)
    rec = play_game(schedule([f"ppo:{export}", "random"], 1, seed=3)[0])
    assert len(rec["actions"]) == rec["decisions"] > 0  # a whole game, legal actions only (the engine checks)
