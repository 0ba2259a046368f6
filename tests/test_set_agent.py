"""The v1 set policy as an engine-level agent (agents/set_agent.py): at every choice it reads
exactly the observation the hostwcg_v1 env gives its seat, and it plays wherever agents play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

th = pytest.importorskip("torch")
th.set_num_threads(1)

from sb3_contrib import MaskablePPO  # noqa: E402

from agents import make_agent  # noqa: E402
from agents.set_agent import SetPolicyAgent  # noqa: E402
from agents.set_policy_torch import SetPolicy, export_weights  # noqa: E402
from hostwcg_env import hostwcg_v1  # noqa: E402
from hostwcg_env.env.aec import AGENTS  # noqa: E402
from hostwcg_env.testing.agent_games import STALLED_TURN_A, position  # noqa: E402


@pytest.fixture(scope="module")
def weights() -> dict[str, np.ndarray]:
    model = MaskablePPO(SetPolicy, hostwcg_v1.vector_env(1, seed=0), n_steps=32, batch_size=32, seed=0,
                        device="cpu", policy_kwargs={"dim": 32, "emb": 16})
    th.manual_seed(0)
    for p in model.policy.parameters():  # logits that vary from state to state
        p.data.normal_(0, 0.3)
    return export_weights(model)


@pytest.mark.parametrize("seed", [3, 4])
def test_the_agent_sees_what_the_env_shows_its_seat(weights: dict[str, np.ndarray], seed: int) -> None:
    """Seat A is the agent, seat B plays at random; at each of A's choices the agent's arrays
    equal ``env.observe("player_0")`` and its action is the env policy's greedy action."""
    from agents.set_policy import NumpySetPolicy

    env = hostwcg_v1.raw_env()
    env.reset(seed=seed)
    agent = SetPolicyAgent(weights, seed=seed, guard=False)  # the network alone, as in the env
    direct = NumpySetPolicy(weights)
    rng = np.random.default_rng(seed)
    choices = 0
    while env.agents and not env.game.is_over:
        who = env.agent_selection
        mask = env.action_mask(who)
        if who == AGENTS[0]:
            g = env.game
            d = g.decision
            want = env.observe(who)
            a = agent.choose(g.view(d.player), d.actions)
            for k, arr in want.items():
                assert np.array_equal(agent.slate.arrays[k], arr), (k, choices)
            idx = int(direct.predict(want)[0][0])
            assert env.legal.map[idx] == a
            env.step(idx)
            choices += 1
        else:
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert choices > 20


