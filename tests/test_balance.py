"""Balance analysis (hostwcg_env.analysis, ``hostwcg balance``): the schedule, resumable shards,
the statistics, the outputs, rule variants and the sequential comparison. Studies here are
tiny (a few dozen random games): the machine is small."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.analysis import Study, compute_tables, read_records, run_study
from hostwcg_env.analysis.compare import SequentialPlan, run_compare
from hostwcg_env.analysis.recordfile import ShardWriter
from hostwcg_env.analysis.records import DeckRef, rle, timeless, unrle
from hostwcg_env.analysis.report import write_tables
from hostwcg_env.analysis.simulate import StudyMismatch, parse_rules
from hostwcg_env.analysis.stats import (
    design_effect,
    mean_ci,
    newcombe,
    paired,
    sequential_bounds,
    wilson,
    wilson_clustered,
)
from hostwcg_env.cli import main

DECKS2 = ["brae_deep_roots", "karsh_ember_tide"]
DECKS3 = ["brae", "karsh", "lior"]


def _strip(recs: list[dict]) -> list[dict]:
    return [timeless(r) for r in recs]


# ============================================================================ schedule


def test_schedule_pairs_seeds_and_swaps_seats() -> None:
    st = Study.make(decks=DECKS3, games=4, seed=10)
    specs = st.specs()
    assert len(specs) == st.n_games == 3 * 4
    # seed-major: the first three games are game 0 of each pair
    assert [s.seed for s in specs[:3]] == [10, 10, 10]
    by_pair: dict[frozenset, list] = {}
    for s in specs:
        by_pair.setdefault(frozenset((s.deck_a.id, s.deck_b.id)), []).append(s)
    for games in by_pair.values():
        assert len(games) == 4
        g0, g1 = games[0], games[1]
        assert g0.seed == g1.seed  # paired seed ...
        assert (g0.deck_a, g0.deck_b) == (g1.deck_b, g1.deck_a)  # ... seats swapped
        assert games[2].seed == games[3].seed == 11
    assert len({s.key for s in specs}) == len(specs)


def test_mirrors_and_agents_and_rules() -> None:
    st = Study.make(decks=DECKS2, games=2, mirrors=True, agents="heuristic,random",
                    rules=["damage_draws=true", "ap_per_turn=3"])
    assert st.agents == ("heuristic", "random")
    assert st.rules == {"ap_per_turn": 3, "damage_draws": True}
    assert len(st.pairs()) == 3
    mirror = [s for s in st.specs() if s.deck_a == s.deck_b]
    assert len(mirror) == 4 and len({s.key for s in mirror}) == 4  # 2 decks x 2 games, own seeds
    with pytest.raises(ValueError, match="unknown rule flag"):
        parse_rules(["no_such_flag=1"])
    with pytest.raises(ValueError, match="FLAG=VALUE"):
        parse_rules(["damage_draws"])
    with pytest.raises(ValueError, match="unknown agent"):
        Study.make(decks=DECKS2, agents="nobody")
    with pytest.raises(ValueError, match="no such deck"):
        Study.make(decks=["no_such_deck"])


def test_deck_rle_round_trip() -> None:
    names = ["a", "a", "b", "a", "c", "c"]
    assert rle(names) == [["a", 2], ["b", 1], ["a", 1], ["c", 2]]
    assert unrle(rle(names)) == names
    st = Study.make(decks=DECKS2, games=1)
    for d in st.decks:
        assert DeckRef.from_json(json.loads(json.dumps(d.to_json()))) == d


# ============================================================================ resume: nothing lost


def test_interrupted_run_resumes_to_the_same_numbers(tmp_path: Path) -> None:
    st = Study.make(decks=DECKS3, games=2, seed=3)  # 6 games
    full = run_study(st, out=tmp_path / "full", workers=1, quiet=True)
    assert len(full.records) == 6 and full.new_games == 6

    part = tmp_path / "part"
    first = run_study(st, out=part, workers=1, quiet=True, stop_after=2)  # "interrupted" after 2 games
    assert len(first.records) == 2
    # an interruption in the middle of a write leaves half a line behind: it must be skipped
    shard = sorted((part / "shards").glob("shard-*.jsonl"))[-1]
    with open(shard, "a") as fh:
        fh.write('{"v":1,"key":"brae_deep_roots|karsh')
    second = run_study(st, out=part, workers=2, quiet=True, stop_after=1)  # another run, other workers
    assert second.new_games == 1 and len(second.records) == 3
    last = run_study(st, out=part, workers=1, quiet=True)
    assert last.new_games == 3  # only the missing games were played
    assert len(read_records(part, warn=False)) == 6

    assert _strip(last.records) == _strip(full.records)
    assert last.tables == full.tables
    a, b = tmp_path / "ta", tmp_path / "tb"
    write_tables(full.tables, a)
    write_tables(last.tables, b)
    for f in sorted(a.glob("*.csv")):
        assert f.read_bytes() == (b / f.name).read_bytes(), f.name
    # nothing left to play: a rerun plays nothing and gives the same tables
    again = run_study(st, out=part, workers=1, quiet=True)
    assert again.new_games == 0 and again.tables == full.tables


def test_other_study_in_same_folder_is_refused(tmp_path: Path) -> None:
    run_study(Study.make(decks=DECKS2, games=1), out=tmp_path, workers=1, quiet=True)
    with pytest.raises(StudyMismatch, match="rules"):
        run_study(Study.make(decks=DECKS2, games=1, rules=["damage_draws=true"]), out=tmp_path,
                  workers=1, quiet=True)
    # more games of the same study are fine: the folder keeps the first ones
    more = run_study(Study.make(decks=DECKS2, games=2), out=tmp_path, workers=1, quiet=True)
    assert more.new_games == 1 and len(more.records) == 2


def test_shard_writer_rotates_and_dedupes(tmp_path: Path) -> None:
    decks = [{"id": d, "host": "H", "main": []} for d in ("x", "y")]
    rec = {"v": 2, "decks": decks, "label": "", "agents": ["random", "random"], "actions": [], "winner": None}
    with ShardWriter(tmp_path, per_shard=2) as w:
        for i in range(5):
            w.write({**rec, "seed": i % 4, "key": f"x|y|{i % 4}"})
    assert len(list(tmp_path.glob("shard-*.jsonl"))) == 3
    assert [r["key"] for r in read_records(tmp_path)] == [f"x|y|{i}" for i in range(4)]


# ============================================================================ statistics


def test_intervals() -> None:
    d, lo, hi = newcombe(30, 50, 20, 50)
    # Wilson: 0.6 [0.4618, 0.7239], 0.4 [0.2761, 0.5382] -> 0.2 [0.0046, 0.3754]
    assert d == pytest.approx(0.2) and lo == pytest.approx(0.0046, abs=2e-4) and hi == pytest.approx(0.3754, abs=2e-4)
    m, lo, hi, sd = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and sd == pytest.approx(1.2910, abs=1e-4) and hi - m == pytest.approx(3.182 * sd / 2, abs=1e-3)
    p = paired([0, 0, 1, 1], [1, 1, 1, 1])
    assert p["diff"] == 0.5 and p["n"] == 4


def test_clustered_interval_is_wilson_at_the_effective_sample_size() -> None:
    # 10 seeds of 10 games, each seed all wins or all losses: the 100 games are worth 10 / 1.11
    clusters = [(10.0, 10)] * 5 + [(0.0, 10)] * 5
    deff = design_effect(50, 100, clusters)
    # between-cluster variance 10/9 * 10 * 25 / 100**2 against the binomial 0.25 / 100
    assert deff == pytest.approx((10 / 9 * 10 * 25 / 100**2) / (0.25 / 100))
    p, lo, hi, d = wilson_clustered(50, 100, clusters)
    assert (p, d) == (0.5, deff)
    assert (lo, hi) == pytest.approx(wilson(50 / deff, 100 / deff)[1:])
    assert hi - lo > 2.5 * (wilson(50, 100)[2] - wilson(50, 100)[1])
    # games independent of their seed (or that cancel within it): Wilson's interval, never narrower
    mixed = [(1.0, 2)] * 50
    assert design_effect(50, 100, mixed) == 1.0
    assert wilson_clustered(50, 100, mixed)[1:3] == wilson(50, 100)[1:]
    # nothing to estimate from: one cluster, no games, every game the same result
    assert design_effect(5, 10, [(5.0, 10)]) == design_effect(0, 0, []) == 1.0
    assert design_effect(10, 10, [(5, 5), (5, 5)]) == 1.0


def test_paired_difference_is_clustered_by_seed() -> None:
    """Pairs of one seed that move together: the cluster-robust standard error, C - 1 degrees
    of freedom; pairs independent of their seed keep the plain interval (never narrower)."""
    xs = [0.0] * 40
    ys = [1.0 if g % 2 else 0.0 for g in range(10) for _ in range(4)]  # 10 seeds of 4 identical pairs
    seeds = [g for g in range(10) for _ in range(4)]
    plain, clus = paired(xs, ys), paired(xs, ys, seeds)
    assert clus["diff"] == plain["diff"] == 0.5 and (clus["clusters"], plain["clusters"]) == (10, 40)
    sd = (sum((y - 0.5) ** 2 for y in ys) / 39) ** 0.5
    assert plain["se"] == pytest.approx(sd / 40**0.5) and plain["design_effect"] == 1.0
    # each seed's summed deviation is +-2: se = sqrt(10/9 * 10 * 4) / 40
    assert clus["se"] == pytest.approx((10 / 9 * 10 * 4) ** 0.5 / 40, abs=1e-6)
    assert clus["design_effect"] == pytest.approx((clus["se"] / plain["se"]) ** 2, abs=1e-3)
    assert clus["ci_high"] - clus["diff"] == pytest.approx(2.262 * clus["se"], abs=1e-4)  # t(0.975, 9)
    assert abs(clus["z"]) < abs(plain["z"]) / 1.8
    # within each seed the pairs differ: no widening
    mixed = [1.0 if i % 2 else 0.0 for i in range(40)]
    assert paired(xs, mixed, seeds)["se"] == paired(xs, mixed)["se"]
    with pytest.raises(ValueError, match="3 cluster labels for 40 pairs"):
        paired(xs, ys, [0, 1, 2])


def test_a_comparisons_paired_rows_are_clustered_by_seed() -> None:
    """B changes deck da's result at some seeds in every one of its pairs (one seed deals every
    pair alike): its row's pairs move together, so its interval is the cluster-robust one."""
    from hostwcg_env.analysis.compare import diff_rows, metric

    decks = [{"id": d, "name": d.upper(), "host": f"H{d}", "main": [["X", 2]]} for d in ("da", "db", "dc")]
    none = {"opening": [], "drawn": [], "played": []}
    ra, rb = [], []
    for seed in range(20):
        for x, y in ((0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)):
            pair = [decks[x], decks[y]]
            key = f"{pair[0]['id']}|{pair[1]['id']}|{seed}"
            a = {**_rec(0, 0, none, none, pair), "seed": seed, "key": key}
            da_wins_in_b = seed % 3 == 0 and 0 in (x, y)  # at a third of the seeds da wins all its games
            b = {**a, "winner": (0 if x == 0 else 1) if da_wins_in_b else 0}
            ra.append(a)
            rb.append(b)
    refs = [DeckRef(id=d["id"], name=d["name"], host=d["host"], main=("X", "X")) for d in decks]
    row = next(r for r in diff_rows(ra, rb, refs) if r["table"] == "deck" and r["scope"] == "da")
    assert (row["n"], row["seeds"]) == (80, 20) and row["design_effect"] > 1.5
    _, value, _ = metric("deck:da")
    pairs = [(value(a), value(b)) for a, b in zip(ra, rb, strict=True) if value(a) is not None]
    plain = paired([x for x, _ in pairs], [y for _, y in pairs])
    assert row["diff"] == plain["diff"]
    assert row["ci_high"] - row["ci_low"] > 1.25 * (plain["ci_high"] - plain["ci_low"])


