"""The pre-registered first-turn study (docs/lab/first-turn-study.md): which first-turn house
rule (docs/rulings.md A56) is the smallest that makes the first player's win rate fair.

Everything that decides the result is fixed here, before any game: the compensations and their
order, the agents, the decks (every shipped preconstructed deck), the games per deck pair and
the base seed. :func:`run_first_turn_study` plays one ordinary, resumable balance study per agent
and compensation (``OUT/<agent>/<label>/``) and writes the table (``OUT/first_turn.csv``,
``OUT/first_turn.md``) with the decision rule applied.

The decision rule: a compensation *meets* the goal under an agent when the first player's win
rate over all its games lies within 47-53% and its 95% interval inside 45-55%: the balance
report's interval, clustered by seed (``stats.wilson_clustered``; every deck pair plays the same
seeds, so a study's games are not independent). The
recommendation is the smallest compensation that meets it under every agent; size is the
number of # it is worth (one card counts as one #: the 1-# action draws a card, 11.3.2), ties
going to the earlier one in :data:`COMPENSATIONS`.

The rule is a function of the rows, so it can be decided before every row is in
(:func:`decision`): a compensation that fails under one agent is out whatever the others give,
and the first one, in the rule's order, that meets under every agent is the recommendation
whatever the larger ones give. The command plays first the studies the decision still waits on,
then the rest of the table.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .stats import Row, num

if TYPE_CHECKING:
    from .simulate import Study

AGENTS = ("lookahead", "ppo_v1")
GAMES = 400  # per deck pair, seats swapped on paired seeds
SEED = 50_000_000  # fresh: earlier studies used 0 and 40,000,000-43,000,000 (docs/balance.md)
TARGET = (0.47, 0.53)  # the first player's win rate
BAND = (0.45, 0.55)  # where its 95% interval must lie


@dataclass(frozen=True)
class Compensation:
    label: str
    rules: tuple[tuple[str, int], ...]
    size: int  # in # (a card counts as one #)

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.rules) or "the rules as written"


COMPENSATIONS = (
    Compensation("none", (), 0),
    Compensation("draw1", (("second_turn_draw", 1),), 1),
    Compensation("cards1", (("second_player_extra_cards", 1),), 1),
    Compensation("ap2nd1", (("second_turn_extra_ap", 1),), 1),
    Compensation("cut1", (("first_turn_ap_cut", 1),), 1),
    Compensation("ap2nd2", (("second_turn_extra_ap", 2),), 2),
    Compensation("cut2", (("first_turn_ap_cut", 2),), 2),
)


def meets(row: Row, target: tuple[float, float] = TARGET, band: tuple[float, float] = BAND) -> bool:
    """The decision rule on one row (``win_rate``, ``ci_low``, ``ci_high``)."""
    return (target[0] <= num(row["win_rate"]) <= target[1]) and band[0] <= num(row["ci_low"]) \
        and num(row["ci_high"]) <= band[1]


def in_rule_order(compensations: Sequence[Compensation] = COMPENSATIONS) -> list[Compensation]:
    """The compensations smallest first, ties in the table's order: the order the rule tries them."""
    return [c for _, c in sorted(enumerate(compensations), key=lambda ic: (ic[1].size, ic[0]))]


def recommend(rows: Sequence[Row], agents: Sequence[str] = AGENTS) -> Compensation | None:
    """The smallest compensation that meets the rule under every agent (None: none does), the
    rows taken as the whole table (a missing row does not meet)."""
    have = {(r["agent"], r["compensation"]) for r in rows}
    absent: list[Row] = [{"agent": a, "compensation": c.label, "meets": False}
                         for c in COMPENSATIONS for a in agents if (a, c.label) not in have]
    return decision([*rows, *absent], agents)[0]  # a whole table leaves the rule nothing to wait on


def decision(rows: Sequence[Row], agents: Sequence[str] = AGENTS, compensations: Sequence[Compensation] = COMPENSATIONS
             ) -> tuple[Compensation | None, list[tuple[str, str]]]:
    """The rule applied to the rows played so far: (the recommendation, the studies (agent,
    label) it still waits on). An empty list means decided, and no row still to come can change
    it: each smaller compensation fails under some agent, and this one meets under every agent
    (None: every compensation fails under some agent). Otherwise the list names the missing
    studies of the first compensation, in the rule's order, that no row has ruled out."""
    meets_ = {(r["agent"], r["compensation"]): bool(r["meets"]) for r in rows}
    for c in in_rule_order(compensations):
        if any(meets_.get((a, c.label)) is False for a in agents):
            continue
        missing = [(a, c.label) for a in agents if (a, c.label) not in meets_]
        return (None, missing) if missing else (c, [])
    return None, []


