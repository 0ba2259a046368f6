"""The same game with the opponent's hidden cards drawn again, consistently with one player's
view: the hidden-information tests (tests/test_hidden_info.py, tests/test_agents.py)."""

from __future__ import annotations

import random

from hostwcg_env.engine import GameState
from hostwcg_env.engine.carddef import CardType
from hostwcg_env.engine.view import hidden_ids


def resample_opponent(s: GameState, viewer: int, rng: random.Random) -> GameState | None:
    """A copy of ``s`` whose opponent's hidden cards are shuffled among themselves, a
    face-down card (an Ambush, 14.3) only ever getting an Ambush: the same view for ``viewer``."""
    q = 1 - viewer
    s2 = s.copy()
    ids = sorted(o for o in hidden_ids(s, viewer) if s.objs[o].owner == q and s.objs[o].zone != "host")
    down = [o for o in ids if s.objs[o].face_down and s.objs[o].zone in ("back", "stack", "marker")]
    cards = [s.objs[o].card for o in ids]
    for _ in range(50):
        rng.shuffle(cards)
        new = dict(zip(ids, cards, strict=True))
        if all(new[o].type is CardType.AMBUSH for o in down):
            break
    else:
        return None
    for o, c in new.items():
        s2.objs[o].card = c
    for it in s2.stack:  # a face-down card being laid: its stack item is that card
        if it.obj in new:
            it.card = new[it.obj]
            it.source_name = it.card.name
    return s2
