"""The stage runner behind ``hostwcg train RECIPE`` (docs/training.md).

:func:`run_recipe` runs a recipe's stages in order in a run directory::

    RUN/recipe.toml          the recipe, copied
    RUN/config.json          the recipe resolved (defaults filled), versions, git commit, machine
    RUN/state.json           each stage's status and wall time (rewritten atomically)
    RUN/logs/STAGE.log       what each stage printed
    RUN/tb/STAGE/            TensorBoard scalars (a league stage also writes RUN/stages/STAGE/tb)
    RUN/stages/STAGE/        the stage's outputs; DONE.json when it finished
    RUN/policy.npz           the last network (numpy weights: ``ppo_v1:RUN/policy.npz``)
    RUN/eval/vs_OPP.jsonl    the evaluation games (``hostwcg ladder``, ``hostwcg replay`` read them)
    RUN/MODEL_CARD.md        provenance and the evaluation with 95% intervals

Every stage writes its outputs under temporary names and renames them, then writes DONE.json,
so a killed run leaves finished stages whole. Run it again (``--resume``) and it skips the
finished stages and continues the unfinished one: the demonstration games and the labelled
rows are kept in chunks and rounds, the league continues from its last saved model
(``agents.training.train_v1``'s own resume), and a cloning stage starts again with its whole
budget. A stage's budget is wall time: a clock saved every few seconds in state.json keeps the
time spent before a kill, so a resumed stage gets what is left of it. The learning curve's games
(a league stage's ``curve_games``) measure the network and are not charged to the budget; their
time is recorded beside it (``measure_s``).

The whole run plays the recipe's card pool: the shipped cards plus its ``[cards]`` files
(``Recipe.pool``, which sets ``HOSTWCG_CARDS`` so that worker processes play it too); config.json
and the model card record each file's sha256, and a resumed run refuses changed card files.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agents.training.recipe import Recipe, RecipeError
from agents.training.rundir import (
    RunDir,
    StageContext,
    _json,
    _load,
    _now,
    _slug,
    git_commit,
    machine,
    play_and_score,
    policy_agent,
    versions,
    write_atomic,
)


@contextlib.contextmanager
def _log_to(path: Path) -> Iterator[None]:
    """What a stage prints goes to its log (the progress bar stays on the terminal)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f, contextlib.redirect_stdout(f):
        print(f"--- {_now()} session start", flush=True)
        yield


def _agent(name: str, recipe: Recipe) -> str:
    return recipe.teacher if name == "teacher" else name


# ---------------------------------------------------------------------------- stages
def stage_demos(ctx: StageContext) -> dict[str, Any]:
    """The teacher plays itself in chunks of games (each a results file, resumed by the ladder's
    runner) until the budget or ``games`` is reached; every choice is replayed into v1 rows."""
    from agents.training.distill_v1 import extract
    from hostwcg_env.analysis.ladder import run_ladder

    o = ctx.stage.options
    teacher = o["teacher"] or ctx.recipe.teacher
    refs = ctx.recipe.deck_refs()
    games_dir = ctx.dir / "games"
    games_dir.mkdir(exist_ok=True)
    chunk = max(2, o["chunk_games"] + o["chunk_games"] % 2)
    played = 0
    k = 0
    files: list[str] = []
    while played < o["games"]:
        path = games_dir / f"chunk_{k:04d}.jsonl"
        if not path.exists() and (ctx.left() <= 0 and played > 0):
            break
        n = min(chunk, o["games"] - played)
        run_ladder([teacher, teacher], n, workers=o["workers"], seed=ctx.seed + k * chunk, quiet=True,
                   results=path, decks=refs, keep_records=False)
        played += n
        files.append(str(path))
        k += 1
        ctx.note(f"{played} games")
        ctx.scalar("demos/games", played, k)
    tmp = ctx.dir / "demos.tmp.npz"
    facts = extract(files, teacher, None, str(tmp), workers=o["workers"])
    os.replace(tmp, ctx.dir / "demos.npz")
    ctx.scalar("demos/rows", facts["rows"], k)
    return ctx.finish({"demos": str(ctx.dir / "demos.npz")}, {"teacher": teacher, **facts})


