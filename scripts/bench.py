"""Engine speed on one core (README.md "Speed"): benchmarked here, never timed in tests.

    python scripts/bench.py [--games N] [--seed S] [--repeats R] [--json] [--only NAME...]

Every benchmark is a function ``(BenchConfig) -> (name, value, unit)`` listed in BENCHMARKS;
each runs ``--repeats`` times and the median is reported. To add a row (the AEC env, peer
environments), write one more such function and append it to BENCHMARKS.

Games are played by a uniform random policy over the legal actions (one seeded
``random.Random`` per game) on the two shipped test decks.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import hostwcg_env  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import hostwcg_env  # noqa: F401

from hostwcg_env.cards.decks import DECKS_DIR, Deck, load_deck
from hostwcg_env.engine import Game, RuleConfig

Row = tuple[str, float, str]


@dataclass
class BenchConfig:
    games: int = 50
    seed: int = 0
    clone_every: int = 10  # snapshot every Nth decision for the clone() benchmark
    clone_max: int = 500  # at most this many snapshots


_DECKS: tuple[Deck, Deck] | None = None


def decks() -> tuple[Deck, Deck]:
    global _DECKS
    if _DECKS is None:
        _DECKS = (load_deck(DECKS_DIR / "test_authority.toml"),
                  load_deck(DECKS_DIR / "test_strife.toml"))
    return _DECKS


def new_game(seed: int) -> Game:
    a, b = decks()
    return Game.new(a, b, config=RuleConfig(), seed=seed)


def play_random(game: Game, rng: random.Random) -> int:
    """Play to the end with uniform random legal actions; returns the number of decisions."""
    n = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


# ============================================================================ benchmarks


def bench_engine_decisions(cfg: BenchConfig) -> Row:
    """Random-legal-action throughput of the engine alone (legal_actions + apply)."""
    decisions = 0
    elapsed = 0.0
    for i in range(cfg.games):
        game = new_game(cfg.seed + i)
        rng = random.Random(cfg.seed + i)
        t0 = time.perf_counter()
        decisions += play_random(game, rng)
        elapsed += time.perf_counter() - t0
    return "engine: random decisions", decisions / elapsed, "decisions/s"


def bench_engine_games(cfg: BenchConfig) -> Row:
    """Full games per second: setup (9.1) included, random play to the end."""
    t0 = time.perf_counter()
    for i in range(cfg.games):
        play_random(new_game(cfg.seed + i), random.Random(cfg.seed + i))
    return "engine: full random games", cfg.games / (time.perf_counter() - t0), "games/s"


def bench_engine_new(cfg: BenchConfig) -> Row:
    """Game.new: deal, roll and mulligan decisions up to the first decision (the env's reset)."""
    t0 = time.perf_counter()
    for i in range(cfg.games):
        new_game(cfg.seed + i)
    return "engine: Game.new (reset)", cfg.games / (time.perf_counter() - t0), "games/s"


def _snapshots(cfg: BenchConfig) -> list[Game]:
    out: list[Game] = []
    for i in range(cfg.games):
        game = new_game(cfg.seed + i)
        rng = random.Random(cfg.seed + i)
        n = 0
        while not game.is_over and len(out) < cfg.clone_max:
            if n % cfg.clone_every == 0:
                out.append(game.clone())
            game.apply(rng.choice(game.legal_actions()))
            n += 1
    return out


def bench_clone(cfg: BenchConfig) -> Row:
    """clone() of positions met in random games (every ``clone_every``-th decision)."""
    snaps = _snapshots(cfg)
    t0 = time.perf_counter()
    for g in snaps:
        g.clone()
    return "engine: clone()", len(snaps) / (time.perf_counter() - t0), "clones/s"


def bench_view(cfg: BenchConfig) -> Row:
    """view(player).state, the full redacted copy of a PlayerView, of the same positions
    (the env's observation may use the view's cheaper queries; this is the upper bound)."""
    snaps = _snapshots(cfg)
    t0 = time.perf_counter()
    for g in snaps:
        g.view(g.decision.player if g.decision is not None else 0).state  # noqa: B018
    return "engine: view(player).state", len(snaps) / (time.perf_counter() - t0), "views/s"


BENCHMARKS: list[Callable[[BenchConfig], Row]] = [
    bench_engine_decisions,
    bench_engine_games,
    bench_engine_new,
    bench_clone,
    bench_view,
]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_envs  # noqa: E402  (env and peer rows)

BENCHMARKS += bench_envs.available()


# ============================================================================ running


def pin_one_core() -> str:
    """Pin this process to CPU 0 where the OS allows it; says what was done."""
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {0})
            return "pinned to CPU 0"
        except OSError as e:
            return f"not pinned ({e.strerror})"
    return "not pinned (no sched_setaffinity)"


