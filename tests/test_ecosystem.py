"""Ecosystem conventions: ``hostwcg --version``, the single-agent view registered with
gymnasium (``gym.make("hostwcg/HostWCG-v0")`` passes ``check_env`` without a warning), and
environment versions as PettingZoo keeps them (a table of what changes a version; every
version module stays importable)."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_version_flag_and_attribute(capsys: pytest.CaptureFixture[str]) -> None:
    import hostwcg_env
    from hostwcg_env.cli import main

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    # one version number: the package's, which pyproject.toml reads (tests/test_version.py)
    assert "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "hostwcg_env.__version__"}
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"hostwcg {hostwcg_env.__version__}"


def test_gym_make_gives_the_single_agent_view_with_its_spec() -> None:
    import gymnasium as gym

    import hostwcg_env.env
    from hostwcg_env.env.single import SingleAgentEnv

    env = gym.make(hostwcg_env.env.GYM_ID_V0, opponent="random", seed=0, decks="test")
    assert isinstance(env.unwrapped, SingleAgentEnv)
    assert env.spec is not None and env.spec.id == "hostwcg/HostWCG-v0"
    assert env.unwrapped.spec is not None and env.spec.kwargs["decks"] == "test"
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and info["seat"] in ("player_0", "player_1")
    s = env.unwrapped.aec.game.state
    assert s.objs[s.players[0].host].card.name == "Test Host"
    env.close()


def test_gym_check_env_passes_without_a_warning() -> None:
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    import hostwcg_env.env  # noqa: F401

    env = gym.make("hostwcg/HostWCG-v0")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_gym_make_with_the_module_prefix_in_a_fresh_interpreter() -> None:
    code = ("import gymnasium as gym\n"
            "env = gym.make('hostwcg_env.env:hostwcg/HostWCG-v0', seed=1)\n"
            "obs, _ = env.reset(seed=1)\n"
            "print(type(env.unwrapped).__name__, obs.shape[0] > 0)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["SingleAgentEnv", "True"]


def _version_modules() -> list[str]:
    return sorted(p.stem for p in (ROOT / "hostwcg_env").glob("hostwcg_v*.py"))


def test_every_env_version_stays_importable_and_is_in_the_tables() -> None:
    from hostwcg_env import env as env_pkg

    modules = _version_modules()
    assert "hostwcg_v0" in modules
    doc = (ROOT / "docs" / "env.md").read_text()
    versions = doc[doc.index("## Versions"):]
    module_doc = importlib.import_module("hostwcg_env.env.aec").__doc__ or ""
    for name in modules:
        mod = importlib.import_module(f"hostwcg_env.{name}")
        e = mod.env()
        assert e.metadata["name"] == name  # the version is in the env's own name
        assert f"`{name}`" in versions, f"{name} has no row in docs/env.md 'Versions'"
        number = name.rsplit("_v", 1)[1]
        assert f"| v{number} |" in module_doc, f"{name} has no row in the env module's table"
    newest = modules[-1].rsplit("_v", 1)[1]
    assert env_pkg.GYM_ID.endswith(f"-v{newest}")  # the gymnasium id follows the env's version
    # what changes a version is written down, with both answers
    assert re.search(r"\| the observation's layout.*\| yes \|", versions)
    assert re.search(r"\| speed, memory.*\| no \|", versions)


def test_help_describes_the_commands_as_they_are(capsys: pytest.CaptureFixture[str]) -> None:
    from hostwcg_env import cli

    assert cli.main(["--help"]) == 0
    top = " ".join(capsys.readouterr().out.split())
    demo_line = re.search(r"demo (.*?) evaluate ", top)
    assert demo_line is not None
    # demo plays any two agents (random unless --agents), not only "two random agents"
    assert "two random agents" not in demo_line.group(1) and "--agents" in demo_line.group(1)
    assert "--version" in top
    assert cli.main(["demo", "--help"]) == 0
    demo = " ".join(capsys.readouterr().out.split())
    assert "preconstructed deck drawn from the seed" in demo and "karsh_ember_tide" in demo
    assert "ppo:PATH" in demo
    assert cli.main(["play", "--help"]) == 0
    play = " ".join(capsys.readouterr().out.split())
    assert "ppo:PATH" in play and "show CARD" in play
    # the module's usage block names every command the parser has
    commands = set(cli.build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    usage = cli.__doc__ or ""
    assert {c for c in commands if f"hostwcg {c}" not in usage} == set()
