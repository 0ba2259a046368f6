"""The heuristic's fixes for clear blunders and stalls (agents/heuristic.py), each on a
constructed position: it never plays a harmful targeted card or ability whose only legal
targets are its own, and from turn STALL_TURN on it grinds stalled boards."""

from __future__ import annotations

import hostwcg_env  # noqa: F401
from agents.heuristic import HeuristicAgent
from hostwcg_env.engine import Action, Game
from hostwcg_env.testing.agent_games import STALLED_TURN_A
from hostwcg_env.testing.agent_games import position as _game


def _choice(game: Game) -> Action:
    d = game.decision
    assert d is not None and d.player == 0
    return HeuristicAgent(0).choose(game.view(0), d.actions)


def test_no_removal_spell_whose_only_legal_target_is_its_own() -> None:
    # Royal Decree destroys an Entity with power 3 or more: only A's Ogre qualifies
    game = _game(3, "action1", {"hand": ["Royal Decree"], "pool": {"&": 2}, "front": {0: "Ogre"}},
                 {"front": {0: "Squire"}})
    assert Action.parse("play h0") in game.decision.actions  # type: ignore[union-attr]
    assert _choice(game) != Action.parse("play h0")
    # with an opposing Entity it may destroy, it plays it
    game = _game(3, "action1", {"hand": ["Royal Decree"], "pool": {"&": 2}, "front": {0: "Ogre"}},
                 {"front": {0: "Ogre"}})
    assert _choice(game) == Action.parse("play h0")


def test_no_activated_ability_whose_only_legal_target_is_its_own() -> None:
    game = _game(3, "action1", {"hand": [], "front": {0: "Pinger"}}, {})
    assert Action.parse("activate A.f0 0") in game.decision.actions  # type: ignore[union-attr]
    assert _choice(game) != Action.parse("activate A.f0 0")
    game = _game(3, "action1", {"hand": [], "front": {0: "Pinger"}}, {"front": {0: "Squire"}})
    assert _choice(game) == Action.parse("activate A.f0 0")


def test_grinds_a_wall_only_in_a_stalled_game() -> None:
    a = {"hand": [], "front": {0: "Squire"}}  # H2/P2 against a Wall H5/P0: survives, kills nothing
    b = {"front": {0: "Wall"}}
    assert _choice(_game(3, "battle", a, b)) == Action.parse("pass")
    assert _choice(_game(STALLED_TURN_A, "battle", a, b)) == Action.parse("attack f0")


def test_declines_an_up_to_target_that_would_hurt_its_own() -> None:
    # Ember Spray: 1 damage to up to two Entities; the first went to B's Wall, the second may
    # only be A's own Squire or nothing
    game = _game(3, "action1", {"hand": ["Ember Spray", "Squire"], "pool": {"£": 2}, "front": {0: "Squire"}},
                 {"front": {0: "Wall"}})
    game.apply_text("A play Ember Spray")
    game.apply_text("A target B.f0")
    assert [str(a) for a in game.decision.actions] == ["target A.f0", "pass"]  # type: ignore[union-attr]
    assert _choice(game) == Action.parse("pass")


def test_no_ambush_activation_whose_only_legal_target_is_its_own() -> None:
    # B casts Mend; A's face-down Backlash (2 damage to target Entity) could only hit A's Squire
    def position(b_front: dict[int, str]) -> Game:
        game = _game(4, "action1", {"hand": [], "back": {0: "Backlash"}, "front": {0: "Squire"}, "pool": {"!": 1}},
                     {"hand": ["Mend", "Squire"], "pool": {"%": 1}, "front": b_front})
        # A is asked about its face-down card when Mend is played (whether one is asked is public)
        for line in ("B play Mend", "A pass", "B pass", "A pass", "B slot b0"):
            game.apply_text(line)
        assert [str(a) for a in game.decision.actions] == ["activate A.b0 0", "pass"]  # type: ignore[union-attr]
        return game

    assert _choice(position({})) == Action.parse("pass")
    assert _choice(position({0: "Ogre"})) == Action.parse("activate A.b0 0")
