"""Every subcommand refuses bad input with a non-zero exit and one line that names the problem,
never a traceback; every subcommand's ``--help`` works.

Rows run ``cli.main`` in-process: an exception escaping ``main`` is what would print a
traceback, so the test fails on it; ``test_module_entry_point_prints_no_traceback`` runs a few
rows through ``python -m hostwcg_env`` to show the entry point behaves the same.

Each row is ``(argv, needle, where)``: ``err``: a usage or input error, exactly one line on
stderr containing ``needle``; ``out``: a checker's report (``deck check``, ``cards validate``,
``scenario run``) naming the problem on stdout, next to the files it could check.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hostwcg_env.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "hostwcg_env" / "cards" / "decks"
GOOD = str(DECKS / "test_authority.toml")


# a short study, so that a value accepted by mistake plays little
STUDY = ["--games", "1", "--decks", "brae", "karsh", "--quiet", "--out", "{out}"]
COMPARE = ["balance", "compare", "--compare", "damage_draws=true", "--sequential", *STUDY]

ROWS: list[tuple[list[str], str, str]] = [
    # ------------------------------------------------------------------ usage
    (["bogus"], "invalid choice: 'bogus'", "err"),
    (["scenario", "bogus"], "invalid choice: 'bogus'", "err"),
    # ------------------------------------------------------------------ scenario run
    (["scenario", "run"], "required: FILE", "err"),
    (["scenario", "run", "{bin}"], "not a text file", "out"),
    (["scenario", "run", "{latin1}"], "is not UTF-8", "out"),
    (["scenario", "run", "{empty}"], "no [[step]]", "out"),
    (["scenario", "run", "{malformed}"], "cannot read", "out"),
    (["scenario", "run", "{missing}"], "cannot read", "out"),
    (["scenario", "run", "{emptydir}"], "no scenario files (*.toml) in", "err"),
    # ------------------------------------------------------------------ cards
    (["cards", "validate", "{bin}"], "not a text file", "out"),
    (["cards", "validate", "{latin1}"], "is not UTF-8", "out"),
    (["cards", "validate", "{empty}"], "defines no cards", "out"),
    (["cards", "validate", "{malformed}"], "TOML syntax error", "out"),
    (["cards", "validate", "{missing}"], "cannot read the file", "out"),
    (["cards", "validate", "{emptydir}"], "no card files (*.toml) in", "err"),
    (["cards", "list", "--cost", "-1"], "argument --cost: must be at least 0 (got -1)", "err"),
    (["cards", "list", "--cost", "x"], "argument --cost: 'x' is not a whole number", "err"),
    (["cards", "list", "--type", "x"], "argument --type: invalid choice", "err"),
    (["cards", "list", "--resource", "xyz"], "unknown resource 'xyz'", "err"),
    (["cards", "show", "Squre"], "no card named 'Squre'", "out"),
    # ------------------------------------------------------------------ deck check
    (["deck", "check", "{bin}"], "not a text file", "out"),
    (["deck", "check", "{latin1}"], "is not UTF-8", "out"),
    (["deck", "check", "{empty}"], "missing [cards]", "out"),
    (["deck", "check", "{malformed}"], "TOML syntax error", "out"),
    (["deck", "check", "{unknown_card}"], "UNKNOWN_CARD 'Nosuch'", "out"),
    (["deck", "check", "{missing}"], "cannot read the file", "out"),
    (["deck", "diff", "brae"], "required: NEW", "err"),
    (["deck", "diff", "brae", "{unknown_card}"], "UNKNOWN_CARD 'Nosuch'", "err"),
    (["deck", "diff", "{missing}", "brae"], "cannot read the file", "err"),
    (["deck", "diff", "brae", "nosuchdeck"], "UNKNOWN_DECK 'nosuchdeck': no such deck", "err"),
    # ------------------------------------------------------------------ demo
    (["demo", "--quiet", "--decks", "{bin}", GOOD], "{bin}: FORMAT: not a text file", "err"),
    (["demo", "--quiet", "--decks", GOOD, "{latin1}"], "is not UTF-8", "err"),
    (["demo", "--quiet", "--decks", "{empty}", GOOD], "missing [cards] (card name = count) (and 2 more", "err"),
    (["demo", "--quiet", "--decks", "{unknown_card}", GOOD], "UNKNOWN_CARD 'Nosuch'", "err"),
    (["demo", "--quiet", "--decks", "{missing}", GOOD], "cannot read the file", "err"),
    (["demo", "--quiet", "--decks", GOOD, GOOD, GOOD], "--decks: give one or two decks", "err"),
    (["demo", "--quiet", "--decks", "krash", GOOD], "did you mean 'karsh'", "err"),
    (["demo", "--quiet", "--agents", "nosuch"], "unknown agent 'nosuch'", "err"),
    (["demo", "--quiet", "--agents", "random,random,random"], "give 1 to 2 agents", "err"),
    (["demo", "--quiet", "--agents", ","], "an empty agent name", "err"),
    (["demo", "--quiet", "--agents", "random:3"], "takes no ':' argument", "err"),
    (["demo", "--quiet", "--agents", "ppo:{missing}"], "No such file or directory", "err"),
    (["demo", "--quiet", "--seed", "-1"], "argument --seed: must be at least 0 (got -1)", "err"),
    (["demo", "--quiet", "--seed", "1.5"], "argument --seed: '1.5' is not a whole number", "err"),
    (["demo", "--quiet", "--color", "pink"], "argument --color: invalid choice", "err"),
    # ------------------------------------------------------------------ evaluate
    (["evaluate", "--quiet", "--agents", "ppo:/missing.npz,random"], "No such file or directory: /missing.npz", "err"),
    (["evaluate", "--quiet", "--agents", "ppo:{bin},random"],
     "is neither a Stable-Baselines3 model .zip nor an exported policy .npz", "err"),
    (["evaluate", "--quiet", "--agents", "ppo:{emptydir},random"], "Is a directory", "err"),
    (["evaluate", "--quiet", "--agents", "random"], "give at least 2 agents", "err"),
    (["evaluate", "--quiet", "--agents", "random,nosuch"], "unknown agent 'nosuch'", "err"),
    (["evaluate", "--quiet", "--agents", "random,ismcts:abc"], "ismcts:ITERATIONS", "err"),
    (["evaluate", "--quiet", "--agents", "random,level:6"],
     "agent 'level:6': no such level (known: level:1 (beginner)", "err"),
    (["evaluate", "--quiet", "--agents", "random,ismcts:0"], "ismcts:ITERATIONS", "err"),
    (["evaluate", "--quiet", "--agents", "random,ismcts:-1s"], "ismcts:ITERATIONS", "err"),
    (["evaluate", "--quiet", "--games", "0"], "argument --games: must be at least 1 (got 0)", "err"),
    # ------------------------------------------------------------------ export
    (["export", "heuristic", "--onnx", "{out}"], "heuristic: only the learned policies export", "err"),
    (["export", "ppo_v1", "--onnx", "{emptydir}"], "is a folder", "err"),
    (["export", "ppo_v1"], "required: --onnx", "err"),
    # ------------------------------------------------------------------ train, exploit (docs/training.md)
    (["train"], "required: RECIPE", "err"),
    (["train", "nosuch"], "nosuch: no such recipe file", "err"),
    (["exploit", "nosuch"], "AGENT: unknown agent 'nosuch'", "err"),
    (["exploit", "heuristic", "--minutes", "0"], "--minutes: must be > 0", "err"),
    (["evaluate", "--quiet", "--games", "-5"], "argument --games: must be at least 1 (got -5)", "err"),
    (["evaluate", "--quiet", "--workers", "-1", "--games", "1"], "argument --workers: must be at least 1", "err"),
    (["evaluate", "--quiet", "--workers", "0", "--games", "1"], "argument --workers: must be at least 1", "err"),
    (["evaluate", "--quiet", "--seed", "-1", "--games", "1"], "argument --seed: must be at least 0", "err"),
    (["evaluate", "--quiet", "--shard", "x", "--games", "1"], "--shard x: write K/N", "err"),
    (["evaluate", "--quiet", "--shard", "5/2", "--games", "1", "--results", "{out}.jsonl"], "shard 5/2", "err"),
    (["evaluate", "--quiet", "--games", "1", "--csv", "{emptydir}"], "argument --csv: {emptydir}: is a folder", "err"),
    (["evaluate", "--quiet", "--games", "1", "--markdown", "{missing}/x.md"], "no such folder", "err"),
    # ------------------------------------------------------------------ ladder
    (["ladder", "{missing}"], "no such results file", "err"),
    (["ladder", "{missing}", "--csv", "{emptydir}"], "argument --csv: {emptydir}: is a folder", "err"),
    # ------------------------------------------------------------------ audit
    (["audit", "{missing}"], "no such results file", "err"),
    (["audit", "{missing}", "--games", "0"], "argument --games: must be at least 1 (got 0)", "err"),
    (["audit", "{missing}", "--examples", "-1"], "argument --examples: must be at least 0 (got -1)", "err"),
    (["audit", "{missing}", "--markdown", "{emptydir}"], "argument --markdown: {emptydir}: is a folder", "err"),
    # ------------------------------------------------------------------ balance
    (["balance", "--decks", "{malformed}", "brae", "--games", "1", "--quiet", "--out", "{out}"],
     "cannot load the deck {malformed}: FORMAT: TOML syntax error", "err"),
    (["balance", "--decks", "{unknown_card}", "brae", "--games", "1", "--quiet", "--out", "{out}"],
     "UNKNOWN_CARD 'Nosuch'", "err"),
    (["balance", "--decks", "{bin}", "brae", "--games", "1", "--quiet", "--out", "{out}"],
     "{bin}: FORMAT: not a text file", "err"),
    (["balance", "--decks", "nosuch", "brae", "--games", "1", "--quiet", "--out", "{out}"],
     "'nosuch': no such deck", "err"),
    (["balance", "--decks", "brae", "--games", "1", "--quiet", "--out", "{out}"], "at least two decks", "err"),
    (["balance", *STUDY, "--games", "0"], "argument --games: must be at least 1 (got 0)", "err"),
    (["balance", *STUDY, "--games", "-5"], "argument --games: must be at least 1 (got -5)", "err"),
    (["balance", *STUDY, "--seed", "-1"], "argument --seed: must be at least 0", "err"),
    (["balance", *STUDY, "--workers", "-1"], "argument --workers: must be at least 1", "err"),
    (["balance", *STUDY, "--workers", "0"], "argument --workers: must be at least 1", "err"),
    (["balance", *STUDY, "--stop-after", "0"], "argument --stop-after: must be at least 1", "err"),
    (["balance", *STUDY, "--max-width", "-1"], "argument --max-width: must be above 0 (got -1)", "err"),
    (["balance", *STUDY, "--max-width", "0"], "argument --max-width: must be above 0 (got 0)", "err"),
    (["balance", *STUDY, "--max-width", "inf"], "argument --max-width: 'inf' is not a finite number", "err"),
    (["balance", *STUDY, "--agents", "nosuch,random"], "unknown agent 'nosuch'", "err"),
    (["balance", *STUDY, "--agent", "ppo:/missing.npz"], "No such file or directory", "err"),
    (["balance", *STUDY, "--backend", "x"], "argument --backend: invalid choice", "err"),
    (["balance", "bogus"], "argument mode: invalid choice: 'bogus'", "err"),
    (["balance", *STUDY, "--rule", "foo=1"], "argument --rule: 'foo=1': unknown rule flag 'foo'", "err"),
    (["balance", *STUDY, "--rule", "starting_hand=x"], "starting_hand takes a whole number, got 'x'", "err"),
    (["balance", *STUDY, "--rule", "damage_draws=maybe"], "damage_draws takes true or false, got 'maybe'", "err"),
    (["balance", *STUDY, "--rule", "starting_hand"], "'starting_hand': write FLAG=VALUE", "err"),
    (["balance", *STUDY, "--rule", "=1"], "write FLAG=VALUE", "err"),
    (["balance", *STUDY, "--rule", "ap_refresh=x"], "'ap_refresh=x': RuleConfig.ap_refresh", "err"),
    (["balance", *STUDY, "--rule", "frontrow_slots=0"], "'frontrow_slots=0': ", "err"),
    (["balance", "compare", *STUDY], "give the changed rules with --compare", "err"),
    (["balance", "compare", *STUDY, "--compare", "foo=1"], "argument --compare: 'foo=1': unknown rule flag", "err"),
    (["balance", "compare", *STUDY, "--compare", "auto_pay=2"], "auto_pay takes true or false", "err"),
    ([*COMPARE, "--alpha", "2"], "argument --alpha: must be between 0 and 1", "err"),
    ([*COMPARE, "--alpha", "0"], "argument --alpha: must be between 0 and 1", "err"),
    ([*COMPARE, "--alpha", "nan"], "argument --alpha: 'nan' is not a finite number", "err"),
    ([*COMPARE, "--look-every", "0"], "argument --look-every: must be at least 1 (got 0)", "err"),
    ([*COMPARE, "--metric", "nosuch"], "unknown metric 'nosuch'", "err"),
    (["balance", "report", "--out", "{emptydir}"], "holds no study", "err"),
    # ------------------------------------------------------------------ replay
    (["replay", "{missing}"], "no such file", "err"),
    (["replay", "{missing}", "--index", "-1"], "argument --index: must be at least 0 (got -1)", "err"),
    (["replay", "{missing}", "--side", "C"], "argument --side: invalid choice", "err"),
    # ------------------------------------------------------------------ play
    (["play", "--vs", "nosuch"], "argument --vs: unknown agent 'nosuch'", "err"),
    (["play", "--vs", "ppo:/missing.npz"], "No such file or directory", "err"),
    (["play", "--seed", "-1"], "argument --seed: must be at least 0", "err"),
    (["play", "--seat", "C"], "argument --seat: invalid choice", "err"),
    (["play", "--decks", "{bin}", GOOD], "{bin}: FORMAT: not a text file", "err"),
    (["play", "--decks", GOOD, "{unknown_card}"], "UNKNOWN_CARD 'Nosuch'", "err"),
    (["play", "--vs", "ismcts:0.5"],
     "argument --vs: agent 'ismcts:0.5': '0.5' is not a budget: write ismcts:0.5s", "err"),
    # ------------------------------------------------------------------ agents
    (["agents", "nosuch"], "hostwcg agents: unknown agent 'nosuch'", "err"),
    (["agents", "--check", "lookahead:nope=1"], "agent 'lookahead:nope=1': unknown option 'nope'", "err"),
    (["agents", "--check", "nosuch.module:Agent"], "cannot import 'nosuch.module'", "err"),
    # ------------------------------------------------------------------ serve (docs/web.md)
    (["serve", "--port", "-1"], "argument --port: must be at least 0 (got -1)", "err"),
    (["serve", "--agent", "nosuch"], "argument --agent: unknown agent 'nosuch'", "err"),
    (["serve", "--results", "{missing}"], "{missing}: no such folder", "err"),
    (["serve", "--reports", "{bin}"], "{bin}: no such folder", "err"),
]

# bad results and record files (a line that is not JSON in the middle of a file is read past
# with a warning naming file and line: tests/test_records.py)
RESULTS_ROWS: list[tuple[list[str], str, str]] = [
    (["replay", "{wrong_shape}"], "{wrong_shape}:1", "err"),
    (["ladder", "{wrong_shape}"], "{wrong_shape}:1", "err"),
    (["audit", "{wrong_shape}"], "{wrong_shape}:1", "err"),
    (["replay", "{corrupt}"], "{corrupt}:1", "err"),
    (["evaluate", "--quiet", "--games", "1", "--results", "{emptydir}"], "{emptydir}", "err"),
    (["balance", "--games", "1", "--decks", "brae", "karsh", "--quiet", "--out", "{bin}"], "{bin}", "err"),
]

# Every record field that replay, ladder and audit read is
# checked; OS errors on a path, empty paths, unbounded counts and card numbers are refused on
# one line. (file key, the field's problem as the one line names it)
BAD_RECORDS: list[tuple[str, str]] = [
    ("rules_unknown", "not a game record (rules: unknown rule flag 'nosuch'"),
    ("rules_range", "not a game record (rules: RuleConfig.starting_hand = -5: must be an integer from 0 to 50)"),
    ("rules_type", "not a game record (rules: RuleConfig.damage_draws = 'maybe': must be true or false"),
    ("rules_list", "not a game record ('rules' must be a table of rule flags)"),
    ("seed_neg", "not a game record (seed -1 out of range: 0 to 2**63-1)"),
    ("seed_big", "not a game record (seed 1000000000000000000000000000000 out of range"),
    ("seed_bool", "not a game record (seed True is not an integer)"),
    ("main_count_huge", "not a game record (deck A: more than 1000 cards in 'main')"),
    ("main_count_str", 'not a game record (deck A: ["Grove Tender", "x"] in \'main\' is not a [card, count] pair'),
    ("main_count_neg",
     'not a game record (deck A: ["Grove Tender", -3] in \'main\' is not a [card, count] pair (count 1 or more))'),
    ("main_name_num", "not a game record (deck A: [5, 4] in 'main' is not a [card, count] pair"),
    ("main_notlist", "not a game record (deck A: 'main' must be a list of [card, count] pairs)"),
    ("host_num", "not a game record (deck A: host 5 is not a name)"),
    ("deck_id_num", "not a game record (deck A: id 5 is not a name)"),
    ("deck_name_num", "not a game record (deck A: name 5 is not text)"),
    ("action_num", "not a game record ('actions' must be a list of actions in the text notation)"),
    ("turns_str", "not a game record (turns 'x': a whole number, 0 or more, or null)"),
    ("decisions_neg", "not a game record (decisions -4: a whole number, 0 or more, or null)"),
    ("epoch_str", "not a game record (epoch 'x': a whole number"),
    ("reason_num", "not a game record (reason 5: text or null)"),
    ("key_num", "not a game record (key 5: text or null)"),
    ("label_num", "not a game record (label 5: text or null)"),
    ("version_num", "not a game record (version 5: text or null)"),
    ("ask_forced_str", "not a game record (ask_forced 'x': true, false or null)"),
    ("first_player_bad", "not a game record (first_player 7: 0, 1 or null)"),
    ("seats_str", "not a game record ('seats' must be two [seconds, choices] pairs of numbers, 0 or more)"),
    ("seats_neg", "not a game record ('seats' must be two [seconds, choices] pairs"),
    ("agent_seeds_str", "not a game record ('agent_seeds' must be two whole numbers)"),
    ("cards_bad", "not a game record ('cards' must be two tables of opening, drawn and played card names)"),
    ("ms_str", "not a game record (ms 'x': a number of milliseconds"),
    ("winner_str", "not a game record (winner 'A': 0, 1 or null)"),
]
# the field is the second line's: the first is a good record, so the one line names line 2
RECORD_ROWS: list[tuple[list[str], str, str]] = [
    row for key, says in BAD_RECORDS for row in (
        (["replay", f"{{{key}}}", "--index", "1"], f"{{{key}}}:2: {says}", "err"),
        (["replay", f"{{{key}}}", "--all"], f"{{{key}}}:2: {says}", "err"),
        (["ladder", f"{{{key}}}"], f"{{{key}}}:2: {says}", "err"),
        (["audit", f"{{{key}}}"], f"{{{key}}}:2: {says}", "err"),
    )
] + [
    # decks this card pool cannot set up: the replay says so (a checker's report, on stdout)
    (["replay", "{host_unknown}"], "the game cannot be set up: deck of A: unknown card 'Nobody'", "out"),
    (["replay", "{host_unknown}", "--all"], "the game cannot be set up: deck of A: unknown card 'Nobody'", "out"),
    (["replay", "{main_unknown_card}"], "the game cannot be set up: deck of A: unknown card 'Nosuch Card'", "out"),
    (["replay", "{action_bad}"], "action 1 of", "out"),
]

ONE = ["--agents", "random,random", "--games", "1", "--quiet"]
MAX_SEED = str(2**63 - 1)
TRUST_ROWS: list[tuple[list[str], str, str]] = [
    # OS errors on any path: one line naming it
    (["evaluate", *ONE, "--results", "/proc/version"], "/proc/version:1: not a game record (not JSON)", "err"),
    (["evaluate", *ONE, "--results", "/proc/self/mem"], "/proc/self/mem: cannot read it (Input/output error)", "err"),
    (["evaluate", *ONE, "--results", "/proc/nosuch/r.jsonl"], "/proc/nosuch: No such file or directory", "err"),
    (["evaluate", *ONE, "--csv", "/proc/version"], "/proc/version: Input/output error", "err"),
    (["evaluate", *ONE, "--markdown", "/proc/version"], "/proc/version: Input/output error", "err"),
    (["ladder", "/proc/self/mem"], "/proc/self/mem: cannot read it", "err"),
    (["audit", "/proc/self/mem"], "/proc/self/mem: cannot read it", "err"),
    (["replay", "/proc/self/mem"], "/proc/self/mem: cannot read it", "err"),
    (["replay", "/proc/version"], "/proc/version:1: not a game record", "err"),
    (["balance", "--decks", "brae", "karsh", "--games", "1", "--quiet", "--out", "/proc/nosuch"],
     "/proc/nosuch: No such file or directory", "err"),
    (["cards", "validate", "/proc/self/mem"], "cannot read the file", "out"),
    # empty paths
    (["replay", ""], "argument FILE: an empty path", "err"),
    (["ladder", ""], "argument FILE.jsonl: an empty path", "err"),
    (["audit", ""], "argument RESULTS: an empty path", "err"),
    (["evaluate", *ONE, "--results", ""], "argument --results: an empty path", "err"),
    (["evaluate", *ONE, "--csv", ""], "argument --csv: an empty path", "err"),
    (["evaluate", *ONE, "--markdown", ""], "argument --markdown: an empty path", "err"),
    (["balance", *STUDY[:-1], ""], "argument --out: an empty path", "err"),
    (["balance", "report", "--out", ""], "argument --out: an empty path", "err"),
    (["scenario", "run", ""], "argument FILE: an empty path", "err"),
    (["cards", "validate", ""], "argument FILE: an empty path", "err"),
    (["deck", "check", ""], "argument DECK: an empty path", "err"),
    (["demo", "--quiet", "--decks", "", GOOD], "'': no such deck", "err"),
    # --shard needs --results
    (["evaluate", *ONE, "--shard", "0/2"], "--shard needs --results FILE", "err"),
    # counts and seeds bounded
    (["demo", "--quiet", "--seed", str(2**63)], "argument --seed: must be at most 2**63-1", "err"),
    (["play", "--seed", str(2**63)], "argument --seed: must be at most 2**63-1", "err"),
    (["evaluate", *ONE, "--seed", str(10**30)], "argument --seed: must be at most 2**63-1", "err"),
    (["balance", *STUDY, "--seed", str(2**63)], "argument --seed: must be at most 2**63-1", "err"),
    (["evaluate", "--agents", "random,random", "--quiet", "--seed", MAX_SEED, "--games", "4"],
     "go past the largest seed, 2**63-1", "err"),
    (["balance", *STUDY, "--seed", MAX_SEED, "--games", "3"], "go past the largest seed, 2**63-1", "err"),
    ([*COMPARE, "--games", "1000000000000"], "a comparison plays at most 1,000,000 games a configuration", "err"),
    (["evaluate", *ONE, "--workers", str(10**12)], "argument --workers: must be at most 1024", "err"),
    (["balance", *STUDY, "--workers", "1025"], "argument --workers: must be at most 1024", "err"),
    # card numbers have ranges (docs/cards.md "Numbers")
    (["cards", "validate", "{bigpower}"],
     "card 'Big Ogre': field 'power': must be from 0 to 999, got 99999999999999999999", "out"),
    (["cards", "validate", "{bighealth}"], "card 'Big Ogre': field 'health': must be from 1 to 999, got 1000", "out"),
    (["cards", "validate", "{bigamount}"],
     "field 'abilities[0].steps[0].amount': must be from 1 to 999, got 123456789", "out"),
    (["demo", "--quiet", "--decks", "{bigdeck}", GOOD], "DECK_SIZE: 99999999999999999999 main-deck cards", "err"),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("bad")
    made = {
        "bin": b"\x00\x01\x02\xff\xfe\x80 binary",
        "latin1": 'name = "Caf\xe9"\n'.encode("latin-1"),
        "empty": b"",
        "malformed": b'name = "x"\nhost = \n',
        "unknown_card": b'name = "Bad"\nhost = "Test Host"\n[cards]\n"Nosuch" = 50\n',
        "corrupt": b'{"a": 1}\nnot json\n',
        "wrong_shape": b"[1, 2]\n",
        "bigpower": _card(power="99999999999999999999"),
        "bighealth": _card(health="1000"),
        "bigamount": _card(extra='[[card.abilities]]\nkind = "triggered"\n'
                                 'when = { event = "attacks", subject = "self" }\n'
                                 'steps = [ { do = "damage", amount = 123456789, to = "opponent_host" } ]\n'),
        "bigdeck": b'name = "Huge"\nhost = "Test Host"\n[cards]\n"Squire" = 99999999999999999999\n',
        **_bad_records(),
    }
    out = {}
    for name, data in made.items():
        p = d / f"{name}.toml"
        p.write_bytes(data)
        out[name] = str(p)
    (d / "emptydir").mkdir()
    out["emptydir"] = str(d / "emptydir")
    out["missing"] = str(d / "missing.toml")
    return out


def _card(power: str = "2", health: str = "2", extra: str = "") -> bytes:
    return (f'[[card]]\nname = "Big Ogre"\ntype = "entity"\nresource = "strife"\ncost = "!!"\n'
            f"health = {health}\npower = {power}\n{extra}").encode()


def _bad_records() -> dict[str, bytes]:
    """A good record, then the same record with one field wrong (``BAD_RECORDS``)."""
    import copy
    import json

    from hostwcg_env.analysis.records import shipped_deck_refs
    from hostwcg_env.analysis.runner import GameSpec, play

    decks = shipped_deck_refs()
    rec = json.loads(json.dumps(play(GameSpec(decks[0], decks[1], 3, ("random", "random"))).record))
    changes: dict[str, tuple[list[Any], Any]] = {
        "rules_unknown": (["rules"], {"nosuch": 1}), "rules_range": (["rules"], {"starting_hand": -5}),
        "rules_type": (["rules"], {"damage_draws": "maybe"}), "rules_list": (["rules"], [1]),
        "seed_neg": (["seed"], -1), "seed_big": (["seed"], 10**30), "seed_bool": (["seed"], True),
        "main_count_huge": (["decks", 0, "main", 0, 1], 10**12), "main_count_str": (["decks", 0, "main", 0, 1], "x"),
        "main_count_neg": (["decks", 0, "main", 0, 1], -3), "main_name_num": (["decks", 0, "main", 0, 0], 5),
        "main_notlist": (["decks", 0, "main"], 5), "host_num": (["decks", 0, "host"], 5),
        "deck_id_num": (["decks", 0, "id"], 5), "deck_name_num": (["decks", 0, "name"], 5),
        "action_num": (["actions", 0], 5), "turns_str": (["turns"], "x"), "decisions_neg": (["decisions"], -4),
        "epoch_str": (["epoch"], "x"), "reason_num": (["reason"], 5), "key_num": (["key"], 5),
        "label_num": (["label"], 5), "version_num": (["version"], 5), "ask_forced_str": (["ask_forced"], "x"),
        "first_player_bad": (["first_player"], 7), "seats_str": (["seats"], [["x", 1], [0.1, 2]]),
        "seats_neg": (["seats"], [[-1.0, -1], [0.1, 2]]), "agent_seeds_str": (["agent_seeds"], ["a", "b"]),
        "cards_bad": (["cards"], 5), "ms_str": (["ms"], "x"), "winner_str": (["winner"], "A"),
        "host_unknown": (["decks", 0, "host"], "Nobody"),
        "main_unknown_card": (["decks", 0, "main", 0, 0], "Nosuch Card"),
        "action_bad": (["actions", 0], "frobnicate"),
    }
    out = {}
    for name, (path, value) in changes.items():
        bad = copy.deepcopy(rec)
        o = bad
        for k in path[:-1]:
            o = o[k]
        o[path[-1]] = value
        first = [] if name in ("host_unknown", "main_unknown_card", "action_bad") else [rec]
        out[name] = "".join(json.dumps(r) + "\n" for r in [*first, bad]).encode()
    return out


def _fill(items: list[str], files: dict[str, str], out: Path) -> list[str]:
    return [s.format(out=out, **files) for s in items]


def _check(argv: list[str], needle: str, where: str, files: dict[str, str], tmp_path: Path,
           capsys: pytest.CaptureFixture[str]) -> None:
    args = _fill(argv, files, tmp_path / "out")
    needle = needle.format(out=tmp_path / "out", **files)
    code = main(args)  # an exception escaping main is a traceback: the test fails on it
    cap = capsys.readouterr()
    assert code != 0, f"exit status 0 for {args}"
    assert "Traceback" not in cap.out + cap.err
    if where == "err":
        lines = cap.err.splitlines()
        assert len(lines) == 1, f"stderr is not one line: {cap.err!r}"
        assert needle in lines[0], f"{needle!r} not in {lines[0]!r}"
    else:
        assert not cap.err, f"a checker's report goes to stdout: {cap.err!r}"
        assert needle in cap.out, f"{needle!r} not in {cap.out!r}"


@pytest.mark.parametrize(("argv", "needle", "where"), ROWS, ids=[" ".join(r[0]) for r in ROWS])
def test_bad_input_is_refused_on_one_line(argv: list[str], needle: str, where: str,
                                          files: dict[str, str], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    _check(argv, needle, where, files, tmp_path, capsys)


@pytest.mark.parametrize(("argv", "needle", "where"), RESULTS_ROWS, ids=[" ".join(r[0]) for r in RESULTS_ROWS])
def test_bad_results_files_are_refused_on_one_line(argv: list[str], needle: str, where: str,
                                                   files: dict[str, str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _check(argv, needle, where, files, tmp_path, capsys)


@pytest.mark.parametrize(("argv", "needle", "where"), RECORD_ROWS + TRUST_ROWS,
                         ids=[" ".join(r[0]) or "''" for r in RECORD_ROWS + TRUST_ROWS])
def test_trust_round_two_bad_input_is_refused_on_one_line(argv: list[str], needle: str, where: str,
                                                          files: dict[str, str], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    _check(argv, needle, where, files, tmp_path, capsys)


SHAPES = [  # valid TOML, not a scenario: (file text, what the report names)
    ("step = 5\n", "step: must be a list of tables"),
    ('step = ["x"]\n', "step[0]: must be a table"),
    ("[[step]]\ndo = 5\n", "step 1: do: must be a list of strings"),
    ("[[step]]\ndo = [1, 2]\n", "step 1: do[0]: must be a string"),
    ('[[step]]\ndo = "pass"\nexpect = 5\n', "step 1: expect: must be a table"),
    ('[[step]]\ndo = "pass"\n[step.expect]\nerror = 5\n', "expect.error: must be a string"),
    ('[[step]]\ndo = "pass"\n[step.expect]\nlegal = "x"\n', "expect.legal: must be a list"),
    ('setup = 5\n[[step]]\ndo = "pass"\n', "setup: must be a table"),
    ('config = 5\n[[step]]\ndo = "pass"\n', "config: must be a table"),
    ('cards = 5\n[[step]]\ndo = "pass"\n', "cards: must be a list of tables"),
    ('[setup]\nturn = "x"\n[[step]]\ndo = "pass"\n', "setup.turn: must be a whole number"),
    ('[setup.A]\nhand = 5.5\n[[step]]\ndo = "pass"\n', "setup.A.hand: must be a list of card names or a count"),
    ('[setup.A]\nhand = -3\n[[step]]\ndo = "pass"\n', "setup.A.hand: must be at least 0"),
    ('[setup.A]\npool = 5\n[[step]]\ndo = "pass"\n', "setup.A.pool: must be a table"),
    ('[setup.A]\npool = { "&" = "x" }\n[[step]]\ndo = "pass"\n', "setup.A.pool.&: must be a whole number"),
    ('[setup.A]\nfront = { x = "Squire" }\n[[step]]\ndo = "pass"\n', "setup.A.front.x: must be a slot number"),
    ('[setup.A.front.0]\ncard = "Squire"\nmods = 5\n[[step]]\ndo = "pass"\n', "front.0.mods: must be a list"),
    ('[[setup.stack]]\ncontroller = "C"\ncard = "Blast"\n[[step]]\ndo = "pass"\n',
     "setup.stack[0].controller: must be \"A\" or \"B\""),
]


@pytest.mark.parametrize(("text", "needle"), SHAPES, ids=[s[1] for s in SHAPES])
def test_scenario_files_of_the_wrong_shape_fail_naming_the_field(
        text: str, needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    code = main(["scenario", "run", str(path)])
    cap = capsys.readouterr()
    assert code == 1 and not cap.err
    assert f"FAIL bad ({path})" in cap.out
    assert needle in cap.out, cap.out


def test_every_subcommand_is_in_the_table() -> None:
    for command in _commands():
        assert any(tuple(argv[: len(command)]) == command for argv, _, _ in ROWS), command


def test_a_checker_still_checks_the_good_files(files: dict[str, str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A binary file among good ones is one FAIL; the others are still checked."""
    code = main(["deck", "check", GOOD, files["bin"], str(DECKS / "test_strife.toml")])
    out = capsys.readouterr().out
    assert code == 1
    assert out.count("ok ") == 2 and f"FAIL {files['bin']}" in out


