"""Time to strength: the wall minutes a ``hostwcg train`` run took to reach each target (docs/training.md,
"Time to strength").

A run directory already holds what this needs: each stage's wall time charged to its budget
(``state.json``; the learning curve's games are not charged), each league stage's learning curve
(its ``DONE.json`` facts, or ``state.json`` while it runs) and the final evaluation
(``state.json``'s copy of ``eval/summary.json``). :func:`points` puts them on one clock, the
minutes of training since the run started, so a curve point of the second league sits after the
whole of the first stages.

The targets (:data:`TARGETS`) are the issue's: at least 80% against the heuristic, and a lower 95%
bound above 50% against the lookahead. A learning-curve point that meets one is *indicative*
(its 100 or so games were not fixed as a confirmation); the *confirmation* is the recipe's own
final evaluation, whose opponents, games and seeds are written in the recipe before the run
starts: a target is met at the run's wall time when that evaluation meets it.

    python scripts/bench_train.py --strength runs/train/in_2h --plot docs/img/time_to_strength.png
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.training.rundir import _json

# opponent -> (statistic, threshold): "rate" is the win rate, "low" the lower 95% bound (Wilson)
TARGETS: dict[str, tuple[str, float]] = {"heuristic": ("rate", 0.80), "lookahead": ("low", 0.50)}


def meets(opponent: str, result: dict[str, Any]) -> bool | None:
    """Whether ``result`` (``win_rate``, ``ci95``) meets the target against ``opponent``; None without one."""
    if opponent not in TARGETS:
        return None
    stat, threshold = TARGETS[opponent]
    value = result["win_rate"] if stat == "rate" else result["ci95"][0]
    return bool(value >= threshold if stat == "rate" else value > threshold)


def points(run_dir: str | Path) -> list[dict[str, Any]]:
    """Every measurement of the run's network on one clock: ``{"minutes", "source", "final", OPP: result}``
    rows in time order, where ``minutes`` counts the wall time charged to the stages before it."""
    root = Path(run_dir)
    state = _json(root / "state.json")
    if not state:
        raise FileNotFoundError(f"{root}: no state.json, so not a `hostwcg train` run directory")
    rows: list[dict[str, Any]] = []
    before = 0.0
    for name, st in state.get("stages", {}).items():
        done = _json(root / "stages" / name / "DONE.json")
        curve = (done or {}).get("facts", {}).get("curve") if done else st.get("curve")
        for row in curve or []:
            rows.append({"minutes": round(before / 60 + float(row["minutes"]), 2),
                         "source": f"{name}, point {row['point']}", "final": False,
                         **{k: v for k, v in row.items() if isinstance(v, dict)}})
        before += float((done or st).get("elapsed_s", 0.0))
    final = state.get("evaluation") or []  # what eval/summary.json holds, saved when the run finished
    for check, source in ((False, "final evaluation"), (True, "final evaluation, the network checked by the search")):
        got = {r["opponent"]: {k: r[k] for k in ("games", "won", "win_rate", "ci95")}
               for r in final if bool(r.get("check")) == check}
        if got:
            rows.append({"minutes": round(before / 60, 2), "source": source, "final": True, "check": check, **got})
    return rows


def report(run_dir: str | Path) -> dict[str, Any]:
    """The run's time to strength: per target, the first curve point that meets it (indicative) and
    whether the final evaluation confirms it, at what wall time; and every point."""
    pts = points(run_dir)
    targets: dict[str, Any] = {}
    for opp, (stat, threshold) in TARGETS.items():
        seen = [p for p in pts if opp in p]
        first = next((p for p in seen if not p["final"] and meets(opp, p[opp])), None)
        final = next((p for p in seen if p["final"] and not p.get("check")), None)
        checked = next((p for p in seen if p["final"] and p.get("check")), None)
        targets[opp] = {
            "target": f"{'win rate' if stat == 'rate' else 'lower 95% bound'} "
                      f"{'>=' if stat == 'rate' else '>'} {threshold:.0%}",
            "first_curve_point_minutes": first["minutes"] if first else None,
            "confirmed": meets(opp, final[opp]) if final else None,
            "final": {"minutes": final["minutes"], **final[opp]} if final else None,
            "measured": bool(seen),
        }
        if checked:  # the recipe's evaluation also played the network checked by the search
            targets[opp]["confirmed_with_check"] = meets(opp, checked[opp])
            targets[opp]["final_with_check"] = {"minutes": checked["minutes"], **checked[opp]}
    return {"run_dir": str(run_dir), "targets": targets, "points": pts}


def plot(run_dir: str | Path, out: str | Path, title: str | None = None) -> Path:
    """The learning curve on the run's clock: each opponent's win rate with its 95% band, the
    final evaluation as a marker with its interval (a diamond for the network checked by the
    search, when the recipe's evaluation plays it), and the targets as dashed lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = points(run_dir)
    opps = sorted({k for p in pts for k, v in p.items() if isinstance(v, dict)})
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    for i, opp in enumerate(opps):
        colour = f"C{i}"
        curve = [p for p in pts if opp in p and not p["final"]]
        if curve:
            xs = [p["minutes"] for p in curve]
            ax.plot(xs, [p[opp]["win_rate"] for p in curve], "o-", color=colour, label=f"against {opp}")
            ax.fill_between(xs, [p[opp]["ci95"][0] for p in curve], [p[opp]["ci95"][1] for p in curve],
                            color=colour, alpha=0.15)
        for p in pts:
            if p["final"] and opp in p:
                r = p[opp]
                ax.errorbar([p["minutes"]], [r["win_rate"]], color=colour, marker="D" if p.get("check") else "s",
                            capsize=4, yerr=[[r["win_rate"] - r["ci95"][0]], [r["ci95"][1] - r["win_rate"]]],
                            label=f"final, {r['games']} games against {opp}"
                            + (", with the search's check" if p.get("check") else ""))
        if opp in TARGETS:
            ax.axhline(TARGETS[opp][1], color=colour, linestyle="--", linewidth=0.8)
    ax.set_xlabel("wall minutes of training (the learning curve's games not counted)")
    ax.set_ylabel("win rate of the network")
    ax.set_ylim(0, 1)
    ax.set_xlim(left=0)
    ax.grid(alpha=0.3)
    ax.set_title(title or f"Time to strength: {Path(run_dir).name}")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
