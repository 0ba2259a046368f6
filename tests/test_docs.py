"""The docs say what the code does: docs/rulings.md has an entry for every ruling id the
repository cites, its flags table is RuleConfig's fields and defaults, and the code it points
at exists."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hostwcg_env.engine import RuleConfig

ROOT = Path(__file__).resolve().parent.parent
RULINGS_DOC = ROOT / "docs" / "rulings.md"
_RULING_ID = re.compile(r"(?<![\w.])A(\d{2})[a-z]?\b")


def _rulings_text() -> str:
    return RULINGS_DOC.read_text(encoding="utf-8")


def _entries() -> dict[str, str]:
    """Ruling id -> the text of its entry."""
    parts = re.split(r"^### (A\d\d) ", _rulings_text(), flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def _cited_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "lab").glob("*.md"))]
    for folder in ("hostwcg_env", "agents", "scripts", "tests"):
        files += sorted((ROOT / folder).rglob("*.py"))
    files += sorted((ROOT / "tests" / "scenarios").glob("*.toml"))
    return [f for f in files if f != RULINGS_DOC]


def test_every_ruling_has_one_entry_in_order() -> None:
    assert list(_entries()) == [f"A{i:02d}" for i in range(1, 57)]


def test_every_ruling_id_the_repository_cites_is_in_rulings_md() -> None:
    entries = _entries()
    missing = []
    for path in _cited_files():
        for m in _RULING_ID.finditer(path.read_text(encoding="utf-8")):
            if f"A{m.group(1)}" not in entries:
                missing.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    assert not missing, missing


def test_every_entry_gives_question_or_reading_rules_flag_and_where() -> None:
    for rid, text in _entries().items():
        assert "**Reading:**" in text, rid
        assert "**Rules:**" in text and "**Flag:**" in text, rid
        assert "**Where:**" in text, rid


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def test_the_flags_table_is_rule_configs_fields_and_defaults() -> None:
    """Each row names fields in its first cell and their defaults, in the same order, in the
    second; together the rows name every RuleConfig field once."""
    table = _rulings_text().split("## The flags", 1)[1].split("\n## ", 1)[0]
    defaults = {f.name: _toml_value(getattr(RuleConfig(), f.name)) for f in dataclasses.fields(RuleConfig)}
    seen: list[str] = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[0].startswith("`") or cells[1] == "default":
            continue
        names = re.findall(r"`(\w+)`", cells[0])
        values = re.findall(r"`([^`]+)`", cells[1])
        assert len(names) == len(values), line
        for name, value in zip(names, values, strict=True):
            assert name in defaults, f"{name} is not a RuleConfig field"
            assert value == defaults[name], f"{name}: the table says {value}, RuleConfig says {defaults[name]}"
            seen.append(name)
    assert sorted(seen) == sorted(defaults)


def test_the_flag_of_each_entry_has_the_right_default() -> None:
    """'**Flag:** `name = value` (default)' in an entry agrees with RuleConfig."""
    config = RuleConfig()
    for rid, text in _entries().items():
        flag = text.split("**Flag:**", 1)[1].split("* **", 1)[0]
        for name, value in re.findall(r"`(\w+) = ([^`]+)`", flag):
            assert value == _toml_value(getattr(config, name)), f"{rid}: {name} = {value}"


def test_the_code_each_entry_points_at_exists() -> None:
    """Every `engine/x.py` or `cards/x.py` named under 'Where' exists, and every
    `Class.method` or `function()` named after it is defined in that file."""
    problems = []
    for rid, text in _entries().items():
        where = text.split("**Where:**", 1)[1].split("* **", 1)[0]
        source = ""
        for token in re.findall(r"`([^`]+)`", where):
            if re.fullmatch(r"(engine|cards)/\w+\.py", token):
                path = ROOT / "hostwcg_env" / token
                if not path.is_file():
                    problems.append(f"{rid}: {token} does not exist")
                    source = ""
                    continue
                source = path.read_text(encoding="utf-8")
            elif re.fullmatch(r"[A-Z]\w*\.\w+", token) and source:
                cls, meth = token.split(".")
                if f"class {cls}" not in source or not re.search(rf"def {meth}\b", source):
                    problems.append(f"{rid}: {token} is not defined there")
            elif re.fullmatch(r"\w+\(\)", token) and source:
                if not re.search(rf"^def {token[:-2]}\(", source, re.M):
                    problems.append(f"{rid}: {token} is not defined there")
    assert not problems, problems


# --------------------------------------------------------------------------- how-to-play.md

HOW_TO_PLAY = ROOT / "docs" / "how-to-play.md"


def _example_section() -> str:
    text = HOW_TO_PLAY.read_text(encoding="utf-8")
    return text.split("## An annotated example game", 1)[1].split("\n## ", 1)[0]


def test_the_annotated_game_is_the_game_the_engine_plays() -> None:
    """docs/how-to-play.md annotates `hostwcg demo --agents heuristic,heuristic --seed 3 --decks test`:
    every log line it quotes is in the demo's output, in order, and the game ends as told."""
    from hostwcg_env.demo import run_demo

    section = _example_section()
    assert "hostwcg demo --agents heuristic,heuristic --seed 3 --decks test" in section
    lines: list[str] = []
    game = run_demo(seed=3, agents=("heuristic", "heuristic"), decks="test", out=lines.append)
    printed = " ".join(" ".join(lines).split())
    events = [str(e) for e in game.events]
    quotes = [q for q in re.findall(r"`([^`]+)`", " ".join(section.split()))
              if len(q) > 12 and not q.startswith(("python", "hostwcg"))]
    assert len(quotes) >= 10
    at = 0
    for quote in quotes:
        for piece in [p.strip(" ;") for p in quote.split("...")]:
            if piece in events:  # an event of the log (PhaseBegan(end))
                continue
            found = printed.find(piece, at)
            assert found >= 0, f"{piece!r} is not in the demo's output (after what came before)"
            at = found
    s = game.state
    assert (s.winner, s.reason, s.turn) == (1, "empty_hand", 8)
    assert [s.objs[o].name for o in s.players[0].damage] == ["Oath of Steel"]
    from hostwcg_env.engine.stats import host_health

    assert host_health(s, 0) == 7


