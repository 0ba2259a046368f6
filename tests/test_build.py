"""The two builds of the engine (docs/engine.md): mypyc-compiled when installed with a C
compiler, the same sources as Python otherwise or with HOSTWCG_PURE=1, never stale machine code.

``bash scripts/run.sh test`` sets HOSTWCG_EXPECT_BUILD for each of its runs, so a run that
meant to test the compiled engine cannot silently test the Python one (or the reverse).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import hostwcg_env.engine as engine
from hostwcg_env.engine import _build

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def test_the_build_is_the_one_this_run_expects() -> None:
    expect = os.environ.get("HOSTWCG_EXPECT_BUILD")
    got = "compiled" if engine.compiled() else "pure"
    assert engine.BUILD.split()[0] == got
    if expect:
        assert got == expect, f"expected the {expect} engine, running {engine.BUILD}"


def _fake_package(tmp_path: Path, name: str, compiled_source: str, source: str) -> Path:
    """A package with a module ``m`` whose (fake) compiled file was built from
    ``compiled_source`` and whose source is now ``source``."""
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "m.py").write_text(source)
    (pkg / f"m{SUFFIX}").write_bytes(b"not really machine code")
    digest = hashlib.sha256(compiled_source.encode()).hexdigest()
    (pkg / "compiled.json").write_text(json.dumps({"m": digest}))
    return pkg


def _import_fresh(tmp_path: Path, package: str) -> object:
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(f"{package}.m")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
            del sys.modules[name]
        sys.meta_path[:] = [f for f in sys.meta_path
                            if not (isinstance(f, _build._SourceFinder) and f.package == package)]


def test_an_edited_source_runs_as_python_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOSTWCG_PURE", raising=False)  # run.sh also runs this file with it set
    pkg = _fake_package(tmp_path, "fake_stale", "VALUE = 1\n", "VALUE = 2\n")
    assert _build.stale_sources(str(pkg)) == ["m"]
    with pytest.warns(RuntimeWarning, match="older than its sources"):
        build = _build.select(str(pkg), "fake_stale")
    assert build.startswith("pure (sources changed")
    mod = _import_fresh(tmp_path, "fake_stale")
    assert mod.VALUE == 2 and mod.__file__.endswith("m.py")  # type: ignore[attr-defined]


def test_hostwcg_pure_loads_the_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = _fake_package(tmp_path, "fake_pure", "VALUE = 3\n", "VALUE = 3\n")
    monkeypatch.setenv("HOSTWCG_PURE", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _build.select(str(pkg), "fake_pure") == "pure (HOSTWCG_PURE is set)"
    mod = _import_fresh(tmp_path, "fake_pure")
    assert mod.__file__.endswith("m.py")  # type: ignore[attr-defined]


def test_a_module_compiled_with_the_engine_outside_it_is_checked_and_loaded_as_python(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An env module in the engine's group (hostwcg_v0's encoder, ``_build.EXTRA``): an edited
    source makes the whole build Python, and the Python build loads it from its source too."""
    monkeypatch.delenv("HOSTWCG_PURE", raising=False)
    pkg = _fake_package(tmp_path, "fake_extra", "VALUE = 5\n", "VALUE = 5\n")
    other = pkg / "other"
    other.mkdir()
    (other / "__init__.py").write_text("")
    (other / "x.py").write_text("VALUE = 6\n")
    (other / f"x{SUFFIX}").write_bytes(b"not really machine code")
    recorded = json.loads((pkg / "compiled.json").read_text())
    recorded["other/x"] = hashlib.sha256(b"VALUE = 5\n").hexdigest()  # compiled from an older x.py
    (pkg / "compiled.json").write_text(json.dumps(recorded))
    assert _build.stale_sources(str(pkg)) == ["other/x"]
    with pytest.warns(RuntimeWarning, match="other/x"):
        build = _build.select(str(pkg), "fake_extra", extra={"fake_extra.other.x": "other/x"})
    assert build.startswith("pure (sources changed")
    sys.path.insert(0, str(tmp_path))
    try:
        mod = importlib.import_module("fake_extra.other.x")
        assert mod.VALUE == 6 and mod.__file__.endswith("x.py")  # type: ignore[attr-defined]
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("fake_extra")]:
            del sys.modules[name]
        sys.meta_path[:] = [f for f in sys.meta_path
                            if not (isinstance(f, _build._SourceFinder) and f.package == "fake_extra")]


def test_the_engine_names_the_env_modules_compiled_with_it() -> None:
    """``EXTRA`` (the Python build's finder) and setup.py's ENV_COMPILED name the same files."""
    assert _build.EXTRA == {"hostwcg_env.env.observers.v0_encoder": "../env/observers/v0_encoder"}
    engine_dir = Path(engine.__file__).parent
    for rel in _build.EXTRA.values():
        assert (engine_dir / f"{rel}.py").resolve().is_file()
    listed = ", ".join(json.dumps(rel) for rel in _build.EXTRA.values())
    assert f"ENV_COMPILED = ({listed},)" in (ROOT / "setup.py").read_text()


def test_a_current_build_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = _fake_package(tmp_path, "fake_current", "VALUE = 4\n", "VALUE = 4\n")
    monkeypatch.delenv("HOSTWCG_PURE", raising=False)
    assert _build.stale_sources(str(pkg)) == []
    assert _build.select(str(pkg), "fake_current") == "compiled"
    assert not any(isinstance(f, _build._SourceFinder) and f.package == "fake_current" for f in sys.meta_path)


def test_no_compiled_module_means_python(tmp_path: Path) -> None:
    pkg = tmp_path / "fake_plain"
    pkg.mkdir()
    (pkg / "m.py").write_text("")
    assert _build.select(str(pkg), "fake_plain") == "pure"


def test_hostwcg_pure_in_a_fresh_process() -> None:
    """The switch works on the real engine: every engine module runs from its .py file."""
    code = ("import hostwcg_env.engine as e, hostwcg_env.engine.state as s; "
            "print(e.BUILD.split()[0], e.compiled(), s.__file__.endswith('.py'))")
    env = dict(os.environ, HOSTWCG_PURE="1", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True).stdout.split()
    assert out == ["pure", "False", "True"]


def test_setup_compiles_every_engine_module_but_the_selector() -> None:
    """setup.py hands mypyc the engine's modules; the package __init__ and this selector stay
    Python (they run before any compiled module is imported)."""
    sys.path.insert(0, str(ROOT))
    try:
        src = (ROOT / "setup.py").read_text()
        assert "mypycify(engine_sources()" in src
        namespace: dict[str, object] = {"__file__": str(ROOT / "setup.py")}
        head = src.split("\nsetup(")[0]
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            exec(compile(head, "setup.py", "exec"), namespace)  # noqa: S102 (our own build file)
            sources = namespace["engine_sources"]()  # type: ignore[operator]
        finally:
            os.chdir(cwd)
    finally:
        sys.path.remove(str(ROOT))
    names = {Path(p).name for p in sources}
    assert not names & {"__init__.py", "_build.py", "config.py"}
    assert {"state.py", "carddef.py", "stats.py", "v0_encoder.py"} <= names  # v0's encoder, in the engine's group
    assert "hostwcg_env/env/observers/v0_encoder.py" in sources
