"""Game records replay exactly (``hostwcg replay``); a record that does not reproduce its result
is an error that says where it diverged."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.analysis import Study, play_game
from hostwcg_env.analysis.recordfile import ShardWriter
from hostwcg_env.analysis.replay import (
    ReplayError,
    load_record,
    new_game,
    replay,
    step_through,
    verify,
)
from hostwcg_env.cli import main
from hostwcg_env.engine import Action

DECKS = ["brae_deep_roots", "karsh_ember_tide"]


@pytest.fixture(scope="module")
def records() -> list[dict]:
    specs = Study.make(decks=DECKS, games=2, agents="random,heuristic", rules=["damage_draws=true"],
                       seed=5).specs()
    return [json.loads(json.dumps(play_game(s))) for s in specs]  # through JSON, as in a shard


@pytest.fixture()
def shard(tmp_path: Path, records: list[dict]) -> Path:
    with ShardWriter(tmp_path) as w:
        for r in records:
            w.write(r)
    return w.paths[0]


def test_record_fields(records: list[dict]) -> None:
    r = records[0]
    assert {"seed", "decks", "rules", "agents", "actions", "winner", "reason", "turns", "cards"} <= set(r)
    assert r["rules"] == {"damage_draws": True} and r["agents"] == ["random", "heuristic"]
    assert r["decks"][0]["host"] and sum(n for _, n in r["decks"][0]["main"]) == 50
    assert r["decisions"] == len(r["actions"])
    assert len(r["cards"][0]["opening"]) >= 1


def test_every_recorded_action_is_the_exact_legal_action(records: list[dict]) -> None:
    for rec in records:
        g = new_game(rec)
        for text in rec["actions"]:
            a = Action.parse(text)
            assert a in g.legal_actions() and str(a) == text
            g.apply(a)
        assert g.is_over and g.winner == rec["winner"] and g.state.turn == rec["turns"]


def test_replays_reproduce_the_records(records: list[dict]) -> None:
    for rec in records:
        assert verify(rec) is None
        g = replay(rec)
        assert g.state.reason == rec["reason"]


def test_divergence_is_an_error_naming_the_step(records: list[dict]) -> None:
    rec = records[0]
    bad = copy.deepcopy(rec)
    i = next(i for i, t in enumerate(bad["actions"]) if i > 10 and t == "pass")
    bad["actions"][i] = "attack f4"
    with pytest.raises(ReplayError, match=f"diverged at action {i + 1} of") as e:
        replay(bad)
    assert e.value.step == i + 1 and "not legal here" in str(e.value)
    short = copy.deepcopy(rec)
    short["actions"] = short["actions"][:-2]
    assert "record ends after" in (verify(short) or "")
    longer = copy.deepcopy(rec)
    longer["actions"].append("pass")
    assert "already over" in (verify(longer) or "")
    other = copy.deepcopy(rec)
    other["winner"] = None
    assert "result differs" in (verify(other) or "")
    changed = copy.deepcopy(rec)
    changed["pool"] = "000000000000"
    changed["seed"] += 1
    assert "card data has changed" in (verify(changed) or "")


def test_cli_replay(shard: Path, records: list[dict], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(shard), "--index", "1"]) == 0
    out = capsys.readouterr().out
    assert "as recorded" in out and records[1]["decks"][0]["name"] in out
    assert main(["replay", str(shard.parent), "--all"]) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out
    assert main(["replay", str(shard), "--index", "9"]) == 2
    capsys.readouterr()


def test_cli_replay_diverged_exits_1(tmp_path: Path, records: list[dict], capsys: pytest.CaptureFixture[str]) -> None:
    bad = copy.deepcopy(records[0])
    bad["actions"][3] = "play h9"
    f = tmp_path / "bad.jsonl"
    f.write_text(json.dumps(records[1]) + "\n" + json.dumps(bad) + "\n")
    assert main(["replay", str(f), "--index", "1"]) == 1
    out = capsys.readouterr().out
    assert "diverged at action 4" in out
    assert main(["replay", str(f), "--all"]) == 1
    assert "1 passed, 1 failed" in capsys.readouterr().out


def test_step_through_from_one_side(records: list[dict]) -> None:
    rec = records[0]
    lines: list[str] = []
    keys = iter(["", "", "b", "t", "c"])
    rc = step_through(rec, 0, step=True, read=lambda _p: next(keys), out=lines.append)
    text = "\n".join(lines)
    assert rc == 0 and "[1/" in text and "[2/" in text and "A's view" in text and "as recorded" in text
    # B's draws are hidden from A: the opening hand of B is never named in A's step log
    b_cards = set(rec["cards"][1]["opening"]) - set(rec["cards"][0]["opening"])
    log = "\n".join(x for x in lines if x.startswith("  "))  # event lines
    assert "B draws a card" in log
    for name in b_cards:
        assert f"B draws {name}" not in log
    quit_lines: list[str] = []
    assert step_through(rec, None, step=True, read=lambda _p: "q", out=quit_lines.append) == 0
    assert quit_lines[-1] == "stopped"


def test_step_says_its_keys_need_enter(records: list[dict], capsys: pytest.CaptureFixture[str]) -> None:
    """The keys of ``replay --step`` are read a line at a time: its help and the command's
    --help say so."""
    from hostwcg_env.cli import main

    lines: list[str] = []
    step_through(records[0], None, step=True, read=lambda _p: "q", out=lines.append)
    assert lines[1].startswith("Keys are read when you press Enter: Enter alone: next decision | t Enter:")
    assert main(["replay", "--help"]) == 0
    assert "each key is read when you press Enter" in " ".join(capsys.readouterr().out.split())


def test_load_record_by_key(shard: Path, records: list[dict]) -> None:
    assert load_record(shard, key=records[1]["key"])["key"] == records[1]["key"]
    with pytest.raises(LookupError):
        load_record(shard, key="nope")
