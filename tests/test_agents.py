"""Baseline agents: interface, legality, ISMCTS reads no hidden state, numpy PPO = torch PPO,
the ladder and the terminal player (docs/agents.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

import hostwcg_env  # noqa: F401
from agents import AGENT_NAMES, RandomAgent, decide, make_agent
from agents.heuristic import HeuristicAgent
from agents.ismcts import ISMCTSAgent
from agents.ppo import DEFAULT, NumpyPolicy, export_sb3
from hostwcg_env.analysis.ladder import bradley_terry, run_ladder, schedule, spec_id, wilson
from hostwcg_env.analysis.records import DeckRef, record_id, shipped_deck_refs
from hostwcg_env.cards import default_ruleset
from hostwcg_env.cli import main
from hostwcg_env.engine import Game
from hostwcg_env.engine.view import determinize
from hostwcg_env.env import shipped_decks
from hostwcg_env.play import play_terminal


def _game(seed: int) -> Game:
    decks = shipped_decks(include_test=True)
    rng = random.Random(seed)
    return default_ruleset().new_game(rng.choice(decks), rng.choice(decks), seed=seed)


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_agents_play_full_games_with_legal_actions(name: str) -> None:
    for seed in range(6):
        g = _game(seed)
        agents = [make_agent(name, seed=seed), make_agent("random", seed=seed + 1)]
        while not g.is_over:
            a = decide(agents[g.decision.player], g)
            assert a in g.legal_actions()
            g.apply(a)


def test_random_agent_flat_interface_picks_legal_indices() -> None:
    agent = RandomAgent(0)
    mask = np.zeros(20, dtype=np.int8)
    mask[[3, 7]] = 1
    assert {agent.act(np.zeros(5), mask) for _ in range(50)} == {3, 7}


def test_heuristic_beats_random_most_of_the_time() -> None:
    result = run_ladder(["heuristic", "random"], games=40, quiet=True)
    row = result.rows()[0]
    assert row["agent"] == "heuristic" and row["win_rate"] >= 0.75


def _hidden_variants(seed: int, plies: int):  # type: ignore[no-untyped-def]
    g = _game(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("kw", [{}, {"anchor": None}, {"anchor": None, "rollout": "random"}])
def test_ismcts_never_reads_hidden_state(kw: dict) -> None:
    """Same public view and agent seed, different hidden cards: the same choice (with the
    heuristic anchor, with pure search, with random rollouts)."""
    checked = 0
    for seed in range(30):
        if checked >= 6:
            break
        g = _hidden_variants(seed, plies=40 + seed)
        if g.is_over or len(g.legal_actions()) < 2:
            continue
        p = g.decision.player
        other = Game(determinize(g.view(p), random.Random(99)))
        assert other.legal_actions() == g.legal_actions()
        a1 = ISMCTSAgent(iterations=12, seed=5, **kw).choose(g.view(p), g.legal_actions())
        a2 = ISMCTSAgent(iterations=12, seed=5, **kw).choose(other.view(p), other.legal_actions())
        assert a1 == a2
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("name", ["random", "heuristic", "lookahead", "pimc:4", "turnsearch:8", "ismcts:8", "ppo",
                                  "ppo_v1", "ppo_v1:look"])
def test_every_agents_choice_ignores_the_opponents_hidden_cards(name: str) -> None:
    """Agents get only their PlayerView: from many states of random games, the deciding
    agent (a fresh one, same seed) makes the same choice when the opponent's hidden cards
    (hand, deck, damage zone, face-down cards) are drawn again."""
    from hostwcg_env.testing.resample import resample_opponent

    checked = changed = 0
    for seed in range(8):
        g = _game(100 + seed)
        rng = random.Random(seed)
        k = 0
        while not g.is_over:
            d = g.decision
            if len(d.actions) > 1 and k % 7 == 0:
                s2 = resample_opponent(g.state, d.player, random.Random(k))
                if s2 is not None:
                    other = Game(s2)
                    changed += any(g.state.objs[o].card is not s2.objs[o].card for o in g.state.objs)
                    a1 = decide(make_agent(name, seed=seed), g)
                    a2 = decide(make_agent(name, seed=seed), other)
                    assert a1 == a2, f"{name}: seed {seed}, decision {k} ({d}): {a1} != {a2}"
                    checked += 1
            g.apply(rng.choice(g.legal_actions()))
            k += 1
    assert checked >= 40 and changed >= checked // 2, (checked, changed)


def test_ismcts_samples_the_opponent_from_the_deck_of_its_public_host() -> None:
    decks = shipped_decks(include_test=True)
    karsh = next(d for d in decks if d.host.startswith("Karsh"))
    brae = next(d for d in decks if d.host.startswith("Mother Brae"))
    g = default_ruleset().new_game(brae, karsh, seed=4)
    agent = ISMCTSAgent(iterations=4, seed=1)
    assert agent._opponent_cards(g.view(0)) is None  # Hosts are face down before the game (4.6.1)
    rng = random.Random(0)
    while not g.state.started:
        g.apply(rng.choice(g.legal_actions()))
    assert agent._opponent_cards(g.view(0)) == list(karsh.main)
    s = determinize(g.view(0), random.Random(1), opponent_cards=agent._opponent_cards(g.view(0)))
    hidden = [s.objs[o].card.name for o in s.players[1].hand + s.players[1].deck]
    assert set(hidden) <= set(karsh.main)


def test_ismcts_anchor_keeps_the_heuristic_choice_when_the_search_is_too_short() -> None:
    for seed in range(6):
        g = _hidden_variants(seed, plies=30 + seed)
        if g.is_over or len(g.legal_actions()) < 2:
            continue
        p = g.decision.player
        agent = ISMCTSAgent(iterations=1, seed=seed, min_visits=50)
        own = HeuristicAgent(random.Random(seed).getrandbits(32)).choose(g.view(p), g.legal_actions())
        assert agent.choose(g.view(p), g.legal_actions()) == own


def test_ismcts_plays_legal_actions_within_a_time_budget() -> None:
    g = _hidden_variants(3, plies=30)
    agent = ISMCTSAgent(iterations=10_000, time_limit=0.2, seed=1)
    for _ in range(5):
        if g.is_over:
            break
        a = decide(agent, g)
        assert a in g.legal_actions()
        g.apply(a)


@pytest.mark.slow
def test_numpy_policy_matches_torch_policy_and_masks() -> None:
    sb3 = pytest.importorskip("sb3_contrib")
    import torch

    from hostwcg_env.env.single import SingleAgentEnv

    env = SingleAgentEnv(seed=0)
    model = sb3.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [32, 16]}, seed=0)
    path = Path(__file__).parent / "_tmp_policy.npz"
    try:
        export_sb3(model, path)
        pol = NumpyPolicy.load(path)
        obs, _ = env.reset(seed=1)
        for _ in range(25):
            mask = env.action_masks()
            with torch.no_grad():
                t_obs = torch.as_tensor(obs[None], dtype=torch.float32)
                dist = model.policy.get_distribution(t_obs, action_masks=mask[None])
                t_logits = dist.distribution.logits.numpy()[0]
            n_logits = pol.logits(obs)
            legal = np.flatnonzero(mask)
            # torch normalises the masked logits; compare the legal ones up to a constant
            diff = t_logits[legal] - n_logits[legal]
            assert np.allclose(diff, diff[0], atol=1e-4)
            a_torch, _ = model.predict(obs, action_masks=mask, deterministic=True)
            assert pol.act(obs, mask) == int(a_torch)
            obs, _r, term, trunc, _i = env.step(int(a_torch))
            if term or trunc:
                obs, _ = env.reset()
    finally:
        path.unlink(missing_ok=True)
        path.with_suffix(".json").unlink(missing_ok=True)


@pytest.mark.slow
@pytest.mark.skipif(not DEFAULT.exists(), reason="no shipped checkpoint")
def test_shipped_ppo_checkpoint_plays_legal_full_games_without_torch() -> None:
    pol = make_agent("ppo", seed=0)
    for seed in range(4):
        g = _game(seed)
        other = make_agent("random", seed=seed)
        while not g.is_over:
            agent = pol if g.decision.player == seed % 2 else other
            a = decide(agent, g)
            assert a in g.legal_actions()
            g.apply(a)


def test_wilson_and_bradley_terry() -> None:
    p, lo, hi = wilson(90, 100)
    assert p == 0.9 and 0.82 < lo < 0.9 < hi < 0.95
    r = bradley_terry(["a", "b"], {("a", "b"): 75.0, ("b", "a"): 25.0})
    assert r["a"] > r["b"] and abs((r["a"] - r["b"]) - 400 * np.log10(3)) < 20


def test_schedule_swaps_seats_on_paired_seeds() -> None:
    decks = [DeckRef(f"d{i}", f"d{i}", "H", ()) for i in range(3)]
    specs = schedule(["x", "y"], 4, seed=10, decks=decks)
    assert [(*s.agents, s.seed) for s in specs] == [("x", "y", 10), ("y", "x", 10), ("x", "y", 11), ("y", "x", 11)]
    assert specs[0].deck_a == specs[1].deck_b and specs[0].deck_b == specs[1].deck_a
    assert not any(s.ask_forced for s in specs)  # the ladder takes forced actions without asking


def test_evaluate_command_writes_markdown_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path = tmp_path / "ladder.csv"
    rc = main(["evaluate", "--agents", "random,heuristic", "--games", "4", "--quiet", "--csv", str(csv_path)])
    assert rc == 0
    out = capsys.readouterr().out
    assert "Bradley-Terry" in out and "random" in out
    assert csv_path.read_text().startswith("agent,opponent,games")


def test_ladder_results_file_resumes_without_replaying(tmp_path: Path) -> None:
    """--results: every game is appended as it ends; a second run plays only the games of its
    schedule not in the file, and its report equals one uninterrupted run's."""
    path = tmp_path / "res.jsonl"
    first = run_ladder(["random", "heuristic"], games=4, quiet=True, results=path)
    assert len(path.read_text().splitlines()) == 4 and first.resumed == 0
    more = run_ladder(["random", "heuristic"], games=8, quiet=True, results=path)
    assert more.resumed == 4  # only the 4 new games were played, and appended
    assert len(path.read_text().splitlines()) == 8
    whole = run_ladder(["random", "heuristic"], games=8, quiet=True)
    assert [r["actions"] for r in more.records] == [r["actions"] for r in whole.records]
    assert more.rows() == whole.rows()
    assert "4 from the results file" in more.markdown()
    line = json.loads(path.read_text().splitlines()[0])
    assert set(line) >= {"v", "agents", "seed", "decks", "winner", "decisions", "seats", "version", "pool", "actions"}


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGTERM") or __import__("os").name != "posix",
                    reason="POSIX signals")
