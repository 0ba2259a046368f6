"""``ppo_v1:look`` (agents/set_search.py): the v1 network's choice checked by the lookahead's
one-ply search. It plays the search's choice among the actions the network chose from, its
network's memory records what it played, and a margin nothing can beat leaves the network's
play untouched."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.lookahead import HEURISTIC_KINDS
from agents.set_agent import DEFAULT_V1, SetPolicyAgent
from agents.set_search import SearchedSetAgent
from hostwcg_env import hostwcg_v1
from hostwcg_env.analysis.ladder import run_ladder
from hostwcg_env.env.aec import AGENTS

# the observation's parts that read the game and the memory (the action arrays differ: the
# agent encodes only the guarded actions)
STATE_KEYS = ("cards", "card_id", "card_zone", "history")


def test_the_spec_builds_it_and_says_what_is_wrong() -> None:
    a = make_agent("ppo_v1:look", seed=1)
    assert isinstance(a, SearchedSetAgent) and (a.margin, a.worlds, a.turns, a.top) == (0.05, 1, 2, 4)
    assert make_agent(f"ppo_v1:{DEFAULT_V1}:look=0.05", seed=1).margin == 0.05
    assert make_agent("ppo_v1:attacks:look", seed=1).net.attacks
    b = make_agent("ppo_v1:look=0:worlds=2:turns=1:top=0", seed=1)
    assert (b.margin, b.worlds, b.turns, b.top) == (0.0, 2, 1, 0)
    with pytest.raises(ValueError, match="set the 'look' check"):
        make_agent("ppo_v1:worlds=2")
    with pytest.raises(ValueError, match="look= takes a number"):
        make_agent("ppo_v1:look=much")
    with pytest.raises(ValueError, match="not 'raw' or 'sample'"):
        make_agent("ppo_v1:raw:look")


def test_a_margin_nothing_beats_plays_exactly_as_the_network() -> None:
    """Evaluations lie in [0, 1]: with margin 2 the search never overrides, so the games are
    the shipped ``ppo_v1``'s, action for action."""
    looked = run_ladder(["heuristic", "ppo_v1:look=2"], games=2, seed=81, workers=1, quiet=True)
    plain = run_ladder(["heuristic", "ppo_v1"], games=2, seed=81, workers=1, quiet=True)
    assert [r["actions"] for r in looked.records] == [r["actions"] for r in plain.records]
    assert [r["winner"] for r in looked.records] == [r["winner"] for r in plain.records]


@pytest.mark.parametrize(("seed", "top"), [(5, 0), (6, 0), (7, 2)])
def test_it_plays_the_best_scoring_option_and_remembers_it(seed: int, top: int) -> None:
    """Seat A is the agent with its scores replaced by a known order (the last option best),
    seat B plays at random in hostwcg_v1. At each choice the agent plays the last of the
    network's guarded options (with ``top``, of its ``top`` most probable ones, the network's
    own first) unless the network's own action is that one; what its network reads next
    (cards, zones, history) is still exactly the env's observation of its seat."""
    agent = SearchedSetAgent(DEFAULT_V1, seed=seed, top=top, turns=1)
    proposals: list[tuple[object, tuple[object, ...]]] = []
    propose = agent.net.propose

    def spy(view, actions):  # type: ignore[no-untyped-def]
        out = propose(view, actions)
        proposals.append(out)
        return out

    agent.net.propose = spy  # type: ignore[method-assign]
    agent.scores = lambda view, options: [float(i == len(options) - 1) for i in range(len(options))]  # type: ignore[method-assign]
    env = hostwcg_v1.raw_env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    overridden = choices = 0
    while env.agents and not env.game.is_over:
        who = env.agent_selection
        if who == AGENTS[0]:
            g = env.game
            d = g.decision
            chosen = agent.choose(g.view(d.player), d.actions)
            own, options = proposals[-1]
            if top and len(options) > 1:
                assert agent.net.ranked[0] == own and set(agent.net.ranked) == set(options)
                options = agent.net.ranked[:top]
            searched = len(options) > 1 and d.kind not in HEURISTIC_KINDS
            assert chosen == (options[-1] if searched else own)
            overridden += int(chosen != own)
            want = env.observe(who)
            for k in STATE_KEYS:
                assert np.array_equal(agent.net.slate.arrays[k], want[k]), (k, choices)
            env.step(next(i for i, a in env.legal.map.items() if a == chosen))
            choices += 1
        else:
            env.step(int(rng.choice(np.flatnonzero(env.action_mask(who)))))
    assert choices > 20 and overridden > 5


def test_it_plays_ladder_games_by_name() -> None:
    """``ppo_v1:look`` finishes ladder games against the lookahead with legal choices only (the
    runner checks each action) and records its name."""
    res = run_ladder(["lookahead", "ppo_v1:look"], games=2, seed=9, workers=1, quiet=True)
    assert len(res.records) == 2 and all("ppo_v1:look" in r["agents"] for r in res.records)
    assert isinstance(make_agent("ppo_v1", seed=0), SetPolicyAgent)
