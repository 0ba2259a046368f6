"""The Game facade: decisions, actions, and the loop that runs the rules between them.

The engine runs by itself until the next Decision. Work that
may stop for a player's choice is kept as data in ``state.tasks`` (a stack of named tasks),
so a game can be cloned at any decision and resumed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .actions import Action, Decision, DecisionKind, IllegalActionError, Kind
from .announce import AnnounceMixin
from .carddef import CardDef
from .config import RuleConfig
from .effects import EffectsMixin
from .events import Event
from .legal import LegalMixin
from .places import place_of, resolve_place
from .setup import SetupMixin
from .state import GameState, Obj
from .stats import host_health
from .triggers import TriggersMixin
from .turn import TurnMixin
from .view import PlayerView
from .zones import ZonesMixin


class Game(
    LegalMixin, AnnounceMixin, TriggersMixin, EffectsMixin, TurnMixin, SetupMixin, ZonesMixin
):
    """One game of Host WCG. Create with :meth:`new` (a real game) or :meth:`from_state`."""

    default_registry: Callable[[], dict[str, CardDef]] | None = None

    def __init__(self, state: GameState) -> None:
        self.s = state
        # A driver setting, not a rule: when True, priority with nothing to do but pass is
        # passed at once (still counted as a decision) instead of stopping for it. The env
        # sets it with ``auto_single``; the game that results is the same.
        self.auto_pass = False

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(
        cls,
        deck_a: Any,
        deck_b: Any,
        config: RuleConfig | None = None,
        seed: int = 0,
        registry: dict[str, CardDef] | None = None,
    ) -> Game:
        """Start a game (9.1) from two decks (objects with ``host`` and ``main`` names)."""
        if registry is None:
            if cls.default_registry is None:
                raise ValueError("Game.new needs a card registry (import hostwcg_env first)")
            registry = cls.default_registry()
        state = GameState(config=config or RuleConfig(), registry=registry, rng=random.Random(seed))
        game = cls(state)
        game._setup_new(deck_a, deck_b)
        game._run()
        return game

    @classmethod
    def from_state(cls, state: GameState) -> Game:
        game = cls(state)
        game._run()
        return game

    def clone(self) -> Game:
        g = Game(self.s.copy())
        g.auto_pass = self.auto_pass
        return g

    # ----------------------------------------------------------------- queries
    @property
    def state(self) -> GameState:
        return self.s

    @property
    def decision(self) -> Decision | None:
        return self.s.decision

    @property
    def is_over(self) -> bool:
        return self.s.over

    @property
    def winner(self) -> int | None:
        return self.s.winner

    @property
    def events(self) -> list[Event]:
        return self.s.events

    def legal_actions(self) -> tuple[Action, ...]:
        d = self.s.decision
        return d.actions if d is not None and not self.s.over else ()

    def view(self, player: int) -> PlayerView:
        return PlayerView(self.s, player)

    def obj_at(self, place: str) -> Obj | None:
        oid = self._resolve_place(place)
        return None if oid is None or oid < 0 else self.s.objs.get(oid)

    # ----------------------------------------------------------------- acting
    def apply(self, action: Action) -> None:
        """Apply the deciding player's action; raises IllegalActionError citing the rule."""
        s = self.s
        if action.kind is Kind.CONCEDE:
            if s.decision is None:
                raise IllegalActionError("35.3.5", "no player is deciding; use concede(player)")
            self.concede(s.decision.player)
            return
        d = s.decision
        if s.over or d is None:
            raise IllegalActionError("1.1", "the game is over")
        for x in d.actions:  # drivers usually hand back one of the decision's own objects
            if x is action:
                break
        else:
            if action not in d.actions:
                raise self._explain_illegal(d, action)
        s.decision = None
        getattr(self, "_on_" + d.resume)(d, action)
        self._decision_taken()
        self._run()

    def _decision_taken(self) -> None:
        """Count a decision; a turn past ``max_decisions_per_turn`` is truncated (A52c: an
        environment policy)."""
        s = self.s
        s.decisions_total += 1
        s.decisions_this_turn += 1
        if s.decisions_this_turn > s.config.max_decisions_per_turn and not s.over:
            self._end_game(None, "turn_limit", truncated=True)

    def apply_text(self, line: str) -> Action:
        """Apply ``"<A|B> <action>"`` or a bare action; names may stand for places."""
        from .notation import resolve_line

        player, action = resolve_line(self, line)
        if player is not None and action.kind is Kind.CONCEDE:
            self.concede(player)
            return action
        d = self.s.decision
        if player is not None and d is not None and d.player != player:
            raise IllegalActionError(
                "31.1", f"{'AB'[player]} is not deciding ({'AB'[d.player]} {d.kind.value})"
            )
        self.apply(action)
        return action

    def concede(self, player: int) -> None:
        """35.3.5: conceding ends the game at once, whatever is on the stack (A48)."""
        if self.s.over:
            raise IllegalActionError("1.1", "the game is over")
        self._emit("Conceded", f"Conceded({'AB'[player]})", player=player)
        self._end_game(1 - player, "concede")

    # ----------------------------------------------------------------- the loop
    def _run(self) -> None:
        """Run tasks until a decision is needed. A resolving effect's tasks run to the end with
        no priority given (31.4, 40.3.1); only then come game actions, the trigger window
        (responses to the resolution, 32.5) and priority."""
        s = self.s
        while not s.over and s.decision is None:
            if s.tasks:
                name, data = s.tasks.pop()
                getattr(self, "_t_" + name)(data)
                self._check_losses()
                continue
            if s.quiet:
                # A first pass changed nothing but who holds priority: the game actions and
                # the trigger window found nothing to do before it, so they would find
                # nothing now (31.5.3).
                s.quiet = False
                self._give_priority()
                continue
            self._game_actions()
            if self.s.over:
                return
            if self._window():
                continue
            if self.s.tasks or self.s.decision is not None:
                continue
            self._give_priority()

    def _push(self, name: str, **data: Any) -> None:
        self.s.tasks.append((name, data))

    def _push_seq(self, tasks: Sequence[tuple[str, dict]]) -> None:
        """Push tasks so that they run in the given order."""
        for t in reversed(tasks):
            self.s.tasks.append(t)

    def _decide(
        self,
        player: int,
        kind: DecisionKind,
        actions: Sequence[Action],
        resume: str,
        prompt: str = "",
        cards: tuple[int, ...] = (),
        **data: Any,
    ) -> None:
        if not actions:
            raise RuntimeError(f"engine error: decision {kind.value} for {'AB'[player]} has no action")
        self.s.decision = Decision(player, kind, tuple(actions), prompt, resume, data, cards)

    def _emit(self, kind: str, text: str, private: int | None = None, public: str = "", **data: Any) -> Event:
        """Log an event and collect the triggers it causes. Game actions cause events too,
        without passing priority; their triggers wait for the next window (31.2.1, 35.5)."""
        ev = Event(kind, text, data, private, public)
        self.s.events.append(ev)
        self._collect_triggers(ev)
        return ev

    # ----------------------------------------------------------------- game end
    def _check_losses(self) -> None:
        """1.2 win conditions (1.1.1-1.1.3, printed under 1.2, A01) as a game action
        (35.3.4), checked after every atomic event; a game that is won ends at once (1.1)."""
        s = self.s
        if s.over or not s.started:
            return
        stamp = (s.version, s.ts)
        if stamp == s.loss_stamp and not (s.players[0].hit_empty or s.players[1].hit_empty):
            return  # nothing that a loss condition reads has changed
        s.loss_stamp = stamp
        losers = []
        reasons = []
        for p in (0, 1):
            pl = s.players[p]
            if len(pl.damage) >= host_health(s, p):
                losers.append(p)
                reasons.append("damage_zone")
            elif not pl.deck:
                losers.append(p)
                reasons.append("deck_out")
            elif pl.hit_empty:
                losers.append(p)
                reasons.append("empty_hand")
        if len(losers) == 2:
            self._end_game(None, "draw")
        elif losers:
            self._end_game(1 - losers[0], reasons[0])

    def _end_game(self, winner: int | None, reason: str, truncated: bool = False) -> None:
        s = self.s
        s.over = True
        s.winner = winner
        s.reason = reason
        s.truncated = truncated
        s.decision = None
        s.tasks.clear()
        w = "draw" if winner is None else "AB"[winner]
        s.events.append(Event("GameOver", f"GameOver(winner={w}, reason={reason})", {"winner": winner}))

    # ----------------------------------------------------------------- priority
    def _give_priority(self) -> None:
        s = self.s
        p = s.priority
        acts = self._priority_actions(p)
        if self.auto_pass and len(acts) == 1:
            # the only option is to pass (31.1.2): take it as ``apply`` would, decision counts
            # and the per-turn cap included, without stopping
            self._pass_priority(p)
            self._decision_taken()
            return
        self._decide(p, DecisionKind.PRIORITY, acts, "priority")

    def _on_priority(self, d: Decision, a: Action) -> None:
        """The priority holder acted or passed. An action, such as a card or effect entering
        the stack (15.3.2.1), restarts the count of passes, so either player may respond with
        a Fast action before anything resolves (15.3.2)."""
        s = self.s
        p = d.player
        if a.kind is Kind.PASS:
            self._pass_priority(p)
            return
        s.passes = 0
        s.priority = p if s.config.priority_after_action == "actor" else 1 - p
        if a.kind in (Kind.AP_HOST, Kind.AP_DRAW, Kind.AP_ANY):
            self._spend_ap(p, a)
        elif a.kind is Kind.PLAY:
            self._start_play(p, int(a.arg[1:]))
        elif a.kind is Kind.ACTIVATE:
            self._start_activate(p, a)
        elif a.kind is Kind.ATTACK:
            self._declare_attack(p, int(a.arg[1:]))

    def _pass_priority(self, p: int) -> None:
        """31.5.3, 31.6: two passes in a row resolve the top item or end the step (A17).

        With no more responses the Stack resolves (32.3), one item at a time (32.6) until it is
        empty and the game goes on (32.7), as in 32.9; on an empty stack the passes declare
        the move to the next phase or step (10.1.2). The turn player receives priority when an
        item resolves (31.5.2) and acts first (32.8); each item entering or leaving the stack
        gives a chance for Fast responses (15.3.2, 15.3.2.1).
        """
        s = self.s
        s.passes += 1
        if s.passes < 2:
            s.priority = 1 - p
            s.quiet = True
            return
        s.passes = 0
        s.priority = s.tp
        if s.stack:
            self._push("resolve_top")
        else:
            self._push("advance")

    # ----------------------------------------------------------------- places
    def _place_of(self, oid: int) -> str:
        return place_of(self.s, oid)

    def _resolve_place(self, place: str) -> int | None:
        return resolve_place(self.s, place)

    def _pname(self, p: int) -> str:
        return "AB"[p]