def run_first_turn_study(out: str | Path, workers: int | None = None, games: int = GAMES, seed: int = SEED,
                         agents: Sequence[str] = AGENTS, decks: Sequence[str] | None = None,
                         compensations: Sequence[Compensation] = COMPENSATIONS,
                         quiet: bool = False, kept: str | Path | None = None) -> list[Row]:
    """Play (or resume) every agent x compensation study under ``out`` and write the tables.
    The defaults are the pre-registered study; smaller ``games``/``decks`` only to check it.
    ``kept``: a ``first_turn.csv`` this command wrote earlier (kept in the repository): each of
    its rows with this study's games counts as played, and is not played again."""
    from .simulate import Study, run_study

    folder = Path(out)
    plan = [(agent, c) for agent in agents for c in compensations]
    studies = {(a, c.label): Study.make(decks=decks, games=games, agents=a, rules=dict(c.rules), seed=seed)
               for a, c in plan}
    rows: dict[tuple[str, str], Row] = kept_rows(kept, plan, studies) if kept is not None else {}

    # the complete studies first (nothing to play), then those the decision waits on, then the rest
    for agent, c in plan:
        study, sub = studies[agent, c.label], folder / agent / c.label
        if (agent, c.label) in rows:
            if not quiet:
                print(f"{agent} / {c.label}: complete in {kept}", flush=True)
            continue
        back = played_elsewhere(study, sub, agent, c)
        if back is not None:  # its report came back from another machine without its records
            if not quiet:
                print(f"{agent} / {c.label}: complete in {sub / 'report' / 'games.csv'}", flush=True)
            rows[agent, c.label] = back
        elif sub.is_dir():  # its kept records, read once: the row when they are every game
            res = run_study(study, out=sub, stop_after=0, quiet=True)
            if len(res.records) == study.n_games:
                rows[agent, c.label] = study_row(agent, c, res.tables["first_player"][0])
    while pending := [(a, c) for a, c in plan if (a, c.label) not in rows]:
        waits = decision(list(rows.values()), agents, compensations)[1]
        agent, c = next(((a, c) for a, c in pending if (a, c.label) in waits), pending[0])
        study = studies[agent, c.label]
        if not quiet:
            print(f"{agent} / {c.label}: {study.describe()}", flush=True)
        res = run_study(study, out=folder / agent / c.label, workers=workers, quiet=quiet)
        rows[agent, c.label] = study_row(agent, c, res.tables["first_player"][0])
        # the table so far, after every study: a run stopped before the end leaves its rows
        write_tables([rows[a, c.label] for a, c in plan if (a, c.label) in rows], folder, agents, games, seed)
    table = [rows[a, c.label] for a, c in plan]
    write_tables(table, folder, agents, games, seed)
    return table


def kept_rows(path: str | Path, plan: Sequence[tuple[str, Compensation]], studies: dict[tuple[str, str], Study]
              ) -> dict[tuple[str, str], Row]:
    """The rows of a kept ``first_turn.csv`` that are studies of ``plan``: same agent, label and
    rule flags, and every game of the study (a row short of games is left to play). A file
    that is not such a table raises ``ValueError`` naming it."""
    want = {(a, c.label): c for a, c in plan}
    out: dict[tuple[str, str], Row] = {}
    with Path(path).open(newline="") as fh:
        reader = csv.DictReader(fh)
        columns = {"agent", "compensation", "rules", "games", "seeds", "win_rate", "ci_low", "ci_high", "design_effect"}
        missing = columns - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{path}: not a first-turn table (no column {', '.join(sorted(missing))})")
        for r in reader:
            c = want.get((r["agent"], r["compensation"]))
            if c is None or r["rules"] != c.describe() or int(r["games"]) != studies[r["agent"], c.label].n_games:
                continue
            out[r["agent"], c.label] = study_row(r["agent"], c, {
                "games": int(r["games"]), "seeds": int(r["seeds"]), "win_rate": float(r["win_rate"]),
                "ci_low": float(r["ci_low"]), "ci_high": float(r["ci_high"]),
                "design_effect": float(r["design_effect"])})
    return out


def study_row(agent: str, c: Compensation, fp: Row) -> Row:
    """A study's row of the table from its ``first_player`` row of scope ``all``."""
    row: Row = {"agent": agent, "compensation": c.label, "rules": c.describe(), "size": c.size,
                "games": fp["games"], "seeds": fp["seeds"], "win_rate": fp["win_rate"],
                "ci_low": fp["ci_low"], "ci_high": fp["ci_high"], "design_effect": fp["design_effect"]}
    row["meets"] = meets(row)
    return row


