"""Running scenario files: set up, play the ``do`` lines, check each ``expect``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hostwcg_env.cards import CardError
from hostwcg_env.engine import Game, IllegalActionError
from hostwcg_env.engine.actions import PASS

from .builder import ScenarioError, setup_game
from .checks import PlaceError, check_expect, line_place_problem, object_at, where
from .shape import check_shape

STEP_FIELDS = {"do", "expect", "label"}
TOP_FIELDS = {"id", "title", "rules", "config", "cards", "setup", "step", "notes"}


class ScriptError(RuntimeError):
    """A ``do`` line could not be played as written."""


@dataclass
class Result:
    path: str
    id: str
    title: str
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _need_priority(game: Game, macro: str) -> None:
    d = game.decision
    if d is None or game.is_over:
        raise ScriptError(f"{macro}: the game is over")
    if d.kind.value != "priority":
        raise ScriptError(f"{macro}: stopped at {'AB'[d.player]} {d.kind.value} "
                          f"(legal: {', '.join(str(a) for a in d.actions)})")


def run_line(game: Game, line: str) -> None:
    """Play one ``do`` line: an action for a named player, or a macro. A slot the board does
    not have (``A target A.f5`` with 5 frontrow slots) is a ScriptError naming it."""
    text = line.strip()
    problem = line_place_problem(game, text)
    if problem:
        raise ScriptError(problem)
    if text == "pass":
        game.apply(PASS)
        return
    if text in ("resolve", "resolve all"):
        s = game.state
        if not s.stack:
            raise ScriptError(f"{text}: the stack is empty")
        top = s.stack[-1].sid
        for _ in range(10000):
            s = game.state
            if text == "resolve" and all(it.sid != top for it in s.stack):
                return
            if text == "resolve all" and not s.stack and game.decision is not None \
                    and game.decision.kind.value == "priority":
                return
            if game.is_over:
                return
            _need_priority(game, text)
            game.apply(PASS)
        raise ScriptError(f"{text}: did not finish")
    if text.startswith("to "):
        words = text[3:].split()
        turn = int(words[0][1:]) if words[0].startswith("T") else None
        phase = words[-1]
        for _ in range(10000):
            s = game.state
            if s.phase == phase and (turn is None or s.turn == turn) and game.decision is not None \
                    and game.decision.kind.value == "priority" and not s.stack:
                return
            if game.is_over:
                raise ScriptError(f"{text}: the game ended first")
            _need_priority(game, text)
            game.apply(PASS)
        raise ScriptError(f"{text}: did not reach it")
    game.apply_text(text)


def fingerprint(game: Game) -> str:
    s = game.state
    parts: list[Any] = [s.players, sorted(s.objs.items()), s.stack, s.pending, s.tasks, s.decision,
                        s.phase, s.step, s.priority, s.passes, s.turn, s.over,
                        None if s.rng is None else s.rng.getstate(), len(s.events), s.battle, s.ambush_ops]
    return repr(parts)


def run_doc(doc: dict[str, Any], path: str) -> Result:
    res = Result(path, str(doc.get("id", Path(path).stem)), str(doc.get("title", "")))
    for key in doc:
        if key not in TOP_FIELDS:
            res.mismatches.append(f"{path}: unknown top-level field {key!r}")
            return res
    try:
        check_shape(doc, path)
    except ScenarioError as e:
        res.mismatches.append(str(e))
        return res
    labels: dict[str, int] = {}
    try:
        game = setup_game(doc, path, labels)
    except (ScenarioError, CardError, ValueError) as e:
        res.mismatches.append(f"setup: {e}")
        return res
    if not doc.get("step"):
        res.mismatches.append(f"{path}: no [[step]]: a scenario without steps checks nothing (docs/scenarios.md)")
        return res
    for i, step in enumerate(doc.get("step", [])):
        where = f"step {i + 1}"
        for key in step:
            if key not in STEP_FIELDS:
                res.mismatches.append(f"{where}: unknown field {key!r}")
                return res
        lines = step.get("do", [])
        if isinstance(lines, str):
            lines = [lines]
        expect = step.get("expect", {})
        start = len(game.events)
        if "error" in expect:
            if len(lines) != 1:
                res.mismatches.append(f"{where}: an 'error' step must have exactly one action")
                return res
            before = fingerprint(game)
            try:
                run_line(game, lines[0])
                res.mismatches.append(f"{where}: '{lines[0]}' was accepted; "
                                      f"expected an error containing {expect['error']!r}")
                return res
            except (IllegalActionError, ValueError, ScriptError) as e:
                if str(expect["error"]) not in str(e):
                    res.mismatches.append(f"{where}: error {str(e)!r} does not contain {expect['error']!r}")
                if fingerprint(game) != before:
                    res.mismatches.append(f"{where}: the rejected action changed the game")
        else:
            for line in lines:
                try:
                    run_line(game, line)
                except (IllegalActionError, ValueError, ScriptError, IndexError) as e:
                    res.mismatches.append(f"{where}: '{line}': {e}")
                    return res
        for m in check_expect(game, expect, game.events[start:], labels):
            res.mismatches.append(f"{where}: {m}")
        problem = _label_step(game, step.get("label", {}), labels)
        if problem:
            res.mismatches.append(f"{where}: label: {problem}")
            return res
    return res


def _label_step(game: Game, table: Any, labels: dict[str, int]) -> str | None:
    """A step's ``label = { name = "A.f2" }``: after the step's checks, name the object now at
    each place (a card on the stack by its ``stackN``), for later identity checks."""
    if not isinstance(table, dict):
        return "must be a table of label = place"
    for name, place in table.items():
        try:
            oid = object_at(game.state, str(place))
        except PlaceError as e:
            return str(e)
        if oid is None:
            return f"{name} = {place!r}: the place is empty"
        if name in labels and labels[name] != oid:
            return f"{name}: the label already names another object (it is {where(game.state, labels[name])})"
        labels[name] = oid
    return None


def run_file(path: str | Path) -> Result:
    p = Path(path)
    try:
        with open(p, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        return Result(str(p), p.stem, "", [f"{p}: cannot read: {e}"])
    except UnicodeDecodeError as e:
        from hostwcg_env.cards.loader import not_utf8

        return Result(str(p), p.stem, "", [f"{p}: not a text file: {not_utf8(e)}"])
    return run_doc(doc, str(p))