def test_first_players_rate_is_clustered_by_seed() -> None:
    """Every deck pair plays the same seeds, so a seed that favours the first player favours it
    in every pair: the pooled rate's interval widens by the design effect; a matchup's does not."""
    da = {"id": "da", "name": "DA", "host": "HA", "main": [["X", 2]]}
    db = {"id": "db", "name": "DB", "host": "HB", "main": [["X", 2]]}
    dc = {"id": "dc", "name": "DC", "host": "HC", "main": [["X", 2]]}
    none = {"opening": [], "drawn": [], "played": []}
    recs = []
    for seed in range(20):
        first_wins = seed % 4 != 0  # 15 seeds where the first player wins every game, 5 where it loses
        for a, b in ((da, db), (db, da), (da, dc), (dc, da), (db, dc), (dc, db)):
            r = _rec(0 if first_wins else 1, 0, none, none, [a, b])
            recs.append({**r, "seed": seed, "key": f"{a['id']}|{b['id']}|{seed}"})
    t = compute_tables(recs, ["da", "db", "dc"])
    fp = t["first_player"][0]
    assert (fp["games"], fp["wins"], fp["seeds"]) == (120, 90, 20)
    assert fp["design_effect"] == pytest.approx(6 * 20 / 19, abs=1e-3)  # clusters of 6 identical games
    plain = wilson(90, 120)
    assert fp["ci_high"] - fp["ci_low"] > 2 * (plain[2] - plain[1])
    # each deck goes first and second at every seed: its rate against the field is not widened
    deck = {r["deck"]: r for r in t["decks"]}
    assert (deck["da"]["ci_low"], deck["da"]["ci_high"]) == pytest.approx(
        wilson(deck["da"]["wins"], deck["da"]["games"])[1:], abs=1e-6)
    # going first, the seed decides: widened (clusters of two games: its two opponents)
    assert deck["da"]["first_ci_high"] - deck["da"]["first_ci_low"] > 1.3 * (
        wilson(deck["da"]["first_wins"], deck["da"]["first_games"])[2]
        - wilson(deck["da"]["first_wins"], deck["da"]["first_games"])[1])
    m = {(r["deck"], r["opponent"]): r for r in t["matchups"]}
    w = m[("da", "db")]
    assert (w["ci_low"], w["ci_high"]) == pytest.approx(wilson(w["wins"], w["games"])[1:], abs=1e-6)


