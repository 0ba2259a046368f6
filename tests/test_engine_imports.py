"""The engine's modules form a tree (docs/engine.md "Layout"): no module imports, at run time
or for type checking, a module that imports it back, and the engine imports nothing outside
itself and the standard library (it is compiled with mypyc and ships without dependencies).

Every import counts: top-level, inside functions, and under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "hostwcg_env" / "engine"
PACKAGE = "hostwcg_env.engine"


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names), wherever the import statement is."""
    tree = ast.parse(path.read_text(), str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = PACKAGE if node.level == 1 else PACKAGE.rsplit(".", node.level - 1)[0]
                mod = f"{base}.{node.module}" if node.module else base
                if node.module is None:  # from . import x: x is a module of the package
                    out.update(f"{base}.{alias.name}" for alias in node.names)
                    continue
                out.add(mod)
            elif node.module:
                out.add(node.module)
    return out


def _graph() -> dict[str, set[str]]:
    graph = {}
    for path in sorted(ENGINE.glob("*.py")):
        name = PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"
        graph[name] = _imports(path)
    return graph


def test_the_engine_imports_only_itself_and_the_standard_library() -> None:
    stdlib = sys.stdlib_module_names
    bad = {}
    for mod, deps in _graph().items():
        outside = sorted(d for d in deps if not d.startswith(PACKAGE) and d.split(".")[0] not in stdlib)
        if outside:
            bad[mod] = outside
    assert not bad, f"the engine imports outside itself and the standard library: {bad}"


def test_no_import_circle_inside_the_engine() -> None:
    graph = _graph()
    inner = {m: {d for d in deps if d in graph and d != PACKAGE} for m, deps in graph.items() if m != PACKAGE}
    # depth-first search for a back edge; report the circle
    state: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for d in sorted(inner[m]):
            if state.get(d) == 1:
                circles.append(stack[stack.index(d):] + [d])
            elif d not in state:
                visit(d)
        stack.pop()
        state[m] = 2

    for m in sorted(inner):
        if m not in state:
            visit(m)
    short = [" -> ".join(x.rsplit(".", 1)[-1] for x in c) for c in circles]
    assert not circles, "import circles in the engine:\n" + "\n".join(short)


def test_the_package_init_imports_no_module_that_imports_it() -> None:
    graph = _graph()
    users = sorted(m for m, deps in graph.items() if m != PACKAGE and PACKAGE in deps)
    assert not users, f"engine modules import the package itself (its __init__): {users}"


def test_the_layout_table_names_every_engine_module() -> None:
    """docs/engine.md's Layout table lists every module of the engine (and only those)."""
    import re

    doc = (ENGINE.parent.parent / "docs" / "engine.md").read_text(encoding="utf-8")
    table = doc.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = [ln for ln in table.splitlines() if ln.startswith("| ") and not ln.startswith("| layer")]
    cells = [ln.split(" | ")[1] for ln in rows]
    for _ in range(3):  # the classes in (nested) parentheses aside
        cells = [re.sub(r"\([^()]*\)", "", c) for c in cells]
    named = {m for cell in cells for m in re.findall(r"`(\w+)`", cell)}
    modules = {p.stem for p in ENGINE.glob("*.py") if not p.stem.startswith("_")}
    assert named == modules, (sorted(modules - named), sorted(named - modules))
