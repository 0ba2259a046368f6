"""Ecosystem conventions every env version keeps: the parallel env treats an illegal action as
the AEC ``env()`` does (docs/env.md "Parallel env and illegal actions")."""

from __future__ import annotations

import logging
from types import ModuleType

import numpy as np
import pytest

from hostwcg_env import hostwcg_v0, hostwcg_v1
from hostwcg_env.env import AGENTS

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
