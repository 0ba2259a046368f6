"""One way to play a seeded game: a :class:`GameSpec` in, a game record out.

    from hostwcg_env.analysis.runner import GameSpec, play
    spec = GameSpec(deck_a, deck_b, seed=7, agents=("heuristic", "random"))
    played = play(spec)              # played.game: the finished Game; played.record: its record

Every game of the project is played here: the ladder (``ladder.py``), balance studies
(``simulate.py``), the random self-play statistics (``selfplay.py``), the engine fuzz
(tests/test_fuzz.py) and replays (``replay.py``, which plays a record's actions as a script).

A spec fixes the decks (in order: the game shuffles the list as given), the seed, the rule
overrides and the agents by name, each seeded with ``2 * seed + seat``; so a game is a pure
function of its spec, whatever the process, the machine or the number of workers. With
``ask_forced=False`` (the ladder) a decision with one legal action is taken without asking
the agent; with ``True`` (balance, self-play) the agent is asked every time, which matters
for agents that draw a random number even then. Either way only decisions with two or more
legal actions, *choices*, are timed and counted per seat.

Instead of named agents, ``players`` may give the two players as objects: an agent
(``choose(view, actions)`` or ``act(observation, mask)``, asked as above) or a *driver*, an
object with ``next_action(game)`` that is asked for every action and sees the whole game (a
script of recorded actions, the fuzz's seeded random walk: never an agent, which sees only its
own view). The same object may play both seats. A :class:`Visitor` watches the game: its
``start`` runs on the new game, ``before`` and ``after`` around every action (invariant checks,
observers, demonstrations), ``end`` on the finished game.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, Protocol, TypeAlias, cast

from hostwcg_env.engine import ENGINE_EPOCH
from hostwcg_env.engine.events import Draw, GameStarted, WouldPlay

from .records import (
    RECORD_VERSION,
    CardsJSON,
    DeckRef,
    Record,
    RuleValue,
    code_version,
    game_key,
    pool_hash,
)

if TYPE_CHECKING:
    from agents.base import Agent
    from hostwcg_env.engine import Action, Game, Ruleset

Rules = tuple[tuple[str, RuleValue], ...]  # rule overrides as (flag, value) pairs, hashable


class Driver(Protocol):
    """A player that takes the game itself and returns its next action (``selfplay.py``)."""

    def next_action(self, game: Game) -> Action: ...


Player: TypeAlias = "Agent | Driver"  # what ``play`` seats: a named agent's object or a driver


@dataclass(frozen=True)
class GameSpec:
    """One game: decks by seat, seed, agents by seat, rule overrides, label and place."""

    deck_a: DeckRef
    deck_b: DeckRef
    seed: int
    agents: tuple[str, str] = ("random", "random")
    rules: Rules = ()
    label: str = ""  # the configuration's name in a comparison ("A"/"B"), else ""
    index: int = 0  # position in its schedule
    ask_forced: bool = True  # ask the agents on decisions with one legal action too
    patches: tuple[str, ...] = ()  # card patches (analysis/patches.py) applied to the shipped pool

    @property
    def key(self) -> str:
        return game_key(self.deck_a.id, self.deck_b.id, self.seed)

    @property
    def agent_seeds(self) -> tuple[int, int]:
        return 2 * self.seed, 2 * self.seed + 1

    @property
    def rules_dict(self) -> dict[str, RuleValue]:
        return dict(self.rules)


class Visitor:
    """Watches a game as the runner plays it; every method is optional (these do nothing).
    ``i`` is the 0-based number of the action; in ``before`` the decision it answers is still
    ``game.decision``."""

    def start(self, game: Game) -> None:
        """The new game, before its first action."""

    def before(self, game: Game, i: int, action: Action) -> None:
        """Action ``i`` has been chosen and is about to be applied."""

    def after(self, game: Game, i: int, action: Action) -> None:
        """Action ``i`` has been applied."""

    def end(self, game: Game) -> None:
        """The game is over."""


class Played(NamedTuple):
    game: Game  # the finished Game
    record: Record  # its record (records.py)


def _ruleset(rules: Rules, patches: tuple[str, ...] = ()) -> Ruleset:
    """The default card pool (with the spec's card patches) under its rule flags (one Ruleset per
    set of overrides and of the user's card files, ``HOSTWCG_CARDS``)."""
    from hostwcg_env.cards.loader import extra_card_files

    return _ruleset_of(rules, patches, extra_card_files())


@cache
def _ruleset_of(rules: Rules, patches: tuple[str, ...], _cards: tuple[str, ...]) -> Ruleset:
    from hostwcg_env.cards import default_ruleset
    from hostwcg_env.engine import RuleConfig, Ruleset

    config = RuleConfig().with_overrides(dict(rules))
    if patches:
        from .patches import patched_pool

        return Ruleset(config, patched_pool(patches))
    return default_ruleset(config)


def new_game(spec: GameSpec) -> Game:
    """The spec's game before its first action."""
    return _ruleset(spec.rules, spec.patches).new_game(spec.deck_a.pair, spec.deck_b.pair, seed=spec.seed)


def make_players(spec: GameSpec) -> list[Agent]:
    """The spec's agents, by name, each with its seed (``agents.make_agent``)."""
    from agents import make_agent

    return [make_agent(spec.agents[p], seed=spec.agent_seeds[p]) for p in (0, 1)]


_ROUND_TRIPPED: set[Action] = set()


def _text(action: Action) -> str:
    """The action's text notation, checked once per distinct action to parse back to it (the
    notation contract, engine/actions.py: a record's actions must replay exactly)."""
    text = str(action)
    if action not in _ROUND_TRIPPED:
        from hostwcg_env.engine import Action

        if Action.parse(text) != action:
            raise RuntimeError(f"action {action!r} does not round-trip through its text {text!r}")
        _ROUND_TRIPPED.add(action)
    return text


def play(spec: GameSpec, visit: Visitor | None = None, players: Sequence[Player] | None = None) -> Played:
    """Play ``spec`` to its end; the finished game and its record. ``players``: the two
    players as objects instead of the spec's named agents (module docstring)."""
    from agents import Observer, decide
    from hostwcg_env.engine.actions import DecisionKind, Kind

    t0 = time.perf_counter()
    game = new_game(spec)
    seats = list(players) if players is not None else make_players(spec)
    if len(seats) != 2:
        raise ValueError(f"a game has two players, not {len(seats)}")
    drivers = [hasattr(p, "next_action") for p in seats]
    flat = any(not d and not hasattr(p, "choose") for p, d in zip(seats, drivers, strict=True))
    observer = Observer(game.state.config) if flat else None  # one per game: incremental encoding
    spent = [0.0, 0.0]
    choices = [0, 0]
    actions: list[str] = []
    put_back: list[list[str]] = [[], []]
    s = game.state
    if visit is not None:
        visit.start(game)
    i = 0
    while not game.is_over:
        d = game.decision
        assert d is not None
        p = d.player
        choice = len(d.actions) > 1
        t = time.perf_counter()
        if drivers[p]:
            a = cast("Driver", seats[p]).next_action(game)
        elif choice or spec.ask_forced:
            a = decide(seats[p], game, observer)
        else:
            a = d.actions[0]  # a forced action, taken without asking
        if choice:
            spent[p] += time.perf_counter() - t
            choices[p] += 1
        text = _text(a)
        if d.kind is DecisionKind.MULLIGAN and a.kind is Kind.CARD:
            put_back[p].append(s.objs[s.players[p].hand[a.src.index]].name)
        if visit is not None:
            visit.before(game, i, a)
        game.apply(a)
        actions.append(text)
        if visit is not None:
            visit.after(game, i, a)
        i += 1
    if visit is not None:
        visit.end(game)
    record = cast(Record, {  # (a literal with a ** entry is not checked as a TypedDict)
        "v": RECORD_VERSION,
        "key": spec.key,
        "label": spec.label,
        "seed": spec.seed,
        "decks": [spec.deck_a.to_json(), spec.deck_b.to_json()],
        "rules": spec.rules_dict,
        **({"patches": list(spec.patches)} if spec.patches else {}),  # (where a record's file has it)
        "agents": list(spec.agents),
        "agent_seeds": list(spec.agent_seeds),
        "ask_forced": spec.ask_forced,
        "actions": actions,
        "winner": s.winner,
        "reason": s.reason,
        "truncated": bool(s.truncated),
        "turns": s.turn,
        "decisions": s.decisions_total,
        "first_player": s.first_player,
        "cards": card_summary(game, put_back),
        "seats": [[round(spent[q], 4), choices[q]] for q in (0, 1)],
        "version": code_version(),
        "epoch": ENGINE_EPOCH,
        "pool": pool_hash(),
        "ms": round(1000 * (time.perf_counter() - t0)),
    })
    return Played(game, record)


def run_game(spec: GameSpec) -> Record:
    """Play ``spec`` with its named agents; its record (what the backends map over specs)."""
    return play(spec).record


def card_summary(game: Game, put_back: Sequence[Sequence[str]]) -> list[CardsJSON]:
    """Per seat: the opening hand (after the mulligan), cards drawn later, cards played."""
    before: list[Counter[str]] = [Counter(), Counter()]
    drawn: list[set[str]] = [set(), set()]
    played: list[set[str]] = [set(), set()]
    started = False
    for ev in game.events:
        if isinstance(ev, Draw) and ev.card is not None:
            if started:
                drawn[ev.player].add(ev.card)
            else:
                before[ev.player][ev.card] += 1
        elif isinstance(ev, WouldPlay):
            played[ev.player].add(ev.name)
        elif isinstance(ev, GameStarted):
            started = True
    out: list[CardsJSON] = []
    for p in (0, 1):
        opening = before[p] - Counter(put_back[p])
        out.append({"opening": sorted(opening.elements()), "drawn": sorted(drawn[p]),
                    "played": sorted(played[p])})
    return out
