"""Game setup (9.1, A16): decks shuffled and cut, 2D6 for first player (re-roll ties), the
winner chooses, five cards each, one mulligan each (first player first), Hosts flipped, and
the start-of-game trigger window before turn 1."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import PASS, YES, Action, Decision, DecisionKind, Kind
from .carddef import CardType
from .state import Player

if TYPE_CHECKING:
    from .state import GameState


def deck_parts(deck: Any) -> tuple[str, list[str]]:
    """Accept a Deck-like object (``host``, ``main``) or a ``(host, main)`` pair."""
    if isinstance(deck, tuple):
        return deck[0], list(deck[1])
    return deck.host, list(deck.main)


class SetupMixin:
    s: GameState

    def _blank_player(self, p: int) -> Player:
        c = self.s.config
        return Player(idx=p, front=[None] * c.frontrow_slots, back=[None] * c.backrow_slots)

    def _setup_new(self, deck_a: Any, deck_b: Any) -> None:
        """9.1.1-9.1.5: decks in place, each Host face down in its Host zone, which starts
        closed (4.6, 4.6.1); shuffle; roll for the first player."""
        s = self.s
        s.players = [self._blank_player(0), self._blank_player(1)]
        for p, deck in ((0, deck_a), (1, deck_b)):
            host_name, main = deck_parts(deck)
            for name in [host_name, *main]:
                if name not in s.registry:
                    raise ValueError(f"deck of {'AB'[p]}: unknown card {name!r}")
            host = s.registry[host_name]
            if host.type is not CardType.HOST:
                raise ValueError(f"deck of {'AB'[p]}: {host_name!r} is not a Host")
            pl = s.players[p]
            pl.decklist = list(main)
            h = self._new_obj(host, p, p, "host", face_down=True)  # type: ignore[attr-defined]  # 9.1.1
            pl.host = h.id
            names = list(main)
            s.rng.shuffle(names)  # 9.1.2: shuffle ...
            s.rng.shuffle(names)  # ... and the opponent's shuffle/cut (S053)
            for name in names:
                o = self._new_obj(s.registry[name], p, p, "deck")  # type: ignore[attr-defined]
                pl.deck.append(o.id)
        while True:  # 9.1.3-9.1.4, A16a
            ra = s.rng.randint(1, 6) + s.rng.randint(1, 6)
            rb = s.rng.randint(1, 6) + s.rng.randint(1, 6)
            self._emit("Roll", f"Roll(A={ra}, B={rb})", a=ra, b=rb)  # type: ignore[attr-defined]
            if ra != rb:
                break
        winner = 0 if ra > rb else 1
        self._decide(winner, DecisionKind.FIRST_PLAYER, [YES, PASS], "first_player",  # type: ignore[attr-defined]
                     prompt="you won the roll: go first (yes) or second (pass)? (9.1.5)")

    def _on_first_player(self, d: Decision, a: Action) -> None:
        s = self.s
        first = d.player if a.kind is Kind.YES else 1 - d.player
        s.first_player = first
        s.tp = first
        self._emit("FirstPlayer", f"FirstPlayer({'AB'[first]})", player=first)  # type: ignore[attr-defined]
        for p in (first, 1 - first):  # 9.1.6
            self._draw(p, s.config.starting_hand)  # type: ignore[attr-defined]
        self._push_seq([("mulligan", {"player": first, "back": 0}),  # type: ignore[attr-defined]
                        ("mulligan", {"player": 1 - first, "back": 0}),
                        ("start_game", {})])

    def _t_mulligan(self, data: dict[str, Any]) -> None:
        p = data["player"]
        hand = self.s.players[p].hand
        acts = [Action(Kind.CARD, f"h{i}") for i in range(len(hand))] + [PASS]
        self._decide(p, DecisionKind.MULLIGAN, acts, "mulligan",  # type: ignore[attr-defined]
                     prompt="mulligan: put cards on the bottom, then pass (9.1.7)", task=data)

    def _on_mulligan(self, d: Decision, a: Action) -> None:
        s = self.s
        data = dict(d.data["task"])
        p = d.player
        if a.kind is Kind.CARD:
            o = s.objs[s.players[p].hand[int(a.arg[1:])]]
            self._move(o, "deck", p, bottom=True)  # type: ignore[attr-defined]
            data["back"] += 1
            self._push("mulligan", **data)  # type: ignore[attr-defined]
            return
        n = data["back"]
        self._draw(p, n)  # type: ignore[attr-defined]
        if n:
            self._shuffle(p)  # type: ignore[attr-defined]  # 9.1.7.1: only if any went back
        s.players[p].mulliganed = True
        self._emit("Mulligan", f"Mulligan({'AB'[p]}, {n})", player=p, n=n)  # type: ignore[attr-defined]

    def _t_start_game(self, data: dict[str, Any]) -> None:
        """9.1.8, A16d: Hosts flip and the Host zones become open (4.6.1); start-of-game
        triggers, then turn 1."""
        s = self.s
        for pl in s.players:
            s.objs[pl.host].face_down = False
        s.version += 1
        s.board += 1
        s.started = True
        s.decisions_this_turn = 0  # the set-up's choices count towards no turn's cap (A52c)
        s.phase = "pregame"
        s.priority = s.first_player
        self._emit("GameStarted", "GameStarted()")  # type: ignore[attr-defined]
        if not s.pending:
            self._begin_turn(first=True)  # type: ignore[attr-defined]
