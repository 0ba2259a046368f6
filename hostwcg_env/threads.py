"""One BLAS thread for the agents' numpy inference, unless asked otherwise.

The learned agents (``ppo``, ``ppo_v1``, ``ppo_v1:look``) run small matrix products a choice.
numpy's BLAS (OpenBLAS in the numpy wheels) splits each one over every core by default; on a
busy machine those threads wait for each other and for the other processes: a batched forward
of 32 observations took 10 to 15 times as long on two threads as on one (one observation at a
time was the same either way; ``docs/benchmarks.md``, "Inference under load"). So every policy
limits numpy's BLAS to ``HOSTWCG_BLAS_THREADS`` threads (1 unless the environment variable says
otherwise; ``0`` leaves numpy's own default) when it is built (``limit_blas_threads``, with
``threadpoolctl``), and the ``hostwcg`` command sets the same limit in its own process and in the
BLAS libraries' variables (``configure_blas_env``), so the worker processes it starts load numpy
with it too. Only BLAS is limited: OpenMP (torch's training threads) is not.
"""

from __future__ import annotations

import os
import sys

ENV = "HOSTWCG_BLAS_THREADS"
DEFAULT_THREADS = 1
# the variables the BLAS builds numpy ships with (or links) read when they load
BLAS_ENV = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")

_applied: int | None = None  # the limit applied in this process (limit_blas_threads)


def blas_threads() -> int:
    """The BLAS threads the agents run numpy with: ``HOSTWCG_BLAS_THREADS`` (1 when unset;
    0: numpy's own default, every core). A value that is not a whole number of 0 or more
    is refused with a ValueError naming the variable."""
    text = os.environ.get(ENV, "").strip()
    if not text:
        return DEFAULT_THREADS
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise ValueError(f"{ENV}={text!r}: give a whole number of BLAS threads (1 by default; "
                         "0 leaves numpy's own default)")
    return n


def configure_blas_env() -> int:
    """The ``hostwcg`` command's setting: the BLAS libraries' thread variables (``BLAS_ENV``) set
    to ``blas_threads()`` where they are unset, so the processes it starts load numpy with that
    many threads, and this process's numpy limited to as many (``limit_blas_threads``) where it
    is loaded already. Returns the limit (0: nothing set)."""
    n = blas_threads()
    if n:
        for var in BLAS_ENV:
            os.environ.setdefault(var, str(n))
        if "numpy" in sys.modules:
            limit_blas_threads()
    return n


def limit_blas_threads() -> int:
    """Limit numpy's BLAS to ``blas_threads()`` threads in this process (once; a later call
    does nothing unless the variable changed). Returns the limit (0: left as it was)."""
    global _applied
    n = blas_threads()
    if n == _applied:
        return n
    if n:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=n, user_api="blas")
    _applied = n
    return n


__all__ = ["BLAS_ENV", "DEFAULT_THREADS", "ENV", "blas_threads", "configure_blas_env", "limit_blas_threads"]
