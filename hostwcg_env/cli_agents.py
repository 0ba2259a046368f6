"""``hostwcg agents``: the agent registry (agents/registry.py) as a table.

    hostwcg agents               every agent name, how it is written, what it is
    hostwcg agents list          the same
    hostwcg agents NAME          one agent's options: type, default, what each does
    hostwcg agents --check NAME  make the agent NAME once (e.g. ``mypkg.mod:MyAgent``), or say why not
"""

from __future__ import annotations

import argparse
from typing import Any

from hostwcg_env.cli_input import CLIError


def _table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def cmd_agents(args: argparse.Namespace) -> int:
    from agents.registry import (
        AgentNameError,
        AgentSpec,
        agent_specs,
        describe,
        entry_points,
        problem,
        spec_of,
    )

    if args.check:
        why = problem(args.check)
        if why:
            raise CLIError(why, 1)
        print(f"ok {args.check}")
        return 0
    if args.name in (None, "list"):
        print(_table([("name", "written", "what it is"), *describe()]))
        print("\nAlso MODULE:CLASS[:KEY=VALUE...] (a class or factory of your own) wherever an agent is "
              "named; 'hostwcg agents NAME' lists NAME's options (docs/write-an-agent.md).")
        return 0
    try:
        spec = spec_of(args.name)
    except AgentNameError as e:
        raise CLIError(str(e), 1) from None
    if spec is None:
        known = [*agent_specs(), *entry_points()]
        raise CLIError(f"unknown agent {args.name!r} (known: {', '.join(known)}); 'hostwcg agents' lists them")
    if not isinstance(spec, AgentSpec):
        print(f"{args.name}: entry point {entry_points()[args.name].value}, {spec!r}: its options are its "
              "constructor's keyword arguments")
        return 0
    print(f"{spec.name}: {spec.help}\nwritten: {spec.written()}\n")
    rows: list[tuple[str, ...]] = [("option", "type", "default", "what it does")]
    for o in spec.options:
        default = "-" if o.default in (None, "") else str(o.default)
        alone = " (alone: on)" if o.bare is True else " (alone: default)" if o.bare is not _unset() else ""
        rows.append((o.name, o.kind.expected + alone, default, o.help))
    print(_table(rows) if spec.options else "no options")
    return 0


def _unset() -> Any:
    from agents.registry import _UNSET

    return _UNSET


def add_parser(sub: Any) -> None:
    ag = sub.add_parser("agents", help="the agents a name can make: names, options, defaults (docs/write-an-agent.md)",
                        description="The agent registry: every name that evaluate, ladder, play, demo and balance "
                                    "take, its options with their types and defaults, and a check of any agent name, "
                                    "module:Class included.")
    ag.add_argument("name", nargs="?", metavar="NAME", help="'list' (the default) or an agent whose options to show")
    ag.add_argument("--check", metavar="AGENT", help="make this agent once (e.g. mypkg.mod:MyAgent) or say why not")
    ag.set_defaults(func=cmd_agents)
