"""The game record: one JSON object per game, the one format every results file holds.

The ladder (``hostwcg evaluate --results FILE``), balance studies (``OUT/shards/``) and any
other caller of the game runner (``runner.py``) write the same record, one line each:

    {"v": 2, "key": "brae_deep_roots|karsh_ember_tide|7", "label": "", "seed": 7,
     "decks": [{"id": "brae_deep_roots", "name": "Deep Roots", "host": "Mother Brae of the Grove",
                "main": [["Squire", 4], ["Grove Warden", 3], ...]}, {...}],
     "rules": {"damage_draws": true}, "agents": ["heuristic", "random"], "agent_seeds": [14, 15],
     "ask_forced": true,
     "actions": ["yes", "pass", "pass", "ap draw", "play h2", "slot f0", "pay auto", ...],
     "winner": 0, "reason": "damage_zone", "truncated": false, "turns": 13, "decisions": 666,
     "first_player": 1, "cards": [{"opening": [...], "drawn": [...], "played": [...]}, {...}],
     "seats": [[SECONDS, CHOICES], [SECONDS, CHOICES]],
     "version": "1a2b3c4d5e6f", "epoch": 2, "pool": "3f1c0a9b2e4d", "ms": 61}

``main`` is the deck list in order, run-length encoded (the order matters: the game shuffles
the list as given). ``agents`` are the agents' names (``agents.make_agent``), seat A first,
each seeded with its ``agent_seeds``; ``ask_forced`` whether they were asked on decisions with
one legal action (the ladder takes those without asking). ``actions`` are the canonical
``str(action)`` of each legal action taken, so ``Action.parse(text)`` gives back the exact
action and the game replays from the decks, rules and seed. ``winner`` is the seat (0 = A,
1 = B) or null for a draw. ``cards[p]``: the Host-less card names of seat p's opening hand
(after the mulligan, with repeats), the names drawn after the game started, and the names
played (that reached the stack). ``seats[p]``: the seconds seat p's agent spent choosing and
its number of choices (decisions with two or more legal actions). ``version`` is the code that
played it (the last git commit that changed the engine, the cards or the agents, ``+dirty``
with uncommitted changes there; the package version, ``hostwcg 0.2.0.dev0``, outside a git
checkout); ``epoch`` the engine's decision epoch (``hostwcg_env.engine.ENGINE_EPOCH``: a record
of an older epoch was asked other decisions and does not replay; 1 where it is missing);
``pool`` a hash of the card data; ``ms`` the wall time. ``seats`` and ``ms`` are the
only fields that are not a function of the others.

Older layouts still load, upgraded by :func:`upgrade`: version 1 (balance shards before the
ladder used this format: no ``seats``, ``engine`` = package version) and the ladder's own lines
(``a``/``b``, the shipped decks by index, and from 2026-11-25 on the actions). The files
themselves (appending whole records, resuming, reading) are ``recordfile.py``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol, Required, TypedDict, TypeVar, cast

RECORD_VERSION = 2

T = TypeVar("T")
RuleValue = bool | int | str  # a rule flag's value (RuleConfig's fields are flags, numbers and names)

JSON = Any  # json.loads: a value read from a file, of any JSON type until it is checked


class DeckJSON(TypedDict, total=False):
    """A deck as a record holds it: ``main`` run-length encoded (:func:`rle`)."""

    id: Required[str]
    name: str
    host: Required[str]
    main: Required[list[list[str | int] | str]]


class CardsJSON(TypedDict, total=False):
    """``cards[p]`` of a record: seat p's opening hand, cards drawn and cards played."""

    opening: list[str]
    drawn: list[str]
    played: list[str]


class Record(TypedDict, total=False):
    """A game record, as the module docstring describes it (:func:`upgrade` checks one read
    from a file). ``seats[p]`` is ``[seconds, choices]``; :func:`timeless` blanks the seconds."""

    v: int
    key: str
    label: str
    seed: Required[int]
    decks: Required[list[DeckJSON]]
    rules: dict[str, RuleValue]
    patches: list[str]  # card patches (patches.py) the game was played with, when any
    agents: Required[list[str]]
    agent_seeds: list[int]
    ask_forced: bool
    actions: Required[list[str]]
    winner: Required[int | None]
    reason: str | None
    truncated: bool | None
    turns: int | None
    decisions: int
    first_player: int | None
    cards: list[CardsJSON] | None
    seats: list[list[float]] | None
    version: str
    epoch: int
    pool: str | None
    ms: int | float | None


def known(value: T | None, rec: Record, name: str) -> T:
    """A field that older ladder lines hold as null (``turns``, ``reason``, ``first_player``,
    ``cards``: module docstring), from a record that must have it: the balance tables need it."""
    if value is None:
        raise RecordError(f"game {record_key(rec)}: its record has no {name!r} (an older ladder line): "
                          "the balance tables need games recorded with it")
    return value


