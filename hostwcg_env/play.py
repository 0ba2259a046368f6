"""Play a game against an agent in the terminal (``hostwcg play --vs heuristic``).

Everything is shown from the human's side only (their PlayerView and the events as they saw
them). Before each question the game tells what happened since the last one, the opponent's
actions included, in the words ``hostwcg demo`` uses; the board is drawn at the start of each
turn (``board`` draws it again). A decision with one possible answer is taken without asking
and said in one line.

Answers: the number of a listed action, the action in the notation of docs/scenarios.md
(``play h0``, ``attack f1``, ``target B.f2``, ``pass``), or with a card name for an index
(``play Vanguard Lancer``). Commands (``COMMANDS``): ``list``, ``hand``, ``board``, ``show CARD``
(a name, ``h0``, ``B.f2``), ``log``, ``help``, ``concede``. Each question is headed by the
player's action points (#) and pool as their own actions left them. A typo gets the closest legal actions; an illegal
action gets the rule it breaks, and nothing changes. There is no undo.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hostwcg_env.cards.loader import default_ruleset
from hostwcg_env.cards.lookup import lookup
from hostwcg_env.cards.text import card_sheet, stats_text
from hostwcg_env.demo import _agent, explain_result, load_decks
from hostwcg_env.engine import Action, Game, IllegalActionError, RuleConfig
from hostwcg_env.engine.actions import Area, Kind
from hostwcg_env.engine.events import Event, PhaseBegan, TurnBegan
from hostwcg_env.engine.view import redacted_events
from hostwcg_env.render import render_events, render_text

RESOURCES = "& authority, £ strife, ! emotion, % amity, $ generic (any)"
HELP = """Answer with the number of an action in the list, or the action itself:
  pass | yes | ap host | ap draw | ap any & | play h0 | play Vanguard Lancer | attack f1
  target B.f2 | slot f3 | pay $ | card h2 | activate A.f0 0   (docs/scenarios.md, "The action notation")
