"""Play a game against an agent in the terminal (``hostwcg play --vs heuristic``).

The board is drawn from the human's side only (their PlayerView); every legal action is
listed in the text notation (docs/scenarios.md); a mistake gets the rule-citing message of
IllegalActionError and nothing changes; there is no undo.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from hostwcg_env.demo import _agent, explain_result, load_decks
from hostwcg_env.engine import Game, IllegalActionError, RuleConfig
from hostwcg_env.render import render_text


def play_terminal(vs: str = "heuristic", seat: int = 0, seed: int = 0,
                  decks: Sequence[str | Path] | None = None,
                  read: Callable[[str], str] = input, out: Callable[[str], object] = print) -> int:
    deck_a, deck_b = load_decks(decks, seed)
    game = Game.new(deck_a, deck_b, config=RuleConfig(), seed=seed)
    opponent = _agent(vs, seed + 1)
    me = "AB"[seat]
    out(f"You are {me} ({(deck_a, deck_b)[seat].name}) against {vs}. Type an action, 'help' or 'concede'.")
    shown_turn = -1
    while not game.is_over:
        d = game.decision
        assert d is not None
        if d.player != seat:
            game.apply(opponent(game))
            continue
        if game.state.turn != shown_turn or d.kind.value != "priority":
            out(render_text(game, seat))
            shown_turn = game.state.turn
        out(f"{d.kind.value}: {d.prompt}" if d.prompt else d.kind.value)
        out("legal: " + " | ".join(str(a) for a in d.actions))
        try:
            line = read(f"{me}> ").strip()
        except EOFError:
            out("input closed: conceding")
            game.concede(seat)
            break
        if not line:
            continue
        if line in ("help", "?"):
            out("Actions use the notation of docs/scenarios.md; a card name may replace an index: "
                "'play Squire', 'target B:Squire'. 'board' redraws the board; 'concede' ends the game.")
            continue
        if line == "board":
            out(render_text(game, seat))
            continue
        if line == "concede":
            game.concede(seat)
            break
        try:
            game.apply_text(f"{me} {line}")
        except (IllegalActionError, ValueError) as e:
            out(f"not allowed: {e}")
    out(render_text(game, seat))
    out(f"Result: {explain_result(game.state)}")
    return 0


if __name__ == "__main__":
    sys.exit(play_terminal())
