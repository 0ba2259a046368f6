"""What one browser is sent about a game: the board its seat sees, the legal actions with
the place each one is clicked at, the story since the last message, and the end.

A :class:`Table` is one seat at one game: player 0 (A) or 1 (B), ``"spectator"`` (the
public cards only) or ``None`` (every card: watching two agents, a replay's referee view).
A player's message is built only from ``board_of(game, seat)`` (``hostwcg_env.board``),
which reads the PlayerView, and from the events as that player saw them
(``Event.redact``); the labels of the actions are made from that board too. Nothing of the
game state reaches a player's browser (tests/test_web.py resamples the hidden cards and
compares the bytes).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from hostwcg_env.board import SPECTATOR, Board, CardFace, board_of
from hostwcg_env.demo import explain_result
from hostwcg_env.engine import Action, Game
from hostwcg_env.engine.actions import Area, Kind
from hostwcg_env.engine.events import PUBLIC, Event, PhaseBegan, TurnBegan
from hostwcg_env.render import render_events

SIDES = "AB"
LOG_WIDTH = 10_000  # one compact line per phase: the browser wraps it
KIND_WORDS = {"first_player": "Who goes first?", "mulligan": "Mulligan: put cards back?",
              "priority": "Your move", "place_triggers": "Order your triggers",
              "choose_target": "Choose a target", "choose_attack_target": "What to attack?",
              "choose_slot": "Choose a slot", "pay": "Pay the cost", "choose_card": "Choose a card",
              "yes_no": "Yes or no?"}
RESOURCE_WORDS = {"&": "authority", "£": "strife", "!": "emotion", "%": "amity", "$": "generic"}

Seat = int | str | None


def dumps(message: dict[str, Any]) -> str:
    """The one way a message is written to a socket (the byte-for-byte comparisons of the
    hidden-information test rely on it)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def seat_of(text: str) -> Seat:
    """``A``/``B``/``spectator``/``all`` (as the pages name a side) as a board seat."""
    seats: dict[str, Seat] = {"A": 0, "B": 1, "spectator": SPECTATOR, "all": None}
    if text not in seats:
        raise ValueError(f"side must be A, B, spectator or all, not {text!r}")
    return seats[text]