# --------------------------------------------------------------------------- citations

# Documents that are not part of the repository: the project's working notes (design, style,
# rulings and scenario lists), the rules text files they came with, and tracker issues. The
# repository cites rule numbers and its own docs instead (docs/rulings.md, docs/how-to-play.md,
# docs/scenarios.md ...).
_OUTSIDE = [
    (re.compile(r"\b(RULINGS|DESIGN|STYLE|SCENARIOS)\.md\b"), "a working note outside the repository"),
    (re.compile(r"\bRULINGS\s+(A\d|\d|Part)|\b(DESIGN|STYLE)\s*[:\"(]"), "a working note outside the repository"),
    (re.compile(r"\bseeds?/|\bseed 0\d\d\b|\bseed file\b|\bSeed example\b"),
     "the rules text files outside the repository"),
    (re.compile(r"\bengine-lessons\b|\bFaB-|\bMTG-"), "a document outside the repository"),
    (re.compile(r"\bissues?\s*(#\s*)?\d+|\bissue\s*[:\"“(]|\(issue\b|\bthe issue (asks|says|wants)"),
     "a tracker issue"),
]
_SCANNED = ("*.py", "*.md", "*.toml", "*.ipynb", "*.sh", "*.cfg", "*.txt", "Makefile")
_SKIPPED = {".git", ".venv", ".venv-bench", "runs", "node_modules", "__pycache__"}


def _repository_files() -> list[Path]:
    out = []
    for pattern in _SCANNED:
        for path in ROOT.rglob(pattern):
            rel = path.relative_to(ROOT)
            if rel.parts[0] in _SKIPPED or any(p.startswith(".venv") for p in rel.parts):
                continue
            if path == Path(__file__).resolve() or not path.is_file():
                continue
            out.append(path)
    return sorted(set(out))


