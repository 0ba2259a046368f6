"""The ``hostwcg`` command (also ``python -m hostwcg_env``).

    hostwcg --version
    hostwcg scenario run FILE...         check scenario files (docs/scenarios.md)
    hostwcg cards validate [FILE...]     check card files (default: the shipped pool)
    hostwcg cards list [--type T] [--resource R] [--cost N] [--search TEXT]
    hostwcg cards show NAME
    hostwcg deck check DECK...           check deck lists (3.1, A10): names or files
    hostwcg demo [--agents A,B] [--seed N] [--decks DECK [DECK]] [--quiet]
    hostwcg play [--vs AGENT] [--seat A|B] [--seed N] [--decks DECK [DECK]]
    hostwcg evaluate --agents A,B,... [--games N] [--workers N] [--results FILE] [--decks DECK...]
    hostwcg ladder FILE...               the ladder of results files, playing nothing
    hostwcg balance [run|compare|report] [--decks ...] [--games N] [--agents A,B] [--rule F=V]
                    [--compare F=V] [--sequential] [--out DIR] [--workers N] [--backend ray]
    hostwcg replay FILE [--index N] [--side A|B|spectator] [--step] [--all]
    hostwcg audit RESULTS... [--games N] [--examples K]   blunder rates of the agents in kept games
    hostwcg agents [list | NAME] [--check AGENT]          the agent registry: names, options, defaults
    hostwcg serve [--host H] [--port N] [--results DIR...] [--reports DIR...] [--agent SPEC]
                                         play, watch and replay in the browser (docs/web.md)
    hostwcg export AGENT --onnx FILE     a learned policy's network as ONNX (docs/export.md)
    hostwcg train RECIPE [--run-dir DIR] [--resume]   a v1 policy from a recipe (docs/training.md)
    hostwcg exploit AGENT [--minutes N]  a best response to a frozen agent (docs/training.md)

A deck is a short name (``karsh``), an id (``karsh_ember_tide``) or a ``.toml`` file
(docs/cards.md "Naming a card or a deck"); an agent is ``random``, ``heuristic``,
``lookahead[:W][:K=V...]``, ``pimc[:W]``, ``turnsearch[:N]``, ``ismcts[:N|:Ss]``, ``ppo`` (the shipped
v0 policy) or ``ppo:PATH`` (a trained ``.zip`` or an exported ``.npz``), ``ppo_v1`` (the shipped v1
network) or ``ppo_v1:look`` (that network checked by rollouts), ``ppo_v1:PATH.npz[:look]``, a
``hostwcg.agents`` entry point, or ``MODULE:CLASS`` of your own (``hostwcg agents`` lists them;
``agents/registry.py``, docs/write-an-agent.md), or ``level:1`` (weakest) to ``level:5``
(docs/levels.md).

Exit status: 0 ok, 1 when something checked is wrong, 2 on a usage error. A bad value or file
is refused with one line on stderr that names it (``hostwcg_env/cli_input.py`` checks them), as is a
path the operating system cannot read or write;
an unexpected failure still shows its traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hostwcg_env.cards.text import card_sheet, find_card, resource_name, stats_text
from hostwcg_env.cli_input import (
    MAX_WORKERS,
    SEED_HELP,
    CLIError,
    Parser,
    agent_list,
    agent_spec,
    at_least,
    card_error_line,
    deck_error_line,
    deck_name,
    fraction,
    os_error_line,
    out_file,
    path_arg,
    positive,
    rule_flag,
    seed_arg,
    write_text,
)
from hostwcg_env.engine.carddef import RES_LETTERS, RES_NAMES, CardDef, CardType, Res

__all__ = ["build_parser", "find_card", "main", "stats_text"]

TYPE_ORDER = {t: i for i, t in enumerate(CardType)}
DECKS_HELP = ("seat A's deck and seat B's: a short name (karsh), an id (karsh_ember_tide) or a .toml "
              "file; one deck is seat A's (B's is drawn); 'test' for the two test decks "
              "(default: each seat's drawn from the preconstructed decks by the seed)")


# ============================================================================ scenario


def cmd_scenario_run(args: argparse.Namespace) -> int:
    from hostwcg_env.scenarios import run_file

    paths = _expand(args.files)
    if not paths:
        raise CLIError(f"no scenario files (*.toml) in {', '.join(args.files)}")
    failed = 0
    for path in paths:
        result = run_file(path)
        if result.ok:
            print(f"ok {result.id} {result.title}".rstrip())
            continue
        failed += 1
        print(f"FAIL {result.id} ({path})")
        for m in result.mismatches:
            print("    " + m.replace("\n", "\n    "))
    print(f"{len(paths) - failed} passed, {failed} failed")
    return 1 if failed else 0


def _expand(items: Sequence[str]) -> list[Path]:
    out: list[Path] = []
    for item in items:
        p = Path(item)
        out.extend(sorted(p.glob("*.toml")) if p.is_dir() else [p])
    return out


# ============================================================================ cards


def cmd_cards_validate(args: argparse.Namespace) -> int:
    from hostwcg_env.cards import CardError, load_cards
    from hostwcg_env.cards.loader import DATA_DIR

    files = _expand(args.files) if args.files else sorted(DATA_DIR.glob("*.toml"))
    if not files:
        raise CLIError(f"no card files (*.toml) in {', '.join(args.files)}")
    try:
        cards = load_cards(files)
    except CardError as e:
        for p in e.problems:
            print(p)
        print(f"{len(e.problems)} problem{'s' if len(e.problems) != 1 else ''}")
        return 1
    print(f"ok: {len(cards)} cards in {len(files)} file{'s' if len(files) != 1 else ''}")
    return 0


def _pool() -> dict[str, CardDef]:
    from hostwcg_env.cards import default_pool

    return default_pool()


def _resource(word: str) -> Res:
    w = word.strip()
    if w.lower() in RES_NAMES:
        return RES_NAMES[w.lower()]
    if w.upper() in RES_LETTERS and len(w) == 1:
        return RES_LETTERS[w.upper()]
    return Res(w)


def _matches(c: CardDef, args: argparse.Namespace) -> bool:
    if args.type and c.type.value != args.type:
        return False
    if args.resource is not None and c.resource is not args.resource:
        return False
    if args.cost is not None and len(c.cost) != args.cost:
        return False
    if args.search:
        hay = " ".join([c.name, c.text, " ".join(c.subtypes), " ".join(c.keywords)]).lower()
        return args.search.lower() in hay
    return True


def cmd_cards_list(args: argparse.Namespace) -> int:
    if args.resource is not None:
        try:
            args.resource = _resource(args.resource)
        except ValueError:
            raise CLIError(f"unknown resource {args.resource!r} (authority strife emotion amity generic, "
                           "or & £ ! % $)") from None
    cards = [c for c in _pool().values() if _matches(c, args)]
    cards.sort(key=lambda c: (TYPE_ORDER[c.type], len(c.cost), c.name))
    rows = [("name", "type", "resource", "cost", "stats", "keywords")]
    rows += [(c.name, c.type.value, resource_name(c.resource), c.cost_text() or "-", stats_text(c),
              ", ".join(sorted(c.keywords))) for c in cards]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, row in enumerate(rows):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")
    return 0


def cmd_cards_show(args: argparse.Namespace) -> int:
    from hostwcg_env.cards.lookup import lookup

    pool = _pool()
    found = lookup(" ".join(args.name), pool)  # any case, a unique start or word (docs/cards.md)
    if found.name is None:
        print(found.problem("card"))
        return 1
    print("\n".join(card_sheet(pool[found.name])))
    return 0


# ============================================================================ decks


def cmd_deck_check(args: argparse.Namespace) -> int:
    from hostwcg_env.cards import DeckError, load_deck

    pool = _pool()
    bad = 0
    for path in args.files:
        try:
            deck = load_deck(path, pool)
        except DeckError as e:
            bad += 1
            print(f"FAIL {path}: {len(e.problems)} problem{'s' if len(e.problems) != 1 else ''}")
            for p in e.problems:
                print(f"    {p.message}")
            continue
        print(f"ok {path}: {deck.name} ({deck.host}, {len(deck.main)} cards)")
    return 1 if bad else 0


def _deck_files(arg: Path) -> dict[str, Path]:
    """A folder's deck files by id (file stem), or one deck file or name."""
    from hostwcg_env.cards.decks import deck_files, deck_path

    if arg.is_dir():
        return deck_files(directory=arg)
    path = deck_path(str(arg))
    return {path.stem: path}


