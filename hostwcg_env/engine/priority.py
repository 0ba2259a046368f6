"""Priority (31): who may act, what acting does, and two passes in a row (31.5.3, 31.6);
and the action-point spends (11.3), game actions that use no stack (11.5)."""

from __future__ import annotations

from .actions import Action, Decision, DecisionKind, Kind, Resume
from .announce import start_activate, start_play
from .battle import declare_attack
from .core import Core
from .costs import symbol
from .events import APSpent
from .hands import draw, gain
from .legal import only_pass_publicly, priority_actions
from .resolution import ResolveTop
from .turn import Advance


def give_priority(g: Core) -> None:
    s = g.s
    p = s.priority
    acts = priority_actions(s, p)
    if g.auto_pass and len(acts) == 1:
        if not only_pass_publicly(s, p):
            # asked: only p's hidden cards leave nothing to do (marked for forced_action)
            g.decide(p, DecisionKind.PRIORITY, acts, Resume.PRIORITY, hidden=True)
            return
        if g.over_decision_cap():
            return
        # the only option is to pass (31.1.2), and both players can see it: take it as
        # ``apply`` would, decision counts and the per-turn cap included, without stopping
        pass_priority(g, p)
        g.decision_taken()
        return
    g.decide(p, DecisionKind.PRIORITY, acts, Resume.PRIORITY)


def on_priority(g: Core, d: Decision, a: Action) -> None:
    """The priority holder acted or passed. An action, such as a card or effect entering
    the stack (15.3.2.1), restarts the count of passes, so either player may respond with
    a Fast action before anything resolves (15.3.2)."""
    s = g.s
    p = d.player
    if a.kind is Kind.PASS:
        pass_priority(g, p)
        return
    s.passes = 0
    s.priority = p if s.config.priority_after_action == "actor" else 1 - p
    if a.kind is Kind.AP_HOST or a.kind is Kind.AP_DRAW or a.kind is Kind.AP_ANY:
        spend_ap(g, p, a)
    elif a.kind is Kind.PLAY:
        start_play(g, p, a.src.index)
    elif a.kind is Kind.ACTIVATE:
        start_activate(g, p, a)
    elif a.kind is Kind.ATTACK:
        declare_attack(g, p, a.src.index)


def pass_priority(g: Core, p: int) -> None:
    """31.5.3, 31.6: two passes in a row resolve the top item or end the step (A17).

    With no more responses the Stack resolves (32.3), one item at a time (32.6) until it is
    empty and the game goes on (32.7), as in 32.9; on an empty stack the passes declare
    the move to the next phase or step (10.1.2). The turn player receives priority when an
    item resolves (31.5.2) and acts first (32.8); each item entering or leaving the stack
    gives a chance for Fast responses (15.3.2, 15.3.2.1).
    """
    s = g.s
    s.passes += 1
    if s.passes < 2:
        s.priority = 1 - p
        s.quiet = True
        return
    s.passes = 0
    s.priority = s.tp
    if s.stack:
        g.push(ResolveTop())
    else:
        g.push(Advance())


def spend_ap(g: Core, p: int, a: Action) -> None:
    """11.3 (11.3.1-11.3.3): spend # (11.1). A game action (11.5) that uses no stack (31.2) and
    completes before any Fast response (15.3.2.2, 15.3.2.2.1); priority is not passed (31.2.1, A55)."""
    s = g.s
    pl = s.players[p]
    if a.kind is Kind.AP_DRAW:
        pl.ap -= 1
        g.emit(APSpent(p, "draw"))
        draw(g, p, 1)
    elif a.kind is Kind.AP_HOST:
        pl.ap -= 1
        sym = symbol(s.objs[pl.host].card.resource)
        g.emit(APSpent(p, "host"))
        gain(g, p, sym, 1)
    else:
        pl.ap -= 2
        res = a.res
        assert res is not None  # ap any names the resource (11.3.3)
        g.emit(APSpent(p, f"any {res.value}"))
        gain(g, p, res.value, 1)