def outside_citations(text: str) -> list[str]:
    """What in ``text`` cites a document outside the repository."""
    return [f"{m.group(0)!r} ({why})" for pattern, why in _OUTSIDE for m in pattern.finditer(text)]


def test_no_citation_of_documents_outside_the_repository() -> None:
    """Code, docs, notebooks, data and tests cite rule numbers and the repository's own docs,
    never notes, rules files or issues that a user of the repository does not have."""
    found = []
    for path in _repository_files():
        for i, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{i}: {c}" for c in outside_citations(line)]
    assert not found, "\n".join(found)


def test_the_citation_guard_catches_each_kind() -> None:
    for text in ('(see RU' + 'LINGS.md A26)', 'RU' + 'LINGS A06', '(DE' + 'SIGN.md "Layers")',
                 'STY' + 'LE.md', '(STY' + 'LE: state is data)', 'SCEN' + 'ARIOS.md S001', 'se' + 'eds/000_x.txt',
                 'se' + 'ed 000',
                 'iss' + 'ue 5', '(iss' + 'ue: agents)', 'the iss' + 'ue asks for'):
        assert outside_citations(text), text
    for text in ("docs/rulings.md A26", "A26", "S001", "--seed 7", "seeds from 500,000",
                 "an issue with the layout", "RULINGS_DOC", "test_s239_rules_example",
                 'STYLE = "<style>"'):
        assert not outside_citations(text), text


def test_scenarios_doc_counts_the_scenario_tests() -> None:
    """docs/scenarios.md's count and range of rules scenarios are those of the tests: a scenario
    file tests/scenarios/sNNN_*.toml or a Python test test_sNNN_*."""
    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    m = re.search(r"(\d+) of them, numbered \*\*S001\*\* to \*\*S(\d{3})\*\*", text)
    assert m, "docs/scenarios.md says how many scenarios there are"
    ids = {p.name[1:4] for p in (ROOT / "tests" / "scenarios").glob("s[0-9][0-9][0-9]_*.toml")}
    for path in (ROOT / "tests").glob("*.py"):
        ids |= set(re.findall(r"def test_s(\d{3})_", path.read_text(encoding="utf-8")))
    assert (int(m.group(1)), m.group(2)) == (len(ids), max(ids))


LAB = ROOT / "docs" / "lab"
LAB_TEST_DECKS = LAB / "2026-11-27-stand-in-test-decks-beside-shipped-ones.md"


def _csv_rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return {row["deck"]: row for row in csv.DictReader(f)}


def test_the_test_deck_table_is_the_kept_studies() -> None:
    """The lab note's table of the stand-in test decks' mirror studies is the kept outputs'
    decks.csv, and each kept study is the one its command in the note plays (agent, games, seed,
    all ten decks)."""
    section = LAB_TEST_DECKS.read_text(encoding="utf-8")
    studies = []
    for agent, games, seed in re.findall(
            r"hostwcg balance --include-test --agent (\w+) --games (\d+) --seed (\d+)", section):
        folder = ROOT / "docs" / "balance" / f"test-decks-{agent}-{seed}"
        assert f"docs/balance/test-decks-{agent}-{seed}/" in section
        study = json.loads((folder / "study.json").read_text(encoding="utf-8"))
        assert (study["games"], study["seed"], len(study["decks"])) == (int(games), int(seed), 10)
        assert study["agents"] == [agent, agent]
        studies.append(_csv_rows(folder / "decks.csv"))
    assert [len(s) for s in studies] == [10, 10]

    def pct(x: str) -> str:
        return f"{100 * float(x):.1f}"

    rows = re.findall(r"^\| (\w+) \| ([\d.]+)% \| ([\d.]+) - ([\d.]+) \| ([\d.]+)% \| ([\d.]+) - ([\d.]+) \|$",
                      section, flags=re.M)
    assert len(rows) == 10
    for deck, *cells in rows:
        want = []
        for study in studies:
            r = study[deck]
            want += [pct(r["win_rate"]), pct(r["ci_low"]), pct(r["ci_high"])]
        assert cells == want, deck


