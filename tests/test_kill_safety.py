"""Resumable results never lose or corrupt data: ``hostwcg evaluate --results FILE`` (plain
and ``.gz``) and ``hostwcg balance`` are killed for real (SIGKILL and SIGTERM; before the first
record and mid-run; one worker and two), then resumed, and the resumed run gives exactly the
records and the report of an uninterrupted one (apart from wall times). Files cut at every
kind of place a kill can leave (inside the last record, inside a gzip trailer, a header alone)
resume the same way, and a resumed file is whole: every line a record, a gzip file that any
gzip reader reads to its end."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.analysis.ladder import LadderResult, run_ladder
from hostwcg_env.analysis.recordfile import RecordWriter, iter_records
from hostwcg_env.analysis.records import record_id, timeless
from hostwcg_env.analysis.simulate import Study, run_study

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "import sys; from hostwcg_env.cli import main; sys.exit(main(sys.argv[1:]))"]
AGENTS = ["random", "heuristic"]
GAMES = 8  # the schedule compared; the killed runs are given a longer one (this one is its start)
DECKS = ["brae", "karsh"]


@pytest.fixture(scope="module")
def whole() -> LadderResult:
    """The uninterrupted run."""
    return run_ladder(AGENTS, GAMES, quiet=True)


@pytest.fixture(scope="module")
def whole_study(tmp_path_factory: pytest.TempPathFactory) -> object:
    return run_study(Study.make(decks=DECKS, games=GAMES), out=tmp_path_factory.mktemp("whole"), workers=1,
                     quiet=True)


def _count(path: Path) -> int:
    """Records readable in a results file or folder now (a run may be writing it)."""
    if not path.exists():
        return 0
    return sum(1 for _ in iter_records(path, warn=False))


def _kill_when(cmd: list[str], ready: callable[[], bool], sig: int) -> tuple[int, str]:  # type: ignore[valid-type]
    """Start the command, send ``sig`` once ``ready()`` holds, and return its exit status and
    standard error."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.time() + 180
        while not ready():
            if proc.poll() is not None:
                raise AssertionError(f"the run ended before it was killed: {proc.stderr.read() if proc.stderr else ''}")
            assert time.time() < deadline, "the run never got there"
            time.sleep(0.01)
        proc.send_signal(sig)
        rc = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return rc, proc.stderr.read() if proc.stderr else ""


def _check_killed(rc: int, err: str, sig: int) -> None:
    if sig == signal.SIGTERM:  # unwinds: the pool is stopped and the file closed
        assert rc == 128 + signal.SIGTERM, err
        assert "Traceback" not in err, err
    else:
        assert rc == -signal.SIGKILL


def _whole_file(path: Path) -> list[dict]:
    """The file is whole: a gzip file reads to its end with any gzip reader, every line of a
    plain one is a JSON record."""
    raw = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
    assert raw == b"" or raw.endswith(b"\n")
    return [json.loads(line) for line in raw.decode().splitlines()]


def _same_ladder(res: LadderResult, whole: LadderResult) -> None:
    assert [timeless(r) for r in res.records] == [timeless(r) for r in whole.records]
    assert res.rows() == whole.rows() and res.ratings() == whole.ratings()
    assert {a: n for a, (n, _, _) in res.timing().items()} == {a: n for a, (n, _, _) in whole.timing().items()}


# ============================================================================ the ladder, killed


@pytest.mark.parametrize("name,sig,workers,when", [
    ("r.jsonl", signal.SIGKILL, 2, "before the first record"),
    ("r.jsonl", signal.SIGKILL, 1, "mid-run"),
    ("r.jsonl", signal.SIGTERM, 2, "mid-run"),
    ("r.jsonl.gz", signal.SIGKILL, 2, "mid-run"),
    ("r.jsonl.gz", signal.SIGKILL, 1, "before the first record"),
    ("r.jsonl.gz", signal.SIGTERM, 1, "mid-run"),
    ("r.jsonl.gz", signal.SIGTERM, 2, "before the first record"),
])
def test_killed_evaluate_resumes_to_the_uninterrupted_results(tmp_path: Path, whole: LadderResult, name: str,
                                                              sig: int, workers: int, when: str) -> None:
    path = tmp_path / name
    cmd = [*CLI, "evaluate", "--agents", ",".join(AGENTS), "--games", "4000", "--workers", str(workers),
           "--quiet", "--results", str(path)]
    if when == "mid-run":
        rc, err = _kill_when(cmd, lambda: _count(path) >= 2, sig)
    else:
        rc, err = _kill_when(cmd, path.exists, sig)  # the file is opened before the first game ends
    _check_killed(rc, err, sig)
    kept = list(iter_records(path, warn=False))
    if sig == signal.SIGTERM:
        assert len(_whole_file(path)) == len(kept)  # closed on the way out
    elif name.endswith(".gz") and kept:
        with pytest.raises(EOFError):  # SIGKILL leaves the run's gzip member unclosed
            gzip.decompress(path.read_bytes())
    ours = {record_id(r) for r in whole.records}
    res = run_ladder(AGENTS, GAMES, quiet=True, results=path)
    assert res.resumed == len({record_id(r) for r in kept} & ours)
    _same_ladder(res, whole)
    records = _whole_file(path)
    assert len(records) == len({json.dumps(timeless(r), sort_keys=True) for r in records})  # each game once
    # and the file alone gives the same ladder (hostwcg ladder FILE), once more games than the
    # schedule's are left out
    mine = {json.dumps(timeless(r), sort_keys=True) for r in whole.records}
    again = LadderResult.from_results([path])
    assert sum(json.dumps(timeless(r), sort_keys=True) in mine for r in again.records) == GAMES