def cmd_deck_diff(args: argparse.Namespace) -> int:
    from hostwcg_env.cards import load_deck
    from hostwcg_env.cards.decks import deck_changes, swap_text

    pool = _pool()
    old_arg, new_arg = Path(args.old), Path(args.new)
    old, new = _deck_files(old_arg), _deck_files(new_arg)
    for arg, files in ((old_arg, old), (new_arg, new)):
        if not files:
            raise CLIError(f"no deck files (*.toml) in the folder {arg}", 1)
    if not (old_arg.is_dir() or new_arg.is_dir()):  # two decks: compared whatever their names
        pairs = [(next(iter(new)), next(iter(old.values())), next(iter(new.values())))]
    else:
        pairs = [(d, old[d], new[d]) for d in old if d in new]
        for d in sorted(old.keys() - new.keys()):
            print(f"{d}: only in {old_arg}")
        for d in sorted(new.keys() - old.keys()):
            print(f"{d}: only in {new_arg}")
    for d, a, b in pairs:
        before, after = load_deck(a, pool), load_deck(b, pool)
        changes = deck_changes(before.main, after.main)
        line = swap_text(d, changes) if changes else f"{d}: unchanged"
        print(line if before.host == after.host else f"{d}: Host {before.host!r} -> {after.host!r}; {line}")
    return 0


