"""Terminal rendering of a game: the board as one player (or a spectator) sees it, and events.

A player's board is drawn only from ``game.view(player)``: the PlayerView is the only door from
hidden state to a renderer (docs/rulings.md A09), so nothing the player may not see can
reach the text. The spectator board (``viewer=None``) reads ``game.state`` and shows everything.

    render_text(game, viewer=0)            # A's board, A at the bottom
    render_text(game, None, color=True)    # everything, ANSI colours
    render_events(["Draw(A, Squire)", ...], compact=True)
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from hostwcg_env.engine.places import place_of
from hostwcg_env.engine.state import GameState, Obj, StackItem
from hostwcg_env.engine.stats import health, host_health, host_soul, keywords, power

SIDES = "AB"
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


def render_text(game: Any, viewer: int | None = None, color: bool = False,
                actions: bool = False, width: int = WIDTH) -> str:
    """The board as ``viewer`` (0 = A, 1 = B) sees it, or everything when ``viewer`` is None.

    The viewer sits at the bottom, the opponent on top (the spectator sees B on top, A below).
    ``actions=True`` also lists the legal actions when the viewer (or, for the spectator,
    anyone) is deciding.
    """
    if viewer is None:
        s = game.state
    else:
        s = game.view(viewer).state  # only the PlayerView: never the hidden state
    return _Board(s, viewer, _Paint(color), width).draw(actions)


class _Board:
    def __init__(self, s: GameState, viewer: int | None, paint: _Paint, width: int) -> None:
        self.s = s
        self.viewer = viewer
        self.c = paint
        self.width = width

    # -------------------------------------------------------------- layout
    def draw(self, actions: bool) -> str:
        bottom = 0 if self.viewer is None else self.viewer
        top = 1 - bottom
        rule = self.c("-" * self.width, "dim")
        lines = [self.header(), self.decision_line(actions), rule]
        lines += self.player_info(top)
        lines += self.rows(top, top_side=True)
        lines += self.middle()
        lines += self.rows(bottom, top_side=False)
        lines += self.player_info(bottom)
        return "\n".join(line for line in lines if line is not None)

    def header(self) -> str:
        s = self.s
        who = "spectator" if self.viewer is None else f"{SIDES[self.viewer]}'s view"
        if not s.started or s.turn == 0:
            where = "game setup"
        else:
            where = f"Turn {s.turn} ({self.c.side(s.tp)}'s turn) | phase {s.phase}"
            if s.step and s.phase in ("battle", "end"):
                where += f" | step {s.step}"
        return self.c(f"HOST WCG | {where} | {who}", "bold")

    def decision_line(self, actions: bool) -> str:
        s = self.s
        if s.over:
            w = "draw" if s.winner is None else f"{self.c.side(s.winner)} wins"
            return self.c(f"Game over: {w} ({s.reason})", "bold", "red")
        d = s.decision
        if d is None:
            return "No decision pending"
        line = f"Decision: {self.c.side(d.player)} {d.kind.value}"
        if d.prompt:
            line += f": {d.prompt}"
        mine = self.viewer is None or d.player == self.viewer
        if d.actions and mine:
            shown = ", ".join(str(a) for a in d.actions)
            if actions:
                line += "\n" + self.wrap(f"legal: {shown}", "  ")
            else:
                line += f" ({len(d.actions)} legal action{'s' if len(d.actions) != 1 else ''})"
        return line

    # -------------------------------------------------------------- a player
    def sees_all(self, p: int) -> bool:
        """Whether this board shows ``p``'s private zones (hand, damage zone) by name."""
        return self.viewer is None or self.viewer == p

    def player_info(self, p: int) -> list[str]:
        s = self.s
        pl = s.players[p]
        c = self.c
        host = s.objs.get(pl.host)
        if host is None or host.name == HIDDEN or not s.started:
            host_part = f"Host {host.name if host is not None and host.name != HIDDEN else 'hidden'}"
        else:
            hp = host_health(s, p)
            dmg = len(pl.damage)
            host_part = (f"Host {c(host.name, 'bold')} | health {hp} "
                         f"(damage {c(str(dmg), 'red') if dmg else '0'}/{hp}) | "
                         f"soul {host_soul(s, p)}")
        pool = " ".join(f"{r}{n}" for r, n in sorted(pl.pool.items()) if n) or "empty"
        first = f"{c.side(p)}  {host_part} | AP {pl.ap} | pool {c(pool, 'green')}"
        hand = self.names(pl.hand) if self.sees_all(p) else _cards(len(pl.hand))
        damage = self.names(pl.damage) if self.sees_all(p) else _cards(len(pl.damage))
        drop = f"{len(pl.drop)}"
        if pl.drop:
            drop += f" (top: {self.name(pl.drop[-1])})"
        zones = (f"deck {len(pl.deck)} | damage zone: {damage} | drop {drop} | "
                 f"banished: {self.names(pl.banished)} | forms: {self.forms(p)}")
        return [first, self.wrap(f"hand: {hand}", "      "), self.wrap(zones, "      ")]

    def rows(self, p: int, top_side: bool) -> list[str]:
        pl = self.s.players[p]
        front = " | ".join(self.front_slot(i, oid) for i, oid in enumerate(pl.front))
        back = " | ".join(self.back_slot(i, oid) for i, oid in enumerate(pl.back))
        lines = [self.wrap(f"{self.c.side(p)} back : {back}", "          "),
                 self.wrap(f"{self.c.side(p)} front: {front}", "          ")]
        return lines if top_side else lines[::-1]

    def front_slot(self, i: int, oid: int | None) -> str:
        if oid is None:
            return self.c(f"f{i} -", "dim")
        o = self.s.objs[oid]
        if o.name == HIDDEN:
            return f"f{i} face-down"
        text = f"f{i} {self.c(o.name, 'bold')} H{health(self.s, o)}/P{power(self.s, o)}"
        if o.damage:
            text += " " + self.c(f"dmg {o.damage}", "red")
        if o.sick:
            text += " [sick]"
        if o.attacked:
            text += " [attacked]"
        if o.controller != o.owner:
            text += f" [owner {SIDES[o.owner]}]"
        kws = sorted(keywords(self.s, o) - {"unique"})
        if kws:
            text += " {" + ", ".join(kws) + "}"
        if o.markers:
            text += " +" + ", +".join(self.marker(m) for m in o.markers)
        return text

    def back_slot(self, i: int, oid: int | None) -> str:
        if oid is None:
            return self.c(f"b{i} -", "dim")
        o = self.s.objs[oid]
        if o.name == HIDDEN:
            return f"b{i} face-down"
        text = f"b{i} {self.c(o.name, 'bold')}"
        if o.face_down:
            text += " (face-down)"
        if o.markers:
            text += " +" + ", +".join(self.marker(m) for m in o.markers)
        return text

    def marker(self, oid: int) -> str:
        o = self.s.objs[oid]
        return "face-down" if o.name == HIDDEN else o.name

    def forms(self, p: int) -> str:
        out = []
        for oid in self.s.players[p].forms:
            o = self.s.objs[oid]
            text = o.name
            if o.markers:
                text += " +" + ", +".join(self.marker(m) for m in o.markers)
            out.append(text)
        return ", ".join(out) if out else "-"

    # -------------------------------------------------------------- the middle
    def middle(self) -> list[str]:
        s = self.s
        lines = []
        if s.battle is not None:
            lines.append(self.c("   battle: ", "bold") + self.battle())
        if not s.stack:
            lines.append(self.c("   stack: empty", "dim"))
            return lines
        lines.append(self.c(f"   stack ({len(s.stack)}, top first):", "bold"))
        for i in range(len(s.stack) - 1, -1, -1):
            lines.append(self.wrap(f"stack{i}: {self.stack_item(s.stack[i])}", "     ", "     "))
        return lines

    def battle(self) -> str:
        b = self.s.battle
        assert b is not None
        text = f"{self.c.side(b.controller)}'s {b.attacker_name} attacks"
        if b.target is not None:
            text += " " + ("the Host of " + self.c.side(1 - b.controller) if b.target_is_host
                           else self.describe(b.target))
        return text

    def stack_item(self, it: StackItem) -> str:
        ctrl = self.c.side(it.controller)
        if it.source_name == HIDDEN or it.card.name == HIDDEN:
            return f"face-down card ({ctrl})"
        what = it.source_name
        if it.kind != "card":
            what += f" [{it.kind}]"
        text = f"{self.c(what, 'bold')} ({ctrl}{', face-down' if it.face_down else ''})"
        targets = [f"{name.split(':')[-1]}={', '.join(self.describe(t) for t in ids) or 'none'}"
                   for name, ids in it.targets.items()]
        if targets:
            text += " -> " + "; ".join(targets)
        return text

    # -------------------------------------------------------------- names and places
    def name(self, oid: int) -> str:
        o = self.s.objs.get(oid)
        return "?" if o is None else o.name

    def names(self, oids: Sequence[int]) -> str:
        return ", ".join(self.name(o) for o in oids) if oids else "-"

    def describe(self, oid: int) -> str:
        """A target: its place and name (``B.f0 Squire``), or a stack item."""
        s = self.s
        if oid < 0:
            for i, it in enumerate(s.stack):
                if it.sid == -oid:
                    shown = "face-down card" if it.source_name == HIDDEN else it.source_name
                    return f"stack{i} {shown}"
            return "an item no longer on the stack"
        o = s.objs.get(oid)
        if o is None:
            return "?"
        place = _place(s, o)
        if o.zone == "host":
            return place
        return f"{place} {'face-down card' if o.name == HIDDEN else o.name}"

    def wrap(self, text: str, indent: str, first: str = "   ") -> str:
        # ANSI codes make lines look longer than they are; wrapping is approximate then.
        return textwrap.fill(text, self.width, initial_indent=first, subsequent_indent=indent,
                             break_on_hyphens=False)


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _place(s: GameState, o: Obj) -> str:
    if o.zone == "marker" and (o.attached_to is None or o.attached_to not in s.objs):
        return f"{SIDES[o.controller]}.marker"
    return place_of(s, o.id).split(":")[0]


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


def _split_args(body: str) -> list[str]:
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