def _train(ctx: StageContext, data_paths: list[str], stem: str, minutes: float, init: str | None,
           dim: int, emb: int, epochs: int, lr: float, batch_size: int, holdout: float,
           value_coef: float = 0.5, step0: int = 0) -> tuple[dict[str, str], dict[str, Any]]:
    """Clone on rows (``distill_v1.train``, the stage's ``weights`` on the loss), written as
    STEM.zip and STEM.npz atomically."""
    from agents.training.distill_v1 import load, train

    tmp_zip, tmp_npz = ctx.dir / f"{stem}.tmp.zip", ctx.dir / f"{stem}.tmp.npz"
    facts = train(load(data_paths), str(tmp_zip), epochs=epochs, batch_size=batch_size, lr=lr,
                  value_coef=value_coef, holdout=holdout, dim=dim, emb=emb, seed=ctx.seed + step0, init=init,
                  export=str(tmp_npz), max_minutes=max(0.05, minutes),
                  kind_weights=ctx.stage.options.get("weights") or None)
    for row in facts["epochs"]:
        ctx.scalar(f"{stem}/holdout_accuracy", row["holdout_accuracy"], step0 + row["epoch"])
        ctx.scalar(f"{stem}/train_ce", row["train_ce"], step0 + row["epoch"])
    os.replace(tmp_npz, ctx.dir / f"{stem}.npz")
    os.replace(tmp_zip, ctx.dir / f"{stem}.zip")
    tmp_zip.with_suffix(".json").unlink(missing_ok=True)
    last = facts["epochs"][-1] if facts["epochs"] else {}
    small = {"rows": facts["rows"], "epochs_run": len(facts["epochs"]), "stopped_early": facts["stopped_early"],
             "holdout_accuracy": last.get("holdout_accuracy"), "dim": facts["dim"], "emb": facts["emb"],
             "seconds": facts["seconds"], **({"kind_weights": facts["kind_weights"]} if facts["kind_weights"] else {})}
    return {"zip": str(ctx.dir / f"{stem}.zip"), "npz": str(ctx.dir / f"{stem}.npz")}, small


def _rows_of(ctx: StageContext, run: RunDir, kinds: tuple[str, ...] = ("demos", "dagger")) -> list[str]:
    """The demonstration rows of every earlier demos stage, and the labelled rows of every
    earlier dagger stage (what a later clone or DAgger round trains on)."""
    out: list[str] = []
    for s in ctx.recipe.stages:
        if s.index >= ctx.stage.index or s.kind not in kinds or (d := run.done(s)) is None:
            continue
        out += [d["outputs"]["demos"]] if s.kind == "demos" else d["facts"].get("rows_files", [])
    return out


def stage_clone(ctx: StageContext) -> dict[str, Any]:
    """Behaviour cloning on every earlier demos stage's rows, restarted whole after a kill."""
    o = ctx.stage.options
    ctx.restart_clock()
    model, facts = _train(ctx, _rows_of(ctx, ctx.run, ("demos",)), "model", ctx.left() / 60, None, o["dim"], o["emb"],
                          o["epochs"], o["lr"], o["batch_size"], o["holdout"], o["value_coef"])
    return ctx.finish(model, facts)


def _round_done(path: Path) -> dict[str, Any] | None:
    return _json(path) if path.is_file() else None


def stage_dagger(ctx: StageContext) -> dict[str, Any]:
    """Rounds of DAgger: the current network plays, the teacher labels its choices, and a network
    is trained on the demonstrations and every round's rows (from scratch, or continued)."""
    from agents.training.distill_v1 import dagger

    assert ctx.model is not None
    o = ctx.stage.options
    teacher = o["teacher"] or ctx.recipe.teacher
    opponents = ",".join(_agent(a, ctx.recipe) for a in o["opponents"])
    data = _rows_of(ctx, ctx.run)
    model = dict(ctx.model)
    rounds: list[dict[str, Any]] = []
    mine: list[str] = []
    for r in range(o["rounds"]):
        marker = ctx.dir / f"round_{r}.json"
        done = _round_done(marker)
        rows = ctx.dir / f"rows_{r}.npz"
        if done is None:
            if not rows.is_file():
                tmp = ctx.dir / f"rows_{r}.tmp.npz"
                f = dagger(model["npz"], str(tmp), o["games"], teacher=teacher, opponents=opponents, envs=o["envs"],
                           seed=ctx.seed + 7 * r, greedy=o["greedy"], decks=ctx.recipe.decks_arg(),
                           max_minutes=max(0.05, ctx.left((r + o["label_share"]) / o["rounds"]) / 60))
                os.replace(tmp, rows)
                ctx.scalar("dagger/rows", f["rows"], r)
                ctx.scalar("dagger/agreement", f["agreement"], r)
                write_atomic(ctx.dir / f"rows_{r}.json", json.dumps(f) + "\n")
            label = _json(ctx.dir / f"rows_{r}.json")
            data.append(str(rows))
            mine.append(str(rows))
            init = None if o["from_scratch"] else model["zip"]
            from agents.set_policy import load_weights, sizes

            dim, emb, _ = sizes(load_weights(model["npz"]))
            dim, emb = o["dim"] or dim, o["emb"] or emb
            ctx.note(f"round {r + 1}: training")
            model, facts = _train(ctx, data, f"model_{r}", ctx.left((r + 1) / o["rounds"]) / 60, init, dim, emb,
                                  o["epochs"], o["lr"], o["batch_size"], o["holdout"], step0=100 * r)
            done = {"round": r, "model": model, "labelling": label, "training": facts}
            write_atomic(marker, json.dumps(done, indent=1) + "\n")
        else:
            data.append(str(rows))
            mine.append(str(rows))
            model = done["model"]
        rounds.append(done)
    return ctx.finish(model, {"teacher": teacher, "rounds": rounds, "rows_files": mine})


