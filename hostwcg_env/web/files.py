"""The only files the web app reads: results files under the configured results folders and
HTML reports under the configured report folders (``hostwcg serve --results DIR --reports
DIR``).

A file is named to the browser as ``ROOT/RELATIVE`` (``0/ladder/round_robin.jsonl.gz``: the
first results folder, then the path inside it), and only names from the listings are opened:
a name is refused unless, resolved with its links, it is a file of the right kind inside the
folder it names. ``..``, absolute paths, backslashes and links that leave the folder are
refused (tests/test_web.py tries them).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

RESULTS_SUFFIXES = (".jsonl", ".jsonl.gz")
REPORT_SUFFIXES = (".html",)
MAX_LISTED = 2000  # files listed per kind
MAX_DEPTH = 6  # folders deep below a root


class FileError(ValueError):
    """A file name the app will not open; the message says which and why."""


@dataclass(frozen=True)
class Roots:
    results: tuple[Path, ...] = ()
    reports: tuple[Path, ...] = ()

    @staticmethod
    def of(results: Sequence[str | Path], reports: Sequence[str | Path]) -> Roots:
        return Roots(tuple(Path(p).resolve() for p in results), tuple(Path(p).resolve() for p in reports))

    def list_results(self) -> list[str]:
        return _listing(self.results, RESULTS_SUFFIXES)

    def list_reports(self) -> list[str]:
        return _listing(self.reports, REPORT_SUFFIXES)

    def results_file(self, ref: str) -> Path:
        return _resolve(self.results, ref, RESULTS_SUFFIXES, "results file")

    def report_file(self, ref: str) -> Path:
        return _resolve(self.reports, ref, REPORT_SUFFIXES, "report")


def _walk(root: Path) -> Iterator[Path]:
    """Files under ``root`` (links followed only where they stay inside it), sorted."""
    base = len(root.parts)
    for here, dirs, files in os.walk(root, followlinks=False):
        depth = len(Path(here).parts) - base
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and depth < MAX_DEPTH)
        for f in sorted(files):
            if not f.startswith("."):
                yield Path(here) / f


def _listing(roots: tuple[Path, ...], suffixes: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for i, root in enumerate(roots):
        if not root.is_dir():
            continue
        for path in _walk(root):
            if path.name.endswith(suffixes) and _inside(path, root):
                out.append(f"{i}/{path.relative_to(root).as_posix()}")
                if len(out) >= MAX_LISTED:
                    return out
    return out


def _inside(path: Path, root: Path) -> bool:
    try:
        return path.resolve().is_relative_to(root) and path.resolve().is_file()
    except OSError:
        return False


def _resolve(roots: tuple[Path, ...], ref: str, suffixes: tuple[str, ...], what: str) -> Path:
    """The file ``ref`` (``ROOT/RELATIVE``) names, or FileError."""
    if not isinstance(ref, str) or not ref or len(ref) > 1000:
        raise FileError(f"no such {what}: give a name from the list")
    head, _, rel = ref.partition("/")
    bad = ("\\" in rel or "\x00" in rel or rel.startswith("/") or not rel
           or any(part in ("..", "") for part in rel.split("/")))
    if not head.isdigit() or int(head) >= len(roots) or bad:
        raise FileError(f"no such {what} {ref!r}: give a name from the list")
    root = roots[int(head)]
    path = root / rel
    if not path.name.endswith(suffixes) or not _inside(path, root):
        raise FileError(f"no such {what} {ref!r}: give a name from the list")
    return path.resolve()
