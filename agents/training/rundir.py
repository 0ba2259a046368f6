"""A training run's directory and a stage's clock (docs/training.md, "The run directory"): what
the stage runner (``agents.training.pipeline``) and the league's exploiters
(``agents.training.exploiters``) share, below both.

:class:`RunDir` holds a run's paths and its ``state.json``; :class:`StageContext` is what a stage
function gets: its folder, its clock and budget (saved every ``CLOCK_EVERY_S`` seconds, so a killed
stage keeps the time it spent), a progress bar and TensorBoard. :func:`play_and_score` plays a
run's network against an opponent and scores it with a Wilson 95% interval.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agents.training.recipe import Recipe, Stage

CLOCK_EVERY_S = 2.0  # how often the stage clock is saved (and the progress bar moved)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: never half written."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def git_commit(root: Path) -> str | None:
    """The checkout's commit (with ``+dirty`` for uncommitted changes), or None outside git."""
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "")


def versions() -> dict[str, str | None]:
    import numpy as np

    import hostwcg_env
    from hostwcg_env.analysis.records import code_version

    out: dict[str, str | None] = {"hostwcg": hostwcg_env.__version__, "code_version": code_version(),
                                  "python": platform.python_version(), "numpy": np.__version__}
    for mod in ("torch", "stable_baselines3", "sb3_contrib"):
        try:
            out[mod] = __import__(mod).__version__
        except ImportError:
            out[mod] = None
    return out


def machine() -> dict[str, Any]:
    return {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(), "load_1min": _load()}


