"""Terminal rendering of a game: the board as one player (or a spectator) sees it, and events.

The board is drawn from ``hostwcg_env.board.board_of``, the one model of what a seat sees
(the HTML and image boards draw the same model). A player's board is built only from
``game.view(player)``: the PlayerView is the only door from hidden state to a renderer
(docs/rulings.md A09), so nothing the player may not see can reach the text. The spectator
board (``viewer=None``) shows everything; ``viewer="spectator"`` shows only what is public.

    render_text(game, viewer=0)            # A's board, A at the bottom
    render_text(game, None, color=True)    # everything, ANSI colours
    render_events(game.view(0).events, compact=True)   # events as A saw them, in short phrases
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import Any

from hostwcg_env.board.model import SIDES, Board, CardFace, Seat, Side, StackEntry, board_of, names
from hostwcg_env.engine.events import (
    Activated,
    Announced,
    APSpent,
    Attacks,
    AttacksHost,
    Blocks,
    Cast,
    Conceded,
    ControlChanged,
    Created,
    DamageCard,
    DamageDealt,
    Destroyed,
    Destroys,
    Discard,
    Draw,
    EffectsExpired,
    Embodied,
    EntersSlot,
    Equipped,
    Event,
    FirstPlayer,
    Fizzled,
    GainResource,
    GameOver,
    GameStarted,
    Healed,
    HostDamaged,
    HostHealed,
    Laid,
    LeavesPlay,
    LosesSickness,
    MovesSlot,
    Mulligan,
    Paid,
    PhaseBegan,
    Played,
    Resolved,
    Roll,
    SentToDrop,
    Shuffle,
    StatsChanged,
    StepBegan,
    TokenGone,
    TriggerPlaced,
    TurnBegan,
)

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


# Events that say again what a neighbouring event says, left out of a compact log.
_QUIET: tuple[type[Event], ...] = (
    Announced, Created, Cast, Embodied, Laid, LeavesPlay, EffectsExpired, GameStarted, TurnBegan,
    PhaseBegan, StatsChanged, StepBegan,
)


def _side(player: int) -> str:
    return "AB"[player]


def describe_event(ev: Event) -> str:
    """A short English phrase for one event (its text, ``str(ev)``, when there is none)."""
    match ev:
        case Roll():
            return f"roll: A={ev.a} B={ev.b}"
        case FirstPlayer():
            return f"{_side(ev.player)} goes first"
        case Mulligan():
            return f"{_side(ev.player)} mulligans {ev.count}"
        case Shuffle():
            return f"{_side(ev.player)} shuffles"
        case TurnBegan():
            return f"turn {ev.turn} ({_side(ev.player)})"
        case PhaseBegan():
            return f"{ev.phase} phase"
        case StepBegan() if ev.step:
            return f"{ev.step} step"
        case APSpent():
            return f"{_side(ev.player)} AP: {ev.use}"
        case Draw():
            return f"{_side(ev.player)} draws {'a card' if ev.card is None else ev.card}"
        case Discard():
            return f"{_side(ev.player)} discards {ev.card}"
        case DamageCard():
            return f"{_side(ev.player)} puts {'a card' if ev.card is None else ev.card} in the damage zone"
        case GainResource():
            return f"{_side(ev.player)} +{ev.amount}{ev.resource}"
        case Paid():
            return f"{_side(ev.player)} pays {ev.cost} for {ev.name}"
        case Played():
            return f"{_side(ev.player)} plays {ev.name}"
        case EntersSlot():
            return f"{ev.name} -> {_side(ev.player)}.{ev.place}"
        case MovesSlot():
            return f"{ev.name} moves {ev.old} -> {ev.new}"
        case Attacks():
            return f"{_side(ev.player)}'s {ev.name} attacks"
        case AttacksHost():
            return f"{_side(ev.player)}'s {ev.name} attacks the Host"
        case Blocks():
            return f"{_side(ev.player)}'s {ev.name} blocks"
        case DamageDealt():
            return f"{ev.source} deals {ev.amount} to {ev.name}"
        case HostDamaged():
            return f"{_side(ev.player)}'s Host takes {ev.amount}"
        case HostHealed():
            return f"{_side(ev.player)}'s Host heals {ev.amount}"
        case Healed():
            return f"{_side(ev.player)} heals {1 if ev.card is None else ev.card}"
        case Destroyed():
            return f"{ev.name} destroyed by {ev.source}"
        case Destroys():
            return f"{ev.name} destroys {ev.victim_name}"
        case SentToDrop():
            return f"{ev.name} to the drop"
        case TokenGone():
            return f"token {ev.name} gone"
        case TriggerPlaced():
            return f"{_side(ev.player)} triggers {ev.name}"
        case Activated():
            return f"{_side(ev.player)} activates {ev.name}"
        case Resolved():
            return f"{ev.source} resolves"
        case Fizzled():
            return f"{ev.source} fizzles ({ev.reason})"
        case LosesSickness():
            return f"{ev.name} loses sickness"
        case ControlChanged():
            return f"{_side(ev.player)} gains control of {ev.name}"
        case Equipped():
            return f"{ev.source} equips {ev.name}"
        case Conceded():
            return f"{_side(ev.player)} concedes"
        case GameOver():
            w = "draw" if ev.winner is None else _side(ev.winner)
            return f"GAME OVER: {w}{'' if ev.winner is None else ' wins'} ({ev.reason})"
    return str(ev)


def _merge(items: list[Event]) -> list[str]:
    """Phrases for a compact log, with neighbours that tell one story told once.

    ``APSpent`` + what it bought; ``Paid`` + ``EntersSlot`` + ``Played`` of one card
    (``A plays Squire (&) -> f2``); ``Destroyed`` + ``Destroys``; consecutive draws by one player.
    """
    out: list[tuple[Event | None, str]] = []  # (the event an entry stands for, its phrase)
    paid: dict[str, int] = {}  # card name -> index in out of its Paid entry
    slot: dict[str, str] = {}
    entered: dict[str, int] = {}  # card name -> index in out of its EntersSlot entry
    for ev in items:
        prev, said = out[-1] if out else (None, "")
        if isinstance(ev, GainResource) and isinstance(prev, APSpent) and prev.player == ev.player \
                and prev.use != "draw":
            out[-1] = (None, f"{_side(ev.player)} AP({prev.use.split()[0]}) -> +{ev.amount}{ev.resource}")
            continue
        if isinstance(ev, Draw) and isinstance(prev, APSpent) and prev.use == "draw" and prev.player == ev.player:
            out[-1] = (ev, f"{_side(ev.player)} AP -> draws {'a card' if ev.card is None else ev.card}")
            continue
        if isinstance(ev, Draw) and isinstance(prev, Draw) and prev.player == ev.player:
            out[-1] = (prev, said + ", " + ("a card" if ev.card is None else ev.card))
            continue
        if isinstance(ev, Paid):
            paid[ev.name] = len(out)
        elif isinstance(ev, EntersSlot) and ev.name in paid:
            slot[ev.name] = ev.place
            continue
        elif isinstance(ev, EntersSlot):
            entered[ev.name] = len(out)
        elif isinstance(ev, Played) and ev.name in entered and ev.name not in paid:
            i = entered.pop(ev.name)
            entry = out[i][0]
            assert isinstance(entry, EntersSlot)
            out[i] = (ev, f"{_side(ev.player)} plays {ev.name} -> {entry.place}")
            continue
        elif isinstance(ev, Played | Activated) and ev.name in paid:
            i = paid.pop(ev.name)
            cost = out[i][0]
            assert isinstance(cost, Paid)
            verb = "plays" if isinstance(ev, Played) else "activates"
            where = f" -> {slot.pop(ev.name)}" if ev.name in slot else ""
            out[i] = (ev, f"{_side(ev.player)} {verb} {ev.name} ({cost.cost}){where}")
            continue
        elif isinstance(ev, Destroys) and isinstance(prev, Destroyed) and prev.name == ev.victim_name:
            continue
        out.append((ev, describe_event(ev)))
    return [e[1] for e in out]


def render_events(events: Iterable[Event], color: bool = False, compact: bool = False,
                  width: int = WIDTH, max_lines: int | None = None, indent: str = "  ",
                  phase: str = "") -> str:
    """Format events (a game's ``events``, or a PlayerView's, already redacted).

    Plain: one event a line, its text. ``compact``: short phrases, grouped by phase on wrapped
    lines (``[battle] B's Ogre attacks; A's Squire blocks; ...``), repeated events left out.
    ``max_lines`` caps the output, saying how many lines were left out. ``phase`` labels the
    compact group of events that come before the first ``PhaseBegan``.
    """
    paint = _Paint(color)
    evs = list(events)
    if not compact:
        out = [indent + _color_event(e, paint) for e in evs]
    else:
        out = _compact(evs, paint, width, indent, phase)
    if max_lines is not None and len(out) > max_lines:
        hidden = len(out) - (max_lines - 1)
        out = out[: max_lines - 1] + [indent + paint(f"... ({hidden} more lines)", "dim")]
    return "\n".join(out)


def _compact(events: list[Event], paint: _Paint, width: int, indent: str, phase: str) -> list[str]:
    groups: list[tuple[str, list[Event]]] = [(phase, [])]
    for ev in events:
        if isinstance(ev, PhaseBegan):
            groups.append((str(ev.phase), []))
            continue
        if isinstance(ev, _QUIET):
            continue
        groups[-1][1].append(ev)
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


_STYLE: dict[type[Event], tuple[str, ...]] = {
    GameOver: ("bold", "red"), HostDamaged: ("red",), Destroyed: ("red",), TurnBegan: ("bold",),
    PhaseBegan: ("dim",),
}


def _color_event(ev: Event, paint: _Paint) -> str:
    text = str(ev)
    if not paint.on:
        return text
    style = _STYLE.get(type(ev), ())
    if style:
        return paint(text, *style)
    head = text.index("(")  # the event's name
    return paint(text[:head], "bold") + text[head:]


__all__ = ["describe_event", "render_events", "render_text"]
