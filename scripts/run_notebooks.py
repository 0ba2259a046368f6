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
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def execute(path: Path, timeout: int, workdir: Path, kernel: str = "python3") -> Any:
    """The notebook at ``path`` executed (raises nbclient's CellExecutionError on a failing cell)."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=timeout, kernel_name=kernel,
                                     resources={"metadata": {"path": str(workdir)}})
    client.execute()
    return nb


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("notebooks", nargs="*", type=Path, help="default: every notebooks/*.ipynb")
    p.add_argument("--timeout", type=int, default=1800, help="seconds a cell may take (default 1800)")
    args = p.parse_args(argv)
    try:
        import nbclient  # noqa: F401
        import nbformat
    except ImportError:
        print("run_notebooks: needs nbclient, nbformat and ipykernel (pip install -e '.[notebooks]')",
              file=sys.stderr)
        return 2
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    # figures shown in their cell whatever MPLBACKEND says outside (tests/test_notebooks.py too)
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    failed = 0
    for path in paths:
        t0 = time.time()
        with tempfile.TemporaryDirectory(prefix="hostwcg-nb-") as work:
            try:
                nb = execute(path, args.timeout, Path(work))
            except Exception as e:  # a failing cell: say which notebook, keep the stored copy
                failed += 1
                print(f"FAIL {path}: {type(e).__name__}: {str(e)[:2000]}", file=sys.stderr)
                continue
        nbformat.write(nb, path)
        print(f"ok {path} ({time.time() - t0:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
