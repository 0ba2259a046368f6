"""The core every rule module works through: the game state, the event emitter, decisions,
the task stack, and the loop that runs the rules until the next decision.

The engine runs by itself until the next Decision. Work that may stop for a player's choice is
kept as data (``state.tasks``: typed :class:`~hostwcg_env.engine.tasks.Task` objects), so a
game can be cloned at any decision and resumed. The rule modules (zones, resolution, announce,
triggers, priority, turn, battle, setup, ...) are functions that receive a :class:`Core`; the
few things the loop needs from modules above it (running a task, taking an answer, the game
actions, the trigger window, priority, a fresh game for a simulation) are methods that
``game.Game`` provides, with its dispatch tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Decision, DecisionKind, IllegalActionError, Kind, Place, Resume
from .events import Conceded, Event, GameOver
from .kinds import EndReason
from .legal import explain_illegal
from .matching import collect_triggers
from .places import place_of, place_ref, resolve_place, resolve_ref
from .state import GameState, StackItem
from .stats import host_health
from .tasks import Task


class Core:
    """A game in progress, as the rules see it (see the module docstring)."""

    def __init__(self, state: GameState) -> None:
        self.s = state
        # A driver setting, not a rule: when True, priority with nothing to do but pass is
        # passed at once (still counted as a decision) instead of stopping for it, where that
        # is plain from public facts (``Game.forced_action``). The env sets it with
        # ``auto_single``; the game that results is the same.
        self.auto_pass = False
        self.running: Task | None = None  # the task being carried out (``run``)

    # ----------------------------------------------------------------- what Game provides
    def run_task(self, task: Task) -> None:
        """Carry out one task (``game.TASKS``)."""
        raise NotImplementedError

    def answer(self, d: Decision, a: Action) -> None:
        """Continue the rule that asked ``d`` with the answer ``a`` (``game.RESUMES``)."""
        raise NotImplementedError

    def game_actions(self) -> None:
        """The game actions (35.3, zones.game_actions)."""
        raise NotImplementedError

    def window(self) -> bool:
        """The trigger window (triggers.window); True if it asked or queued something."""
        raise NotImplementedError

    def give_priority(self) -> None:
        """Priority to whoever holds it (priority.give_priority)."""
        raise NotImplementedError

    def spawn(self, state: GameState) -> Core:
        """A game of this kind on another state (loop detection plays ahead on a copy)."""
        raise NotImplementedError

    # ----------------------------------------------------------------- events and work
    def emit(self, ev: Event) -> Event:
        """Log an event and collect the triggers it causes. Game actions cause events too,
        without passing priority; their triggers wait for the next window (31.2.1, 35.5)."""
        self.s.events.append(ev)
        collect_triggers(self.s, ev)
        return ev

    def push(self, task: Task) -> None:
        """Put work on the task stack: it runs before anything pushed earlier."""
        self.s.tasks.append(task)

    def push_seq(self, tasks: Sequence[Task]) -> None:
        """Push tasks so that they run in the given order."""
        for t in reversed(tasks):
            self.s.tasks.append(t)

    def decide(self, player: int, kind: DecisionKind, actions: Sequence[Action], resume: Resume,
               prompt: str = "", cards: tuple[int, ...] = (), task: Task | None = None,
               hidden: bool = False, seen: tuple[int, ...] = ()) -> None:
        """Stop for ``player``'s choice among ``actions``; ``resume`` takes the answer, with
        ``task`` (the interrupted work) if any; ``cards`` are listed for the choice and
        ``seen`` shown to the player alone besides them while it decides."""
        if not actions:
            raise RuntimeError(f"engine error: decision {kind.value} for {'AB'[player]} has no action")
        if self.s.started and self.over_decision_cap(task):
            return  # truncated: the decision is not asked
        self.s.decision = Decision(player, kind, tuple(actions), prompt, resume, task, cards, hidden, seen)

    def tick(self) -> int:
        """The next timestamp (18.6.3, A35)."""
        self.s.ts += 1
        return self.s.ts

    def place_of(self, oid: int) -> str:
        return place_of(self.s, oid)

    def resolve_place(self, place: str) -> int | None:
        return resolve_place(self.s, place)

    def place_ref(self, oid: int) -> Place:
        return place_ref(self.s, oid)

    def resolve_ref(self, place: Place) -> int | None:
        return resolve_ref(self.s, place)

    # ----------------------------------------------------------------- the loop
    def run(self) -> None:
        """Run tasks until a decision is needed. A resolving effect's tasks run to the end with
        no priority given (31.4, 40.3.1); only then come game actions, the trigger window
        (responses to the resolution, 32.5) and priority."""
        s = self.s
        while not s.over and s.decision is None:
            if s.tasks:
                self.running = s.tasks.pop()
                self.run_task(self.running)
                self.running = None
                self.check_losses()
                continue
            if s.quiet:
                # A first pass changed nothing but who holds priority: the game actions and
                # the trigger window found nothing to do before it, so they would find
                # nothing now (31.5.3).
                s.quiet = False
                self.give_priority()
                continue
            self.game_actions()
            if s.over:
                return
            if self.window():
                continue
            if s.tasks or s.decision is not None:
                continue
            self.give_priority()

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
                raise explain_illegal(s, d, action)
        s.decision = None
        self.answer(d, action)
        self.decision_taken()
        self.run()

    def decision_taken(self) -> None:
        """Count a decision (the per-turn cap is checked when the next one is asked,
        ``over_decision_cap``)."""
        s = self.s
        s.decisions_total += 1
        s.decisions_this_turn += 1

    def over_decision_cap(self, holding: Task | None = None) -> bool:
        """A turn may hold ``max_decisions_per_turn`` decisions (A52c: an environment policy,
        not a rule): a game that needs one more in the same turn is truncated with its own
        reason, ``decision_limit``, and ends with exactly that many decisions in the turn."""
        s = self.s
        if s.decisions_this_turn < s.config.max_decisions_per_turn or s.over:
            return False
        self.end_game(None, EndReason.DECISION_LIMIT, truncated=True, holding=holding)
        return True

    def concede(self, player: int) -> None:
        """35.3.5: conceding ends the game at once, whatever is on the stack (A48)."""
        if self.s.over:
            raise IllegalActionError("1.1", "the game is over")
        self.emit(Conceded(player))
        self.end_game(1 - player, EndReason.CONCEDE)

    # ----------------------------------------------------------------- game end
    def check_losses(self) -> None:
        """1.2 win conditions (1.1.1-1.1.3, printed under 1.2, A01) as a game action
        (35.3.4), checked after every atomic event; a game that is won ends at once (1.1)."""
        s = self.s
        if s.over or not s.started:
            return
        stamp = (s.version, s.ts)
        if stamp == s.loss_stamp and not (s.players[0].hit_empty or s.players[1].hit_empty):
            return  # nothing that a loss condition reads has changed
        s.loss_stamp = stamp
        losers: list[int] = []
        reasons: list[EndReason] = []
        for p in (0, 1):
            pl = s.players[p]
            if len(pl.damage) >= host_health(s, p):
                losers.append(p)
                reasons.append(EndReason.DAMAGE_ZONE)
            elif not pl.deck:
                losers.append(p)
                reasons.append(EndReason.DECK_OUT)
            elif pl.hit_empty:
                losers.append(p)
                reasons.append(EndReason.EMPTY_HAND)
        if len(losers) == 2:
            self.end_game(None, EndReason.DRAW)
        elif losers:
            self.end_game(1 - losers[0], reasons[0])

    def end_game(self, winner: int | None, reason: EndReason, truncated: bool = False,
                 holding: Task | None = None) -> None:
        """End the game (1.1). Work still pending is dropped; a card or effect that was
        resolving (held by ``holding``, the running task, the decision or a pending task)
        is left on the stack, where it is until its resolution ends (34.5), so that every
        card of a game that ends mid-resolution is still in exactly one place."""
        s = self.s
        on_stack = {it.sid for it in s.stack}
        held = [holding, self.running, s.decision.task if s.decision is not None else None, *s.tasks]
        for t in held:
            item = getattr(t, "item", None)
            if isinstance(item, StackItem) and item.sid not in on_stack:
                s.stack.append(item)
                on_stack.add(item.sid)
        s.over = True
        s.winner = winner
        s.reason = reason
        s.truncated = truncated
        s.decision = None
        s.tasks.clear()
        s.events.append(GameOver(winner, reason))
