"""The notebooks are stored executed, with their outputs (``make notebooks`` refreshes them:
scripts/run_notebooks.py), and run from top to bottom without an error (executed again with
nbclient; the training notebook with fewer steps, through its parameter cell's environment
variables). Skipped only where nbclient or ipykernel (or, for training, sb3-contrib) is not
installed (CI installs them with the dev and train extras)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
QUICK = {"HOSTWCG_TRAIN_STEPS": "1024", "HOSTWCG_EVAL_GAMES": "2"}  # training.ipynb's parameters


def test_the_notebooks_are_there() -> None:
    assert {p.name for p in NOTEBOOKS} >= {"quickstart.ipynb", "balance.ipynb", "training.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebooks_are_stored_executed(path: Path) -> None:
    """Stored as ``make notebooks`` leaves them: every code cell run once, in order, in one
    kernel (counts 1, 2, 3...), with its outputs, none an error."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert [c.get("execution_count") for c in code] == list(range(1, len(code) + 1)), \
        f"{path.name} is not stored executed: run 'make notebooks' (scripts/run_notebooks.py)"
    outputs = [o for c in code for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert sum(1 for c in code if c.get("outputs")) >= len(code) - 2  # nearly every cell shows something


def test_the_stored_training_run_is_the_full_one() -> None:
    """training.ipynb is stored with the run its defaults describe, not CI's short one."""
    nb = json.loads((ROOT / "notebooks" / "training.ipynb").read_text(encoding="utf-8"))
    params = next(c for c in nb["cells"] if c["cell_type"] == "code")
    source = "".join(params["source"])
    steps = int(re.search(r'"HOSTWCG_TRAIN_STEPS", ([\d_]+)\)', source).group(1).replace("_", ""))  # type: ignore[union-attr]
    printed = "".join(o.get("text", "") if isinstance(o.get("text"), str) else "".join(o.get("text", []))
                      for o in params["outputs"])
    assert f"{steps:,} training steps" in printed
    assert int(QUICK["HOSTWCG_TRAIN_STEPS"]) < steps


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    if path.stem == "training":
        pytest.importorskip("sb3_contrib")
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the kernel's temporary files land here
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    for k, v in QUICK.items():
        monkeypatch.setenv(k, v)
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    # every code cell ran and produced something
    assert all(c.get("execution_count") for c in nb.cells if c.cell_type == "code")