def test_sequential_bounds_pocock_and_type_one_error() -> None:
    # Lan-DeMets Pocock-type spending, 5 equally spaced looks, alpha 0.05 (published values)
    b = sequential_bounds([0.2, 0.4, 0.6, 0.8, 1.0], 0.05, "pocock")
    assert b == pytest.approx([2.438, 2.427, 2.410, 2.397, 2.386], abs=2e-3)
    assert sequential_bounds([1.0])[0] == pytest.approx(1.95996, abs=1e-4)
    obf = sequential_bounds([0.2, 0.4, 0.6, 0.8, 1.0], 0.05, "obf")
    assert obf[0] > 4 and obf[-1] < 2.1
    # under no difference, the chance of ever crossing is alpha (Monte Carlo, 20000 paths)
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(1)
    steps = rng.standard_normal((20000, 5)) * math.sqrt(0.2)
    s = steps.cumsum(axis=1)
    z = s / np.sqrt(np.array([0.2, 0.4, 0.6, 0.8, 1.0]))
    crossed = (np.abs(z) >= np.array(b)).any(axis=1).mean()
    assert abs(crossed - 0.05) < 0.008


def _rec(winner: int | None, first: int, cards0: dict, cards1: dict, decks: list[dict], turns: int = 10) -> dict:
    return {"key": f"{decks[0]['id']}|{decks[1]['id']}|{random.random()}", "seed": 0, "decks": decks,
            "agents": ["random", "random"], "winner": winner, "first_player": first, "reason": "damage_zone",
            "turns": turns, "decisions": 100, "cards": [cards0, cards1], "rules": {}}


