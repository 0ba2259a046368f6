"""Every file of ``scripts/`` is a thin command-line front end (docs/contributing.md, "Where code
lives"): at most 60 lines with its docstring, no ``sys.path`` edit, the logic in a package
module; and no test imports a script. Read with ``ast``, nothing is run."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "scripts").glob("*.py"))
MAX_LINES = 60


def sys_path_uses(tree: ast.AST) -> list[int]:
    """The lines that read or change ``sys.path`` (``sys.path``, ``from sys import path``)."""
    lines = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name)
                and node.value.id == "sys"):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "sys" and any(a.name == "path" for a in node.names):
            lines.append(node.lineno)
    return sorted(lines)


def imported_tops(tree: ast.AST) -> set[str]:
    """The first part of every module an ``import`` statement names (absolute imports only)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out


def test_the_checks_see_what_they_look_for() -> None:
    bad = ast.parse("import sys\nsys.path.insert(0, 'x')\nfrom sys import path\n"
                    "import fuzz.x\nfrom bench import main\n")
    assert sys_path_uses(bad) == [2, 3]
    assert imported_tops(bad) == {"sys", "fuzz", "bench"}
    assert sys_path_uses(ast.parse("import os\nos.path.join('a')\n")) == []


def test_there_are_scripts() -> None:
    assert len(SCRIPTS) >= 10


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_a_script_is_a_short_front_end_that_edits_no_sys_path(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    n = len(text.splitlines())
    assert n <= MAX_LINES, (f"scripts/{path.name} has {n} lines (at most {MAX_LINES}): move its logic into a "
                            "package module (agents/training/ or hostwcg_env/testing/) and keep the argparse front end")
    tree = ast.parse(text, str(path))
    assert ast.get_docstring(tree), f"scripts/{path.name}: no module docstring"
    used = sys_path_uses(tree)
    assert not used, f"scripts/{path.name}:{used[0]}: edits sys.path; import the installed package instead"


def test_no_test_imports_a_script() -> None:
    names = {p.stem for p in SCRIPTS} | {"scripts"}
    bad = []
    for test in sorted((ROOT / "tests").rglob("*.py")):
        hit = imported_tops(ast.parse(test.read_text(encoding="utf-8"), str(test))) & names
        bad += [f"{test.relative_to(ROOT)}: imports {n}" for n in sorted(hit)]
    assert not bad, "tests import packages, never a script (run a script in a subprocess):\n" + "\n".join(bad)