RecordId = tuple[str, str, str, int, tuple[str, ...], str]  # record_id: label, decks, seed, agents, rules


class DeckLike(Protocol):
    """What :meth:`DeckRef.of` reads: a ``Deck`` (hostwcg_env.cards) or any deck-like object."""

    @property
    def host(self) -> str: ...

    @property
    def main(self) -> Sequence[str]: ...


class RecordError(ValueError):
    """Valid JSON that is not a game record (the message says what is missing or wrong)."""


# ============================================================================ decks


@dataclass(frozen=True)
class DeckRef:
    """A deck as a study uses it: an id (the file stem), its display name, Host and list, and
    the deck file's plan where it came from one (kept for the lists ``balance tune`` writes; not
    part of a record, a study's identity or equality)."""

    id: str
    name: str
    host: str
    main: tuple[str, ...]
    plan: str = field(default="", compare=False, repr=False)

    @classmethod
    def of(cls, deck: DeckLike, id: str | None = None) -> DeckRef:
        """From a ``Deck`` (hostwcg_env.cards) or any object with name/host/main (and a plan)."""
        name = getattr(deck, "name", "") or (id or "deck")
        return cls(id=id or _slug(name), name=name, host=deck.host, main=tuple(deck.main),
                   plan=getattr(deck, "plan", "") or "")

    def to_json(self) -> DeckJSON:
        return {"id": self.id, "name": self.name, "host": self.host, "main": rle(self.main)}

    @classmethod
    def from_json(cls, d: DeckJSON) -> DeckRef:
        return cls(id=d["id"], name=d.get("name", d["id"]), host=d["host"], main=tuple(unrle(d["main"])))

    @property
    def pair(self) -> tuple[str, list[str]]:
        """``(host, main)``, as ``Game.new`` accepts."""
        return self.host, list(self.main)


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text.lower()).strip("_") or "deck"


def rle(names: Sequence[str]) -> list[list[str | int] | str]:
    """``["a", "a", "b"]`` -> ``[["a", 2], ["b", 1]]`` (order kept)."""
    runs: list[tuple[str, int]] = []
    for n in names:
        if runs and runs[-1][0] == n:
            runs[-1] = (n, runs[-1][1] + 1)
        else:
            runs.append((n, 1))
    return [[n, k] for n, k in runs]


def unrle(items: Iterable[JSON]) -> list[str]:
    out: list[str] = []
    for it in items:
        if isinstance(it, str):
            out.append(it)
        else:
            out.extend([it[0]] * int(it[1]))
    return out


@cache
def shipped_deck_refs() -> tuple[DeckRef, ...]:
    """The shipped deck files in file order, stand-in test decks included: the ladder's decks,
    numbered as its older lines number them."""
    from hostwcg_env.cards.decks import pool_decks

    return tuple(DeckRef.of(d, id=k) for k, d in pool_decks(include_test=True).items())


@cache
def _shipped_deck_json(i: int) -> DeckJSON:
    return shipped_deck_refs()[i].to_json()


# ============================================================================ identity


def game_key(deck_a: str, deck_b: str, seed: int) -> str:
    return f"{deck_a}|{deck_b}|{seed}"


def record_key(rec: Record) -> str:
    return rec.get("key") or game_key(rec["decks"][0]["id"], rec["decks"][1]["id"], rec["seed"])


def record_id(rec: Record) -> RecordId:
    """What makes two records the same game of the same schedule: label, decks, seed, agents
    and rules (a game recorded twice, by two runs or two files, counts once)."""
    return (rec.get("label", ""), rec["decks"][0]["id"], rec["decks"][1]["id"], rec["seed"],
            tuple(rec["agents"]), json.dumps(rec.get("rules") or {}, sort_keys=True))


def timeless(rec: Record) -> dict[str, object]:
    """The record without its wall-time fields (``ms`` and the seconds in ``seats``): what two
    plays of the same game by the same code share, whatever the machine or the interruptions."""
    out: dict[str, object] = {k: v for k, v in rec.items() if k != "ms"}
    seats = rec.get("seats")
    if seats is not None:
        out["seats"] = [[None, k] for _secs, k in seats]
    return out


# ============================================================================ provenance


def pool_hash() -> str:
    """A short hash of the card data (the shipped files, and the user's card files when
    ``HOSTWCG_CARDS`` adds them): replays name it when a game no longer replays."""
    from hostwcg_env.cards.loader import extra_card_files

    return _pool_hash(extra_card_files())


