"""The designer's balance studio: the first-turn flag of the report and the pre-registered
first-turn study (docs/lab/first-turn-study.md), card and deck what-ifs (``balance compare
--patch/--swap``, analysis/patches.py and whatif.py), ``balance --agent ppo_v1``. Studies here
are tiny: the machine is small."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env.analysis import Study, read_records, run_study
from hostwcg_env.analysis.firstturn import COMPENSATIONS, SEED, decision, meets, recommend, run_first_turn_study
from hostwcg_env.analysis.patches import (
    PatchError,
    parse_patch,
    parse_swap,
    patched_pool,
    swap_deck,
)
from hostwcg_env.analysis.replay import new_game, spec_of
from hostwcg_env.analysis.report import first_player_flag, text_summary
from hostwcg_env.analysis.simulate import StudyMismatch, resolve_decks
from hostwcg_env.cards import default_pool
from hostwcg_env.cli import main

DECKS2 = ["brae_deep_roots", "karsh_ember_tide"]
DECKS3 = ["brae", "karsh", "lior"]


# ============================================================================ the first player


def _fp(rate: float, lo: float, hi: float) -> dict:
    return {"first_player": [{"scope": "all", "games": 400, "win_rate": rate, "ci_low": lo, "ci_high": hi,
                              "too_wide": False}], "lengths": [], "decks": [], "matchups": [], "hosts": [], "cards": []}


def test_the_report_flags_a_first_player_rate_outside_45_55() -> None:
    high = first_player_flag(_fp(0.674, 0.665, 0.682))
    assert high is not None and "67.4%" in high and "first player is favoured" in high
    assert "first_turn_ap_cut" in high and "A56" in high
    low = first_player_flag(_fp(0.44, 0.40, 0.48))
    assert low is not None and "second player is favoured" in low
    assert first_player_flag(_fp(0.55, 0.50, 0.60)) is None and first_player_flag(_fp(0.45, 0.4, 0.5)) is None
    assert "FIRST PLAYER" in text_summary(_fp(0.6, 0.55, 0.65), {"study": "s"})
    assert "FIRST PLAYER" not in text_summary(_fp(0.5, 0.45, 0.55), {"study": "s"})


def test_the_first_turn_decision_rule() -> None:
    def row(agent: str, label: str, rate: float, lo: float, hi: float) -> dict:
        r = {"agent": agent, "compensation": label, "win_rate": rate, "ci_low": lo, "ci_high": hi}
        return {**r, "meets": meets(r)}

    assert meets({"win_rate": 0.52, "ci_low": 0.46, "ci_high": 0.549})
    assert not meets({"win_rate": 0.535, "ci_low": 0.51, "ci_high": 0.54})  # outside 47-53
    assert not meets({"win_rate": 0.50, "ci_low": 0.44, "ci_high": 0.54})  # interval leaves 45-55
    rows = [row("lookahead", "cut1", 0.50, 0.48, 0.52), row("ppo_v1", "cut1", 0.56, 0.54, 0.58),
            row("lookahead", "cut2", 0.49, 0.47, 0.51), row("ppo_v1", "cut2", 0.50, 0.48, 0.52),
            row("lookahead", "ap2nd2", 0.50, 0.48, 0.52), row("ppo_v1", "ap2nd2", 0.51, 0.49, 0.53)]
    best = recommend(rows)
    assert best is not None and best.label == "ap2nd2"  # size 2 like cut2, and listed first
    assert recommend(rows[:2]) is None


def test_the_first_turn_decision_is_made_once_no_row_to_come_can_change_it() -> None:
    def row(agent: str, label: str, ok: bool) -> dict:
        return {"agent": agent, "compensation": label, "meets": ok}

    fails = [row("lookahead", c.label, False) for c in COMPENSATIONS[:5]]
    # nothing played: the rule waits on the rules as written, under both agents
    assert decision([]) == (None, [("lookahead", "none"), ("ppo_v1", "none")])
    # the five smaller ones fail under the lookahead: it waits on ap2nd2 (size 2, listed before cut2)
    assert decision(fails) == (None, [("lookahead", "ap2nd2"), ("ppo_v1", "ap2nd2")])
    # ap2nd2 fails too and cut2 meets under the lookahead: only ppo_v1's cut2 can decide
    look = [*fails, row("lookahead", "ap2nd2", False), row("lookahead", "cut2", True)]
    assert decision(look) == (None, [("ppo_v1", "cut2")])
    best, waits = decision([*look, row("ppo_v1", "cut2", True)])
    assert best is not None and best.label == "cut2" and waits == []  # ppo_v1's other six rows cannot change it
    assert decision([*look, row("ppo_v1", "cut2", False)]) == (None, [])  # decided: none meets
    # the same rows as a whole table give the same answer
    assert recommend([*look, row("ppo_v1", "cut2", True)]) is best


def test_the_first_turn_study_plays_the_studies_the_decision_waits_on_first(tmp_path: Path, monkeypatch) -> None:
    import hostwcg_env.analysis.simulate as simulate
    from hostwcg_env.analysis import firstturn

    monkeypatch.setattr(firstturn, "meets", lambda row: row["compensation"] == "draw1")  # a rule to order by
    played: list[tuple[str, str, int]] = []
    inner = simulate.run_study

    def run_study(study: Study, **kw):
        res = inner(study, **kw)
        played.append((study.agents[0], str(study.rules), res.new_games))
        return res

    monkeypatch.setattr(simulate, "run_study", run_study)
    kw = dict(workers=1, games=2, agents=("random", "heuristic"), decks=DECKS2, compensations=COMPENSATIONS[:3],
              quiet=True)
    tables: list[int] = []
    write = firstturn.write_tables
    monkeypatch.setattr(firstturn, "write_tables", lambda rows, *a: (tables.append(len(rows)), write(rows, *a)))
    rows = run_first_turn_study(tmp_path, **kw)
    assert tables == [1, 2, 3, 4, 5, 6, 6]  # the table after every study, then the whole
    # none fails under random, so heuristic/none cannot decide: draw1 is played under both agents next
    assert [p[:2] for p in played[:3]] == [("random", "{}"), ("random", "{'second_turn_draw': 1}"),
                                           ("heuristic", "{'second_turn_draw': 1}")]
    assert len(played) == 6 and all(n == 2 for *_, n in played)
    assert [(r["agent"], r["compensation"]) for r in rows] == [(a, c.label) for a in ("random", "heuristic")
                                                               for c in COMPENSATIONS[:3]]
    # draw1 meets under both and the one smaller fails: decided, though 8 of the 14 studies are missing
    assert "Recommendation: second_turn_draw=1 (decided with 6 of 14 studies complete" in \
        (tmp_path / "first_turn.md").read_text()
    # resumed, every study is complete: their rows come back and no game is played again
    played.clear()
    assert run_first_turn_study(tmp_path, **kw) == rows
    assert len(played) == 6 and all(n == 0 for *_, n in played)


def test_the_first_turn_study_runs_on_a_tiny_budget(tmp_path: Path) -> None:
    rows = run_first_turn_study(tmp_path, workers=1, games=2, agents=("random",), decks=DECKS2,
                                compensations=COMPENSATIONS[:2], quiet=True)
    assert [r["compensation"] for r in rows] == ["none", "draw1"] and all(r["games"] == 2 for r in rows)
    assert all(r["seeds"] == 1 and r["design_effect"] == 1.0 for r in rows)  # one seed: nothing to cluster
    recs = read_records(tmp_path / "random" / "draw1")
    assert recs and all(r["rules"] == {"second_turn_draw": 1} for r in recs)
    assert (tmp_path / "first_turn.csv").exists()
    assert "second_turn_draw=1" in (tmp_path / "first_turn.md").read_text()
    assert main(["replay", str(tmp_path / "random" / "draw1"), "--all"]) == 0  # the record's rules replay
    assert "none yet (2 of 7 studies complete" in (tmp_path / "first_turn.md").read_text()


def test_the_first_turn_table_from_reports_played_elsewhere(tmp_path: Path) -> None:
    """A part played on another machine brings back its reports, not its records: the table made
    from each report's games.csv is the one the records give, and an incomplete study is left out."""
    from hostwcg_env.analysis.firstturn import tables_from_reports

    rows = run_first_turn_study(tmp_path, workers=1, games=4, agents=("random",), decks=DECKS3,
                                compensations=COMPENSATIONS[:2], quiet=True)
    for c in COMPENSATIONS[:2]:
        folder = tmp_path / "random" / c.label
        study = Study.make(decks=DECKS3, games=4, agents="random", rules=dict(c.rules), seed=SEED)
        run_study(study, out=folder, workers=1, quiet=True).write_report(folder / "report", plots=False)
        shutil.rmtree(folder / "shards")
    (tmp_path / "first_turn.csv").unlink()
    again = tables_from_reports(tmp_path, games=4, agents=("random",), decks=DECKS3)
    assert again == rows and (tmp_path / "first_turn.csv").exists()
    assert all(r["seeds"] == 2 for r in again)  # 4 games a pair: two seeds, seats swapped
    # a study short of games is not a row
    assert tables_from_reports(tmp_path, games=6, agents=("random",), decks=DECKS3) == []
    # and the study's own command resumes from those reports: it plays nothing again
    assert run_first_turn_study(tmp_path, workers=1, games=4, agents=("random",), decks=DECKS3,
                                compensations=COMPENSATIONS[:2], quiet=True) == rows
    assert not any(list((tmp_path / "random" / c.label / "shards").glob("*.jsonl")) for c in COMPENSATIONS[:2])
    # a report of another study is refused, not counted
    with pytest.raises(StudyMismatch, match="holds a different study"):
        run_first_turn_study(tmp_path, workers=1, games=4, agents=("random",), decks=DECKS2,
                             compensations=COMPENSATIONS[:1], quiet=True)


