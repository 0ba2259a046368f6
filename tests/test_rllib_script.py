"""scripts/train_rllib.py: its env helpers work without RLlib (RLlib lives in its own venv; the
training run itself is documented in docs/balance.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def _load():
    spec = importlib.util.spec_from_file_location("train_rllib", ROOT / "scripts" / "train_rllib.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def test_helpers_need_no_rllib() -> None:
    had_rllib = "ray.rllib" in sys.modules
    m = _load()
    assert had_rllib or "ray.rllib" not in sys.modules  # importing the script loads no RLlib
    env = m.make_env({"decks": ["brae", "karsh"], "turn_limit": 50, "seed": 0})
    space = env.observation_space("player_0")
    assert set(space.spaces) == {"action_mask", "observations"}
    assert space["action_mask"].dtype == np.float32 and space["action_mask"].shape == (env.action_space("player_0").n,)
    obs, *_ = env.last()
    assert space.contains(obs)
    assert obs["action_mask"].sum() >= 1
    for _ in range(20):  # legal actions from the mask step the env
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            break
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert m.policy_mapping_fn("player_0") == m.policy_mapping_fn("player_1") == m.POLICY
    assert m.masked_argmax(np.array([5.0, 1.0, 3.0]), np.array([0.0, 1.0, 1.0])) == 2
    rate = m.play_vs_random(lambda o, mask: int(np.flatnonzero(mask)[-1]), games=1,
                            config={"decks": ["brae", "karsh"], "turn_limit": 30})
    assert 0.0 <= rate <= 1.0
    args = m.parse_args(["--iterations", "2", "--rule", "damage_draws=true"])
    assert m.env_config(args)["rules"] == ["damage_draws=true"]
