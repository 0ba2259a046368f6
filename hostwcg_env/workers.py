"""Workers import the installed project, whatever their working folder holds (docs/balance.md
"Scale: workers and Ray").

Ray starts its workers in the driver's working folder and puts that folder first on their
``sys.path``. A folder there named like one of the project's packages (an unrelated
``agents/``, say) then shadows it: with an editable install, whose packages are found by an
import hook that Python asks only after the path, even a plain folder without
``__init__.py`` wins, and every worker fails with ``cannot import name 'Observer' from
'agents' (unknown location)``. So the project's folders (where the running ``hostwcg_env``
and ``agents`` were imported from) go to the workers twice: on ``PYTHONPATH``, where a package
beats a plain folder of the same name, and through a setup hook that runs in each worker
before any task and puts a finder for the two packages in those folders ahead of the path
(``project_first``; Ray adds the working folder to ``sys.path`` only later, with the job's
first task). ``multiprocessing`` pools get the same through their initializer.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import Any

PATHS_VAR = "HOSTWCG_PROJECT_PATHS"
SETUP_HOOK = "hostwcg_env.workers.project_first"
PACKAGES = ("hostwcg_env", "agents")  # the project's top-level packages (pyproject.toml)


def project_paths() -> list[str]:
    """The folders the running project's packages come from: the parent of ``hostwcg_env``
    (a checkout for an editable install, else site-packages), and that of an imported
    ``agents`` package where it is elsewhere (the env layer imports no agent)."""
    import hostwcg_env

    out = [str(Path(hostwcg_env.__file__).resolve().parents[1])]
    agents = sys.modules.get("agents")
    where = getattr(agents, "__file__", None)
    if where and not (Path(out[0]) / "agents" / "__init__.py").is_file():
        out.append(str(Path(where).resolve().parents[1]))
    return list(dict.fromkeys(out))


class ProjectFinder(importlib.abc.MetaPathFinder):
    """Finds the project's top-level packages (``PACKAGES``) in its own folders only, ahead of
    ``sys.path`` (a meta path finder is asked before the path, whatever Ray later puts first
    on it); anything else, or a package those folders lack, is left to the other finders."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if fullname not in PACKAGES:
            return None
        return importlib.machinery.PathFinder.find_spec(fullname, self.paths)


def project_first(paths: list[str] | None = None) -> None:
    """Make this process import the project's packages from ``paths`` (else the folders the
    driver named in ``HOSTWCG_PROJECT_PATHS``) whatever ``sys.path`` holds: a ``ProjectFinder``
    first on ``sys.meta_path``. Folders this machine does not have are left out (a remote
    worker with its own install). Called before any task runs (a Ray setup hook, a pool's
    initializer): a package imported before stays as it was."""
    if paths is None:
        paths = [p for p in os.environ.get(PATHS_VAR, "").split(os.pathsep) if p]
    paths = [p for p in paths if os.path.isdir(p)]
    if not paths:
        return
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, ProjectFinder)]
    sys.meta_path.insert(0, ProjectFinder(paths))


def ray_runtime_env(runtime_env: dict[str, Any] | None = None) -> dict[str, Any]:
    """``runtime_env`` (for ``ray.init``) with the project's folders first on the workers'
    ``PYTHONPATH`` and the setup hook that puts them ahead of the working folder."""
    env = dict(runtime_env or {})
    env_vars = dict(env.get("env_vars") or {})
    paths = project_paths()
    inherited = env_vars.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    env_vars["PYTHONPATH"] = os.pathsep.join([*paths, *([inherited] if inherited else [])])
    env_vars[PATHS_VAR] = os.pathsep.join(paths)
    env["env_vars"] = env_vars
    env.setdefault("worker_process_setup_hook", SETUP_HOOK)
    return env


__all__ = ["PACKAGES", "PATHS_VAR", "SETUP_HOOK", "ProjectFinder", "project_first", "project_paths", "ray_runtime_env"]
