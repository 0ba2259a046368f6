"""Card and deck what-ifs across skill (``hostwcg balance compare --patch ... --swap ...``;
docs/balance.md, "Card and deck what-ifs").

Configuration A is the study as given, B the same study with the card patches and deck swaps
of ``patches.py``: the same decks (by id), schedule, seeds and agent seeds, so every game of B
pairs with one of A (``compare.py``). A what-if is played under each agent of ``agents``
(default the skill-robust pair ``lookahead`` and ``ppo_v1``, each in both seats), one ordinary
comparison per agent in ``OUT/<agent>/``; then each change (a deck's win rate against the field,
a card's, a matchup's, the first player's) gets a verdict under each agent, ``up`` (its 95%
interval lies above 0), ``down`` or ``unclear``, and a conclusion across agents: it ``holds``
when every agent gives the same clear verdict, is ``reversed`` when two give opposite ones, and
otherwise ``depends`` (``skill.agreement``). ``OUT/whatif.csv`` and ``OUT/whatif.md`` hold the
table.
"""

from __future__ import annotations

import argparse
import csv
from collections.abc import Mapping, Sequence
from pathlib import Path

from .compare import CompareResult, SequentialPlan, run_compare
from .records import RuleValue
from .simulate import Study
from .skill import agreement, verdict
from .stats import Cell, Row, num_or_none, text

ROBUST_AGENTS = ("lookahead", "ppo_v1")  # the strongest fast agents (docs/balance.md, "Balance across skill")
SHOWN = ("game", "deck", "card")


def run_whatif(study: Study, patches: Sequence[str], swaps: Sequence[str], out: str | Path,
               agents: Sequence[str] = ROBUST_AGENTS, rules_b: Mapping[str, RuleValue] | None = None,
               workers: int | None = None, quiet: bool = False, fresh: bool = False,
               sequential: SequentialPlan | None = None, stop_after: int | None = None,
               backend: str = "local", address: str | None = None) -> tuple[dict[str, CompareResult], list[Row]]:
    """Play the what-if under each agent; the comparisons by agent and the table across them."""
    folder = Path(out)
    results: dict[str, CompareResult] = {}
    for agent in agents:
        a = Study(study.decks, study.games, (agent, agent) if len(agents) > 1 else study.agents, dict(study.rules),
                  study.seed, study.mirrors, "A", study.max_width, study.patches)
        b = a.with_changes(patches, swaps, "B")
        if rules_b:
            b = b.with_rules(rules_b, "B")
        sub = folder / agent if len(agents) > 1 else folder
        results[agent] = run_compare(a, b, out=sub, backend=backend, workers=workers, address=address, quiet=quiet,
                                     sequential=sequential, stop_after=stop_after, fresh=fresh)
    rows = across(results)
    folder.mkdir(parents=True, exist_ok=True)
    if rows:
        with (folder / "whatif.csv").open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    from .patches import changed_cards

    text = markdown(study, patches, swaps, results, rows, changed_cards(patches, swaps))
    (folder / "whatif.md").write_text(text + "\n", encoding="utf-8")
    return results, rows


def cli(args: argparse.Namespace, study: Study, out: Path) -> int:
    """``hostwcg balance compare --patch/--swap``: the what-if under the skill-robust agents (or
    the agent given with --agent/--agents), each comparison's report, and the table across."""
    from .compare import metric
    from .simulate import parse_rules

    plan = None
    if args.sequential:
        metric(args.metric)  # raises ValueError on an unknown metric
        plan = SequentialPlan(args.metric, args.look_every, args.alpha, args.spending)
    given = args.agents or args.agent
    agents: Sequence[str] = (study.agents[0] if study.agents[0] == study.agents[1] else ",".join(study.agents),) \
        if given else ROBUST_AGENTS
    results, _ = run_whatif(study, args.patch, args.swap, out, agents=agents, rules_b=parse_rules(args.compare),
                            workers=args.workers, quiet=args.quiet, fresh=args.fresh, sequential=plan,
                            stop_after=args.stop_after, backend=args.backend, address=args.address)
    for agent, res in results.items():
        if not res.a.records:
            print(f"no games in {res.out} yet")
            return 1
        res.write_report(plots=not args.no_plots)
        if res.decision:
            print(f"{agent}: {res.decision}")
    print((out / "whatif.md").read_text(), end="")
    print(f"wrote whatif.md and whatif.csv to {out}; each agent's comparison (compare.html) in "
          + (f"{out}/<agent>/" if len(results) > 1 else str(out)))
    return 0


