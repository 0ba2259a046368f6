"""Exact replays of recorded games (hostwcg_env.analysis.records).

A record is replayed by starting the same game (decks in order, rule overrides, seed) and
applying its actions, each of which must be legal at that point. A replay that does not
reproduce the record (an action not legal, the game ending early or late, another result)
raises :class:`ReplayError` saying where it diverged.

    hostwcg replay runs/balance/shards/shard-....jsonl --index 3 --side A --step
    hostwcg replay agents/ladder_results/ismcts045_vs_heuristic.jsonl --index 0 --side B --step
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .records import DeckRef, iter_records, pool_hash, record_key


class ReplayError(Exception):
    """The replay did not reproduce the record; ``step`` is the action (1-based) where it
    diverged, or None when the difference is in the result."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step


def load_record(path: str | Path, index: int = 0, key: str | None = None) -> dict[str, Any]:
    """Record ``index`` (0-based, in file order) of a JSONL file or a folder of shards (a ladder
    results file too: its games that kept their actions), or the record whose key is ``key``."""
    for i, rec in enumerate(iter_records(path, ladder=True)):
        if (key is not None and record_key(rec) == key) or (key is None and i == index):
            return rec
    what = f"key {key!r}" if key is not None else f"index {index}"
    raise LookupError(f"{path}: no record with {what}")


def new_game(rec: dict[str, Any]) -> Any:
    from hostwcg_env.cards import default_ruleset
    from hostwcg_env.engine import RuleConfig

    decks = [DeckRef.from_json(d) for d in rec["decks"]]
    cfg = RuleConfig().with_overrides(rec.get("rules") or {})
    return default_ruleset(cfg).new_game(decks[0].pair, decks[1].pair, seed=int(rec["seed"]))


def _result(winner: int | None, reason: str) -> str:
    return ("draw" if winner is None else f"{'AB'[winner]} won") + f" ({reason})"


def _pool_note(rec: dict[str, Any]) -> str:
    p = rec.get("pool")
    if p and p != pool_hash():
        return f" (the card data has changed since this game was recorded: pool {p}, now {pool_hash()})"
    return ""


def replay(rec: dict[str, Any], on_step: Callable[[Any, int, Any, int], Any] | None = None,
           before_step: Callable[[Any, int, Any], Any] | None = None) -> Any:
    """Replay ``rec`` to its end and check the result (what the record holds of it: winner,
    reason, turns, decisions); returns the finished Game. ``before_step(game, i, action)``
    runs before each action is applied (the decision it answers is ``game.decision``) and
    ``on_step(game, i, action, first_new_event)`` after it (i 0-based)."""
    from hostwcg_env.engine import Action

    game = new_game(rec)
    actions = rec["actions"]
    n = len(actions)
    note = _pool_note(rec)
    for i, text in enumerate(actions):
        s = game.state
        if game.is_over:
            raise ReplayError(f"diverged at action {i + 1} of {n}: the game is already over "
                              f"({_result(s.winner, s.reason)}, turn {s.turn}) but the record goes on "
                              f"with {text!r}{note}", i + 1)
        d = game.decision
        try:
            a = Action.parse(text)
        except ValueError as e:
            raise ReplayError(f"action {i + 1} of {n}: {e}{note}", i + 1) from None
        if a not in d.actions:
            legal = ", ".join(str(x) for x in d.actions)
            raise ReplayError(f"diverged at action {i + 1} of {n} (turn {s.turn}, {'AB'[d.player]} "
                              f"{d.kind.value}): the recorded {text!r} is not legal here "
                              f"(legal: {legal}){note}", i + 1)
        if before_step is not None:
            before_step(game, i, a)
        first = len(game.events)
        game.apply(a)
        if on_step is not None:
            on_step(game, i, a, first)
    s = game.state
    if not game.is_over:
        d = game.decision
        raise ReplayError(f"diverged: the record ends after {n} actions but the game goes on "
                          f"(turn {s.turn}, {d} to decide){note}", n + 1)
    diffs = []
    if s.winner != rec.get("winner"):
        diffs.append(f"winner {_result(s.winner, s.reason)}, recorded {_result(rec.get('winner'), rec.get('reason', '?'))}")
    elif "reason" in rec and s.reason != rec["reason"]:
        diffs.append(f"reason {s.reason}, recorded {rec.get('reason')}")
    if "turns" in rec and s.turn != rec["turns"]:
        diffs.append(f"turns {s.turn}, recorded {rec['turns']}")
    if "decisions" in rec and s.decisions_total != rec["decisions"]:
        diffs.append(f"decisions {s.decisions_total}, recorded {rec['decisions']}")
    if diffs:
        raise ReplayError("replayed every action but the result differs: " + "; ".join(diffs) + note)
    return game


def verify(rec: dict[str, Any]) -> str | None:
    """None when ``rec`` replays exactly, else the message saying where it diverged."""
    try:
        replay(rec)
    except ReplayError as e:
        return str(e)
    return None


def describe(rec: dict[str, Any]) -> str:
    d = rec["decks"]
    rules = ", ".join(f"{k}={v}" for k, v in (rec.get("rules") or {}).items()) or "default rules"
    w = rec.get("winner")
    return (f"{record_key(rec)}: A {d[0]['name']} ({d[0]['host']}, {rec['agents'][0]}) vs "
            f"B {d[1]['name']} ({d[1]['host']}, {rec['agents'][1]}); seed {rec['seed']}; {rules}; "
            f"recorded: {_result(w, rec.get('reason', '?'))} in {rec.get('turns', '?')} turns, "
            f"{len(rec['actions'])} decisions")


HELP = "Enter: next decision | t: to the next turn | c: to the end | b: board | q: quit"


def step_through(rec: dict[str, Any], viewer: int | None, step: bool = True,
                 read: Callable[[str], str] = input, out: Callable[[str], Any] = print,
                 color: bool = False) -> int:
    """Replay ``rec`` in the terminal from ``viewer``'s side (0 = A, 1 = B, None = spectator):
    each decision and its events, the board at each new turn, waiting for Enter when ``step``.
    Returns 0 when the replay reproduces the record, 1 (with the message) when it diverges."""
    from hostwcg_env.render import render_events, render_text

    out(describe(rec))
    n = len(rec["actions"])
    mode = {"run": not step, "until_turn": None}
    state: dict[str, Any] = {"turn": -1}

    def show(game: Any, i: int, a: Any, first: int) -> None:
        s = game.state
        if mode["until_turn"] is not None and (s.turn >= mode["until_turn"] or game.is_over):
            mode["until_turn"] = None
        if not mode["run"] and mode["until_turn"] is None:
            who = "AB"[_decider[0]] if _decider[0] is not None else "?"
            out(f"[{i + 1}/{n}] turn {s.turn}: {who} {_kind[0]}: {a}")
            text = render_events([e.text if viewer is None else e.text_for(viewer) for e in game.events[first:]], color=color,
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

    def _note(game: Any) -> None:
        d = game.decision
        _decider[0] = d.player if d is not None else None
        _kind[0] = d.kind.value if d is not None else ""

    def _prompt(game: Any) -> None:
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
