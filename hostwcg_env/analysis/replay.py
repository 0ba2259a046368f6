"""Exact replays of recorded games (the record format: records.py).

A record is replayed by the game runner (runner.py) from the same spec (decks in order, rule
overrides, seed), its actions played as a script, each of which must be legal at that point. A
replay that does not reproduce the record (an action not legal, the game ending early or late,
another result) raises :class:`ReplayError` saying where it diverged. Records of every layout
replay (the ladder's older lines too, once they kept their actions).

    hostwcg replay runs/balance/shards/shard-....jsonl --index 3 --side A --step
    hostwcg replay agents/ladder_results/round_robin_33000000.jsonl.gz --index 0 --side B --step
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from hostwcg_env.engine import ENGINE_EPOCH

from .recordfile import RecordFileError, iter_records
from .records import DeckRef, Record, pool_hash, record_key
from .runner import GameSpec, Visitor, play

if TYPE_CHECKING:
    from hostwcg_env.engine import Action, Game


class ReplayError(Exception):
    """The replay did not reproduce the record; ``step`` is the action (1-based) where it
    diverged, or None when the difference is in the result."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step


def replayable(paths: str | Path | Iterable[str | Path], warn: bool = True) -> Iterator[Record]:
    """The records of these files or folders that kept their actions (``iter_records``); the
    ladder's lines written before it kept them are skipped, counted in one warning a file."""
    import sys

    from .recordfile import shard_files

    items = [paths] if isinstance(paths, str | Path) else list(paths)
    for item in items:
        for f in shard_files(item) if Path(item).exists() else [item]:
            without = 0
            for rec in iter_records(f, warn=warn):
                if rec["actions"]:
                    yield rec
                else:
                    without += 1
            if without and warn:
                print(f"warning: {f}: skipped {without} ladder records without actions "
                      f"(written before the ladder kept them)", file=sys.stderr)


def load_record(path: str | Path, index: int = 0, key: str | None = None) -> Record:
    """Record ``index`` of a results file or a folder of shards, or the record whose key is
    ``key``. ``index`` counts records (0-based, in file order), never lines: a line that is not
    a record is skipped with a warning naming it and not counted. A record without actions (a
    ladder line written before they were kept) is refused saying so."""
    from .recordfile import numbered_records, shard_files

    if not str(path).strip():
        raise RecordFileError("give a results file or a folder of shards (got an empty name)")
    if not Path(path).exists():
        raise RecordFileError(f"{path}: no such file or folder")
    i = 0
    for f in shard_files(path):
        for lineno, rec in numbered_records(f):
            if (key is not None and record_key(rec) == key) or (key is None and i == index):
                if not rec["actions"]:
                    raise LookupError(f"{f}:{lineno}: record {i} has no actions (a ladder line written before "
                                      "they were kept): it does not replay")
                return rec
            i += 1
    what = f"key {key!r}" if key is not None else f"index {index} (it holds {i} record{'s' if i != 1 else ''})"
    raise LookupError(f"{path}: no record with {what}")


def spec_of(rec: Record) -> GameSpec:
    """The game spec a record was played from."""
    decks = [DeckRef.from_json(d) for d in rec["decks"]]
    rules = tuple(sorted((rec.get("rules") or {}).items()))
    return GameSpec(decks[0], decks[1], int(rec["seed"]), (rec["agents"][0], rec["agents"][1]), rules,
                    rec.get("label", ""), ask_forced=bool(rec.get("ask_forced", True)),
                    patches=tuple(rec.get("patches") or ()))


def new_game(rec: Record) -> Game:
    """The record's game before its first action; :class:`ReplayError` when the record's decks
    or rules cannot set one up (a card or Host not in this card pool, say)."""
    from .runner import new_game as start

    try:
        return start(spec_of(rec))
    except (ValueError, KeyError) as e:
        raise ReplayError(f"{record_key(rec)}: the game cannot be set up: {e}{_pool_note(rec)}", 0) from None


def _result(winner: int | None, reason: str | None) -> str:
    return ("draw" if winner is None else f"{'AB'[winner]} won") + f" ({reason or '?'})"


def _pool_note(rec: Record) -> str:
    p = rec.get("pool")
    if p and p != pool_hash():
        return (f" (the card data has changed since this game was recorded: pool {p}, now {pool_hash()}; "
                "a game played with card files of your own replays with the same HOSTWCG_CARDS, docs/cards.md)")
    return ""


