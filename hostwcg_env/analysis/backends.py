"""Where games are played: in this process, in a multiprocessing pool, or on a Ray cluster.

Every backend maps the game runner (``runner.run_game``) over game specs and yields the
records as they finish (in any order); since a game is a pure function of its spec, the records
are the same on every backend (tested). The ladder and balance studies both play through them.
Ray is optional (``pip install 'hostwcg[distributed]'``) and imported only when the Ray backend
is made.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .records import Record
from .runner import GameSpec, run_game

if TYPE_CHECKING:
    from multiprocessing.pool import Pool
    from types import ModuleType

RayRef = Any  # ray.ObjectRef: Ray's handles are untyped to mypy (an optional extra)


class Backend(Protocol):
    """What plays a study's games: records as games finish, in any order (make_backend)."""

    name: str

    def imap_unordered(self, specs: Sequence[GameSpec]) -> Iterator[Record]: ...

    def close(self) -> None: ...


class BackendError(RuntimeError):
    pass


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


_sigterm = threading.Event()  # set by SIGTERM within ``sigterm_unwinds``


def _exit_on_sigterm(signum: int, frame: object) -> None:
    _sigterm.set()
    raise SystemExit(128 + signum)


def _stop_if_terminated(records: Iterator[Record]) -> Iterator[Record]:
    """The records, unwinding after the one in hand once SIGTERM has come. The handler's
    ``SystemExit`` normally unwinds at once; but Python swallows an exception raised where it
    cannot propagate (a finaliser, a weak reference's callback inside an import, with only
    "Exception ignored" printed), and the run would then play on: here it stops all the same."""
    if _sigterm.is_set():
        raise SystemExit(128 + signal.SIGTERM)
    for rec in records:
        yield rec
        if _sigterm.is_set():
            raise SystemExit(128 + signal.SIGTERM)


@contextlib.contextmanager
def sigterm_unwinds() -> Iterator[None]:
    """Within the block, SIGTERM (``kill``, a job scheduler) unwinds like Ctrl-C: ``finally``
    blocks run, so a pool stops its workers instead of leaving them playing on as orphans and
    the records file is closed; the process then exits with status 143. Where Python swallows
    the handler's exception (raised inside a finaliser), the run stops after the game in hand
    (``_stop_if_terminated``) without printing it. (In the main thread only: elsewhere signals
    cannot be handled.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _sigterm.clear()
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
    previous_hook = sys.unraisablehook

    # the run stops all the same (_stop_if_terminated)
    def quiet_when_swallowed(unraisable: sys.UnraisableHookArgs) -> None:
        if not (isinstance(unraisable.exc_value, SystemExit) and _sigterm.is_set()):
            previous_hook(unraisable)

    sys.unraisablehook = quiet_when_swallowed
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        sys.unraisablehook = previous_hook
        _sigterm.clear()


class SerialBackend:
    name = "serial"

    def imap_unordered(self, specs: Sequence[GameSpec]) -> Iterator[Record]:
        yield from _stop_if_terminated(run_game(s) for s in specs)

    def close(self) -> None:
        pass

    def __enter__(self) -> SerialBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _die_with_parent() -> None:
    """Pool initializer: on Linux a worker is sent SIGTERM when the process that started it
    dies, even by SIGKILL, rather than playing its game on as an orphan (only the parent writes
    records, so nothing is lost either way)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent was gone before the request
            os._exit(0)


def _init_worker(paths: list[str]) -> None:
    """Pool initializer: stop with the parent, and import this project whatever the working
    folder holds (hostwcg_env/workers.py)."""
    from hostwcg_env.workers import project_first

    _die_with_parent()
    project_first(paths)


class ProcessBackend(SerialBackend):
    """A ``multiprocessing`` pool (spawn) of ``workers`` processes, kept across calls."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: Pool | None = None

    def imap_unordered(self, specs: Sequence[GameSpec]) -> Iterator[Record]:
        if self._pool is None:
            from multiprocessing import get_context

            from hostwcg_env.workers import project_paths

            self._pool = get_context("spawn").Pool(self.workers, initializer=_init_worker,
                                                   initargs=(project_paths(),))
        yield from _stop_if_terminated(self._pool.imap_unordered(run_game, specs, chunksize=1))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def _play_batch(specs: list[GameSpec]) -> list[Record]:
    return [run_game(s) for s in specs]


def import_ray() -> ModuleType:
    try:
        import ray
    except ImportError as e:
        raise BackendError("the ray backend needs Ray, an optional extra: "
                           "pip install 'hostwcg[distributed]'  (or: pip install 'ray[default]')") from e
    return ray


class RayBackend(SerialBackend):
    """Games as Ray tasks, ``batch`` games a task, at most ``2 x CPUs`` tasks in flight.

    ``address``: a running cluster (``"auto"``, ``"ray://head:10001"``, ``"10.0.0.5:6379"``);
    none starts a local one with ``num_cpus``. If Ray is already initialised in this process
    (a notebook, a test), that session is used and left running. ``ship_code`` uploads this
    checkout's ``hostwcg_env`` and ``agents`` packages to the cluster's workers (a runtime
    env), for clusters where hostwcg is not installed.
    """

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None,
                 ship_code: bool = False, batch: int = 4) -> None:
        ray = import_ray()
        self.ray = ray
        self.batch = max(1, batch)
        self._own = False
        if not ray.is_initialized():
            kw: dict[str, object] = {"ignore_reinit_error": True, "logging_level": "WARNING"}
            shipped: dict[str, object] | None = None
            if ship_code:
                import agents
                import hostwcg_env

                shipped = {"py_modules": [hostwcg_env, agents]}
            from hostwcg_env.workers import ray_runtime_env

            kw["runtime_env"] = ray_runtime_env(shipped)  # whatever the working folder holds
            if address:
                kw["address"] = address
            else:  # "local": a new instance even where `ray start` left one running
                kw.update(address="local", num_cpus=num_cpus or default_workers(), include_dashboard=False)
            ray.init(**kw)
            self._own = True
        self._remote = ray.remote(_play_batch)

    def cpus(self) -> int:
        try:
            return max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        except Exception:  # noqa: BLE001  (a client connection may not expose resources)
            return default_workers()

    def imap_unordered(self, specs: Sequence[GameSpec]) -> Iterator[Record]:
        ray = self.ray
        batches = [list(specs[i : i + self.batch]) for i in range(0, len(specs), self.batch)]
        batches.reverse()
        limit = 2 * self.cpus()
        inflight: list[RayRef] = []
        try:
            while batches or inflight:
                while batches and len(inflight) < limit:
                    inflight.append(self._remote.remote(batches.pop()))
                done, inflight = ray.wait(inflight, num_returns=1)
                yield from _stop_if_terminated(iter(ray.get(done[0])))
        finally:
            for ref in inflight:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._own:
            self.ray.shutdown()
            self._own = False


def make_backend(name: str = "local", workers: int | None = None, address: str | None = None,
                 ship_code: bool = False) -> SerialBackend:
    """``"local"`` (a pool of ``workers``; in-process when 1), ``"serial"``, or ``"ray"``."""
    if name in ("local", "multiprocessing", "mp"):
        w = workers or default_workers()
        return SerialBackend() if w <= 1 else ProcessBackend(w)
    if name == "serial":
        return SerialBackend()
    if name == "ray":
        return RayBackend(address=address, num_cpus=workers, ship_code=ship_code)
    raise BackendError(f"unknown backend {name!r} (local, serial, ray)")