@cache
def _pool_hash(extra: tuple[str, ...]) -> str:
    from hostwcg_env.cards.loader import DATA_DIR

    h = hashlib.sha1()
    for p in sorted(Path(DATA_DIR).glob("*.toml")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    for name in extra:  # a user's card files (their content: the same cards hash the same from any folder)
        path = Path(name)
        for f in sorted(path.glob("*.toml")) if path.is_dir() else [path]:
            h.update(f.read_bytes())
    return h.hexdigest()[:12]


@cache
def code_version() -> str:
    """The last git commit that changed the code which plays (the engine, the cards, the
    agents and their checkpoints; not ladder results or docs), with ``+dirty`` for uncommitted
    changes there, or the package version outside a git checkout (computed once a process)."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    paths = ["--", "hostwcg_env", "agents", ":(exclude)agents/ladder_results"]
    try:
        head = subprocess.run(["git", "log", "-1", "--format=%h", "--abbrev=12", *paths], cwd=root,
                              capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", *paths], cwd=root,
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        if not head:
            raise OSError("no commit")
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        from importlib.metadata import PackageNotFoundError, version

        try:
            return "hostwcg " + version("hostwcg")
        except PackageNotFoundError:
            import hostwcg_env

            return "hostwcg " + getattr(hostwcg_env, "__version__", "unknown")


# ============================================================================ older layouts


def upgrade(d: JSON) -> Record:
    """A record of any layout (this one, version 1, a ladder line) in this layout; raises
    :class:`RecordError` saying what is wrong when ``d`` is not a game record."""
    if not isinstance(d, dict):
        raise RecordError(f"not a game record (a JSON {type(d).__name__}, not an object)")
    try:
        if "decks" in d:
            rec = _from_v1(d) if d.get("v", 1) == 1 else dict(d)
            rec.setdefault("epoch", 1)  # written before records kept the engine's epoch
        elif "deck_a" in d:
            rec = _from_ladder_line(d)
        else:
            raise RecordError("not a game record (no 'decks', nor the ladder's 'deck_a')")
        _check(rec)
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        what = f"missing {e}" if isinstance(e, KeyError) else str(e)
        raise RecordError(f"not a game record ({what})") from None
    return cast(Record, rec)  # checked by _check


MAX_SEED = 2**63 - 1  # seeds are whole numbers from 0 to this (a record's and the CLI's)
MAX_DECK = 1000  # cards a deck list of a record may hold (a deck is 50 by rule 3.1): bounds unrle


def _bad(what: str) -> RecordError:
    return RecordError(f"not a game record ({what})")


def _whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check(rec: dict[str, JSON]) -> None:
    """Every field that ``replay``, ``ladder`` and ``audit`` read, checked for type and range
    (``upgrade`` turns a failure into one line naming the field)."""
    seed = rec["seed"]
    if not _whole(seed):
        raise _bad(f"seed {seed!r} is not an integer")
    if not 0 <= seed <= MAX_SEED:
        raise _bad(f"seed {seed} out of range: 0 to 2**63-1")
    decks, agents = rec["decks"], rec["agents"]
    if not (isinstance(decks, list) and len(decks) == 2 and all(isinstance(x, dict) and "id" in x and "host" in x
                                                                 and "main" in x for x in decks)):
        raise _bad("'decks' must be two decks with id, host and main")
    for side, d in zip("AB", decks, strict=True):
        _check_deck(side, d)
    if not (isinstance(agents, list) and len(agents) == 2 and all(isinstance(a, str) for a in agents)):
        raise _bad("'agents' must be two names")
    _check_rules(rec.get("rules"))
    actions = rec["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        # (each action's text is checked when the game replays)
        raise _bad("'actions' must be a list of actions in the text notation")
    if rec["winner"] not in (0, 1, None) or isinstance(rec["winner"], bool):
        raise _bad(f"winner {rec['winner']!r}: 0, 1 or null")
    seats = rec.get("seats")
    if seats is not None and not (isinstance(seats, list) and len(seats) == 2 and all(
            isinstance(x, list) and len(x) == 2 and isinstance(x[0], int | float) and not isinstance(x[0], bool)
            and x[0] >= 0 and _whole(x[1]) and x[1] >= 0 for x in seats)):
        raise _bad("'seats' must be two [seconds, choices] pairs of numbers, 0 or more")
    for name in ("turns", "decisions", "epoch"):
        v = rec.get(name)
        if v is not None and not (_whole(v) and v >= 0):
            raise _bad(f"{name} {v!r}: a whole number, 0 or more, or null")
    for name in ("first_player",):
        v = rec.get(name)
        if v is not None and (not _whole(v) or v not in (0, 1)):
            raise _bad(f"{name} {v!r}: 0, 1 or null")
    for name in ("key", "label", "reason", "version", "pool"):
        v = rec.get(name)
        if v is not None and not isinstance(v, str):
            raise _bad(f"{name} {v!r}: text or null")
    for name in ("ask_forced", "truncated"):
        v = rec.get(name)
        if v is not None and not isinstance(v, bool):
            raise _bad(f"{name} {v!r}: true, false or null")
    ms = rec.get("ms")
    if ms is not None and not (isinstance(ms, int | float) and not isinstance(ms, bool) and ms >= 0):
        raise _bad(f"ms {ms!r}: a number of milliseconds, 0 or more, or null")
    seeds = rec.get("agent_seeds")
    if seeds is not None and not (isinstance(seeds, list) and len(seeds) == 2 and all(_whole(x) for x in seeds)):
        raise _bad("'agent_seeds' must be two whole numbers")
    cards = rec.get("cards")
    if cards is not None and not (isinstance(cards, list) and len(cards) == 2 and all(
            isinstance(c, dict) and all(isinstance(c.get(k, []), list) for k in ("opening", "drawn", "played"))
            for c in cards)):
        raise _bad("'cards' must be two tables of opening, drawn and played card names")


def _check_deck(side: str, d: dict[str, JSON]) -> None:
    for name in ("id", "host"):
        if not isinstance(d[name], str) or not d[name]:
            raise _bad(f"deck {side}: {name} {d[name]!r} is not a name")
    if not isinstance(d.get("name", ""), str):
        raise _bad(f"deck {side}: name {d['name']!r} is not text")
    main = d["main"]
    if not isinstance(main, list):
        raise _bad(f"deck {side}: 'main' must be a list of [card, count] pairs")
    total = 0
    for item in main:
        if isinstance(item, str):
            total += 1
            continue
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and _whole(item[1])
                and item[1] >= 1):
            raise _bad(f"deck {side}: {json.dumps(item)[:60]} in 'main' is not a [card, count] pair (count 1 or more)")
        total += item[1]
        if total > MAX_DECK:
            raise _bad(f"deck {side}: more than {MAX_DECK} cards in 'main'")


@cache
def _rules_problem(text: str) -> str | None:
    from hostwcg_env.engine import RuleConfig

    rules = json.loads(text)
    if not isinstance(rules, dict):
        return "'rules' must be a table of rule flags"
    try:
        RuleConfig().with_overrides(rules)
    except (ValueError, TypeError) as e:
        return f"rules: {e}"
    return None


def _check_rules(rules: object) -> None:
    if rules is None:
        return
    problem = _rules_problem(json.dumps(rules, sort_keys=True))
    if problem:
        raise _bad(problem)


def _from_v1(d: dict[str, JSON]) -> dict[str, JSON]:
    rec = dict(d)
    engine = rec.pop("engine", "")
    rec.update(v=RECORD_VERSION, ask_forced=True)
    rec.setdefault("epoch", 1)
    rec.setdefault("seats", None)
    rec.setdefault("version", f"hostwcg {engine}" if engine else "unknown")
    return rec


def _from_ladder_line(d: dict[str, JSON]) -> dict[str, JSON]:
    """A line of a ladder results file written before the ladder wrote this format: agents
    ``a`` and ``b``, the shipped decks by index (``shipped_deck_refs``), default rules, the
    forced actions taken without asking. Lines written before 2026-11-25 kept no actions (they
    count in the ladder but do not replay) and no reason or turns."""
    seed = int(d["seed"])
    n = len(shipped_deck_refs())
    ia, ib = int(d["deck_a"]), int(d["deck_b"])
    if not (0 <= ia < n and 0 <= ib < n):
        raise RecordError(f"not a game record (deck index {ia if not 0 <= ia < n else ib} "
                          f"out of range: the ladder numbers the {n} shipped decks 0 to {n - 1})")
    seats = [[float(secs), int(k)] for secs, k in d["seats"]]
    if len(seats) != 2:
        raise RecordError("not a game record ('seats' must be two [seconds, choices] pairs)")
    a, b = _shipped_deck_json(ia), _shipped_deck_json(ib)
    return {
        "v": RECORD_VERSION, "key": game_key(a["id"], b["id"], seed), "label": "", "seed": seed,
        "decks": [a, b], "rules": {}, "agents": [str(d["a"]), str(d["b"])],
        "agent_seeds": [2 * seed, 2 * seed + 1], "ask_forced": False,
        "actions": [str(x) for x in d.get("actions", ())], "winner": d["winner"],
        "reason": d.get("reason"), "truncated": None, "turns": d.get("turns"),
        "decisions": int(d["decisions"]), "first_player": None, "cards": None, "seats": seats,
        "version": str(d.get("version", "unknown")), "epoch": 1, "pool": None, "ms": None,
    }
