"""Build the project; the rules engine is compiled to C with mypyc where it can be.

Everything else is in pyproject.toml. ``pip install .`` and ``pip install -e .`` compile the
modules of ``hostwcg_env/engine/`` and hostwcg_v0's observation encoder
(``hostwcg_env/env/observers/v0_encoder.py``, in the same group: it reads the engine's views
through direct calls) (mypy[mypyc] is a build requirement) when a C compiler and
the Python headers are present; without them, or with ``HOSTWCG_PURE=1`` set at install time,
the same code installs and runs as Python. The build writes ``hostwcg_env/engine/compiled.json``
(each compiled module's source hash), so that an edited checkout never runs stale machine code
(``hostwcg_env/engine/_build.py``). docs/engine.md explains both builds.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = Path("hostwcg_env") / "engine"
# Modules that stay Python in both builds: the package's __init__ and the build selector,
# which must run before any compiled module is imported; RuleConfig, whose checks must see
# any value a caller gives (a compiled class refuses a wrong type before its own check could
# name the flag).
NOT_COMPILED = {"__init__.py", "_build.py", "config.py"}
GROUP = "hostwcg_engine"
# Env modules compiled with the engine, as paths relative to the engine's folder (the keys
# compiled.json and hostwcg_env/engine/_build.py's EXTRA know them by)
ENV_COMPILED = ("../env/observers/v0_encoder",)


def engine_sources() -> list[str]:
    """What mypyc compiles: the engine's modules, then the env modules compiled with it."""
    engine = sorted(p.as_posix() for p in ENGINE.glob("*.py") if p.name not in NOT_COMPILED)
    return engine + [(ENGINE.parent / f"{m[3:]}.py").as_posix() for m in ENV_COMPILED]


def _say(message: str) -> None:
    print(f"hostwcg build: {message}", file=sys.stderr)


def _compiler_ready() -> str:
    """Why the engine cannot be compiled here, or '' if it can."""
    if os.environ.get("HOSTWCG_PURE", "") not in ("", "0"):
        return "HOSTWCG_PURE is set"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc!r} not found)"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers (Python.h not in {include})"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed (pip install 'mypy[mypyc]')"
    return ""


def ext_modules() -> list:
    why = _compiler_ready()
    if why:
        _say(f"the engine installs as Python: {why}")
        return []
    from mypyc.build import mypycify

    try:
        try:
            # multi_file: one C file per module, compiled side by side (_compile_in_parallel);
            # one 18 MB C file took 95 CPU s at -O3, 55 files take 64 CPU s (docs/engine.md)
            return mypycify(engine_sources(), opt_level="3", group_name=GROUP, multi_file=True)
        except TypeError:  # an older mypyc names its shared library itself
            return mypycify(engine_sources(), opt_level="3")
    except (Exception, SystemExit) as exc:  # mypy found a problem: install the Python build
        _say(f"mypyc could not compile the engine ({exc}); it installs as Python")
        return []


def _compile_in_parallel(compiler: Any) -> None:
    """Make ``compiler.compile`` run the C compiler on every source of an extension at once,
    one job per CPU (setuptools compiles the sources of one extension one after another, and
    ``build_ext --parallel`` only spreads whole extensions)."""
    if getattr(compiler, "_hostwcg_parallel", False):
        return
    serial = compiler.compile

    def compile(sources: list[str], output_dir: str | None = None, macros: Any = None,
                include_dirs: Any = None, debug: bool = False, extra_preargs: Any = None,
                extra_postargs: Any = None, depends: Any = None) -> list[str]:
        if len(sources) < 2 or not hasattr(compiler, "_setup_compile"):
            return serial(sources, output_dir, macros, include_dirs, debug, extra_preargs,
                          extra_postargs, depends)
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = build[obj]
            compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with concurrent.futures.ThreadPoolExecutor(max(1, os.cpu_count() or 1)) as pool:
            list(pool.map(one, [obj for obj in objects if obj in build]))
        return list(objects)

    compiler.compile = compile
    compiler._hostwcg_parallel = True


class BuildEngine(build_ext):
    """Compile the engine; if the C compiler fails, fall back to Python (no partial build)."""

    def build_extension(self, ext: Any) -> None:
        _compile_in_parallel(self.compiler)
        super().build_extension(ext)

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 (any compiler or linker failure)
            _say(f"compiling the engine failed ({exc}); it installs as Python")
            self._remove_outputs()
            return
        self._write_manifest()

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            for base in (Path(self.build_lib), ROOT):
                path = base / self.get_ext_filename(ext.name)
                if path.exists():
                    path.unlink()

    def _write_manifest(self) -> None:
        if not self.extensions:
            return
        names = [Path(p).stem for p in engine_sources() if Path(p).parent == ENGINE] + list(ENV_COMPILED)
        digest = {n: hashlib.sha256((ROOT / ENGINE / f"{n}.py").read_bytes()).hexdigest() for n in names}
        text = json.dumps(digest, indent=1, sort_keys=True) + "\n"
        targets = [Path(self.build_lib) / ENGINE]
        if self.inplace:
            targets.append(ROOT / ENGINE)
        for target in targets:
            target.mkdir(parents=True, exist_ok=True)
            (target / "compiled.json").write_text(text)


setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildEngine})
