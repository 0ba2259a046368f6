"""Ecosystem conventions every env version keeps: the parallel env treats an illegal action as
the AEC ``env()`` does (docs/env.md "Parallel env and illegal actions"); gymnasium: the ids are
registered by ``import hostwcg_env``, the recommended id makes no deprecation warning, an agent
name is an opponent, ``RecordVideo`` records a game (docs/env.md "Gymnasium")."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from hostwcg_env import hostwcg_v0, hostwcg_v1
from hostwcg_env.env import AGENTS

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = [pytest.param(hostwcg_v0, id="hostwcg_v0"), pytest.param(hostwcg_v1, id="hostwcg_v1")]


def _illegal_index(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("legal_steps", [0, 7])
def test_parallel_illegal_action_ends_the_game_as_the_aec_env(version: ModuleType, legal_steps: int,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    """The same seed and actions in env() and parallel_env(), then one illegal action: the same
    rewards, flags and observations in both, with PettingZoo's warning, and the game is over."""
    aec = version.env()
    par = version.parallel_env()
    aec.reset(seed=3)
    pobs, _ = par.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(legal_steps):
        actor = aec.agent_selection
        assert par.aec.agent_selection == actor
        a = int(rng.choice(np.flatnonzero(pobs[actor]["action_mask"])))
        aec.step(a)
        pobs, *_ = par.step({actor: a})
    actor = aec.agent_selection
    bad = _illegal_index(pobs[actor]["action_mask"])
    with caplog.at_level(logging.WARNING, logger="pettingzoo.utils.env_logger"):
        aec.step(bad)
        obs, rew, term, trunc, info = par.step(dict.fromkeys(AGENTS, bad))
    assert sum("Illegal move" in r.getMessage() for r in caplog.records) == 2
    assert rew == {a: float(aec.rewards[a]) for a in AGENTS} == {a: -1.0 if a == actor else 0.0 for a in AGENTS}
    assert term == {a: aec.terminations[a] for a in AGENTS} == dict.fromkeys(AGENTS, True)
    assert trunc == {a: aec.truncations[a] for a in AGENTS} == dict.fromkeys(AGENTS, True)
    for a in AGENTS:
        for k, v in aec.observe(a).items():
            np.testing.assert_array_equal(obs[a][k], v)
    assert par.agents == []
    with pytest.raises(RuntimeError, match="after the game is over"):
        par.step(dict.fromkeys(AGENTS, 0))
    par.reset(seed=4)  # a new game starts as usual
    assert par.agents == list(AGENTS)


@pytest.mark.parametrize("version", VERSIONS)
def test_parallel_action_outside_the_space_still_raises(version: ModuleType) -> None:
    par = version.parallel_env()
    par.reset(seed=0)
    actor = par.aec.agent_selection
    n = par.action_space(actor).n
    with pytest.raises(ValueError, match="outside the action space"):
        par.step({actor: n})
    with pytest.raises(TypeError, match="integer index"):
        par.step({actor: 1.5})
    assert par.agents == list(AGENTS)  # refused, not ended


# ---------------------------------------------------------------------------- gymnasium
GYM_IDS = ["hostwcg/HostWCG-v0", "hostwcg/HostWCG-v1"]


def test_import_hostwcg_env_registers_the_ids_in_a_fresh_interpreter() -> None:
    """``import hostwcg_env`` alone registers the ids (no env module is loaded until make),
    and the newest id makes an env against an agent name without any warning."""
    code = ("import sys, warnings\n"
            "warnings.simplefilter('error')\n"
            "import hostwcg_env, gymnasium\n"
            "print('hostwcg_env.env' in sys.modules, 'agents' in sys.modules)\n"
            "env = gymnasium.make('hostwcg/HostWCG-v1', opponent='heuristic', seed=0)\n"
            "obs, info = env.reset(seed=0)\n"
            "print(type(env.unwrapped).__name__, type(env.unwrapped.vec.pool[0]).__name__)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["False", "False", "SingleEnv", "HeuristicAgent"]


def _readme_gym_ids() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"gym(?:nasium)?\.make\(\"(?:[\w.]+:)?(hostwcg/[\w-]+)\"", text)


def test_the_ids_the_readme_recommends_make_no_deprecation_warning() -> None:
    import gymnasium as gym

    import hostwcg_env

    ids = _readme_gym_ids()
    assert ids, "the README shows a gymnasium id"
    for gym_id in ids:
        assert gym_id in hostwcg_env.GYM_IDS
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            gym.make(gym_id).close()
        assert [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)] == [], gym_id


