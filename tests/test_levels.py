"""Opponents at a chosen strength (agents/levels.py): ``make_agent("level:1")`` to ``"level:5"``,
each weaker than the next by a skill it leaves out (shown on constructed positions), playing
the same way every time, ordered on the ladder, with no clear blunder under the audit."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents import make_agent
from agents.heuristic import HeuristicAgent
from agents.levels import LEVELS, SkilledHeuristic
from agents.lookahead import LookaheadAgent
from agents.set_search import SearchedSetAgent
from hostwcg_env.analysis.audit import CLEAR, audit
from hostwcg_env.analysis.ladder import run_ladder
from hostwcg_env.cli_input import agent_problem
from hostwcg_env.engine import Action, Game
from hostwcg_env.testing.agent_games import STALLED_TURN_A, choice_point
from hostwcg_env.testing.agent_games import position as _game


def _choice(agent: object, game: Game) -> Action:
    d = game.decision
    assert d is not None and d.player == 0
    return agent.choose(game.view(0), d.actions)  # type: ignore[attr-defined, no-any-return]


def test_each_level_is_an_agent_by_number_and_by_name() -> None:
    kinds = {1: SkilledHeuristic, 2: SkilledHeuristic, 3: SkilledHeuristic, 4: LookaheadAgent,
             5: SearchedSetAgent}
    for n, kind in kinds.items():
        assert isinstance(make_agent(f"level:{n}", seed=0), kind)
        assert isinstance(make_agent(f"level:{LEVELS[n].name}", seed=0), kind)
        assert agent_problem(f"level:{n}") is None
    assert make_agent("level:1").name == "level:1"


@pytest.mark.parametrize("spec", ["level", "level:", "level:0", "level:6", "level:hard"])
def test_an_unknown_level_is_one_line_naming_the_levels(spec: str) -> None:
    with pytest.raises(ValueError, match=r"no such level \(known: level:1 \(beginner\), level:2") as e:
        make_agent(spec)
    assert "\n" not in str(e.value)
    assert "no such level" in (agent_problem(spec) or "")


def test_level_3_is_the_heuristic_choice_for_choice() -> None:
    """Level 3 leaves out no skill: it makes the heuristic's choices, in a position where the
    weaker levels differ too."""
    game = _game(3, "battle", {"hand": [], "front": {0: "Ogre"}}, {"front": {0: "Squire"}})
    assert _choice(make_agent("level:3"), game) == _choice(HeuristicAgent(0), game) == Action.parse("attack f0")


def test_levels_1_and_2_attack_no_entity_while_a_blocker_stands() -> None:
    # A's Ogre (3/4) would kill B's Squire (2/2) and survive: the heuristic attacks
    game = _game(3, "battle", {"hand": [], "front": {0: "Ogre"}}, {"front": {0: "Squire"}})
    for n in (1, 2):
        assert _choice(make_agent(f"level:{n}"), game) == Action.parse("pass")
    # an open Host they attack, and a stalled board they grind as the heuristic does
    open_host = _game(3, "battle", {"hand": [], "front": {0: "Ogre"}}, {})
    assert _choice(make_agent("level:2"), open_host) == Action.parse("attack f0")
    stalled = _game(STALLED_TURN_A, "battle", {"hand": [], "front": {0: "Squire"}}, {"front": {0: "Wall"}})
    assert _choice(make_agent("level:2"), stalled) == _choice(HeuristicAgent(0), stalled) == Action.parse("attack f0")


def test_level_1_plays_its_cheapest_card_where_the_heuristic_plays_its_best() -> None:
    game = _game(3, "action1", {"hand": ["Squire", "Ogre"], "pool": {"&": 1, "£": 2, "$": 1}}, {})
    acts = {str(a) for a in game.decision.actions}  # type: ignore[union-attr]
    assert {"play h0", "play h1"} <= acts
    assert _choice(HeuristicAgent(0), game) == Action.parse("play h1")  # the Ogre, the most expensive
    assert _choice(make_agent("level:1"), game) == Action.parse("play h0")  # the Squire


def test_level_1_draws_only_into_an_empty_hand() -> None:
    def left_over(hand: list[str]) -> Game:  # nothing worth playing: what the action point goes to
        return _game(3, "action1", {"hand": hand, "deck": ["Squire"] * 20, "pool": {"&": 2}}, {})

    heuristic, beginner = HeuristicAgent(0), make_agent("level:1")
    one = left_over(["Royal Decree"])  # a removal spell it can pay for, with nothing to remove
    assert _choice(heuristic, one) == Action.parse("ap draw")
    assert _choice(beginner, one) != Action.parse("ap draw")
    assert _choice(beginner, left_over([])) == Action.parse("ap draw")


def test_levels_play_the_same_game_every_time() -> None:
    """Weaker by skill, not by noise: the same seed gives the same game, and the levels built on
    the heuristic make the same choice whatever their seed (they draw nothing at random; levels
    4 and 5 sample the hidden cards for their searches, seeded)."""
    first = run_ladder(["level:1", "level:2"], games=2, seed=11, quiet=True)
    again = run_ladder(["level:1", "level:2"], games=2, seed=11, quiet=True)
    assert [r["actions"] for r in first.records] == [r["actions"] for r in again.records]
    checked = 0
    for seed, plies in ((3, 80), (4, 33), (6, 120), (7, 61)):
        g = choice_point(seed, plies)
        if g.is_over:
            continue
        p = g.decision.player  # type: ignore[union-attr]
        for n in (1, 2, 3):
            picks = {make_agent(f"level:{n}", seed=s).choose(g.view(p), g.legal_actions()) for s in (0, 1, 99)}
            assert len(picks) == 1, (n, seed, picks)
        checked += 1
    assert checked >= 3


@pytest.fixture(scope="module")
def weak_ladder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("levels") / "games.jsonl"
    run_ladder(["level:1", "level:2", "level:3"], games=20, seed=21, quiet=True, results=path)
    return path


def test_the_weak_levels_are_ordered_on_the_ladder(weak_ladder: Path) -> None:
    from hostwcg_env.analysis.ladder import LadderResult

    ratings = LadderResult.from_results([weak_ladder]).ratings()
    assert ratings["level:1"][0] < ratings["level:2"][0] < ratings["level:3"][0]


def test_no_level_makes_a_clear_blunder(weak_ladder: Path) -> None:
    res = audit([weak_ladder], examples=0)
    assert res.games == 60
    for name in ("level:1", "level:2", "level:3"):
        tally = res.agents[name]
        assert tally.choices > 500 and sum(tally.flags[r] for r in CLEAR) == 0
