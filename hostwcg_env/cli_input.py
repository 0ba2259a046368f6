"""The ``hostwcg`` command's input checks: every value is checked where it is read, and a bad
one is refused with one line that names it (never a traceback).

* ``Parser``: an ``argparse.ArgumentParser`` whose usage errors are one line.
* Argument types (``at_least``, ``fraction``, ``positive``, ``rule_flag``, ``agent_spec``,
  ``agent_list``, ``out_file``, ``path_arg``): each refuses a bad value with ``ArgumentTypeError``, so the
  message names the option, e.g. ``argument --games: must be at least 1 (got 0)``.
* ``CLIError``: bad input a command finds itself; ``cli.main`` prints it on one line.
* ``deck_error_line``, ``card_error_line``: one line for a refused deck or card file;
  ``os_error_line``: one line for an OS error on a path (``cli.main`` catches every one).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

SEED_HELP = "a whole number from 0 to 2**63-1"
MAX_SEED = 2**63 - 1  # as records hold them (hostwcg_env/analysis/records.py)


class CLIError(Exception):
    """Bad input a command found: ``main`` prints ``COMMAND: message`` on stderr and exits
    with ``code`` (2: a usage error, 1: something checked is wrong)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


class Parser(argparse.ArgumentParser):
    """argparse with a one-line usage error: ``hostwcg evaluate: error: argument --games: ...``
    (``--help`` still prints the full usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return x


def at_least(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """A whole number ``>= lo`` (and ``<= hi`` when given)."""

    def check(text: str) -> int:
        n = _int(text)
        if n < lo:
            raise argparse.ArgumentTypeError(f"must be at least {lo} (got {n})")
        if hi is not None and n > hi:
            raise argparse.ArgumentTypeError(f"must be at most {hi} (got {n})")
        return n

    check.__name__ = f"whole number >= {lo}"
    return check


MAX_WORKERS = 1024  # processes (or a local Ray cluster's CPUs) one run may start


def seed_arg(text: str) -> int:
    """A seed: a whole number from 0 to 2**63-1."""
    n = at_least(0)(text)
    if n > MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be at most 2**63-1 (got {n})")
    return n


def fraction(text: str) -> float:
    """A number strictly between 0 and 1 (a probability such as a test's alpha)."""
    x = _float(text)
    if not 0 < x < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, both excluded (got {text})")
    return x


def positive(text: str) -> float:
    """A finite number above 0."""
    x = _float(text)
    if x <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0 (got {text})")
    return x


def rule_flag(text: str) -> str:
    """``FLAG=VALUE`` naming a RuleConfig flag with a value it accepts (returned unchanged)."""
    from dataclasses import fields

    from hostwcg_env.engine import RuleConfig

    flag, eq, value = text.partition("=")
    flag, value = flag.strip(), value.strip()
    if not eq or not flag or not value:
        raise argparse.ArgumentTypeError(f"{text!r}: write FLAG=VALUE, e.g. damage_draws=true")
    known = {f.name: f for f in fields(RuleConfig)}
    if flag not in known:
        raise argparse.ArgumentTypeError(
            f"{text!r}: unknown rule flag {flag!r} (known: {', '.join(sorted(known))})")
    default = getattr(RuleConfig(), flag)
    try:
        RuleConfig().with_overrides({flag: value})
    except ValueError as e:
        want = {bool: "true or false", int: "a whole number"}.get(type(default))
        if want is not None and _wrong_type(value, type(default)):
            raise argparse.ArgumentTypeError(f"{text!r}: {flag} takes {want}, got {value!r}") from None
        raise argparse.ArgumentTypeError(f"{text!r}: {e}") from None
    return text


def _wrong_type(value: str, typ: type) -> bool:
    if typ is bool:
        return value.lower() not in ("true", "false", "1", "0", "yes", "no")
    try:
        int(value)
    except ValueError:
        return True
    return False


def agent_problem(spec: str) -> str | None:
    """What is wrong with an agent spec (``random``, ``ismcts:300``, ``ppo:PATH``,
    ``module:Class``...), or None (``agents.registry.problem``)."""
    from agents.registry import problem

    return problem(spec)


def agent_spec(text: str) -> str:
    """One agent spec that can be made (returned unchanged)."""
    problem = agent_problem(text.strip())
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text.strip()


def agent_list(lo: int, hi: int | None) -> Callable[[str], str]:
    """``A,B,...``: between ``lo`` and ``hi`` agent specs that can be made (returned unchanged)."""

    def check(text: str) -> str:
        names = [a.strip() for a in text.split(",")]
        if any(not n for n in names):
            raise argparse.ArgumentTypeError(f"{text!r}: an empty agent name (write A,B)")
        if len(names) < lo or (hi is not None and len(names) > hi):
            want = f"{lo}" if lo == hi else f"{lo} to {hi}" if hi is not None else f"at least {lo}"
            raise argparse.ArgumentTypeError(f"{text!r}: give {want} agents, comma-separated")
        for n in names:
            agent_spec(n)
        return text

    check.__name__ = "agent list"
    return check


def deck_name(text: str) -> str:
    """A deck as ``hostwcg_env.cards.deck_path`` reads it: a short name (``karsh``), an id
    (``karsh_ember_tide``), a path, or ``test`` (the two stand-in test decks); a name that is no
    deck is refused with the closest ones. A file is read (and checked) by the command."""
    from hostwcg_env.cards.decks import DeckError, deck_path

    if text.strip() == "test":
        return "test"
    try:
        deck_path(text)
    except DeckError as e:
        raise argparse.ArgumentTypeError(e.problems[0].message.removeprefix("UNKNOWN_DECK ")) from None
    return text.strip()


def path_arg(text: str) -> str:
    """A path, refused when empty (``''`` would be the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (give a file or folder name)")
    return text


def out_file(text: str) -> str:
    """A file to write: its folder exists and it is not itself a folder."""
    path_arg(text)
    p = Path(text)
    if p.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: is a folder (give a file name)")
    if not p.parent.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no such folder {str(p.parent)!r}")
    return text


def deck_error_line(e: Any) -> str:
    """One line for a refused deck file (a ``DeckError``): its first problem, and how many more."""
    first = e.problems[0].message if e.problems else "refused"
    more = len(e.problems) - 1
    tail = f" (and {more} more: 'hostwcg deck check {e.source}' lists them)" if more > 0 else ""
    return f"cannot load the deck {e.source}: {first}{tail}"


def card_error_line(e: Any) -> str:
    """One line for refused card data (a ``CardError``): its first problem, and how many more."""
    first = e.problems[0] if e.problems else "refused"
    more = len(e.problems) - 1
    return f"{first}" + (f" (and {more} more: 'hostwcg cards validate FILE' lists them)" if more > 0 else "")


def os_error_line(e: OSError) -> str:
    """One line for an error of the operating system on a path (a file that cannot be read
    or written, a folder that cannot be made): the path and the reason."""
    where = " -> ".join(str(f) for f in (e.filename, e.filename2) if f is not None)
    why = e.strerror or str(e) or type(e).__name__
    return f"{where}: {why}" if where else why


def write_text(path: str | Path, text: str) -> None:
    """Write an output file; an OS error names the file (some, like a write to /proc, come
    without its name)."""
    try:
        Path(path).write_text(text)
    except OSError as e:
        raise OSError(e.errno, e.strerror or str(e), str(path)) from None
