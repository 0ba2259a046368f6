"""Which build of the engine runs: the mypyc-compiled modules or the same code as Python.

``pip install`` compiles the engine's modules with mypyc where it can (setup.py) and writes
``compiled.json``: the SHA-256 of each compiled module's source. At import the engine runs as
Python instead of compiled when

* ``HOSTWCG_PURE=1`` is set (the scenario and rules suites run on both builds, docs/engine.md);
* a source no longer matches what was compiled (an edited checkout of an editable install):
  stale machine code would play the old rules, so a warning says to rebuild (``pip install -e .``).

This module is never compiled itself; it only reads files and, for the Python build, puts a
finder in front of ``sys.meta_path`` that loads ``hostwcg_env.engine.<module>`` from its ``.py``,
and the env modules compiled with the engine (``EXTRA``) from theirs.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

MANIFEST = "compiled.json"
PACKAGE = "hostwcg_env.engine"
# modules outside the engine compiled in its group (setup.py's ENV_COMPILED): their source, as
# a path relative to the engine's folder without ".py" (compiled.json names them so)
EXTRA: dict[str, str] = {"hostwcg_env.env.observers.v0_encoder": "../env/observers/v0_encoder"}


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the engine's modules from their ``.py`` files, ignoring compiled ones."""

    def __init__(self, directory: str, package: str, extra: dict[str, str] | None = None) -> None:
        self.directory = directory
        self.package = package
        self.extra = extra or {}

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname in self.extra:
            source = os.path.normpath(os.path.join(self.directory, self.extra[fullname] + ".py"))
            return importlib.util.spec_from_file_location(fullname, source) if os.path.isfile(source) else None
        if not fullname.startswith(self.package + "."):
            return None
        name = fullname[len(self.package) + 1:]
        source = os.path.join(self.directory, name + ".py")
        if "." in name or not os.path.isfile(source):
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def _compiled_modules(directory: str) -> list[str]:
    names = []
    for entry in sorted(os.listdir(directory)):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if entry.endswith(suffix):
                names.append(entry[: -len(suffix)])
                break
    return names


def _digest(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def stale_sources(directory: str) -> list[str]:
    """Modules whose source differs from the one that was compiled (empty if none was)."""
    manifest = os.path.join(directory, MANIFEST)
    if not os.path.isfile(manifest):
        return []
    with open(manifest, encoding="utf-8") as fh:
        recorded: dict[str, str] = json.load(fh)
    out = []
    for name, digest in sorted(recorded.items()):
        source = os.path.join(directory, name + ".py")
        if not os.path.isfile(source) or _digest(source) != digest:
            out.append(name)
    return out


def select(directory: str, package: str = PACKAGE, extra: dict[str, str] | None = None) -> str:
    """Decide the build before any engine module is imported; returns ``"compiled"`` or
    ``"pure"`` (with the reason in parentheses when compiled modules are present but unused).
    ``extra``: the modules outside ``package`` compiled with it (default ``EXTRA`` for the
    engine), loaded from their sources too in the Python build."""
    if not _compiled_modules(directory):
        return "pure"
    reason = ""
    if os.environ.get("HOSTWCG_PURE", "") not in ("", "0"):
        reason = "HOSTWCG_PURE is set"
    else:
        stale = stale_sources(directory)
        if stale:
            reason = f"sources changed since they were compiled: {', '.join(stale)}"
            warnings.warn(
                f"hostwcg: the compiled engine is older than its sources ({', '.join(stale)}); "
                "running the Python sources instead. Rebuild with `pip install -e .` "
                "(or set HOSTWCG_PURE=1 to silence this).",
                RuntimeWarning,
                stacklevel=3,
            )
    if not reason:
        return "compiled"
    if not any(isinstance(f, _SourceFinder) and f.package == package for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder(directory, package, EXTRA if extra is None and package == PACKAGE
                                              else extra))
    return f"pure ({reason})"
