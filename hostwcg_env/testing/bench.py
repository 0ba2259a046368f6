"""Engine and env speed, both builds of the same commit side by side (docs/engine.md).

    python scripts/bench.py [--games N] [--repeats R] [--cpu C] [--builds pure,compiled]
                            [--only NAME...] [--json] [--in-process]

Benchmarked here, never timed in tests. Every row is a function ``(BenchConfig) -> Row`` (a
name, a unit, and the rate per wall-clock second and per CPU second) in ENGINE_ROWS (the engine
alone), or in ``bench_envs`` (the AEC env, and peer environments when installed). Each row runs
in a fresh process pinned to one CPU (``--cpu``, default 1), once per build: the compiled
engine (mypyc, the default install) and the same sources as Python (``HOSTWCG_PURE=1``), so the
two columns come from the same commit on the same core. Repeats are interleaved (round 1 runs
every row and build once, then round 2, ...) so that a machine whose speed drifts slows every
row alike; the table shows medians and the compiled/pure ratio, on wall time and on CPU time
(the steadier of the two on a shared machine).

Engine games are played by a uniform random policy over the legal actions on the two shipped
test decks; the policy's random generator is seeded once per row, and each game's seed is drawn
from it. Envs are seeded once and then reset unseeded, as a training loop does.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from hostwcg_env.testing import bench_envs
from hostwcg_env.testing.bench_envs import Row

ROOT = Path(__file__).resolve().parents[2]  # the checkout (its commit goes in the report)

BUILDS = ("pure", "compiled")


@dataclass
class BenchConfig:
    games: int = 50
    seed: int = 0
    clone_every: int = 10  # snapshot every Nth decision for the clone() benchmark
    clone_max: int = 500  # at most this many snapshots


class Timer:
    """Wall and CPU time of a block: ``with Timer() as t: ...; t.rates(count)``."""

    def __enter__(self) -> Timer:
        self.w0, self.c0 = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.w0
        self.cpu = max(time.process_time() - self.c0, 1e-9)

    def row(self, name: str, count: float, unit: str) -> Row:
        return Row(name, unit, count / self.wall, count / self.cpu)


# ============================================================================ the engine


def decks() -> tuple[Any, Any]:
    from hostwcg_env.cards.decks import DECKS_DIR, load_deck

    return load_deck(DECKS_DIR / "test_authority.toml"), load_deck(DECKS_DIR / "test_strife.toml")


def game_factory() -> Callable[[int], Any]:
    """``seed -> Game`` on the test decks, through whichever API this checkout offers."""
    a, b = decks()
    try:
        from hostwcg_env.cards import default_ruleset
    except ImportError:  # before engine v2: Game.new with the registry patched at import
        import hostwcg_env  # noqa: F401
        from hostwcg_env.engine import Game, RuleConfig

        return lambda seed: Game.new(a, b, config=RuleConfig(), seed=seed)
    rules = default_ruleset()
    return lambda seed: rules.new_game(a, b, seed=seed)


def play_random(game: Any, rng: random.Random) -> int:
    """Play to the end with uniform random legal actions; returns the number of decisions."""
    n = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def bench_engine_decisions(cfg: BenchConfig) -> Row:
    """Random-legal-action throughput of the engine alone (legal_actions + apply; the games'
    setup is made outside the timed part)."""
    new = game_factory()
    rng = random.Random(cfg.seed)
    games = [new(rng.randrange(2**31)) for _ in range(cfg.games)]
    with Timer() as t:
        n = sum(play_random(g, rng) for g in games)
    return t.row("engine: random decisions", n, "decisions/s")


def bench_engine_games(cfg: BenchConfig) -> Row:
    """Full games per second: setup (9.1) included, random play to the end."""
    new = game_factory()
    rng = random.Random(cfg.seed)
    with Timer() as t:
        for _ in range(cfg.games):
            play_random(new(rng.randrange(2**31)), rng)
    return t.row("engine: full random games", cfg.games, "games/s")


def bench_engine_new(cfg: BenchConfig) -> Row:
    """A new game: deal, roll, up to the first decision (the env's reset)."""
    new = game_factory()
    rng = random.Random(cfg.seed)
    n = 4 * cfg.games
    with Timer() as t:
        for _ in range(n):
            new(rng.randrange(2**31))
    return t.row("engine: new game", n, "games/s")


def _snapshots(cfg: BenchConfig) -> list[Any]:
    new = game_factory()
    rng = random.Random(cfg.seed)
    out: list[Any] = []
    for _ in range(cfg.games):
        game = new(rng.randrange(2**31))
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
    with Timer() as t:
        for g in snaps:
            g.clone()
    return t.row("engine: clone()", len(snaps), "clones/s")


def bench_view(cfg: BenchConfig) -> Row:
    """view(player).state, the full redacted copy of a PlayerView, of the same positions
    (the env's observation uses the view's cheaper queries; this is the upper bound)."""
    snaps = _snapshots(cfg)
    with Timer() as t:
        for g in snaps:
            g.view(g.decision.player if g.decision is not None else 0).state  # noqa: B018
    return t.row("engine: view(player).state", len(snaps), "views/s")


ENGINE_ROWS: list[Callable[[BenchConfig], Row]] = [
    bench_engine_decisions,
    bench_engine_games,
    bench_engine_new,
    bench_clone,
    bench_view,
]


BENCHMARKS: list[Callable[[BenchConfig], Row]] = ENGINE_ROWS + bench_envs.env_rows()
PEERS: list[Callable[[BenchConfig], Row]] = bench_envs.peer_rows()


def per_build(fn: Callable[[BenchConfig], Row]) -> bool:
    """Engine and env rows run on both builds; a peer does not use the engine."""
    return fn not in PEERS


# ============================================================================ one row, one process


def pin(cpu: int) -> str:
    if cpu < 0:
        return "not pinned"
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {cpu})
            return f"pinned to CPU {cpu}"
        except OSError as e:
            return f"not pinned ({e.strerror})"
    return "not pinned (no sched_setaffinity)"


