"""env() fuses PettingZoo's three standard wrappers into one layer (StandardWrappers): it must
behave exactly as OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw)))."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.utils import wrappers

from hostwcg_env import hostwcg_v0
from hostwcg_env.env import shipped_decks
from hostwcg_env.env.aec import StandardWrappers, pettingzoo_wrapped_env

DECKS = shipped_decks(include_test=True)


def trace(e, seed: int, illegal_every: int) -> list:  # type: ignore[no-untyped-def]
    """Play a game, sometimes choosing an illegal index; record everything an agent sees."""
    rng = np.random.default_rng(seed)
    out: list = []
    e.reset(seed=seed)
    n = e.action_space("player_0").n
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, agent in enumerate(e.agent_iter(3000)):
            obs, rew, term, trunc, info = e.last()
            other = [a for a in e.possible_agents if a != agent and a in e.agents]
            seen = [e.observe(a) for a in other]
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), rew, term, trunc,
                        dict(info), [o["action_mask"].tobytes() for o in seen], dict(e.rewards),
                        dict(e.terminations), dict(e.truncations), list(e.agents), e.num_agents))
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if illegal_every and k % illegal_every == illegal_every - 1:
                illegal = np.flatnonzero(obs["action_mask"] == 0)
                e.step(int(rng.choice(illegal)) if rng.random() < 0.8 else int(rng.integers(n)))
            else:
                e.step(int(rng.choice(legal)))
    out.append(("end", list(e.agents), dict(e._cumulative_rewards)))
    return out


@pytest.mark.parametrize("seed,illegal_every", [(0, 0), (1, 0), (2, 7), (3, 25), (4, 60), (5, 3)])
def test_fused_wrappers_match_pettingzoo_stack(seed: int, illegal_every: int) -> None:
    kw = {"deck_pools": [DECKS, DECKS]}
    fused = hostwcg_v0.env(**kw)
    classic = pettingzoo_wrapped_env(**kw)
    assert isinstance(fused, wrappers.OrderEnforcingWrapper) and isinstance(fused, StandardWrappers)
    assert trace(fused, seed, illegal_every) == trace(classic, seed, illegal_every)


def test_illegal_action_ends_the_game_with_minus_one(caplog: pytest.LogCaptureFixture) -> None:
    e = hostwcg_v0.env()
    e.reset(seed=3)
    agent = e.agent_selection
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(bad)
    assert "Illegal move" in caplog.text  # PettingZoo's own warning, as its wrapper logs it
    assert all(e.terminations.values()) and all(e.truncations.values())
    assert e._cumulative_rewards[agent] == -1
    assert e._cumulative_rewards[[a for a in e.agents if a != agent][0]] == 0


def test_out_of_space_action_fails_the_assertion_like_pettingzoo() -> None:
    for make in (hostwcg_v0.env, pettingzoo_wrapped_env):
        e = make()
        e.reset(seed=0)
        with pytest.raises(AssertionError, match="not in action space"):
            e.step(e.action_space(e.agent_selection).n)
        with pytest.raises(AssertionError, match="not in action space"):
            e.step(None)  # None only for a dead agent
        with pytest.raises(AssertionError, match="not in action space"):
            e.step(1.5)


def test_numpy_integer_actions_are_accepted() -> None:
    e = hostwcg_v0.env()
    e.reset(seed=1)
    obs, *_ = e.last()
    e.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    assert not any(e.terminations.values())


def test_order_is_enforced_before_reset() -> None:
    for make in (hostwcg_v0.env, pettingzoo_wrapped_env):
        e = make()
        for name in ("agent_selection", "rewards", "terminations", "truncations", "infos", "agents", "num_agents"):
            with pytest.raises(AttributeError, match="before reset"):
                getattr(e, name)
        with pytest.raises(Exception, match="reset"):
            e.step(0)
        with pytest.raises(Exception, match="reset"):
            e.observe("player_0")
        assert e.possible_agents == ["player_0", "player_1"]
        assert str(e) == "hostwcg_v0"


def test_last_and_agent_iter_keep_pettingzoo_order_checks() -> None:
    """env() answers last() and agent_iter() itself (one hop): the same errors as the
    PettingZoo stack before reset and without a step between two agents, the same stop."""
    seen = []
    for make in (hostwcg_v0.env, pettingzoo_wrapped_env):
        e = make()
        errors = []
        for call in (e.last, lambda e=e: next(iter(e.agent_iter()))):
            with pytest.raises(Exception) as info:
                call()
            errors.append((type(info.value), str(info.value)))
        e.reset(seed=0)
        it = iter(e.agent_iter())
        first = next(it)
        with pytest.raises(AssertionError, match="step"):
            next(it)  # no step between two agents
        assert list(e.agent_iter(0)) == []
        obs, rew, term, trunc, info_ = e.last()
        last_no_obs = e.last(observe=False)
        steps = 0
        e.reset(seed=1)
        for _agent in e.agent_iter(40):
            o, *_ = e.last()
            e.step(int(np.flatnonzero(o["action_mask"])[0]))
            steps += 1
        seen.append((errors, first, obs["observation"].tobytes(), rew, term, trunc, info_, last_no_obs, steps))
    assert seen[0] == seen[1]
    assert seen[0][-1] == 40
