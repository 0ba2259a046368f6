"""Training never overwrites the shipped policy, and a trained model plays as it is.

* ``scripts/train_ppo.py`` exports numpy weights only where asked (``--export``) and labels
  every evaluation in its run.json with its own numbers.
* A Stable-Baselines3 ``.zip`` loads as an opponent (``make_agent("ppo:PATH.zip")``,
  ``hostwcg evaluate --agents ...,ppo:PATH.zip``, ``hostwcg play --vs ppo:PATH.zip``): its actor
  is converted to the numpy policy at load time and chooses what torch chooses; without torch
  the error says to install the train extra.
* The Stable-Baselines3 snippet of docs/env.md runs as written.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "agents" / "checkpoints" / "ppo_hostwcg_v0.npz"


def _script(name: str) -> Any:
    return importlib.import_module(f"agents.training.{name}")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def tiny_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small untrained MaskablePPO saved as training saves it."""
    sb3 = pytest.importorskip("sb3_contrib")
    from hostwcg_env.env.single import SingleAgentEnv

    path = tmp_path_factory.mktemp("zip") / "latest.zip"
    model = sb3.MaskablePPO("MlpPolicy", SingleAgentEnv(seed=0), n_steps=64, batch_size=32, seed=3,
                            policy_kwargs={"net_arch": [16, 8]}, device="cpu")
    model.save(path)
    return path


def _torch_logits(model: Any, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask[None])
    return dist.distribution.logits.numpy()[0]  # type: ignore[no-any-return]


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_a_model_zip_plays_as_torch_does(activation: str, tmp_path: Path) -> None:
    sb3 = pytest.importorskip("sb3_contrib")
    import torch

    from agents import make_agent
    from hostwcg_env.env.single import SingleAgentEnv

    kw: dict[str, Any] = {"net_arch": [16]}
    if activation == "relu":
        kw["activation_fn"] = torch.nn.ReLU
    env = SingleAgentEnv(seed=0)
    model = sb3.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=1, policy_kwargs=kw, device="cpu")
    path = tmp_path / "m.zip"
    model.save(path)
    agent = make_agent(f"ppo:{path}", seed=0)
    assert agent.activation == activation
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        mask = env.action_masks()
        want = _torch_logits(model, obs, mask)
        got = agent.logits(obs)
        # the same distribution over the legal actions (torch's logits are normalised)
        got_log = got[mask] - np.log(np.exp(got[mask] - got[mask].max()).sum()) - got[mask].max()
        np.testing.assert_allclose(got_log, want[mask], atol=1e-4)
        assert agent.act(obs, mask) == int(model.predict(obs, action_masks=mask, deterministic=True)[0])


def test_a_zip_that_is_not_a_model_is_refused(tmp_path: Path) -> None:
    import zipfile

    from agents import make_agent

    bad = tmp_path / "notes.zip"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("readme.txt", "hello")
    pytest.importorskip("torch")
    with pytest.raises(ValueError, match="not a Stable-Baselines3 model .zip"):
        make_agent(f"ppo:{bad}")


def test_without_torch_a_zip_says_to_install_the_train_extra(tiny_zip: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from agents.ppo import weights_of_zip
    from hostwcg_env.cli_input import agent_problem

    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ImportError
    with pytest.raises(ImportError, match=r"needs torch.*pip install -e '\.\[train\]'"):
        weights_of_zip(tiny_zip)
    other = tiny_zip.parent / "copy.zip"  # not in the load cache
    other.write_bytes(tiny_zip.read_bytes())
    problem = agent_problem(f"ppo:{other}")
    assert problem is not None and "needs torch" in problem and "\n" not in problem


def test_cli_evaluate_and_play_take_a_model_zip(tiny_zip: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from hostwcg_env.cli import main

    assert main(["evaluate", "--agents", f"heuristic,ppo:{tiny_zip}", "--games", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"\| heuristic \| ppo:{re.escape(str(tiny_zip))} \| 2 \|", out)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no input: the player concedes at once
    assert main(["play", "--vs", f"ppo:{tiny_zip}", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"against ppo:{tiny_zip}" in out and "conceded" in out


@pytest.mark.slow
def test_train_ppo_exports_only_where_asked_and_labels_its_numbers(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    tp = _script("train_ppo")
    before = _digest(SHIPPED)
    common = ["--steps", "64", "--envs", "1", "--n-steps", "64", "--batch-size", "32", "--net", "16",
              "--opponents", "random", "--eval-every", "1000000", "--snapshot-every", "1000000",
              "--no-progress"]
    out = tmp_path / "run"
    assert tp.main([*common, "--out", str(out), "--final-games", "2"]) == 0
    assert _digest(SHIPPED) == before  # a trial run leaves the shipped policy alone
    run = json.loads((out / "run.json").read_text())
    assert run["exported"] is None and run["saved"] == str(out / "latest.zip")
    assert set(run["final_eval_2_games_greedy"]) == {"random", "heuristic"}
    assert not [k for k in run if re.search(r"\d+_games", k) and k != "final_eval_2_games_greedy"]
    assert run["decks"] == "all"
    from agents import make_agent
    from hostwcg_env.env.single import SingleAgentEnv

    env = SingleAgentEnv(seed=0)
    obs, _ = env.reset(seed=0)
    mask = env.action_masks()
    assert mask[make_agent(f"ppo:{out / 'latest.zip'}").act(obs, mask)]  # the run's model plays
    # asked: the weights and their facts go where --export says, and the model card reads them
    out2 = tmp_path / "run2"
    npz = tmp_path / "mine.npz"
    assert tp.main([*common, "--out", str(out2), "--final-games", "0", "--export", str(npz)]) == 0
    assert _digest(SHIPPED) == before and npz.exists()
    facts = json.loads(npz.with_suffix(".json").read_text())
    assert facts["exported"] == str(npz) and not [k for k in facts if k.startswith("final_eval")]
    card = _script("model_card")
    assert card.final_eval(facts) == ("no", {})
    assert card.final_eval(run)[0] == "2"


def _doc_blocks() -> tuple[str, list[str]]:
    text = (ROOT / "docs" / "env.md").read_text()
    section = text[text.index("## Stable-Baselines3"):]
    section = section[:section.index("\n## ", 3)]
    python = re.findall(r"```python\n(.*?)```", section, re.S)
    bash = re.findall(r"```bash\n(.*?)```", section, re.S)
    assert len(python) == 1 and len(bash) == 1
    lines = [ln.split("#")[0].strip() for ln in bash[0].splitlines() if ln.strip()]
    return python[0], lines


@pytest.mark.slow
def test_the_sb3_snippet_in_docs_runs_as_written(tmp_path: Path) -> None:
    """The docs/env.md snippet, extracted and run in a fresh interpreter, saves a model that the
    documented ``evaluate`` line plays and ``play`` opens. (Its time is the doc's claim, not
    checked here: tests never depend on the machine's speed.)"""
    pytest.importorskip("sb3_contrib")
    code, commands = _doc_blocks()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    assert (tmp_path / "quickstart_ppo.zip").exists()
    evaluate = next(c for c in commands if c.startswith("hostwcg evaluate"))
    run = subprocess.run([sys.executable, "-m", "hostwcg_env", *evaluate.split()[1:], "--quiet"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    assert re.search(r"\| random \| ppo:quickstart_ppo\.zip \| 20 \|", run.stdout)
    play = next(c for c in commands if c.startswith("hostwcg play"))
    run = subprocess.run([sys.executable, "-m", "hostwcg_env", *play.split()[1:]], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300, input="")
    assert run.returncode == 0 and "conceded" in run.stdout, run.stderr[-3000:]
