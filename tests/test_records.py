"""The game runner (hostwcg_env/analysis/runner.py), the one record format (records.py) and its
readers (recordfile.py): every layout ever written loads, damaged files are read as far as
they are whole, and valid JSON that is not a record is a one-line error naming file and line."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.analysis.ladder import LadderResult, run_ladder, schedule
from hostwcg_env.analysis.recordfile import (
    RecordFileError,
    RecordWriter,
    iter_records,
    read_records,
)
from hostwcg_env.analysis.records import (
    RECORD_VERSION,
    RecordError,
    record_id,
    shipped_deck_refs,
    timeless,
    upgrade,
)
from hostwcg_env.analysis.replay import ReplayError, replay
from hostwcg_env.analysis.runner import GameSpec, Visitor, play
from hostwcg_env.cli import main
from hostwcg_env.engine import ENGINE_EPOCH

ROOT = Path(__file__).resolve().parent.parent
KEPT = ROOT / "agents" / "ladder_results" / "history"


def _spec(seed: int = 3, agents: tuple[str, str] = ("random", "heuristic"), ask_forced: bool = True) -> GameSpec:
    decks = shipped_deck_refs()
    return GameSpec(decks[0], decks[1], seed, agents, ask_forced=ask_forced)


# ============================================================================ the runner


class _Log(Visitor):
    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def start(self, game: object) -> None:
        self.calls.append(("start", -1))

    def before(self, game: object, i: int, action: object) -> None:
        self.calls.append(("before", i))

    def after(self, game: object, i: int, action: object) -> None:
        self.calls.append(("after", i))

    def end(self, game: object) -> None:
        self.calls.append(("end", -1))


def test_runner_record_and_visitor() -> None:
    """A spec gives one record of the documented fields, the same on every play apart from the
    wall times; the visitor sees start, before/after every action in order, and the end."""
    log = _Log()
    game, rec = play(_spec(), visit=log)
    assert rec["v"] == RECORD_VERSION and rec["agents"] == ["random", "heuristic"] and rec["agent_seeds"] == [6, 7]
    assert set(rec) >= {"key", "seed", "decks", "rules", "actions", "winner", "reason", "turns", "decisions",
                        "first_player", "cards", "seats", "version", "pool", "ms", "ask_forced"}
    n = len(rec["actions"])
    assert n == rec["decisions"] == game.state.decisions_total and game.is_over
    assert log.calls == [("start", -1)] + [(w, i) for i in range(n) for w in ("before", "after")] + [("end", -1)]
    assert timeless(play(_spec()).record) == timeless(rec)
    assert replay(rec).winner == rec["winner"]


class _Counting:
    """An engine-level agent that takes the first legal action and counts when it is asked."""

    def __init__(self) -> None:
        self.asked = 0
        self.forced = 0

    def choose(self, view: object, actions: tuple) -> object:
        self.asked += 1
        self.forced += len(actions) == 1
        return actions[0]


def test_runner_asks_on_forced_decisions_only_when_told_and_counts_choices() -> None:
    """ask_forced=False (the ladder) takes a decision with one legal action without asking;
    either way a seat's choices are its decisions with two or more legal actions."""
    for ask in (True, False):
        players = [_Counting(), _Counting()]
        game, rec = play(_spec(ask_forced=ask), players=players)
        assert [p.asked - p.forced for p in players] == [rec["seats"][0][1], rec["seats"][1][1]]
        forced = sum(p.forced for p in players)
        assert (forced > 0) == ask
        assert sum(p.asked for p in players) + (0 if ask else _forced_count(rec)) == len(rec["actions"])


def _forced_count(rec: dict) -> int:
    count = 0

    class V(Visitor):
        def before(self, game: object, i: int, action: object) -> None:
            nonlocal count
            count += len(game.decision.actions) == 1  # type: ignore[attr-defined]

    replay(rec, visit=V())
    return count


def test_ladder_and_balance_play_the_same_runner() -> None:
    """The ladder's game of a spec is the runner's game of that spec."""
    spec = schedule(["heuristic", "random"], 2, seed=40)[1]
    from hostwcg_env.analysis.ladder import play_game as ladder_game
    from hostwcg_env.analysis.simulate import play_game as balance_game

    assert timeless(ladder_game(spec)) == timeless(balance_game(spec)) == timeless(play(spec).record)


# ============================================================================ older layouts


