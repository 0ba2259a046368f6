"""Results files: game records appended whole or not at all, resumed after any interruption.

A results file holds one record (``records.py``) a line, as plain JSON lines or, when its
name ends ``.gz``, gzip-compressed. Writers (:class:`RecordWriter`; :class:`ShardWriter` for a
balance study's shards) append each record as it arrives, in one ``write`` with SIGINT and
SIGTERM held back, so a stopped or killed run leaves whole records and at most one cut-off
last one:

* plain files: each record is one line; a line cut off by a kill is removed when the next
  run opens the file (``repair``) before it appends, so the next record never lands on a half
  line;
* gzip files: a run writes one gzip member, flushed after every record (the file reads to
  its last record at every moment) and closed when the run ends, also by Ctrl-C or SIGTERM. A
  run killed outright (SIGKILL, a crash) leaves its member unclosed; the next run replaces that
  member by a closed one holding the same whole records (written aside and renamed over the
  file, so a kill during the repair changes nothing) before it appends its own.

A gzip file takes one writer at a time (a second is refused: each member is one run's); a
plain file may be shared by runs on one machine (each appends whole lines).

A file is opened, to read or to write, only if it is a results file (:func:`check_results_file`):
a folder, a binary (a zip archive such as an ``.npz``), gzip data named ``.jsonl``, text named
``.gz``, or text whose first line is not a game record nor the start of one is refused with one
line naming the file and what it is, before a byte is written. Only a cut last record (a last
line without its newline that starts like a record) is repaired; any other last line stops a
writer, naming the line.

Readers (:func:`iter_records`) take every layout the project has written (``records.upgrade``)
and files damaged by older writers: a line that is not JSON is skipped with a warning naming
the file and line and left in the file (the start of a record with the next glued to it keeps
the glued record); a gzip member cut short or broken is read up to its last whole line and
reading goes on with the next member. Valid JSON that is not a game record is an error naming
the file and line (:class:`RecordFileError`).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import signal
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from .records import Record, RecordError, RecordId, record_id, record_key, upgrade

_Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None  # signal.getsignal's

SHARD_GLOB = "shard-*.jsonl"
GZ_MAGIC = b"\x1f\x8b\x08"

try:
    import fcntl
except ImportError:  # not POSIX: no locks (one writer a file is then the user's to keep)
    fcntl = None  # type: ignore[assignment]


class RecordFileError(ValueError):
    """A results file that cannot be used: the message names the file (and line)."""


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


# ============================================================================ what a results file is

MAX_LINE = 1 << 26  # 64 MiB: no game record is near this long; a longer "line" is not one
_FIRST_KEYS = ("v", "key", "decks", "deck_a", "a", "seed", "label")  # what records have begun with


def looks_cut(line: bytes, ended: bool = False) -> bool:
    """Whether ``line`` (bytes without a newline) can be the start of a game record that a kill
    cut short: an object whose first key is one a record begins with (``_FIRST_KEYS``), or, for
    a last line (not ``ended`` by a newline), a prefix of such a start (``{``, ``{"v``). A line
    ended by a newline must have its first key whole (``{`` alone is the start of a
    pretty-printed JSON file, not of a record)."""
    text = line.lstrip()
    if not text.startswith(b"{"):
        return False
    rest = text[1:].lstrip()
    if not rest:
        return not ended
    if not rest.startswith(b'"'):
        return False
    name = rest[1:]
    end = name.find(b'"')
    if end < 0:
        return not ended and any(k.encode().startswith(name) for k in _FIRST_KEYS)
    return name[:end].decode("utf-8", "replace") in _FIRST_KEYS


def _binary_kind(head: bytes) -> str | None:
    """What the first bytes of a file say it is when it is not text, or None for text."""
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "a zip archive (such as an .npz or .zip file)"
    if head.startswith(GZ_MAGIC[:2]):
        return "gzip data"
    if b"\x00" in head:
        return "binary data"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(head) - 3:  # (a character cut at the end of the block is fine)
            return f"not UTF-8 text (byte {e.start})"
    return None


def _first_line_gz(p: Path) -> tuple[bytes, bool]:
    """The first line of a gzip file (decoded up to any damage) and whether it ended with a
    newline."""
    d = zlib.decompressobj(31)
    buf = b""
    with open(p, "rb") as fh:
        while len(buf) <= MAX_LINE and b"\n" not in buf and not d.eof:
            chunk = fh.read(1 << 12)
            if not chunk:
                break
            backup = d.copy()
            try:
                buf += d.decompress(chunk)
            except zlib.error:  # decode this chunk again byte by byte, up to the damage
                d = backup
                with contextlib.suppress(zlib.error):
                    for j in range(len(chunk)):
                        buf += d.decompress(chunk[j : j + 1])
                break
    k = buf.find(b"\n")
    return (buf[:k], True) if k >= 0 else (buf, False)


def check_results_file(path: str | Path) -> None:
    """Refuse what is not a results file (``RecordFileError``: one line naming the file and what
    it is), reading its first bytes and first line only and changing nothing: a folder, a file
    that is not plain JSON lines nor (named ``.gz``) gzip-compressed JSON lines, a binary file,
    or one whose first line is not a game record nor the start of one a kill cut off. A file
    that does not exist yet, or is empty, passes (a writer starts it)."""
    p = Path(path)
    if p.is_dir():
        raise RecordFileError(f"{p} is a folder, not a results file (give FILE.jsonl or FILE.jsonl.gz)")
    if not p.exists():
        return
    if not p.is_file():
        raise RecordFileError(f"{p} is not a regular file (a device, pipe or socket), not a results file")
    try:
        with open(p, "rb") as fh:
            head = fh.read(1 << 16)
    except OSError as e:
        raise RecordFileError(f"{p}: cannot read it ({e.strerror or e})") from None
    if not head:
        return
    kind = _binary_kind(head)
    if is_gzip(p):
        if not head.startswith(GZ_MAGIC[: len(head)]):
            raise RecordFileError(f"{p}: its name ends .gz but it is not gzip data ({kind or 'text'}): "
                                  "not a results file (a plain results file is named .jsonl)")
        line, whole = _first_line_gz(p)
        if not whole and not line:
            return  # a member cut before its first record was compressed (a kill in the first write)
        where = "the first line (decompressed)"
    else:
        if kind is not None:
            hint = " (a gzip results file is named .jsonl.gz)" if kind == "gzip data" else ""
            raise RecordFileError(f"{p} is {kind}, not a results file of JSON lines{hint}")
        with open(p, "rb") as fh:
            line = fh.readline(MAX_LINE)
        whole = line.endswith(b"\n")
        line = line.rstrip(b"\r\n")
        where = "the first line"
    try:
        d = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        if looks_cut(line, ended=whole):
            return  # a record cut off by a kill (the last line) or damaged in the middle: the readers say where
        why = "not JSON" if line.strip() else "an empty line"
        if not whole and len(line) >= MAX_LINE:
            why = f"a line longer than {MAX_LINE >> 20} MiB"
    else:
        try:
            upgrade(d)
            return
        except RecordError as e:
            why = str(e).removeprefix("not a game record (").removesuffix(")")
    raise RecordFileError(f"{p}:1: not a game record ({why}): {where} must be one, so this is not a results file")


# ============================================================================ writing


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done (a record is written whole), then act as
    they would have.

    Python runs signal handlers in the main thread, between any two bytecodes, whichever thread
    the signal was delivered to; a mask (``pthread_sigmask``) on this thread alone does not stop
    a pool's helper threads from taking the signal. So in the main thread the handlers are
    swapped for ones that note the signal while the block runs, and the noted signals are
    handled once it is done; a signal landing while the handlers are put back is handled at
    once, as before the block. (Elsewhere than the main thread no handler can interrupt the
    block's thread.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = _Held()
    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(signum)
            if previous is None:  # a handler set outside Python: left alone
                continue
            held.previous[signum] = previous
            signal.signal(signum, held.note)
        yield
    finally:
        held.active = False  # from here a signal is handled at once (``_Held.note``)
        try:
            for sig, handler in held.previous.items():
                signal.signal(sig, handler)
        finally:
            for sig in held.caught:
                held.handle(sig)


class _Held:
    """Handlers for ``_signals_held``: while ``active`` a signal is noted, after it is handled
    by the handler the block replaced."""

    def __init__(self) -> None:
        self.active = True
        self.caught: list[int] = []
        self.previous: dict[int, _Handler] = {}

    def note(self, signum: int, frame: object) -> None:
        if self.active:
            if signum not in self.caught:
                self.caught.append(signum)
        else:
            self.handle(signum)

    def handle(self, signum: int) -> None:
        previous = self.previous[signum]
        if callable(previous):
            previous(signum, None)
        elif previous == signal.SIG_DFL:
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)
        # SIG_IGN: nothing


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _lock(fd: int, exclusive: bool, wait: bool = False) -> bool:
    if fcntl is None:
        return True
    flags = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB)
    try:
        fcntl.flock(fd, flags)
    except OSError:
        return False
    return True


def is_gzip(path: str | Path) -> bool:
    return str(path).endswith(".gz")


def encode(rec: Record) -> bytes:
    """A record as the line a results file holds."""
    return (json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


class RecordWriter:
    """Appends records to one results file (plain or ``.gz``), each whole or not at all
    (module docstring); opening it repairs what an interrupted run left at its end."""

    def __init__(self, path: str | Path, warn: bool = True) -> None:
        p = Path(path)
        if not str(path).strip():
            raise RecordFileError("a results file needs a name (got an empty one)")
        check_results_file(p)  # before anything is written: a file that is no results file is left as it is
        p.parent.mkdir(parents=True, exist_ok=True)
        self.path = p
        self.gz = is_gzip(p)
        self.count = 0
        self._fd = self._open()
        try:
            self._prepare(warn)
        except BaseException:
            if self._fd >= 0:
                os.close(self._fd)
            raise
        self._z = zlib.compressobj(6, zlib.DEFLATED, 31) if self.gz else None

    def _prepare(self, warn: bool) -> None:
        """Lock the file and mend its end (``repair``) when no other run is writing it."""
        p = self.path
        if _lock(self._fd, exclusive=True):
            if repair(p, warn=warn, locked=True):
                os.close(self._fd)  # the repair renamed a new file over the old one
                self._fd = -1
                self._fd = self._open()
                if not _lock(self._fd, exclusive=True):
                    self._busy()
            if not self.gz:
                _lock(self._fd, exclusive=False, wait=True)  # other runs may append lines too
        elif self.gz:
            self._busy()
        else:
            _lock(self._fd, exclusive=False, wait=True)

    def _open(self) -> int:
        return os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _busy(self) -> None:
        os.close(self._fd)
        self._fd = -1
        raise RecordFileError(f"{self.path} is being written by another run (a gzip file takes one "
                              "run at a time: give each run its own file and concatenate them)")

    def write(self, rec: Record) -> None:
        data = encode(rec)
        # The compressor takes the record into its checksum and length as it compresses it, so
        # compressing, writing and counting are one held block: a Ctrl-C or SIGTERM between
        # them would close the member over a record it never wrote (a CRC that does not match).
        with _signals_held():
            if self._z is not None:
                data = self._z.compress(data) + self._z.flush(zlib.Z_SYNC_FLUSH)
            _write_all(self._fd, data)
            self.count += 1

    def close(self) -> None:
        if self._fd < 0:
            return
        with _signals_held():
            if self._z is not None and self.count:
                _write_all(self._fd, self._z.flush(zlib.Z_FINISH))
            with contextlib.suppress(OSError):
                os.fsync(self._fd)
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class ShardWriter:
    """Appends records to ``DIR/shard-<run>-<n>.jsonl`` as games finish (a :class:`RecordWriter`
    each); a new shard every ``per_shard`` records. Each run writes its own files, so a resumed
    run never appends to what an earlier one wrote."""

    folder: Path
    per_shard: int = 1000
    prefix: str = ""
    run_id: str = field(default_factory=lambda: f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-{os.urandom(3).hex()}")
    paths: list[Path] = field(default_factory=list)
    _out: RecordWriter | None = None
    _k: int = 0

    def __post_init__(self) -> None:
        self.folder = Path(self.folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise RecordFileError(f"{self.folder} is a file: the shards go in a folder")
        self.folder.mkdir(parents=True, exist_ok=True)

    def write(self, record: Record) -> None:
        if self._out is None or self._out.count >= self.per_shard:
            self.close()
            self._k += 1
            path = self.folder / f"shard-{self.prefix}{self.run_id}-{self._k:04d}.jsonl"
            self.paths.append(path)
            self._out = RecordWriter(path)
        self._out.write(record)

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None

    def __enter__(self) -> ShardWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ============================================================================ repairing


def repair(path: str | Path, warn: bool = True, locked: bool = False) -> bool:
    """Make ``path`` end with a whole record, as a writer needs before appending: a plain
    file loses its cut-off last line (kept, with its newline, when it is a whole record that
    lost only that); a gzip file gets its unclosed or broken members replaced by closed ones
    holding their whole lines (a copy renamed over the file). Returns True when the file was
    replaced by a new one. Without ``locked`` the file is locked here, and left alone when
    another run holds it."""
    p = Path(path)
    if not p.is_file():
        return False
    check_results_file(p)
    fd = -1
    if not locked:
        fd = os.open(p, os.O_RDONLY)
        if not _lock(fd, exclusive=True):
            os.close(fd)
            return False
    try:
        return _repair_gzip(p, warn) if is_gzip(p) else _repair_plain(p, warn)
    finally:
        if fd >= 0:
            os.close(fd)


def _repair_plain(p: Path, warn: bool) -> bool:
    size = p.stat().st_size
    if size == 0:
        return False
    with open(p, "rb+") as fh:
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return False
        # find the last newline, reading back in blocks
        pos, cut = size, 0
        while pos > 0:
            start = max(0, pos - 65536)
            fh.seek(start)
            block = fh.read(pos - start)
            k = block.rfind(b"\n")
            if k >= 0:
                cut = start + k + 1
                break
            pos = start
        fh.seek(cut)
        tail = fh.read()
        try:
            upgrade(json.loads(tail))
            whole = True
        except (ValueError, UnicodeDecodeError):
            whole = False
        if not whole and not looks_cut(tail):
            fh.seek(0)
            lineno = 1 + sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b""))
            raise RecordFileError(f"{p}:{lineno}: the last line is neither a game record nor one cut off by an "
                                  "interrupted run: nothing appended (the file is left as it is)")
        if whole:
            fh.seek(0, os.SEEK_END)
            fh.write(b"\n")
        else:
            fh.truncate(cut)
        fh.flush()
        os.fsync(fh.fileno())
    if warn:
        _warn(f"{p}: ended the last record with a newline" if whole else
              f"{p}: removed a record cut off by an interrupted run ({size - cut} bytes at the end)")
    return False


@dataclass
class _Member:
    """A gzip member (or bytes that are not one) of a file, as ``_scan`` found it."""

    start: int
    end: int
    closed: bool  # ended with its trailer and decoded without error
    tail: bytes  # what it decoded after its last newline (a cut-off record), if anything


def _scan(data: bytes) -> Iterator[bytes | _Member]:
    """Decode gzip ``data`` member by member: each whole line (bytes, newline included) as it
    is decoded, then the member itself. A member cut short ends there; after a broken one (or
    bytes that are no member) decoding goes on at the next gzip header."""
    pos = 0
    step = 1 << 20
    while pos < len(data):
        if not data.startswith(GZ_MAGIC, pos):
            nxt = data.find(GZ_MAGIC, pos + 1)
            end = nxt if nxt >= 0 else len(data)
            yield _Member(pos, end, False, b"")
            pos = end
            continue
        d = zlib.decompressobj(31)
        buf = b""
        i = pos
        ok = True
        while ok and i < len(data) and not d.eof:
            chunk = data[i : i + step]
            backup = d.copy()
            try:
                buf += d.decompress(chunk)
            except zlib.error:  # decode this chunk again byte by byte, up to the damage
                ok = False
                d = backup
                with contextlib.suppress(zlib.error):
                    for j in range(len(chunk)):
                        buf += d.decompress(chunk[j : j + 1])
            i = min(i + step, len(data))
            k = buf.rfind(b"\n")
            if k >= 0:
                yield from buf[: k + 1].splitlines(keepends=True)
                buf = buf[k + 1 :]
        if ok and d.eof:
            end = i - len(d.unused_data)
            yield _Member(pos, end, True, buf)
            pos = end
            continue
        nxt = data.find(GZ_MAGIC, pos + 1) if not ok else -1
        end = nxt if nxt >= 0 else len(data)
        yield _Member(pos, end, False, buf)
        pos = end


def _repair_gzip(p: Path, warn: bool) -> bool:
    data = p.read_bytes()
    members = [m for m in _scan(data) if isinstance(m, _Member)]
    if all(m.closed and not m.tail for m in members):
        return False
    for m in members:
        if not data.startswith(GZ_MAGIC[: m.end - m.start], m.start) or (
                not data.startswith(GZ_MAGIC, m.start) and m.end - m.start > 9):
            raise RecordFileError(f"{p}: its name ends .gz but {'it is' if m.start == 0 else 'part of it is'} "
                                  "not gzip data (a plain results file is named .jsonl)")
    parts: list[bytes] = []
    lines: list[bytes] = []
    kept = dropped = 0
    for item in _scan(data):
        if not isinstance(item, _Member):
            lines.append(item)
            continue
        if item.closed and not item.tail:
            parts.append(data[item.start : item.end])
        else:
            kept += len(lines)
            dropped += len(item.tail)
            if lines:
                parts.append(gzip.compress(b"".join(lines), compresslevel=6, mtime=0))
        lines = []
    tmp = p.with_name(f".{p.name}.repair-{os.getpid()}")
    with open(tmp, "wb") as fh:
        for part in parts:
            fh.write(part)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, p)
    with contextlib.suppress(OSError):
        dfd = os.open(p.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    if warn:
        _warn(f"{p}: closed the gzip stream an interrupted run left open ({kept} whole records "
              f"kept from it" + (f", {dropped} bytes of a cut-off record dropped)" if dropped else ")"))
    return True


# ============================================================================ reading


def shard_files(path: str | Path) -> list[Path]:
    """The record files under ``path``: the file itself, or a folder's shards (``shards/``
    too), or else its ``*.jsonl`` and ``*.jsonl.gz`` files."""
    p = Path(path)
    if p.is_file():
        return [p]
    if not p.exists():
        return []
    files = sorted(p.glob(SHARD_GLOB))
    if (p / "shards").is_dir():
        files += sorted((p / "shards").glob(SHARD_GLOB))
    if not files:
        files = sorted([*p.glob("*.jsonl"), *p.glob("*.jsonl.gz")])
    return files


def _raw_lines(path: Path, warn: bool) -> Iterator[bytes]:
    """The lines of a file as bytes, each ending with a newline except perhaps a cut-off last
    line of a plain file. Of a gzip file, the whole lines of every member (``_scan``): a record
    cut off at the end of a member is dropped here, with a warning."""
    if not is_gzip(path):
        with open(path, "rb") as fh:
            yield from fh
        return
    data = path.read_bytes()
    for item in _scan(data):
        if not isinstance(item, _Member):
            yield item
        elif warn and item.tail:
            _warn(f"{path}: skipped a record cut off by an interrupted run (the end of the gzip "
                  f"member at byte {item.start})")
        elif warn and not data.startswith(GZ_MAGIC, item.start):
            _warn(f"{path}: skipped {item.end - item.start} bytes at byte {item.start} that are not gzip data")
        elif warn and not item.closed and item.end < len(data):
            _warn(f"{path}: the gzip member at byte {item.start} is broken (an interrupted run's, "
                  "appended to by a later one): read up to its damage")


def _salvage(line: str) -> Record | None:
    """The whole record at the end of a line that starts with a cut-off one, if any."""
    i = line.find('{"', 1)
    while i > 0:
        try:
            d = json.loads(line[i:])
        except ValueError:
            i = line.find('{"', i + 1)
            continue
        try:
            return upgrade(d)
        except RecordError:
            return None
    return None


def iter_file(path: str | Path, warn: bool = True) -> Iterator[Record]:
    """The records of one results file in file order, in this layout (``records.upgrade``)."""
    for _lineno, rec in numbered_records(path, warn=warn):
        yield rec


def numbered_records(path: str | Path, warn: bool = True) -> Iterator[tuple[int, Record]]:
    """``(line number, record)`` for each record of one results file, in file order (the
    line numbers of a gzip file count its decompressed lines). A file that is no results file
    is refused first (``check_results_file``); a line that is not JSON is skipped with a
    warning naming the file and line, and left in the file: only a cut-off last line is a
    record an interrupted run left, removed by the next writer (``repair``)."""
    p = Path(path)
    check_results_file(p)
    for lineno, raw in enumerate(_raw_lines(p, warn), 1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            line = raw.decode("utf-8", "replace").strip()
        if not line:
            continue
        try:
            d = json.loads(line)
        except ValueError:
            rec = _salvage(line)
            if warn:
                if rec is not None:
                    _warn(f"{p}:{lineno}: skipped a record cut off by an interrupted run (kept the whole "
                          "record glued to it)")
                elif not raw.endswith(b"\n") and looks_cut(raw):
                    _warn(f"{p}:{lineno}: skipped the last line, a record cut off by an interrupted run "
                          "(the next run writing the file removes it)")
                else:
                    _warn(f"{p}:{lineno}: skipped line {lineno}: "
                          + ("a damaged record" if looks_cut(raw.strip()) else "not a game record")
                          + " (not valid JSON); the file is left as it is")
            if rec is not None:
                yield lineno, rec
            continue
        try:
            yield lineno, upgrade(d)
        except RecordError as e:
            raise RecordFileError(f"{p}:{lineno}: {e}") from None


def iter_records(paths: str | Path | Iterable[str | Path], warn: bool = True) -> Iterator[Record]:
    """Every record in these files or folders (a folder: its shards), in order: the public
    reader of results files (``--results`` files, balance shards, the ladder's kept files).
    Each record is in this layout whatever layout it was written in; replay one with
    ``replay.replay(record)``."""
    items = [paths] if isinstance(paths, str | Path) else list(paths)
    for item in items:
        if not str(item).strip():
            raise RecordFileError("give a results file or a folder of them (got an empty name)")
        if not Path(item).exists():
            raise RecordFileError(f"{item}: no such file or folder")
        for f in shard_files(item):
            yield from iter_file(f, warn=warn)


def read_records(path: str | Path | Iterable[str | Path], warn: bool = True) -> list[Record]:
    """Records under ``path``, one per game (``records.record_id``): a game recorded twice is
    kept once."""
    seen: set[RecordId] = set()
    out = []
    for rec in iter_records(path, warn=warn):
        k = record_id(rec)
        if k in seen:
            continue
        seen.add(k)
        out.append(rec)
    return out


__all__ = ["RecordFileError", "RecordWriter", "ShardWriter", "check_results_file", "iter_file", "iter_records",
           "numbered_records", "read_records", "record_key", "repair", "shard_files"]