# --------------------------------------------------------------------------- the guides and the lab notes

# a citation of a section or passage by its words: the path of a doc, then the words in double quotes
_CITATION = re.compile(r'`?(docs/[\w/-]+\.md)`?\s*(?:,\s*|\(\s*|\s+)"([^"\n]{3,120})"')


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower()).replace("`", "").rstrip(".")


def test_every_quoted_citation_of_a_doc_is_in_that_doc() -> None:
    """Where code, docs, model cards or results files cite a passage of a doc by its words
    (`docs/agents.md, "The ladder"`), those words are in that doc, so a section that moved (to
    docs/lab/) is cited where it is now. CHANGELOG.md cites the docs as they were."""
    folders = ("hostwcg_env", "agents", "scripts", "tests", "docs", "notebooks")
    files = [ROOT / "README.md", *(f for d in folders for f in sorted((ROOT / d).rglob("*"))
                                   if f.suffix in (".py", ".md", ".toml", ".ipynb"))]
    docs: dict[str, str] = {}
    broken, seen = [], 0
    for path in files:
        for m in _CITATION.finditer(path.read_text(encoding="utf-8")):
            doc, words = m.group(1), m.group(2)
            target = ROOT / doc
            if not target.is_file():
                broken.append(f"{path.relative_to(ROOT)}: {doc} does not exist")
                continue
            docs.setdefault(doc, _norm(target.read_text(encoding="utf-8")))
            seen += 1
            if _norm(words) not in docs[doc]:
                broken.append(f'{path.relative_to(ROOT)}: {doc} has no "{words}"')
    assert seen > 50
    assert not broken, broken


def test_the_agents_guide_is_a_guide() -> None:
    """docs/agents.md is short (its studies are lab notes), covers every shipped agent, and
    says how to evaluate, train and write one."""
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    assert len(text) <= 20_000, len(text)
    assert "Fixed before playing" not in text
    for name in ("random", "heuristic", "lookahead", "pimc", "turnsearch", "ismcts", "ppo", "ppo_v1", "ppo_v1:look"):
        assert f"| `{name}` |" in text, name
    for heading in ("## Which agent to use", "## Cost and strength", "## The ladder", "## The blunder audit",
                    "## Train an agent", "## Write an agent"):
        assert heading in text, heading
    assert "docs/write-an-agent.md" in text


def test_the_lab_notes_have_an_index_and_the_guides_link_only_to_notes_that_exist() -> None:
    notes = sorted(p.name for p in LAB.glob("*.md") if p.name != "README.md")
    index = (LAB / "README.md").read_text(encoding="utf-8")
    assert len(notes) >= 25
    assert sorted(set(re.findall(r"\]\(([\w.-]+\.md)\)", index))) == notes
    for guide in ("agents.md", "balance.md"):
        text = (ROOT / "docs" / guide).read_text(encoding="utf-8")
        linked = set(re.findall(r"docs/lab/([\w.-]+\.md)", text))
        assert linked and not linked - {*notes, "README.md"}, sorted(linked - set(notes))
    # the history left the balance guide; its current results stay
    balance = (ROOT / "docs" / "balance.md").read_text(encoding="utf-8")
    assert "## Current results" in balance
    assert not re.search(r"^##+ .*\(20\d\d-\d\d-\d\d", balance, flags=re.M)


def test_the_rulings_and_the_card_format_agree_on_conditions() -> None:
    """A54's reading (an "if" inside an effect is a condition checked when that part resolves)
    is what docs/cards.md's `if` steps do, and the entry says where, not that the format has
    no conditions."""
    a54 = _entries()["A54"]
    cards = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    assert "## Conditions: `if`" in cards and "(A54)" in cards
    where = re.sub(r"\s+", " ", a54.split("**Where:**", 1)[1])
    assert "no conditional step" not in where
    assert "`if` condition" in where and 'docs/cards.md "Conditions: `if`"' in where