def test_every_layout_upgrades_to_this_one() -> None:
    rec = play(_spec()).record
    v1 = {k: v for k, v in rec.items() if k not in ("seats", "version", "ask_forced")}
    v1.update(v=1, engine="0.1.0")
    up = upgrade(json.loads(json.dumps(v1)))
    assert up["version"] == "hostwcg 0.1.0" and up["seats"] is None and up["ask_forced"] is True
    assert replay(up).winner == rec["winner"]
    ids = [d.id for d in shipped_deck_refs()]
    line = {"a": "random", "b": "heuristic", "seed": 3, "deck_a": ids.index(rec["decks"][0]["id"]),
            "deck_b": ids.index(rec["decks"][1]["id"]), "winner": 1, "decisions": 12,
            "seats": [[0.5, 3], [0.25, 4]], "version": "b55123f2f5a4"}
    up = upgrade(line)
    assert up["decks"] == rec["decks"] and up["agents"] == ["random", "heuristic"] and up["actions"] == []
    assert up["ask_forced"] is False and up["version"] == "b55123f2f5a4" and up["seats"] == [[0.5, 3], [0.25, 4]]
    assert record_id(up) == record_id(rec)
    for bad, why in [([1, 2], "JSON list"), ({"a": "x"}, "no 'decks'"), ({**line, "deck_a": 99}, "out of range"),
                     ({**line, "winner": 2}, "winner 2"), ({**rec, "decks": [rec["decks"][0]]}, "two decks"),
                     ({**rec, "seed": "x"}, "not an integer"), ({k: v for k, v in rec.items() if k != "agents"},
                                                                "missing 'agents'")]:
        with pytest.raises(RecordError, match=why):
            upgrade(bad)


def test_balance_tables_of_an_older_ladder_line_name_the_missing_field() -> None:
    from hostwcg_env.analysis.stats import compute_tables

    ids = [d.id for d in shipped_deck_refs()]
    line = upgrade({"a": "random", "b": "heuristic", "seed": 3, "deck_a": 0, "deck_b": 1, "winner": 1,
                    "decisions": 12, "seats": [[0.5, 3], [0.25, 4]], "version": "b55123f2f5a4"})
    with pytest.raises(RecordError, match=f"game {ids[0]}\\|{ids[1]}\\|3: its record has no 'turns'"):
        compute_tables([line])


EXPECTED_KEPT: dict = {  # hostwcg ladder FILE before the runner (commit e49eca6): wins, timing
    "ismcts045_vs_heuristic.jsonl.gz": ([("ismcts:0.45s", "heuristic", 1000, 689.0)],
                                     {"ismcts:0.45s": (107248, 0.451771304), "heuristic": (146816, 1.5154e-05)}),
    "random_vs_heuristic.jsonl.gz": ([("heuristic", "random", 1000, 955.5)],
                                     {"heuristic": (74093, 1.0917e-05), "random": (39635, 9.23e-07)}),
    "ppo_vs_random_500000.jsonl.gz": ([("ppo", "random", 1000, 998)],
                                      {"ppo": (52322, 0.004712614), "random": (30985, 1.311e-05)}),
}


@pytest.mark.parametrize("name", list(EXPECTED_KEPT))
def test_kept_ladder_files_load_with_the_same_numbers(name: str) -> None:
    """The kept results files (the older ladder layouts, gzip-compressed, with and without
    actions) give the numbers they gave before the one record format (the whole set is
    compared in agents/ladder_results/README.md)."""
    rows, timing = EXPECTED_KEPT[name]
    result = LadderResult.from_results([KEPT / name])
    _check_ladder(result, rows, timing)


def test_kept_ladder_file_loads_the_same_uncompressed(tmp_path: Path) -> None:
    """The older layout read from a plain (not gzip) file, as it was written, gives the same
    numbers: the ISMCTS file was kept plain until 2026-11-27."""
    name = "ismcts045_vs_heuristic.jsonl.gz"
    plain = tmp_path / name.removesuffix(".gz")
    plain.write_bytes(gzip.decompress((KEPT / name).read_bytes()))
    _check_ladder(LadderResult.from_results([plain]), *EXPECTED_KEPT[name])


def _check_ladder(result: LadderResult, rows: list, timing: dict) -> None:
    assert [(r["agent"], r["opponent"], r["games"], r["wins"]) for r in result.rows()] == rows
    got = result.timing()
    for agent, (n, mean) in timing.items():
        assert got[agent][0] == n and got[agent][1] == pytest.approx(mean, rel=1e-3)


