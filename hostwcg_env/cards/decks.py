"""Deck lists (docs/cards.md "Decks") and the deck-building rules (3.1, A10).

A deck file names its Host and counts main-deck cards by name::

    name = "Strife Rush"
    plan = "Curve out with cheap Strife attackers and burn the Host."
    host = "Strife Host"
    [cards]
    "Raider" = 4
    "Squire [print 2]" = 1      # a printing suffix; it counts as "Squire" (3.1.2, A10)

:func:`check_deck` lists every problem at once; :func:`load_deck` refuses a bad file with a
:class:`DeckError` naming the file.

Naming a deck: every command and function that takes a deck takes a path to a deck file
(``my_deck.toml``), a shipped deck's id (its file stem, ``karsh_ember_tide``) or its short name
(``karsh``, :func:`short_name`); :func:`deck_path` is the one resolver, and a name it does not
know is refused with the closest names ("did you mean 'karsh'?"). The eight preconstructed
decks are the playable ones (:func:`pool_decks`); the two stand-in test decks (``test_authority``,
``test_strife``) are small decks for tests, used only when asked for.
"""

from __future__ import annotations

import difflib
import functools
import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hostwcg_env.engine.carddef import CardDef, CardType

from .lookup import lookup

DECK_SIZE = 50  # 3.1.1, exactly (A10)
COPY_LIMIT = 4  # 3.1.2, counted by name (A10)
DECK_FIELDS = ("name", "plan", "host", "cards")
DECKS_DIR = Path(__file__).parent / "decks"
CODES = (
    "FORMAT",
    "DECK_SIZE",
    "HOST_COUNT",
    "HOST_IN_MAIN",
    "COPY_LIMIT",
    "UNKNOWN_CARD",
    "TOKEN_IN_DECK",
    "UNKNOWN_DECK",
)
TEST_PREFIX = "test_"  # the stand-in test decks' ids start with it
_PRINT_SUFFIX = re.compile(r"\s*\[print\s+[^\]]*\]\s*$", re.IGNORECASE)


def base_name(name: str) -> str:
    """``"Squire [print 2]"`` -> ``"Squire"``: printings of one card share its name (A10)."""
    return _PRINT_SUFFIX.sub("", name).strip()


@dataclass(frozen=True)
class DeckProblem:
    code: str  # one of CODES
    message: str  # starts with the code, e.g. "COPY_LIMIT Squire: 5 copies (at most 4, rule 3.1.2)"

    def __str__(self) -> str:
        return self.message


class DeckError(Exception):
    """A deck file was refused; ``problems`` holds every DeckProblem found."""

    def __init__(self, source: str, problems: Iterable[DeckProblem]) -> None:
        self.source = source
        self.problems = list(problems)
        super().__init__(
            "\n".join(f"{source}: {p.message}" if source else p.message for p in self.problems)
        )


@dataclass(frozen=True)
class Deck:
    """A legal deck: its Host and the 50 main-deck card names in file order (print suffixes removed)."""

    name: str
    plan: str
    host: str
    main: tuple[str, ...]

    @classmethod
    def from_lists(
        cls, host: str, main_names: Iterable[str], name: str = "", plan: str = ""
    ) -> Deck:
        """Build a deck from names (not checked: see check_deck)."""
        return cls(name=name, plan=plan, host=host, main=tuple(base_name(n) for n in main_names))

    def to_table(self) -> dict[str, Any]:
        """The deck-file table for this deck (counts by name, first appearance order)."""
        return {
            "name": self.name,
            "plan": self.plan,
            "host": self.host,
            "cards": dict(Counter(self.main)),
        }


def check_deck(
    deck: Mapping[str, Any] | Deck, pool: Mapping[str, CardDef], source: str = ""
) -> list[DeckProblem]:
    """Every deck-building problem of ``deck`` (a deck-file table or a Deck); [] if it is legal."""
    table = deck.to_table() if isinstance(deck, Deck) else deck
    problems: list[DeckProblem] = []
    for key in table:
        if key not in DECK_FIELDS:
            problems.append(
                DeckProblem(
                    "FORMAT", f"FORMAT: unknown field {key!r} (known: {', '.join(DECK_FIELDS)})"
                )
            )
    for key in ("name", "plan"):
        if key in table and not isinstance(table[key], str):
            problems.append(DeckProblem("FORMAT", f"FORMAT: {key!r} must be a string"))
    entries = _entries(table, problems)
    _check_host(table.get("host"), pool, problems)
    total = sum(count for _, count in entries)
    if total != DECK_SIZE:
        problems.append(
            DeckProblem(
                "DECK_SIZE",
                f"DECK_SIZE: {total} main-deck cards (exactly {DECK_SIZE}, rule 3.1.1, A10)",
            )
        )
    _check_cards(entries, pool, problems)
    return problems


def deck_changes(old: Iterable[str], new: Iterable[str]) -> list[tuple[str, int, str]]:
    """What turns the main deck ``old`` (card names, as ``Deck.main``) into ``new``, as a swap's
    changes (``balance compare --swap``, docs/balance.md): ``("-", 2, "Mending Rain")`` takes out
    two copies, ``("+", 1, "Oblivion")`` puts one in; the cards taken out first, each side in its
    list's order."""
    before, after = Counter(old), Counter(new)
    out = [("-", n - after[c], c) for c, n in before.items() if n > after[c]]
    return out + [("+", n - before[c], c) for c, n in after.items() if n > before[c]]