# ============================================================================ demo


def cmd_demo(args: argparse.Namespace) -> int:
    from hostwcg_env.demo import run_demo

    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    _check_decks(args.decks)
    # a deck file that is refused raises DeckError: main prints its first problem on one line
    run_demo(seed=args.seed, decks=args.decks, quiet=args.quiet, color=color,
             agents=([a.strip() for a in args.agents.split(",")] + ["random"])[:2] if args.agents
             else ("random", "random"))
    return 0


# ============================================================================ parser


def build_parser() -> argparse.ArgumentParser:
    from hostwcg_env import __version__

    p = Parser(prog="hostwcg", description="Host WCG rules engine, environment, agents and analysis tools.")
    p.add_argument("--version", action="version", version=f"hostwcg {__version__}",
                   help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    sc = sub.add_parser("scenario", help="scenario files (docs/scenarios.md)")
    scs = sc.add_subparsers(dest="action", metavar="ACTION")
    run = scs.add_parser("run", help="run scenario files; exit 1 on any mismatch")
    run.add_argument("files", nargs="+", type=path_arg, metavar="FILE", help="scenario files or folders")
    run.set_defaults(func=cmd_scenario_run)

    cards = sub.add_parser("cards", help="card files and the card pool (docs/cards.md)")
    cs = cards.add_subparsers(dest="action", metavar="ACTION")
    val = cs.add_parser("validate", help="check card files (default: the shipped pool)")
    val.add_argument("files", nargs="*", type=path_arg, metavar="FILE")
    val.set_defaults(func=cmd_cards_validate)
    ls = cs.add_parser("list", help="a table of the card pool")
    ls.add_argument("--type", choices=[t.value for t in CardType])
    ls.add_argument("--resource", help="authority, strife, emotion, amity, generic (or a symbol)")
    ls.add_argument("--cost", type=at_least(0), metavar="N", help="number of cost symbols (0 or more)")
    ls.add_argument("--search", metavar="TEXT", help="in name, text, subtypes, keywords")
    ls.set_defaults(func=cmd_cards_list)
    show = cs.add_parser("show", help="one card in full")
    show.add_argument("name", nargs="+", metavar="NAME")
    show.set_defaults(func=cmd_cards_show)

    deck = sub.add_parser("deck", help="deck lists (3.1, A10)")
    ds = deck.add_subparsers(dest="action", metavar="ACTION")
    chk = ds.add_parser("check", help="list every problem of deck files")
    chk.add_argument("files", nargs="+", type=path_arg, metavar="DECK",
                     help="deck files or names (karsh, karsh_ember_tide)")
    chk.set_defaults(func=cmd_deck_check)
    dif = ds.add_parser(
        "diff", help="the card changes from one deck list to another, as --swap text",
        description="The changes that turn OLD's lists into NEW's, one line a deck in the swap syntax of "
                    "'balance compare --swap' (e.g. brae_deep_roots: -2 Mending Rain +2 Wandering Golem). "
                    "OLD and NEW are deck files or names, or folders of deck files matched by file name "
                    "(e.g. the shipped decks against a tune's round-R/decks/).")
    dif.add_argument("old", type=path_arg, metavar="OLD", help="a deck file or name, or a folder of deck files")
    dif.add_argument("new", type=path_arg, metavar="NEW", help="a deck file or name, or a folder of deck files")
    dif.set_defaults(func=cmd_deck_diff)

    demo = sub.add_parser(
        "demo", help="watch one seeded game between two agents (random unless --agents), turn by turn",
        description="One seeded game between two agents, printed turn by turn with every card "
                    "shown: each turn's events and the board, then who won and by which rule. Each seat "
                    "plays a preconstructed deck drawn from the seed unless --decks names them.")
    demo.add_argument("--seed", type=seed_arg, default=0,
                      help=f"the game's seed, and the decks' when --decks does not name them: {SEED_HELP}")
    demo.add_argument("--decks", nargs="+", type=deck_name, metavar="DECK", help=DECKS_HELP)
    demo.add_argument("--quiet", action="store_true", help="print only the result")
    demo.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                      help="colour the board: auto (when writing to a terminal, the default), always or never")
    demo.add_argument("--agents", type=agent_list(1, 2), metavar="A,B",
                      help="agents for seats A and B: random, heuristic, lookahead[:W], pimc[:W], turnsearch[:N], "
                           "ismcts[:N|:Ss], ppo, ppo:PATH (a trained .zip or .npz), ppo_v1, ppo_v1:look, or "
                           "MODULE:CLASS ('hostwcg agents' lists them); one name is seat A's, B is random "
                           "(default random,random)")
    demo.set_defaults(func=cmd_demo)

    ev = sub.add_parser("evaluate", help="round-robin ladder between agents (win rates, ratings)")
    ev.add_argument("--agents", type=agent_list(2, None), default="random,heuristic",
                    help="comma-separated agents: random, heuristic, lookahead[:W], pimc[:W], turnsearch[:N], "
                         "ismcts[:N|:Ss], ppo, ppo:PATH, ppo_v1, ppo_v1:look, level:1 to level:5 (docs/levels.md), "
                         "or MODULE:CLASS of your own ('hostwcg agents' lists them; docs/write-an-agent.md)")
    ev.add_argument("--games", type=at_least(1), default=100, help="games per pair (seats swapped on paired seeds)")
    ev.add_argument("--workers", type=at_least(1, MAX_WORKERS), default=1,
                    help="processes playing games side by side (default 1; each plays whole games)")
    ev.add_argument("--seed", type=seed_arg, default=0, help=SEED_HELP)
    ev.add_argument("--decks", nargs="+", metavar="DECK",
                    help="the decks each game's two seats draw from: deck ids (brae_deep_roots), short names "
                         "(brae) or .toml files (default, or 'preconstructed': the eight preconstructed decks)")
    ev.add_argument("--include-test", action="store_true",
                    help="add the two stand-in test decks to the default eight (the ladder's ten before 2026-11-27)")
    ev.add_argument("--csv", type=out_file, metavar="FILE", help="also write the pairwise table as CSV")
    ev.add_argument("--results", type=path_arg, metavar="FILE.jsonl",
                    help="append every finished game here and skip the games already in it (resume, merge)")
    ev.add_argument("--shard", metavar="K/N", help="play only the games whose place in the schedule is K "
                    "modulo N (split one schedule over N runs; with --results)")
    ev.add_argument("--markdown", type=out_file, metavar="FILE", help="also write the report as markdown")
    ev.add_argument("--quiet", action="store_true", help="no progress bar")
    ev.set_defaults(func=cmd_evaluate)

    lad = sub.add_parser("ladder", help="the ladder of games already played: win rates and ratings from "
                         "results files (evaluate --results), playing nothing")
    lad.add_argument("files", nargs="+", type=path_arg, metavar="FILE.jsonl",
                     help="results files (.jsonl or .jsonl.gz)")
    lad.add_argument("--csv", type=out_file, metavar="FILE", help="also write the pairwise table as CSV")
    lad.add_argument("--markdown", type=out_file, metavar="FILE", help="also write the report as markdown")
    lad.set_defaults(func=cmd_ladder)

    add_balance_parsers(sub)
    from hostwcg_env.cli_agents import add_parser as add_agents_parser

    add_agents_parser(sub)
    from hostwcg_env import cli_export

    cli_export.add_parser(sub)
    from hostwcg_env import cli_train  # train RECIPE, exploit AGENT (docs/training.md)

    cli_train.add_parser(sub)

    au = sub.add_parser("audit", help="replay kept games and classify every choice by the blunder rules "
                        "(docs/agents.md): rates per agent, games ended at the turn limit, worst examples")
    au.add_argument("files", nargs="+", type=path_arg, metavar="RESULTS",
                    help="ladder results files (.jsonl or .jsonl.gz)")
    au.add_argument("--games", type=at_least(1), metavar="N", help="audit only the first N games of each file")
    au.add_argument("--examples", type=at_least(0), default=3, metavar="K",
                    help="worst examples shown per agent and rule, with the board (default 3; 0: none)")
    au.add_argument("--markdown", type=out_file, metavar="FILE", help="also write the report as markdown")
    au.set_defaults(func=cmd_audit)

    pl = sub.add_parser(
        "play", help="play a game against an agent in the terminal",
        description="You against an agent, from your side of the table: what happened since your last "
                    "move (the opponent's actions included), the board each turn, your hand with costs and "
                    "stats, and the legal actions numbered. Answer with a number or an action; 'help' lists "
                    "the commands (hand, board, show CARD, log, concede).")
    pl.add_argument("--vs", type=agent_spec, default="heuristic",
                    help="your opponent: random, heuristic (default), lookahead, pimc, ismcts[:N|:Ss], ppo, ppo:PATH "
                         "(a trained .zip or .npz), ppo_v1, ppo_v1:look (the strongest), level:1 (weakest) to "
                         "level:5 (docs/levels.md), or MODULE:CLASS ('hostwcg agents' lists them)")
    pl.add_argument("--seat", choices=("A", "B"), default="A", help="your seat (default A)")
    pl.add_argument("--seed", type=seed_arg, default=0,
                    help=f"the game's seed, and the decks' when --decks does not name them: {SEED_HELP}")
    pl.add_argument("--decks", nargs="+", type=deck_name, metavar="DECK", help=DECKS_HELP)
    pl.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                      help="colour the board: auto (when writing to a terminal, the default), always or never")
    pl.set_defaults(func=cmd_play)
    from hostwcg_env.web.serve import add_parser as add_serve_parser  # the web app (docs/web.md)
    add_serve_parser(sub)
    return p


