"""agents/rllib_selfplay.py without a Ray cluster: its env helpers import no RLlib (the training
itself runs against a local Ray cluster in tests/test_rllib_train.py)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_helpers_import_no_rllib() -> None:
    had = {m for m in ("ray.rllib", "torch") if m in sys.modules}
    sys.modules.pop("agents.rllib_selfplay", None)
    importlib.import_module("agents.rllib_selfplay")
    assert "ray.rllib" in had or "ray.rllib" not in sys.modules
    assert "torch" in had or "torch" not in sys.modules


def test_v0_env_renames_the_observation() -> None:
    from agents import rllib_selfplay as m

    env = m.make_env({"env": "hostwcg_v0", "decks": ["brae", "karsh"], "turn_limit": 50, "seed": 0})
    space = env.observation_space("player_0")
    assert set(space.spaces) == {"action_mask", "observations"}
    assert space["action_mask"].dtype == np.float32 and space["action_mask"].shape == (env.action_space("player_0").n,)
    obs, *_ = env.last()
    assert space.contains(obs)
    for _ in range(20):  # legal actions from the mask step the env
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            break
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_v1_env_is_the_raw_v1_env() -> None:
    from agents import rllib_selfplay as m
    from hostwcg_env.engine import IllegalActionError
    from hostwcg_env.env.v1 import raw_env

    env = m.make_env({"decks": ["brae", "karsh"], "turn_limit": 50, "seed": 0})
    assert isinstance(env, raw_env)  # unwrapped: an illegal action raises, it is not "handled"
    obs, *_ = env.last()
    assert env.observation_space("player_0").contains(obs)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(ValueError, match="hostwcg_v9"):
        m.make_env({"env": "hostwcg_v9"})


def test_mapping_and_acting_helpers() -> None:
    from agents import rllib_selfplay as m

    assert m.policy_mapping_fn("player_0") == m.policy_mapping_fn("player_1") == m.POLICY

    class Ep:
        def __init__(self, i: int) -> None:
            self.id_ = f"episode-{i}"

    never, always = m.SnapshotMapping(0.0), m.SnapshotMapping(1.0)
    seats = []
    for i in range(40):
        ep = Ep(i)
        assert never("player_0", ep) == never("player_1", ep) == m.POLICY
        pair = (always("player_0", ep), always("player_1", ep))
        assert sorted(pair) == [m.POLICY, m.SNAPSHOT]  # exactly one seat plays the snapshot
        assert pair == (always("player_0", ep), always("player_1", ep))  # the same for the episode
        seats.append(pair.index(m.SNAPSHOT))
    assert 0 < sum(seats) < 40  # both seats get the snapshot

    assert m.masked_argmax(np.array([5.0, 1.0, 3.0]), np.array([0, 1, 1])) == 2
    rng = np.random.default_rng(0)
    assert {m.masked_sample(np.array([9.0, 0.0, 0.0]), np.array([0, 1, 1]), rng) for _ in range(50)} == {1, 2}
    rate = m.play_vs_random(lambda obs: int(np.flatnonzero(obs["action_mask"])[-1]), games=2,
                            config={"decks": ["brae", "karsh"], "turn_limit": 20})
    assert 0.0 <= rate <= 1.0


def test_arguments() -> None:
    from agents import rllib_selfplay as m

    args = m.parse_args(["--iterations", "2", "--rule", "damage_draws=true"])
    cfg = m.env_config(args)
    assert cfg["env"] == "hostwcg_v1" and cfg["rules"] == ["damage_draws=true"]
    assert m.env_config(m.parse_args(["--env", "hostwcg_v0"]))["env"] == "hostwcg_v0"
    env = m.make_env({**cfg, "decks": ["brae", "karsh"]})
    assert env.config.damage_draws is True
    with pytest.raises(ValueError, match="FLAG=VALUE"):
        m.make_env({"rules": ["damage_draws"]})
    with pytest.raises(ValueError, match="no_such_flag"):
        m.make_env({"rules": ["no_such_flag=1"]})
    for bad in (["--iterations", "0"], ["--snapshot-share", "1.5"], ["--env", "hostwcg_v2"]):
        with pytest.raises(SystemExit):
            m.parse_args(bad)


def test_script_help() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "train_rllib.py"), "--help"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    for flag in ("--address", "--env-runners", "--snapshot-every", "--restore", "hostwcg_v1"):
        assert flag in out