def test_the_first_turn_study_counts_a_kept_tables_rows_as_played(tmp_path: Path) -> None:
    """On a new machine, with only the kept first_turn.csv: its complete studies are not played
    again, a row of another budget is, and the table is the one the whole study gives."""
    kw = dict(workers=1, games=2, agents=("random",), decks=DECKS2, quiet=True)
    whole = run_first_turn_study(tmp_path / "here", compensations=COMPENSATIONS[:3], **kw)
    kept = tmp_path / "kept.csv"
    shutil.copy(tmp_path / "here" / "first_turn.csv", kept)
    text = kept.read_text().splitlines()
    kept.write_text("\n".join([*text[:3], text[3].replace(",2,1,", ",4,1,", 1)]) + "\n")  # cards1 of 4 games a pair
    rows = run_first_turn_study(tmp_path / "new", compensations=COMPENSATIONS[:3], kept=kept, **kw)
    assert [dict(r, win_rate=round(float(r["win_rate"]), 6)) for r in rows] == \
        [dict(r, win_rate=round(float(r["win_rate"]), 6)) for r in whole]
    assert sorted(p.name for p in (tmp_path / "new" / "random").iterdir()) == ["cards1"]  # only it was played
    with pytest.raises(ValueError, match="kept.csv: not a first-turn table"):
        kept.write_text("a,b\n1,2\n")
        run_first_turn_study(tmp_path / "new", compensations=COMPENSATIONS[:3], kept=kept, **kw)