# ============================================================================ balance, killed


@pytest.mark.parametrize("sig,workers,when", [
    (signal.SIGKILL, 2, "mid-run"),
    (signal.SIGTERM, 1, "mid-run"),
    (signal.SIGKILL, 1, "before the first record"),
])
def test_killed_balance_resumes_to_the_uninterrupted_study(tmp_path: Path, whole_study: object, sig: int,
                                                           workers: int, when: str) -> None:
    out = tmp_path / "study"
    cmd = [*CLI, "balance", "--decks", *DECKS, "--games", "2000", "--workers", str(workers), "--quiet",
           "--no-plots", "--out", str(out)]
    shards = out / "shards"
    if when == "mid-run":
        rc, err = _kill_when(cmd, lambda: shards.is_dir() and _count(shards) >= 2, sig)
    else:
        rc, err = _kill_when(cmd, lambda: (out / "study.json").exists(), sig)
    _check_killed(rc, err, sig)
    res = run_study(Study.make(decks=DECKS, games=GAMES), out=out, workers=1, quiet=True)
    assert [timeless(r) for r in res.records] == [timeless(r) for r in whole_study.records]  # type: ignore[attr-defined]
    assert res.tables == whole_study.tables  # type: ignore[attr-defined]
    for f in shards.glob("shard-*.jsonl"):
        _whole_file(f)  # the interrupted run's shard was mended


# ============================================================================ every cut a kill can leave


def _written(path: Path, n: int) -> list[int]:
    """Write the first ``n`` games of the schedule to ``path`` as a run would; the file's size
    after each record (and, last, after it was closed)."""
    sizes = []
    with RecordWriter(path) as w:
        for rec in run_ladder(AGENTS, n, quiet=True).records:
            w.write(rec)
            sizes.append(path.stat().st_size)
    sizes.append(path.stat().st_size)
    return sizes


