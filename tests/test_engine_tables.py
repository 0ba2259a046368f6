"""The engine's dispatch tables (game.TASKS, game.RESUMES) are plain direct references: every
task class is run by a function written for that class, every kind of decision has the
function that takes its answer, and every task can be cloned (docs/engine.md "How a game runs").

The signatures are read from the sources (the compiled functions keep no annotations)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from hostwcg_env.engine.actions import Resume
from hostwcg_env.engine.game import RESUMES, TASKS
from hostwcg_env.engine.tasks import Task

ENGINE = Path(__file__).resolve().parent.parent / "hostwcg_env" / "engine"


def _find(body: list[ast.stmt], qualname: str) -> ast.FunctionDef | None:
    *owners, name = qualname.split(".")
    for owner in owners:
        cls = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == owner), None)
        if cls is None:
            return None
        body = cls.body
    return next((n for n in body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _signature(fn: object) -> list[tuple[str, str]]:
    """(name, annotation) of each parameter of ``fn``, read from the engine's sources (a
    compiled function may not say its module, so the qualified name is looked up)."""
    qualname = getattr(fn, "__qualname__", getattr(fn, "__name__", ""))
    module = getattr(fn, "__module__", None) or ""
    paths = sorted(ENGINE.glob("*.py"))
    if module.startswith("hostwcg_env.engine."):
        paths = [ENGINE / (module.rsplit(".", 1)[1] + ".py")]
    found = [node for path in paths if (node := _find(ast.parse(path.read_text()).body, qualname))]
    assert len(found) == 1, f"{qualname}: defined {len(found)} times in the engine"
    node = found[0]
    return [(a.arg, ast.unparse(a.annotation) if a.annotation else "") for a in node.args.args]


@pytest.mark.parametrize("cls", sorted(TASKS, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_each_task_is_run_by_a_function_for_its_class(cls: type) -> None:
    assert issubclass(cls, Task)
    params = _signature(TASKS[cls])
    assert [a for _, a in params] == ["Core", cls.__name__], params


def test_every_decision_kind_has_its_resume() -> None:
    assert set(RESUMES) == set(Resume)
    for resume, fn in RESUMES.items():
        assert [a for _, a in _signature(fn)] == ["Core", "Decision", "Action"], resume


def _task_classes() -> list[type]:
    out: list[type] = []
    todo = [Task]
    while todo:
        for sub in todo.pop().__subclasses__():
            out.append(sub)
            todo.append(sub)
    return out


def test_every_task_class_clones_itself() -> None:
    """Each concrete task class writes its own clone (an inherited one would copy the wrong
    class); abstract bases are those with subclasses and no entry in TASKS."""
    import hostwcg_env.engine.game  # noqa: F401  (imports every module that defines a task)

    for cls in _task_classes():
        if cls.__subclasses__():
            continue
        assert cls.__module__ in sys.modules
        assert "clone" in vars(cls), f"{cls.__name__} has no clone of its own"
        tree = ast.parse((ENGINE / (cls.__module__.rsplit(".", 1)[1] + ".py")).read_text())
        node = _find(tree.body, f"{cls.__name__}.clone")
        assert node is not None and ast.unparse(node.returns or ast.Constant("")) == cls.__name__
