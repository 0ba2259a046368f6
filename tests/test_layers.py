"""Imports flow one way: engine <- cards <- env <- agents <- analysis <- training <- cli/scripts.

Every import statement of the package, the agents and the scripts (at the top of a module or
inside a function, read with ``ast``) is mapped to the layer of the module it names; no module
imports from a layer above its own, and no two packages (or top-level modules) import each
other, even within a layer. Every module must belong to a layer: a new one is placed here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# (layer, the module prefixes in it), lowest first
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("engine", ("hostwcg_env.engine",)),
    ("cards", ("hostwcg_env.cards",)),  # and the package root, which registers the card pool
    ("env", ("hostwcg_env.env", "hostwcg_env.board", "hostwcg_env.render", "hostwcg_env.hostwcg_v0",
             "hostwcg_env.hostwcg_v1", "hostwcg_env.scenarios", "hostwcg_env.openspiel", "hostwcg_env.threads",
             "hostwcg_env.workers", "hostwcg_env.extras")),
    ("agents", ("agents",)),
    ("analysis", ("hostwcg_env.analysis",)),
    ("training", ("agents.training",)),
    ("top", ("hostwcg_env.testing", "hostwcg_env.cli", "hostwcg_env.cli_agents", "hostwcg_env.cli_export",
             "hostwcg_env.cli_train", "hostwcg_env.gym_make", "hostwcg_env.cli_input", "hostwcg_env.demo",
             "hostwcg_env.play", "hostwcg_env.__main__", "scripts", "hostwcg_env.web")),
]
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str | None:
    """The layer of a module (the longest matching prefix), None when it has none."""
    if module == "hostwcg_env":
        return "cards"
    best: tuple[int, str] | None = None
    for name, prefixes in LAYERS:
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best is None or len(p) > best[0]):
                best = (len(p), name)
    return None if best is None else best[1]


def package_of(module: str) -> str:
    """The node of the package graph: a subpackage (hostwcg_env.engine, agents, scripts) or a
    top-level module of hostwcg_env (hostwcg_env.cli)."""
    parts = module.split(".")
    if parts[:2] == ["agents", "training"]:
        return "agents.training"
    if parts[0] in ("agents", "scripts"):
        return parts[0]
    return ".".join(parts[:2])


def sources() -> dict[str, Path]:
    out = {}
    for base in ("hostwcg_env", "agents", "scripts"):
        for p in sorted((ROOT / base).rglob("*.py")):
            out[module_name(p)] = p
    return out


def imports(module: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """The project modules ``module`` imports (resolved to the longest known module name) and
    the line of each import."""
    is_pkg = path.name == "__init__.py"
    here = module if is_pkg else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            names = [f"{target}.{a.name}" for a in node.names] + [target]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module and (name, node.lineno) not in out:
                out.append((name, node.lineno))
    return out


SOURCES = sources()
GRAPH = {m: imports(m, p, set(SOURCES)) for m, p in SOURCES.items()}


def test_every_module_has_a_layer() -> None:
    unplaced = [m for m in SOURCES if layer_of(m) is None]
    assert not unplaced, f"place these modules in a layer (tests/test_layers.py LAYERS): {unplaced}"


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    upward = []
    for m, deps in GRAPH.items():
        for d, line in deps:
            if RANK[layer_of(d)] > RANK[layer_of(m)]:  # type: ignore[index]
                upward.append(f"{SOURCES[m].relative_to(ROOT)}:{line}: {m} ({layer_of(m)}) imports "
                              f"{d} ({layer_of(d)})")
    assert not upward, "imports must flow one way, engine <- cards <- env <- agents <- analysis <- top:\n" + \
        "\n".join(upward)


def test_no_circles_between_packages() -> None:
    edges: dict[str, set[str]] = {}
    for m, deps in GRAPH.items():
        for d, _ in deps:
            a, b = package_of(m), package_of(d)
            if a != b:
                edges.setdefault(a, set()).add(b)
    cycles = []

    def visit(node: str, path: list[str], on: set[str], done: set[str]) -> None:
        on.add(node)
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt in on:
                cycles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in done:
                visit(nxt, path, on, done)
        path.pop()
        on.discard(node)
        done.add(node)

    done: set[str] = set()
    for n in sorted(edges):
        if n not in done:
            visit(n, [], set(), done)
    assert not cycles, "packages that import each other:\n" + "\n".join(cycles)


def test_no_circles_between_the_modules_of_agents_and_analysis() -> None:
    """Within the agents and the analysis packages, no module imports one that imports it back
    (directly or through others)."""
    scope = {m for m in SOURCES if m.startswith(("agents", "hostwcg_env.analysis"))}
    edges = {m: {d for d, _ in GRAPH[m] if d in scope} for m in scope}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(scope):
        if v not in index:
            strong(v)
    assert not found, f"modules that import each other: {found}"


@pytest.mark.parametrize("source,expected", [
    ("from agents import make_agent\n", "agents"),
    ("import hostwcg_env.analysis.runner\n", "hostwcg_env.analysis.runner"),
    ("def f():\n    from ..analysis import ladder\n", "hostwcg_env.analysis.ladder"),
])
def test_the_checker_sees_every_kind_of_import(tmp_path: Path, source: str, expected: str) -> None:
    """The checker itself: absolute, nested and relative imports are all found (a module in
    the env layer that imported these would be refused)."""
    path = tmp_path / "fake_module.py"
    path.write_text(source)
    deps = {d for d, _ in imports("hostwcg_env.env.fake_module", path, set(SOURCES))}
    assert expected in deps
    assert any(RANK[layer_of(d)] > RANK["env"] for d in deps)  # type: ignore[index]
