"""Lint and types as CI checks them (docs/contributing.md, "Lint and types"): ``ruff check`` over
the package, the agents, the scripts and the tests, and ``mypy`` as configured in
pyproject.toml, which covers the package, the agents and the scripts with every function typed.

Each tool runs as a subprocess of this Python (``python -m ruff``, ``python -m mypy``); a test
fails with the tool's own report, and is skipped, saying so, where the tool is not installed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINTED = ["hostwcg_env", "agents", "scripts", "tests"]  # what ruff checks
TYPED = ["hostwcg_env", "agents", "scripts"]  # what mypy checks, every function typed


def _run(tool: str, args: list[str]) -> None:
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} is not installed in {sys.executable} (pip install -e '.[dev]')")
    done = subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, f"{tool} {' '.join(args)} failed:\n{done.stdout}{done.stderr}"


def test_ruff_finds_nothing() -> None:
    _run("ruff", ["check", *LINTED])


def test_ruff_enforces_the_line_length() -> None:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]
    assert cfg.get("line-length") == 120, f"[tool.ruff] line-length: {cfg.get('line-length')}"
    lint = cfg.get("lint", {})
    assert "E" in lint.get("select", []) or "E501" in lint.get("select", []), "[tool.ruff.lint] select lacks E501"
    assert "E501" not in lint.get("ignore", []), "[tool.ruff.lint] ignore holds E501"
    waived = [f for f, rules in lint.get("per-file-ignores", {}).items() if "E501" in rules or "E" in rules]
    assert not waived, f"[tool.ruff.lint] per-file-ignores waive E501 for: {waived}"


def test_mypy_covers_the_agents_and_the_scripts_with_every_function_typed() -> None:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert sorted(cfg.get("files", [])) == sorted(TYPED), f"[tool.mypy] files: {cfg.get('files')}"
    for flag in ("disallow_untyped_defs", "disallow_incomplete_defs", "check_untyped_defs"):
        assert cfg.get(flag) is True, f"[tool.mypy] {flag} is not true"
    relaxed = [o["module"] for o in cfg.get("overrides", [])
               if o.get("disallow_untyped_defs") is False or o.get("disallow_incomplete_defs") is False]
    assert not relaxed, f"[tool.mypy] overrides let these modules go untyped: {relaxed}"


def test_mypy_finds_nothing() -> None:
    _run("mypy", [])  # the configured run: [tool.mypy] in pyproject.toml
