"""The blunder audit (hostwcg_env/analysis/audit.py): each rule on a constructed position
(tests/audit/*.toml, ordinary scenario files), and ``hostwcg audit`` end to end."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.analysis.audit import GameTracker, audit, classify, replayed_games
from hostwcg_env.cli import main
from hostwcg_env.engine import Action, Game
from hostwcg_env.engine.actions import PASS
from hostwcg_env.scenarios import run_file
from hostwcg_env.scenarios.builder import setup_game
from hostwcg_env.scenarios.runner import run_line

HERE = Path(__file__).parent / "audit"


def _doc(name: str) -> dict[str, Any]:
    with open(HERE / name, "rb") as f:
        return tomllib.load(f)


def _position(name: str, change: Any = None) -> Game:
    """The game of a scenario file after its first step's ``do`` lines; ``change(doc)`` edits
    the document first."""
    doc = _doc(name)
    if change is not None:
        doc = copy.deepcopy(doc)
        change(doc)
    game = setup_game(doc, name)
    for line in doc["step"][0]["do"]:
        run_line(game, line)
    return game


def _rules(game: Game, action: str, **kw: Any) -> list[str]:
    return [f.rule for f in classify(game, Action.parse(action), **kw)]


def test_positions_are_valid_scenarios() -> None:
    for path in sorted(HERE.glob("*.toml")):
        result = run_file(path)
        assert result.ok, (path, result.mismatches)


def test_r1_damage_on_own_entity_while_an_opposing_one_is_legal() -> None:
    game = _position("r1_spark_on_own_entity.toml")
    assert _rules(game, "target A.f0") == ["R1"]
    assert _rules(game, "target B.f0") == []


def test_r1_hurting_its_own_with_an_up_to_target_it_could_decline() -> None:
    game = _position("r1_up_to_target_on_own_entity.toml")
    assert _rules(game, "target A.f0") == ["R1"]
    assert _rules(game, "pass") == []


def test_r1_is_no_blunder_without_an_opposing_target_but_r6_when_played_by_choice() -> None:
    game = _position("r1_spark_on_own_entity.toml", lambda d: d["setup"]["B"].pop("front"))
    assert _rules(game, "target A.f0") == ["R6"]


def test_r1_rescue_of_an_own_entity_targeted_by_the_opponent_is_no_blunder() -> None:
    game = _position("r1_rescue_is_no_blunder.toml")
    assert _rules(game, "target A.f0") == []
    assert _rules(game, "target B.f0") == []
    game = _position("r1_rescue_is_no_blunder.toml", lambda d: d["setup"].pop("stack"))
    assert _rules(game, "target A.f0") == ["R1"]


def test_r2_pump_on_opposing_entity_while_an_own_one_is_legal() -> None:
    game = _position("r2_vigor_on_enemy_entity.toml")
    assert _rules(game, "target B.f0") == ["R2"]
    assert _rules(game, "target A.f0") == []


def test_r2_equipment_on_opposing_entity() -> None:
    game = _position("r2_equipment_on_enemy_entity.toml")
    assert _rules(game, "target B.f0") == ["R2"]
    assert _rules(game, "target A.f0") == []
    # with no Entity of its own, equipping the opponent's is no R2 (nothing better was legal)
    game = _position("r2_equipment_on_enemy_entity.toml", lambda d: d["setup"]["A"].pop("front"))
    assert _rules(game, "target B.f0") == []


def test_r3_declaring_an_attack_whose_every_target_loses_the_attacker() -> None:
    game = _position("r3_losing_attack.toml")
    assert _rules(game, "attack f0") == ["R3"]
    assert _rules(game, "attack f1") == []  # Ogre into Ogre: neither dies


def test_r3_choosing_a_losing_target_while_a_safe_one_is_legal() -> None:
    doc_game = _position("r3_losing_target.toml", lambda d: d["step"][0].update(do=[]))
    assert _rules(doc_game, "attack f0") == []  # the Wall is a safe target
    game = _position("r3_losing_target.toml")
    assert _rules(game, "target B.f0") == ["R3"]
    assert _rules(game, "target B.f1") == []


def test_r5_ending_the_turn_with_an_empty_hand() -> None:
    game = _position("r5_empty_hand.toml")
    assert _rules(game, "pass") == ["R5"]
    assert _rules(game, "ap draw") == []
    held = _position("r5_empty_hand.toml", lambda d: d["setup"]["A"].update(hand=["Squire"]))
    assert _rules(held, "pass") == []
    safe = _position("r5_empty_hand.toml", lambda d: d["setup"]["B"].pop("front"))
    assert _rules(safe, "pass") == []
    # with no action point left, only having played the last card this turn makes it R5
    spent = _position("r5_empty_hand.toml", lambda d: d["setup"]["A"].update(ap=0))
    assert _rules(spent, "pass") == []
    assert _rules(spent, "pass", played_last=True) == ["R5"]


def test_r5_tracker_knows_the_last_card_was_played_this_turn() -> None:
    game = _position("r5_empty_hand.toml", lambda d: d["setup"]["A"].update(
        ap=0, hand=["Squire"], pool={"&": 1}))
    tracker = GameTracker()
    flags = []
    action = Action.parse("play h0")
    while game.state.turn == 3:  # play the last card, let it resolve, pass the turn
        flags += tracker.see(game, action)
        game.apply(action)
        d = game.decision
        assert d is not None
        action = PASS if PASS in d.actions else d.actions[0]
    assert [f.rule for f in flags] == ["R5"]


def _pass_until(game: Game, turn: int, tracker: GameTracker) -> None:
    while not game.is_over and game.state.turn < turn:
        tracker.see(game, PASS)
        game.apply(PASS)
    tracker.finish(game)


def test_r4_three_idle_turns_with_a_playable_card() -> None:
    tracker = GameTracker(render=True)
    _pass_until(_position("r4_stall.toml"), 8, tracker)  # A's turns 3, 5 and 7
    assert [(f.rule, f.player, f.severity) for f in tracker.stalls] == [("R4", 0, 3.0)]
    assert "A's view" in tracker.stalls[0].board and "Squire" in tracker.stalls[0].board
    tracker = GameTracker()
    _pass_until(_position("r4_stall.toml"), 6, tracker)  # two turns are no stall yet
    assert tracker.stalls == []


def test_r4_is_no_stall_while_ahead() -> None:
    tracker = GameTracker()
    _pass_until(_position("r4_stall.toml", lambda d: d["setup"]["B"].update(damage_zone=3)), 8, tracker)
    assert tracker.stalls == []


# ---------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def results_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from hostwcg_env.analysis.ladder import run_ladder

    path = tmp_path_factory.mktemp("audit") / "games.jsonl"
    run_ladder(["random", "heuristic"], 4, seed=3, quiet=True, results=path)
    return path


def test_audit_counts_every_choice_the_ladder_recorded(results_file: Path) -> None:
    res = audit([results_file], examples=2)
    lines = [json.loads(x) for x in results_file.read_text().splitlines()]
    recorded: dict[str, int] = {}
    for d in lines:
        for name, (_secs, k) in zip(d["agents"], d["seats"], strict=True):
            recorded[name] = recorded.get(name, 0) + k
    assert res.games == 4
    assert {n: t.choices for n, t in res.agents.items()} == recorded
    assert res.pairs == {("heuristic", "random"): [4, sum(d.get("reason") == "turn_limit" for d in lines)]}


def test_adapter_skips_games_kept_without_actions(tmp_path: Path, results_file: Path) -> None:
    lines = results_file.read_text().splitlines()
    old = json.loads(lines[0])
    old["actions"] = []  # as the ladder's lines written before it kept them load
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([json.dumps(old), *lines[1:]]) + "\n")
    assert len(list(replayed_games([path]))) == len(lines) - 1
    assert len(list(replayed_games([path], limit=2))) == 2


def test_hostwcg_audit_end_to_end(results_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_md = tmp_path / "audit.md"
    assert main(["audit", str(results_file), "--examples", "1", "--markdown", str(out_md)]) == 0
    out = capsys.readouterr().out
    assert "| agent | games | choices | target choices | R1 | R2 |" in out
    assert "| heuristic vs random | 4 |" in out
    assert out_md.read_text().strip() == out.strip()
    assert main(["audit", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such results file" in capsys.readouterr().err


def test_games_of_an_older_engine_epoch_are_named_not_audited(
        results_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record of another decision epoch does not replay under this engine: the audit counts
    it and says so (in the report when other games were audited, as the error otherwise)."""
    lines = results_file.read_text().splitlines()
    old = [json.dumps({**json.loads(x), "epoch": 1}) for x in lines[:2]]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join([*old, *lines[2:]]) + "\n")
    res = audit([mixed], examples=0)
    assert res.games == len(lines) - 2 and res.other_epoch == {1: 2} and res.not_replayed == 0
    assert "2 game(s) left out (2 of epoch 1)" in res.markdown(0)
    only_old = tmp_path / "old.jsonl"
    only_old.write_text("\n".join(old) + "\n")
    assert main(["audit", str(only_old)]) == 2
    err = capsys.readouterr().err
    assert "epoch 1" in err and "do not replay under this one" in err and "Traceback" not in err