def _curve_eval(ctx: StageContext, npz: str, opponents: list[str], games: int, k: int) -> dict[str, Any]:
    """``games`` games of the network (greedy, guarded as ``ppo_v1`` plays) against each
    opponent, kept in STAGE/curve/; win rates with Wilson 95% intervals."""
    out: dict[str, Any] = {}
    for j, opp in enumerate(opponents):
        path = ctx.dir / "curve" / f"point_{k:03d}_vs_{_slug(opp)}.jsonl"
        path.parent.mkdir(exist_ok=True)
        out[opp] = play_and_score(npz, opp, games, ctx.seed + 500_000 + 10_000 * k + 1_000 * j, path,
                                  ctx.recipe.deck_refs(), quiet=True)
    return out


def stage_league(ctx: StageContext) -> dict[str, Any]:
    """League PPO (``agents.training.train_v1``), run in segments of ``curve_every`` minutes
    with, after each, games against ``curve_opponents`` (the learning curve, curve.csv)."""
    from agents.training import train_v1

    o = ctx.stage.options
    out = ctx.dir / "league"
    opponents = [_agent(a, ctx.recipe) for a in o["opponents"]]
    curve_opps = [_agent(a, ctx.recipe) for a in (o["curve_opponents"] or o["opponents"])]
    curve: list[dict[str, Any]] = ctx.st.setdefault("curve", [])
    huge = 10**12
    npz = str(ctx.dir / "policy.npz")

    def point(npz_path: str, steps: int) -> None:
        k = len(curve)
        with ctx.measure():
            res = _curve_eval(ctx, npz_path, curve_opps, o["curve_games"], k)
        row = {"point": k, "minutes": round(ctx.elapsed() / 60, 2), "steps": steps,
               **{f"{opp}": res[opp] for opp in curve_opps}}
        curve.append(row)
        for opp in curve_opps:
            ctx.scalar(f"curve/win_rate_vs/{opp}", res[opp]["win_rate"], steps)
        _write_curve(ctx.dir / "curve.csv", curve, curve_opps)
        ctx.run.save()

    if o["curve_games"] and not curve and ctx.model is not None:
        ctx.note("evaluating the start")
        point(ctx.model["npz"], 0)
    from agents.training import exploiters

    while ctx.left() > 1.0:
        if o["exploiters"]:  # exploiters of the main policy join the league (agents/training/exploiters.py)
            exploiters.cycle(ctx, out, npz)
            if ctx.left() <= 1.0:
                break
        seg = ctx.left() / 60 if not o["curve_every"] else min(o["curve_every"], ctx.left() / 60)
        if o["exploiters"]:
            seg = max(0.02, min(seg, exploiters.minutes_to_next(ctx)))
        argv = ["--out", str(out), "--steps", str(huge), "--max-minutes", f"{seg:.4f}", "--seed", str(ctx.seed),
                "--opponents", ",".join(opponents), "--lr", str(o["lr"]), "--clip", str(o["clip"]),
                "--ent-coef", str(o["ent_coef"]), "--pfsp", o["pfsp"], "--envs", str(o["envs"]),
                "--n-steps", str(o["n_steps"]), "--batch-size", str(o["batch_size"]), "--epochs", str(o["epochs"]),
                "--gamma", str(o["gamma"]), "--snapshot-every", str(o["snapshot_every"] if o["self_play"] else huge),
                "--eval-every", str(o["eval_every"]), "--eval-games", str(o["eval_games"]), "--eval-greedy",
                "--threads", str(o["threads"]), "--decks", ctx.recipe.decks_arg(), "--export", npz]
        if ctx.model is not None:
            from agents.set_policy import load_weights, sizes

            dim, emb, _ = sizes(load_weights(ctx.model["npz"]))
            argv += ["--init", ctx.model["zip"], "--dim", str(dim), "--emb", str(emb)]
        ctx.note(f"PPO, {seg:.1f} min")
        train_v1.main(argv)
        saved = _json(out / "league.json")
        steps = int(saved.get("steps", 0))
        ctx.scalar("league/steps", steps, int(ctx.elapsed()))
        for row in saved.get("evaluations", [])[-1:]:
            for name, v in row.items():
                if name not in ("steps", "games_per_opponent", "elo_learner"):
                    ctx.scalar(f"league/eval_win_rate_vs/{name}", float(v), int(row["steps"]))
        if o["curve_games"]:
            point(npz, steps)
    shutil.copyfile(out / "latest.zip", ctx.dir / "model.tmp.zip")
    os.replace(ctx.dir / "model.tmp.zip", ctx.dir / "model.zip")
    saved = _json(out / "league.json")
    facts = {"steps": int(saved.get("steps", 0)), "opponents": opponents, "self_play": o["self_play"],
             "last_evaluation": (saved.get("evaluations") or [None])[-1], "curve": curve}
    if o["exploiters"]:
        facts["exploiters"] = exploiters.made(ctx)
    return ctx.finish({"zip": str(ctx.dir / "model.zip"), "npz": npz}, facts)