class _Script:
    """A driver (runner.py) that plays the record's actions, each checked legal where it is
    taken."""

    def __init__(self, rec: Record) -> None:
        self.actions = rec["actions"]
        self.i = 0
        self.note = _pool_note(rec)

    def next_action(self, game: Game) -> Action:
        from hostwcg_env.engine import Action

        n, i = len(self.actions), self.i
        s = game.state
        d = game.decision
        assert d is not None  # (the runner asks only while the game goes on)
        if i >= n:
            raise ReplayError(f"diverged: the record ends after {n} actions but the game goes on "
                              f"(turn {s.turn}, {d} to decide){self.note}", n + 1)
        text = self.actions[i]
        try:
            a = Action.parse(text)
        except ValueError as e:
            raise ReplayError(f"action {i + 1} of {n}: {e}{self.note}", i + 1) from None
        if a not in d.actions:
            legal = ", ".join(str(x) for x in d.actions)
            raise ReplayError(f"diverged at action {i + 1} of {n} (turn {s.turn}, {'AB'[d.player]} "
                              f"{d.kind.value}): the recorded {text!r} is not legal here "
                              f"(legal: {legal}){self.note}", i + 1)
        self.i += 1
        return a


class _Steps(Visitor):
    def __init__(self, before: Callable[[Game, int, Action], object] | None,
                 after: Callable[[Game, int, Action, int], object] | None) -> None:
        self._before, self._after, self._first = before, after, 0

    def before(self, game: Game, i: int, action: Action) -> None:
        if self._before is not None:
            self._before(game, i, action)
        self._first = len(game.events)

    def after(self, game: Game, i: int, action: Action) -> None:
        if self._after is not None:
            self._after(game, i, action, self._first)


def replay(rec: Record, on_step: Callable[[Game, int, Action, int], object] | None = None,
           before_step: Callable[[Game, int, Action], object] | None = None, visit: Visitor | None = None) -> Game:
    """Replay ``rec`` to its end and check the result (what the record holds of it: winner,
    reason, turns, decisions); returns the finished Game. ``before_step(game, i, action)``
    runs before each action is applied (the decision it answers is ``game.decision``) and
    ``on_step(game, i, action, first_new_event)`` after it (i 0-based); or give a
    ``runner.Visitor``. Raises ``ValueError`` for a record without actions (a ladder line
    written before they were kept) and :class:`ReplayError`, saying where, when the replay
    does not reproduce the record."""
    if not rec["actions"]:
        raise ValueError(f"{record_key(rec)}: the record has no actions (written before they were kept)")
    epoch = rec.get("epoch", 1)
    if epoch != ENGINE_EPOCH:
        raise ReplayError(f"{record_key(rec)}: recorded by an engine of decision epoch {epoch} (code "
                          f"{rec.get('version', 'unknown')}); this engine is of epoch {ENGINE_EPOCH} and "
                          f"asks other decisions, so the actions do not replay: check out that code "
                          f"to replay it (hostwcg_env.engine.ENGINE_EPOCH)", 0)
    new_game(rec)  # the decks and rules set up a game (else ReplayError, saying why)
    script = _Script(rec)
    if visit is None and (on_step is not None or before_step is not None):
        visit = _Steps(before_step, on_step)
    game = play(spec_of(rec), visit=visit, players=(script, script)).game
    n = len(script.actions)
    s = game.state
    if script.i < n:
        raise ReplayError(f"diverged at action {script.i + 1} of {n}: the game is already over "
                          f"({_result(s.winner, s.reason)}, turn {s.turn}) but the record goes on "
                          f"with {script.actions[script.i]!r}{script.note}", script.i + 1)
    diffs = []
    if s.winner != rec.get("winner"):
        diffs.append(f"winner {_result(s.winner, s.reason)}, recorded {_result(rec.get('winner'), rec.get('reason'))}")
    elif rec.get("reason") is not None and s.reason != rec["reason"]:
        diffs.append(f"reason {s.reason}, recorded {rec.get('reason')}")
    if rec.get("turns") is not None and s.turn != rec["turns"]:
        diffs.append(f"turns {s.turn}, recorded {rec['turns']}")
    if rec.get("decisions") is not None and s.decisions_total != rec["decisions"]:
        diffs.append(f"decisions {s.decisions_total}, recorded {rec['decisions']}")
    if diffs:
        raise ReplayError("replayed every action but the result differs: " + "; ".join(diffs) + script.note)
    return game


