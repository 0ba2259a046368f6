"""Balance analysis by self-play: studies of decks x decks with agents, statistics with
confidence intervals, rule-variant comparisons, game records and replays (docs/balance.md).

    from hostwcg_env.analysis import Study, run_study, compute_tables
    study = Study.make(decks=["brae_deep_roots", "karsh_ember_tide"], games=10)
    result = run_study(study, out="runs/balance-demo", workers=1)
    frames = result.frames()          # pandas DataFrames by table name
    result.write_report()             # CSV, Parquet, PNG plots, report.html in the out folder

Modules: ``records`` (the JSONL game record and its shards), ``simulate`` (studies, seeds,
resumable runs), ``backends`` (serial, multiprocessing, Ray), ``stats`` (intervals and the
tables), ``report`` (CSV/Parquet/PNG/HTML), ``compare`` (A/B rule variants, sequential tests),
``replay`` (exact replays of recorded games).
"""

from __future__ import annotations

from .records import DeckRef, GameSpec, read_records
from .simulate import BalanceResult, Study, play_game, run_study
from .stats import compute_tables

__all__ = [
    "BalanceResult",
    "DeckRef",
    "GameSpec",
    "Study",
    "compute_tables",
    "play_game",
    "read_records",
    "run_study",
]
