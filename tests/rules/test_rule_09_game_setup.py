"""Section 9 (Game Setup): the real setup sequence of ``Game.new`` (scenario ``new_game``)."""

from __future__ import annotations

import re

import pytest

import hostwcg_env  # noqa: F401

from ._util import decision, make, play, texts

ROLL = re.compile(r"Roll\(A=(\d+), B=(\d+)\)")


def new_game(seed: int):  # type: ignore[no-untyped-def]
    return make({"new_game": True, "seed": seed})


def rolls(game) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    return [(int(m.group(1)), int(m.group(2))) for e in texts(game) if (m := ROLL.match(e))]


def test_rule_9_setup_steps_happen_in_order() -> None:
    """Rule 9 (Game Setup): roll for the first player, the winner chooses, both draw 5, both
    mulligan (first player first), then the Hosts flip and the first turn begins."""
    g = new_game(0)
    play(g, "yes")
    first = "AB"[g.state.first_player]
    second = "AB"[1 - g.state.first_player]
    assert decision(g) == f"{first} mulligan"
    play(g, "pass")
    assert decision(g) == f"{second} mulligan"
    play(g, "pass")
    kinds = [e.split("(")[0] for e in texts(g)]
    assert kinds.count("Draw") == 10
    assert kinds.index("Roll") < kinds.index("FirstPlayer") < kinds.index("Draw")
    assert kinds.index("Draw") < kinds.index("Mulligan") < kinds.index("GameStarted") < kinds.index("TurnBegan")
    assert [e for e in texts(g) if e.startswith("Mulligan")] == [f"Mulligan({first}, 0)", f"Mulligan({second}, 0)"]
    assert f"TurnBegan({first}, 1)" in texts(g)


@pytest.mark.rules("9.1.4")
def test_rule_9_1_3_and_9_1_4_first_player_by_2d6_high_roll() -> None:
    """9.1.3, 9.1.4: the first player is determined by each player rolling 2D6; the higher
    roll wins (and decides, 9.1.5); a tie is rolled again (A16a)."""
    for seed in range(40):
        g = new_game(seed)
        rs = rolls(g)
        assert rs and all(2 <= x <= 12 for r in rs for x in r)
        assert all(a == b for a, b in rs[:-1]) and rs[-1][0] != rs[-1][1]
        a, b = rs[-1]
        assert decision(g) == ("A first_player" if a > b else "B first_player")
    assert any(len(rolls(new_game(seed))) > 1 for seed in range(40))  # some seed rolled a tie


def test_rule_9_1_5_roll_winner_chooses_first_or_second() -> None:
    """9.1.5: the winner of the roll decides whether to go first (yes) or second (pass)."""
    for answer in ("yes", "pass"):
        g = new_game(0)
        winner = g.decision.player
        play(g, f"{'AB'[winner]} {answer}")
        first = winner if answer == "yes" else 1 - winner
        assert g.state.first_player == first
        assert f"FirstPlayer({'AB'[first]})" in texts(g)


def test_rule_9_1_7_1_no_shuffle_without_a_mulligan() -> None:
    """9.1.7.1: a player who puts no card back does not shuffle; one who does, shuffles."""
    g = new_game(0)
    play(g, "yes")
    first = "AB"[g.state.first_player]
    second = "AB"[1 - g.state.first_player]
    start = len(g.events)
    play(g, f"{first} pass")
    assert not any(e.startswith("Shuffle") for e in texts(g, start))
    start = len(g.events)
    play(g, f"{second} card h0", f"{second} card h0", f"{second} pass")
    ev = texts(g, start)
    assert f"Shuffle({second})" in ev and f"Mulligan({second}, 2)" in ev
    assert len(g.state.players[1 - g.state.first_player].hand) == 5


def test_rule_9_1_8_hosts_flip_face_up_and_the_game_starts() -> None:
    """9.1.8: the Hosts stay face down (the opponent cannot see them) until the mulligans are
    done; then they are flipped face up and the start-of-game procedure begins turn 1."""
    g = make({"new_game": True, "seed": 0, "A": {"host": "Test Host"}, "B": {"host": "Strife Host"}})
    s = g.state
    hosts = [s.players[p].host for p in (0, 1)]
    assert all(s.objs[h].face_down for h in hosts) and not s.started
    assert "Strife Host" not in g.view(0).card_names()
    play(g, "yes", "pass")
    assert all(s.objs[h].face_down for h in hosts)  # one mulligan still to come
    play(g, "pass")
    assert all(not s.objs[h].face_down for h in hosts) and s.started
    assert "Strife Host" in g.view(0).card_names()
    ev = texts(g)
    assert ev.index("GameStarted()") < ev.index(f"TurnBegan({'AB'[s.first_player]}, 1)")
