"""Terminal rendering of a game: the board as one player (or a spectator) sees it, and events.

The board is drawn from ``hostwcg_env.board.board_of``, the one model of what a seat sees
(the HTML and image boards draw the same model). A player's board is built only from
``game.view(player)``: the PlayerView is the only door from hidden state to a renderer
(docs/rulings.md A09), so nothing the player may not see can reach the text. The spectator
board (``viewer=None``) shows everything; ``viewer="spectator"`` shows only what is public.

    render_text(game, viewer=0)            # A's board, A at the bottom
    render_text(game, None, color=True)    # everything, ANSI colours
    render_events(["Draw(A, Squire)", ...], compact=True)
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Iterable
from typing import Any

from hostwcg_env.board.model import SIDES, Board, CardFace, Seat, Side, StackEntry, board_of, names

WIDTH = 100
HIDDEN = "?"  # the name PlayerView gives every card its viewer may not see

_CODES = {
    "bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34",
    "magenta": "35", "cyan": "36",
}
_PLAYER_COLOR = ("cyan", "yellow")


class _Paint:
    """ANSI styling that is a no-op unless colour was asked for."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __call__(self, text: str, *styles: str) -> str:
        if not self.on or not styles:
            return text
        codes = ";".join(_CODES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def side(self, p: int, text: str | None = None) -> str:
        return self(SIDES[p] if text is None else text, "bold", _PLAYER_COLOR[p])


# ============================================================================ the board


def render_text(game: Any, viewer: Seat = None, color: bool = False,
                actions: bool = False, width: int = WIDTH) -> str:
    """The board as ``viewer`` (0 = A, 1 = B) sees it, or everything when ``viewer`` is None
    (``"spectator"``: what is public only).

    The viewer sits at the bottom, the opponent on top (the spectator sees B on top, A below).
    ``actions=True`` also lists the legal actions when the viewer (or, for the spectator,
    anyone) is deciding.
    """
    return _Board(board_of(game, viewer), _Paint(color), width).draw(actions)


class _Board:
    def __init__(self, board: Board, paint: _Paint, width: int) -> None:
        self.b = board
        self.c = paint
        self.width = width

    # -------------------------------------------------------------- layout
    def draw(self, actions: bool) -> str:
        b = self.b
        rule = self.c("-" * self.width, "dim")
        lines = [self.header(), self.decision_line(actions), rule]
        lines += self.player_info(b.top)
        lines += self.rows(b.top, top_side=True)
        lines += self.middle()
        lines += self.rows(b.bottom, top_side=False)
        lines += self.player_info(b.bottom)
        return "\n".join(line for line in lines if line is not None)

    def header(self) -> str:
        b = self.b
        if b.seat is None:
            who = "every card shown"
        elif isinstance(b.seat, int):
            who = f"{SIDES[b.seat]}'s view"
        else:
            who = "spectator, public cards only"
        if not b.started or b.turn == 0:
            where = "game setup"
        else:
            where = f"Turn {b.turn} ({self.c.side(b.tp)}'s turn) | phase {b.phase}"
            if b.step and b.phase in ("battle", "end"):
                where += f" | step {b.step}"
        return self.c(f"HOST WCG | {where} | {who}", "bold")

    def decision_line(self, actions: bool) -> str:
        b = self.b
        if b.over:
            w = "draw" if b.winner is None else f"{self.c.side(b.winner)} wins"
            return self.c(f"Game over: {w} ({b.reason})", "bold", "red")
        d = b.decision
        if d is None:
            return "No decision pending"
        line = f"Decision: {self.c.side(d.player)} {d.kind}"
        if d.prompt:
            line += f": {d.prompt}"
        if d.actions and b.mine():
            shown = ", ".join(d.actions)
            if actions:
                line += "\n" + self.wrap(f"legal: {shown}", "  ")
            else:
                line += f" ({len(d.actions)} legal action{'s' if len(d.actions) != 1 else ''})"
        return line

    # -------------------------------------------------------------- a player
    def player_info(self, side: Side) -> list[str]:
        c = self.c
        h = side.host
        if h.name is None or h.health is None:
            host_part = f"Host {h.name if h.name is not None else 'hidden'}"
        else:
            dmg = side.damage_count
            host_part = (f"Host {c(h.name, 'bold')} | health {h.health} "
                         f"(damage {c(str(dmg), 'red') if dmg else '0'}/{h.health}) | "
                         f"soul {h.soul}")
        pool = " ".join(f"{r}{n}" for r, n in sorted(side.pool.items()) if n) or "empty"
        first = f"{c.side(side.player)}  {host_part} | AP {side.ap} | pool {c(pool, 'green')}"
        hand = names(side.hand) if side.hand is not None else _cards(side.hand_count)
        damage = names(side.damage) if side.damage is not None else _cards(side.damage_count)
        drop = f"{len(side.drop)}"
        if side.drop:
            drop += f" (top: {side.drop[-1].name})"
        zones = (f"deck {side.deck} | damage zone: {damage} | drop {drop} | "
                 f"banished: {names(side.banished)} | forms: {self.forms(side)}")
        return [first, self.wrap(f"hand: {hand}", "      "), self.wrap(zones, "      ")]

    def rows(self, side: Side, top_side: bool) -> list[str]:
        front = " | ".join(self.front_slot(i, o) for i, o in enumerate(side.front))
        back = " | ".join(self.back_slot(i, o) for i, o in enumerate(side.back))
        lines = [self.wrap(f"{self.c.side(side.player)} back : {back}", "          "),
                 self.wrap(f"{self.c.side(side.player)} front: {front}", "          ")]
        return lines if top_side else lines[::-1]

    def front_slot(self, i: int, o: CardFace | None) -> str:
        if o is None:
            return self.c(f"f{i} -", "dim")
        if o.name is None:
            return f"f{i} face-down"
        text = f"f{i} {self.c(o.name, 'bold')} H{o.health}/P{o.power}"
        if o.damage:
            text += " " + self.c(f"dmg {o.damage}", "red")
        if o.sick:
            text += " [sick]"
        if o.attacked:
            text += " [attacked]"
        if o.controller != o.owner:
            text += f" [owner {SIDES[o.owner]}]"
        kws = [k for k in o.keywords if k != "unique"]
        if kws:
            text += " {" + ", ".join(kws) + "}"
        if o.markers:
            text += " +" + ", +".join(self.marker(m) for m in o.markers)
        return text

    def back_slot(self, i: int, o: CardFace | None) -> str:
        if o is None:
            return self.c(f"b{i} -", "dim")
        if o.name is None:
            return f"b{i} face-down"
        text = f"b{i} {self.c(o.name, 'bold')}"
        if o.face_down:
            text += " (face-down)"
        if o.markers:
            text += " +" + ", +".join(self.marker(m) for m in o.markers)
        return text

    @staticmethod
    def marker(m: CardFace) -> str:
        return "face-down" if m.name is None else m.name

    def forms(self, side: Side) -> str:
        out = []
        for o in side.forms:
            text = o.name or "face-down"
            if o.markers:
                text += " +" + ", +".join(self.marker(m) for m in o.markers)
            out.append(text)
        return ", ".join(out) if out else "-"

    # -------------------------------------------------------------- the middle
    def middle(self) -> list[str]:
        b = self.b
        lines = []
        if b.battle is not None:
            lines.append(self.c("   battle: ", "bold") + self.battle())
        if not b.stack:
            lines.append(self.c("   stack: empty", "dim"))
            return lines
        lines.append(self.c(f"   stack ({len(b.stack)}, top first):", "bold"))
        for it in b.stack_top_first:
            lines.append(self.wrap(f"stack{it.index}: {self.stack_item(it)}", "     ", "     "))
        return lines

    def battle(self) -> str:
        bt = self.b.battle
        assert bt is not None
        text = f"{self.c.side(bt.controller)}'s {bt.attacker} attacks"
        if bt.target_is_host:
            text += " the Host of " + self.c.side(1 - bt.controller)
        elif bt.target is not None:
            text += " " + bt.target
        return text

    def stack_item(self, it: StackEntry) -> str:
        ctrl = self.c.side(it.controller)
        if it.name is None:
            return f"face-down card ({ctrl})"
        text = f"{self.c(it.title(), 'bold')} ({ctrl}{', face-down' if it.face_down else ''})"
        if it.targets:
            text += " -> " + it.targets_text()
        return text

    def wrap(self, text: str, indent: str, first: str = "   ") -> str:
        # ANSI codes make lines look longer than they are; wrapping is approximate then.
        return textwrap.fill(text, self.width, initial_indent=first, subsequent_indent=indent,
                             break_on_hyphens=False)


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


# ============================================================================ events

_EVENT = re.compile(r"^(\w+)\((.*)\)$", re.S)

# Events that say again what a neighbouring event says, left out of a compact log.
_QUIET = frozenset({
    "WouldPlay", "WouldCreate", "WouldCast", "WouldEmbody", "WouldLay", "Created", "Cast",
    "Embodied", "Laid", "LeavesPlay", "EffectsExpired", "GameStarted", "TurnBegan", "PhaseBegan",
    "StatsChanged", "StepBegan",
})


def parse_event(text: str) -> tuple[str, list[str]]:
    """``"Draw(A, Squire)"`` -> ``("Draw", ["A", "Squire"])``; other text -> (text, [])."""
    m = _EVENT.match(text.strip())
    if not m:
        return text.strip(), []
    return m.group(1), _split_args(m.group(2))


@functools.cache
def _comma_names() -> frozenset[str]:
    """Card names of the pool that hold a comma ("Xin, Master of Pain"): an event's arguments
    are split at commas, so these are joined back."""
    from hostwcg_env.cards import default_pool

    return frozenset(n for n in default_pool() if "," in n)


def _split_args(body: str) -> list[str]:
    parts = _split_commas(body)
    if "," not in body or len(parts) < 2:
        return parts
    names = _comma_names()
    out: list[str] = []
    i = 0
    while i < len(parts):
        for j in range(len(parts), i + 1, -1):  # the longest run of parts that is one name
            joined = ", ".join(parts[i:j])
            if joined in names:
                out.append(joined)
                i = j
                break
        else:
            out.append(parts[i])
            i += 1
    return out


def _split_commas(body: str) -> list[str]:
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in body:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if cur or out:
        out.append("".join(cur).strip())
    return [a for a in out if a != ""] if out != [""] else []


def _kw(args: list[str]) -> dict[str, str]:
    return dict(a.split("=", 1) for a in args if "=" in a)


def describe_event(text: str) -> str:
    """A short English phrase for one event text (the text itself when it is not known)."""
    kind, a = parse_event(text)
    n = len(a)
    kw = _kw(a)
    phrase = _PHRASES.get(kind)
    if phrase is not None:
        try:
            out = phrase(a, n, kw)
        except (IndexError, KeyError):
            out = None
        if out:
            return out
    return text.strip()


def _amount(a: list[str], i: int) -> str:
    return a[i] if len(a) > i else "1"


_PHRASES: dict[str, Any] = {
    "Roll": lambda a, n, kw: "roll: " + " ".join(a),
    "FirstPlayer": lambda a, n, kw: f"{a[0]} goes first",
    "Mulligan": lambda a, n, kw: f"{a[0]} mulligans {a[1]}",
    "Shuffle": lambda a, n, kw: f"{a[0]} shuffles",
    "TurnBegan": lambda a, n, kw: f"turn {a[1]} ({a[0]})",
    "PhaseBegan": lambda a, n, kw: f"{a[0]} phase",
    "StepBegan": lambda a, n, kw: f"{a[0]} step",
    "APSpent": lambda a, n, kw: f"{a[0]} AP: {a[1]}",
    "Draw": lambda a, n, kw: f"{a[0]} draws {a[1]}" if n > 1 else f"{a[0]} draws a card",
    "Discard": lambda a, n, kw: f"{a[0]} discards {a[1]}",
    "DamageCard": lambda a, n, kw: (f"{a[0]} puts {a[1]} in the damage zone" if n > 1
                                    else f"{a[0]} puts a card in the damage zone"),
    "GainResource": lambda a, n, kw: f"{a[0]} +{_amount(a, 2)}{a[1]}",
    "Paid": lambda a, n, kw: f"{a[0]} pays {a[1]}" + (f" for {a[2]}" if n > 2 else ""),
    "Played": lambda a, n, kw: f"{a[0]} plays {a[1]}",
    "EntersSlot": lambda a, n, kw: f"{a[1]} -> {a[0]}.{a[2]}",
    "MovesSlot": lambda a, n, kw: f"{a[1]} moves {a[2]} -> {a[3]}",
    "Attacks": lambda a, n, kw: f"{a[0]}'s {a[1]} attacks",
    "AttacksHost": lambda a, n, kw: f"{a[0]}'s {a[1]} attacks the Host",
    "Blocks": lambda a, n, kw: f"{a[0]}'s {a[1]} blocks",
    "DamageDealt": lambda a, n, kw: (f"{kw['source']} deals {a[1]} to {a[0]}" if "source" in kw
                                     else f"{a[0]} takes {a[1]} damage"),
    "HostDamaged": lambda a, n, kw: f"{a[0]}'s Host takes {_amount(a, 1)}",
    "HostHealed": lambda a, n, kw: f"{a[0]}'s Host heals {_amount(a, 1)}",
    "Healed": lambda a, n, kw: f"{a[0]} heals {_amount(a, 1)}",
    "Destroyed": lambda a, n, kw: f"{a[0]} destroyed" + (f" by {kw['source']}" if "source" in kw else ""),
    "Destroys": lambda a, n, kw: f"{a[0]} destroys {a[1]}",
    "SentToDrop": lambda a, n, kw: f"{a[0]} to the drop",
    "TokenGone": lambda a, n, kw: f"token {a[0]} gone",
    "TriggerPlaced": lambda a, n, kw: f"{a[0]} triggers {a[1]}",
    "Activated": lambda a, n, kw: f"{a[0]} activates {a[1]}",
    "Resolved": lambda a, n, kw: f"{a[0]} resolves",
    "Fizzled": lambda a, n, kw: f"{a[0]} fizzles" + (f" ({kw['reason']})" if "reason" in kw else ""),
    "LosesSickness": lambda a, n, kw: f"{a[0]} loses sickness",
    "ControlChanged": lambda a, n, kw: f"{a[1]} gains control of {a[0]}",
    "Equipped": lambda a, n, kw: f"{a[0]} equips {a[1]}" if n > 1 else None,
    "Conceded": lambda a, n, kw: f"{a[0]} concedes",
    "GameOver": lambda a, n, kw: (f"GAME OVER: {kw.get('winner', '?')}"
                                  f"{' wins' if kw.get('winner') not in ('draw', None) else ''}"
                                  f" ({kw.get('reason', '?')})"),
}


def _merge(items: list[tuple[str, list[str]]]) -> list[str]:
    """Phrases for a compact log, with neighbours that tell one story told once.

    ``APSpent`` + what it bought; ``Paid`` + ``EntersSlot`` + ``Played`` of one card
    (``A plays Squire (&) -> f2``); ``Destroyed`` + ``Destroys``; consecutive draws by one player.
    """
    out: list[list[Any]] = []  # [kind, args, phrase]
    paid: dict[str, int] = {}  # card name -> index in out of its Paid entry
    slot: dict[str, str] = {}
    entered: dict[str, int] = {}  # card name -> index in out of its EntersSlot entry
    for kind, a in items:
        prev = out[-1] if out else None
        if kind == "GainResource" and prev and prev[0] == "APSpent" and prev[1][:1] == a[:1] \
                and prev[1][1:2] != ["draw"]:
            how = prev[1][1].split()[0] if len(prev[1]) > 1 else ""
            prev[:] = ["AP", a, f"{a[0]} AP({how}) -> +{_amount(a, 2)}{a[1]}"]
            continue
        if kind == "Draw" and prev and prev[0] == "APSpent" and prev[1][1:2] == ["draw"] \
                and prev[1][:1] == a[:1]:
            prev[:] = ["Draw", a, f"{a[0]} AP -> draws {a[1] if len(a) > 1 else 'a card'}"]
            continue
        if kind == "Draw" and prev and prev[0] == "Draw" and prev[1][:1] == a[:1]:
            prev[2] += ", " + (a[1] if len(a) > 1 else "a card")
            continue
        if kind == "Paid" and len(a) > 2:
            paid[a[2]] = len(out)
        elif kind == "EntersSlot" and len(a) > 2 and a[1] in paid:
            slot[a[1]] = a[2]
            continue
        elif kind == "EntersSlot" and len(a) > 2:
            entered[a[1]] = len(out)
        elif kind == "Played" and len(a) > 1 and a[1] in entered and a[1] not in paid:
            entry = out[entered.pop(a[1])]
            entry[:] = [kind, a, f"{a[0]} plays {a[1]} -> {entry[1][2]}"]
            continue
        elif kind in ("Played", "Activated") and len(a) > 1 and a[1] in paid:
            entry = out[paid.pop(a[1])]
            verb = "plays" if kind == "Played" else "activates"
            where = f" -> {slot.pop(a[1])}" if a[1] in slot else ""
            entry[:] = [kind, a, f"{a[0]} {verb} {a[1]} ({entry[1][1]}){where}"]
            continue
        elif kind == "Destroys" and len(a) > 1 and prev and prev[0] == "Destroyed" \
                and prev[1][:1] == a[1:2]:
            continue
        out.append([kind, a, describe_event(f"{kind}({', '.join(a)})")])
    return [e[2] for e in out]


def render_events(lines: Iterable[str], color: bool = False, compact: bool = False,
                  width: int = WIDTH, max_lines: int | None = None, indent: str = "  ",
                  phase: str = "") -> str:
    """Format event texts (``Event.text`` or a PlayerView's ``events``).

    Plain: one event a line, as written. ``compact``: short phrases, grouped by phase on wrapped
    lines (``[battle] B's Ogre attacks; A's Squire blocks; ...``), repeated events left out.
    ``max_lines`` caps the output, saying how many lines were left out. ``phase`` labels the
    compact group of events that come before the first ``PhaseBegan``.
    """
    paint = _Paint(color)
    texts = [t for t in lines if t]
    if not compact:
        out = [indent + _color_event(t, paint) for t in texts]
    else:
        out = _compact(texts, paint, width, indent, phase)
    if max_lines is not None and len(out) > max_lines:
        hidden = len(out) - (max_lines - 1)
        out = out[: max_lines - 1] + [indent + paint(f"... ({hidden} more lines)", "dim")]
    return "\n".join(out)


def _compact(texts: list[str], paint: _Paint, width: int, indent: str, phase: str) -> list[str]:
    groups: list[tuple[str, list[tuple[str, list[str]]]]] = [(phase, [])]
    for t in texts:
        kind, a = parse_event(t)
        if kind == "PhaseBegan" and a:
            groups.append((a[0], []))
            continue
        if kind in _QUIET:
            continue
        groups[-1][1].append((kind, a) if a or kind != t.strip() else (t.strip(), []))
    out: list[str] = []
    for label, items in groups:
        if not items:
            continue
        body = "; ".join(_merge(items))
        head = f"[{label}] " if label else ""
        wrapped = textwrap.wrap(head + body, width - len(indent), break_on_hyphens=False,
                                subsequent_indent="  ")
        if head and paint.on:
            wrapped[0] = paint(head.rstrip(), "bold") + wrapped[0][len(head) - 1:]
        out += [indent + w for w in wrapped]
    return out


def _color_event(text: str, paint: _Paint) -> str:
    kind, _ = parse_event(text)
    if not paint.on or kind == text:
        return text
    style = {"GameOver": ("bold", "red"), "HostDamaged": ("red",), "Destroyed": ("red",),
             "TurnBegan": ("bold",), "PhaseBegan": ("dim",)}.get(kind, ())
    if style:
        return paint(text, *style)
    return paint(kind, "bold") + text[len(kind):]


__all__ = ["describe_event", "parse_event", "render_events", "render_text"]
