"""A results file is opened only if it is one (``recordfile.check_results_file``).

Whatever is not a results file (a folder, a copy of an ``.npz``, a README, a short text file,
gzip data named ``.jsonl``, text named ``.gz``, a binary) is refused by every command that
reads or writes results files, on one line naming the file and what it is, and the file stays
byte-for-byte as it was. Only a genuinely cut last record is repaired (and said so); a
malformed line in the middle is reported with its line number and left alone; ``replay
--index`` counts records, never lines.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from hostwcg_env.analysis import recordfile
from hostwcg_env.analysis.recordfile import RecordFileError, RecordWriter, encode, iter_records
from hostwcg_env.analysis.runner import GameSpec, play
from hostwcg_env.cli import main

ROOT = Path(__file__).resolve().parent.parent
NPZ = ROOT / "agents" / "checkpoints" / "ppo_hostwcg_v1.npz"


@pytest.fixture(scope="module")
def recs() -> list[dict]:
    from hostwcg_env.analysis.records import shipped_deck_refs

    decks = shipped_deck_refs()
    return [play(GameSpec(decks[0], decks[1], seed, ("random", "random"))).record for seed in range(3)]


def _line(rec: dict) -> bytes:
    return (json.dumps(rec) + "\n").encode()


# name -> (bytes, what the one line says)
NOT_RESULTS: dict[str, tuple[bytes, str]] = {
    "copy.npz": (NPZ.read_bytes(), "is a zip archive (such as an .npz or .zip file), not a results file"),
    "README.md": ((ROOT / "README.md").read_bytes(),
                  ":1: not a game record (not JSON): the first line must be one, so this is not a results file"),
    "note.txt": (b"just a short text.\n\n\n",
                 ":1: not a game record (not JSON): the first line must be one, so this is not a results file"),
    "list.jsonl": (b"[1, 2]\n", ":1: not a game record (a JSON list, not an object)"),
    "other.jsonl": (b'{"name": "x"}\n', ":1: not a game record (no 'decks'"),
    "packed.jsonl": (gzip.compress(b'{"v": 2}\n'),
                     "is gzip data, not a results file of JSON lines (a gzip results file is named .jsonl.gz)"),
    "plain.jsonl.gz": (b'{"v": 2}\n', "its name ends .gz but it is not gzip data (text)"),
    "blob.bin": (b"\x00\x01\x02\x03" * 40, "is binary data, not a results file"),
    "latin.jsonl": ("café, not UTF-8\n".encode("latin-1"), "is not UTF-8 text (byte 3), not a results file"),
    "pretty.json": (b'{\n  "v": 2,\n  "x": 1\n}\n', ":1: not a game record (not JSON): the first line must be one"),
    "words.jsonl.gz": (gzip.compress(b"hello\n"),
                       ":1: not a game record (not JSON): the first line (decompressed) must be one"),
}
assert len(NOT_RESULTS["note.txt"][0]) == 21


def _commands(path: Path, out: Path) -> list[list[str]]:
    return [["evaluate", "--agents", "random,random", "--games", "1", "--quiet", "--results", str(path)],
            ["ladder", str(path)], ["audit", str(path)], ["replay", str(path)], ["replay", str(path), "--all"]]


def _digest(path: Path) -> str:
    if path.is_dir():
        return json.dumps(sorted((p.name, p.read_bytes().hex()) for p in path.iterdir()))
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", list(NOT_RESULTS))
def test_what_is_not_a_results_file_is_refused_and_left_byte_identical(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, says = NOT_RESULTS[name]
    path = tmp_path / name
    path.write_bytes(data)
    for argv in _commands(path, tmp_path):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2, argv
        assert len(err.splitlines()) == 1 and str(path) in err and says in err, (argv, err)
        assert path.read_bytes() == data, argv  # byte for byte
    with pytest.raises(RecordFileError):
        RecordWriter(path)
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # nothing written beside it


def test_a_folder_is_refused_and_left_as_it_is(tmp_path: Path, recs: list[dict],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    before = _digest(folder)
    assert main(["evaluate", "--agents", "random,random", "--games", "1", "--quiet", "--results", str(folder)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"{folder} is a folder" in err
    assert main(["ladder", str(folder)]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
    with pytest.raises(RecordFileError, match="is a folder"):
        RecordWriter(folder)
    assert _digest(folder) == before


def test_a_cut_last_record_is_the_only_thing_repaired_and_said_so(
        tmp_path: Path, recs: list[dict], capsys: pytest.CaptureFixture[str]) -> None:
    whole = _line(recs[0]) + _line(recs[1])
    path = tmp_path / "r.jsonl"
    path.write_bytes(whole + _line(recs[2])[:70])
    with RecordWriter(path):
        pass
    assert "removed a record cut off by an interrupted run (70 bytes at the end)" in capsys.readouterr().err
    assert path.read_bytes() == whole
    # a last line that is no record, nor the start of one: refused, the file left as it is
    odd = whole + b"this is not a record"
    path.write_bytes(odd)
    with pytest.raises(RecordFileError, match=r"r.jsonl:3: the last line is neither a game record nor one cut off"):
        RecordWriter(path)
    assert path.read_bytes() == odd
    code = main(["evaluate", "--agents", "random,random", "--games", "1", "--quiet", "--results", str(path)])
    assert code == 2 and "r.jsonl:3:" in capsys.readouterr().err
    assert path.read_bytes() == odd


def test_a_record_cut_at_its_first_bytes_is_still_one(tmp_path: Path, recs: list[dict]) -> None:
    for cut in (1, 2, 4, 10):
        path = tmp_path / f"c{cut}.jsonl"
        path.write_bytes(_line(recs[0])[:cut])
        recordfile.check_results_file(path)  # a kill in the first write: the start of a record
        with RecordWriter(path, warn=False) as w:
            w.write(recs[1])
        assert path.read_bytes() == encode(recs[1])  # the cut start removed, the record appended whole


def test_a_malformed_middle_line_is_reported_by_number_and_left_alone(
        tmp_path: Path, recs: list[dict], capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    start = _line(recs[0]) + b"oops, a stray line\n" + _line(recs[1])
    path.write_bytes(start)
    got = list(iter_records(path))
    assert [r["seed"] for r in got] == [0, 1]
    err = capsys.readouterr().err
    assert "r.jsonl:2: skipped line 2: not a game record (not valid JSON); the file is left as it is" in err
    assert "cut off" not in err
    with RecordWriter(path) as w:
        w.write(recs[2])
    assert path.read_bytes().startswith(start)  # appended after, the stray line untouched
    assert not capsys.readouterr().err  # nothing was repaired


def test_replay_index_counts_records_not_lines(tmp_path: Path, recs: list[dict],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(_line(recs[0]) + b"\n" + b'{"v": 2, "key": "damaged\n' + _line(recs[1]) + _line(recs[2]))
    assert main(["replay", str(path), "--index", "1"]) == 0
    cap = capsys.readouterr()
    assert cap.out.startswith(recs[1]["key"] + ":")
    assert "r.jsonl:3: skipped line 3: a damaged record" in cap.err
    assert main(["replay", str(path), "--index", "3"]) == 2
    assert "no record with index 3 (it holds 3 records)" in capsys.readouterr().err