def test_terminated_ladder_stops_its_workers_and_keeps_finished_games(tmp_path: Path) -> None:
    """SIGTERM to a multi-worker run unwinds it: the pool stops its workers (the parent exits
    through Python, status 143, rather than dying with orphans still playing) and every line of
    the results file is a whole game, so the same command resumes."""
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "res.jsonl"
    cmd = [sys.executable, "-c", "import sys; from hostwcg_env.cli import main; sys.exit(main(sys.argv[1:]))",
           "evaluate", "--agents", "random,heuristic", "--games", "4000", "--workers", "2", "--quiet",
           "--results", str(path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 120
        while (not path.exists() or len(path.read_text().splitlines()) < 2) and time.time() < deadline:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert rc == 128 + signal.SIGTERM, proc.stderr.read() if proc.stderr else ""
    lines = path.read_text().splitlines()
    assert 2 <= len(lines) < 4000
    records = [json.loads(line) for line in lines]  # whole lines only
    assert all(r["winner"] in (0, 1, None) for r in records)
    assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")


def test_ladder_results_file_may_be_gzip_compressed(tmp_path: Path) -> None:
    """A results path ending .gz is written compressed (one gzip member per run), resumed,
    replayed, and read up to the cut when an interrupted writer left the stream short."""
    import gzip

    from hostwcg_env.analysis.ladder import load_results
    from hostwcg_env.analysis.replay import replayable

    path = tmp_path / "res.jsonl.gz"
    run_ladder(["random", "heuristic"], games=4, quiet=True, results=path)
    more = run_ladder(["random", "heuristic"], games=8, quiet=True, results=path)
    assert more.resumed == 4
    text = gzip.decompress(path.read_bytes()).decode()
    assert len(text.splitlines()) == 8
    records, _ = load_results(path)
    assert sorted(map(record_id, records)) == sorted(map(record_id, more.records))
    assert len(list(replayable(path))) == 8
    cut = tmp_path / "cut.jsonl.gz"
    data = path.read_bytes()
    cut.write_bytes(data[: len(data) - 40])  # the last member lost its end
    assert 4 <= len(load_results(cut)[0]) < 8


def test_ladder_command_reports_games_already_played_from_results_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """hostwcg ladder FILES: the ladder of every game in the files, whatever their pairs and
    seeds; a game in two files counts once, only played pairs get a row, the stronger agent
    of each row comes first, and agents not linked by games get no ratings."""
    from hostwcg_env.analysis.ladder import LadderResult

    f1, f2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl.gz"
    first = run_ladder(["random", "heuristic"], games=6, quiet=True, results=f1)
    run_ladder(["heuristic", "ppo"], games=4, seed=50, quiet=True, results=f2)
    result = LadderResult.from_results([f1, f2, f1])
    assert len(result.records) == 10 and result.connected()
    rows = {(r["agent"], r["opponent"]): r for r in result.rows()}
    assert len(rows) == 2 and {frozenset(k) for k in rows} == {frozenset(("heuristic", "random")),
                                                                 frozenset(("heuristic", "ppo"))}
    assert rows[("heuristic", "random")]["games"] == 6
    assert rows[("heuristic", "random")]["wins"] == first.pair_wins().get(("heuristic", "random"), 0.0)
    assert result.agents.index("heuristic") < result.agents.index("random")
    csv_path = tmp_path / "l.csv"
    assert main(["ladder", str(f1), str(f2), "--csv", str(csv_path)]) == 0
    out = capsys.readouterr().out
    assert "Bradley-Terry" in out and "10 games from 2 results files (a.jsonl, b.jsonl.gz)" in out
    assert len(csv_path.read_text().splitlines()) == 3
    lone = LadderResult.from_results([f1])
    lone.agents.append("ismcts")  # an agent no game links to the others
    assert not lone.connected() and "No ratings" in lone.markdown()
    assert main(["ladder", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl: no such results file" in capsys.readouterr().err


def test_evaluate_draws_from_the_decks_asked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """hostwcg evaluate --decks: every game's two decks come from those named; 'preconstructed'
    and the default are the eight preconstructed decks (never a stand-in test deck), as the env,
    training and balance deal; --include-test adds the two test decks (the ladder's ten before
    2026-11-27, both drawn in a long enough schedule); an unknown name is refused, naming it."""
    from hostwcg_env.analysis.ladder import default_decks, load_results
    from hostwcg_env.analysis.simulate import resolve_decks

    def ids(specs: list) -> set[str]:
        return {d for sp in specs for d in (sp.deck_a.id, sp.deck_b.id)}

    eight = resolve_decks(None)
    assert len(eight) == 8 and ids(schedule(["random", "heuristic"], 400, 7)) == {d.id for d in eight}
    assert ids(schedule(["random", "heuristic"], 400, 7, eight)) == {d.id for d in eight}
    assert ids(schedule(["random", "heuristic"], 400, 7, default_decks(include_test=True))) \
        == {d.id for d in shipped_deck_refs()}
    res = tmp_path / "r.jsonl"
    assert main(["evaluate", "--agents", "random,heuristic", "--games", "4", "--quiet", "--decks", "brae", "karsh",
                 "--results", str(res)]) == 0
    recs = load_results(res)[0]
    assert len(recs) == 4 and {d["id"] for r in recs for d in r["decks"]} <= {"brae_deep_roots", "karsh_ember_tide"}
    # the same command resumes: its schedule is the same, so nothing is played again
    assert main(["evaluate", "--agents", "random,heuristic", "--games", "4", "--quiet", "--decks", "brae", "karsh",
                 "--results", str(res)]) == 0
    assert len(load_results(res)[0]) == 4
    out = capsys.readouterr().out
    assert "over the decks brae, karsh;" in out
    assert main(["evaluate", "--agents", "random,heuristic", "--games", "2", "--quiet",
                 "--decks", "preconstructed"]) == 0
    out = capsys.readouterr().out
    assert "2 games in" in out and "over the eight preconstructed decks;" in out
    # the eight by default, as everywhere; the two stand-in test decks only when asked
    default = run_ladder(["random", "heuristic"], games=2, quiet=True)
    assert "over the eight preconstructed decks;" in default.markdown()
    assert not any(d["id"].startswith("test_") for r in default.records for d in r["decks"])
    assert main(["evaluate", "--agents", "random,heuristic", "--games", "2", "--quiet"]) == 0
    assert "over the eight preconstructed decks;" in capsys.readouterr().out
    assert main(["evaluate", "--agents", "random,heuristic", "--games", "2", "--quiet", "--include-test"]) == 0
    assert "over the ten shipped decks (the eight preconstructed and the two stand-in test decks);" \
        in capsys.readouterr().out
    assert main(["evaluate", "--agents", "random,heuristic", "--games", "2", "--quiet", "--decks", "karsj"]) == 2
    assert "karsj" in capsys.readouterr().err


def test_ladder_report_rounds_each_interval_once() -> None:
    """The markdown formats the exact Wilson bounds; only the CSV keeps 4 decimals. 988.5 of
    1,000 has the upper bound 0.99349 (98.0% - 99.3%), which rounding to 0.9935 first would
    have printed as 99.4%."""
    from hostwcg_env.analysis.ladder import LadderResult

    def rec(i: int, winner: int | None) -> dict:
        return {"agents": ["ppo", "random"], "seed": i, "winner": winner, "seats": [[0.0, 5], [0.0, 5]]}

    records = [rec(i, 0) for i in range(988)] + [rec(988, None)] + [rec(i, 1) for i in range(989, 1000)]
    result = LadderResult(["ppo", "random"], records, 0.0)
    row = result.rows()[0]
    assert row["wins"] == 988.5 and row["ci95_high"] == pytest.approx(0.993486, abs=1e-6)
    assert "| ppo | random | 1000 | 98.9% | 98.0% - 99.3% |" in result.markdown()
    assert "ppo,random,1000,988.5,0.9885,0.9798,0.9935" in result.csv()


def test_ladder_shards_split_the_schedule(tmp_path: Path) -> None:
    """--shard K/N: N runs play disjoint parts whose union is the whole schedule."""
    parts = [run_ladder(["random", "heuristic"], games=6, quiet=True, results=tmp_path / f"p{k}.jsonl",
                        shard=(k, 3)) for k in range(3)]
    assert [len((tmp_path / f"p{k}.jsonl").read_text().splitlines()) for k in range(3)] == [2, 2, 2]
    merged = tmp_path / "all.jsonl"
    merged.write_text("".join((tmp_path / f"p{k}.jsonl").read_text() for k in range(3)))
    whole = run_ladder(["random", "heuristic"], games=6, quiet=True, results=merged)
    assert whole.resumed == 6 and len(merged.read_text().splitlines()) == 6
    assert whole.rows() == run_ladder(["random", "heuristic"], games=6, quiet=True).rows()
    specs = schedule(["random", "heuristic"], 6)
    for k, part in enumerate(parts):
        assert set(map(record_id, part.records)) == {spec_id(sp) for i, sp in enumerate(specs) if i % 3 == k}
    with pytest.raises(ValueError, match="shard 3/3"):
        run_ladder(["random", "heuristic"], games=2, quiet=True, shard=(3, 3))
    assert main(["evaluate", "--agents", "random,heuristic", "--games", "2", "--quiet", "--shard", "x"]) == 2


def test_ladder_results_file_errors_name_file_and_line(tmp_path: Path) -> None:
    from hostwcg_env.analysis.ladder import load_results

    path = tmp_path / "res.jsonl"
    run_ladder(["random", "heuristic"], games=2, quiet=True, results=path)
    good = path.read_text()
    path.write_text(good + '{"a": "random", "b": "heur')  # cut short by an interruption: skipped
    assert len(load_results(path)[0]) == 2
    path.write_text('{"a": "random"}\n' + good)
    with pytest.raises(ValueError, match=r"res.jsonl:1: not a game record"):
        load_results(path)
    rc = main(["evaluate", "--agents", "random,heuristic", "--games", "2", "--quiet", "--results", str(path)])
    assert rc == 2


def test_terminal_player_scripted_session() -> None:
    lines = iter(["nonsense", "play h99", "board", "concede"])
    out: list[str] = []
    rc = play_terminal(vs="random", seat=0, seed=2, read=lambda _p: next(lines), out=out.append)
    text = "\n".join(str(x) for x in out)
    assert rc == 0
    assert "'nonsense' is not a legal action now" in text
    import re

    assert re.search(r"not allowed: \d+(\.\d+)*: ", text), "an illegal action is answered with its rule"
    assert "A conceded (rule 35.3.5)" in text
    assert re.search(r"^ +1  \S", text, re.M), "the legal actions are listed, numbered"


def test_agent_names() -> None:
    assert set(AGENT_NAMES) == {"random", "heuristic", "lookahead", "pimc", "turnsearch", "ismcts", "ppo", "ppo_v1",
                                "level"}
    assert isinstance(make_agent("heuristic"), HeuristicAgent)
    with pytest.raises(ValueError):
        make_agent("nope")


def _old_line(rec: dict, actions: bool = True, reason: bool = True) -> dict:
    """``rec`` in the layout the ladder wrote before it wrote game records (the shipped decks by
    index, agents ``a`` and ``b``); lines written before 2026-11-25 kept no actions, reason
    or turns."""
    ids = [d.id for d in shipped_deck_refs()]
    line = {"a": rec["agents"][0], "b": rec["agents"][1], "seed": rec["seed"],
            "deck_a": ids.index(rec["decks"][0]["id"]), "deck_b": ids.index(rec["decks"][1]["id"]),
            "winner": rec["winner"], "decisions": rec["decisions"], "seats": rec["seats"], "version": "abc"}
    if actions:
        line["actions"] = rec["actions"]
    if reason:
        line.update(reason=rec["reason"], turns=rec["turns"])
    return line


def test_ladder_records_keep_the_actions_and_replay_to_the_same_result(tmp_path: Path) -> None:
    """Every ladder record keeps its game's actions in the text notation, how it ended and its
    turns: replaying them from the seed and decks gives the recorded result; a record that does
    not replay says where it diverged; lines of the ladder's older layout still load (those
    without actions count but do not replay), and those with actions but no reason replay."""
    from hostwcg_env.analysis.ladder import load_results
    from hostwcg_env.analysis.records import shipped_deck_refs
    from hostwcg_env.analysis.replay import ReplayError, replay
    from hostwcg_env.cards.decks import pool_decks
    from hostwcg_env.engine import ENGINE_EPOCH

    # an older ladder line names decks by index among every deck file in order, the two test
    # decks included (shipped_decks(include_test=True)); the ladder draws from the same ten
    assert ([d.name for d in shipped_decks(include_test=True)]
            == [d.name for d in pool_decks(include_test=True).values()])
    assert [r.id for r in shipped_deck_refs()] == list(pool_decks(include_test=True))
    assert len(shipped_deck_refs()) == len(shipped_decks()) + 2
    path = tmp_path / "res.jsonl"
    run_ladder(["random", "heuristic"], games=4, quiet=True, results=path)
    records, _ = load_results(path)
    assert len(records) == 4
    for rec in records:
        assert len(rec["actions"]) == rec["decisions"] > 0 and rec["reason"] and rec["turns"]
        game = replay(rec)
        assert (game.winner, game.state.reason, game.state.turn) == (rec["winner"], rec["reason"], rec["turns"])
    rec = records[0]
    with pytest.raises(ReplayError, match="the record ends after .* but the game goes on"):
        replay({**rec, "actions": rec["actions"][:-1]})
    with pytest.raises(ReplayError, match="diverged at action 1 .* not legal here"):
        replay({**rec, "actions": ["attack f9", *rec["actions"]]})
    with pytest.raises(ReplayError, match="already over .* but the record goes on"):
        replay({**rec, "actions": [*rec["actions"], "pass"]})
    with pytest.raises(ReplayError, match="result differs"):
        replay({**rec, "reason": "deck_out" if rec["reason"] != "deck_out" else "damage_zone"})
    path.write_text("".join(json.dumps(_old_line(r, reason=False)) + "\n" for r in records)
                    + json.dumps(_old_line(rec, actions=False, reason=False)) + "\n")
    loaded, versions = load_results(path)
    assert versions == {"abc"} and [r["actions"] for r in loaded] == [r["actions"] for r in records] + [[]]
    for old, new in zip(loaded, records, strict=False):
        assert (old["decks"], old["seed"], old["agents"], old["seats"]) == (new["decks"], new["seed"], new["agents"],
                                                                            new["seats"])
        # the older layout was written by the epoch-1 engine, whose games this one does not ask
        # the same decisions of: refused saying so; these lines hold this engine's actions
        with pytest.raises(ReplayError, match="decision epoch 1"):
            replay(old)
        assert replay({**old, "epoch": ENGINE_EPOCH}).winner == new["winner"]
    with pytest.raises(ValueError, match="no actions"):
        replay(loaded[-1])


def test_replay_command_reads_a_ladder_results_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """hostwcg replay FILE --all checks every ladder game that kept its actions, skipping (with
    a warning) those that did not; --index N --side B shows one game from B's side."""
    path = tmp_path / "res.jsonl"
    run_ladder(["random", "heuristic"], games=2, quiet=True, results=path)
    lines = path.read_text().splitlines()
    old = _old_line(json.loads(lines[0]), actions=False)
    path.write_text("\n".join([json.dumps(old), *lines]) + "\n")
    assert main(["replay", str(path), "--all"]) == 0
    captured = capsys.readouterr()
    assert "2 passed, 0 failed" in captured.out and "skipped 1 ladder records without actions" in captured.err
    assert main(["replay", str(path), "--index", "1", "--side", "B"]) == 0
    out = capsys.readouterr().out
    assert ", heuristic) vs B " in out or ", random) vs B " in out  # the header names the agents
    assert "as recorded" in out
    bad = json.loads(lines[0])
    bad["winner"] = None if bad["winner"] is not None else 0
    path.write_text(json.dumps(bad) + "\n")
    assert main(["replay", str(path), "--all"]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_observer_encodes_incrementally_what_a_fresh_encoding_shows() -> None:
    """decide() with one Observer per game (as the ladder plays flat agents) sees exactly the
    observations and masks of a from-scratch encoding, and so makes the same choices."""
    from agents import Observer
    from hostwcg_env.env.observation import ObservationEncoder

    policy = make_agent("ppo")
    for seed in range(2):
        g = _game(seed)
        observer = Observer(g.state.config)
        fresh = ObservationEncoder(g.state.config)
        other = make_agent("heuristic", seed=seed)
        seen = 0
        while not g.is_over:
            d = g.decision
            if d.player == 0 and len(d.actions) > 1:
                obs, mask = observer.observe(g)
                assert np.array_equal(obs, fresh.encode(g.view(0)))
                a = decide(policy, g, observer)
                assert a == decide(policy, g)
                seen += 1
            else:
                a = decide(other, g) if d.player == 1 else d.actions[0]
            g.apply(a)
        assert seen > 5


@pytest.mark.slow
def test_demonstrations_from_ladder_records_are_what_the_agent_saw_and_chose(tmp_path: Path) -> None:
    """analysis.distill.from_records replays ladder games and keeps one agent's choices: the
    greedy PPO policy, run on the replayed observations and masks, picks every recorded action."""
    from hostwcg_env.analysis.distill import from_records as from_ladder
    from hostwcg_env.analysis.ladder import load_results

    path = tmp_path / "res.jsonl"
    run_ladder(["ppo:raw", "heuristic"], games=2, quiet=True, results=path)
    records, _ = load_results(path)
    data = from_ladder(records, "ppo:raw")
    n = len(data["actions"])
    assert int(data["n_games"]) == 2 and n == sum(r["seats"][r["agents"][0] != "ppo:raw"][1] for r in records)
    masks = np.unpackbits(data["masks"], axis=1, count=int(data["n_actions"])).astype(bool)
    policy = NumpyPolicy.load(DEFAULT)
    for i in range(n):
        x = np.zeros(int(data["obs_size"]), np.float32)
        a, b = data["indptr"][i], data["indptr"][i + 1]
        x[data["indices"][a:b].astype(np.int64)] = data["values"][a:b]
        assert policy.act(x, masks[i]) == int(data["actions"][i])
    assert set(np.unique(data["outcomes"])) <= {-1, 0, 1} and int(data["skipped_without_actions"]) == 0
    with pytest.raises(ValueError, match="no record with agent 'ismcts'"):
        from_ladder(records, "ismcts")
    # records written before actions were kept are skipped and counted
    mixed = from_ladder([{**records[0], "actions": []}, records[1]], "ppo:raw")
    assert int(mixed["n_games"]) == 1 and int(mixed["skipped_without_actions"]) == 1
    with pytest.raises(ValueError, match=r"\(1 without actions\)"):
        from_ladder([{**records[0], "actions": []}], "ppo:raw")


def test_overrides_only_labels_the_policy_choice_where_the_teacher_kept_its_anchor(tmp_path: Path) -> None:
    """agents.demos.overrides_only (with analysis.distill.from_records): where the recorded choice
    equals the anchor's own choice the label is the policy's greedy choice, elsewhere the recorded
    one. With the heuristic both the recorded agent and the anchor, every label is the policy's, and
    exactly the rows where the policy departs from the heuristic are counted as relabelled."""
    from agents.demos import overrides_only
    from hostwcg_env.analysis.distill import from_records as from_ladder
    from hostwcg_env.analysis.ladder import load_results

    path = tmp_path / "res.jsonl"
    run_ladder(["heuristic", "random"], games=2, quiet=True, results=path)
    records, _ = load_results(path)
    policy = NumpyPolicy.load(DEFAULT)
    plain = from_ladder(records, "heuristic")
    data = from_ladder(records, "heuristic", relabel=overrides_only(HeuristicAgent(0), policy))
    n = len(data["actions"])
    assert n == len(plain["actions"]) > 20
    masks = np.unpackbits(data["masks"], axis=1, count=int(data["n_actions"])).astype(bool)
    differ = 0
    for i in range(n):
        x = np.zeros(int(data["obs_size"]), np.float32)
        a, b = data["indptr"][i], data["indptr"][i + 1]
        x[data["indices"][a:b].astype(np.int64)] = data["values"][a:b]
        assert int(data["actions"][i]) == policy.act(x, masks[i])
        differ += int(data["actions"][i]) != int(plain["actions"][i])
    assert int(data["relabelled"]) == differ and int(plain["relabelled"]) == 0
