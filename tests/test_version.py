"""One version number: ``hostwcg_env.__version__`` is the package's (pyproject.toml reads it),
``hostwcg --version`` prints it, docs/env.md's versions table names it as the next release
(unreleased while it is a development version), and CITATION.cff cites the last release the
CHANGELOG dates."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.version import Version

import hostwcg_env
from hostwcg_env.cli import main

ROOT = Path(__file__).resolve().parent.parent
VERSION = Version(hostwcg_env.__version__)


def test_pyproject_reads_the_one_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "hostwcg_env.__version__"}


def test_the_command_prints_it(capsys) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"hostwcg {hostwcg_env.__version__}"


def test_docs_and_citation_agree_with_it() -> None:
    env = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    since = re.findall(r"^\| `hostwcg_v\d` \| (\d+\.\d+\.\d+)( \(unreleased\))? \|", env, flags=re.M)
    assert since, "docs/env.md's versions table"
    newest = max(Version(v) for v, _ in since)
    assert newest == Version(VERSION.base_version)  # the package is that version, or on the way to it
    assert all(bool(u) == VERSION.is_prerelease for v, u in since if Version(v) == newest)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## (\d+\.\d+\.\d+) \((\d{4}-\d\d-\d\d)\)", changelog, flags=re.M)
    last, date = max(released, key=lambda r: Version(r[0]))
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert f"\nversion: {last}\n" in cff and f"\ndate-released: {date}\n" in cff
    assert Version(last) < VERSION if VERSION.is_prerelease else Version(last) == VERSION
