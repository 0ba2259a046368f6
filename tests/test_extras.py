"""The core install runs the demo and the everyday commands; whatever needs an optional extra
names that extra in one line (README.md "Install", hostwcg_env/extras.py).

Each case runs in a fresh process in which the optional modules are hidden (a ``None`` entry in
``sys.modules`` makes ``import torch`` fail as it does where torch is not installed)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hostwcg_env import cli
from hostwcg_env.extras import EXTRA_OF, missing_extra_line

ROOT = Path(__file__).resolve().parent.parent
OPTIONAL = sorted(EXTRA_OF)
PROLOGUE = ("import sys\n"
            f"for m in {OPTIONAL!r}:\n"
            "    sys.modules[m] = None\n")


def _core_only(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "core_only.py"
    script.write_text(PROLOGUE + "if __name__ == '__main__':\n" + "".join(
        f"    {ln}\n" for ln in code.splitlines()), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600)


def _hostwcg(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return _core_only(f"from hostwcg_env.cli import main\nsys.exit(main({args!r}))", tmp_path)


def _one_line(run: subprocess.CompletedProcess[str]) -> str:
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr[-2000:]
    return lines[0]


@pytest.mark.slow
def test_the_demo_and_a_balance_report_run_on_the_core_install(tmp_path: Path) -> None:
    """What scripts/run.sh demo runs (the numpy ppo checkpoint included) needs no extra."""
    demo = _hostwcg(["demo", "--agents", "heuristic,ppo", "--seed", "7", "--quiet"], tmp_path)
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert "Result:" in demo.stdout
    bal = _hostwcg(["balance", "--decks", "brae", "karsh", "--games", "2", "--agent", "heuristic",
                    "--out", str(tmp_path / "bal"), "--fresh", "--quiet"], tmp_path)
    assert bal.returncode == 0, bal.stderr[-2000:]
    assert (tmp_path / "bal" / "report.html").is_file()
    assert "hostwcg[analysis]" in bal.stdout + bal.stderr  # what the Parquet files and plots need
    ev = _hostwcg(["evaluate", "--agents", "random,ppo_v1", "--games", "2", "--workers", "1"], tmp_path)
    assert ev.returncode == 0, ev.stderr[-2000:]


def test_the_ray_backend_names_its_extra(tmp_path: Path) -> None:
    run = _hostwcg(["balance", "--decks", "brae", "karsh", "--games", "2", "--agent", "heuristic",
                    "--out", str(tmp_path / "bal"), "--quiet", "--backend", "ray"], tmp_path)
    assert run.returncode != 0
    assert "distributed" in _one_line(run)


@pytest.mark.parametrize(("args", "extra"), [(["export", "ppo_v1", "--onnx", "bot.onnx"], "export"),
                                             (["serve", "--port", "0"], "web")])
def test_export_and_serve_name_their_extra(args: list[str], extra: str, tmp_path: Path) -> None:
    run = _hostwcg(args, tmp_path)
    assert run.returncode == 2
    assert f"hostwcg[{extra}]" in _one_line(run)


@pytest.mark.parametrize("args", [["train", "smoke", "--run-dir", "run", "--quiet"],
                                  ["exploit", "random", "--minutes", "0.1", "--run-dir", "run", "--quiet"]])
def test_train_and_exploit_name_the_train_extra(args: list[str], tmp_path: Path) -> None:
    run = _hostwcg(args, tmp_path)
    assert run.returncode == 2
    assert _one_line(run) == (f"hostwcg {args[0]}: this needs the 'train' extra (torch is not installed): "
                              "pip install -e '.[train]'")


def test_a_trained_zip_names_the_train_extra(tmp_path: Path) -> None:
    model = tmp_path / "model.zip"
    model.write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip: torch is asked for first
    run = _hostwcg(["evaluate", "--agents", f"random,ppo:{model}", "--games", "2"], tmp_path)
    assert run.returncode == 2
    assert "'.[train]'" in _one_line(run)


@pytest.mark.parametrize(("script", "extra", "args"), [
    ("train_ppo.py", "train", []), ("train_v1.py", "train", []), ("pretrain_bc.py", "train", []),
    ("distill_v1.py", "train", ["train", "rows.npz", "--out", "out"]), ("train_rllib.py", "rllib", [])])
def test_a_training_script_names_its_extra(script: str, extra: str, args: list[str], tmp_path: Path) -> None:
    path = ROOT / "scripts" / script
    run = _core_only(f"import runpy\nsys.argv = {[str(path), *args]!r}\nrunpy.run_path({str(path)!r}, "
                     "run_name='__main__')", tmp_path)
    assert run.returncode == 1
    assert _one_line(run) == (f"{script}: this needs the '{extra}' extra ({'ray' if extra == 'rllib' else 'torch'} "
                              f"is not installed): pip install -e '.[{extra}]'")


def test_any_command_that_reaches_a_missing_extra_says_which(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    def needs_pandas(args: object) -> int:
        try:
            import pandas_is_not_here  # type: ignore[import-not-found]  # noqa: F401
        except ImportError:
            raise ImportError("the tables as DataFrames") from ModuleNotFoundError(
                "No module named 'pandas'", name="pandas")
        return 0

    monkeypatch.setattr(cli, "cmd_ladder", needs_pandas)
    assert cli.main(["ladder", "x.jsonl"]) == 2
    err = capsys.readouterr().err
    assert err == ("hostwcg ladder: this needs the 'analysis' extra (pandas is not installed): "
                   "pip install -e '.[analysis]'\n")
    # an import error no extra would fix stays a traceback
    monkeypatch.setattr(cli, "cmd_ladder", lambda args: __import__("no_such_module_at_all"))
    with pytest.raises(ModuleNotFoundError):
        cli.main(["ladder", "x.jsonl"])
    assert missing_extra_line(ModuleNotFoundError("x", name="ray.rllib")) is not None


def test_every_extra_named_is_one_pyproject_defines_or_the_readme_s_table_lists() -> None:
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Install", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `(\w+)` \|", table, flags=re.M))
    assert listed == extras, (sorted(listed), sorted(extras))
    assert "pip install -e ." in table
    assert set(EXTRA_OF.values()) <= extras, sorted(set(EXTRA_OF.values()) - extras)


def _fake_venv(tmp_path: Path) -> tuple[Path, Path]:
    """A venv whose python and hostwcg only write down how they were called."""
    venv, calls = tmp_path / "venv", tmp_path / "calls.txt"
    (venv / "bin").mkdir(parents=True)
    for name, answer in (("python", "echo compiled"), ("hostwcg", "true")):
        stub = venv / "bin" / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> {calls}\n'
                        f'case "$*" in -c*) {answer} ;; esac\n', encoding="utf-8")
        stub.chmod(0o755)
    return venv, calls


def test_run_sh_installs_the_core_for_the_demo_and_the_test_extras_for_the_tests(tmp_path: Path) -> None:
    venv, calls = _fake_venv(tmp_path)
    env = {**os.environ, "VENV": str(venv)}

    def run_sh(mode: str) -> list[str]:
        calls.write_text("", encoding="utf-8")
        done = subprocess.run(["bash", str(ROOT / "scripts" / "run.sh"), mode], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return [ln for ln in calls.read_text(encoding="utf-8").splitlines() if "pip install" in ln]

    # the core install keeps the venv's pip: its minute has no time for an upgrade
    assert run_sh("demo") == ["python -m pip install -q -e ."]
    assert run_sh("demo") == []  # its stamp: installed once
    assert run_sh("test") == ["python -m pip install -q --upgrade pip",
                              "python -m pip install -q -e .[dev,train]"]
    assert run_sh("test") == [] and run_sh("demo") == []  # the test install holds the core
    stamps = sorted(p.name.rsplit("-", 1)[0] for p in venv.glob(".installed-*"))
    assert stamps == [".installed-core", ".installed-test"]
