"""Execute the notebooks in place, so that they are stored with their outputs (``make notebooks``).

    python scripts/run_notebooks.py                      # every notebooks/*.ipynb
    python scripts/run_notebooks.py notebooks/training.ipynb --timeout 1800

Each notebook runs from top to bottom in a fresh kernel (nbclient) whose working directory is
a temporary folder (files a notebook writes do not land in the repository) and which imports
this checkout's code (``PYTHONPATH``); the executed notebook, outputs included, replaces the
file. A cell that fails stops that notebook with its error and leaves the file as it was.
Run it after a change that alters what a notebook shows (the board's HTML, a table, the
training); CI executes them again (``tests/test_notebooks.py``) and checks the stored copies
were executed (``tests/test_notebooks.py::test_notebooks_are_stored_executed``).

``scripts/run_notebooks.py`` is the command line; ``run`` executes and stores the notebooks.
Needs the ``notebooks`` extra (nbclient, nbformat, ipykernel), imported where used.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout


def execute(path: Path, timeout: int, workdir: Path, kernel: str = "python3") -> Any:
    """The notebook at ``path`` executed (raises nbclient's CellExecutionError on a failing cell)."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=timeout, kernel_name=kernel,
                                     resources={"metadata": {"path": str(workdir)}})
    client.execute()
    return nb


def run(paths: list[Path], timeout: int = 1800) -> int:
    """Execute each notebook (every ``notebooks/*.ipynb`` of the checkout when ``paths`` is
    empty) and store it with its outputs, printing a line per notebook; returns how many failed
    (their files are left as they were)."""
    import nbformat

    paths = paths or sorted((ROOT / "notebooks").glob("*.ipynb"))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    # figures shown in their cell whatever MPLBACKEND says outside (tests/test_notebooks.py too)
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    failed = 0
    for path in paths:
        t0 = time.time()
        with tempfile.TemporaryDirectory(prefix="hostwcg-nb-") as work:
            try:
                nb = execute(path, timeout, Path(work))
            except Exception as e:  # a failing cell: say which notebook, keep the stored copy
                failed += 1
                print(f"FAIL {path}: {type(e).__name__}: {str(e)[:2000]}", file=sys.stderr)
                continue
        nbformat.write(nb, path)
        print(f"ok {path} ({time.time() - t0:.0f} s)")
    return failed