def cmd_evaluate(args: argparse.Namespace) -> int:
    from hostwcg_env.analysis.ladder import run_ladder

    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(names) < 2:
        print("evaluate: give at least two agents", file=sys.stderr)
        return 2
    shard = None
    if args.shard:
        k, _, n = args.shard.partition("/")
        if not (k.isdigit() and n.isdigit()):
            print(f"evaluate: --shard {args.shard}: write K/N, e.g. 0/4", file=sys.stderr)
            return 2
        shard = (int(k), int(n))
        if not args.results:
            print("evaluate: --shard needs --results FILE (each shard's games go to a results file, "
                  "merged afterwards)", file=sys.stderr)
            return 2
    try:
        from hostwcg_env.analysis.ladder import default_decks
        from hostwcg_env.analysis.simulate import resolve_decks

        if args.decks in (None, ["preconstructed"]):
            decks = list(default_decks(include_test=args.include_test))
        else:
            decks = resolve_decks(args.decks)
            tests = [d for d in default_decks(True) if d not in default_decks() and d.id not in {x.id for x in decks}]
            decks += tests if args.include_test else []
        result = run_ladder(names, args.games, workers=args.workers, seed=args.seed, quiet=args.quiet,
                            results=args.results, shard=shard, decks=decks, keep_records=False)
    except ValueError as e:
        print(f"evaluate: {e}", file=sys.stderr)
        return 2
    return _print_ladder(result, args)


