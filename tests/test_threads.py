"""The agents' numpy inference runs on one BLAS thread unless HOSTWCG_BLAS_THREADS says
otherwise (hostwcg_env/threads.py), and the ladder reports the machine's load beside its times."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hostwcg_env.analysis.ladder import run_ladder

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("threadpoolctl")


def _blas_threads(code: str, **env: str) -> list[int]:
    """Run ``code`` in a fresh interpreter (BLAS limits are per process) with ``env`` set and the
    BLAS variables cleared, then return the thread counts of the BLAS libraries it has loaded."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("HOSTWCG_BLAS_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                          "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "OMP_NUM_THREADS")}
    clean["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    tail = ("\nimport json, threadpoolctl\n"
            "print(json.dumps([i['num_threads'] for i in threadpoolctl.threadpool_info() "
            "if i['user_api'] == 'blas']))")
    out = subprocess.run([sys.executable, "-c", code + tail], env={**clean, **env}, capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


BUILD_V1 = "from agents.set_agent import DEFAULT_V1, SetPolicyAgent\nSetPolicyAgent(DEFAULT_V1)"
BUILD_V0 = "from agents import make_agent\nmake_agent('ppo')"


def test_numpy_default_uses_more_than_one_blas_thread_here() -> None:
    """The premise: without the limit numpy's BLAS takes every core (where there are several)."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: BLAS starts one thread anyway")
    assert max(_blas_threads("import numpy")) > 1


@pytest.mark.parametrize("build", [BUILD_V1, BUILD_V0], ids=["ppo_v1", "ppo"])
def test_policies_run_numpy_on_one_blas_thread(build: str) -> None:
    assert set(_blas_threads(build)) == {1}


def test_blas_threads_follow_the_environment_variable() -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: BLAS starts one thread anyway")
    assert set(_blas_threads(BUILD_V1, HOSTWCG_BLAS_THREADS="2")) == {2}
    # 0: numpy's own default is left as it was
    assert _blas_threads(BUILD_V1, HOSTWCG_BLAS_THREADS="0") == _blas_threads("import numpy")


def test_the_command_limits_its_process_and_the_processes_it_starts() -> None:
    """``hostwcg`` limits its own numpy and sets the BLAS variables, so a worker it starts loads
    numpy with one thread, without threadpoolctl."""
    code = ("from hostwcg_env.threads import configure_blas_env\nconfigure_blas_env()\n"
            "import os, subprocess, sys\nassert os.environ['OPENBLAS_NUM_THREADS'] == '1'\n"
            "child = subprocess.run([sys.executable, '-c', 'import numpy, threadpoolctl; print(max(i[\"num_threads\"] "
            "for i in threadpoolctl.threadpool_info() if i[\"user_api\"] == \"blas\"))'], capture_output=True, "
            "text=True, check=True)\nassert child.stdout.strip() == '1', child.stdout")
    assert set(_blas_threads(code)) == {1}


@pytest.mark.parametrize("value", ["two", "-1"])
def test_a_bad_thread_count_is_one_line_naming_the_variable(value: str) -> None:
    out = subprocess.run([sys.executable, "-m", "hostwcg_env", "evaluate", "--agents", "random,random",
                          "--games", "1", "--quiet"], env={**os.environ, "HOSTWCG_BLAS_THREADS": value,
                                                            "PYTHONPATH": str(ROOT)},
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        f"hostwcg: HOSTWCG_BLAS_THREADS={value!r}: give a whole number of BLAS threads (1 by default; "
        "0 leaves numpy's own default)"]


def test_ladder_reports_the_machine_load_beside_its_times() -> None:
    result = run_ladder(["random", "heuristic"], games=2, quiet=True)
    assert result.load is not None and all(x >= 0 for x in result.load)
    report = result.markdown()
    assert f"1-minute load average, os.getloadavg): {result.load[0]:.2f} at the start" in report
    assert report.index("ms per choice") < report.index("load average")


def test_the_blas_benchmark_measures_both_configurations(capsys: pytest.CaptureFixture[str]) -> None:
    from hostwcg_env.testing import bench_blas as bench

    result = bench.measure(batch=2, seconds=0.1, repeat=2)
    assert 1 in result and all(k >= 2 and wall > 0 and cpu >= 0 for wall, cpu, k in result.values())
    assert bench.main(["--batch", "2", "--seconds", "0.1", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ppo_v1 forward, batch 2, without a busy loop; load average ")
    assert "  1 BLAS thread: " in out