def verify(rec: Record) -> str | None:
    """None when ``rec`` replays exactly, else the message saying where it diverged."""
    try:
        replay(rec)
    except ReplayError as e:
        return str(e)
    return None


def describe(rec: Record) -> str:
    d = rec["decks"]
    rules = ", ".join(f"{k}={v}" for k, v in (rec.get("rules") or {}).items()) or "default rules"
    w = rec.get("winner")
    return (f"{record_key(rec)}: A {d[0].get('name', d[0]['id'])} ({d[0]['host']}, {rec['agents'][0]}) vs "
            f"B {d[1].get('name', d[1]['id'])} ({d[1]['host']}, {rec['agents'][1]}); seed {rec['seed']}; {rules}; "
            f"recorded: {_result(w, rec.get('reason'))} in {rec.get('turns') or '?'} turns, "
            f"{len(rec['actions'])} decisions")


HELP = ("Keys are read when you press Enter: Enter alone: next decision | t Enter: to the next turn | "
        "c Enter: to the end | b Enter: board | q Enter: quit")


def step_through(rec: Record, viewer: int | None, step: bool = True,
                 read: Callable[[str], str] = input, out: Callable[[str], object] = print,
                 color: bool = False) -> int:
    """Replay ``rec`` in the terminal from ``viewer``'s side (0 = A, 1 = B, None = spectator):
    each decision and its events, the board at each new turn, waiting for Enter when ``step``.
    Returns 0 when the replay reproduces the record, 1 (with the message) when it diverges."""
    from hostwcg_env.engine.view import redacted_events
    from hostwcg_env.render import render_events, render_text

    out(describe(rec))
    n = len(rec["actions"])
    mode: dict[str, int | bool | None] = {"run": not step, "until_turn": None}
    state: dict[str, int] = {"turn": -1}

    def show(game: Game, i: int, a: Action, first: int) -> None:
        s = game.state
        if mode["until_turn"] is not None and (s.turn >= mode["until_turn"] or game.is_over):
            mode["until_turn"] = None
        if not mode["run"] and mode["until_turn"] is None:
            who = "AB"[_decider[0]] if _decider[0] is not None else "?"
            out(f"[{i + 1}/{n}] turn {s.turn}: {who} {_kind[0]}: {a}")
            text = render_events(redacted_events(game.events[first:], viewer), color=color,
                                 compact=True, max_lines=12)
            if text:
                out(text)
            if s.turn != state["turn"]:
                state["turn"] = s.turn
                out(render_text(game, viewer, color=color))
            if not game.is_over:
                _prompt(game)
        _note(game)

    _decider: list[int | None] = [None]
    _kind: list[str] = [""]

    def _note(game: Game) -> None:
        d = game.decision
        _decider[0] = d.player if d is not None else None
        _kind[0] = d.kind.value if d is not None else ""

    def _prompt(game: Game) -> None:
        while True:
            try:
                line = read("replay> ").strip().lower()
            except EOFError:
                mode["run"] = True
                return
            if line in ("", "n", "next"):
                return
            if line in ("t", "turn"):
                mode["until_turn"] = game.state.turn + 1
                return
            if line in ("c", "continue"):
                mode["run"] = True
                return
            if line in ("b", "board"):
                out(render_text(game, viewer, color=color))
                continue
            if line in ("q", "quit"):
                raise _Quit
            out(HELP)

    try:
        game = new_game(rec)
        _note(game)
        if step:
            out(HELP)
            out(render_text(game, viewer, color=color))
            state["turn"] = game.state.turn
        game = replay(rec, on_step=show) if step else replay(rec)
    except _Quit:
        out("stopped")
        return 0
    except ReplayError as e:
        out(f"error: replay diverged from the record: {e}")
        return 1
    s = game.state
    out(render_text(game, viewer, color=color))
    out(f"replayed {n} decisions: {_result(s.winner, s.reason)} after {s.turn} turns, as recorded")
    return 0


class _Quit(Exception):
    pass