def worker(name: str, build: str | None, cfg: BenchConfig, cpu: int) -> dict[str, Any]:
    """Run one row in this process (started by ``isolated``) and return it as a dict."""
    pin(cpu)
    if build is not None:
        import hostwcg_env.engine as engine

        got = "compiled" if engine.compiled() else "pure"
        if got != build:
            return {"name": name, "build": build, "error": f"the {build} build is not installed "
                    f"(running {engine.BUILD}); `pip install -e .` compiles it"}
    fn = {f.__name__: f for f in BENCHMARKS + PEERS}[name]
    return {"build": build, **asdict(fn(cfg))}


def isolated(fn: Callable[[BenchConfig], Row], build: str | None, cfg: BenchConfig, cpu: int,
             timeout: float = 900) -> dict[str, Any]:
    """Run one row in a fresh Python process; ``build`` = "pure" sets HOSTWCG_PURE=1."""
    env = dict(os.environ)
    env.pop("HOSTWCG_PURE", None)
    if build == "pure":
        env["HOSTWCG_PURE"] = "1"
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[k] = "1"
    env["PYTHONWARNINGS"] = "ignore"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    cmd = [sys.executable, "-m", "hostwcg_env.testing.bench", "--worker", fn.__name__,
           "--build", build or "", "--games", str(cfg.games), "--seed", str(cfg.seed), "--cpu", str(cpu)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"name": fn.__name__, "build": build, "error": "timeout"}
    lines = [x for x in p.stdout.splitlines() if x.startswith("@@ROW@@")]
    if not lines:
        err = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return {"name": fn.__name__, "build": build, "error": err}
    return json.loads(lines[-1][len("@@ROW@@"):])


# ============================================================================ the driver


def run(cfg: BenchConfig, repeats: int = 3, only: list[str] | None = None,
        benchmarks: list[Callable[[BenchConfig], Row]] | None = None, builds: tuple[str, ...] = BUILDS,
        cpu: int = 1, in_process: bool = False) -> list[dict[str, Any]]:
    """Run each row ``repeats`` times per build, interleaved round by round; one dict per
    (row, build) with the medians and every run. ``in_process`` runs rows here, as they are
    (no build switch: for tests)."""
    fns = [fn for fn in (benchmarks if benchmarks is not None else BENCHMARKS + PEERS)
           if not only or any(o in fn.__name__ for o in only)]
    plan = [(fn, b) for fn in fns for b in ((builds if per_build(fn) else (None,)) if not in_process else (None,))]
    got: dict[tuple[str, str | None], list[dict[str, Any]]] = {(fn.__name__, b): [] for fn, b in plan}
    for _ in range(max(1, repeats)):
        for fn, b in plan:
            if in_process:
                res = {"build": b, **asdict(fn(cfg))}
            else:
                res = isolated(fn, b, cfg, cpu)
            got[(fn.__name__, b)].append(res)
    out = []
    for fn, b in plan:
        runs = got[(fn.__name__, b)]
        ok = [r for r in runs if "error" not in r]
        if not ok:
            out.append({"function": fn.__name__, "build": b, "name": fn.__name__, "error": runs[0]["error"]})
            continue
        out.append({"function": fn.__name__, "build": b, "name": ok[0]["name"], "unit": ok[0]["unit"],
                    "value": statistics.median(r["wall"] for r in ok),
                    "cpu": statistics.median(r["cpu"] for r in ok),
                    "runs": [r["wall"] for r in ok], "cpu_runs": [r["cpu"] for r in ok]})
    return out


def meta(cfg: BenchConfig, repeats: int, pinned: str) -> dict[str, Any]:
    import subprocess as sp

    commit = sp.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    cpu_model = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu_model = next((x.split(":", 1)[1].strip() for x in f if x.startswith("model name")), "")
    except OSError:
        pass
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "machine": platform.machine(), "platform": platform.platform(), "cpu": pinned,
            "cpu_model": cpu_model, "commit": commit or "?", "games": cfg.games, "seed": cfg.seed,
            "repeats": repeats, "date": time.strftime("%Y-%m-%d %H:%M")}


