"""``hostwcg train RECIPE`` and ``hostwcg exploit AGENT`` (agents/training/recipe.py, pipeline.py,
exploit.py; docs/training.md): the recipe's checks, the smoke recipe end to end, a run killed
mid-stage and resumed, a deck set the shipped policy never saw, and a tiny exploiter."""

from __future__ import annotations

import csv
import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.training.recipe import RECIPES_DIR, RecipeError, load_recipe
from hostwcg_env.cli import main

ROOT = Path(__file__).resolve().parents[1]
HISTORY = ROOT / "hostwcg_env" / "cards" / "decks" / "history" / "2026-11-25"

GOOD = """
[recipe]
name = "t"
seed = 3

[teacher]
agent = "heuristic"

[[stages]]
kind = "demos"
minutes = 0.05

[[stages]]
kind = "clone"
minutes = 0.05
"""


@pytest.fixture(autouse=True)
def _one_thread() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("tensorboard")
    torch.set_num_threads(1)


def _write(tmp_path: Path, text: str, name: str = "r.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize(("change", "needle"), [
    (("kind = \"demos\"\nminutes = 0.05", "kind = \"demos\""), "[stages 1: demos] minutes: missing"),
    (("kind = \"demos\"\nminutes = 0.05", "kind = \"demos\"\nminuts = 0.05"),
     "[stages 1: demos] minuts: unknown key (did you mean 'minutes'?)"),
    (("kind = \"clone\"\nminutes = 0.05", "kind = \"clone\"\nminutes = 0.05\nepoch = 2"),
     "[stages 2: clone] epoch: unknown key (did you mean 'epochs'?)"),
    (("kind = \"clone\"\nminutes = 0.05", "kind = \"clone\"\nminutes = -1"), "[stages 2: clone] minutes: must be > 0"),
    (("kind = \"demos\"", "kind = \"demo\""), "[stages 1] kind: one of demos, clone"),
    (("agent = \"heuristic\"", "agent = \"nosuch\""), "[teacher] agent: "),
    (("seed = 3", "seed = 3\n[decks]\ndecks = [\"nosuch_deck\"]"), "[decks] decks: 'nosuch_deck': no such deck"),
    (("kind = \"demos\"\nminutes = 0.05", "kind = \"league\"\nminutes = 0.05\nopponents = []"),
     "[stages 1: league] opponents: give at least one"),
    (("kind = \"clone\"\nminutes = 0.05", "kind = \"dagger\"\nminutes = 0.05"),
     "[stages 2: dagger] kind: a dagger stage needs a network"),
    (("[teacher]", "[evaluation]\ngames = \"ten\"\n[teacher]"), "[evaluation] games: a whole number"),
    (("[teacher]", "[evaluation]\ncheck = \"yes\"\n[teacher]"), "[evaluation] check: true or false"),
    (("[teacher]", "[trainer]\n[teacher]"), "[top level] trainer: unknown key"),
    (("kind = \"clone\"\nminutes = 0.05", "kind = \"clone\"\nminutes = 0.05\nweights = { ap_anyy = 2 }"),
     "[stages 2: clone] weights: 'ap_anyy': not an action kind (did you mean 'ap_any'?)"),
    (("kind = \"clone\"\nminutes = 0.05", "kind = \"clone\"\nminutes = 0.05\nweights = { ap_any = 0 }"),
     "[stages 2: clone] weights: ap_any: a weight > 0, got 0"),
    (("kind = \"clone\"\nminutes = 0.05", "kind = \"clone\"\nminutes = 0.05\nweights = 3"),
     "[stages 2: clone] weights: a table of action kinds and weights"),
    (("kind = \"clone\"\nminutes = 0.05", "kind = \"clone\"\nminutes = 0.05\n[[stages]]\n"
      "kind = \"expert-iteration\"\nminutes = 1\nmode = \"soft\"\nweights = { ap_any = 2 }"),
     "[stages 3: expert-iteration] weights: only a hard expert-iteration stage clones its labels"),
])
def test_a_recipe_error_is_one_line_naming_the_file_table_and_key(tmp_path: Path, change: tuple[str, str],
                                                                   needle: str) -> None:
    assert change[0] in GOOD
    path = _write(tmp_path, GOOD.replace(change[0], change[1], 1))
    with pytest.raises(RecipeError) as e:
        load_recipe(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}: ") and needle in msg and "\n" not in msg, msg