Places: h0.. your hand, f0..f4 front row, b0..b3 back row, A.f2 / B.b1 a side's slot, A.host.
Costs: {resources}. Stats: H health, P power (Entities), S soul (Hosts).
Before each question: your action points (#, 11.2) and your pool, as they are after your actions.
Commands:
{commands}"""

# every command ``_Table.ask`` answers, with its other spellings (tests/test_play.py: each is
# listed by 'help' and answered, never read as an action)
COMMANDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("list", "actions"), "the question and its numbered actions again"),
    (("hand",), "your hand with costs and stats"),
    (("board",), "the board again"),
    (("show CARD",), "a card's text: a name (any case, a unique start: show grace), h0, B.f2"),
    (("log",), "everything that happened this turn"),
    (("help", "?", "h"), "this text"),
    (("concede", "quit", "exit"), "give up"),
)
HELP = HELP.format(resources=RESOURCES, commands="\n".join(
    f"  {names[0]:<12} {text}" + (f" (also: {', '.join(names[1:])})" if names[1:] else "") for names, text in COMMANDS))


def forced(game: Game) -> Action | None:
    """The answer to take without asking: the only legal action, if there is one. Here that
    tells nothing hidden to anyone (the env's ``auto_single`` must ask more: ``Game.forced_action``):
    the agent reads only its own PlayerView, never who was asked, and the human is told the
    game's events, never the agent's questions."""
    legal = game.legal_actions()
    return legal[0] if len(legal) == 1 else None


def play_terminal(vs: str = "heuristic", seat: int = 0, seed: int = 0,
                  decks: Sequence[str | Path] | str | None = None,
                  read: Callable[[str], str] = input, out: Callable[[str], object] = print,
                  color: bool = False) -> int:
    """One game in the terminal; returns 0 (a finished or conceded game)."""
    deck_a, deck_b = load_decks(decks, seed)
    game = default_ruleset(RuleConfig()).new_game(deck_a, deck_b, seed=seed)
    opponent = _agent(vs, seed + 1)
    table = _Table(game, seat, out, color)
    mine = (deck_a, deck_b)[seat]
    out(f"You are {table.me}, playing {mine.name} ({mine.host}), against {vs} ({table.them}). "
        "Type the number of an action, 'help' for commands, 'concede' to give up.")
    while not game.is_over:
        d = game.decision
        assert d is not None
        if d.player != seat:
            game.apply(opponent(game))
            continue
        only = forced(game)
        if only is not None:
            table.forced(d.kind.value, only)
            game.apply(only)
            continue
        table.tell()
        if table.ask(read) == "concede":
            game.concede(seat)
    table.tell(final=True)
    out(render_text(game, seat, color=color))
    s = game.state
    verdict = "You win." if s.winner == seat else "A draw." if s.winner is None else "You lose."
    out(f"Result: {explain_result(s)}. {verdict}")
    return 0


class _Table:
    """What the human sees: the story so far, the board, the question, and their commands."""

    def __init__(self, game: Game, seat: int, out: Callable[[str], object], color: bool) -> None:
        self.game = game
        self.seat = seat
        self.out = out
        self.color = color
        self.me, self.them = "AB"[seat], "AB"[1 - seat]
        self.told = 0  # events already told
        self.turn_start = 0  # index of this turn's first event (for 'log')
        self.phase = ""
        self.board_turn = -1
        self.taken: list[list[Any]] = []  # forced answers not said yet: [label, times, event index]

    # ------------------------------------------------------------ telling
    def forced(self, kind: str, action: Action) -> None:
        """Note an answer taken for the player; it is said where it happened in the story."""
        if kind == "priority" and action.kind is Kind.PASS:
            label = "passed"
        else:
            label = f"{_kind_words(kind)}: {self.label(action)}"
        at = len(self.game.events)
        if self.taken and self.taken[-1][0] == label:
            self.taken[-1][1] += 1
            self.taken[-1][2] = at
        else:
            self.taken.append([label, 1, at])

    def _say_taken(self, upto: int) -> None:
        said = [label if n == 1 else f"{label} {n} times" for label, n, at in self.taken if at <= upto]
        self.taken = [t for t in self.taken if t[2] > upto]
        if said:
            self.out(f"  (your only choice, taken for you: {'; '.join(said)})")

    def tell(self, final: bool = False) -> None:
        """Say what happened since the last time: forced answers, then the events (as this
        player saw them), each turn under its header; the board at the start of a turn."""
        g = self.game
        first = self.told
        events = g.events[first:]
        self.told = len(g.events)
        chunk: list[Event] = []
        for i, e in enumerate(events, first):
            if isinstance(e, TurnBegan):
                self._say(chunk)
                self._say_taken(i)
                chunk = []
                who = "AB"[e.player]
                whose = "your turn" if who == self.me else f"{who}'s turn (your opponent)"
                self.out("")
                self.out(f"=== Turn {e.turn}: {whose} ===")
                self.phase = ""
                self.turn_start = i
                continue
            chunk.append(e.redact(self.seat))
        self._say(chunk)
        self._say_taken(self.told)
        s = g.state
        if not final and s.started and s.turn != self.board_turn:
            self.board_turn = s.turn
            self.board()

    def _say(self, events: list[Event]) -> None:
        if not events:
            return
        body = render_events(events, color=self.color, compact=True, phase=self.phase)
        for e in events:
            if isinstance(e, PhaseBegan):
                self.phase = str(e.phase)
        if body:
            self.out(body)

    def board(self) -> None:
        self.out(render_text(self.game, self.seat, color=self.color))
        self.hand()

    def hand(self) -> None:
        view = self.game.view(self.seat)
        cards = view.hand()
        if not cards:
            self.out("Your hand is empty.")
            return
        rows = [(f"h{i}", o.card.name, o.card.type.value, o.card.cost_text() or "-",
                 stats_text(o.card), ", ".join(sorted(k.replace("_", " ") for k in o.card.keywords)))
                for i, o in enumerate(cards)]
        widths = [max(len(r[k]) for r in rows) for k in range(5)]
        self.out(f"Your hand ({len(cards)}): cost in {RESOURCES}")
        for r in rows:
            self.out("  " + "  ".join(c.ljust(w) for c, w in zip(r[:5], widths, strict=True)) + "  " + r[5])

    # ------------------------------------------------------------ asking
    def ask(self, read: Callable[[str], str]) -> str:
        """Ask until a legal action is applied (returns "") or the player concedes ("concede")."""
        g = self.game
        self.question()
        while True:
            try:
                line = read(f"{self.me}> ").strip()
            except EOFError:
                self.out("input closed: conceding")
                return "concede"
            if not line:
                if len(g.legal_actions()) == 1:
                    g.apply(g.legal_actions()[0])
                    return ""
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("help", "?", "h") and not rest:
                self.out(HELP)
            elif word == "board" and not rest:
                self.board()
            elif word == "hand" and not rest:
                self.hand()
            elif word == "log" and not rest:
                self.out(render_events(redacted_events(g.events[self.turn_start:], self.seat),
                                       color=self.color, compact=True))
            elif word == "show":
                self.show(rest.strip())
            elif word in ("concede", "quit", "exit") and not rest:
                return "concede"
            elif word in ("list", "actions") and not rest:
                self.question()
            else:
                action = self.read_action(line)
                if action is None:
                    continue
                try:
                    g.apply(action)
                except IllegalActionError as e:
                    self.out(f"not allowed: {e}")
                    continue
                return ""

    def question(self) -> None:
        d = self.game.decision
        assert d is not None
        s = self.game.state
        prompt = f": {d.prompt}" if d.prompt else ""
        when = f"turn {s.turn}, {s.phase}" + (f" ({s.step})" if s.step else "") if s.started else "setup"
        self.out(f"{_kind_words(d.kind.value).capitalize()} [{when}]{prompt}")
        if s.started:  # what your own actions left you: action points and pool (they change as you act)
            view = self.game.view(self.seat)
            pool = " ".join(f"{r}{n}" for r, n in sorted(view.pool(self.seat).items()) if n) or "empty"
            self.out(f"  you: {view.ap(self.seat)} action points (#) | pool {pool}")
        for i, a in enumerate(d.actions, 1):
            label = self.label(a)
            text = str(a)
            self.out(f"  {i:>2}  {text}" + (f"  ({label})" if label != text else ""))
        if len(d.actions) == 1:
            self.out(f"  (Enter: {d.actions[0]})")

    def read_action(self, line: str) -> Action | None:
        """The legal action ``line`` stands for, or None after saying why not."""
        g = self.game
        legal = g.legal_actions()
        if line.isdigit():
            k = int(line)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            self.out(f"there is no action {k}: give 1 to {len(legal)}")
            return None
        try:
            _, action = _resolve(g, line)
        except (IllegalActionError, ValueError) as e:
            self.out(self.no_such(line, str(e)))
            return None
        if action.kind is Kind.CONCEDE:
            self.out("to give up, type 'concede' alone")
            return None
        return action  # an illegal one is refused by Game.apply, naming the rule

    def no_such(self, line: str, why: str) -> str:
        """``'pas' is not a legal action now; did you mean: pass?``"""
        g = self.game
        options: dict[str, str] = {}
        for a in g.legal_actions():
            options[str(a).lower()] = str(a)
            label = self.label(a)
            verb = a.kind.value.split()[0]
            if label != str(a):
                options[f"{verb} {label}".lower()] = f"{verb} {label}"
        near = difflib.get_close_matches(line.lower(), list(options), n=3, cutoff=0.5)
        if not near:  # a card name alone: 'vanguard lancer' for 'play Vanguard Lancer'
            near = [k for k in options if line.lower() in k][:3]
        hint = f"; did you mean: {', '.join(dict.fromkeys(options[n] for n in near))}?" if near else ""
        ambiguous = " (more than one action fits: give its number)" if "ambiguous" in why else ""
        return f"{line!r} is not a legal action now{ambiguous}{hint} (the list: 'list'; help: 'help')"

    def show(self, what: str) -> None:
        """A card's text: by name, or the card at a place the player can see."""
        if not what:
            self.out("show what? a card name, h0 (your hand) or a place such as B.f2")
            return
        g = self.game
        card = self.card_at(what)
        if card is None:
            found = lookup(what, g.state.registry)  # as 'hostwcg cards show' finds a card
            if found.name is None:
                self.out(f"{found.problem('card')}; and nothing you can see at {what!r}")
                return
            card = g.state.registry[found.name]
        self.out("\n".join(card_sheet(card)))

    def card_at(self, place: str) -> Any:
        g = self.game
        view = g.view(self.seat)
        p = place.strip()
        if p.startswith("h") and p[1:].isdigit():
            hand = view.hand()
            k = int(p[1:])
            return hand[k].card if k < len(hand) else None
        if p[:2] in ("f0", "f1", "f2", "f3", "f4", "b0", "b1", "b2", "b3") and len(p) == 2:
            p = f"{self.me}.{p}"
        try:
            oid = g.resolve_place(p)
        except (ValueError, KeyError, IndexError, IllegalActionError):
            return None
        if oid is None or oid < 0:
            return None
        o = view.public(oid)
        return None if o is None else o.card

    # ------------------------------------------------------------ words
    def label(self, a: Action) -> str:
        """What an action means in card names, from this player's view (a face-down card of
        the opponent stays 'a face-down card')."""
        g = self.game
        s = g.state
        d = g.decision
        view = g.view(self.seat)
        oid: int | None = None
        place = a.source if a.source is not None else a.target
        if a.kind in (Kind.PLAY, Kind.CARD) and place is not None and place.area is Area.HAND:
            hand = s.players[self.seat].hand
            k = place.index
            oid = hand[k] if k < len(hand) else None
        elif a.kind is Kind.CARD and place is not None and place.area is Area.LISTED and d is not None:
            k = place.index
            oid = d.cards[k] if k < len(d.cards) else None
        elif a.kind is Kind.ATTACK:
            oid = s.players[self.seat].front[a.src.index]
        elif a.kind in (Kind.TARGET, Kind.ACTIVATE) and place is not None:
            oid = g.resolve_ref(place)
            if oid is not None and oid < 0:
                item = next((x for x in s.stack if x.sid == -oid), None)
                return str(a) if item is None else f"{item.source_name} on the stack"
        elif a.kind is Kind.PASS:
            return "pass"
        elif a.kind is Kind.AP_HOST:
            host = s.objs[s.players[self.seat].host].card
            return f"1 AP: +1{host.resource.value} from your Host"
        elif a.kind is Kind.AP_DRAW:
            return "1 AP: draw a card"
        elif a.kind is Kind.AP_ANY:
            return f"2 AP: +1{a.res}"
        elif a.kind is Kind.PAY:
            return f"pay with {'auto' if a.res is None else a.res.value}"
        if oid is None or oid not in s.objs:
            return str(a)
        o = view.public(oid)
        if o is None:
            return "a face-down card"
        c = o.card
        bits = [b for b in (c.cost_text() if a.kind is Kind.PLAY else "", stats_text(c)) if b]
        name = ", ".join([c.name, *bits])
        if a.kind is Kind.ACTIVATE:
            return f"{name}, ability {a.n}"
        if a.kind is Kind.TARGET and a.dst.on_board:
            return f"{'your' if a.dst.side == self.seat else 'their'} {name}"
        return name


def _kind_words(kind: str) -> str:
    return {"first_player": "who goes first", "mulligan": "mulligan", "priority": "your move",
            "place_triggers": "order your triggers", "choose_target": "choose a target",
            "choose_attack_target": "what to attack", "choose_slot": "choose a slot",
            "pay": "pay", "choose_card": "choose a card", "yes_no": "yes or no"}.get(kind, kind)


def _resolve(game: Game, line: str) -> tuple[int | None, Action]:
    from hostwcg_env.engine.notation import resolve_line

    return resolve_line(game.state, line)


if __name__ == "__main__":
    sys.exit(play_terminal())
