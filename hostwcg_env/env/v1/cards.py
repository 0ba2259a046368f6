"""Card ids and the static card table of hostwcg_v1.

Every card row, history entry and action of a v1 observation names its card by an integer
``card_id``: an index into ``CARD_NAMES`` (``card_index.py``, append-only) shifted by the
reserved ids below. What a card *is* (its type, resource, cost, stats, keywords, abilities and
effect tags: v0's 85 card features) is the same whatever the state, so it is not repeated in
every observation: ``card_table()`` gives it once, one row per id, for a policy to look up
(``card_table()[card_id]``). Card rows carry the card's type, cost and printed stats beside
its state, so a card outside the index (``OTHER``) is still described there.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from hostwcg_env.engine import CardDef

from ..observation import CARD_FEATURES, card_vector
from .card_index import CARD_NAMES

NONE = 0  # no card: an empty row or slot, an action that names no card
UNKNOWN = 1  # a card whose identity the viewer may not know (an opponent's hidden card)
FACE_DOWN = 2  # a face-down card of the opponent (6.2)
OTHER = 3  # a card the index does not name (a custom card)
RESERVED = ("none", "unknown", "face-down", "other")
FIRST_CARD = len(RESERVED)  # the id of CARD_NAMES[0]

_IDS: dict[str, int] = {name: FIRST_CARD + i for i, name in enumerate(CARD_NAMES)}
N_CARD_IDS = FIRST_CARD + len(CARD_NAMES)  # ids are 0 .. N_CARD_IDS - 1


def card_id(name: str) -> int:
    """The id of a card name: its index, ``OTHER`` for a name outside the index, ``FACE_DOWN``
    for ``"?"`` (the name PlayerView and event texts give a card the viewer may not see)."""
    i = _IDS.get(name)
    if i is not None:
        return i
    return FACE_DOWN if name == "?" else OTHER


def card_name(cid: int) -> str:
    """The name of an id (the reserved ids by their meaning in angle brackets)."""
    if 0 <= cid < FIRST_CARD:
        return f"<{RESERVED[cid]}>"
    return CARD_NAMES[cid - FIRST_CARD]


@cache
def card_table(registry: tuple[tuple[str, CardDef], ...] | None = None) -> np.ndarray:
    """``(N_CARD_IDS, len(CARD_FEATURES))`` float32: row ``card_id`` is the card's static
    features (v0's card features, docs/observation.md); the reserved rows are zeros. Built
    from the default card pool unless ``registry`` (name, card) pairs are given."""
    if registry is None:
        from hostwcg_env.cards import default_pool

        reg = default_pool()
    else:
        reg = dict(registry)
    table = np.zeros((N_CARD_IDS, len(CARD_FEATURES)), dtype=np.float32)
    for name, i in _IDS.items():
        card = reg.get(name)
        if card is not None:
            table[i] = card_vector(card)
    table.setflags(write=False)
    return table


__all__ = ["CARD_FEATURES", "CARD_NAMES", "FACE_DOWN", "FIRST_CARD", "NONE", "N_CARD_IDS", "OTHER",
           "RESERVED", "UNKNOWN", "card_id", "card_name", "card_table"]