def _print_ladder(result: Any, args: argparse.Namespace) -> int:
    """Print a ladder's markdown report; write it and its CSV where asked (--markdown, --csv)."""
    report = result.markdown()
    print(report)
    if args.csv:
        write_text(args.csv, result.csv())
    if args.markdown:
        write_text(args.markdown, report + "\n")
    return 0


def cmd_ladder(args: argparse.Namespace) -> int:
    from hostwcg_env.analysis.ladder import LadderResult

    try:
        result = LadderResult.from_results(args.files, keep_records=False)
    except ValueError as e:
        print(f"ladder: {e}", file=sys.stderr)
        return 2
    return _print_ladder(result, args)


def cmd_audit(args: argparse.Namespace) -> int:
    from hostwcg_env.analysis.audit import audit

    try:
        result = audit(args.files, limit=args.games, examples=args.examples)
    except ValueError as e:
        print(f"audit: {e}", file=sys.stderr)
        return 2
    if not result.games:
        why = result.epoch_note() or f"no game with its actions kept in {', '.join(args.files)}"
        print(f"audit: {why}", file=sys.stderr)
        return 2
    report = result.markdown(args.examples)
    print(report)
    if args.markdown:
        write_text(args.markdown, report + "\n")
    return 0


def _check_decks(decks: list[str] | None) -> None:
    if decks and len(decks) > 2:
        raise CLIError(f"--decks: give one or two decks (seat A's, then seat B's), got {len(decks)}")


def cmd_play(args: argparse.Namespace) -> int:
    from hostwcg_env.play import play_terminal

    _check_decks(args.decks)
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    return play_terminal(vs=args.vs, seat="AB".index(args.seat), seed=args.seed, decks=args.decks,
                         color=color)


# ============================================================================ balance, replay


