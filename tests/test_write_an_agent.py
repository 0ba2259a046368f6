"""docs/write-an-agent.md runs: its agent file is written to a fresh folder, and every command
and Python snippet of the page runs there with few games (``--games 4``), the agent named
``rush:Rush`` (module:Class) through the ``hostwcg`` command end to end: check, demo, evaluate,
ladder, audit, play, balance; then its typed spec as an installed ``hostwcg.agents`` entry
point. The command runs with ``python -P``, so the folder is not on the path by itself, as
with the installed ``hostwcg`` script."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "write-an-agent.md").read_text(encoding="utf-8")
FEW = "4"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC, flags=re.S)


def _files() -> dict[str, str]:
    """The Python blocks that are files (their first line is ``# NAME.py``)."""
    out = {}
    for b in _blocks("python"):
        m = re.match(r"# (\w+\.py)\n", b)
        if m:
            out[m.group(1)] = b
    return out


def _commands() -> list[str]:
    return [ln.split("  #")[0].strip() for b in _blocks("bash") for ln in b.splitlines() if ln.strip()]


def _run(cmd: str, cwd: Path, path: list[Path]) -> subprocess.CompletedProcess[str]:
    cmd = re.sub(r"--games \d+", f"--games {FEW}", cmd)
    cmd = re.sub(r"(^|\| )hostwcg ", rf"\1{sys.executable} -P -m hostwcg_env ", cmd)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in [ROOT, *path])}
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _table(text: str, header: str) -> list[str]:
    """The rows of the markdown table under ``header``."""
    rows = text.split(header + "\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return rows[1:]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("my_agent")
    for name, text in _files().items():
        (d / name).write_text(text, encoding="utf-8")
    return d


def test_the_agent_is_about_twenty_lines() -> None:
    code = [ln for ln in _files()["rush.py"].splitlines()[1:] if ln.strip()]
    assert len(code) <= 25, len(code)
    assert "PlayerView" in _files()["rush.py"] and "view.host_health(view.opponent)" in _files()["rush.py"]


def test_every_command_runs_with_module_class(folder: Path) -> None:
    commands = [c for c in _commands() if "rush:Rush" in c or "rush.jsonl" in c]
    assert {c.split()[c.split().index("hostwcg") + 1] for c in commands} >= {
        "agents", "demo", "evaluate", "ladder", "audit", "play", "balance"}
    out: dict[str, str] = {}
    for cmd in commands:
        run = _run(cmd, folder, [])
        assert run.returncode == 0, (cmd, run.stderr[-2000:])
        out[cmd.split("hostwcg ", 1)[1].split()[0]] = run.stdout
    assert out["agents"].strip() == "ok rush:Rush:finish=6"
    assert "wins" in out["demo"] or "draw" in out["demo"]
    ev = out["evaluate"]
    assert "| heuristic | rush:Rush |" in ev and "| rush:Rush | rush:Rush:finish=8 |" in ev
    assert f"{3 * int(FEW)} games in" in ev and "over the eight preconstructed decks" in ev
    # the ladder reads back exactly the pairs and ratings evaluate printed
    head = "| agent | rating (Bradley-Terry, Elo scale) | 95% CI |"
    ratings = _table(ev, head)
    assert len(ratings) == 3 and ratings == _table(out["ladder"], head)
    assert "| rush:Rush:finish=8 | 8 |" in out["audit"]  # its games, replayed
    assert "conceded" in out["play"]
    assert "wrote" in out["balance"]
    # the page's tables have the headers the commands print
    for header in ("| agent | opponent | games | win rate | 95% CI |",
                   "| agent | rating (Bradley-Terry, Elo scale) | 95% CI |",
                   "| agent | games | choices | target choices | R1 | R2 | R3 | R4 | R5 | R6 | R7 |"):
        assert header in DOC and (header in ev or header in out["audit"]), header


def test_the_python_snippet_runs(folder: Path) -> None:
    snippet = next(b for b in _blocks("python") if not re.match(r"# \w+\.py\n", b))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", snippet], cwd=folder, env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("6 ") and "| heuristic | rush:Rush | 4 |" in run.stdout


def test_the_entry_point_makes_a_typed_agent_name(folder: Path, tmp_path: Path) -> None:
    """The page's pyproject table, installed as a package's entry point (a .dist-info folder on
    the path is what pip writes), makes ``rush`` an agent name with its typed option."""
    table = tomllib.loads(_blocks("toml")[0])["project"]["entry-points"]["hostwcg.agents"]
    site = tmp_path / "site"
    info = site / "rush_agent-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rush-agent\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hostwcg.agents]\n" + "".join(f"{k} = {v}\n" for k, v in table.items()))
    commands = [c for c in _commands() if "rush" in c and "rush:Rush" not in c and "rush.jsonl" not in c]
    assert len(commands) == 2
    shown = _run(commands[0], folder, [site, folder])
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"finish +a whole number, 1 or more +4 +rush at this Host health", shown.stdout)
    ev = _run(commands[1], folder, [site, folder])
    assert ev.returncode == 0, ev.stderr[-2000:]
    assert "| heuristic | rush:6 |" in ev.stdout
    listed = _run("hostwcg agents", folder, [site, folder])
    assert re.search(r"^rush +rush\[:FINISH\]\[:KEY=VALUE\.\.\.\]|^rush +rush\[:FINISH\] +finish a weakened Host",
                     listed.stdout, flags=re.M), listed.stdout
    bad = _run("hostwcg agents --check rush:finish=x", folder, [site, folder])
    assert bad.returncode == 1
    assert bad.stderr.strip() == ("hostwcg agents: agent 'rush:finish=x': finish= takes a whole number, 1 or more, "
                                  "not 'x' (expected rush[:FINISH])")
