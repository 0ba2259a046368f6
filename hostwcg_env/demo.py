"""A seeded game between two agents (random by default), shown turn by turn in the terminal.

``run_demo`` is what ``hostwcg demo`` runs; notebooks can call it too. Each seat plays one of
the eight preconstructed decks, drawn from the seed (``load_decks``), unless decks are named.
The board is drawn from the spectator's view (everything is shown: nobody is playing from
behind it). ``explain_result`` says in words who won and by which rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hostwcg_env.cards.decks import Deck, load_deck, pool_decks, stand_in_decks
from hostwcg_env.cards.loader import default_ruleset
from hostwcg_env.engine import Action, Game, GameState, RuleConfig
from hostwcg_env.engine.events import TurnBegan
from hostwcg_env.engine.stats import host_health
from hostwcg_env.render import render_events, render_text

EVENT_LINES_PER_TURN = 40


class RandomAgent:
    """Uniform over the legal actions, from its own seeded ``random.Random``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


def _agent(name: str, seed: int) -> Callable[[Game], Action]:
    if name == "random":
        return RandomAgent(seed).choose
    from agents import decide, make_agent  # the shipped baselines (agents/)

    agent = make_agent(name, seed=seed)
    return lambda game: decide(agent, game)


def agent_seeds(seed: int) -> tuple[int, int]:
    """The two agents' seeds for a game seed: distinct from it and from each other."""
    return 2 * seed + 1, 2 * seed + 2


def explain_result(s: GameState) -> str:
    """``"A wins: B's hand was empty when their Host took damage (rule 1.1.3)"``."""
    if not s.over:
        return "the game is not over"
    if s.winner is None:
        if s.reason == "turn_limit":
            return (f"draw: the game was stopped at the turn limit ({s.config.turn_limit} turns "
                    f"played; RuleConfig.turn_limit)")
        if s.reason == "decision_limit":
            return (f"draw: the game was stopped after {s.config.max_decisions_per_turn} decisions "
                    f"in one turn (RuleConfig.max_decisions_per_turn, A52c)")
        return ("draw: both players met a loss condition in the same event "
                "(rules 1.1 and 35.3.4, ruling A06 of docs/rulings.md)")
    w, loser = "AB"[s.winner], 1 - s.winner
    L = "AB"[loser]
    why = {
        "damage_zone": (f"{L}'s damage zone reached their Host's health "
                        f"({len(s.players[loser].damage)} cards, health "
                        f"{_health(s, loser)}) (rule 1.1.1)"),
        "deck_out": f"{L} had 0 cards left in their deck (rule 1.1.2)",
        "empty_hand": f"{L}'s hand was empty when their Host took damage (rule 1.1.3)",
        "concede": f"{L} conceded (rule 35.3.5)",
    }.get(s.reason, f"{L} lost ({s.reason})")
    return f"{w} wins: {why}"


def _health(s: GameState, p: int) -> str:
    try:
        return str(host_health(s, p))
    except (KeyError, IndexError):
        return "?"


def load_decks(names: Sequence[str | Path] | str | None = None, seed: int = 0) -> tuple[Deck, Deck]:
    """The decks of seats A and B: two decks named as ``hostwcg_env.cards.deck_path`` reads
    them (``karsh``, ``karsh_ember_tide``, a path); one (seat A's; seat B's is drawn);
    ``"test"`` (the two stand-in test decks); or none: each seat's deck drawn from the eight
    preconstructed decks, from the seed (the same seed, the same decks)."""
    if isinstance(names, str | Path):
        names = [names]
    names = list(names or [])
    if names == ["test"]:
        return stand_in_decks()
    if len(names) > 2:
        raise ValueError(f"give at most two decks (one per seat), got {len(names)}")
    rng = random.Random(f"hostwcg decks {seed}")
    pool = list(pool_decks().values())
    drawn = [rng.choice(pool), rng.choice(pool)]
    picked = [load_deck(n) for n in names] + drawn[len(names):]
    return picked[0], picked[1]


def run_demo(
    seed: int = 0,
    decks: Sequence[str | Path] | str | None = None,
    quiet: bool = False,
    color: bool = False,
    out: Callable[[str], Any] = print,
    config: RuleConfig | None = None,
    max_event_lines: int = EVENT_LINES_PER_TURN,
    agents: Sequence[str] = ("random", "random"),
) -> Game:
    """Play one seeded game between two agents (names from ``agents.make_agent``; the default
    is two random agents) and print it; returns the finished game. ``decks``: see
    ``load_decks`` (default: each seat's deck drawn from the preconstructed decks by the seed)."""
    deck_a, deck_b = load_decks(decks, seed)
    game = default_ruleset(config or RuleConfig()).new_game(deck_a, deck_b, seed=seed)
    players = [_agent(name, s) for name, s in zip(agents, agent_seeds(seed), strict=False)]
    show = _Printer(game, out, color, max_event_lines) if not quiet else None
    if show:
        out(f"A: {deck_a.name} ({deck_a.host}, {agents[0]})  vs  B: {deck_b.name} ({deck_b.host}, "
            f"{agents[1]})  | seed {seed}")
    while not game.is_over:
        if show:
            show.at_decision()
        game.apply(players[game.decision.player](game))  # type: ignore[union-attr]
    if show:
        show.finish()
    s = game.state
    out(f"Result: {explain_result(s)}")
    out(f"        after {s.turn} turns and {s.decisions_total} decisions")
    return game


class _Printer:
    """Prints a game as it goes: each turn's opening events, its board, then the rest."""

    def __init__(self, game: Game, out: Callable[[str], Any], color: bool, cap: int) -> None:
        self.game = game
        self.out = out
        self.color = color
        self.cap = cap
        self.done = 0  # events already printed
        self.turn = -1 if not game.state.started else game.state.turn
        self.phase = ""  # the phase of the events not printed yet, until the next PhaseBegan

    def events(self, upto: int, label: str = "") -> None:
        events = self.game.events[self.done:upto]
        self.done = upto
        if label:
            self.out(label)
        body = render_events(events, color=self.color, compact=True, max_lines=self.cap,
                             phase=self.phase)
        if body:
            self.out(body)

    def at_decision(self) -> None:
        s = self.game.state
        if not s.started or s.turn == self.turn:
            return
        began = self._turn_began(s.turn)
        if self.turn <= 0:
            self.events(began, "Setup:")
        else:
            self.events(began)
        self.turn = s.turn
        self.phase = ""
        self.out("")
        self.out(f"=== Turn {s.turn}: {'AB'[s.tp]} ===")
        self.events(len(self.game.events))
        self.out(render_text(self.game, None, color=self.color))
        self.phase = s.phase

    def _turn_began(self, turn: int) -> int:
        evs = self.game.events
        for i in range(len(evs) - 1, self.done - 1, -1):
            e = evs[i]
            if isinstance(e, TurnBegan) and e.turn == turn:
                return i
        return self.done

    def finish(self) -> None:
        self.events(len(self.game.events))
        self.out("")
        self.out(render_text(self.game, None, color=self.color))