# ---------------------------------------------------------------------------- the run directory
class RunDir:
    """A run directory's paths and its state.json (guarded by a lock: the clock thread writes it too)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lock = threading.Lock()
        self.state = _json(root / "state.json") or {"stages": {}, "sessions": []}

    def stage_dir(self, stage: Stage) -> Path:
        return self.root / "stages" / stage.name

    def done(self, stage: Stage) -> dict[str, Any] | None:
        marker = self.stage_dir(stage) / "DONE.json"
        return _json(marker) if marker.is_file() else None

    def stage_state(self, stage: Stage) -> dict[str, Any]:
        return self.state["stages"].setdefault(stage.name, {"kind": stage.kind, "status": "pending",
                                                             "elapsed_s": 0.0, "sessions": 0})

    def save(self) -> None:
        with self.lock:
            write_atomic(self.root / "state.json", json.dumps(self.state, indent=1) + "\n")


class StageContext:
    """What a stage function gets: its folder, its clock and budget, a progress bar and TensorBoard."""

    def __init__(self, run: RunDir, recipe: Recipe, stage: Stage, model: dict[str, str] | None,
                 quiet: bool = False) -> None:
        self.run, self.recipe, self.stage, self.model, self.quiet = run, recipe, stage, model, quiet
        self.dir = run.stage_dir(stage)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.st = run.stage_state(stage)
        self.budget_s = 60.0 * stage.minutes
        self._base = float(self.st.get("elapsed_s", 0.0))
        self._t0 = time.time()
        self._paused = 0.0  # seconds of this session spent in measure(): not charged to the budget
        self._pause_start: float | None = None
        self._stop = threading.Event()
        self._writer: Any = None
        self._bar: Any = None
        self.seed = recipe.seed + 1_000_003 * stage.index

    # the clock
    def elapsed(self) -> float:
        """Seconds of the budget spent (every session's, the learning curve's games left out)."""
        now = time.time()
        held = now - self._pause_start if self._pause_start is not None else 0.0
        return self._base + now - self._t0 - self._paused - held

    @contextlib.contextmanager
    def measure(self) -> Iterator[None]:
        """Games that measure the network (the learning curve): their time is recorded in
        ``measure_s`` and not charged to the stage's budget."""
        self._pause_start = time.time()
        try:
            yield
        finally:
            spent = time.time() - self._pause_start
            self._paused += spent
            self._pause_start = None
            self.st["measure_s"] = round(float(self.st.get("measure_s", 0.0)) + spent, 3)

    def left(self, until: float = 1.0) -> float:
        """Seconds left before ``until`` (a share of the budget) is spent."""
        return until * self.budget_s - self.elapsed()

    def restart_clock(self) -> None:
        """A stage that starts again from nothing gets its whole budget again (the lost time is recorded)."""
        self.st["lost_s"] = round(float(self.st.get("lost_s", 0.0)) + self._base, 1)
        self._base = 0.0
        self._t0 = time.time()
        self._paused = 0.0

    def _tick(self) -> None:
        while not self._stop.wait(CLOCK_EVERY_S):
            self.st["elapsed_s"] = round(self.elapsed(), 1)
            self.run.save()
            if self._bar is not None:
                self._bar.n = min(self.budget_s, self.elapsed())
                self._bar.refresh()

    def __enter__(self) -> StageContext:
        from tqdm import tqdm

        self.st["status"] = "running"
        self.st["sessions"] = int(self.st.get("sessions", 0)) + 1
        self.st.setdefault("started", _now())
        self.run.save()
        self._bar = tqdm(total=round(self.budget_s), initial=min(self.budget_s, self._base), unit="s",
                         desc=f"{self.stage.name} ({self.stage.minutes:g} min)", disable=self.quiet,
                         file=sys.stderr, dynamic_ncols=True,
                         bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} s "
                                    "[{elapsed}<{remaining}]{postfix}")
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        self.st["elapsed_s"] = round(self.elapsed(), 1)
        if self._bar is not None:
            self._bar.n = min(self.budget_s, self.elapsed())
            self._bar.close()
        if self._writer is not None:
            self._writer.close()
        self.run.save()

    def note(self, text: str) -> None:
        """A short status beside the progress bar."""
        if self._bar is not None:
            self._bar.set_postfix_str(text, refresh=False)

    def scalar(self, tag: str, value: float, step: int) -> None:
        """A scalar in TensorBoard (RUN/tb/STAGE)."""
        if self._writer is None:
            from torch.utils.tensorboard import SummaryWriter

            self._writer = SummaryWriter(str(self.run.root / "tb" / self.stage.name))
        self._writer.add_scalar(tag, float(value), step)
        self._writer.flush()

    def finish(self, outputs: dict[str, str], facts: dict[str, Any]) -> dict[str, Any]:
        done = {"stage": self.stage.name, "kind": self.stage.kind, "outputs": outputs, "facts": facts,
                "elapsed_s": round(self.elapsed(), 1), "finished": _now()}
        write_atomic(self.dir / "DONE.json", json.dumps(done, indent=1) + "\n")
        self.st.update(status="done", finished=done["finished"], outputs=outputs)
        return done


# ---------------------------------------------------------------------------- evaluation
def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:60]


def policy_agent(npz: str) -> str:
    """The agent name that plays a run's network, guarded as the shipped ``ppo_v1`` plays."""
    return f"ppo_v1:{Path(npz).resolve()}"


def play_and_score(npz: str, opponent: str, games: int, seed: int, results: Path, decks: list[Any],
                   workers: int = 1, quiet: bool = True, check: bool = False) -> dict[str, Any]:
    """Seat-swapped games of the network against ``opponent`` kept in ``results`` (resumed from
    it), and the network's score with its Wilson 95% interval (draws count half). ``check``: the
    network checked by the search (``ppo_v1:PATH:look``, agents/set_search.py) plays instead."""
    from hostwcg_env.analysis.ladder import run_ladder
    from hostwcg_env.analysis.recordfile import iter_records
    from hostwcg_env.analysis.stats import wilson

    me = policy_agent(npz) + (":look" if check else "")
    run_ladder([me, opponent], games, workers=workers, seed=seed, quiet=quiet, results=results, decks=decks,
               keep_records=False)
    won = 0.0
    n = 0
    for rec in iter_records(results, warn=False):
        if me not in rec["agents"]:
            continue
        n += 1
        w = rec.get("winner")
        won += 0.5 if w is None else float(rec["agents"][w] == me)
    p, lo, hi = wilson(won, n)
    return {"games": n, "won": won, "win_rate": p, "ci95": [lo, hi], "results": str(results)}