def test_the_older_id_keeps_working_with_gymnasiums_out_of_date_warning() -> None:
    import gymnasium as gym

    from hostwcg_env.env.single import SingleAgentEnv

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gym.make("hostwcg/HostWCG-v0", opponent="heuristic", seed=0)
    assert any("HostWCG-v0 is out of date" in str(w.message) for w in caught)
    assert isinstance(env.unwrapped, SingleAgentEnv)
    env.reset(seed=0)


def _episode(env, seed: int) -> list[tuple[int, float]]:  # type: ignore[no-untyped-def]
    """One episode, the first legal action each step: (action, reward) pairs and the end."""
    env.reset(seed=seed)
    out, done = [], False
    while not done:
        a = int(np.flatnonzero(env.unwrapped.action_masks())[0])
        _, r, term, trunc, _ = env.step(a)
        out.append((a, float(r)))
        done = term or trunc
    return out


@pytest.mark.parametrize("gym_id", GYM_IDS)
def test_gym_make_takes_an_agent_name_as_the_opponent(gym_id: str) -> None:
    """A name goes through agents.make_agent(name, seed): the env plays the games it plays with
    the agent made by hand, and the opponent called is that agent."""
    import gymnasium as gym

    from agents import make_agent
    from hostwcg_env.gym_make import single_v0, single_v1

    build = single_v0 if gym_id.endswith("v0") else single_v1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        by_name = gym.make(gym_id, opponent="heuristic", seed=5, turn_limit=6)
    by_hand = build(opponent=make_agent("heuristic", seed=5), seed=5, turn_limit=6)
    assert type(by_name.unwrapped) is type(by_hand)
    calls: list[int] = []
    agent = (by_name.unwrapped._opponents if gym_id.endswith("v0") else by_name.unwrapped.vec.pool)[0]
    assert type(agent).__name__ == "HeuristicAgent"
    choose = agent.choose

    def counting(view, actions):  # type: ignore[no-untyped-def]
        calls.append(1)
        return choose(view, actions)

    agent.choose = counting
    for seed in (5, 6):
        assert _episode(by_name, seed) == _episode(by_hand, seed)
    assert calls, "the heuristic made the opponent's choices"


def test_gym_make_takes_a_pool_of_names_and_refuses_an_unknown_name() -> None:
    import gymnasium as gym

    env = gym.make("hostwcg/HostWCG-v1", opponent=["random", "heuristic", "lookahead"], seed=0)
    names = [type(o).__name__ for o in env.unwrapped.vec.pool]
    assert names[0] == "RandomBatchPolicy" and names[1] == "HeuristicAgent" and len(names) == 3
    with pytest.raises(ValueError, match="unknown agent 'nonsense'"):
        gym.make("hostwcg/HostWCG-v1", opponent="nonsense")


@pytest.mark.parametrize("gym_id", GYM_IDS)
def test_record_video_records_a_game(gym_id: str, tmp_path: Path) -> None:
    """gymnasium's RecordVideo with the render extra (Pillow draws the board, moviepy writes
    the file): one mp4 of the whole episode, one frame per step and one of the reset."""
    pytest.importorskip("PIL", reason="render_mode='rgb_array' needs Pillow: pip install -e '.[render]'")
    pytest.importorskip("moviepy", reason="RecordVideo needs moviepy: pip install -e '.[render]'")
    import gymnasium as gym
    from gymnasium.wrappers import RecordVideo
    from moviepy import VideoFileClip

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        env = gym.make(gym_id, opponent="heuristic", seed=0, render_mode="rgb_array", turn_limit=3)
    env = RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda episode: True)
    steps = len(_episode(env, 0))
    env.close()
    files = sorted((tmp_path / "videos").glob("*.mp4"))
    assert [f.name for f in files] == ["rl-video-episode-0.mp4"]
    clip = VideoFileClip(str(files[0]))
    try:
        frame = clip.get_frame(0)
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.std() > 0  # a board, not a blank
        assert round(clip.duration * clip.fps) == steps + 1
    finally:
        clip.close()


def test_gym_check_env_passes_on_the_newest_id_with_every_render_mode() -> None:
    """gymnasium's check_env on the made v1 env checks each render mode through its spec."""
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    env = gym.make("hostwcg/HostWCG-v1")
    assert env.unwrapped.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_the_gymnasium_examples_of_docs_env_md_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/env.md "Gymnasium": the make example, then the video example (in a fresh folder),
    run as written, one after the other."""
    pytest.importorskip("moviepy", reason="the video example needs moviepy: pip install -e '.[render]'")
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    section = text[text.index("## Gymnasium"):text.index("## Versions")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "docs/env.md", "exec"), namespace)
    assert type(namespace["env"].unwrapped).__name__ == "SingleEnv"  # type: ignore[attr-defined]
    video = tmp_path / "videos" / "rl-video-episode-0.mp4"
    assert video.is_file() and video.stat().st_size > 0