def test_the_env_makes_room_for_the_second_players_extra_cards() -> None:
    from hostwcg_env.engine import RuleConfig
    from hostwcg_env.env.layout import hand_slots

    assert hand_slots(RuleConfig()) == hand_slots(RuleConfig(first_turn_ap_cut=2, second_turn_extra_ap=1))
    assert hand_slots(RuleConfig(second_player_extra_cards=2, second_turn_draw=1)) == hand_slots(
        RuleConfig(starting_hand=8)) > hand_slots(RuleConfig())


def test_balance_agent_ppo_v1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["balance", "--agent", "ppo_v1", "--decks", *DECKS2, "--games", "2", "--workers", "1",
                 "--quiet", "--no-plots", "--out", str(tmp_path)])
    assert code == 0, capsys.readouterr()
    recs = read_records(tmp_path)
    assert len(recs) == 2 and all(r["agents"] == ["ppo_v1", "ppo_v1"] for r in recs)


# ============================================================================ what-ifs


def test_parse_patch_and_swap() -> None:
    assert parse_patch("Mossback Tortoise: health=5, power=2") == ("Mossback Tortoise", {"health": 5, "power": 2})
    assert parse_patch('Grace, Aligner of Stars: cost="&&"') == ("Grace, Aligner of Stars", {"cost": "&&"})
    assert parse_swap("brae: -Nature's Bounty +2 Seed the Earth -Squire") == (
        "brae", [("-", 1, "Nature's Bounty"), ("+", 2, "Seed the Earth"), ("-", 1, "Squire")])
    for bad in ("Mossback Tortoise", "Mossback Tortoise: health", ": health=5", "Squire: name=\"Knave\""):
        with pytest.raises(PatchError, match="--patch"):
            parse_patch(bad)
    with pytest.raises(PatchError, match="write DECK: -CARD"):
        parse_swap("brae -Squire")