def add_balance_parsers(sub: Any) -> None:
    bal = sub.add_parser(
        "balance", help="balance analysis by self-play: matchups, first player, cards, Hosts (docs/balance.md)",
        description="Decks x decks on paired, seat-swapped seeds; tables with 95% intervals as CSV, "
                    "Parquet, PNG plots and one HTML report in --out. Resumable: run the same command "
                    "again to finish an interrupted study.")
    bal.add_argument("mode", nargs="?", choices=("run", "compare", "report", "skill", "tune"), default="run",
                     help="run a study (default); compare two rule configurations (with --compare); "
                          "report: rebuild the outputs of --out from its records without playing; "
                          "skill: the same study under each agent of --skills, its conclusions compared; "
                          "tune: deck-list swaps that move every deck into --band (docs/balance.md)")
    bal.add_argument("--decks", nargs="+", metavar="DECK",
                     help="deck ids (brae_deep_roots), unique prefixes (brae) or .toml files "
                          "(default: every shipped preconstructed deck)")
    bal.add_argument("--include-test", action="store_true", help="add the two stand-in test decks")
    bal.add_argument("--mirrors", action="store_true", help="also play each deck against itself")
    bal.add_argument("--games", type=at_least(1), default=100, metavar="N",
                     help="games per deck pair, seats swapped on paired seeds (default 100)")
    bal.add_argument("--agent", help="the agent for both seats, any agent name, MODULE:CLASS included (default random; "
                                     "compare --patch/--swap: lookahead and ppo_v1, one comparison each)")
    bal.add_argument("--agents", metavar="A,B", help="agents for seat A and seat B (overrides --agent)")
    bal.add_argument("--skills", type=agent_list(2, None), default="random,heuristic,lookahead,ppo_v1",
                     metavar="A,B,...", help="skill: the agents whose studies are compared, each in both seats "
                                             "(default random,heuristic,lookahead,ppo_v1)")
    bal.add_argument("--seed", type=seed_arg, default=0, help="base seed, a whole number from 0 to 2**63-1 (default 0)")
    bal.add_argument("--rule", type=rule_flag, action="append", default=[], metavar="FLAG=VALUE",
                     help="a RuleConfig flag for the study (repeatable), e.g. damage_draws=true")
    bal.add_argument("--compare", type=rule_flag, action="append", default=[], metavar="FLAG=VALUE",
                     help="compare mode: configuration B = the study's rules plus these (repeatable)")
    bal.add_argument("--patch", action="append", default=[], metavar="'CARD: FIELD=VALUE'",
                     help="compare: in B, edit a card, e.g. 'Mossback Tortoise: health=5' (repeatable)")
    bal.add_argument("--swap", action="append", default=[], metavar="'DECK: -CARD +CARD'",
                     help="compare: in B, change a deck list, e.g. \"brae: -Nature's Bounty +Seed the Earth\"")
    bal.add_argument("--sequential", action="store_true",
                     help="compare: stop early when a group-sequential test on --metric is decided")
    bal.add_argument("--look-every", type=at_least(1), default=50, metavar="K",
                     help="sequential: paired games between looks (default 50)")
    bal.add_argument("--metric", default="first_player",
                     help="sequential: first_player, seat_a, draws, turns, decisions, deck:ID, "
                          "matchup:ID:ID (default first_player)")
    bal.add_argument("--alpha", type=fraction, default=0.05,
                     help="sequential: two-sided alpha, between 0 and 1 (default 0.05)")
    bal.add_argument("--spending", choices=("pocock", "obf"), default="pocock",
                     help="sequential: alpha-spending function, Pocock- or O'Brien-Fleming-type")
    from hostwcg_env.analysis.tune import add_arguments as add_tune_arguments

    add_tune_arguments(bal)
    bal.add_argument("--out", type=path_arg, metavar="DIR", help="output folder (default runs/balance, runs/compare)")
    bal.add_argument("--fresh", action="store_true", help="discard the games already in --out")
    bal.add_argument("--workers", type=at_least(1, MAX_WORKERS), default=None, metavar="N",
                     help="processes (local) or CPUs of a local Ray cluster (default: all cores)")
    bal.add_argument("--backend", choices=("local", "ray"), default="local",
                     help="local: multiprocessing (default); ray: a Ray cluster")
    bal.add_argument("--address", metavar="ADDR", help="ray: cluster address (auto, HOST:6379, ray://HOST:10001)")
    bal.add_argument("--ship-code", action="store_true",
                     help="ray: upload this checkout's packages to the cluster's workers")
    bal.add_argument("--max-width", type=positive, default=0.2, metavar="W",
                     help="flag results whose 95%% interval is wider than W, above 0 (default 0.2)")
    bal.add_argument("--stop-after", type=at_least(1), metavar="N", help="play at most N new games, then stop")
    bal.add_argument("--no-plots", action="store_true", help="no PNG plots")
    bal.add_argument("--quiet", action="store_true", help="no progress bar")
    bal.set_defaults(func=cmd_balance)

    rp = sub.add_parser("replay",
                        help="replay a recorded game (a balance shard or a ladder results file) in the terminal")
    rp.add_argument("file", type=path_arg, metavar="FILE",
                    help="a JSONL file of game records or ladder results, or a folder of shards")
    rp.add_argument("--index", type=at_least(0), default=0, metavar="N",
                    help="the record to replay: 0-based, counting records (never lines) in file order (default 0)")
    rp.add_argument("--key", help="the record with this key (DECK_A|DECK_B|SEED) instead of --index")
    rp.add_argument("--side", choices=("A", "B", "spectator"), default="spectator",
                    help="whose view to show: A's, B's, or every card (spectator, the default, as the demo "
                         "shows a game; unlike the env's render_view='spectator', which shows public cards only)")
    rp.add_argument("--step", action="store_true",
                    help="step through the decisions: each key is read when you press Enter (Enter alone: next; "
                         "t: next turn, c: to the end, b: board, q: quit)")
    rp.add_argument("--all", action="store_true", help="check that every record in FILE replays exactly")
    rp.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                      help="colour the board: auto (when writing to a terminal, the default), always or never")
    rp.set_defaults(func=cmd_replay)


