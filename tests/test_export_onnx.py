"""``hostwcg export ppo_v1 --onnx FILE`` (agents/export_onnx.py): onnxruntime runs the graph on
observations recorded from games and makes numpy's choices (the argmax of the masked logits)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

from agents.ppo import NumpyPolicy  # noqa: E402
from agents.set_agent import DEFAULT_V1, SetPolicyAgent  # noqa: E402
from agents.set_policy import NumpySetPolicy, load_weights  # noqa: E402
from hostwcg_env.cli import main  # noqa: E402


def _session(path: Path) -> Any:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def _recorded_v1(seed: int) -> dict[str, np.ndarray]:
    """Every observation of both seats in one hostwcg_v1 game played at random, stacked."""
    from hostwcg_env import hostwcg_v1

    env = hostwcg_v1.raw_env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    while env.agents and not env.game.is_over:
        who = env.agent_selection
        seen.append({k: v.copy() for k, v in env.observe(who).items()})
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(who)))))
    return {k: np.stack([o[k] for o in seen]) for k in seen[0]}


@pytest.fixture(scope="module")
def v1_onnx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("onnx") / "ppo_v1.onnx"
    assert main(["export", "ppo_v1", "--onnx", str(path)]) == 0
    return path


@pytest.mark.parametrize("seed", [1, 2])
def test_onnx_ppo_v1_makes_numpys_choices_on_recorded_observations(v1_onnx: Path, seed: int) -> None:
    obs = _recorded_v1(seed)
    assert len(obs["action_mask"]) > 50
    logits, action, value = _session(v1_onnx).run(None, obs)
    policy = NumpySetPolicy(load_weights(DEFAULT_V1))
    want_logits, want_value = policy.forward(obs)
    want_action, _ = policy.predict(obs)
    assert np.array_equal(action, want_action)
    legal = obs["action_mask"].astype(bool)
    assert np.allclose(logits[legal], want_logits[legal], atol=1e-4)
    assert np.isneginf(logits[~legal]).all()
    assert np.allclose(value, want_value, atol=1e-4)


def test_onnx_ppo_v1_one_observation_at_a_time_as_a_server_calls_it(v1_onnx: Path) -> None:
    obs = _recorded_v1(3)
    sess = _session(v1_onnx)
    policy = NumpySetPolicy(load_weights(DEFAULT_V1))
    for i in range(0, len(obs["action_mask"]), 7):
        one = {k: v[i:i + 1] for k, v in obs.items()}
        assert int(sess.run(["action"], one)[0][0]) == int(policy.predict(one)[0][0])


def test_onnx_ppo_v1_plays_the_guarded_agents_choices(v1_onnx: Path) -> None:
    """The guarded agent's observation (its mask holds the sensible actions alone) given to the
    graph gives the agent's own choice at every choice of a game against the heuristic."""
    from agents.heuristic import HeuristicAgent
    from hostwcg_env.analysis.records import shipped_deck_refs
    from hostwcg_env.analysis.runner import GameSpec, new_game

    sess = _session(v1_onnx)
    agent = SetPolicyAgent(DEFAULT_V1, seed=0, stall=0)  # every choice the network's
    other = HeuristicAgent(0)
    decks = shipped_deck_refs()
    game = new_game(GameSpec(decks[0], decks[1], seed=4))
    checked = 0
    while not game.is_over:
        d = game.decision
        if len(d.actions) == 1:
            game.apply(d.actions[0])
            continue
        view = game.view(d.player)
        if d.player == 0:
            chosen = agent.choose(view, d.actions)
            out = int(sess.run(["action"], {k: v[None] for k, v in agent.slate.arrays.items()})[0][0])
            legal = agent._parts[view.config][2]  # the agent's index of each guarded action
            assert legal.decode(out) == chosen
            checked += 1
        else:
            chosen = other.choose(view, d.actions)
        game.apply(chosen)
    assert checked > 20


def test_onnx_ppo_v0_makes_numpys_choices(tmp_path: Path) -> None:
    from hostwcg_env import hostwcg_v0

    path = tmp_path / "ppo.onnx"
    assert main(["export", "ppo", "--onnx", str(path)]) == 0
    env = hostwcg_v0.raw_env()
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    obs, masks = [], []
    while env.agents and len(obs) < 200:
        who = env.agent_selection
        o = env.observe(who)
        obs.append(np.asarray(o["observation"], np.float32))
        masks.append(np.asarray(o["action_mask"], np.int8))
        if env.terminations[who] or env.truncations[who]:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(masks[-1]))))
    x, m = np.stack(obs), np.stack(masks)
    keep = m.any(axis=1)
    _logits, action = _session(path).run(None, {"observation": x[keep], "action_mask": m[keep]})
    policy = NumpyPolicy.load()
    want = [policy.act(o, k) for o, k in zip(x[keep], m[keep], strict=True)]
    assert action.tolist() == want and len(want) > 50


@pytest.mark.parametrize(("agent", "says"), [
    ("ppo_v1:look", "ppo_v1:look: write ppo_v1 or ppo_v1:PATH.npz"),
    ("heuristic", "heuristic: only the learned policies export"),
    ("ppo_v1:missing.npz", "ppo_v1:missing.npz: no weights file missing.npz"),
])
def test_export_refuses_what_it_cannot_write_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         agent: str, says: str) -> None:
    assert main(["export", agent, "--onnx", str(tmp_path / "x.onnx")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"hostwcg export: {says}")
    assert not (tmp_path / "x.onnx").exists()


def test_the_server_example_in_docs_export_md_plays_a_game(v1_onnx: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    doc = (Path(__file__).resolve().parent.parent / "docs" / "export.md").read_text(encoding="utf-8")
    block = re.findall(r"```python\n(.*?)```", doc, flags=re.S)[0]
    (tmp_path / "ppo_v1.onnx").write_bytes(v1_onnx.read_bytes())
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    scope: dict[str, Any] = {"ask_the_player": lambda env, seat: int(rng.choice(np.flatnonzero(env.action_mask(seat))))}
    exec(block, scope)
    assert scope["env"].game.is_over