def test_a_patch_edits_the_card_in_memory_and_the_loader_checks_it() -> None:
    pool = patched_pool(("Mossback Tortoise: health=5, power=2",))
    assert (pool["Mossback Tortoise"].health, pool["Mossback Tortoise"].power) == (5, 2)
    assert default_pool()["Mossback Tortoise"].health == 6  # the shipped pool is untouched
    cases = {"Mossback Tortoise: health=0": "field 'health': must be at least 1, got 0",
             "Mossback Tortoise: helth=5": "unknown field 'helth'",
             "Mossback Tortoise: type=\"sorcery\"": "a Sorcery has no health",
             "Mossback Tortois: health=5": "did you mean 'Mossback Tortoise'?"}
    for text, msg in cases.items():
        with pytest.raises(PatchError) as e:
            patched_pool((text,))
        assert msg in str(e.value) and "\n" not in str(e.value) and str(e.value).startswith("--patch")


def test_a_swap_keeps_the_deck_id_and_checks_the_deck_rules() -> None:
    decks = resolve_decks(DECKS2)
    pool = default_pool()
    i, ref = swap_deck("brae: -Nature's Bounty +Seed the Earth", decks, pool)
    assert i == 0 and ref.id == "brae_deep_roots" and len(ref.main) == 50
    assert ref.main.count("Seed the Earth") == decks[0].main.count("Seed the Earth") + 1
    assert "Nature's Bounty" not in ref.main
    cases = {"brae: +Squire": "DECK_SIZE: 51",
             "brae: -Mossback Tortoise -Riverside Healer +2 Grove Tender": "COPY_LIMIT Grove Tender",
             "brae: -Squire +Grove Tender": "holds no 'Squire'", "lior: -Squire +Wolf": "not in the study",
             "brae: -Seed the Earth +Seed the Eart": "UNKNOWN_CARD"}
    for text, msg in cases.items():
        with pytest.raises(PatchError, match=msg):
            swap_deck(text, decks, pool)


def test_what_if_compare_pairs_the_games_and_records_replay(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["balance", "compare", "--decks", *DECKS2, "--games", "4", "--workers", "1", "--agent", "random",
                 "--patch", "Mossback Tortoise: health=2", "--swap", "brae: -Nature's Bounty +Seed the Earth",
                 "--quiet", "--no-plots", "--out", str(tmp_path)])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "deck brae_deep_roots" in text and "card brae_deep_roots: Mossback Tortoise" in text
    ra, rb = read_records(tmp_path / "A"), read_records(tmp_path / "B")
    assert sorted(r["key"] for r in ra) == sorted(r["key"] for r in rb) and len(rb) == 4
    assert all(r["patches"] == ["Mossback Tortoise: health=2"] for r in rb) and all("patches" not in r for r in ra)
    game = new_game(rb[0])
    assert game.state.registry["Mossback Tortoise"].health == 2 and spec_of(rb[0]).patches
    assert main(["replay", str(tmp_path / "B"), "--all"]) == 0
    rows = (tmp_path / "whatif.csv").read_text()
    assert "brae_deep_roots" in rows and "random_verdict" in rows
    # resumed: nothing new to play, and a study with other patches is refused in that folder
    assert main(["balance", "compare", "--decks", *DECKS2, "--games", "4", "--workers", "1", "--agent", "random",
                 "--patch", "Mossback Tortoise: health=2", "--swap", "brae: -Nature's Bounty +Seed the Earth",
                 "--quiet", "--no-plots", "--out", str(tmp_path)]) == 0
    assert main(["balance", "compare", "--decks", *DECKS2, "--games", "4", "--workers", "1", "--agent", "random",
                 "--patch", "Mossback Tortoise: health=3", "--quiet", "--no-plots", "--out", str(tmp_path)]) == 1
    capsys.readouterr()