def test_card_and_deck_statistics_by_hand() -> None:
    da = {"id": "da", "name": "DA", "host": "HA", "main": [["X", 2], ["Y", 1]]}
    db = {"id": "db", "name": "DB", "host": "HB", "main": [["Z", 3]]}
    none = {"opening": [], "drawn": [], "played": []}
    recs = [
        _rec(0, 0, {"opening": ["X", "X"], "drawn": ["Y"], "played": ["X"]}, none, [da, db]),
        _rec(1, 1, {"opening": ["Y"], "drawn": [], "played": []}, none, [da, db]),
        _rec(None, 1, none, {"opening": ["X"], "drawn": [], "played": ["X"]}, [db, da]),
        _rec(1, 1, none, {"opening": [], "drawn": ["X"], "played": []}, [db, da]),
    ]
    t = compute_tables(recs, ["da", "db"])
    deck = {r["deck"]: r for r in t["decks"]}
    assert deck["da"]["games"] == 4 and deck["da"]["wins"] == 2.5  # win, loss, draw, win
    assert (deck["da"]["first_games"], deck["da"]["first_wins"]) == (3, 2.5)
    assert (deck["da"]["second_games"], deck["da"]["second_wins"]) == (1, 0)
    cards = {(r["card"], r["condition"]): r for r in t["cards"] if r["deck"] == "da"}
    x = cards[("X", "drawn")]
    assert (x["games"], x["wins"]) == (3, 2.5)  # games 1, 3, 4
    assert x["baseline"] == pytest.approx(2.5 / 4)
    assert x["delta"] == pytest.approx(2.5 / 3 - 2.5 / 4, abs=1e-6)
    assert (cards[("X", "opening")]["games"], cards[("X", "drawn_later")]["games"]) == (2, 1)
    assert cards[("X", "played")]["wins"] == 1.5
    assert cards[("Y", "not_drawn")]["games"] == 2
    assert cards[("X", "not_drawn")]["wins"] == 0
    fp = t["first_player"][0]
    assert fp["games"] == 4 and fp["wins"] == 3.5  # first player won, won, drew, won
    m = {(r["deck"], r["opponent"]): r for r in t["matchups"]}
    assert m[("da", "db")]["win_rate"] == pytest.approx(0.625)
    assert m[("db", "da")]["win_rate"] == pytest.approx(0.375)
    assert all(r["too_wide"] for r in t["matchups"])  # 4 games can call nothing
    assert {r["metric"] for r in t["lengths"]} == {"turns", "decisions"}