@pytest.mark.parametrize("name", ["r.jsonl", "r.jsonl.gz"])
def test_a_file_cut_anywhere_resumes_whole(tmp_path: Path, whole: LadderResult, name: str) -> None:
    full = tmp_path / f"full-{name}"
    sizes = _written(full, 4)
    data = full.read_bytes()
    last_start, last_end = sizes[-3], sizes[-2]  # the 4th record's bytes
    cuts = {0, 1, 2, last_start + 1, (last_start + last_end) // 2, last_end - 1, len(data) - 1}
    if name.endswith(".gz"):
        cuts |= {last_end, len(data) - 4}  # the records all there, the gzip trailer cut or missing
    for cut in sorted(c for c in cuts if 0 <= c < len(data)):
        path = tmp_path / f"cut{cut}-{name}"
        path.write_bytes(data[:cut])
        kept = _count(path)
        assert kept <= 4
        res = run_ladder(AGENTS, GAMES, quiet=True, results=path)
        assert res.resumed == kept, cut
        _same_ladder(res, whole)
        assert len(_whole_file(path)) == GAMES, cut


def test_older_damage_is_mended_on_resume(tmp_path: Path, whole: LadderResult) -> None:
    """What the older writers left: a killed .gz run's unclosed member with the next run's
    member after it, and a half line with the next record glued to it. A resume keeps every
    whole record; the gzip file is mended whole, the plain one keeps its glued line (read with
    a warning: only the end of a file is mended, where a kill leaves its cut)."""
    import zlib

    recs = run_ladder(AGENTS, 4, quiet=True).records
    lines = [(json.dumps(r) + "\n").encode() for r in recs]
    z = zlib.compressobj(6, zlib.DEFLATED, 31)
    gz = tmp_path / "r.jsonl.gz"
    gz.write_bytes(z.compress(lines[0] + lines[1]) + z.flush(zlib.Z_SYNC_FLUSH) + z.compress(lines[2][:50])
                   + gzip.compress(lines[3]))
    plain = tmp_path / "r.jsonl"
    plain.write_bytes(lines[0] + lines[1] + lines[2][:77] + lines[3])
    for path in (gz, plain):
        assert _count(path) == 3
        res = run_ladder(AGENTS, GAMES, quiet=True, results=path)
        assert res.resumed == 3
        _same_ladder(res, whole)
        assert _count(path) == GAMES
    assert len(_whole_file(gz)) == GAMES


# ============================================================================ a signal at the worst moment


class _SignalAfterCompressing:
    """A compressor that sends this process a signal once it has compressed and flushed a record
    (into its checksum and length): the moment a signal lands between compressing a record and
    writing it."""

    def __init__(self, z: object, fire_on: int, sig: int) -> None:
        self.z, self.fire_on, self.sig, self.flushes = z, fire_on, sig, 0

    def compress(self, data: bytes) -> bytes:
        return self.z.compress(data)  # type: ignore[attr-defined, no-any-return]

    def flush(self, mode: int) -> bytes:
        out = self.z.flush(mode)  # type: ignore[attr-defined]
        self.flushes += 1
        if self.flushes == self.fire_on:
            os.kill(os.getpid(), self.sig)
            time.sleep(0.05)  # whichever thread the kernel gave the signal to has taken it
        return out  # type: ignore[no-any-return]


@pytest.mark.parametrize("helper_thread", [False, True], ids=["one thread", "with a helper thread"])
@pytest.mark.parametrize("sig,unwinds_with", [(signal.SIGTERM, SystemExit), (signal.SIGINT, KeyboardInterrupt)],
                         ids=["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("name", ["r.jsonl.gz", "r.jsonl"])
def test_a_signal_as_a_record_is_compressed_closes_a_whole_file(tmp_path: Path, whole: LadderResult, name: str,
                                                                sig: int, unwinds_with: type,
                                                                helper_thread: bool) -> None:
    """SIGTERM (unwinding as ``hostwcg evaluate`` makes it) or Ctrl-C arriving just after the
    gzip compressor took the third record in and flushed it: the record is written whole before
    the run unwinds, and the member is closed with a checksum over exactly what the file holds.
    With a helper thread alive (a worker pool has three) the kernel may hand the signal to that
    thread, and Python still runs the handler in the main thread mid-write: holding signals
    must not rest on this thread's mask alone."""
    import threading

    from hostwcg_env.analysis.backends import sigterm_unwinds

    # a process started in the background without job control begins with SIGINT ignored (and so
    # rightly does not unwind on it): give this test the Ctrl-C handler an interactive run has
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait, daemon=True)
    if helper_thread:
        helper.start()
    path = tmp_path / name
    try:
        with pytest.raises(unwinds_with), sigterm_unwinds(), RecordWriter(path) as out:
            if out._z is not None:
                out._z = _SignalAfterCompressing(out._z, fire_on=3, sig=sig)  # type: ignore[assignment]
            for i, rec in enumerate(whole.records):
                out.write(rec)
                if out._z is None and i == 2:
                    os.kill(os.getpid(), sig)
    finally:
        stop.set()
        after = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    records = _whole_file(path)  # gzip's own reader checks the CRC and the length
    assert [timeless(r) for r in records] == [timeless(r) for r in whole.records[:3]]
    assert after == before


class _SigtermInFinaliser:
    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)  # the handler runs here, in the finaliser, where Python swallows its exception


@pytest.mark.parametrize("workers", [1, 2])
def test_a_sigterm_python_swallows_still_stops_the_run_after_the_game_in_hand(
        workers: int, capsys: pytest.CaptureFixture[str]) -> None:
    """A SIGTERM whose ``SystemExit`` Python swallows (raised in a finaliser, or in a weak
    reference's callback inside an import, as a killed ``hostwcg evaluate`` once met: it printed
    "Exception ignored" and played on to exit 0) still stops the run, after the game in hand,
    with status 143 and nothing printed."""
    from hostwcg_env.analysis.backends import make_backend, sigterm_unwinds
    from hostwcg_env.analysis.ladder import schedule

    got = []
    with pytest.raises(SystemExit) as stopped, sigterm_unwinds(), make_backend(workers=workers) as backend:
        for rec in backend.imap_unordered(schedule(AGENTS, 6)):
            got.append(rec)
            if len(got) == 1:
                _SigtermInFinaliser()  # made and finalised here
    assert stopped.value.code == 128 + signal.SIGTERM
    assert len(got) == 1
    err = capsys.readouterr().err
    assert "Exception ignored" not in err and "Traceback" not in err, err
