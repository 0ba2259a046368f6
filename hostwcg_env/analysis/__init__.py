"""Balance analysis by self-play: studies of decks x decks with agents, statistics with
confidence intervals, rule-variant comparisons, game records and replays (docs/balance.md).

    from hostwcg_env.analysis import Study, run_study, compute_tables
    study = Study.make(decks=["brae_deep_roots", "karsh_ember_tide"], games=10)
    result = run_study(study, out="runs/balance-demo", workers=1)
    frames = result.frames()          # pandas DataFrames by table name
    result.write_report()             # CSV, Parquet, PNG plots, report.html in the out folder

Modules: ``runner`` (the one way to play a seeded game: a spec in, a record out), ``records``
(the game record, one format for every results file), ``recordfile`` (results files: appended
whole or not at all, resumed, read), ``simulate`` (studies, seeds, resumable runs), ``backends``
(serial, multiprocessing, Ray), ``stats`` (intervals and the tables), ``report``
(CSV/Parquet/PNG/HTML), ``compare`` (A/B rule variants, sequential tests), ``replay`` (exact
replays of recorded games), ``ladder`` (the evaluation ladder between agents), ``tally`` (the
ladder report's sums, memory flat in the games), ``selfplay`` (random self-play and the deck
matrix), ``distill`` (demonstrations from records).
"""

from __future__ import annotations

from .recordfile import iter_records, read_records
from .records import DeckRef
from .replay import replay
from .runner import GameSpec, play
from .simulate import BalanceResult, Study, play_game, run_study
from .stats import compute_tables

__all__ = [
    "BalanceResult",
    "DeckRef",
    "GameSpec",
    "Study",
    "compute_tables",
    "iter_records",
    "play",
    "play_game",
    "read_records",
    "replay",
    "run_study",
]