def cmd_balance(args: argparse.Namespace) -> int:
    from hostwcg_env.analysis.backends import BackendError
    from hostwcg_env.analysis.simulate import Study, StudyMismatch

    if args.mode == "compare" and not (args.compare or args.patch or args.swap):
        print("balance compare: give the changed rules with --compare FLAG=VALUE, or card and deck changes "
              "with --patch/--swap", file=sys.stderr)
        return 2
    out = Path(args.out or ("runs/tune" if args.mode == "tune" else "runs/compare" if args.compare or args.patch
                            or args.swap else "runs/skill" if args.mode == "skill"
                            else "runs/balance"))
    try:
        if args.mode == "skill":
            return _balance_skill(args, out)
        if args.mode == "report":
            return _balance_report(out, plots=not args.no_plots)
        study = Study.make(decks=args.decks, games=args.games, agents=args.agents or args.agent or "random",
                           rules=args.rule, seed=args.seed, mirrors=args.mirrors,
                           include_test=args.include_test, max_width=args.max_width)
        if args.mode == "tune":
            from hostwcg_env.analysis import tune

            return tune.cli(args, study, out)
        if args.patch or args.swap:
            from hostwcg_env.analysis import whatif

            return whatif.cli(args, study, out)
        if args.compare:
            from hostwcg_env.analysis.simulate import parse_rules

            return _balance_compare(args, study, study.with_rules(parse_rules(args.compare), "B"), out)
        if not args.quiet:
            print(study.describe(), file=sys.stderr)
        from hostwcg_env.analysis import run_study

        res = run_study(study, out=out, backend=args.backend, workers=args.workers, address=args.address,
                        quiet=args.quiet, stop_after=args.stop_after, fresh=args.fresh)
    except (ValueError, StudyMismatch, BackendError, LookupError) as e:
        print(f"balance: {e}", file=sys.stderr)
        return 1 if isinstance(e, StudyMismatch | BackendError) else 2
    except KeyboardInterrupt:
        return 130
    return _balance_write(res, out, not args.no_plots)


def _balance_skill(args: argparse.Namespace, out: Path) -> int:
    from hostwcg_env.analysis.skill import run_skill

    if args.agents or args.compare:
        print("balance skill: the agents are --skills A,B,... (each plays both seats); "
              "--agents and --compare do not apply", file=sys.stderr)
        return 2
    levels = [a.strip() for a in args.skills.split(",")]
    results, skill = run_skill(levels, out, decks=args.decks, games=args.games, seed=args.seed, rules=args.rule,
                               mirrors=args.mirrors, include_test=args.include_test, max_width=args.max_width,
                               workers=args.workers, quiet=args.quiet, stop_after=args.stop_after, fresh=args.fresh)
    print((out / "skill.md").read_text())
    short = [f"{a}: {len(r.records)} of {r.study.n_games}" for a, r in results.items()
             if len(r.records) < r.study.n_games]
    if short:
        print("games played so far (run the same command to resume): " + "; ".join(short))
    print(f"wrote skill.md and skill_*.csv to {out}, each level's study in {out}/<agent>/")
    return 0


def _balance_write(res: Any, out: Path, plots: bool) -> int:
    from hostwcg_env.analysis.report import text_summary

    if not res.records:
        print(f"no games in {out} yet")
        return 1
    written = res.write_report(out, plots=plots)
    print(text_summary(res.tables, res.meta()))
    for n in written["notes"]:
        print(n)
    if len(res.records) < res.study.n_games:
        print(f"{len(res.records)} of {res.study.n_games} games played: run the same command to resume")
    print(f"wrote {len(written['files'])} files to {out}; report: {written['report']}")
    return 0