# --------------------------------------------------------------------------- the docs' snippets

# every Python snippet of these docs, run in order in one fresh folder (a snippet may read what
# an earlier one wrote), with what it needs installed; docs/env.md's training snippet is run by
# tests/test_training_ux.py and tests/test_readme.py; docs/cards.md's is the template of a class
# in engine/primitives.py ("Adding a primitive"), not a program
SNIPPETS = {"engine.md": (), "balance.md": ("pandas",), "env_v1.md": ("sb3_contrib", "torch"),
            "training.md": ("sb3_contrib", "torch", "tensorboard")}


def _snippets(doc: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "docs" / doc).read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.slow
@pytest.mark.parametrize("doc", sorted(SNIPPETS))
def test_every_python_snippet_of_the_doc_runs(doc: str, tmp_path: Path) -> None:
    """Each snippet runs as written (the training ones with the small budget and the time they
    state: two rollouts, torch on one thread)."""
    for module in SNIPPETS[doc]:
        pytest.importorskip(module)
    (tmp_path / "agents").symlink_to(ROOT / "agents")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
    blocks = _snippets(doc)
    assert blocks
    for i, code in enumerate(blocks):
        run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=900)
        assert run.returncode == 0, (doc, i, run.stderr[-3000:])


def test_the_training_snippets_state_their_budget_and_time() -> None:
    """docs/env_v1.md's training snippets learn for a stated, small number of steps, on one
    torch thread, and say how long that took (they once ran for more than six minutes)."""
    training = [b for b in _snippets("env_v1.md") if ".learn(" in b]
    assert len(training) == 2
    for code in training:
        steps = int(re.search(r"\.learn\(([\d_]+)\)", code).group(1).replace("_", ""))  # type: ignore[union-attr]
        assert steps <= 4096, code
        assert "torch.set_num_threads(1)" in code
        assert re.search(r"#.*\d+ s\b.*load", code), code


def _time_to_strength_games(name: str, opponent: str, seed: int, agent: str | None = None) -> tuple[str, float, int]:
    """A kept time-to-strength results file (docs/lab/time-to-strength/NAME): the network's
    agent name (``agent``, or the one agent that is not ``opponent``), its score (draws count
    half) and the number of games, after checking that every game is the network against
    ``opponent`` on 200 seeds from ``seed``, seats swapped."""
    from hostwcg_env.analysis.recordfile import iter_records

    recs = list(iter_records(ROOT / "docs" / "lab" / "time-to-strength" / name))
    if agent is None:
        (agent,) = {a for r in recs for a in r["agents"]} - {opponent}
    assert {tuple(sorted(r["agents"])) for r in recs} == {tuple(sorted((opponent, agent)))}
    assert {r["seed"] for r in recs} == set(range(seed, seed + 200))  # 200 seeds, seats swapped
    won = sum(0.5 if r["winner"] is None else float(r["agents"][r["winner"]] == agent) for r in recs)
    return agent, won, len(recs)


def test_the_time_to_strength_follow_up_table_is_its_kept_games() -> None:
    """docs/lab/time-to-strength.md's follow-up (the in_2h network checked by the search): each
    row's games, win rate and Wilson interval are those of its kept results file, played on the
    registered seeds and agents."""
    from hostwcg_env.analysis.stats import wilson

    note = (ROOT / "docs" / "lab" / "time-to-strength.md").read_text(encoding="utf-8")
    section = note.split("### Follow-up: the 2-hour network checked by the search")[1].split("### `in_4h`")[0]
    agent = "ppo_v1:runs/train/in_2h/policy.npz:look"
    for opponent, seed in (("heuristic", 935_000_000), ("lookahead", 936_000_000)):
        _, wins, n = _time_to_strength_games(f"in_2h_look_vs_{opponent}.jsonl.gz", opponent, seed, agent)
        p, lo, hi = wilson(wins, n)
        row = f"| {opponent} | {n} | **{100 * p:.1f}%** | {100 * lo:.1f}% - {100 * hi:.1f}% |"
        assert row in section, row


