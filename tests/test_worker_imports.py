"""Workers import the installed project whatever the working folder holds
(hostwcg_env/workers.py): a Ray balance study, a process-pool study and an RLlib training
iteration, each run from a folder that holds a decoy ``agents`` package.

The commands run in a fresh interpreter that finds this checkout's packages as an editable
install does, through an import hook asked after ``sys.path`` (``sitecustomize`` below): the
arrangement in which a plain ``agents/`` folder in the working folder shadowed the project in
every Ray worker (``cannot import name 'Observer' from 'agents' (unknown location)``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hostwcg_env.workers import PATHS_VAR, SETUP_HOOK, project_paths, ray_runtime_env

ROOT = Path(__file__).resolve().parents[1]

SITECUSTOMIZE = '''
import importlib.abc, importlib.machinery, importlib.util, os, sys

ROOT = os.environ["HOSTWCG_TEST_ROOT"]


class EditableFinder(importlib.abc.MetaPathFinder):  # asked after sys.path, as setuptools' is
    def find_spec(self, fullname, path, target=None):
        if fullname not in ("hostwcg_env", "agents"):
            return None
        return importlib.util.spec_from_file_location(
            fullname, os.path.join(ROOT, fullname, "__init__.py"),
            submodule_search_locations=[os.path.join(ROOT, fullname)])


at = next(i for i, f in enumerate(sys.meta_path) if f is importlib.machinery.PathFinder) + 1
sys.meta_path.insert(at, EditableFinder())
'''
# as a console script (the guard: a spawned pool worker imports the main module again)
RUN_CLI = "import sys\nfrom hostwcg_env.cli import main\nif __name__ == '__main__':\n    sys.exit(main(sys.argv[1:]))\n"
RUN_RLLIB = ("import sys\nfrom agents.rllib_selfplay import main\nif __name__ == '__main__':\n"
             "    sys.exit(main(sys.argv[1:]))\n")


def _decoy(tmp_path: Path, regular: bool) -> Path:
    """A working folder with an unrelated ``agents``: a plain folder, or a package of its own."""
    work = tmp_path / "work"
    (work / "agents").mkdir(parents=True)
    (work / "agents" / "notes.py").write_text("NOTE = 'not the project'\n")
    if regular:
        (work / "agents" / "__init__.py").write_text("WHOSE = 'a decoy'\n")
    return work


def _run(tmp_path: Path, work: Path, script: str, args: list[str], timeout: int) -> subprocess.CompletedProcess[str]:
    shim = tmp_path / "shim"
    shim.mkdir(exist_ok=True)
    (shim / "sitecustomize.py").write_text(SITECUSTOMIZE)
    (shim / "run.py").write_text(script)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", PATHS_VAR)}
    env.update(PYTHONPATH=str(shim), HOSTWCG_TEST_ROOT=str(ROOT), RAY_DISABLE_DOCKER_CPU_WARNING="1")
    return subprocess.run([sys.executable, str(shim / "run.py"), *args], cwd=work, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)


def _says(res: subprocess.CompletedProcess[str]) -> str:
    return f"exit {res.returncode}\n{res.stdout[-3000:]}\n{res.stderr[-6000:]}"


def test_the_ray_runtime_env_names_the_project_first() -> None:
    paths = project_paths()
    assert paths[0] == str(ROOT) and (Path(paths[0]) / "agents" / "__init__.py").is_file()
    env = ray_runtime_env({"py_modules": ["x"], "env_vars": {"A": "1"}})
    assert env["py_modules"] == ["x"] and env["env_vars"]["A"] == "1"
    assert env["env_vars"]["PYTHONPATH"].split(os.pathsep)[0] == str(ROOT)
    assert env["env_vars"][PATHS_VAR] == os.pathsep.join(paths)
    assert env["worker_process_setup_hook"] == SETUP_HOOK


def test_project_first_beats_a_decoy_package_first_on_the_path(tmp_path: Path) -> None:
    work = _decoy(tmp_path, regular=True)
    probe = ("import sys\nsys.path.insert(0, sys.argv[1])\nfrom hostwcg_env.workers import project_first\n"
             "import agents as before\nfor k in [k for k in sys.modules if k.split('.')[0] == 'agents']:\n"
             "    del sys.modules[k]\nproject_first([sys.argv[2]])\nimport agents\n"
             "print(getattr(before, 'WHOSE', '?'), agents.__file__)\n")
    res = _run(tmp_path, work, probe, [str(work), str(ROOT)], timeout=120)
    assert res.returncode == 0, _says(res)
    assert res.stdout.split() == ["a", "decoy", str(ROOT / "agents" / "__init__.py")]


@pytest.mark.slow
@pytest.mark.parametrize("regular", [False, True], ids=["plain folder", "package"])
def test_a_ray_balance_study_runs_from_a_folder_with_a_decoy_agents(tmp_path: Path, regular: bool) -> None:
    pytest.importorskip("ray")
    work = _decoy(tmp_path, regular)
    out = tmp_path / "out"
    res = _run(tmp_path, work, RUN_CLI, ["balance", "--backend", "ray", "--workers", "1", "--agent", "heuristic",
                                         "--decks", "brae", "karsh", "--games", "1", "--out", str(out)],
               timeout=400)
    assert res.returncode == 0, _says(res)
    assert "cannot import" not in res.stderr and (out / "report.html").is_file()


@pytest.mark.slow
def test_a_process_pool_study_runs_from_a_folder_with_a_decoy_agents(tmp_path: Path) -> None:
    work = _decoy(tmp_path, regular=True)
    out = tmp_path / "out"
    res = _run(tmp_path, work, RUN_CLI, ["balance", "--backend", "local", "--workers", "2", "--agent", "heuristic",
                                         "--decks", "brae", "karsh", "--games", "1", "--out", str(out)],
               timeout=400)
    assert res.returncode == 0, _says(res)
    assert (out / "report.html").is_file()


@pytest.mark.slow
def test_an_rllib_iteration_runs_from_a_folder_with_a_decoy_agents(tmp_path: Path) -> None:
    pytest.importorskip("ray.rllib")
    work = _decoy(tmp_path, regular=True)
    out = tmp_path / "run"
    res = _run(tmp_path, work, RUN_RLLIB,
               ["--decks", "brae", "karsh", "--turn-limit", "4", "--iterations", "1", "--train-batch", "60",
                "--minibatch", "30", "--epochs", "1", "--env-runners", "1", "--envs-per-runner", "1",
                "--dim", "16", "--emb", "8", "--eval-games", "0", "--num-cpus", "1", "--torch-threads", "1",
                "--out", str(out), "--seed", "1"], timeout=500)
    assert res.returncode == 0, _says(res)
    assert (out / "metrics.jsonl").read_text().count("\n") == 1 and (out / "checkpoint").is_dir()