def _balance_report(out: Path, plots: bool) -> int:
    from hostwcg_env.analysis.simulate import BalanceResult, Study, in_schedule_order, load_done

    if not (out / "study.json").exists():
        print(f"balance report: {out} holds no study (no study.json)", file=sys.stderr)
        return 1
    study = Study.load(out)
    done = load_done(study, out)
    recs = in_schedule_order(study, done.values())
    return _balance_write(BalanceResult(study, recs, 0.0, out), out, plots)


MAX_COMPARE_GAMES = 1_000_000  # balance compare lists its schedules: bounded (docs/balance.md)


def _balance_compare(args: argparse.Namespace, a: Any, b: Any, out: Path) -> int:
    from hostwcg_env.analysis.compare import SequentialPlan, metric, run_compare

    if a.n_games > MAX_COMPARE_GAMES:
        raise CLIError(f"--games {args.games}: a comparison plays at most {MAX_COMPARE_GAMES:,} games a "
                       f"configuration (this one would play {a.n_games:,}); give fewer --games or decks")
    plan = None
    if args.sequential:
        metric(args.metric)  # raises ValueError on an unknown metric
        plan = SequentialPlan(args.metric, args.look_every, args.alpha, args.spending)
    if not args.quiet:
        print(f"A: {a.describe()}\nB: {b.describe()}", file=sys.stderr)
    res = run_compare(a, b, out=out, backend=args.backend, workers=args.workers, address=args.address,
                      quiet=args.quiet, sequential=plan, stop_after=args.stop_after, fresh=args.fresh)
    if not res.a.records:
        print(f"no games in {out} yet")
        return 1
    written = res.write_report(out, plots=not args.no_plots)
    print(res.summary())
    for n in written["notes"]:
        print(n)
    print(f"wrote {len(written['files'])} files to {out}; report: {written['report']}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from hostwcg_env.analysis.records import record_key
    from hostwcg_env.analysis.replay import load_record, replayable, step_through, verify

    if not args.file.strip() or not Path(args.file).exists():
        print(f"replay: no such file {args.file}" if args.file.strip() else
              "replay: give a results file or a folder of shards (got an empty name)", file=sys.stderr)
        return 2
    try:
        if args.all:
            ok = bad = 0
            for rec in replayable(args.file):
                msg = verify(rec)
                if msg is None:
                    ok += 1
                else:
                    bad += 1
                    print(f"FAIL {record_key(rec)}: {msg}")
            print(f"{ok} passed, {bad} failed")
            return 1 if bad or not ok else 0
        rec = load_record(args.file, index=args.index, key=args.key)
    except (LookupError, ValueError) as e:  # ValueError: a line that is not a game record
        print(f"replay: {e}", file=sys.stderr)
        return 2
    viewer = {"A": 0, "B": 1, "spectator": None}[args.side]
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    interactive = args.step and sys.stdin.isatty()
    return step_through(rec, viewer, step=args.step, color=color,
                        read=input if interactive else _no_input)


def _no_input(prompt: str) -> str:
    return ""  # not a terminal: show every step without waiting


def _refuse(args: argparse.Namespace, message: str, code: int) -> int:
    """Bad input: one line on stderr, ``hostwcg COMMAND: message``, and a non-zero exit."""
    words = [w for w in ("hostwcg", args.command, getattr(args, "action", None)) if isinstance(w, str)]
    print(f"{' '.join(words)}: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    from hostwcg_env.cards import CardError, DeckError
    from hostwcg_env.threads import configure_blas_env

    try:
        configure_blas_env()  # the agents' numpy on one BLAS thread (HOSTWCG_BLAS_THREADS, hostwcg_env/threads.py)
    except ValueError as e:
        print(f"hostwcg: {e}", file=sys.stderr)
        return 2
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: usage error (2) or --help (0)
        return int(e.code or 0)
    func = getattr(args, "func", None)
    if func is None:
        sub = {"scenario": "run", "cards": "validate|list|show", "deck": "check|diff"}
        if args.command in sub:
            print(f"usage: hostwcg {args.command} {{{sub[args.command]}}} ...", file=sys.stderr)
        else:
            parser.print_usage(sys.stderr)
        return 2
    try:
        return int(func(args))
    except CLIError as e:
        return _refuse(args, str(e), e.code)
    except DeckError as e:  # a deck file given on the command line was refused
        return _refuse(args, deck_error_line(e), 1)
    except CardError as e:
        return _refuse(args, card_error_line(e), 1)
    except ImportError as e:  # an optional extra is not installed: name it (hostwcg_env/extras.py)
        from hostwcg_env.extras import missing_extra_line

        line = missing_extra_line(e)
        if line is None:
            raise
        return _refuse(args, line, 2)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as e:  # a path that cannot be read or written: one line naming it
        return _refuse(args, os_error_line(e), 1)


if __name__ == "__main__":
    sys.exit(main())
