"""The same game with the opponent's hidden cards drawn again, consistently with one player's
view: the hidden-information tests (tests/test_hidden_info.py, tests/test_agents.py,
tests/test_env_v1_memory.py, tests/test_web.py)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from hostwcg_env.engine import GameState
from hostwcg_env.engine.carddef import CardType
from hostwcg_env.engine.view import hidden_ids


def resample_opponent(s: GameState, viewer: int, rng: random.Random, known_hand: Iterable[str] = (),
                      own_known_top: int | None = None) -> GameState | None:
    """A copy of ``s`` whose opponent's hidden cards are shuffled among themselves, a
    face-down card (an Ambush, 14.3) only ever getting an Ambush: the same view for ``viewer``.

    What ``viewer`` remembers stays (hostwcg_v1's memory): the opponent's hand cards named in
    ``known_hand`` are kept, and with ``own_known_top`` the viewer's own deck is shuffled below
    its top that many cards. None if no draw was found."""
    q = 1 - viewer
    s2 = s.copy()
    keep = Counter(known_hand)
    ids = []
    for o in sorted(hidden_ids(s, viewer)):
        ob = s.objs[o]
        if ob.owner != q or ob.zone == "host":
            continue
        if ob.zone == "hand" and keep[ob.card.name] > 0:
            keep[ob.card.name] -= 1
            continue
        ids.append(o)
    down = [o for o in ids if s.objs[o].face_down and s.objs[o].zone in ("back", "stack", "marker")]
    cards = [s.objs[o].card for o in ids]
    for _ in range(50):
        rng.shuffle(cards)
        new = dict(zip(ids, cards, strict=True))
        if all(new[o].type is CardType.AMBUSH for o in down):
            break
    else:
        return None
    if own_known_top is not None:
        own = s.players[viewer].deck[own_known_top:]
        own_cards = [s.objs[o].card for o in own]
        rng.shuffle(own_cards)
        new.update(zip(own, own_cards, strict=True))
    for o, c in new.items():
        s2.objs[o].card = c
    for it in s2.stack:  # a face-down card being laid: its stack item is that card
        if it.obj in new:
            it.card = new[it.obj]
            it.source_name = it.card.name
    return s2