def _num(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}" if x >= 100 else f"{x:,.2f}"


def markdown(results: list[dict[str, Any]], info: dict[str, Any]) -> str:
    lines = [f"commit {info['commit']}, Python {info['python']} ({info['implementation']}), "
             f"{info['platform']}, {info['cpu_model'] or info['machine']}, {info['cpu']}; "
             f"{info['games']} games a row from seed {info['seed']}, median of {info['repeats']}, "
             f"{info['date']}", ""]
    by: dict[str, dict[str | None, dict[str, Any]]] = {}
    order: list[str] = []
    for r in results:
        if r["function"] not in by:
            order.append(r["function"])
        by.setdefault(r["function"], {})[r["build"]] = r
    builds = [b for b in BUILDS if any(b in v for v in by.values())]
    if builds:
        head = "| benchmark | unit | " + " | ".join(f"{b}" for b in builds)
        head += " | compiled/pure |" if len(builds) == 2 else " |"
        head += " " + " | ".join(f"{b} (CPU)" for b in builds)
        head += " | compiled/pure (CPU) |" if len(builds) == 2 else " |"
        lines += [head, "|---|---|" + "---:|" * (2 * len(builds) + (2 if len(builds) == 2 else 0))]
    single = ["", "| benchmark | unit | median | min | max | median (CPU) |", "|---|---|---:|---:|---:|---:|"]
    for fn in order:
        cols = by[fn]
        if None in cols:
            r = cols[None]
            if "error" in r:
                single.append(f"| {r['name']} | unavailable: {r['error'][:80]} | | | | |")
            else:
                single.append(f"| {r['name']} | {r['unit']} | {_num(r['value'])} | {_num(min(r['runs']))} "
                              f"| {_num(max(r['runs']))} | {_num(r['cpu'])} |")
            continue
        name = next((c["name"] for c in cols.values() if "unit" in c), fn)
        unit = next((c["unit"] for c in cols.values() if "unit" in c), "")
        wall = [cols.get(b, {}).get("value") for b in builds]
        cpu = [cols.get(b, {}).get("cpu") for b in builds]
        cells = [_num(x) if x is not None else "n/a" for x in wall]
        line = f"| {name} | {unit} | " + " | ".join(cells)
        if len(builds) == 2:
            line += f" | {_ratio(wall)} |"
        else:
            line += " |"
        line += " " + " | ".join(_num(x) if x is not None else "n/a" for x in cpu)
        line += f" | {_ratio(cpu)} |" if len(builds) == 2 else " |"
        lines.append(line)
    if len(single) > 3:
        lines += single
    errors = [r for r in results if "error" in r and r["build"] is not None]
    for r in errors:
        lines.append(f"\n- {r['function']} ({r['build']}): {r['error']}")
    return "\n".join(lines)


def _ratio(pair: list[float | None]) -> str:
    a, b = pair
    if not a or not b:
        return "-"
    return f"{b / a:.2f}x"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=50, help="games per row (default 50)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeats", type=int, default=3, help="runs per row and build; median reported")
    p.add_argument("--cpu", type=int, default=1, help="CPU to pin every row to (-1: no pinning)")
    p.add_argument("--builds", default="pure,compiled", help="builds to compare (default pure,compiled)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a markdown table")
    p.add_argument("--only", nargs="+", metavar="NAME", help="rows to run (substring of the function name)")
    p.add_argument("--in-process", action="store_true",
                   help="run the rows in this process, on whichever build it imports (no build columns)")
    p.add_argument("--no-pin", action="store_true", help="same as --cpu -1")
    p.add_argument("--worker", default="", help=argparse.SUPPRESS)
    p.add_argument("--build", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    cfg = BenchConfig(games=args.games, seed=args.seed)
    cpu = -1 if args.no_pin else args.cpu
    if args.worker:
        try:
            res = worker(args.worker, args.build or None, cfg, cpu)
        except Exception as e:  # noqa: BLE001 (reported as the row's error)
            res = {"name": args.worker, "build": args.build or None, "error": f"{type(e).__name__}: {e}"}
        print("@@ROW@@" + json.dumps(res))
        return 0
    builds = tuple(b for b in args.builds.split(",") if b)
    bad = [b for b in builds if b not in BUILDS]
    if bad:
        p.error(f"unknown build {bad[0]!r} (known: {', '.join(BUILDS)})")
    if args.in_process:
        pin(cpu)
    results = run(cfg, args.repeats, args.only, builds=builds, cpu=cpu, in_process=args.in_process)
    info = meta(cfg, args.repeats, f"pinned to CPU {cpu}" if cpu >= 0 else "not pinned")
    if args.json:
        print(json.dumps({"meta": info, "results": results}, indent=2))
        return 0
    print(markdown(results, info))
    lines = bench_envs.ratios(results)
    if lines:
        print("\n" + "\n".join(f"- {x}" for x in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