def _write_curve(path: Path, curve: list[dict[str, Any]], opponents: list[str]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["point", "minutes", "steps", "opponent", "games", "won", "win_rate", "ci95_low", "ci95_high"])
    for row in curve:
        for opp in opponents:
            r = row[opp]
            w.writerow([row["point"], row["minutes"], row["steps"], opp, r["games"], r["won"],
                        f"{r['win_rate']:.4f}", f"{r['ci95'][0]:.4f}", f"{r['ci95'][1]:.4f}"])
    write_atomic(path, buf.getvalue())


def stage_expert_iteration(ctx: StageContext) -> dict[str, Any]:
    """Rounds of expert iteration: the network plays, its own search check labels its choices
    (``hard``: DAgger with ``ppo_v1:NET:look:worlds=N`` as the teacher; ``soft``: the check's
    scores of its ``top`` actions, ``learned_check.rows``), and it is fine-tuned on them (or, hard
    with ``from_scratch``, a network of its size is cloned from them)."""
    assert ctx.model is not None
    o = ctx.stage.options
    model = dict(ctx.model)
    rows: list[str] = []
    rounds: list[dict[str, Any]] = []
    for r in range(o["rounds"]):
        marker = ctx.dir / f"round_{r}.json"
        done = _round_done(marker)
        if done is not None:
            rows += done["rows"]
            model = done["model"]
            rounds.append(done)
            continue
        label_until = (r + o["label_share"]) / o["rounds"]
        ctx.note(f"round {r + 1}: labelling")
        if o["mode"] == "hard":
            these = _ei_hard_rows(ctx, model["npz"], r, label_until)
        else:
            these = _ei_soft_rows(ctx, model["npz"], r, label_until)
        rows = (rows if o["accumulate"] else []) + these["files"]
        ctx.note(f"round {r + 1}: training")
        if o["mode"] == "hard":
            from agents.set_policy import load_weights, sizes

            dim, emb, _ = sizes(load_weights(model["npz"]))
            init = None if o["from_scratch"] else model["zip"]
            model, facts = _train(ctx, rows, f"model_{r}", ctx.left((r + 1) / o["rounds"]) / 60, init, dim,
                                  emb, o["epochs"], o["lr"], o["batch_size"], o["holdout"], step0=100 * r)
        else:
            model, facts = _improve(ctx, model["npz"], these["files"], r)
        done = {"round": r, "rows": rows, "model": model, "labelling": these["facts"], "training": facts}
        write_atomic(marker, json.dumps(done, indent=1) + "\n")
        rounds.append(done)
    return ctx.finish(model, {"mode": o["mode"], "rounds": rounds})


def _ei_hard_rows(ctx: StageContext, npz: str, r: int, until: float) -> dict[str, Any]:
    from agents.training.distill_v1 import dagger

    o = ctx.stage.options
    out = ctx.dir / f"rows_{r}.npz"
    if not out.is_file():
        tmp = ctx.dir / f"rows_{r}.tmp.npz"
        teacher = f"ppo_v1:{npz}:look:worlds={o['worlds']}:top={o['top']}"
        opponents = ",".join(_agent(a, ctx.recipe) for a in o["opponents"])
        f = dagger(npz, str(tmp), o["games"], teacher=teacher, opponents=opponents, envs=o["envs"],
                   seed=ctx.seed + 7 * r, greedy=False, decks=ctx.recipe.decks_arg(),
                   max_minutes=max(0.05, ctx.left(until) / 60))
        os.replace(tmp, out)
        write_atomic(ctx.dir / f"rows_{r}.json", json.dumps(f) + "\n")
        ctx.scalar("expert_iteration/rows", f["rows"], r)
        ctx.scalar("expert_iteration/agreement", f["agreement"], r)
    return {"files": [str(out)], "facts": _json(ctx.dir / f"rows_{r}.json")}


