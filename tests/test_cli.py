"""The ``hostwcg`` command, run in-process (``main([...])``), and the terminal renderer.

The renderer tests are hidden-information tests: a player's board is built from that player's
PlayerView only, so the opponent's hand, face-down cards and damage zone never appear in it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401  (registers the default card pool)
from hostwcg_env.cli import main
from hostwcg_env.engine import events as ev
from hostwcg_env.engine.kinds import Phase
from hostwcg_env.render import describe_event, render_events, render_text
from hostwcg_env.scenarios import setup_game

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
DECKS = ROOT / "hostwcg_env" / "cards" / "decks"

BAD_SCENARIO = """
id = "X001"
title = "A deliberately wrong expectation"
[setup]
turn = 1
phase = "action1"
[setup.A]
hand = ["Squire"]
[[step]]
do = []
[step.expect]
"A.hand" = 5
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


# ============================================================================ scenario run


def test_scenario_run_ok(capsys):
    path = SCENARIOS / "s001_damage_zone_win_is_immediate.toml"
    code, out = run(capsys, "scenario", "run", str(path))
    assert code == 0
    assert out.startswith("ok S001 Damage-zone win is immediate")


def test_scenario_run_failure_lists_each_mismatch(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_SCENARIO)
    good = SCENARIOS / "s001_damage_zone_win_is_immediate.toml"
    code, out = run(capsys, "scenario", "run", str(good), str(bad))
    assert code == 1
    assert "ok S001" in out
    assert "FAIL X001" in out
    mismatch = [line for line in out.splitlines() if line.startswith("    ")]
    assert mismatch and "A.hand" in mismatch[0]
    assert "1 passed, 1 failed" in out


def test_scenario_run_unreadable_file_fails(capsys, tmp_path):
    code, out = run(capsys, "scenario", "run", str(tmp_path / "missing.toml"))
    assert code == 1
    assert "FAIL missing" in out


@pytest.mark.parametrize("argv", [[], ["scenario"], ["scenario", "run"], ["bogus"],
                                  ["cards", "list", "--cost", "x"], ["demo", "--decks", "a"]])
def test_usage_errors_exit_2(capsys, argv):
    code, _ = run(capsys, *argv)
    assert code == 2


# ============================================================================ cards


def test_cards_validate_shipped_pool(capsys):
    code, out = run(capsys, "cards", "validate")
    assert code == 0
    assert out.startswith("ok: ")


def test_cards_validate_bad_file_names_file_card_and_field(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[card]]\nname = "Lurker"\ntype = "entity"\nresource = "strife"\n'
                   'cost = "£"\nhealth = 1\npower = 1\nkeywords = ["lingering"]\n')
    code, out = run(capsys, "cards", "validate", str(bad))
    assert code == 1
    assert "bad.toml" in out and "Lurker" in out and "INVALID_KEYWORD" in out


def test_cards_list_filters(capsys):
    code, out = run(capsys, "cards", "list", "--type", "host")
    assert code == 0
    assert "Test Host" in out and "Strife Host" in out and "Squire" not in out
    assert "H8/S5" in out

    code, out = run(capsys, "cards", "list", "--resource", "strife", "--type", "entity")
    assert code == 0
    assert "Raider" in out and "Squire" not in out

    code, out = run(capsys, "cards", "list", "--search", "squire")
    assert code == 0
    assert "Squire" in out and "Ogre" not in out

    code, out = run(capsys, "cards", "list", "--cost", "3", "--type", "entity")
    assert "Ogre" in out and "Squire" not in out


def test_cards_list_table_has_columns(capsys):
    code, out = run(capsys, "cards", "list")
    header = out.splitlines()[0].split()
    assert header == ["name", "type", "resource", "cost", "stats", "keywords"]
    squire = next(line for line in out.splitlines() if line.startswith("Squire "))
    assert "entity" in squire and "&" in squire and "H2/P2" in squire


def test_cards_show(capsys):
    code, out = run(capsys, "cards", "show", "Duelist")
    assert code == 0
    assert out.startswith("Duelist")
    assert "Entity - Human Warrior" in out
    assert "£$" in out and "first_strike" in out and "First Strike" in out


def test_cards_show_is_case_insensitive_and_takes_words(capsys):
    code, out = run(capsys, "cards", "show", "test", "host")
    assert code == 0
    assert out.startswith("Test Host")
    assert "health 8, soul 5" in out


def test_cards_show_unknown_suggests(capsys):
    code, out = run(capsys, "cards", "show", "Squre")
    assert code == 1
    assert "no card named 'Squre'" in out
    assert "did you mean 'Squire'" in out