def swap_text(deck_id: str, changes: Iterable[tuple[str, int, str]]) -> str:
    """``changes`` (:func:`deck_changes`) in the swap syntax ``--swap`` reads:
    ``"brae_deep_roots: -2 Mending Rain +2 Wandering Golem"``."""
    return f"{deck_id}: " + " ".join(f"{sign}{f'{n} ' if n > 1 else ''}{card}" for sign, n, card in changes)


def load_deck(path: str | Path, pool: Mapping[str, CardDef] | None = None) -> Deck:
    """Read and check a deck file against ``pool`` (default: the default card pool).
    ``path`` may also name a shipped deck (``karsh``, ``karsh_ember_tide``: see
    :func:`deck_path`)."""
    if pool is None:
        from hostwcg_env.cards.loader import default_pool

        pool = default_pool()
    path = deck_path(path)
    source = str(path)
    try:
        with Path(path).open("rb") as fh:
            table = tomllib.load(fh)
    except OSError as exc:
        raise DeckError(
            source, [DeckProblem("FORMAT", f"FORMAT: cannot read the file: {exc.strerror or exc}")]
        ) from None
    except UnicodeDecodeError as exc:
        from hostwcg_env.cards.loader import not_utf8

        raise DeckError(
            source, [DeckProblem("FORMAT", f"FORMAT: not a text file: {not_utf8(exc)}")]
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(
            source, [DeckProblem("FORMAT", f"FORMAT: TOML syntax error: {exc}")]
        ) from None
    problems = check_deck(table, pool, source)
    if problems:
        raise DeckError(source, problems)
    main = tuple(base_name(name) for name, count in table["cards"].items() for _ in range(count))
    return Deck(
        name=table.get("name", Path(path).stem),
        plan=table.get("plan", ""),
        host=_host_name(table["host"]),
        main=main,
    )


# --------------------------------------------------------------------------- checks


def _entries(table: Mapping[str, Any], problems: list[DeckProblem]) -> list[tuple[str, int]]:
    cards = table.get("cards")
    if cards is None:
        problems.append(DeckProblem("FORMAT", "FORMAT: missing [cards] (card name = count)"))
        return []
    if not isinstance(cards, Mapping):
        problems.append(
            DeckProblem("FORMAT", "FORMAT: [cards] must be a table of card name = count")
        )
        return []
    out: list[tuple[str, int]] = []
    for name, count in cards.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            problems.append(
                DeckProblem(
                    "FORMAT",
                    f"FORMAT: count of {name!r} must be a whole number >= 0, got {count!r}",
                )
            )
        else:
            out.append((name, count))
    return out


def _host_name(value: Any) -> str:
    return value[0] if isinstance(value, list) else value


def _check_host(value: Any, pool: Mapping[str, CardDef], problems: list[DeckProblem]) -> None:
    hosts = value if isinstance(value, list) else [] if value is None else [value]
    if len(hosts) != 1:
        problems.append(
            DeckProblem(
                "HOST_COUNT", f"HOST_COUNT: {len(hosts)} Hosts (exactly 1, rule 3.1.1, A10)"
            )
        )
    for host in hosts:
        if not isinstance(host, str):
            problems.append(
                DeckProblem("FORMAT", f"FORMAT: a Host is named by a string, got {host!r}")
            )
            continue
        card = pool.get(base_name(host))
        if card is None:
            problems.append(_unknown(host, pool))
        elif card.type is not CardType.HOST:
            problems.append(
                DeckProblem(
                    "HOST_COUNT",
                    f"HOST_COUNT: {host} is {_a(card.type.value.capitalize())}, not a Host (rule 3.1.1)",
                )
            )


def _check_cards(
    entries: list[tuple[str, int]], pool: Mapping[str, CardDef], problems: list[DeckProblem]
) -> None:
    by_name: Counter[str] = Counter()
    for name, count in entries:
        base = base_name(name)
        by_name[base] += count
        card = pool.get(base)
        if card is None:
            problems.append(_unknown(name, pool))
        elif card.type is CardType.HOST:
            problems.append(
                DeckProblem(
                    "HOST_IN_MAIN",
                    f"HOST_IN_MAIN {base}: a Host card cannot be in the main deck (rule 3.1.1, A10)",
                )
            )
        elif card.type is CardType.TOKEN:
            problems.append(
                DeckProblem(
                    "TOKEN_IN_DECK", f"TOKEN_IN_DECK {base}: tokens are never in decks (36, A10)"
                )
            )
    for base, count in by_name.items():
        if count > COPY_LIMIT:
            problems.append(
                DeckProblem(
                    "COPY_LIMIT",
                    f"COPY_LIMIT {base}: {count} copies (at most {COPY_LIMIT}, rule 3.1.2)",
                )
            )


def _a(word: str) -> str:
    return f"an {word}" if word[:1].upper() in "AEIOU" else f"a {word}"


def _unknown(name: str, pool: Mapping[str, CardDef]) -> DeckProblem:
    base = base_name(name)
    close = difflib.get_close_matches(base, list(pool), n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    return DeckProblem("UNKNOWN_CARD", f"UNKNOWN_CARD {base!r}: no such card{hint}")


# --------------------------------------------------------------------------- naming decks


def deck_files(include_test: bool = True, directory: Path = DECKS_DIR) -> dict[str, Path]:
    """The shipped deck files by id (file stem), in file order."""
    return {p.stem: p for p in sorted(directory.glob("*.toml"))
            if include_test or not p.stem.startswith(TEST_PREFIX)}


def is_test_deck(deck_id: str) -> bool:
    """True for the stand-in test decks (``test_authority``, ``test_strife``)."""
    return deck_id.startswith(TEST_PREFIX)


def short_name(deck_id: str) -> str:
    """A shipped preconstructed deck's short name: ``karsh_ember_tide`` -> ``karsh`` (its Host's
    name, the first word of its id; ``.toml`` may follow). Any other id, a test deck's
    (``test_strife``) or a deck of your own, is its own short name."""
    stem = deck_id[: -len(".toml")] if deck_id.endswith(".toml") else deck_id
    if stem in _preconstructed_ids():
        return stem.split("_", 1)[0]
    return stem


@functools.cache
def _preconstructed_ids() -> frozenset[str]:
    return frozenset(deck_files(include_test=False))


def deck_path(name: str | Path) -> Path:
    """The deck file that ``name`` stands for (case-insensitive):

    * a path: a ``Path``, a name with a ``/`` or ending in ``.toml`` (read as given);
    * a shipped deck's id (``karsh_ember_tide``) or short name (``karsh``);
    * the start or whole words of one shipped deck's id alone (``kar``, ``ember``, ``iron law``);
    * otherwise an existing file of that name.

    Raises :class:`DeckError` (``UNKNOWN_DECK``) naming the closest decks for a name it does not
    know, or every deck it could mean for an ambiguous one."""
    if isinstance(name, Path):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a deck is named by a string or a Path, got {type(name).__name__} {name!r}")
    text = name.strip()
    if "/" in text or "\\" in text or text.lower().endswith(".toml"):
        return Path(text)
    files = deck_files(include_test=True)
    shorts = {short_name(i): i for i in files}
    # the one lookup of every name (cards/lookup.py): an id or short name in any case, or the
    # start of one deck's id or of a word of it: 'kar', 'ember', 'iron law'
    found = lookup(text, [*files, *shorts], means=shorts)
    if found.name is not None:
        return files[found.name]
    if Path(text).is_file():
        return Path(text)
    key = text.lower().replace(" ", "_").replace("-", "_")
    near = found.near
    if found.ambiguous:
        both = " ('test' alone, where a pair of decks is asked for, names both)" if key == "test" else ""
        raise DeckError(text, [DeckProblem(
            "UNKNOWN_DECK", f"UNKNOWN_DECK {text!r} is ambiguous: it could be {', '.join(near)}{both}")])
    return _unknown_deck(text, files)


def _unknown_deck(text: str, files: Mapping[str, Path]) -> Any:
    names = [short_name(i) for i in files] + list(files)
    close = difflib.get_close_matches(text.lower(), names, n=3, cutoff=0.6)
    close = list(dict.fromkeys(short_name(c) for c in close))
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    playable = ", ".join(short_name(i) for i in files if not is_test_deck(i))
    tests = ", ".join(i for i in files if is_test_deck(i))
    raise DeckError(text, [DeckProblem(
        "UNKNOWN_DECK",
        f"UNKNOWN_DECK {text!r}: no such deck{hint}; the decks: {playable}"
        + (f" (test decks: {tests})" if tests else "") + ", or a path to a .toml deck file")])


def resolve_deck(name: str | Path | Deck, pool: Mapping[str, CardDef] | None = None) -> tuple[str, Deck]:
    """``(id, deck)`` for a deck name, a path (the file's stem is its id) or a Deck (its name)."""
    if isinstance(name, Deck):
        return name.name, name
    path = deck_path(name)
    return path.stem, load_deck(path, pool)


def pool_decks(include_test: bool = False, directory: Path = DECKS_DIR) -> dict[str, Deck]:
    """The shipped preconstructed decks by id (file stem), in file order (the stand-in test
    decks only if asked)."""
    return {k: _shipped(str(p), p.stat().st_mtime_ns) for k, p in deck_files(include_test, directory).items()}


def stand_in_decks() -> tuple[Deck, Deck]:
    """The two stand-in test decks (``test_authority`` for seat A, ``test_strife`` for B)."""
    return (_shipped(str(DECKS_DIR / "test_authority.toml"), 0),
            _shipped(str(DECKS_DIR / "test_strife.toml"), 0))


@functools.lru_cache(maxsize=64)
def _shipped(path: str, mtime_ns: int) -> Deck:
    """A deck file read once (a Deck is immutable; ``mtime_ns`` keys the cache to its contents)."""
    return load_deck(Path(path))