def test_a_decision_with_one_action_skips_the_network_and_keeps_the_samples(weights: dict[str, np.ndarray]) -> None:
    """Where only one action is legal the agent plays it without the network's forward pass
    (balance studies ask agents at forced decisions too), yet a sampling agent draws the number
    ``predict`` would have drawn: its choices are those of the policy asked at every decision."""
    from agents.set_policy import NumpySetPolicy

    env = hostwcg_v1.raw_env()
    env.reset(seed=8)
    agent = SetPolicyAgent(weights, seed=8, sample=True, guard=False)
    direct = NumpySetPolicy(weights, deterministic=False, seed=8)
    passes = [0]
    forward = agent.policy.forward

    def counted(obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        passes[0] += 1
        return forward(obs)

    agent.policy.forward = counted  # type: ignore[method-assign]
    rng = np.random.default_rng(8)
    choices = forced = 0
    while env.agents and not env.game.is_over:
        who = env.agent_selection
        mask = env.action_mask(who)
        if who == AGENTS[0]:
            d = env.game.decision
            want = env.observe(who)
            a = agent.choose(env.game.view(d.player), d.actions)
            idx = int(direct.predict(want)[0][0])
            assert env.legal.map[idx] == a
            forced += len(d.actions) == 1
            choices += len(d.actions) > 1
            assert passes[0] == choices
            env.step(idx)
        else:
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert choices > 20 and forced > 5


def test_it_plays_in_the_ladder_and_by_name(tmp_path: Path, weights: dict[str, np.ndarray]) -> None:
    from hostwcg_env.analysis.ladder import run_ladder

    path = tmp_path / "v1.npz"
    np.savez(path, **weights)
    assert isinstance(make_agent(f"ppo_v1:{path}"), SetPolicyAgent)
    assert make_agent(f"ppo_v1:{path}:sample").sample
    with pytest.raises(ValueError, match="no weights file"):
        make_agent(f"ppo_v1:{tmp_path / 'missing.npz'}")
    res = run_ladder(["random", f"ppo_v1:{path}"], games=2, seed=5, workers=1, quiet=True)
    assert len(res.records) == 2 and all(r["actions"] for r in res.records)


def test_the_shipped_v1_policy_plays_a_game() -> None:
    """``ppo_v1`` loads agents/checkpoints/ppo_hostwcg_v1.npz and finishes a game against the
    heuristic with legal choices only (the runner checks every action)."""
    from agents.set_agent import DEFAULT_V1
    from hostwcg_env.analysis.ladder import run_ladder

    assert DEFAULT_V1.exists()
    agent = make_agent("ppo_v1", seed=1)
    assert isinstance(agent, SetPolicyAgent) and agent.policy.dim == 128
    res = run_ladder(["heuristic", "ppo_v1"], games=2, seed=9, workers=1, quiet=True)
    assert len(res.records) == 2


def test_spec_flags(tmp_path: Path, weights: dict[str, np.ndarray]) -> None:
    path = tmp_path / "v1.npz"
    np.savez(path, **weights)
    a = make_agent(f"ppo_v1:{path}")
    assert a.guard and not a.sample
    b = make_agent(f"ppo_v1:{path}:raw:sample")
    assert not b.guard and b.sample
    assert not make_agent("ppo_v1:raw").guard
    with pytest.raises(ValueError, match=r"agent .ppo_v1:nonsense.: .nonsense. is not a \.npz file "
                                         r".*\(expected ppo_v1\[:PATH\.npz\]"):
        make_agent("ppo_v1:nonsense")


def test_the_guard_keeps_the_heuristics_attack_on_a_stalled_board(weights: dict[str, np.ndarray]) -> None:
    from agents.heuristic import STALL_TURN
    from hostwcg_env.engine import Action

    game = position(STALLED_TURN_A, "battle", {"hand": [], "front": {0: "Squire"}}, {"front": {0: "Wall"}})
    d = game.decision  # type: ignore[attr-defined]
    assert d.player == 0 and Action.parse("attack f0") in d.actions
    for seed in range(4):
        agent = SetPolicyAgent(weights, seed=seed, sample=True)
        assert agent.stall == STALL_TURN
        assert agent.choose(game.view(0), d.actions) == Action.parse("attack f0")  # type: ignore[attr-defined]
    assert SetPolicyAgent(weights, guard=False).stall == 0
    assert SetPolicyAgent(weights, stall=0).stall == 0


def test_the_guard_never_draws_the_last_card(weights: dict[str, np.ndarray]) -> None:
    from agents.sensible import keeps_deck
    from hostwcg_env.engine import Action, Kind

    game = position(3, "action1", {"hand": ["Squire"], "deck": 1, "ap": 2}, {})
    d = game.decision  # type: ignore[attr-defined]
    view = game.view(0)  # type: ignore[attr-defined]
    draw = Action(Kind.AP_DRAW)
    assert draw in d.actions
    assert keeps_deck(view, d.actions) == tuple(a for a in d.actions if a != draw)
    for seed in range(8):
        assert SetPolicyAgent(weights, seed=seed, sample=True).choose(view, d.actions) != draw
    more = position(3, "action1", {"hand": ["Squire"], "deck": 2, "ap": 2}, {})
    assert keeps_deck(more.view(0), more.decision.actions) == more.decision.actions  # type: ignore[attr-defined]


def test_the_guard_makes_only_sensible_choices(weights: dict[str, np.ndarray]) -> None:
    """11.3.1, 11.3.3: 2 action points for a type that no card in hand costs, or for the Host's
    own type that 1 action point gives, are never chosen (``agents.sensible.sensible``); the
    network alone (``guard=False``) may choose them."""
    from agents.sensible import sensible
    from hostwcg_env.engine import Kind

    game = position(3, "action1", {"hand": ["Squire"], "deck": 5, "ap": 2}, {})
    d = game.decision  # type: ignore[attr-defined]
    view = game.view(0)  # type: ignore[attr-defined]
    kept = sensible(view, d.actions)
    assert any(a.kind is Kind.AP_ANY for a in d.actions) and not any(a.kind is Kind.AP_ANY for a in kept)
    guarded = {SetPolicyAgent(weights, seed=seed, sample=True).choose(view, d.actions) for seed in range(24)}
    assert guarded <= set(kept)
    raw = {SetPolicyAgent(weights, seed=seed, sample=True, guard=False).choose(view, d.actions) for seed in range(24)}
    assert any(a.kind is Kind.AP_ANY for a in raw)  # the filter, not the weights, keeps them out