def across(results: dict[str, CompareResult]) -> list[Row]:
    """One row per statistic of the comparisons: each agent's B - A, interval and verdict, and
    the conclusion across agents. Per-card rows: the ``drawn`` condition only."""
    agents = list(results)
    keyed: dict[tuple[Cell, Cell, Cell], Row] = {}
    for agent, res in results.items():
        for r in res.diffs:
            if r["table"] == "card" and r["stat"] != "win_rate:drawn":
                continue
            k = (r["table"], r["stat"], r["scope"])
            row = keyed.setdefault(k, {"table": r["table"], "stat": r["stat"], "scope": r["scope"]})
            row[f"{agent}_diff"] = r["diff"]
            row[f"{agent}_ci_low"] = r["ci_low"]
            row[f"{agent}_ci_high"] = r["ci_high"]
            row[f"{agent}_n"] = r["n"]
            row[f"{agent}_verdict"] = verdict(num_or_none(r["ci_low"]), num_or_none(r["ci_high"]), 0.0, ("up", "down"))
    rows = []
    for row in keyed.values():
        verdicts = [text(row.get(f"{a}_verdict", "unclear")) for a in agents]
        row["across"] = agreement(verdicts) if len(agents) > 1 else verdicts[0]
        row["significant"] = any(v != "unclear" for v in verdicts)
        rows.append(row)
    return rows


def markdown(study: Study, patches: Sequence[str], swaps: Sequence[str], results: dict[str, CompareResult],
             rows: Sequence[Row], touched: set[str]) -> str:
    """The what-if for the terminal and ``whatif.md``: every deck, every changed card, and any
    other change significant under some agent, with each agent's B - A and 95% interval."""
    agents = list(results)
    changes = [f"patch {p}" for p in patches] + [f"swap {s}" for s in swaps]
    pairs = {a: len(r.a.records) for a, r in results.items()}
    first = next(iter(results.values())).a.study
    also = f" (and the same under {', '.join(agents[1:])})" if len(agents) > 1 else ""
    lines = [f"What-if: {'; '.join(changes)}", f"A: {first.describe()}{also}",
             "paired games: " + ", ".join(f"{a} {n}" for a, n in pairs.items()), ""]
    head = f"{'statistic':46}" + "".join(f" {a[:22]:>24}" for a in agents)
    lines.append(head + ("  across agents" if len(agents) > 1 else ""))

    def shown(r: Row) -> bool:
        if r["table"] == "deck" or (r["table"] == "game" and r["stat"] == "first_player"):
            return True
        if r["table"] == "card" and text(r["scope"]).split(": ", 1)[-1] in touched:
            return True
        return bool(r["significant"]) and r["table"] in SHOWN

    for r in rows:
        if not shown(r):
            continue
        rate = r["stat"] not in ("turns", "decisions")
        label = f"{r['table']} {r['scope']}"
        cells = ""
        for a in agents:
            d = r.get(f"{a}_diff")
            if d is None:
                cells += f" {'-':>24}"
                continue
            lo, hi = r.get(f"{a}_ci_low"), r.get(f"{a}_ci_high")
            k = 100 if rate else 1
            ci = "" if lo is None or hi is None else f"[{k * lo:+.1f},{k * hi:+.1f}]"
            mark = "*" if r[f"{a}_verdict"] != "unclear" else " "
            cells += f" {f'{k * d:+.1f} {ci}{mark}':>24}"
        lines.append(f"{label[:46]:46}{cells}" + (f"  {r['across']}" if len(agents) > 1 else ""))
    lines.append("")
    lines.append("B - A in points (rates) with its 95% interval; * the interval excludes 0 (significant, "
                 "not adjusted for multiplicity). Across agents: holds = the same clear direction under "
                 "every agent, reversed = opposite directions, depends = some agent cannot tell.")
    holds = [r for r in rows if r["across"] == "holds" and r["table"] in SHOWN]
    if len(agents) > 1:
        lines.append(f"{len(holds)} change(s) hold across {', '.join(agents)}"
                     + (": " + "; ".join(f"{r['table']} {r['scope']} {r['across_dir']}" for r in _dirs(holds, agents))
                        if holds else "."))
    return "\n".join(lines)


def _dirs(rows: Sequence[Row], agents: Sequence[str]) -> list[Row]:
    return [{**r, "across_dir": r[f"{agents[0]}_verdict"]} for r in rows]