def test_kept_ladder_lines_of_an_older_epoch_are_refused_saying_why() -> None:
    """A kept ISMCTS game with its actions (the ladder's older layout, engine epoch 1) was asked
    other decisions than this engine asks, so it does not replay: the replay says so, naming
    both epochs and the code that played it, instead of diverging somewhere in the middle."""
    rec = next(r for r in iter_records(KEPT / "ismcts045_vs_heuristic.jsonl.gz") if r["actions"])
    assert rec["epoch"] == 1
    with pytest.raises(ReplayError,
                       match=rf"decision epoch 1 \(code {rec['version']}\); this engine is of epoch {ENGINE_EPOCH}"):
        replay(rec)


def test_records_carry_the_engine_epoch_and_replay() -> None:
    rec = play(_spec(5)).record
    assert rec["epoch"] == ENGINE_EPOCH
    assert replay(rec).winner == rec["winner"]


# ============================================================================ damaged files


def _records(n: int = 3) -> list[dict]:
    return [play(_spec(seed)).record for seed in range(n)]


def test_a_line_cut_off_is_skipped_with_its_place_and_the_next_record_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A half line (a kill mid-write) anywhere in a file, also with the next record glued to
    it (an older writer's resume), costs only that record: a warning names file and line."""
    recs = _records(3)
    lines = [json.dumps(r) for r in recs]
    path = tmp_path / "r.jsonl"
    path.write_text(lines[0][:100] + "\n" + lines[0][:57] + lines[1] + "\n" + lines[2] + "\n" + lines[2][:30])
    got = list(iter_records(path))
    assert [timeless(r) for r in got] == [timeless(r) for r in recs[1:]]
    err = capsys.readouterr().err
    assert "r.jsonl:1: skipped line 1: a damaged record (not valid JSON); the file is left as it is" in err
    assert "r.jsonl:2: skipped a record cut off by an interrupted run (kept the whole record glued to it)" in err
    assert "r.jsonl:4: skipped the last line, a record cut off by an interrupted run" in err


def test_valid_json_that_is_not_a_record_is_a_one_line_error(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    rec = _records(1)[0]
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(rec) + "\n" + json.dumps({**rec, "winner": "A"}) + "\n")
    with pytest.raises(RecordFileError, match=r"r.jsonl:2: not a game record \(winner 'A'"):
        list(iter_records(path))
    assert main(["ladder", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "r.jsonl:2: not a game record" in err
    assert main(["replay", str(path), "--all"]) == 2
    assert "r.jsonl:2: not a game record" in capsys.readouterr().err
    path.write_text(json.dumps(rec) + "\n[1, 2]\n")
    with pytest.raises(RecordFileError, match=r"r.jsonl:2: not a game record \(a JSON list"):
        read_records(path)


def test_gzip_members_cut_short_or_broken_are_read_up_to_the_damage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unclosed gzip member (a killed run) followed by another member (the older writer's
    resume appended one) used to make the whole file unreadable; every whole record of both
    members is read now, with a warning."""
    recs = _records(4)
    data = [(json.dumps(r) + "\n").encode() for r in recs]
    z = zlib.compressobj(6, zlib.DEFLATED, 31)
    first = z.compress(data[0] + data[1]) + z.flush(zlib.Z_SYNC_FLUSH) + z.compress(data[2][:40])
    path = tmp_path / "r.jsonl.gz"
    path.write_bytes(first + gzip.compress(data[3]))
    with pytest.raises(Exception):  # noqa: B017  (what the file did to every gzip reader)
        gzip.decompress(path.read_bytes())
    got = list(iter_records(path))
    assert [r["seed"] for r in got] == [0, 1, 3]
    assert "broken" in capsys.readouterr().err


def test_results_folder_and_out_file_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["evaluate", "--agents", "random,heuristic", "--games", "2", "--quiet", "--results", str(tmp_path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a folder" in err
    f = tmp_path / "file.txt"
    f.write_text("x")
    assert main(["balance", "--decks", "brae", "karsh", "--games", "1", "--quiet", "--workers", "1",
                 "--out", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a file" in err


def test_a_gzip_file_takes_one_writer(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl.gz"
    with RecordWriter(path) as w:
        w.write(_records(1)[0])
        with pytest.raises(RecordFileError, match="being written by another run"):
            RecordWriter(path)
    assert len(list(iter_records(path))) == 1


def test_a_plain_gz_name_is_refused_rather_than_repaired(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl.gz"
    path.write_text(json.dumps(_records(1)[0]) + "\n")
    with pytest.raises(RecordFileError, match="not gzip data"):
        run_ladder(["random", "heuristic"], games=2, quiet=True, results=path)
    assert json.loads(path.read_text())  # left as it was