# ============================================================================ decks


def test_deck_check_good(capsys):
    code, out = run(capsys, "deck", "check", str(DECKS / "test_authority.toml"),
                    str(DECKS / "test_strife.toml"))
    assert code == 0
    assert out.count("ok ") == 2
    assert "Test Authority (Test Host, 50 cards)" in out


def test_deck_check_bad_lists_every_problem(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "Bad"\nhost = "Test Host"\n[cards]\n"Squire" = 5\n"Squirrel" = 1\n')
    code, out = run(capsys, "deck", "check", str(DECKS / "test_strife.toml"), str(bad))
    assert code == 1
    assert "ok " in out and "FAIL" in out
    for problem in ("COPY_LIMIT", "DECK_SIZE", "UNKNOWN_CARD"):
        assert problem in out


# ============================================================================ demo


def test_demo_finishes_with_a_winner_line(capsys):
    code, out = run(capsys, "demo", "--seed", "1", "--color", "never")
    assert code == 0
    lines = out.splitlines()
    assert "=== Turn 1:" in out
    result = [line for line in lines if line.startswith("Result: ")]
    assert len(result) == 1
    assert "wins" in result[0] or "draw" in result[0]
    assert "rule" in result[0] or "RuleConfig" in result[0]
    assert len(lines) < 2000
    assert "\x1b[" not in out


def test_demo_is_reproducible_and_quiet(capsys):
    code, first = run(capsys, "demo", "--seed", "4", "--quiet")
    assert code == 0
    assert first.startswith("Result: ")
    assert len(first.splitlines()) <= 3
    code, second = run(capsys, "demo", "--seed", "4", "--quiet")
    assert first == second


def test_demo_with_explicit_decks(capsys):
    code, out = run(capsys, "demo", "--seed", "2", "--quiet", "--decks",
                    str(DECKS / "test_strife.toml"), str(DECKS / "test_authority.toml"))
    assert code == 0 and "Result: " in out


def test_demo_bad_deck_fails(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('host = "Test Host"\n[cards]\n"Squire" = 50\n')
    code, out = run(capsys, "demo", "--quiet", "--decks", str(bad), str(bad))
    assert code == 1 and "COPY_LIMIT" in out


def test_module_entry_point_exists():
    import importlib.util

    assert importlib.util.find_spec("hostwcg_env.__main__") is not None


# ============================================================================ render

SECRET_HAND = ["Doom", "Sweep"]
SECRET_BACK = "Snare"  # face-down in B.b0
SECRET_LAYING = "Backlash"  # a face-down Ambush B is laying, on the stack
SECRET_DAMAGE = "Cull"  # in B's damage zone
SECRET_DECK = "Quickling"  # in both decks


def hidden_position():
    doc = {
        "setup": {
            "turn": 2,
            "phase": "action1",
            "A": {"hand": ["Squire", "Ogre"], "deck": [SECRET_DECK] * 10,
                  "front": {"0": {"card": "Raider", "damage": 1, "sick": True}},
                  "damage_zone": ["Wall"]},
            "B": {"host": "Strife Host", "hand": SECRET_HAND, "deck": [SECRET_DECK] * 10,
                  "back": {"0": SECRET_BACK}, "damage_zone": [SECRET_DAMAGE],
                  "front": {"2": {"card": "Slayer", "markers": ["Iron Blade"]}}},
            "stack": [{"controller": "B", "card": SECRET_LAYING}],
        }
    }
    return setup_game(doc, "<test>")


def test_player_render_never_shows_opponent_hidden_cards():
    game = hidden_position()
    text = render_text(game, 0)
    for name in [*SECRET_HAND, SECRET_BACK, SECRET_LAYING, SECRET_DAMAGE, SECRET_DECK]:
        assert name not in text, name
    assert "hand: 2 cards" in text
    assert "b0 face-down" in text
    assert "face-down card (B)" in text
    assert "damage zone: 1 card |" in text
    # what A may see is there
    assert "Squire, Ogre" in text and "Wall" in text
    assert "Slayer H3/P5 +Iron Blade" in text
    assert "Raider" in text and "dmg 1" in text and "[sick]" in text


def test_player_render_is_built_from_the_view_only(monkeypatch):
    """Reading game.state for a player's board would be a leak; make it fail loudly."""
    game = hidden_position()
    view = game.view(0)

    class Guard:
        def view(self, p):
            assert p == 0
            return view

        @property
        def state(self):
            raise AssertionError("render_text read the full state for a player view")

    text = render_text(Guard(), 0)
    assert "Doom" not in text


def test_spectator_render_shows_everything():
    game = hidden_position()
    text = render_text(game, None)
    for name in [*SECRET_HAND, SECRET_BACK, SECRET_LAYING, SECRET_DAMAGE]:
        assert name in text, name
    assert "Backlash (B, face-down)" in text and "b0 Snare (face-down)" in text
    assert SECRET_DECK not in text  # decks are drawn as counts, even for the spectator
    assert "every card shown" in text


def test_owner_render_shows_own_hidden_cards_and_sits_at_the_bottom():
    game = hidden_position()
    text = render_text(game, 1)
    for name in [*SECRET_HAND, SECRET_BACK, SECRET_LAYING, SECRET_DAMAGE]:
        assert name in text, name
    assert "Squire" not in text  # A's hand
    lines = text.splitlines()
    first_a = next(i for i, line in enumerate(lines) if line.startswith("A "))
    first_b = next(i for i, line in enumerate(lines) if line.startswith("B "))
    assert first_a < first_b  # opponent on top


def test_render_colour_only_when_asked():
    game = hidden_position()
    assert "\x1b[" not in render_text(game, 0)
    assert "\x1b[" in render_text(game, 0, color=True)
    assert "\x1b[" in render_events([ev.Draw(0, 4, "Squire")], color=True)
    assert "\x1b[" not in render_events([ev.Draw(0, 4, "Squire")])


def test_render_lists_actions_for_the_decider():
    game = hidden_position()
    d = game.decision
    assert d is not None
    text = render_text(game, d.player, actions=True)
    assert "legal: " in text and "pass" in text
    other = render_text(game, 1 - d.player, actions=True)
    assert "legal: " not in other


def test_render_events_plain_and_compact():
    A, B = 0, 1
    events = [ev.TurnBegan(A, 3), ev.PhaseBegan(A, Phase.ACTION1), ev.APSpent(A, "draw"), ev.Draw(A, 5, "Squire"),
              ev.Paid(A, "&", "Squire"), ev.WouldPlay(A, 6, "Squire", False, 1),
              ev.WouldCreate(A, 6, "Squire", False, 1), ev.Created(A, 7, "Squire", False),
              ev.EntersSlot(A, 7, "Squire", False, "f2"), ev.Played(A, 7, "Squire", False),
              ev.PhaseBegan(A, Phase.BATTLE), ev.Attacks(B, 3, "Ogre"), ev.Blocks(A, 7, "Squire"),
              ev.DamageDealt(A, 7, "Squire", 3, "Ogre", "combat"),
              ev.Destroyed(A, 7, "Squire", "Ogre", "combat", 3), ev.Destroys(B, 3, "Ogre", 7, "Squire", None),
              ev.Search(A)]
    plain = render_events(events)
    assert plain.splitlines()[0].strip() == "TurnBegan(A, 3)"
    assert len(plain.splitlines()) == len(events)
    compact = render_events(events, compact=True)
    assert "[action1] A AP -> draws Squire; A plays Squire (&) -> f2" in compact
    assert "[battle] B's Ogre attacks; A's Squire blocks; Ogre deals 3 to Squire" in compact
    assert "Destroys" not in compact and "WouldPlay" not in compact
    assert "Search(A)" in compact  # an event with no phrase: its text
    capped = render_events([ev.Draw(A, i, f"C{i}") for i in range(5)], max_lines=3)
    assert capped.splitlines()[-1].strip() == "... (3 more lines)"


def test_describe_event():
    assert describe_event(ev.HostDamaged(1, 1, "Ogre")) == "B's Host takes 1"
    assert describe_event(ev.Draw(1, 4, "Squire").redact(0)) == "B draws a card"
    assert describe_event(ev.GameOver(0, "damage_zone")) == "GAME OVER: A wins (damage_zone)"
    assert describe_event(ev.Reveal(1, "hand", ("Squire", "Ogre"))) == "Reveal(B, hand=[Squire, Ogre])"


def test_event_phrases_keep_card_names_that_hold_a_comma():
    """Some card names hold a comma: the phrases name the whole card ("B plays Xin, Master
    of Pain", not "Xin -> Master of Pain")."""
    xin = "Xin, Master of Pain"
    text = render_events([ev.Played(1, 4, xin, False), ev.EntersSlot(1, 4, xin, False, "f1")], compact=True)
    assert "Xin, Master of Pain" in text and "->  Master" not in text and "Xin ->" not in text