def test_the_in_4h_confirmation_table_is_its_kept_games() -> None:
    """docs/lab/time-to-strength.md's `in_4h` confirmation: each row's win rate and Wilson
    interval are those of the run's kept evaluation games (the recipe's 400 seat-swapped games
    against each opponent, from the registered seeds), and `bench_train.py --strength`'s kept
    output reads the same."""
    from hostwcg_env.analysis.stats import wilson

    note = (ROOT / "docs" / "lab" / "time-to-strength.md").read_text(encoding="utf-8")
    section = note.split("### `in_4h`")[1]
    strength = json.loads((ROOT / "docs" / "lab" / "time-to-strength" / "in_4h_strength.json").read_text(
        encoding="utf-8"))
    for opponent, seed in (("heuristic", 933_000_000), ("lookahead", 934_000_000)):
        me, won, n = _time_to_strength_games(f"in_4h_vs_{opponent}.jsonl.gz", opponent, seed)
        assert me.startswith("ppo_v1:") and me.endswith("runs/train/in_4h/policy.npz"), me
        assert n == 400
        p, lo, hi = wilson(won, n)
        row = f"| {opponent} | {100 * p:.1f}% | {100 * lo:.1f}% - {100 * hi:.1f}% |"
        assert row in section, row
        final = strength["targets"][opponent]["final"]
        assert (final["games"], final["won"]) == (n, won)


def test_the_first_turn_tables_are_the_kept_first_turn_csv() -> None:
    """The first-turn study's rows in docs/balance.md and in its lab note are the kept
    first_turn.csv's (the study's command writes it), and a row not in it is "not yet played"."""
    from hostwcg_env.analysis.firstturn import AGENTS, COMPENSATIONS

    with open(ROOT / "docs" / "lab" / "first-turn-study" / "first_turn.csv", newline="") as f:
        kept = {(r["agent"], r["compensation"]): r for r in csv.DictReader(f)}
    guide = (ROOT / "docs" / "balance.md").read_text(encoding="utf-8")
    note = (ROOT / "docs" / "lab" / "first-turn-study.md").read_text(encoding="utf-8")
    for c in COMPENSATIONS:
        flags = "the rules as written" if not c.rules else f"`{c.describe()}`"
        line = next(x for x in guide.splitlines() if x.startswith(f"| {flags} | {c.size} |"))
        cells = line.split(" | ")[2:4]
        for agent, cell in zip(AGENTS, cells, strict=True):
            r = kept.get((agent, c.label))
            if r is None:
                assert "not yet played" in cell, line
                continue
            w, lo, hi = (100 * float(r[k]) for k in ("win_rate", "ci_low", "ci_high"))
            assert f"{w:.1f}% [{lo:.1f}, {hi:.1f}]" in cell, line
            row = next(x for x in note.splitlines() if x.startswith(f"| `{agent}` | {flags} | {c.size} |"))
            assert f"| {w:.1f}% | {lo:.1f} - {hi:.1f} |" in row, row


