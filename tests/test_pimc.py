"""The pimc agent (agents/pimc.py): names and options, legal full games, determinism, the
successive-halving race over sampled worlds, and no blunder on the audit's positions."""

from __future__ import annotations

import pytest

import hostwcg_env  # noqa: F401
from agents import make_agent
from agents.lookahead import LookaheadAgent
from agents.pimc import PIMCAgent
from agents.sensible import sensible
from hostwcg_env.engine import Action, Game
from hostwcg_env.testing.agent_games import (
    STALLED_TURN_A,
    choice_point,
    deterministic_and_untouched,
    plays_full_games,
    position,
)


class Recording(PIMCAgent):
    """A pimc agent that records which action it scored in which world."""

    def __init__(self, **kw: object) -> None:
        self.scored: list[tuple[str, int]] = []
        super().__init__(**kw)  # type: ignore[arg-type]

    def score(self, world: Game, index: int, action: Action, me: int, until: int) -> float:
        self.scored.append((str(action), index))
        return super().score(world, index, action, me, until)


def test_make_agent_names_and_options() -> None:
    a = make_agent("pimc:16:first=4:keep=0.25:turns=2:margin=0.01:danger=3", seed=1)
    assert isinstance(a, PIMCAgent) and isinstance(a, LookaheadAgent)
    assert (a.worlds, a.first, a.keep, a.turns, a.margin, a.weights.danger) == (16, 4, 0.25, 2, 0.01, 3.0)
    b = make_agent("pimc")
    assert (b.worlds, b.first, b.keep, b.turns) == (16, 2, 0.5, 2)
    for bad in ("pimc:0", "pimc:x", "pimc:4:first=5", "pimc:first=0", "pimc:keep=0", "pimc:keep=1.5",
                "pimc:stop=1", "pimc:nope=1"):
        with pytest.raises(ValueError):
            make_agent(bad)


def test_plays_full_games_with_legal_actions() -> None:
    plays_full_games("pimc:4")


def test_deterministic_for_a_seed_and_leaves_the_real_game_untouched() -> None:
    deterministic_and_untouched(lambda: PIMCAgent(worlds=4, seed=9))


def test_the_race_halves_the_actions_and_doubles_the_worlds() -> None:
    """Every sensible action in the first worlds; then the better half (and the heuristic's own
    choice) in twice as many; the survivors are scored in the same worlds, each once."""
    for seed, plies in ((3, 80), (6, 120), (7, 61), (8, 90), (9, 40), (10, 70), (11, 100)):
        g = choice_point(seed, plies)
        if g.is_over:
            continue
        view = g.view(g.decision.player)  # type: ignore[union-attr]
        options = sensible(view, g.legal_actions())
        if len(options) < 4:
            continue
        agent = Recording(worlds=8, first=1, seed=2)
        own = agent.policy.choose(view, g.legal_actions())
        means, alive = agent.race(view, options, own)
        by_action: dict[str, list[int]] = {}
        for a, w in agent.scored:
            by_action.setdefault(a, []).append(w)
        assert set(by_action) == {str(a) for a in options}
        assert all(ws == list(range(len(ws))) for ws in by_action.values())  # each world once, in order
        counts = sorted(len(ws) for ws in by_action.values())
        assert counts[0] == 1 and set(counts) <= {1, 2, 4, 8}
        if own in options:  # the heuristic's own choice races on to the end
            assert len(by_action[str(own)]) == max(counts)
        # each round keeps at most half (rounded up) of the actions scored in it, plus the heuristic's
        for n in (2, 4, 8):
            prev = sum(1 for c in counts if c >= n // 2)
            assert sum(1 for c in counts if c >= n) <= (prev + 1) // 2 + 1
        # the survivors: scored in the most worlds; their means are over those worlds
        top = max(counts)
        assert {str(options[i]) for i in alive} == {a for a, ws in by_action.items() if len(ws) == top}
        assert len(alive) >= 1 and all(means[i] >= 0.0 for i in alive)
        return
    pytest.fail("no position with four sensible actions")


def test_keep_everything_scores_every_action_in_every_world() -> None:
    g = choice_point(3, 80)
    assert not g.is_over
    view = g.view(g.decision.player)  # type: ignore[union-attr]
    options = sensible(view, g.legal_actions())
    assert len(options) >= 2
    agent = Recording(worlds=4, first=1, keep=1.0, seed=2)
    agent.race(view, options, options[0])
    assert sorted(agent.scored) == sorted((str(a), w) for a in options for w in range(4))


@pytest.mark.parametrize(("name", "good"), [
    ("r1_spark_on_own_entity.toml", "target B.f0"),
    ("r2_vigor_on_enemy_entity.toml", "target A.f0"),
    ("r2_equipment_on_enemy_entity.toml", "target A.f0"),
])
def test_targets_the_right_side(name: str, good: str) -> None:
    from test_lookahead import _position

    game = _position(name)
    d = game.decision
    assert d is not None
    for seed in range(2):
        assert PIMCAgent(worlds=4, seed=seed).choose(game.view(d.player), d.actions) == Action.parse(good)


def _stall_position(turn: int) -> Game:
    # A's Squire (H2/P2) against B's Wall (H5/P0): the heuristic grinds it only in a stalled game
    return position(turn, "battle", {"hand": [], "front": {0: "Squire"}}, {"front": {0: "Wall"}})


def test_a_stalled_board_keeps_the_heuristics_attack_without_a_search() -> None:
    from agents.heuristic import STALL_TURN

    assert make_agent("pimc").stall == STALL_TURN and make_agent("lookahead").stall == 0
    assert make_agent("lookahead:1:stall=40").stall == 40 and make_agent("pimc:stall=0").stall == 0
    with pytest.raises(ValueError):
        make_agent("lookahead:stall=-1")
    game = _stall_position(STALLED_TURN_A)
    d = game.decision
    assert d is not None and d.player == 0 and Action.parse("attack f0") in d.actions
    agent = Recording(seed=3)
    assert agent.choose(game.view(0), d.actions) == Action.parse("attack f0")
    assert agent.scored == []  # no world was scored
    # without the stall rule, and before the stall turn, the choice is searched
    off = Recording(seed=3, stall=0)
    off.choose(game.view(0), d.actions)
    assert off.scored
    early = _stall_position(3)
    d3 = early.decision
    assert d3 is not None
    searched = Recording(seed=3)
    searched.choose(early.view(0), d3.actions)
    assert searched.scored