class Table:
    """One seat at one game: turns the game into messages for that seat."""

    def __init__(self, game: Game, seat: Seat, told: int = 0) -> None:
        self.game = game
        self.seat = seat
        self.told = told  # events already sent
        self.phase = ""
        self.taken: list[tuple[str, int, int]] = []  # forced answers not said yet: words, times, event

    @property
    def player(self) -> int | None:
        return self.seat if isinstance(self.seat, int) else None

    # ------------------------------------------------------------ forced decisions
    def take_forced(self) -> bool:
        """Take the player's decision for them when it has one legal action, and note it to
        be said; True when one was taken. (The player's own legal actions are theirs to see:
        that there is one tells them nothing hidden.)"""
        g = self.game
        d = g.decision
        if g.is_over or d is None or d.player != self.player or len(d.actions) != 1:
            return False
        a = d.actions[0]
        board = board_of(g, self.seat)
        label = self.label(board, a)
        said = f"{KIND_WORDS.get(d.kind.value, d.kind.value).rstrip('?')}: {label}"
        at = len(g.events)  # said before the events it causes (as ``hostwcg play`` says it)
        if self.taken and self.taken[-1][0] == said:
            self.taken[-1] = (said, self.taken[-1][1] + 1, at)
        else:
            self.taken.append((said, 1, at))
        g.apply(a)
        return True

    @staticmethod
    def _said(taken: tuple[str, int, int]) -> str:
        said, n, _ = taken
        return said if n == 1 else f"{said} (x{n})"

    # ------------------------------------------------------------ the message
    def message(self, **extra: Any) -> dict[str, Any]:
        """The state message: board, decision and options, new log lines, forced answers
        taken since the last message, and the end of the game when it is over."""
        g = self.game
        board = board_of(g, self.seat)
        msg: dict[str, Any] = {
            "type": "state",
            "seat": "all" if self.seat is None else (SIDES[self.seat] if isinstance(self.seat, int)
                                                     else SPECTATOR),
            "where": board.where_text(),
            "board": _board_json(board),
            "decision": self.decision(board),
            "forced": [self._said(x) for x in self.taken],
            "log": self.log(),
            "over": self.over(board),
        }
        msg.update(extra)
        return msg

    def decision(self, board: Board) -> dict[str, Any] | None:
        d = board.decision
        if d is None or board.over:
            return None
        mine = board.mine() and self.player is not None
        out: dict[str, Any] = {"player": SIDES[d.player], "kind": d.kind,
                               "mine": mine and d.player == self.player,
                               "title": KIND_WORDS.get(d.kind, d.kind.replace("_", " ")),
                               "prompt": d.prompt if board.mine() else "",
                               "options": []}
        if board.mine():
            out["options"] = [self.option(board, Action.parse(a)) for a in d.actions]
        return out

    def option(self, board: Board, a: Action) -> dict[str, Any]:
        """One legal action: its notation, its words, and the board place it is clicked at
        (``""``: a button of its own)."""
        return {"a": str(a), "kind": a.kind.value, "label": self.label(board, a),
                "place": self.place(board, a)}

    def place(self, board: Board, a: Action) -> str:
        d = board.decision
        me = SIDES[d.player] if d is not None else "A"
        place = a.source if a.source is not None else a.target
        if place is None or place.area is Area.PENDING:
            return ""
        if place.area is Area.HAND or (a.kind in (Kind.ATTACK, Kind.SLOT) and not place.on_board):
            return f"{me}.{place}"
        return str(place)

    def label(self, board: Board, a: Action) -> str:
        """What an action means in card names, read from this seat's board only."""
        d = board.decision
        me = d.player if d is not None else 0
        k = a.kind
        if k is Kind.PASS:
            return {"mulligan": "keep this hand", "first_player": "go second",
                    "yes_no": "no", "place_triggers": "done"}.get(d.kind if d else "", "pass")
        if k is Kind.YES:
            return {"first_player": "go first"}.get(d.kind if d else "", "yes")
        if k is Kind.AP_HOST:
            host = board.sides[me].host
            return f"1 AP: +1{host.resource} from your Host"
        if k is Kind.AP_DRAW:
            return "1 AP: draw a card"
        if k is Kind.AP_ANY:
            sym = str(a.res)
            return f"2 AP: +1{sym} ({RESOURCE_WORDS.get(sym, sym)})"
        if k is Kind.PAY:
            sym = str(a.res)
            return "pay automatically" if a.res is None else f"pay with {sym} ({RESOURCE_WORDS.get(sym, sym)})"
        if k is Kind.TRIGGER:
            return f"put {self.trigger_name(me, a.src.index)}'s trigger on the stack next"
        if k is Kind.SLOT:
            return f"slot {a.dst}"
        face = self.face(board, self.place(board, a))
        name = "a face-down card" if face is None or face.name is None else face.name
        if k is Kind.PLAY:
            return f"play {name}" + (f" ({face.cost})" if face is not None and face.cost else "")
        if k is Kind.ATTACK:
            return f"attack with {name}"
        if k is Kind.ACTIVATE:
            return f"activate {name}, ability {a.n + 1}"
        if k is Kind.TARGET:
            t = a.dst
            if t.area is Area.STACK:
                i = t.index
                return f"target {board.stack[i].title() if i < len(board.stack) else t} on the stack"
            if t.area is Area.HOST:
                who = "your" if t.side == me else "the opponent's"
                return f"target {who} Host"
            who = "your" if t.side == me else "their"
            return f"target {who} {name}"
        if k is Kind.CARD:
            return f"put {name} on the bottom" if d is not None and d.kind == "mulligan" else f"choose {name}"
        return str(a)

    def trigger_name(self, me: int, i: int) -> str:
        """The source of the player's ``i``-th trigger waiting to be put on the stack (the
        order the notation counts them in), read from the player's own view."""
        from hostwcg_env.engine.matching import placeable

        mine = [t for t in placeable(self.game.view(me).state) if t.controller == me]
        return mine[i].card.name if i < len(mine) else f"trigger {i + 1}"

    def face(self, board: Board, place: str) -> CardFace | None:
        """The card at a place of this seat's board (``A.h2``, ``B.f0``, ``A.f0.m0``, ``d1``)."""
        if not place:
            return None
        if place.startswith("d") and place[1:].isdigit():
            cards = board.decision.cards if board.decision is not None else ()
            i = int(place[1:])
            return cards[i] if i < len(cards) else None
        side = board.sides[SIDES.index(place[0])] if place[:2] in ("A.", "B.") else None
        if side is None:
            return None
        spot = place[2:].split(".")
        head = spot[0]
        face: CardFace | None = None
        if head[:1] == "h" and head[1:].isdigit() and side.hand is not None:
            i = int(head[1:])
            face = side.hand[i] if i < len(side.hand) else None
        elif head[:1] in ("f", "b") and head[1:].isdigit():
            row = side.front if head[0] == "f" else side.back
            i = int(head[1:])
            face = row[i] if i < len(row) else None
        elif head.startswith("form") and head[4:].isdigit():
            i = int(head[4:])
            face = side.forms[i] if i < len(side.forms) else None
        if face is not None and len(spot) > 1 and spot[1][:1] == "m" and spot[1][1:].isdigit():
            i = int(spot[1][1:])
            face = face.markers[i] if i < len(face.markers) else None
        return face

    # ------------------------------------------------------------ the story
    def log(self) -> list[dict[str, str]]:
        """The events since the last message, as this seat saw them, in the words of
        ``hostwcg demo``: ``{"turn": "Turn 3: A (you)"}`` headers and ``{"line": ...}``s, with
        the answers taken for the player (``{"forced": ...}``) where they were taken."""
        g = self.game
        first, self.told = self.told, len(g.events)
        out: list[dict[str, str]] = []
        chunk: list[Event] = []
        for i, e in enumerate(g.events[first:self.told], first):
            if self.taken and self.taken[0][2] <= i:
                out += self._lines(chunk)
                chunk = []
                while self.taken and self.taken[0][2] <= i:
                    out.append({"forced": self._said(self.taken.pop(0))})
            if isinstance(e, TurnBegan):
                out += self._lines(chunk)
                chunk = []
                who = SIDES[e.player]
                you = " (you)" if self.player == e.player else ""
                out.append({"turn": f"Turn {e.turn}: {who}{you}"})
                self.phase = ""
                continue
            chunk.append(e.redact(None if self.seat is None else PUBLIC if self.player is None else self.player))
        out += self._lines(chunk)
        out += [{"forced": self._said(x)} for x in self.taken]
        self.taken = []
        return out

    def _lines(self, events: list[Event]) -> list[dict[str, str]]:
        if not events:
            return []
        body = render_events(events, compact=True, width=LOG_WIDTH, indent="", phase=self.phase)
        for e in events:
            if isinstance(e, PhaseBegan):
                self.phase = str(e.phase)
        return [{"line": line} for line in body.splitlines() if line.strip()]

    def over(self, board: Board) -> dict[str, Any] | None:
        """The end: who won, why, with the rule (``explain_result``: from public counts)."""
        if not board.over:
            return None
        s = self.game.state
        why = explain_result(s)
        if self.player is None:
            verdict = "A draw." if s.winner is None else f"{SIDES[s.winner]} wins."
        else:
            verdict = ("You win." if s.winner == self.player else "A draw." if s.winner is None
                       else "You lose.")
        return {"winner": None if s.winner is None else SIDES[s.winner], "reason": s.reason,
                "text": why, "verdict": verdict, "turns": s.turn}


def _board_json(board: Board) -> dict[str, Any]:
    """The board as plain JSON (the dataclasses of ``hostwcg_env.board.model``), with each
    visible card's one-line description for the hover text."""
    out = asdict(board)
    for side, data in zip(board.sides, out["sides"], strict=True):
        for zone in ("hand", "damage", "drop", "banished", "forms", "front", "back"):
            faces = getattr(side, zone)
            if faces is None:
                continue
            for face, d in zip(faces, data[zone], strict=True):
                if face is not None and d is not None:
                    _tip(face, d)
    for entry, data in zip(board.stack, out["stack"], strict=True):
        data["title"] = entry.title()
        data["targets_text"] = entry.targets_text()
        if entry.card is not None and data["card"] is not None:
            _tip(entry.card, data["card"])
    if board.decision is not None:
        for face, d in zip(board.decision.cards, out["decision"]["cards"], strict=True):
            _tip(face, d)
    if board.battle is not None:
        out["battle"]["text"] = board.battle.text()
    return out


def _tip(face: CardFace, data: dict[str, Any]) -> None:
    data["tip"] = face.tooltip()
    data["stats"] = face.stats()
    for m, md in zip(face.markers, data["markers"], strict=True):
        _tip(m, md)
