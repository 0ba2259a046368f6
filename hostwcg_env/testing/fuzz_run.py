"""The random-play fuzz at scale: N seeded games spread over every ordered deck pair and every
RuleConfig flag off its default, each checked after every action by the invariants of
``hostwcg_env.testing.fuzz``, every 50th game replayed and cloned.

    python scripts/fuzz.py --games 5000 --workers 2 --out runs/fuzz.json

Game i plays variant i mod V on deck pair (i div V) mod P with seed i, so every variant meets
many pairs and the same arguments play the same games. Prints one line per variant (games,
how they ended, failures) and exits non-zero if any game broke an invariant or raised; the
failures name the decks, seed, turn and the last actions. The test suite plays a few games of
each variant (tests/test_fuzz_flags.py); this is the nightly run.

``scripts/fuzz.py`` is the command line; ``run`` plays the games and returns the summary it
prints and writes (``--out``).
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hostwcg_env.testing.fuzz import PAIRS, flag_variants, run_chunk

VARIANTS = flag_variants()


def play_one(i: int) -> tuple[int, str, str | None]:
    """Game i: (variant index, how it ended, the failure or None)."""
    v = i % len(VARIANTS)
    a, b = PAIRS[(i // len(VARIANTS)) % len(PAIRS)]
    try:
        reasons = run_chunk(a, b, range(i, i + 1), cfg=VARIANTS[v][1], sample_every=50)
    except Exception as exc:  # a broken invariant is an AssertionError; report every kind
        return v, "failed", f"{VARIANTS[v][0]}: {a} vs {b} seed {i}: {type(exc).__name__}: {exc}"
    return v, str(next(iter(reasons))), None  # the reason's value (an EndReason is a StrEnum)


def run(games: int, start: int = 0, workers: int = 2,
        on_failure: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play games ``start`` to ``start + games - 1`` on ``workers`` processes. Returns the
    summary: ``games`` played, ``start``, ``workers``, ``wall_s``, the ``failures`` (one line
    each, also passed to ``on_failure`` as they come) and a row per variant (``variant``,
    ``games``, ``deck_pairs`` met, ``ends``: how many games ended each way)."""
    t0 = time.perf_counter()
    ends: dict[int, Counter[str]] = defaultdict(Counter)
    pairs: dict[int, set[int]] = defaultdict(set)
    failures: list[str] = []
    indices = range(start, start + games)
    with ProcessPoolExecutor(workers) as pool:
        for i, (v, end, failure) in zip(indices, pool.map(play_one, indices, chunksize=8), strict=True):
            ends[v][end] += 1
            pairs[v].add((i // len(VARIANTS)) % len(PAIRS))
            if failure:
                failures.append(failure)
                if on_failure is not None:
                    on_failure(failure)
    wall = time.perf_counter() - t0
    rows = [{"variant": label, "games": sum(ends[v].values()), "deck_pairs": len(pairs[v]),
             "ends": dict(sorted(ends[v].items()))} for v, (label, _cfg) in enumerate(VARIANTS)]
    return {"games": sum(r["games"] for r in rows), "start": start, "workers": workers,
            "wall_s": round(wall, 1), "failures": failures, "variants": rows}