def test_a_good_recipe_is_filled_in_and_the_shipped_ones_load_by_name(tmp_path: Path) -> None:
    r = load_recipe(_write(tmp_path, GOOD))
    assert [s.name for s in r.stages] == ["01_demos", "02_clone"]
    assert r.stages[1].options["epochs"] == 4 and r.decks == "preconstructed" and r.decks_arg() == "shipped"
    assert r.evaluation["opponents"] == ["random", "heuristic"]
    assert {p.stem for p in RECIPES_DIR.glob("*.toml")} >= {"smoke", "ppo_v1"}
    v1 = load_recipe("ppo_v1")
    kinds = [s.kind for s in v1.stages]
    # the model card's line: demos, cloning, two DAgger rounds, a league, the check's rows, a league,
    # expert iteration, soft expert iteration
    assert kinds == ["demos", "clone", "dagger", "dagger", "league", "expert-iteration", "league",
                     "expert-iteration", "expert-iteration"]
    assert v1.teacher == "lookahead" and v1.stages[3].options["teacher"] == "lookahead:4"
    assert [s.options["mode"] for s in v1.stages if s.kind == "expert-iteration"] == ["hard", "hard", "soft"]
    assert 10 * 60 < v1.minutes < 20 * 60
    with pytest.raises(RecipeError, match="no such recipe file.*smoke"):
        load_recipe("nosuch")


