"""The ``hostwcg`` command (also ``python -m hostwcg_env``).

    hostwcg scenario run FILE...         check scenario files (docs/scenarios.md)
    hostwcg cards validate [FILE...]     check card files (default: the shipped pool)
    hostwcg cards list [--type T] [--resource R] [--cost N] [--search TEXT]
    hostwcg cards show NAME
    hostwcg deck check FILE...           check deck lists (3.1, A10)
    hostwcg demo [--seed N] [--decks A.toml B.toml] [--quiet]

Exit status: 0 ok, 1 when something checked is wrong, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from pathlib import Path

from hostwcg_env.engine.carddef import RES_LETTERS, RES_NAMES, CardDef, CardType, Res

TYPE_ORDER = {t: i for i, t in enumerate(CardType)}


# ============================================================================ scenario


def cmd_scenario_run(args: argparse.Namespace) -> int:
    from hostwcg_env.scenarios import run_file

    paths = _expand(args.files)
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
        print("no card files given")
        return 1
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


def stats_text(c: CardDef) -> str:
    """``H2/P3`` for Entities and tokens (health/power), ``H8/S5`` for Hosts (health/soul)."""
    if c.type is CardType.HOST:
        return f"H{c.health}/S{c.soul}"
    if c.type in (CardType.ENTITY, CardType.TOKEN):
        return f"H{c.health}/P{c.power}"
    return ""


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
            print(f"unknown resource {args.resource!r} (authority strife emotion amity generic, "
                  "or & £ ! % $)", file=sys.stderr)
            return 2
    cards = [c for c in _pool().values() if _matches(c, args)]
    cards.sort(key=lambda c: (TYPE_ORDER[c.type], len(c.cost), c.name))
    rows = [("name", "type", "resource", "cost", "stats", "keywords")]
    rows += [(c.name, c.type.value, _res_name(c.resource), c.cost_text() or "-", stats_text(c),
              ", ".join(sorted(c.keywords))) for c in cards]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, row in enumerate(rows):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")
    return 0


def _res_name(r: Res) -> str:
    return next(name for name, res in RES_NAMES.items() if res is r) + f" {r.value}"


def find_card(pool: dict[str, CardDef], name: str) -> tuple[CardDef | None, list[str]]:
    """The card called ``name`` (case-insensitive), else close names to suggest."""
    if name in pool:
        return pool[name], []
    folded = {n.lower(): n for n in pool}
    if name.lower() in folded:
        return pool[folded[name.lower()]], []
    near = difflib.get_close_matches(name.lower(), list(folded), n=5, cutoff=0.5)
    near += [n for n in folded if name.lower() in n and n not in near]
    return None, [folded[n] for n in near[:5]]


def cmd_cards_show(args: argparse.Namespace) -> int:
    pool = _pool()
    name = " ".join(args.name)
    card, near = find_card(pool, name)
    if card is None:
        print(f"no card named {name!r}")
        if near:
            print("did you mean: " + ", ".join(near) + "?")
        return 1
    type_line = card.type.value.capitalize()
    if card.subtypes:
        type_line += " - " + " ".join(card.subtypes)
    print(card.name)
    print(f"  type:       {type_line}")
    print(f"  resource:   {_res_name(card.resource)}")
    if card.type not in (CardType.HOST, CardType.TOKEN):
        print(f"  cost:       {card.cost_text() or 'free'}")
    if card.type is CardType.HOST:
        print(f"  stats:      health {card.health}, soul {card.soul}")
    elif card.type in (CardType.ENTITY, CardType.TOKEN):
        print(f"  stats:      health {card.health}, power {card.power}")
    if card.keywords:
        print(f"  keywords:   {', '.join(sorted(card.keywords))}")
    if card.abilities:
        print(f"  abilities:  {', '.join(a.kind for a in card.abilities)}")
    if card.test_id:
        print(f"  test id:    {card.test_id}")
    print(f"  text:       {card.text or '(no text)'}")
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


# ============================================================================ demo


def cmd_demo(args: argparse.Namespace) -> int:
    from hostwcg_env.cards import DeckError
    from hostwcg_env.demo import run_demo

    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    try:
        run_demo(seed=args.seed, decks=args.decks, quiet=args.quiet, color=color,
                 agents=(args.agents.split(",") + ["random"])[:2] if args.agents else ("random", "random"))
    except DeckError as e:
        print(f"cannot load the decks:\n{e}", file=sys.stderr)
        return 1
    return 0


# ============================================================================ parser


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hostwcg", description="Host WCG rules engine tools.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    sc = sub.add_parser("scenario", help="scenario files (docs/scenarios.md)")
    scs = sc.add_subparsers(dest="action", metavar="ACTION")
    run = scs.add_parser("run", help="run scenario files; exit 1 on any mismatch")
    run.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders")
    run.set_defaults(func=cmd_scenario_run)

    cards = sub.add_parser("cards", help="card files and the card pool (docs/cards.md)")
    cs = cards.add_subparsers(dest="action", metavar="ACTION")
    val = cs.add_parser("validate", help="check card files (default: the shipped pool)")
    val.add_argument("files", nargs="*", metavar="FILE")
    val.set_defaults(func=cmd_cards_validate)
    ls = cs.add_parser("list", help="a table of the card pool")
    ls.add_argument("--type", choices=[t.value for t in CardType])
    ls.add_argument("--resource", help="authority, strife, emotion, amity, generic (or a symbol)")
    ls.add_argument("--cost", type=int, metavar="N", help="number of cost symbols")
    ls.add_argument("--search", metavar="TEXT", help="in name, text, subtypes, keywords")
    ls.set_defaults(func=cmd_cards_list)
    show = cs.add_parser("show", help="one card in full")
    show.add_argument("name", nargs="+", metavar="NAME")
    show.set_defaults(func=cmd_cards_show)

    deck = sub.add_parser("deck", help="deck lists (3.1, A10)")
    ds = deck.add_subparsers(dest="action", metavar="ACTION")
    chk = ds.add_parser("check", help="list every problem of deck files")
    chk.add_argument("files", nargs="+", metavar="FILE")
    chk.set_defaults(func=cmd_deck_check)

    demo = sub.add_parser("demo", help="a seeded game between two random agents, rendered")
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--decks", nargs=2, metavar=("A.toml", "B.toml"))
    demo.add_argument("--quiet", action="store_true", help="print only the result")
    demo.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    demo.add_argument("--agents", default="", metavar="A,B",
                      help="agents for seats A and B: random, heuristic, ismcts, ppo (default random,random)")
    demo.set_defaults(func=cmd_demo)

    ev = sub.add_parser("evaluate", help="round-robin ladder between agents (win rates, ratings)")
    ev.add_argument("--agents", default="random,heuristic", help="comma-separated: random,heuristic,ismcts,ppo")
    ev.add_argument("--games", type=int, default=100, help="games per pair (seats swapped on paired seeds)")
    ev.add_argument("--workers", type=int, default=1)
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument("--csv", metavar="FILE", help="also write the pairwise table as CSV")
    ev.add_argument("--markdown", metavar="FILE", help="also write the report as markdown")
    ev.add_argument("--quiet", action="store_true", help="no progress bar")
    ev.set_defaults(func=cmd_evaluate)

    pl = sub.add_parser("play", help="play a game against an agent in the terminal")
    pl.add_argument("--vs", default="heuristic", help="random, heuristic, ismcts, ppo")
    pl.add_argument("--seat", choices=("A", "B"), default="A")
    pl.add_argument("--seed", type=int, default=0)
    pl.add_argument("--decks", nargs=2, metavar=("A.toml", "B.toml"))
    pl.set_defaults(func=cmd_play)
    return p


def cmd_evaluate(args: argparse.Namespace) -> int:
    from agents.ladder import run_ladder

    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(names) < 2:
        print("evaluate: give at least two agents", file=sys.stderr)
        return 2
    result = run_ladder(names, args.games, workers=args.workers, seed=args.seed, quiet=args.quiet)
    report = result.markdown()
    print(report)
    if args.csv:
        Path(args.csv).write_text(result.csv())
    if args.markdown:
        Path(args.markdown).write_text(report + "\n")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from hostwcg_env.play import play_terminal

    return play_terminal(vs=args.vs, seat="AB".index(args.seat), seed=args.seed, decks=args.decks)


def main(argv: Sequence[str] | None = None) -> int:
    import hostwcg_env  # noqa: F401  (registers the default card pool with Game)

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: usage error (2) or --help (0)
        return int(e.code or 0)
    func = getattr(args, "func", None)
    if func is None:
        sub = {"scenario": "run", "cards": "validate|list|show", "deck": "check"}
        if args.command in sub:
            print(f"usage: hostwcg {args.command} {{{sub[args.command]}}} ...", file=sys.stderr)
        else:
            parser.print_usage(sys.stderr)
        return 2
    try:
        return int(func(args))
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
