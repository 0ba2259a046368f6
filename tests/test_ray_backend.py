"""The Ray backend against a real local Ray cluster (``ray.init(num_cpus=2)``): the same study
gives the same records as in this process. Skipped only where Ray is not installed (CI
installs it with the dev extra)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.analysis import Study, read_records, run_study
from hostwcg_env.analysis.backends import BackendError, RayBackend, make_backend
from hostwcg_env.analysis.records import timeless


def _strip(recs: list[dict]) -> list[dict]:
    return [timeless(r) for r in recs]  # the wall times differ


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(BackendError, match=r"hostwcg\[distributed\]"):
        make_backend("ray")


@pytest.mark.slow
def test_ray_cluster_gives_the_same_records(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    study = Study.make(decks=["brae", "karsh", "lior"], games=2, seed=7)  # 6 games
    local = run_study(study, workers=1, quiet=True)
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR", configure_logging=False)
    try:
        backend = RayBackend(batch=2)  # uses the running cluster, leaves it running
        assert backend.cpus() == 2
        res = run_study(study, out=tmp_path, backend=backend, quiet=True)
        assert ray.is_initialized()
        backend.close()
    finally:
        ray.shutdown()
    assert _strip(res.records) == _strip(local.records)
    assert res.tables == local.tables
    assert len(read_records(tmp_path)) == 6