def run(cfg: BenchConfig, repeats: int = 3, only: list[str] | None = None,
        benchmarks: list[Callable[[BenchConfig], Row]] | None = None) -> list[dict[str, Any]]:
    """Run each benchmark ``repeats`` times; one dict per row with the median and every run.

    The repeats are interleaved (round 1 runs every benchmark once, then round 2, ...), so a
    machine whose speed drifts during the run (a shared host) slows every row alike and the
    ratios between rows stay fair; ``runs[i]`` of every row come from the same round."""
    fns = [fn for fn in (benchmarks if benchmarks is not None else BENCHMARKS)
           if not only or any(o in fn.__name__ for o in only)]
    rows: dict[str, list[Row]] = {fn.__name__: [] for fn in fns}
    for _ in range(max(1, repeats)):
        for fn in fns:
            rows[fn.__name__].append(fn(cfg))
    results = []
    for fn in fns:
        runs = rows[fn.__name__]
        name, unit = runs[0][0], runs[0][2]
        values = [r[1] for r in runs]
        results.append({"name": name, "value": statistics.median(values), "unit": unit,
                        "runs": values, "function": fn.__name__})
    return results


def meta(cfg: BenchConfig, repeats: int, pinned: str) -> dict[str, Any]:
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "machine": platform.machine(), "platform": platform.platform(), "cpu": pinned,
            "games": cfg.games, "seed": cfg.seed, "repeats": repeats}


def markdown(results: list[dict[str, Any]], info: dict[str, Any]) -> str:
    lines = [f"Python {info['python']} ({info['implementation']}), {info['platform']}, "
             f"{info['cpu']}; {info['games']} games from seed {info['seed']}, "
             f"median of {info['repeats']}",
             "",
             "| benchmark | median | unit | min | max |",
             "|---|---:|---|---:|---:|"]
    for r in results:
        lines.append(f"| {r['name']} | {_num(r['value'])} | {r['unit']} | {_num(min(r['runs']))} "
                     f"| {_num(max(r['runs']))} |")
    return "\n".join(lines)


def _num(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.2f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=50, help="games per benchmark run (default 50)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeats", type=int, default=3, help="runs per benchmark; median reported")
    p.add_argument("--json", action="store_true", help="print JSON instead of a markdown table")
    p.add_argument("--only", nargs="+", metavar="NAME", help="benchmark functions to run (substring)")
    p.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    args = p.parse_args(argv)
    pinned = "not pinned (--no-pin)" if args.no_pin else pin_one_core()
    cfg = BenchConfig(games=args.games, seed=args.seed)
    results = run(cfg, args.repeats, args.only)
    info = meta(cfg, args.repeats, pinned)
    if args.json:
        print(json.dumps({"meta": info, "results": results}, indent=2))
    else:
        print(markdown(results, info))
        ratio_lines = bench_envs.ratios([{"name": r["name"], "median": r["value"], "runs": r["runs"]}
                                         for r in results])
        if ratio_lines:
            print("\n" + "\n".join(f"- {x}" for x in ratio_lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