def _ei_soft_rows(ctx: StageContext, npz: str, r: int, until: float) -> dict[str, Any]:
    from agents.training.learned_check import rows as check_rows

    o = ctx.stage.options
    opponent = next((_agent(a, ctx.recipe) for a in o["opponents"] if a != "self"), "heuristic")
    files: list[str] = []
    played = n_rows = 0
    k = 0
    while played < o["games"]:
        out = ctx.dir / f"rows_{r}_c{k:04d}.npz"
        if not out.is_file():
            if ctx.left(until) <= 0 and files:
                break
            tmp = ctx.dir / f"rows_{r}_c{k:04d}.tmp.npz"
            n = min(o["chunk_games"], o["games"] - played)
            f = check_rows(npz, str(tmp), n, ctx.seed + 100_000 * r + 1_000 * k, opponent=opponent,
                           worlds=o["worlds"], top=o["top"], decks=ctx.recipe.deck_refs())
            os.replace(tmp, out)
            write_atomic(out.with_suffix(".json"), json.dumps(f) + "\n")
        chunk = _json(out.with_suffix(".json"))
        played += int(chunk.get("games", o["chunk_games"]))
        n_rows += int(chunk.get("rows", 0))
        files.append(str(out))
        k += 1
    ctx.scalar("expert_iteration/games", played, r)
    return {"files": files, "facts": {"games": played, "rows": n_rows, "chunks": len(files), "opponent": opponent}}


def _improve(ctx: StageContext, npz: str, files: list[str], r: int) -> tuple[dict[str, str], dict[str, Any]]:
    from agents.training.learned_check import improve

    o = ctx.stage.options
    tmp_zip, tmp_npz = ctx.dir / f"model_{r}.tmp.zip", ctx.dir / f"model_{r}.tmp.npz"
    facts = improve(npz, files, str(tmp_zip), beta=o["beta"], epochs=o["epochs"], lr=o["lr"],
                    batch_size=o["batch_size"], holdout=o["holdout"], seed=ctx.seed + r, export=str(tmp_npz),
                    max_minutes=max(0.05, ctx.left((r + 1) / o["rounds"]) / 60))
    import torch

    torch.set_num_threads(1)  # improve() takes every core for itself
    for row in facts["epochs"]:
        for key, v in row.items():
            if key not in ("epoch", "seconds") and isinstance(v, int | float):
                ctx.scalar(f"improve/{key}", v, 100 * r + row["epoch"])
    os.replace(tmp_npz, ctx.dir / f"model_{r}.npz")
    os.replace(tmp_zip, ctx.dir / f"model_{r}.zip")
    tmp_zip.with_suffix(".json").unlink(missing_ok=True)
    last = facts["epochs"][-1] if facts["epochs"] else {}
    return ({"zip": str(ctx.dir / f"model_{r}.zip"), "npz": str(ctx.dir / f"model_{r}.npz")},
            {"choices": facts["choices"], "epochs_run": len(facts["epochs"]) - 1, "seconds": facts["seconds"],
             "stopped_early": facts["stopped_early"], "held_out": {k: v for k, v in last.items() if k != "epoch"}})


STAGES: dict[str, Callable[[StageContext], dict[str, Any]]] = {
    "demos": stage_demos, "clone": stage_clone, "dagger": stage_dagger, "league": stage_league,
    "expert-iteration": stage_expert_iteration,
}


def evaluate(run: RunDir, recipe: Recipe, npz: str, quiet: bool) -> list[dict[str, Any]]:
    ev = recipe.evaluation
    out_dir = run.root / "eval"
    out_dir.mkdir(exist_ok=True)
    rows = []
    for check in (False, True) if ev.get("check") else (False,):
        for j, opp in enumerate(ev["opponents"]):
            path = out_dir / f"vs_{_slug(opp)}{'_look' if check else ''}.jsonl"
            if not quiet:
                print(f"evaluation: {ev['games']} games against {opp}" + (", the network checked by the search"
                                                                        if check else ""), file=sys.stderr)
            r = play_and_score(npz, opp, ev["games"], ev["seed"] + 1_000_000 * j, path, recipe.deck_refs(),
                               workers=ev["workers"], quiet=quiet, check=check)
            rows.append({"opponent": opp, **({"check": True} if check else {}), **r})
    write_atomic(out_dir / "summary.json", json.dumps(rows, indent=1) + "\n")
    return rows


# ---------------------------------------------------------------------------- the model card
def _fmt_min(s: float) -> str:
    return f"{s:.0f} s" if s < 120 else f"{s / 60:.1f} min"