def test_a_what_if_plays_a_pair_no_swap_touches_once(tmp_path: Path) -> None:
    """A swap of Brae changes the games of Brae's two pairs only: B plays those and keeps A's
    record of Karsh against Lior as its own, the very game B would have played."""
    from hostwcg_env.analysis.backends import SerialBackend
    from hostwcg_env.analysis.compare import run_compare
    from hostwcg_env.analysis.records import timeless

    class Counting(SerialBackend):
        def __init__(self) -> None:
            self.played: list[tuple[str, str]] = []

        def imap_unordered(self, specs):  # noqa: ANN001, ANN202
            self.played += [(s.label, s.key) for s in specs]
            return super().imap_unordered(specs)

    a = Study.make(decks=DECKS3, games=4)
    b = a.with_changes([], ["brae: -Nature's Bounty +Seed the Earth"], "B")
    be = Counting()
    res = run_compare(a, b, out=tmp_path, backend=be, quiet=True)
    played_b = [k for lab, k in be.played if lab == "B"]
    assert len([k for lab, k in be.played if lab == "A"]) == 12 and len(played_b) == 8
    assert all("brae_deep_roots" in k.split("|")[:2] for k in played_b)
    rb = {r["key"]: r for r in read_records(tmp_path / "B")}
    ra = {r["key"]: r for r in read_records(tmp_path / "A")}
    assert len(rb) == 12 and {r["label"] for r in rb.values()} == {"B"} and len(res.b.records) == 12
    shared = [k for k in rb if "brae_deep_roots" not in k.split("|")[:2]]
    assert len(shared) == 4 and all(rb[k] == {**ra[k], "label": "B"} for k in shared)
    alone = {r["key"]: r for r in run_study(b, workers=1, quiet=True).records}  # B played in full
    for k in shared:
        assert (alone[k]["winner"], alone[k]["actions"]) == (rb[k]["winner"], rb[k]["actions"])
    # resumed: nothing is played again; stopped part way and resumed: still 12 + 8 games in all
    again = Counting()
    run_compare(a, b, out=tmp_path, backend=again, quiet=True)
    assert again.played == []
    parts = Counting()
    run_compare(a, b, out=tmp_path / "parts", backend=parts, quiet=True, stop_after=5)
    res = run_compare(a, b, out=tmp_path / "parts", backend=parts, quiet=True)
    assert len(parts.played) == 20 and len(res.b.records) == 12
    assert {r["key"]: timeless(r) for r in read_records(tmp_path / "parts" / "B")} == \
        {k: timeless(r) for k, r in rb.items()}  # the same games (timings aside)


def test_a_bad_patch_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "compare", "--decks", *DECKS2, "--patch", "Mossback Tortoise: health=0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("balance: --patch 'Mossback Tortoise: health=0': card 'Mossback Tortoise': field 'health': "
                   "must be at least 1, got 0")


def test_a_patched_study_pairs_with_the_plain_one() -> None:
    a = Study.make(decks=DECKS2, games=2)
    b = a.with_changes(["Mossback Tortoise: health=2"], [], "B")
    assert [s.key for s in a.specs()] == [s.key for s in b.specs()]
    assert b.specs()[0].patches == ("Mossback Tortoise: health=2",) and "patches" in b.identity()
    assert "patches" not in a.identity()
    res = run_study(b, workers=1, quiet=True)
    assert all(r["patches"] == ["Mossback Tortoise: health=2"] for r in res.records)


# ============================================================================ across skill


def test_balance_skill_states_the_first_player_and_the_metagame_across_levels() -> None:
    from hostwcg_env.analysis.skill import compare, markdown

    def fp(rate: float, lo: float, hi: float) -> list[dict]:
        return [{"scope": "all", "games": 100, "win_rate": rate, "ci_low": lo, "ci_high": hi}]

    def mg(never: set[str]) -> list[dict]:
        return [{"deck": d, "nash_share": 0.0 if d in never else 0.5, "never": d in never} for d in "abc"]

    tables = {"lookahead": {"decks": [], "cards": [], "first_player": fp(0.66, 0.62, 0.70), "metagame": mg({"c"})},
              "ppo_v1": {"decks": [], "cards": [], "first_player": fp(0.60, 0.56, 0.64), "metagame": mg({"b", "c"})}}
    skill = compare(tables)
    (row,) = skill["first_player"]
    assert row["across_skill"] == "holds" and row["lookahead:verdict"] == "first favoured"
    assert not row["in_band_at_every_level"]
    meta = {r["deck"]: r["across_skill"] for r in skill["metagame"]}
    assert meta == {"a": "played at every level", "b": "depends", "c": "never at every level"}
    md = markdown(skill, ["lookahead", "ppo_v1"])
    assert "| first player | 66.0% (62.0% - 70.0%) first favoured |" in md and "A56" in md
    assert "| c | 0.0% | 0.0% | never at every level |" in md
    tables["ppo_v1"]["first_player"] = fp(0.50, 0.46, 0.54)
    assert compare(tables)["first_player"][0]["across_skill"] == "depends"
