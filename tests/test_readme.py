"""The README is a user's guide that stays true: short, its paths exist, its five-line example
runs, its training snippet is the one docs/env.md runs (tests/test_training_ux.py), its two
commands are what scripts/run.sh and CI run, every `hostwcg` command it shows runs (with a
small budget: two games where it says twenty), and its ladder is what `hostwcg ladder` says of
the kept games."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def _code(block: str) -> list[str]:
    """The statements of a Python block, comments and layout aside."""
    lines = [ln.split("  #")[0].rstrip() for ln in block.splitlines()]
    return [re.sub(r"\s+", "", ln) for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


def test_the_readme_is_short() -> None:
    assert len(README) < 10_000, len(README)  # 8000 before the install section and the browser app's


def test_every_path_the_readme_names_exists() -> None:
    paths = set(re.findall(r"`((?:docs|scripts|notebooks|agents|tests|hostwcg_env)/[\w./*-]+)`", README))
    paths |= set(re.findall(r"\]\(((?:docs|scripts)/[\w./-]+)\)", README))
    assert len(paths) > 10
    missing = [p for p in sorted(paths) if not list(ROOT.glob(p.split(" ")[0]))]
    assert not missing, missing


def test_the_two_commands_are_what_ci_runs() -> None:
    bash = _blocks(README, "bash")[0]
    assert "bash scripts/run.sh demo" in bash and "bash scripts/run.sh test" in bash
    assert "bash scripts/run.sh test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_five_line_example_runs() -> None:
    code = _blocks(README, "python")[0]
    assert "hostwcg_v0.env(" in code
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "wins" in run.stdout or "draw" in run.stdout, run.stdout[-2000:]


def test_the_training_snippet_is_the_one_docs_env_runs() -> None:
    readme = _code(_blocks(README, "python")[1])
    docs = _code(_blocks((ROOT / "docs" / "env.md").read_text(encoding="utf-8").split("## Stable-Baselines3", 1)[1],
                         "python")[0])
    assert readme == docs


def _readme_ladder_patterns() -> list[str]:
    """The files and patterns of the `hostwcg ladder` command the README names for its ladder."""
    m = re.search(r"`hostwcg ladder ((?:agents/ladder_results/[\w.*\[\]]+ ?)+)`", README)
    assert m, "the README names the ladder command"
    return m.group(1).split()


def _ladder_files(patterns: list[str]) -> list[Path]:
    return sorted(f for pattern in patterns for f in ROOT.glob(pattern))


def test_the_results_folder_names_the_readme_ladder_s_files() -> None:
    """agents/ladder_results/README.md's command for "the README's ladder" reads the same kept
    files as the command the README names."""
    text = (ROOT / "agents" / "ladder_results" / "README.md").read_text(encoding="utf-8")
    cmd = re.search(r"hostwcg ladder ((?:[^\n#]|\\\n)+?)\s*# the README's ladder", text)
    assert cmd, "agents/ladder_results/README.md names the README's ladder"
    theirs = cmd.group(1).replace("\\\n", " ").split()
    assert _ladder_files(theirs) == _ladder_files(_readme_ladder_patterns()) != []


def test_the_ladder_is_what_hostwcg_ladder_says_of_the_kept_games() -> None:
    """Every table row of the README's ladder is a row the command it names prints from the
    kept results files (the games are kept and replay: agents/ladder_results/README.md)."""
    kept = {pattern: sorted(ROOT.glob(pattern)) for pattern in _readme_ladder_patterns()}
    assert [p for p, found in kept.items() if not found] == [], "every file or pattern the command names is kept"
    files = [str(f.relative_to(ROOT)) for found in kept.values() for f in found]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "hostwcg_env", "ladder", *files], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    printed = {ln for ln in run.stdout.splitlines() if ln.startswith("| ")}
    section = README.split("## The ladder", 1)[1].split("\n## ", 1)[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("| ")]
    # the ratings and the time per choice, a header and a row per agent each (the pairs' win
    # rates are printed by the command and kept in agents/ladder_results/README.md)
    assert any(r.startswith("| agent | rating") for r in rows)
    assert any(r.startswith("| agent | choices | ms per choice") for r in rows)
    assert len(rows) >= 2 * (1 + 5)
    assert [r for r in rows if r not in printed] == []


# what a command that waits for the user reads from stdin: play concedes, replay --step goes to the end
STDIN = {"play": "concede\n", "replay": "c\n"}
SMALL = {"--games": "2", "--minutes": "0.3"}
# what a command with a time budget plays besides it, cut to a few games (exploit's curve points)
EXTRA = {"exploit": ["--curve-games", "2", "--points", "1", "--games", "2", "--envs", "4"]}


def _readme_commands() -> list[str]:
    """Every command of the README's bash blocks, in order, comments aside."""
    out: list[str] = []
    for block in _blocks(README, "bash"):
        for line in block.splitlines():
            for cmd in line.split("#", 1)[0].split(" ; "):
                if cmd.strip():
                    out.append(cmd.strip())
    return out


def _small_budget(cmd: str) -> list[str]:
    words = shlex.split(cmd)
    small = [SMALL.get(words[i - 1], w) if i else w for i, w in enumerate(words)]
    return small + (EXTRA.get(words[1], []) if len(words) > 1 else [])


@pytest.mark.slow
def test_every_readme_command_runs_with_a_small_budget(tmp_path: Path) -> None:
    """Each `hostwcg` command of the README runs as written, with two games where it names more
    (and 0.3 minutes where it names a time budget),
    from a folder that sees the checkout's agents/ and docs/ (what `runs/...` writes stays
    there); the two scripts/run.sh commands are what CI runs (above) and tests/test_extras.py
    runs the demo's commands on the core install."""
    commands = _readme_commands()
    hostwcg = [c for c in commands if c.startswith("hostwcg ")]
    assert sorted(set(commands) - set(hostwcg)) == ["bash scripts/run.sh demo", "bash scripts/run.sh test"]
    assert len(hostwcg) >= 7 and any(c.startswith("hostwcg audit ") for c in hostwcg)
    for name in ("agents", "docs", "scripts"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for cmd in hostwcg:
        words = _small_budget(cmd)
        run = subprocess.run([sys.executable, "-m", "hostwcg_env", *words[1:]], cwd=tmp_path, env=env,
                             input=STDIN.get(words[1], ""), capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, (cmd, run.stderr[-2000:])
        assert run.stdout.strip(), cmd


def test_the_audit_example_is_bounded() -> None:
    """The audit command reads a few games (all the kept games take about half an hour) and says
    how long it takes."""
    line = next(ln for ln in _blocks(README, "bash")[-1].splitlines() if ln.startswith("hostwcg audit "))
    words = shlex.split(line.split("#", 1)[0])
    assert "--games" in words and int(words[words.index("--games") + 1]) <= 50, line
    assert not any("*" in w for w in words), line
    assert re.search(r"#.*\d+ s\b", line), line