def _n(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _stage_summary(kind: str, facts: dict[str, Any]) -> str:
    if kind == "demos":
        return f"{_n(facts['games'], 'game')} of {facts['teacher']}, {_n(facts['rows'], 'choice')}"
    if kind == "clone":
        acc = facts.get("holdout_accuracy")
        return (f"{_n(facts['rows'], 'row')}, {_n(facts['epochs_run'], 'epoch')}, "
                f"dim {facts['dim']}, emb {facts['emb']}"
                + (f", {acc:.1%} of held-out choices match" if acc is not None else ""))
    if kind == "dagger":
        parts = [f"round {r['round'] + 1}: {_n(r['labelling'].get('games', 0), 'game')}, "
                 f"{_n(r['labelling'].get('rows', 0), 'row')} labelled by {facts['teacher']}"
                 + (f", {r['training']['holdout_accuracy']:.1%} held-out match"
                    if r["training"].get("holdout_accuracy") is not None else "") for r in facts["rounds"]]
        return "; ".join(parts)
    if kind == "league":
        return (f"{facts['steps']:,} PPO steps against {', '.join(facts['opponents'])}"
                + (" and snapshots of itself" if facts["self_play"] else " alone")
                + (f"; {_n(len(facts['exploiters']), 'exploiter')}" if "exploiters" in facts else ""))
    if kind == "expert-iteration":
        return f"{facts['mode']}, " + "; ".join(
            f"round {r['round'] + 1}: {_n(r['labelling'].get('games', 0), 'game')}, "
            f"{_n(r['labelling'].get('rows', 0), 'row')}" for r in facts["rounds"])
    return ""


def _sessions(sessions: list[dict[str, Any]]) -> str:
    """How many times the command ran (a resumed run runs again) and the machine's load each time."""
    parts = [f"{x.get('started')}, load {x.get('load_1min')}" + (f" to {x['load_1min_end']}" if "load_1min_end" in x
                                                                 else " (stopped)") for x in sessions]
    return f"{len(sessions)}: " + "; ".join(parts) if parts else "0"


def model_card(run: RunDir, recipe: Recipe, evaluation: list[dict[str, Any]]) -> str:
    cfg = _json(run.root / "config.json")
    lines = [f"# Model card: {recipe.name}", "",
             f"A hostwcg_v1 set policy trained by `hostwcg train` from the recipe `{recipe.path.name}` "
             f"(copied to `recipe.toml`, sha256 {recipe.sha256[:16]}). Play it as `ppo_v1:{run.root / 'policy.npz'}`.",
             ""]
    if recipe.description:
        lines += [recipe.description, ""]
    decks = recipe.decks if isinstance(recipe.decks, str) else ", ".join(Path(d).name for d in recipe.decks)
    v = cfg.get("versions", {})
    m = cfg.get("machine", {})
    lines += ["| fact | value |", "|---|---|",
              f"| cards | {_cards_cell(cfg.get('recipe', {}).get('cards', []))} |",
              f"| decks | {decks} |", f"| teacher | `{recipe.teacher}` |", f"| seed | {recipe.seed} |",
              *([f"| starts from | `{recipe.init}` (`[recipe] init`, copied to `init/`) |"] if recipe.init else []),
              f"| code | hostwcg {v.get('hostwcg')}, git {cfg.get('git_commit') or 'unknown'} |",
              f"| software | Python {v.get('python')}, torch {v.get('torch')}, sb3-contrib {v.get('sb3_contrib')}, "
              f"numpy {v.get('numpy')} |",
              f"| machine | {m.get('processor')}, {m.get('cpus')} CPUs, load {m.get('load_1min')} at the start |",
              f"| started | {cfg.get('started')} |",
              f"| sessions | {_sessions(run.state.get('sessions', []))} |", "",
              "## Stages", "",
              "| stage | budget | wall time | sessions | what it made |", "|---|---:|---:|---:|---|"]
    total = 0.0
    for s in recipe.stages:
        d = run.done(s) or {}
        st = run.state["stages"].get(s.name, {})
        total += float(d.get("elapsed_s", 0.0))
        lost = f" (+{_fmt_min(st['lost_s'])} lost to a restart)" if st.get("lost_s") else ""
        games = "learning-curve and exploiters' games" if s.options.get("exploiters") else "learning-curve games"
        lost += f" (+{_fmt_min(st['measure_s'])} of {games})" if st.get("measure_s") else ""
        lines.append(f"| {s.name} | {s.minutes:g} min | {_fmt_min(float(d.get('elapsed_s', 0.0)))}{lost} | "
                     f"{st.get('sessions', 0)} | {_stage_summary(s.kind, d.get('facts', {})) if d else 'not run'} |")
    lines += ["", f"Wall time of the stages: {_fmt_min(total)}. Each stage's options: `config.json`.", ""]
    curves = [(s, (run.done(s) or {}).get("facts", {}).get("curve")) for s in recipe.stages if s.kind == "league"]
    for s, curve in curves:
        if curve:
            lines += [f"## Learning curve ({s.name}, `stages/{s.name}/curve.csv`)", "", curve_table(curve), ""]
    from agents.training.exploiters import card_lines

    lines += card_lines(run, recipe)
    ev = recipe.evaluation
    checked = any(r.get("check") for r in evaluation)
    lines += ["## Evaluation", "",
              f"The network (greedy, with the `ppo_v1` guard) in {ev['games']} seat-swapped games against each "
              f"opponent from seed {ev['seed']}, kept in `eval/` (`hostwcg ladder eval/*.jsonl`)"
              + ("; then, on the same seeds, the network checked by the search as `ppo_v1:look` checks the shipped "
                 "one (`ppo_v1:policy.npz:look`, `eval/vs_*_look.jsonl`)" if checked else "") + ".", "",
              "| agent | against | games | won | 95% CI (Wilson) |", "|---|---|---:|---:|---|"]
    for r in evaluation:
        lo, hi = r["ci95"]
        who = "the network with the check" if r.get("check") else "the network"
        lines.append(f"| {who} | {r['opponent']} | {r['games']:,} | {r['win_rate']:.1%} | {lo:.1%} - {hi:.1%} |")
    lines.append("")
    lines += unplayed_lines(run, recipe, str(run.root / "policy.npz"))
    return "\n".join(lines)


UNPLAYED_MIN_GAMES = 20  # a card's play rate is read only over this many games where it was drawn, or more


def unplayed_lines(run: RunDir, recipe: Recipe, npz: str) -> list[str]:
    """The model card's check of the cards the network leaves in hand: each deck's cards that the
    network plays in under ``RARELY`` of its evaluation games where it drew them while the teacher
    played them in ``OFTEN`` or more of its demonstration games (docs/balance.md, "Balance across
    skill"). A recipe without a demonstration stage (one that starts from ``[recipe] init``) reads
    the teacher's rates from the evaluation games where it was the opponent. [] without
    evaluation games, or without either source of the teacher's rates."""
    from hostwcg_env.analysis.recordfile import iter_records
    from hostwcg_env.analysis.skill import OFTEN, RARELY, rarely_played, record_play_rates

    demos = [s for s in recipe.stages if s.kind == "demos" and run.done(s)]
    games = [p for p in sorted((run.root / "eval").glob("vs_*.jsonl")) if not p.stem.endswith("_look")]
    if not games:
        return []
    if demos:
        teacher = record_play_rates(iter_records(run.stage_dir(demos[0]) / "games", warn=False))
        source = "of its demonstration games"
    else:
        teacher = record_play_rates(iter_records(games, warn=False), recipe.teacher)
        source = "of its evaluation games as the network's opponent"
        if not teacher:
            return []
    mine = record_play_rates(iter_records(games, warn=False), policy_agent(npz))
    rows = []
    for (deck, card), (rate, n) in sorted(mine.items()):
        theirs, seen = teacher.get((deck, card), (0.0, 0))
        if min(n, seen) >= UNPLAYED_MIN_GAMES and rarely_played(rate, [theirs]):
            rows.append((deck, card, rate, theirs))
    lines = ["## Cards the network leaves in hand", "",
             f"Cards the network played in under {RARELY:.0%} of its evaluation games where it drew them, while "
             f"the teacher (`{recipe.teacher}`) played them in {OFTEN:.0%} or more {source} "
             f"(each over {UNPLAYED_MIN_GAMES} games or more where the card was drawn). Such a card is dead in the "
             "network's hand: a blind spot to train out, and a reason its decks' win rates differ from the "
             "teacher's.", ""]
    if not rows:
        return [*lines, "None.", ""]
    lines += ["| deck | card | network | teacher |", "|---|---|---:|---:|"]
    lines += [f"| {d} | {c} | {a:.1%} | {b:.1%} |" for d, c, a, b in rows]
    return [*lines, ""]


def _cards_cell(cards: list[dict[str, str]]) -> str:
    """The card pool: the shipped cards, and each of the recipe's card files with the sha256 it
    had when the run started (config.json)."""
    files = [f"`{Path(c['file']).name}` (sha256 {c['sha256'][:16]})" for c in cards]
    return "the shipped pool" + (" and " + ", ".join(files) if files else "")


def curve_table(curve: list[dict[str, Any]]) -> str:
    """A learning curve as a markdown table: minutes, steps, and each opponent's win rate with its interval."""
    opps = [k for k in curve[0] if k not in ("point", "minutes", "steps")]
    head = "| minutes | PPO steps | " + " | ".join(f"vs {o}" for o in opps) + " |"
    lines = [head, "|---:|---:|" + "---|" * len(opps)]
    for row in curve:
        cells = [f"{row[o]['win_rate']:.1%} [{row[o]['ci95'][0]:.1%}, {row[o]['ci95'][1]:.1%}] "
                 f"({row[o]['games']} games)" for o in opps]
        lines.append(f"| {row['minutes']:.1f} | {row['steps']:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- the run
def default_run_dir(recipe: Recipe) -> Path:
    return Path("runs") / "train" / recipe.name


def check_run_dir(recipe: Recipe, run_dir: Path, resume: bool, changed: str | None = None) -> None:
    """Refuse a run directory holding a run unless ``resume``, one holding a run of another recipe
    (``changed``: the error's wording, default ``hostwcg train``'s), one holding something else,
    and a resumed run whose card files changed since it started."""
    copy = run_dir / "recipe.toml"
    if copy.is_file():
        if not resume:
            raise RecipeError(f"{run_dir} already holds a run: give --resume to continue it, or another --run-dir")
        if copy.read_text(encoding="utf-8") != recipe.text:
            raise RecipeError(changed or f"{run_dir}/recipe.toml differs from {recipe.path}: a run continues with the "
                              "recipe it started with (give another --run-dir for the new recipe)")
        then = {c["file"]: c["sha256"] for c in _json(run_dir / "config.json").get("recipe", {}).get("cards", [])}
        for c in recipe.cards():
            if then.get(c["file"], c["sha256"]) != c["sha256"]:
                raise RecipeError(f"{c['file']}: the card file changed since the run in {run_dir} started: a run "
                                  "continues with the cards it started with (give another --run-dir)")
    elif run_dir.exists() and any(run_dir.iterdir()):
        raise RecipeError(f"{run_dir} is not empty and holds no run: give another --run-dir")


def prepare(recipe: Recipe, run_dir: Path, resume: bool, argv: list[str] | None = None,
            changed: str | None = None) -> RunDir:
    """Make (or, with ``resume``, reopen) the run directory (``check_run_dir`` first)."""
    check_run_dir(recipe, run_dir, resume, changed)
    copy = run_dir / "recipe.toml"
    run_dir.mkdir(parents=True, exist_ok=True)
    run = RunDir(run_dir)
    if not copy.is_file():
        write_atomic(run_dir / "config.json", json.dumps(
            {"recipe": recipe.resolved(), "started": _now(), "command": argv, "git_commit": git_commit(_ROOT),
             "versions": versions(), "machine": machine()}, indent=1) + "\n")
        write_atomic(copy, recipe.text)
    return run


_ROOT = Path(__file__).resolve().parents[2]


def run_recipe(recipe: Recipe, run_dir: Path | None = None, resume: bool = False, quiet: bool = False,
               argv: list[str] | None = None, changed: str | None = None) -> dict[str, Any]:
    """Run (or continue) ``recipe`` in ``run_dir``; the evaluation rows and the paths made.
    ``changed`` words the error for a run directory holding another recipe's run (``check_run_dir``).
    Every stage, its worker processes and the evaluation play the recipe's card pool."""
    import torch

    torch.set_num_threads(1)
    root = Path(run_dir) if run_dir is not None else default_run_dir(recipe)
    run = prepare(recipe, root, resume, argv, changed)
    with recipe.pool():
        return _run(recipe, run, root, quiet)


def _run(recipe: Recipe, run: RunDir, root: Path, quiet: bool) -> dict[str, Any]:
    run.state["sessions"].append({"started": _now(), "load_1min": _load(), "pid": os.getpid()})
    run.save()
    model: dict[str, str] | None = None
    if recipe.init:  # the network the first stage continues from (agents/training/init_net.py)
        from agents.training.init_net import init_model

        model = init_model(root, recipe.init, recipe.seed)
    for stage in recipe.stages:
        done = run.done(stage)
        if done is None:
            if not quiet:
                print(f"stage {stage.index}/{len(recipe.stages)}: {stage.name} ({stage.minutes:g} min)",
                      file=sys.stderr)
            with _log_to(root / "logs" / f"{stage.name}.log"), \
                    StageContext(run, recipe, stage, model, quiet) as ctx:
                done = STAGES[stage.kind](ctx)
            run.save()
        elif not quiet:
            print(f"stage {stage.index}/{len(recipe.stages)}: {stage.name}: done before, skipped", file=sys.stderr)
        if stage.kind != "demos":
            model = {"zip": done["outputs"]["zip"], "npz": done["outputs"]["npz"]}
    assert model is not None  # the recipe has a stage that makes a network (recipe.py)
    shutil.copyfile(model["npz"], root / "policy.tmp.npz")
    os.replace(root / "policy.tmp.npz", root / "policy.npz")
    evaluation = evaluate(run, recipe, str(root / "policy.npz"), quiet)
    run.state["evaluation"] = evaluation
    run.state["sessions"][-1].update(finished=_now(), load_1min_end=_load())
    run.save()
    write_atomic(root / "MODEL_CARD.md", model_card(run, recipe, evaluation))
    return {"run_dir": str(root), "policy": str(root / "policy.npz"), "evaluation": evaluation}