def played_elsewhere(study: Study, folder: Path, agent: str, c: Compensation) -> Row | None:
    """The row of a study under ``folder`` that holds no records but a ``report/games.csv`` with
    every game of this study (a part played on another machine), else None (play it: a folder
    with records resumes from them). A folder of another study raises ``StudyMismatch``."""
    from .recordfile import shard_files
    from .simulate import prepare_out

    path = folder / "report" / "games.csv"
    shards = folder / "shards"
    if not path.is_file() or (shards.is_dir() and shard_files(shards)):
        return None
    prepare_out(study, folder)  # the study.json there must be this study's
    return row_from_games_csv(path, agent, c, study)


def row_from_games_csv(path: str | Path, agent: str, c: Compensation, study: Study) -> Row | None:
    """A study's row from its report's ``games.csv`` (one line a game: seed, winner, first
    player), for a study played elsewhere whose records did not travel: the same statistic as
    the report's ``first_player.csv``, scope ``all``. None unless the file holds exactly the
    games of ``study``, key by key (checked in the same pass)."""
    from .stats import pooled_row

    xs: list[tuple[int, float]] = []
    keys: list[str] = []
    with Path(path).open(newline="") as fh:
        for r in csv.DictReader(fh):
            won = r["winner"]
            keys.append(r["key"])
            xs.append((int(r["seed"]), 0.5 if won not in ("A", "B") else float(won == r["first_player"])))
    if sorted(keys) != sorted(s.key for s in study.specs()):
        return None
    return study_row(agent, c, pooled_row(xs, max_width=1.0, detail=True))


def tables_from_reports(out: str | Path, games: int = GAMES, seed: int = SEED, agents: Sequence[str] = AGENTS,
                        decks: Sequence[str] | None = None) -> list[Row]:
    """The table from the studies under ``out`` whose ``report/games.csv`` holds every game of
    the study, without playing: for parts of the study played on other machines, whose records
    stayed there (``python scripts/first_turn_study.py --from-reports``)."""
    from .simulate import Study

    folder = Path(out)
    rows = []
    for agent in agents:
        for c in COMPENSATIONS:
            path = folder / agent / c.label / "report" / "games.csv"
            if not path.is_file():
                continue
            row = row_from_games_csv(path, agent, c, Study.make(decks=decks, games=games, agents=agent,
                                                                rules=dict(c.rules), seed=seed))
            if row is not None:
                rows.append(row)
    if rows:
        write_tables(rows, folder, agents, games, seed)
    return rows


def write_tables(rows: Sequence[Row], folder: Path, agents: Sequence[str], games: int, seed: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "first_turn.csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (folder / "first_turn.md").write_text(markdown(rows, agents, games, seed), encoding="utf-8")


def markdown(rows: Sequence[Row], agents: Sequence[str], games: int, seed: int) -> str:
    lines = [f"First player's win rate, {games} games a deck pair, seed {seed} "
             "(docs/lab/first-turn-study.md); 95% intervals clustered by seed", "",
             "| compensation | size (#) | " + " | ".join(agents) + " |",
             "|---|---:|" + "---|" * len(agents)]
    by = {(r["agent"], r["compensation"]): r for r in rows}
    for c in COMPENSATIONS:
        cells = []
        for a in agents:
            r = by.get((a, c.label))
            cells.append("" if r is None else f"{100 * num(r['win_rate']):.1f}% [{100 * num(r['ci_low']):.1f}, "
                         f"{100 * num(r['ci_high']):.1f}]{' meets' if r['meets'] else ''} "
                         f"(n={r['games']}, {r['seeds']} seeds, design effect {num(r['design_effect']):.2f})")
        if any(cells):
            lines.append(f"| {c.describe()} | {c.size} | " + " | ".join(cells) + " |")
    n = len(agents) * len(COMPENSATIONS)
    if len(rows) < n:
        early, waits = decision(rows, agents)
        if waits:
            lines += ["", f"Recommendation: none yet ({len(rows)} of {n} studies complete; the decision waits on "
                          + ", ".join(f"{a} / {label}" for a, label in waits) + ")"]
        else:
            lines += ["", "Recommendation: " + (early.describe() if early else "none: no compensation meets the "
                                                "rule under every agent")
                      + f" (decided with {len(rows)} of {n} studies complete: no study still to come can change it)"]
        return "\n".join(lines) + "\n"
    best = recommend(rows, agents)
    lines += ["", "Recommendation: " + (f"{best.describe()} (the smallest compensation that meets the rule "
                                        f"under {', '.join(agents)})" if best else
                                        "none of the compensations meets the rule under every agent")]
    return "\n".join(lines) + "\n"
