"""Execute the notebooks in place, so that they are stored with their outputs (``make notebooks``).

    python scripts/run_notebooks.py                      # every notebooks/*.ipynb
    python scripts/run_notebooks.py notebooks/training.ipynb --timeout 1800

The command-line front end of ``hostwcg_env.testing.notebooks``, which says how each notebook
runs; CI executes them again (``tests/test_notebooks.py``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hostwcg_env.testing.notebooks import run


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("notebooks", nargs="*", type=Path, help="default: every notebooks/*.ipynb")
    p.add_argument("--timeout", type=int, default=1800, help="seconds a cell may take (default 1800)")
    args = p.parse_args(argv)
    try:
        import nbclient  # noqa: F401
        import nbformat  # noqa: F401
    except ImportError:
        print("run_notebooks: needs nbclient, nbformat and ipykernel (pip install -e '.[notebooks]')",
              file=sys.stderr)
        return 2
    return 1 if run(args.notebooks, args.timeout) else 0


if __name__ == "__main__":
    raise SystemExit(main())
