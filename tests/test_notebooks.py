"""The notebooks are stored executed, with their outputs (``make notebooks`` refreshes them:
scripts/run_notebooks.py), and run from top to bottom without an error (executed again with
nbclient; the training notebook with fewer steps, through its parameter cell's environment
variables). The stored outputs are those of the current code: executed again, every cell's
text (printed, returned, Markdown and HTML) is the stored one, once times, temporary paths and
object addresses are masked; the training notebook's cells after its parameters are seeded but
run with fewer steps in CI, so only the cell before the training is compared there. Skipped
only where nbclient or ipykernel (or, for training, sb3-contrib) is not installed (CI installs
them with the dev and train extras; the notebooks extra installs Jupyter and what the notebooks
import but training's torch)."""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
INLINE = "module://matplotlib_inline.backend_inline"  # the backend scripts/run_notebooks.py sets
QUICK = {"HOSTWCG_TRAIN_STEPS": "1024", "HOSTWCG_EVAL_GAMES": "2"}  # training.ipynb's parameters
# the code cells (by position) whose outputs CI's short run does not change, per notebook;
# absent: every cell
COMPARED = {"training": {1}}
TEXT = ("text/plain", "text/markdown", "text/html")
# what differs between two runs of the same code: a time, a temporary path, an object's address
MASKS = [
    (re.compile(r"0x[0-9a-f]+"), "0x?"),
    (re.compile(r"/tmp/[\w./-]+"), "/tmp/?"),
    (re.compile(r"\d[\d,]*(\.\d+)? s\b"), "? s"),
    # the ladder's time per choice: the last two columns of its choices table
    (re.compile(r"^(\| [^|]+ \| [\d,]+ \|) [\d.]+ \| [\d.]+ \|$", re.M), r"\1 ? | ? |"),
    # the machine's load while the ladder played
    (re.compile(r"^(Machine load while playing.*?:).*$", re.M), r"\1 ?"),
]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "".join(value)


def shown(cell: Any) -> list[str]:
    """What a code cell shows as text, masked: its printed streams and its results' text forms
    (images aside: their bytes depend on the plotting library's version)."""
    out: list[str] = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":  # a stream comes in chunks that differ run to run
            head = f"{o['name']}: "
            if out and out[-1].startswith(head):
                out[-1] += _text(o["text"])
            else:
                out.append(head + _text(o["text"]))
        for mime in TEXT:
            if mime in o.get("data", {}):
                out.append(f"{mime}: {_text(o['data'][mime])}")
    masked = []
    for text in out:
        for pattern, repl in MASKS:
            text = pattern.sub(repl, text)
        masked.append(text)
    return masked


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
    monkeypatch.setenv("MPLBACKEND", INLINE)  # figures shown in the cell, as run_notebooks.py runs it
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
    # and showed what the stored copy shows
    stored = [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
    now = [c for c in nb.cells if c.cell_type == "code"]
    compared = COMPARED.get(path.stem, set(range(len(now))))
    stale = [i for i in sorted(compared) if shown(stored[i]) != shown(now[i])]
    diff = [] if not stale else list(difflib.unified_diff(
        "\n".join(shown(stored[stale[0]])).splitlines(), "\n".join(shown(now[stale[0]])).splitlines(),
        "stored", "now", lineterm="", n=0))
    assert not stale, (f"{path.name}: code cells {stale} show other outputs than stored; run "
                       f"'python scripts/run_notebooks.py {path.relative_to(ROOT)}'\n" + "\n".join(diff[:40]))


def test_the_quickstart_shows_the_ladder_s_interval() -> None:
    """The quickstart's ladder shows a 95% interval around each rating, not one value twice."""
    nb = json.loads((ROOT / "notebooks" / "quickstart.ipynb").read_text(encoding="utf-8"))
    tables = [t for c in nb["cells"] if c["cell_type"] == "code" for t in shown(c) if "| rating" in t]
    assert tables
    rows = re.findall(r"^\| (\w+) \| (\d+) \| (\d+) - (\d+) \|", tables[0], flags=re.M)
    assert {r[0] for r in rows} == {"random", "heuristic"}
    assert all(int(low) < int(rating) < int(high) for _, rating, low, high in rows), rows


def test_the_notebooks_extra_installs_jupyter_and_what_the_notebooks_import() -> None:
    """pip install -e '.[notebooks]' runs quickstart and balance (training needs '.[train]' too)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    names = {re.split(r"[<>=\[ ]", r, maxsplit=1)[0].lower() for r in extras["notebooks"]}
    assert {"jupyter", "nbclient", "nbformat", "ipykernel"} <= names
    analysis = {re.split(r"[<>=\[ ]", r, maxsplit=1)[0].lower() for r in extras["analysis"]}
    assert "hostwcg[analysis]" in extras["notebooks"] or analysis <= names