def _confirmation_table(kept: Path, table: str) -> None:
    """A tune confirmation's lab-note table (``table``) is its kept skill_decks.csv (``kept``),
    and the registered rule (45-55%, interval inside 42-58%, under both agents; 400 games a pair,
    7 opponents) is met everywhere but Tamsin under the lookahead."""
    with open(kept / "skill_decks.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 8
    for r in rows:
        line = next(x for x in table.splitlines() if x.startswith(f"| {r['deck'].split('_')[0]} |"))
        for agent in ("ppo_v1", "lookahead"):
            w, lo, hi = (float(r[f"{agent}:{k}"]) for k in ("win_rate", "ci_low", "ci_high"))
            assert int(r[f"{agent}:games"]) == 2800
            met = 0.45 <= w <= 0.55 and lo >= 0.42 and hi <= 0.58
            assert met == ((r["deck"], agent) != ("tamsin_wild_pack", "lookahead"))
            assert f"{100 * w:.1f}%" in line.replace("**", "") and f"{100 * lo:.1f} - {100 * hi:.1f}" in line


def test_the_second_tune_confirmation_table_is_its_kept_tables() -> None:
    """The second tune's confirmation (the same lists, fresh seeds): the lab note's table is the
    kept skill_decks.csv, and the rule reads as the note says: met everywhere but Tamsin under
    the lookahead, so nothing was adopted."""
    kept = ROOT / "docs" / "balance" / "tune-confirm-240000000"
    note = (ROOT / "docs" / "lab" / "2026-11-28-second-tune-of-shipped-decks.md").read_text(encoding="utf-8")
    table = note.split("## The confirmation, played")[-1]
    _confirmation_table(kept, table)
    with open(kept / "skill_first_player.csv", newline="") as f:
        first = next(csv.DictReader(f))
    for agent in ("ppo_v1", "lookahead"):
        w, lo, hi = (100 * float(first[f"{agent}:{k}"]) for k in ("win_rate", "ci_low", "ci_high"))
        assert f"{w:.1f}% [{lo:.1f}, {hi:.1f}]" in table


def test_the_tune_confirmation_table_is_its_kept_tables() -> None:
    """The confirmation of the shipped decks' tune: the lab note's table is the kept
    skill_decks.csv, and the registered rule (45-55%, interval inside 42-58%, under both agents)
    reads as the note says: met everywhere but Tamsin under the lookahead."""
    kept = ROOT / "docs" / "balance" / "tune-confirm-220000000"
    note = (ROOT / "docs" / "lab" / "2026-11-28-tuning-shipped-decks-under-both-agents.md").read_text(encoding="utf-8")
    table = note.split("## The confirmation")[-1]  # the last section: the played confirmation
    _confirmation_table(kept, table)
    assert "67.5% [66.0, 69.0]" in table and "67.0% [65.0, 69.0]" in table
    with open(kept / "skill_first_player.csv", newline="") as f:
        first = next(csv.DictReader(f))
    assert f"{100 * float(first['ppo_v1:win_rate']):.1f}%" == "67.5%"
    assert f"{100 * float(first['lookahead:win_rate']):.1f}%" == "67.0%"


def test_the_one_type_what_if_table_is_its_kept_what_if() -> None:
    """Tamsin's one-type what-if: the lab note's change column is the kept whatif.md's deck row,
    under each agent."""
    lab = ROOT / "docs" / "lab"
    kept = (lab / "tamsin-with-one-type" / "whatif.md").read_text(encoding="utf-8")
    note = (lab / "2026-11-29-tamsin-with-one-type.md").read_text(encoding="utf-8")
    line = next(x for x in kept.splitlines() if x.startswith("deck tamsin_wild_pack "))
    cells = re.findall(r"([+-]\d+\.\d) \[([+-]\d+\.\d),([+-]\d+\.\d)\]", line)
    assert len(cells) == 2  # lookahead, ppo_v1
    for agent, (d, lo, hi) in zip(("lookahead", "`ppo_v1`"), cells, strict=True):
        row = next(x for x in note.splitlines() if x.startswith(f"| {agent} |"))
        assert row.endswith(f"| {d} [{lo}, {hi}] |"), row


def test_every_kept_tune_list_is_a_legal_deck() -> None:
    """The deck lists the tuning runs kept in docs/balance (each round's, each start) load and pass
    the deck rules (3.1) against the shipped pool, so any of them can be played again."""
    from hostwcg_env.cards.decks import load_deck

    lists = sorted((ROOT / "docs" / "balance").glob("tune-*/*/decks/*.toml"))
    assert len(lists) >= 8 * 6  # the third tune's start and four rounds, the fourth's first round
    for path in lists:
        assert load_deck(path).host, path  # load_deck raises, naming every problem, on an illegal list
