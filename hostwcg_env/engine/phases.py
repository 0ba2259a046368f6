"""Entering a phase or a battle step (10, 25.1): each is a Fast timing (15.3.2.3) in which the
turn player receives priority first (31.5.1)."""

from __future__ import annotations

from .core import Core
from .events import LosesSickness, PhaseBegan, StepBegan
from .hands import draw
from .kinds import Phase, PhaseStep
from .state import GameState


def enter_phase(g: Core, phase: Phase) -> None:
    """Enter a phase, a Fast timing (15.3.2.3); PhaseBegan also triggers the start-of-turn
    and end-of-turn effects (10.2.2, 10.6.1)."""
    s = g.s
    if s.config.resource_decay == "end_of_phase":
        for p in s.players:
            p.pool.clear()
    s.phase = phase
    if phase is Phase.BATTLE:
        s.step = PhaseStep.DECLARE
    elif phase is Phase.END:
        s.step = PhaseStep.MAIN
    else:
        s.step = PhaseStep.NONE
    s.priority = s.tp
    s.passes = 0
    g.emit(PhaseBegan(s.tp, phase))
    if phase is Phase.START:
        start_phase(g)


def replenish_target(s: GameState) -> int:
    """The # the turn player replenishes to (10.2.1, 11.2): ``ap_per_turn``, less
    ``first_turn_ap_cut`` on turn 1 and plus ``second_turn_extra_ap`` on turn 2 (A56)."""
    c = s.config
    if s.turn == 1:
        return max(0, c.ap_per_turn - c.first_turn_ap_cut)
    if s.turn == 2:
        return c.ap_per_turn + c.second_turn_extra_ap
    return c.ap_per_turn


def start_phase(g: Core) -> None:
    """10.2: replenish (a game action), then Creation Sickness ends (18.5.2.2); those
    triggers are held so that start-of-phase triggers go first (39.1, A50). On turn 2 the
    second player first draws ``second_turn_draw`` cards (A56, a house rule)."""
    s = g.s
    pl = s.players[s.tp]
    if s.turn == 2 and s.config.second_turn_draw:
        draw(g, s.tp, s.config.second_turn_draw)
    want = replenish_target(s)
    pl.ap = want if s.config.ap_refresh == "set4" else max(pl.ap, want)
    for oid in pl.front:
        if oid is not None and s.objs[oid].sick:
            o = s.objs[oid]
            o.sick = False
            # A50: these triggers wait until start-of-phase triggers have resolved
            g.emit(LosesSickness(o.controller, o.id, o.name))


def new_step(g: Core, step: PhaseStep) -> None:
    """A battle step begins: a Fast timing like a phase (15.3.2.3), turn player first."""
    s = g.s
    s.step = step
    s.priority = s.tp
    s.passes = 0
    g.emit(StepBegan(step))