def test_train_help_names_every_shipped_recipe(capsys: pytest.CaptureFixture[str]) -> None:
    from agents.training.recipe import shipped_recipes
    from hostwcg_env.cli_train import SHIPPED_RECIPES

    assert list(SHIPPED_RECIPES) == shipped_recipes() == ["hardened", "in_2h", "in_4h", "ppo_v1", "smoke"]
    assert main(["train", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    for name in SHIPPED_RECIPES:
        assert name in shown
        load_recipe(name)  # each shipped recipe is valid


def test_building_the_command_line_imports_no_agent_code() -> None:
    """The help names the recipes from a literal, so no command's start-up pays for ``agents``."""
    code = ("import sys, contextlib, io\nfrom hostwcg_env.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(['deck', '--help'])\n"
            "print('agents' in sys.modules)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["False"]


def test_deck_files_in_a_recipe_are_read_beside_it_and_given_to_the_league_as_pools(tmp_path: Path) -> None:
    from agents.training.train_v1 import deck_kwargs

    (tmp_path / "decks").mkdir()
    for name in ("brae_deep_roots", "karsh_ember_tide"):
        (tmp_path / "decks" / f"{name}.toml").write_text((HISTORY / f"{name}.toml").read_text())
    r = load_recipe(_write(tmp_path, GOOD.replace(
        "seed = 3", "seed = 3\n[decks]\ndecks = [\"decks/brae_deep_roots.toml\", \"decks/karsh_ember_tide.toml\"]")))
    assert all(Path(d).is_absolute() for d in r.decks)
    pools = deck_kwargs(r.decks_arg())["deck_pools"]
    assert [len(p) for p in pools] == [2, 2] and {d.id for d in pools[0]} == {"brae_deep_roots", "karsh_ember_tide"}
    assert [d.id for d in r.deck_refs()] == ["brae_deep_roots", "karsh_ember_tide"]


def _records(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def _check_run(run: Path, stages: list[str], eval_games: int, opponents: list[str]) -> None:
    """Every output a finished run must have (docs/training.md, "The run directory")."""
    from agents import make_agent

    assert (run / "recipe.toml").is_file()
    cfg = json.loads((run / "config.json").read_text())
    assert {"recipe", "versions", "git_commit", "machine", "started"} <= set(cfg)
    assert cfg["versions"]["torch"] and cfg["machine"]["cpus"]
    state = json.loads((run / "state.json").read_text())
    assert [state["stages"][s]["status"] for s in stages] == ["done"] * len(stages)
    for s in stages:
        done = json.loads((run / "stages" / s / "DONE.json").read_text())
        assert done["stage"] == s and all(Path(p).is_file() for p in done["outputs"].values())
        assert (run / "logs" / f"{s}.log").read_text().strip()
        assert list((run / "tb" / s).glob("events.out.tfevents.*")), s
    assert not list(run.rglob("*.tmp*")), "a temporary file was left behind"
    make_agent(f"ppo_v1:{run / 'policy.npz'}")  # the network plays as an agent
    card = (run / "MODEL_CARD.md").read_text()
    assert all(s in card for s in stages) and "95% CI (Wilson)" in card and cfg["versions"]["hostwcg"] in card
    assert f"| sessions | {len(state['sessions'])}: " in card
    for opp in opponents:
        recs = _records(run / "eval" / f"vs_{opp}.jsonl")
        assert len(recs) == eval_games and all(r["actions"] for r in recs)


def test_the_smoke_recipe_runs_end_to_end_and_a_rerun_skips_every_stage(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "smoke"
    assert main(["train", "smoke", "--run-dir", str(run), "--quiet"]) == 0
    stages = ["01_demos", "02_clone", "03_dagger", "04_league", "05_expert-iteration", "06_expert-iteration"]
    _check_run(run, stages, 4, ["random"])
    # check = true: the network checked by the search plays the same seeds, kept apart
    looked = _records(run / "eval" / "vs_random_look.jsonl")
    plain = _records(run / "eval" / "vs_random.jsonl")
    assert len(looked) == 4 and all(any(a.endswith(":look") for a in r["agents"]) for r in looked)
    assert sorted(r["seed"] for r in looked) == sorted(r["seed"] for r in plain)
    summary = json.loads((run / "eval" / "summary.json").read_text())
    assert [(r["opponent"], bool(r.get("check"))) for r in summary] == [("random", False), ("random", True)]
    assert "| the network with the check | random | 4 |" in (run / "MODEL_CARD.md").read_text()
    curve = list(csv.DictReader((run / "stages" / "04_league" / "curve.csv").open()))
    assert curve[0]["steps"] == "0" and int(curve[-1]["steps"]) > 0 and len(curve) >= 2
    assert list((run / "stages" / "04_league" / "curve").glob("point_*.jsonl"))
    league = json.loads((run / "state.json").read_text())["stages"]["04_league"]
    assert league["measure_s"] > 0  # the curve's games are timed apart from the budget
    assert "of learning-curve games" in (run / "MODEL_CARD.md").read_text()
    # the card's check of the cards the network leaves in hand: at the smoke budget no card is
    # drawn in 20 games; over every game drawn, the rows are the play rates' own
    assert "## Cards the network leaves in hand" in (run / "MODEL_CARD.md").read_text()
    import agents.training.pipeline as pipeline
    from agents.training.rundir import RunDir, policy_agent
    from hostwcg_env.analysis import skill

    recipe, npz = load_recipe("smoke"), str(run / "policy.npz")
    teacher = skill.record_play_rates([r for f in sorted((run / "stages" / "01_demos" / "games").glob("*.jsonl"))
                                       for r in _records(f)])
    mine = skill.record_play_rates(plain, policy_agent(npz))
    assert mine and teacher and all(0 <= r <= 1 and n >= 1 for r, n in [*mine.values(), *teacher.values()])
    monkeypatch.setattr(pipeline, "UNPLAYED_MIN_GAMES", 1)
    for rarely, often in ((0.10, 0.30), (1.01, 0.0)):  # the second: every card both sides drew is listed
        monkeypatch.setattr(skill, "RARELY", rarely)
        monkeypatch.setattr(skill, "OFTEN", often)
        listed = [line for line in pipeline.unplayed_lines(RunDir(run), recipe, npz) if line.startswith("| ")][1:]
        want = sorted(k for k, (r, _) in mine.items() if r < rarely and k in teacher and teacher[k][0] >= often)
        assert [tuple(line.split(" | ")[:2]) for line in listed] == [(f"| {d}", c) for d, c in want]
        assert want or rarely < 1
    # the ladder command reads the evaluation games
    capsys.readouterr()
    assert main(["ladder", str(run / "eval" / "vs_random.jsonl")]) == 0
    assert "ppo_v1:" in capsys.readouterr().out
    before = json.loads((run / "state.json").read_text())["stages"]
    assert main(["train", "smoke", "--run-dir", str(run)]) == 2  # a run there already: --resume needed
    assert "give --resume" in capsys.readouterr().err
    assert main(["train", "smoke", "--run-dir", str(run), "--resume", "--quiet"]) == 0
    after = json.loads((run / "state.json").read_text())["stages"]
    assert {k: v["sessions"] for k, v in after.items()} == {k: v["sessions"] for k, v in before.items()}


INIT_DAGGER = """
[recipe]
name = "from_init"
seed = 5
init = "ppo_v1"

[decks]
decks = ["brae", "karsh"]

[teacher]
agent = "heuristic"

[[stages]]
kind = "dagger"
minutes = 0.2
games = 2
envs = 2
opponents = ["heuristic"]
epochs = 1
weights = { ap_any = 10, pass = 0.5 }

[evaluation]
opponents = ["heuristic"]
games = 6
seed = 77
"""


def test_a_run_from_init_weighs_its_loss_and_checks_its_cards_against_the_teacher_as_opponent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A DAgger stage's ``weights`` reach its cloning loss; and without a demonstration stage, the
    model card's check of the cards the network leaves in hand reads the teacher's play rates
    from the evaluation games where it was the opponent."""
    import agents.training.pipeline as pipeline
    from agents.training.rundir import RunDir, policy_agent
    from hostwcg_env.analysis import skill

    recipe_path = _write(tmp_path, INIT_DAGGER)
    run = tmp_path / "run"
    assert main(["train", str(recipe_path), "--run-dir", str(run), "--quiet"]) == 0
    card = (run / "MODEL_CARD.md").read_text()
    done = json.loads((run / "stages" / "01_dagger" / "round_0.json").read_text())
    assert done["training"]["kind_weights"] == {"ap_any": 10.0, "pass": 0.5}  # the stage's weights reached the loss
    assert "## Cards the network leaves in hand" in card and "of its evaluation games as the network's opponent" in card
    games = _records(run / "eval" / "vs_heuristic.jsonl")
    npz = str(run / "policy.npz")
    teacher = skill.record_play_rates(games, "heuristic")
    mine = skill.record_play_rates(games, policy_agent(npz))
    assert teacher and mine and {d for d, _ in teacher} <= {"brae_deep_roots", "karsh_ember_tide"}
    monkeypatch.setattr(pipeline, "UNPLAYED_MIN_GAMES", 1)
    monkeypatch.setattr(skill, "RARELY", 1.01)  # every card both sides drew is listed
    monkeypatch.setattr(skill, "OFTEN", 0.0)
    listed = [line for line in pipeline.unplayed_lines(RunDir(run), load_recipe(recipe_path), npz)
              if line.startswith("| ")][1:]
    assert [tuple(line.split(" | ")[:2]) for line in listed] == [(f"| {d}", c) for d, c in sorted(mine)
                                                                  if (d, c) in teacher]
    # an evaluation without the teacher as an opponent gives the check nothing to read
    other = load_recipe(_write(tmp_path, INIT_DAGGER.replace('agent = "heuristic"', 'agent = "random"'), "o.toml"))
    assert pipeline.unplayed_lines(RunDir(run), other, npz) == []


@pytest.mark.slow
def test_a_run_killed_mid_stage_resumes_and_finishes_with_every_output(tmp_path: Path) -> None:
    text = (RECIPES_DIR / "smoke.toml").read_text()
    text = text.replace("kind = \"league\"\nminutes = 0.2", "kind = \"league\"\nminutes = 0.5")
    recipe = _write(tmp_path, text, "killed.toml")
    run = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    cmd = [sys.executable, "-m", "hostwcg_env", "train", str(recipe), "--run-dir", str(run), "--quiet"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    league = run / "stages" / "04_league" / "league"
    try:
        deadline = time.time() + 240
        # kill it in the league stage once the league has saved its model at least once
        while time.time() < deadline and proc.poll() is None:
            if (league / "latest.zip").is_file() and (league / "league.json").is_file():
                break
            time.sleep(0.5)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(1.0)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    state = json.loads((run / "state.json").read_text())["stages"]
    assert state["04_league"]["status"] == "running" and not (run / "stages" / "04_league" / "DONE.json").exists()
    assert [state[s]["status"] for s in ("01_demos", "02_clone", "03_dagger")] == ["done"] * 3
    spent = state["04_league"]["elapsed_s"]
    steps_at_kill = json.loads((league / "league.json").read_text())["steps"]
    assert not (run / "MODEL_CARD.md").exists()
    r = subprocess.run([*cmd, "--resume"], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    stages = ["01_demos", "02_clone", "03_dagger", "04_league", "05_expert-iteration", "06_expert-iteration"]
    _check_run(run, stages, 4, ["random"])
    state = json.loads((run / "state.json").read_text())["stages"]
    assert [state[s]["sessions"] for s in stages] == [1, 1, 1, 2, 1, 1]  # finished stages were not run again
    assert state["04_league"]["elapsed_s"] >= spent  # the time before the kill counts against the budget
    done = json.loads((run / "stages" / "04_league" / "DONE.json").read_text())
    assert done["facts"]["steps"] > steps_at_kill  # the league continued from its saved model
    assert json.loads((league / "league.json").read_text())["runs"][-1]["resumed"] is True


@pytest.mark.slow
def test_the_smoke_recipe_trains_on_decks_the_shipped_policy_never_saw(tmp_path: Path) -> None:
    """The decks of engine epochs 1-3 (cards/decks/history/2026-11-25/), from files beside the recipe."""
    text = (RECIPES_DIR / "smoke.toml").read_text()
    decks = sorted(HISTORY.glob("*.toml"))
    (tmp_path / "old").mkdir()
    for d in decks:
        (tmp_path / "old" / d.name).write_text(d.read_text())
    listed = ", ".join(f'"old/{d.name}"' for d in decks)
    text = text.replace('decks = "preconstructed"', f"decks = [{listed}]")
    recipe = _write(tmp_path, text, "history.toml")
    run = tmp_path / "run"
    assert main(["train", str(recipe), "--run-dir", str(run), "--quiet"]) == 0
    stages = ["01_demos", "02_clone", "03_dagger", "04_league", "05_expert-iteration", "06_expert-iteration"]
    _check_run(run, stages, 4, ["random"])
    old = {(d.stem, tuple(sorted(json.loads(json.dumps(_main_of(d)))))) for d in decks}
    for path in [*(run / "stages" / "01_demos" / "games").glob("*.jsonl"), run / "eval" / "vs_random.jsonl"]:
        for rec in _records(path):
            for deck in rec["decks"]:
                assert (deck["id"], tuple(sorted(_expand(deck["main"])))) in old, deck["id"]


def _main_of(path: Path) -> list[str]:
    from hostwcg_env.cards import load_deck

    return list(load_deck(path).main)


def _expand(rle: list[list]) -> list[str]:
    return [name for name, n in rle for _ in range(n)]


@pytest.mark.slow
def test_exploit_trains_a_best_response_and_reports_its_win_rate_over_time(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "ex"
    argv = ["exploit", "heuristic", "--minutes", "0.5", "--run-dir", str(run), "--curve-games", "4", "--points", "2",
            "--games", "6", "--envs", "4", "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "exploiter's win rate against heuristic" in out and "final (fresh seeds)" in out
    _check_run(run, ["01_demos", "02_clone", "03_league"], 6, ["heuristic"])
    rows = list(csv.DictReader((run / "exploit.csv").open()))
    assert [r["point"] for r in rows][0] == "0" and rows[-1]["point"] == "final" and len(rows) >= 3
    for r in rows:
        lo, p, hi = float(r["ci95_low"]), float(r["win_rate"]), float(r["ci95_high"])
        assert 0 <= lo <= p <= hi <= 1 and int(r["games"]) in (4, 6)
    assert "heuristic" in (run / "EXPLOIT.md").read_text()
    # the demonstrations are the target's own games, the PPO opponent the target alone
    demos = [rec for p in (run / "stages" / "01_demos" / "games").glob("*.jsonl") for rec in _records(p)]
    assert demos and all(rec["agents"] == ["heuristic", "heuristic"] for rec in demos)
    league = json.loads((run / "stages" / "03_league" / "league" / "league.json").read_text())
    assert [m["name"] for m in league["league"]["members"]] == ["heuristic"]
    curve_games = list((run / "stages" / "03_league" / "curve").glob("*.jsonl"))
    assert len(curve_games) == len(rows) - 1 and all(len(_records(p)) == 4 for p in curve_games)
    # another AGENT or options in the same run directory are refused, not mixed in
    argv2 = [*argv[:-1], "--resume"]
    argv2[1] = "random"
    assert main(argv2) == 2 and "other options" in capsys.readouterr().err


@pytest.mark.slow
def test_the_shipped_ppo_v1_recipe_runs_every_stage_at_tiny_budgets(tmp_path: Path) -> None:
    """ppo_v1.toml's own stages and options (the lookahead teacher, lookahead:4, the dim-128
    network, the four-world check, soft expert iteration), each budget cut to 3 s and 2 games."""
    import re

    text = (RECIPES_DIR / "ppo_v1.toml").read_text()
    text = re.sub(r"(?m)^minutes = [0-9.]+", "minutes = 0.05", text)
    text = re.sub(r"(?m)^(games|chunk_games|curve_games) = [0-9]+", r"\1 = 2", text)
    text = re.sub(r"(?m)^workers = 2", "workers = 1", text)
    text = text.replace('kind = "league"\n', 'kind = "league"\nenvs = 4\nn_steps = 8\nbatch_size = 32\n')
    for kind in ("dagger", "expert-iteration"):
        text = text.replace(f'kind = "{kind}"\n', f'kind = "{kind}"\nenvs = 2\n')
    run = tmp_path / "run"
    assert main(["train", str(_write(tmp_path, text, "v1tiny.toml")), "--run-dir", str(run), "--quiet"]) == 0
    recipe = load_recipe(run / "recipe.toml")
    _check_run(run, [s.name for s in recipe.stages], 2, ["random", "heuristic", "lookahead"])
    done = {s.name: json.loads((run / "stages" / s.name / "DONE.json").read_text()) for s in recipe.stages}
    assert done["04_dagger"]["facts"]["teacher"] == "lookahead:4"
    assert done["04_dagger"]["facts"]["rounds"][0]["training"]["dim"] == 128  # the wider network, from scratch
    assert done["09_expert-iteration"]["facts"]["mode"] == "soft"
    assert "lookahead:4" in (run / "MODEL_CARD.md").read_text()