# ============================================================================ outputs and CLI


def test_cli_balance_writes_every_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b"
    code = main(["balance", "--decks", *DECKS2, "--games", "4", "--workers", "1", "--out", str(out),
                 "--quiet", "--rule", "damage_draws=true", "--max-width", "0.9"])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "first player wins" in text and "report.html" in text
    for name in ("matchups", "matrix", "first_player", "seats", "decks", "hosts", "cards", "lengths",
                 "reasons", "games"):
        assert (out / f"{name}.csv").exists(), name
    html = (out / "report.html").read_text()
    assert "data:image/png;base64," in html and "<table>" in html and "src='http" not in html
    assert len(list((out / "plots").glob("*.png"))) >= 5
    recs = read_records(out)
    assert len(recs) == 4 and all(r["rules"] == {"damage_draws": True} for r in recs)
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    cards = pd.read_parquet(out / "cards.parquet")
    assert {"deck", "card", "condition", "win_rate", "ci_low", "ci_high", "too_wide", "delta"} <= set(cards.columns)
    # rebuild the outputs from the records alone
    assert main(["balance", "report", "--out", str(out), "--no-plots"]) == 0
    # usage errors
    assert main(["balance", "--decks", *DECKS2, "--rule", "bogus=1", "--out", str(out)]) == 2
    assert main(["balance", "--decks", *DECKS2, "--games", "4", "--out", str(out), "--quiet",
                 "--workers", "1"]) == 1  # another study (default rules) in that folder
    capsys.readouterr()


