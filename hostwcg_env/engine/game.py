"""The Game: the public face of the engine, and the dispatch tables that tie the rule modules
together.

``TASKS`` says which function carries out each kind of pending work and ``RESUMES`` which
function takes the answer to each kind of decision; both are plain tables of direct
references, so "go to definition" leads from any task or decision to the rule that handles it.
Everything else a game does is in the rule modules (docs/engine.md "Layout").
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from . import announce, battle, damage, hands, priority, resolution, setup, triggers, turn
from .actions import Action, Decision, DecisionKind, IllegalActionError, Kind, Resume
from .carddef import CardDef
from .config import RuleConfig
from .core import Core
from .events import Event
from .legal import attack_targets, only_pass_publicly
from .notation import resolve_line
from .primitives import (
    CreateToken,
    GainControl,
    LookOrder,
    LookTop,
    MoveSlot,
    NewTargets,
    PlaceToken,
    PutInSlot,
    PutIntoPlay,
    Retarget,
    Search,
)
from .state import GameState, Obj
from .tasks import Task
from .view import PlayerView
from .zones import game_actions

# Which function carries out each kind of task (every Task subclass that is ever pushed).
TASKS: Final[dict[type[Task], Callable[[Core, Any], None]]] = {
    setup.Mulligan: setup.run_mulligan,
    setup.StartGame: setup.run_start_game,
    turn.Advance: turn.run_advance,
    turn.EndDiscard: turn.run_end_discard,
    turn.EndAfterDiscard: turn.run_end_after_discard,
    battle.CombatDamage: battle.run_combat_damage,
    battle.NextStep: battle.run_next_step,
    announce.Announce: announce.run_announce,
    resolution.ResolveTop: resolution.run_resolve_top,
    resolution.RunGameActions: resolution.run_game_actions,
    resolution.Group: resolution.run_group,
    resolution.ExecStep: resolution.run_exec_step,
    resolution.ItemDone: resolution.run_item_done,
    damage.HostPoint: damage.run_host_point,
    hands.DiscardCards: hands.run_discard,
    PlaceToken: CreateToken.run_place_token,
    PutInSlot: PutIntoPlay.run_put,
    LookOrder: LookTop.run_look_order,
    NewTargets: Retarget.run_new_targets,
}

# Which function takes the answer to each kind of decision.
RESUMES: Final[dict[Resume, Callable[[Core, Decision, Action], None]]] = {
    Resume.FIRST_PLAYER: setup.on_first_player,
    Resume.MULLIGAN: setup.on_mulligan,
    Resume.PRIORITY: priority.on_priority,
    Resume.PLACE_TRIGGERS: triggers.on_place_triggers,
    Resume.ATTACK_TARGET: battle.on_attack_target,
    Resume.ANNOUNCE_TARGET: announce.on_announce_target,
    Resume.ANNOUNCE_PAY: announce.on_announce_pay,
    Resume.CARD_SLOT: resolution.on_card_slot,
    Resume.OPTIONAL: resolution.on_optional,
    Resume.CHOOSE_ON_RESOLUTION: resolution.on_choose_on_resolution,
    Resume.HOST_POINT_CARD: damage.on_host_point_card,
    Resume.DISCARD_CARD: hands.on_discard_card,
    Resume.TOKEN_SLOT: CreateToken.on_slot,
    Resume.MOVE_SLOT: MoveSlot.on_slot,
    Resume.CONTROL_SLOT: GainControl.on_slot,
    Resume.SEARCH_PICK: Search.on_pick,
    Resume.LOOK_PICK: LookTop.on_pick,
    Resume.RETARGET_PICK: Retarget.on_pick,
    Resume.PUT_SLOT: PutIntoPlay.on_slot,
}


class Game(Core):
    """One game of Host WCG. Made by a Ruleset (``hostwcg_env.cards.default_ruleset()
    .new_game(deck_a, deck_b, seed)``), by :meth:`new`, or from a state (:meth:`from_state`,
    e.g. a scenario or a sampled world)."""

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
        """Start a game (9.1) from two decks (objects with ``host`` and ``main`` names) with the
        cards of ``registry``; ``Ruleset.new_game`` (``hostwcg_env.cards.default_ruleset()``
        for the shipped cards) is the usual way in."""
        if registry is None:
            raise ValueError("Game.new needs the card registry: use "
                             "hostwcg_env.cards.default_ruleset(config).new_game(deck_a, deck_b, seed)")
        state = GameState(config=config or RuleConfig(), registry=registry, rng=random.Random(seed))
        game = cls(state)
        setup.setup_new(game, deck_a, deck_b)
        game.run()
        return game

    @classmethod
    def from_state(cls, state: GameState) -> Game:
        game = cls(state)
        game.run()
        return game

    def clone(self) -> Game:
        g = Game(self.s.copy())
        g.auto_pass = self.auto_pass
        return g

    # ----------------------------------------------------------------- the tables
    def run_task(self, task: Task) -> None:
        TASKS[type(task)](self, task)

    def answer(self, d: Decision, a: Action) -> None:
        RESUMES[d.resume](self, d, a)

    def game_actions(self) -> None:
        game_actions(self)

    def window(self) -> bool:
        return triggers.window(self)

    def give_priority(self) -> None:
        priority.give_priority(self)

    def spawn(self, state: GameState) -> Core:
        return Game(state)

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

    def forced_action(self) -> Action | None:
        """The decision's only legal action, if a driver may take it without asking: when
        that it is the only one follows from what both players can see. Otherwise None,
        also for a decision with one legal action whose being alone depends on a hidden
        card: priority where only the hidden hand or face-down cards decide that nothing can
        be done (``legal.only_pass_publicly``), a trigger window offered because a face-down
        card could be an Ambush for the event (``triggers.window``), a search for cards with
        traits (41.3). Skipping those stops and asking at the others would tell the other
        player what is hidden; whether a player is asked must depend only on public facts."""
        s = self.s
        d = s.decision
        if d is None or s.over or len(d.actions) != 1 or d.hidden:
            return None
        if d.kind is DecisionKind.PRIORITY and not only_pass_publicly(s, d.player):
            return None
        return d.actions[0]

    def view(self, player: int) -> PlayerView:
        return PlayerView(self.s, player)

    def obj_at(self, place: str) -> Obj | None:
        oid = self.resolve_place(place)
        return None if oid is None or oid < 0 else self.s.objs.get(oid)

    def attack_targets(self, attacker_controller: int) -> list[int]:
        """25.3.1-25.3.3: any opposing Entity; the Host only when none of them can block."""
        return attack_targets(self.s, attacker_controller)

    # ----------------------------------------------------------------- acting
    def apply_text(self, line: str) -> Action:
        """Apply ``"<A|B> <action>"`` or a bare action; names may stand for places."""
        player, action = resolve_line(self.s, line)
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