def test_r7_drawing_the_last_card_of_the_deck() -> None:
    game = _position("r7_draw_last_card.toml")
    assert _rules(game, "ap draw") == ["R7"]
    assert _rules(game, "ap host") == []
    two = _position("r7_draw_last_card.toml", lambda d: d["setup"]["A"].update(deck=2))
    assert _rules(two, "ap draw") == []


def test_r3_the_attack_filter_removes_exactly_the_attacks_the_audit_flags() -> None:
    """``agents.sensible.no_losing_attacks`` (ppo_v1's ``:attacks`` guard), reading the chooser's
    view, leaves out exactly the actions that R3 flags on the game state, at every choice of
    random games and in the R3 positions."""
    from agents import RandomAgent, decide
    from agents.sensible import no_losing_attacks
    from hostwcg_env.analysis.audit import classify_attack
    from hostwcg_env.cards import default_ruleset
    from hostwcg_env.env import shipped_decks

    def check(game: Game) -> int:
        d = game.decision
        assert d is not None
        flagged = {a for a in d.actions if (f := classify_attack(game, a)) is not None and f.rule == "R3"}
        kept = no_losing_attacks(game.view(d.player), d.actions)
        assert set(d.actions) - set(kept) == flagged, (game.state.turn, d.kind, flagged, kept)
        return len(flagged)

    game = _position("r3_losing_attack.toml")
    assert check(game) == 1 and Action.parse("attack f0") not in no_losing_attacks(game.view(0), game.decision.actions)
    assert check(_position("r3_losing_target.toml")) == 1
    decks = shipped_decks()
    seen = 0
    for seed in range(6):
        g = default_ruleset().new_game(decks[seed % len(decks)], decks[(3 * seed + 1) % len(decks)], seed=seed)
        agents = [RandomAgent(2 * seed), RandomAgent(2 * seed + 1)]
        while not g.is_over and g.state.turn < 40:
            d = g.decision
            assert d is not None
            if len(d.actions) > 1:
                seen += check(g)
            g.apply(d.actions[0] if len(d.actions) == 1 else decide(agents[d.player], g))
    assert seen > 0  # random play makes losing attacks, so the comparison is not empty
