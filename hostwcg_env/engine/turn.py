"""Turn structure (10), action-point replenish (10.2.1, A18), Creation Sickness (18.5), and the
End-Phase discard and clean-up (10.6, A21).

A phase ends when both players pass in a row with an empty stack (A17); the turn player then
receives priority in the next one (31.5.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from .battle import battle_advance
from .core import Core
from .events import EffectsExpired, TurnBegan
from .hands import DiscardCards
from .kinds import TURN_PHASES, EndReason, Phase, PhaseStep
from .phases import enter_phase
from .selectors import in_play
from .stats import host_soul
from .tasks import Task
from .zones import game_actions


@dataclass(init=False)
class Advance(Task):
    """Both players passed on an empty stack: move on (``advance``)."""

    def __init__(self) -> None:
        pass

    def clone(self) -> Advance:
        return Advance()


@dataclass(init=False)
class EndDiscard(Task):
    """The End Phase discard (10.6.2)."""

    def __init__(self) -> None:
        pass

    def clone(self) -> EndDiscard:
        return EndDiscard()


@dataclass(init=False)
class EndAfterDiscard(Task):
    """After the End Phase discard: effects expire, unless triggers wait (10.6, A21)."""

    def __init__(self) -> None:
        pass

    def clone(self) -> EndAfterDiscard:
        return EndAfterDiscard()


def run_advance(g: Core, t: Advance) -> None:
    """Both players passed on an empty stack: the next phase in order (10.1), none skipped
    (10.1.1) but the first player's first Battle and Action Phase 2 (10.4.2, 10.5.2)."""
    s = g.s
    if s.phase is Phase.PREGAME:
        begin_turn(g, first=True)
    elif s.phase is Phase.BATTLE:
        battle_advance(g)
    elif s.phase is Phase.END:
        end_advance(g)
    else:
        nxt = TURN_PHASES[TURN_PHASES.index(s.phase) + 1]
        if s.turn == 1 and (nxt is Phase.BATTLE or nxt is Phase.ACTION2):
            nxt = Phase.END  # 10.4.2, 10.5.2: the first player's first turn (A17)
        enter_phase(g, nxt)


def begin_turn(g: Core, first: bool = False) -> None:
    """The next turn: the other player goes through the same phases (10.1)."""
    s = g.s
    if first:
        s.turn = 1
        s.tp = s.first_player
    else:
        if s.turn >= s.config.turn_limit:
            # Truncation (RuleConfig.turn_limit, not a rule): the game is a draw once
            # ``turn_limit`` turns have been played in full. Checked before the count goes
            # up, so a truncated game ends with ``turn == turn_limit``.
            g.end_game(None, EndReason.TURN_LIMIT, truncated=True)
            return
        s.turn += 1
        s.tp = 1 - s.tp
    s.decisions_this_turn = 0
    # Only objects in play and Hosts can have attacked or used a Ⓢ: a card that changes
    # zones becomes a new object (36.2) with neither
    objs = [s.objs[p.host] for p in s.players if p.host in s.objs]
    objs.extend(in_play(s))
    for o in objs:
        o.attacked = False  # 25.5.1
        o.used_s = ()  # 27.5, A38: Ⓢ resets every turn
    g.emit(TurnBegan(s.tp, s.turn))
    enter_phase(g, Phase.START)


# ------------------------------------------------------------ end phase (10.6, A21)
def end_advance(g: Core) -> None:
    s = g.s
    if s.step is PhaseStep.MAIN:
        s.step = PhaseStep.DISCARD
        g.push_seq([EndDiscard(), EndAfterDiscard()])
    elif s.step is PhaseStep.DISCARD:
        expire(g)
    else:
        begin_turn(g)


def run_end_discard(g: Core, t: EndDiscard) -> None:
    """10.6.2: the turn player discards down to their Host's soul; with fewer cards, none
    (10.6.3)."""
    s = g.s
    p = s.tp
    excess = len(s.players[p].hand) - max(0, host_soul(s, p))
    if excess > 0:
        g.push(DiscardCards(p, excess))


def run_end_after_discard(g: Core, t: EndAfterDiscard) -> None:
    if not g.s.pending:
        expire(g)


def expire(g: Core) -> None:
    """A21 (4): 'until end of turn' effects end, then game actions run."""
    s = g.s
    s.version += 1
    s.modv += 1
    for o in s.objs.values():
        if o.mods:
            o.mods = tuple(m for m in o.mods if not m.until_eot)
    if s.config.entity_damage_clears_at_end_of_turn:
        for pl in s.players:
            for oid in pl.front:  # the objects in a frontrow zone (7.2)
                if oid is not None:
                    s.objs[oid].damage = 0
                    s.dmg += 1
    if s.config.resource_decay == "end_of_turn":
        for p in s.players:
            p.pool.clear()
    g.emit(EffectsExpired())
    s.step = PhaseStep.EXPIRE
    game_actions(g)
    if not s.over and not s.pending:
        begin_turn(g)