def test_frames_and_flags(tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    res = run_study(Study.make(decks=DECKS2, games=4, max_width=0.2), workers=1, quiet=True)
    f = res.frames()
    assert set(f) >= {"matchups", "cards", "hosts", "first_player", "lengths"}
    assert f["matrix"].shape == (2, 2)
    assert f["matchups"]["too_wide"].all()  # 4 games: every interval is wider than 0.2
    assert len(f["hosts"]) == 2


def test_compare_on_the_same_seeds_with_a_sequential_stop(tmp_path: Path) -> None:
    a = Study.make(decks=DECKS2, games=8)
    b = a.with_rules(parse_rules(["damage_draws=true"]), "B")
    plan = SequentialPlan(metric="turns", look_every=2)
    res = run_compare(a, b, out=tmp_path / "c", workers=1, quiet=True, sequential=plan)
    assert [r["key"] for r in res.a.records] == [r["key"] for r in res.b.records]
    assert all(r["rules"] == {"damage_draws": True} for r in res.b.records)
    assert res.looks and res.looks[-1]["games"] == len(res.a.records)
    assert res.decision.startswith("sequential test on turns")
    game = {r["stat"]: r for r in res.diffs if r["table"] == "game"}
    assert game["first_player"]["paired"] and game["turns"]["n"] == len(res.a.records)
    t = game["turns"]
    assert t["ci_low"] <= t["diff"] <= t["ci_high"]
    assert any(r["table"] == "card" and not r["paired"] for r in res.diffs)
    written = res.write_report(plots=False)
    assert (tmp_path / "c" / "compare.csv").exists() and (tmp_path / "c" / "A" / "report.html").exists()
    assert written["report"].name == "compare.html"
    # run again: nothing new to play, the same looks and decision
    again = run_compare(a, b, out=tmp_path / "c", workers=1, quiet=True, sequential=plan)
    assert again.looks == res.looks and again.decision == res.decision


def test_cli_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["balance", "compare", "--decks", *DECKS2, "--games", "2", "--workers", "1", "--quiet",
                 "--compare", "damage_draws=true", "--out", str(tmp_path), "--no-plots"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "B: changes damage_draws=True" in out and "first player's win rate" in out
    assert main(["balance", "compare", "--decks", *DECKS2]) == 2  # no --compare
    capsys.readouterr()


def test_progress_without_tqdm(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    from hostwcg_env.analysis.simulate import Progress

    monkeypatch.setitem(sys.modules, "tqdm", None)
    bar = Progress(total=4, done=1)
    for _ in range(3):
        bar.update()
    bar.close()
    err = capsys.readouterr().err
    assert "4/4 games" in err and "games/s" in err and "left" in err


def test_a_sequential_test_takes_no_look_before_min_games(tmp_path: Path) -> None:
    a = Study.make(decks=DECKS2, games=8)
    b = a.with_rules(parse_rules(["damage_draws=true"]), "B")
    every = run_compare(a, b, out=tmp_path / "c", workers=1, quiet=True,
                        sequential=SequentialPlan(metric="turns", look_every=2, alpha=0.999))
    assert every.looks[0]["games"] == 2  # alpha near 1: it stops at its first look
    late = run_compare(a, b, out=tmp_path / "c", workers=1, quiet=True,
                       sequential=SequentialPlan(metric="turns", look_every=2, alpha=0.999, min_games=5))
    assert [x["games"] for x in late.looks] == [6]  # looks at 2 and 4 dropped; the same games played on
    beyond = run_compare(a, b, out=tmp_path / "c", workers=1, quiet=True,
                         sequential=SequentialPlan(metric="turns", look_every=2, alpha=0.999, min_games=99))
    assert [x["games"] for x in beyond.looks] == [len(a.specs())]  # the last look is always taken
