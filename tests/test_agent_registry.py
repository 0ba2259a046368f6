"""The agent registry (agents/registry.py): every spelling make_agent took before the registry
makes the same agent; the specs' defaults are the constructors'; one option parser and one error
format; ismcts budgets; module:Class, register() and the hostwcg.agents entry points; the
``hostwcg agents`` command."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from agents import AGENT_NAMES, AgentNameError, AgentSpec, Option, agent_specs, make_agent, register
from agents.registry import WHOLE, describe, problem

ROOT = Path(__file__).resolve().parent.parent


# (name, class, attributes it must have): the spellings of tests, docs and kept results
SPELLINGS = [
    ("random", "RandomAgent", {}),
    ("heuristic", "HeuristicAgent", {}),
    ("lookahead", "LookaheadAgent", {"worlds": 1, "turns": 1, "stop": False, "stall": 0, "margin": 0.0}),
    ("lookahead:2:turns=2:stop=1:margin=0.01:danger=3", "LookaheadAgent",
     {"worlds": 2, "turns": 2, "stop": True, "margin": 0.01}),
    ("lookahead:stop=true", "LookaheadAgent", {"stop": True}),
    ("pimc", "PIMCAgent", {"worlds": 16, "first": 2, "keep": 0.5, "turns": 2, "stall": 50}),
    ("pimc:8:first=4:keep=0.25:stall=0", "PIMCAgent", {"worlds": 8, "first": 4, "keep": 0.25, "stall": 0}),
    ("turnsearch", "TurnSearchAgent", {"iterations": 64, "worlds": 4}),
    ("turnsearch:24:worlds=2:c=0.3:widen=2:alpha=0.4:turns=2", "TurnSearchAgent",
     {"iterations": 24, "worlds": 2, "c": 0.3, "widen": 2.0, "alpha": 0.4, "turns": 2}),
    ("ismcts", "ISMCTSAgent", {"iterations": 200, "time_limit": None, "sensible": True}),
    ("ismcts:1", "ISMCTSAgent", {"iterations": 1, "time_limit": None}),
    ("ismcts:300", "ISMCTSAgent", {"iterations": 300}),
    ("ismcts:0.45s", "ISMCTSAgent", {"time_limit": 0.45, "iterations": 1_000_000}),
    ("ismcts:0.2s:raw", "ISMCTSAgent", {"time_limit": 0.2, "sensible": False}),
    ("ismcts:raw", "ISMCTSAgent", {"sensible": False, "iterations": 200}),
    ("ismcts:12:raw", "ISMCTSAgent", {"sensible": False, "iterations": 12}),
    ("ismcts:seconds=0.3:exploration=0.5", "ISMCTSAgent", {"time_limit": 0.3}),
    ("ppo", "NumpyPolicy", {"guard": True}),
    ("ppo:raw", "NumpyPolicy", {"guard": False}),
    ("ppo_v1", "SetPolicyAgent", {"guard": True, "sample": False}),
    ("ppo_v1:raw:sample", "SetPolicyAgent", {"guard": False, "sample": True}),
    ("ppo_v1:agents/checkpoints/ppo_hostwcg_v1.npz", "SetPolicyAgent", {"guard": True}),
    ("ppo_v1:look", "SearchedSetAgent", {"margin": 0.05}),
    ("ppo_v1:look=0.1:worlds=2:top=3", "SearchedSetAgent", {"margin": 0.1}),
    ("agents.heuristic:HeuristicAgent", "HeuristicAgent", {}),
    ("agents.lookahead:LookaheadAgent:worlds=3", "LookaheadAgent", {"worlds": 3}),
]


@pytest.mark.parametrize("name,cls,attrs", SPELLINGS, ids=[s[0] for s in SPELLINGS])
def test_every_spelling_makes_its_agent(name: str, cls: str, attrs: dict) -> None:
    agent = make_agent(name, seed=3)
    assert type(agent).__name__ == cls
    assert {k: getattr(agent, k) for k in attrs} == attrs


def test_every_agent_name_of_the_kept_results_is_made() -> None:
    """The names in kept ladder results whose agent the registry ships (and whose file exists)."""
    from hostwcg_env.analysis.recordfile import iter_records

    names = set()
    for f in sorted((ROOT / "agents" / "ladder_results").glob("**/*.jsonl*")):
        for i, rec in enumerate(iter_records(f, warn=False)):
            names.update(n for n in (rec.get("agents") or [rec.get("a"), rec.get("b")]) if n)
            if i > 3:
                break
    makeable = {n for n in names if n.partition(":")[0] in AGENT_NAMES
                and not (n.startswith("ppo") and ":" in n and n.endswith(".npz")
                         and not (ROOT / n.split(":", 1)[1]).exists())}
    assert {"ismcts:0.45s", "pimc", "ppo_v1:look"} <= makeable  # others left the tree with their files
    for n in sorted(makeable):
        assert make_agent(n, seed=0) is not None, n


def test_the_registry_holds_the_shipped_agents_and_its_defaults_are_the_constructors() -> None:
    from agents.ismcts import ISMCTSAgent
    from agents.lookahead import LookaheadAgent
    from agents.pimc import PIMCAgent
    from agents.turnsearch import TurnSearchAgent

    specs = agent_specs()
    assert tuple(specs)[: len(AGENT_NAMES)] == AGENT_NAMES
    for name, cls in (("lookahead", LookaheadAgent), ("pimc", PIMCAgent), ("turnsearch", TurnSearchAgent),
                      ("ismcts", ISMCTSAgent)):
        params = {k: p.default for c in cls.__mro__ if "__init__" in vars(c)
                  for k, p in inspect.signature(c.__init__).parameters.items()
                  if p.default is not inspect.Parameter.empty}
        params |= {k: p.default for k, p in inspect.signature(cls.__init__).parameters.items()
                   if p.default is not inspect.Parameter.empty}
        for o in specs[name].options:
            if o.name in params:
                assert o.default == params[o.name], (name, o.name)
    for s in specs.values():
        assert s.help and "\n" not in s.help and s.written().startswith(s.name)
        for o in s.options:
            assert o.help and o.kind.expected


BAD = [
    ("ismcts:0.5",
     r"'0\.5' is not a budget: write ismcts:0\.5s for 0\.5 seconds a decision \(expected ismcts:ITERATIONS"),
    ("ismcts:abc", r"'abc' is not a budget \(expected ismcts:ITERATIONS"),
    ("ismcts:0", r"'0' is not a budget"),
    ("ismcts:-1s", r"'-1s' is not a budget"),
    ("ismcts:0s", r"'0s' is not a budget"),
    ("ismcts:12:nope", r"'nope' is not an option \(options: iterations, seconds, raw"),
    ("ismcts:seconds=0", r"seconds= takes a number above 0, not '0'"),
    ("random:3", r"random takes no ':' argument \(expected random\)"),
    ("lookahead:x", r"'x' is not WORLDS: a whole number, 1 or more \(expected lookahead\[:WORLDS\]"),
    ("lookahead:0", r"'0' is not WORLDS"),
    ("lookahead:nope=1", r"unknown option 'nope' \(options: worlds, "),
    ("lookahead:danger=high", r"danger= takes a number, not 'high'"),
    ("lookahead:stop=maybe", r"stop= takes true or false"),
    ("lookahead:2:3", r"'3' is not an option"),
    ("pimc:stop=1", r"unknown option 'stop'"),
    ("pimc:4:first=5", r"pimc: first must be from 1 to worlds \(4\), not 5 \(expected pimc"),
    ("ppo_v1:worlds=2", r"add :look"),
    ("ppo_v1:raw:attacks", r"'attacks' is part of the guard"),
    ("ppo_v1:look:sample", r"'look' checks the guarded greedy network"),
    ("ppo_v1:nonsense", r"'nonsense' is not a \.npz file of v1 weights"),
    ("turnsearch:c=high", r"c= takes a number, not 'high'"),
    ("agents.base:Observer", r"Observer.*missing 1 required positional argument"),
    ("agents.lookahead:LookaheadAgent:nope=1", r"unexpected keyword argument 'nope' \(expected KEY=VALUE of worlds, "
                                               r"margin, turns, stop, max_rollout, weights, opponent_decks, stall\)"),
    ("agents.lookahead:Weights", r"Weights has neither choose\(view, actions\) nor act"),
    ("nosuch_module_xyz:Agent", r"cannot import 'nosuch_module_xyz'"),
    ("agents.heuristic:Nope", r"module 'agents.heuristic' has no 'Nope'"),
]


@pytest.mark.parametrize("name,why", BAD, ids=[b[0] for b in BAD])
def test_one_error_format(name: str, why: str) -> None:
    """``agent 'NAME': PROBLEM (expected ...)``, one line, a ValueError, for every spec."""
    with pytest.raises(AgentNameError) as e:
        make_agent(name)
    text = str(e.value)
    assert text.startswith(f"agent {name!r}: ") and "(expected " in text and "\n" not in text, text
    assert re.search(why, text), text
    assert isinstance(e.value, ValueError)
    assert problem(name) == text  # the command line's check says the same line


def test_an_unknown_name_says_what_it_might_be() -> None:
    with pytest.raises(ValueError, match=r"unknown agent 'ismcst'; did you mean 'ismcts'.*\? \(expected random, "
                                         r"heuristic, .*ppo_v1, level, or MODULE:CLASS"):
        make_agent("ismcst")
    with pytest.raises(ValueError, match=r"unknown agent 'heur'; did you mean 'heuristic'\?"):
        make_agent("heur")  # never completed: the name is what the records keep


def test_module_class_takes_a_factory_seed_and_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_agents_mod.py").write_text(
        "from agents import EngineAgent\n"
        "class Plain(EngineAgent):\n"
        "    def __init__(self, depth=1, label='x'):\n"
        "        self.depth, self.label = depth, label\n"
        "    def choose(self, view, actions):\n"
        "        return actions[0]\n"
        "def seeded(seed=None, **kw):\n"
        "    a = Plain(**kw)\n"
        "    a.seed = seed\n"
        "    return a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    a = make_agent("my_agents_mod:seeded:depth=3:label='deep'", seed=7)
    assert (a.seed, a.depth, a.label) == (7, 3, "deep")
    b = make_agent("my_agents_mod:Plain:depth=2.5")  # no seed parameter: none passed
    assert b.depth == 2.5 and not hasattr(b, "seed")
    assert make_agent("my_agents_mod:Plain", depth=4).depth == 4  # make_agent's keywords win
    from agents import decide
    from hostwcg_env.analysis.ladder import run_ladder

    res = run_ladder(["random", "my_agents_mod:Plain"], games=2, quiet=True)
    assert {n for r in res.records for n in r["agents"]} == {"random", "my_agents_mod:Plain"}
    assert callable(decide)


def test_register_adds_a_typed_spec() -> None:
    spec = AgentSpec("test_only_registered", "the heuristic under another name",
                     lambda seed, **kw: make_agent("heuristic", seed=seed),
                     options=(Option("depth", WHOLE, 1, "unused"),), value="depth")
    try:
        register(spec)
        assert type(make_agent("test_only_registered:3")).__name__ == "HeuristicAgent"
        with pytest.raises(ValueError, match="already registered"):
            register(spec)
        assert ("test_only_registered", "test_only_registered[:DEPTH]", "the heuristic under another name") \
            in describe()
        with pytest.raises(AgentNameError, match=r"'x' is not DEPTH: a whole number"):
            make_agent("test_only_registered:x")
    finally:
        agent_specs().pop("test_only_registered", None)


def test_the_agents_command_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    from hostwcg_env.cli import main

    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    for name in AGENT_NAMES:
        assert re.search(rf"^{name} +{re.escape(agent_specs()[name].written())} +\S", out, flags=re.M), name
    assert "MODULE:CLASS" in out
    assert main(["agents", "list"]) == 0 and capsys.readouterr().out == out
    assert main(["agents", "pimc"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^worlds +a whole number, 1 or more +16 +", out, flags=re.M)
    assert re.search(r"^keep +a number, 0 or more +0\.5 +", out, flags=re.M)
    assert main(["agents", "--check", "pimc:4"]) == 0 and capsys.readouterr().out == "ok pimc:4\n"


def test_entry_points_are_agent_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "plug_agents_mod.py").write_text(
        "from agents.registry import AgentSpec, Option, whole\n"
        "from agents.heuristic import HeuristicAgent\n"
        "SPEC = AgentSpec('plugspec', 'a plug-in spec', lambda seed, n=2: HeuristicAgent(seed),\n"
        "                 options=(Option('n', whole(1), 2, 'a count'),), value='n')\n")
    info = tmp_path / "plug_agents-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plug-agents\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hostwcg.agents]\nplugspec = plug_agents_mod:SPEC\n"
                                           "plugcls = agents.heuristic:HeuristicAgent\n"
                                           "plugbroken = no_such_mod_xyz:X\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert type(make_agent("plugspec:3", seed=1)).__name__ == "HeuristicAgent"
    assert type(make_agent("plugcls", seed=1)).__name__ == "HeuristicAgent"
    with pytest.raises(AgentNameError, match=r"agent 'plugspec:x': 'x' is not N: a whole number"):
        make_agent("plugspec:x")
    with pytest.raises(AgentNameError, match=r"agent 'plugbroken': entry point 'no_such_mod_xyz:X' fails to load"):
        make_agent("plugbroken")
    rows = {r[0]: r for r in describe()}
    assert rows["plugspec"][1] == "plugspec[:N]" and "plug_agents_mod:SPEC" in rows["plugspec"][2]
    assert "fails to load" in rows["plugbroken"][2]