def _commands() -> list[tuple[str, ...]]:
    """Every command and sub-action of the parser: ("demo",), ("cards", "list"), ..."""
    out: list[tuple[str, ...]] = []

    def walk(p: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs and path:
            out.append(path)
        for s in subs:
            for name, child in s.choices.items():
                walk(child, (*path, name))

    walk(build_parser(), ())
    return out


@pytest.mark.parametrize("command", _commands(), ids=" ".join)
def test_help_of_every_subcommand(command: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    code = main([*command, "--help"])
    cap = capsys.readouterr()
    assert code == 0
    assert cap.out.startswith(f"usage: hostwcg {' '.join(command)}")
    assert not cap.err


def test_module_entry_point_prints_no_traceback(files: dict[str, str], tmp_path: Path) -> None:
    """The same refusals through ``python -m hostwcg_env`` (the installed command's path)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for argv, needle in [(["evaluate", "--games", "0"], "must be at least 1"),
                         (["demo", "--quiet", "--decks", files["bin"], GOOD], "not a text file"),
                         (["play", "--vs", "nosuch"], "unknown agent 'nosuch'")]:
        r = subprocess.run([sys.executable, "-m", "hostwcg_env", *argv], capture_output=True, text=True,
                           env=env, cwd=tmp_path, stdin=subprocess.DEVNULL, timeout=120)
        assert r.returncode != 0
        assert "Traceback" not in r.stderr
        assert len(r.stderr.splitlines()) == 1 and needle in r.stderr, r.stderr
