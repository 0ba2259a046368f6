"""Opponents at a chosen strength: ``make_agent("level:1")`` (the weakest) to ``"level:5"``
(the strongest), for a game that offers its players a difficulty setting (``docs/levels.md``).

Each level is weaker than the next by skill, never by random noise: it plays the same
deterministic strategy every time, with fewer of the skills that win games. None of them
makes a move the blunder audit calls clear (``hostwcg audit``: no harmful effect on its own
objects, no helpful one on the opponent's): the weaker levels are the heuristic
(``agents/heuristic.py``) with some of its skills left out, the stronger ones the searches
and the learned policy, each with its guard (``agents/sensible.py``).

=====  ==========  ===================================================================
level  name        what it is
=====  ==========  ===================================================================
1      beginner    the heuristic without its battle sense (it attacks only an
                   unblocked Host), without its curve (it plays its cheapest card first
                   and never saves action points for its best one), without its card
                   draws (it draws only into an empty hand), without its answers on the
                   opponent's turn and without a mulligan
2      casual      the heuristic without its battle sense: it attacks only an unblocked
                   Host, never an Entity
3      club        the heuristic (``heuristic``)
4      expert      the lookahead that keeps the heuristic's choice unless another action
                   scores better by more than 0.1 (``lookahead:margin=0.1``)
5      master      the learned set policy, its likeliest actions checked by rollouts to
                   the end of the turn (``ppo_v1:look:turns=1``)
=====  ==========  ===================================================================

Their ratings on the ladder, and how they were measured: ``docs/levels.md``. Levels 1 to 3
take about 0.1 ms a choice; levels 4 and 5 run searches, 1.6 to 6.3 and 3.8 to 7.3 ms a choice
on the 2-core development machine depending on its load.
"""

from __future__ import annotations

from dataclasses import dataclass

from hostwcg_env.engine import Action, CardType, Kind
from hostwcg_env.engine.actions import PASS
from hostwcg_env.engine.view import PlayerView

from .heuristic import STALL_TURN, HeuristicAgent, _entities, card_value


@dataclass(frozen=True)
class Level:
    name: str
    agent: str  # the agent it is: a make_agent name, or "heuristic" with skills left out
    fights: bool = True  # attacks Entities it kills (agents/heuristic.py "Battle")
    curve: bool = True  # saves action points for its best card and plays the most expensive first
    answers: bool = True  # Fast removal on an attacker, on the opponent's turn
    mulligan: bool = True  # sends back expensive opening cards
    draws: bool = True  # spends left-over action points on drawing while its hand is small (not only when empty)


LEVELS: dict[int, Level] = {
    1: Level("beginner", "heuristic", fights=False, curve=False, answers=False, mulligan=False, draws=False),
    2: Level("casual", "heuristic", fights=False),
    3: Level("club", "heuristic"),
    4: Level("expert", "lookahead:margin=0.1"),
    5: Level("master", "ppo_v1:look:turns=1"),
}


class SkilledHeuristic(HeuristicAgent):
    """The heuristic with some of its skills left out (``Level``'s flags); what it keeps, it
    plays exactly as the heuristic does (its targets too, so no clear blunder)."""

    def __init__(self, seed: int | None = None, level: Level = LEVELS[3], name: str = "heuristic") -> None:
        super().__init__(seed)
        self.level = level
        self.name = name

    def _mulligan(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        return super()._mulligan(view, actions) if self.level.mulligan else PASS

    def _respond(self, view: PlayerView, by_kind: dict[Kind, list[Action]]) -> Action:
        return super()._respond(view, by_kind) if self.level.answers else PASS

    def _best_attack(self, view: PlayerView, attacks: list[Action]) -> Action | None:
        if self.level.fights or view.turn >= STALL_TURN:  # a stalled board: the heuristic's attacks
            return super()._best_attack(view, attacks)
        if any(not view.has_keyword(o, "cannot_block") for o in _entities(view, view.opponent)):
            return None  # a blocker stands: no attack
        return attacks[0] if attacks else None

    def _priority(self, view: PlayerView, actions: tuple[Action, ...]) -> Action:
        own = view.turn_player == view.player
        if own and not self.level.draws and view.count(view.player, "hand"):
            # left-over action points gain its Host's type instead; it still draws into an
            # empty hand (an empty hand loses to the next Host damage, 1.1.3)
            actions = tuple(a for a in actions if a.kind is not Kind.AP_DRAW)
        if self.level.curve or not own or any(a.kind is Kind.ATTACK for a in actions):
            return super()._priority(view, actions)
        hand = view.hand()
        plays = [a for a in actions if a.kind is Kind.PLAY and self._worth_playing(view, a)
                 and not (hand[a.src.index].card.is_fast and view.turn < STALL_TURN)]
        if plays:  # the cheapest worthwhile card, permanents first
            def rank(a: Action) -> tuple[int, float]:
                c = hand[a.src.index].card
                return ({CardType.ENTITY: 0, CardType.FORM: 0}.get(c.type, 1), card_value(c))
            return min(plays, key=rank)
        # no card to play: no action point spent on a type its best card lacks (Kind.AP_ANY)
        return super()._priority(view, tuple(a for a in actions if a.kind is not Kind.AP_ANY))


def known_levels() -> str:
    """``level:1 (beginner), level:2 (casual), ...``: the levels, for messages."""
    return ", ".join(f"level:{n} ({lv.name})" for n, lv in LEVELS.items())


def level_of(spec: str) -> Level:
    """The level a ``level:N`` argument (``N``, 1 to 5, or its name) names; anything else is a
    ValueError naming the levels."""
    text = spec.strip().lower()
    for n, lv in LEVELS.items():
        if text in (str(n), lv.name):
            return lv
    raise ValueError(f"no such level (known: {known_levels()})")


__all__ = ["LEVELS", "Level", "SkilledHeuristic", "known_levels", "level_of"]
