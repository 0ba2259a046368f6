"""Card ids and the static card table of hostwcg_v1.

Every card row, history entry and action of a v1 observation names its card by an integer
``card_id``: an index into ``CARD_NAMES`` (``card_index.py``, append-only) shifted by the
reserved ids below. What a card *is* (its type, resource, cost, stats, keywords, abilities and
effect tags: v0's 85 card features, then ``V1_CARD_EXTRA``, the card vocabulary added since v0's
layout was fixed) is the same whatever the state, so it is not repeated in every observation:
``card_table()`` gives it once, one row per id, for a policy to look up (``card_table()[card_id]``).
The user's own cards (card files added to the pool, ``sync_index``) get ids after the shipped ones.
Card rows carry the card's type, cost and printed stats beside its state, so a card outside the
index (``OTHER``) is still described there.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from hostwcg_env.engine import CardDef
from hostwcg_env.engine.carddef import Selector

from ..observation import CARD_FEATURES, PRIMS, card_vector
from .card_index import CARD_NAMES

NONE = 0  # no card: an empty row or slot, an action that names no card
UNKNOWN = 1  # a card whose identity the viewer may not know (an opponent's hidden card)
FACE_DOWN = 2  # a face-down card of the opponent (6.2)
OTHER = 3  # a card the index does not name (a custom card)
RESERVED = ("none", "unknown", "face-down", "other")
FIRST_CARD = len(RESERVED)  # the id of CARD_NAMES[0]

_IDS: dict[str, int] = {name: FIRST_CARD + i for i, name in enumerate(CARD_NAMES)}
N_CARD_IDS = FIRST_CARD + len(CARD_NAMES)  # the shipped index's ids: 0 .. N_CARD_IDS - 1

# The index extended with the user's cards (the card files HOSTWCG_CARDS adds to the pool,
# docs/cards.md "Your own cards"): the names outside CARD_NAMES get ids from N_CARD_IDS on, in
# name order, so no shipped card's id moves. ``sync_index`` rebuilds it when the files change.
_EXTRA: list[str] = []
_SYNCED: list[tuple[str, ...]] = [()]  # the HOSTWCG_CARDS files _EXTRA was built for


def sync_index() -> int:
    """Extend the index with the cards the default pool adds to the shipped ones (none unless
    ``HOSTWCG_CARDS`` names card files), and return the number of ids (:func:`n_card_ids`). The
    env's encoder and observation space call it when they are made."""
    from hostwcg_env.cards.loader import extra_card_files

    files = extra_card_files()
    if files != _SYNCED[0]:
        from hostwcg_env.cards import default_pool

        for name in _EXTRA:
            del _IDS[name]
        _EXTRA[:] = sorted(n for n in default_pool() if n not in _IDS) if files else []
        for i, name in enumerate(_EXTRA):
            _IDS[name] = N_CARD_IDS + i
        _SYNCED[0] = files
    return N_CARD_IDS + len(_EXTRA)


def n_card_ids() -> int:
    """How many ids the index has now: ``N_CARD_IDS`` and one for each of the user's cards."""
    return N_CARD_IDS + len(_EXTRA)


def index_files() -> tuple[str, ...]:
    """The card files the index was last extended for (``sync_index``): it changes when the index does."""
    return _SYNCED[0]


def extra_card_names() -> tuple[str, ...]:
    """The user's cards in the index (brought up to date: ``sync_index``), in id order (ids
    ``N_CARD_IDS`` on): what a trained network records to find its card embeddings again
    (``agents.set_policy``)."""
    sync_index()
    return tuple(_EXTRA)


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
    if cid >= N_CARD_IDS:
        return _EXTRA[cid - N_CARD_IDS]
    return CARD_NAMES[cid - FIRST_CARD]


# The card features v0's layout has no column for, appended to v1's card table (append-only,
# like the card index: a column never moves). Every primitive is a v0 ``does:`` column or one
# of these (tests/test_env_v1.py).
V1_CARD_EXTRA_DOC: tuple[tuple[str, str], ...] = (
    ("does:put_into_play", "puts an Entity card from a drop or banished zone into play"),
    ("does:gain_ap", "gives action points"),
    ("if:count", "a conditional step on how many objects or cards a selector names"),
    ("if:stat", "a conditional step on a stat of a target, the card itself or a Host"),
    ("if:keyword", "a conditional step on a keyword (granted ones too)"),
    ("if:zone", "a conditional step on how many cards a zone holds (hand size, ...)"),
    ("if:previous", "a conditional step on whether the step before happened"),
    ("selects:keyword", "a selector that filters on a keyword"),
    ("selects:zone", "a selector that names cards in a drop or banished zone"),
)
V1_CARD_EXTRA: tuple[str, ...] = tuple(name for name, _ in V1_CARD_EXTRA_DOC)
V1_CARD_FEATURES: tuple[str, ...] = (*CARD_FEATURES, *V1_CARD_EXTRA)
_EXTRA_COL = {name: i for i, name in enumerate(V1_CARD_EXTRA)}
assert not {p for p in PRIMS} & {n[5:] for n in V1_CARD_EXTRA if n.startswith("does:")}


def _selectors(card: CardDef) -> list[Selector]:
    out: list[Selector] = []
    for ab in card.abilities:
        out += [sel for _n, sel in ab.targets]
        if isinstance(ab.affects, Selector):
            out.append(ab.affects)
        if ab.when is not None and isinstance(ab.when.subject, Selector):
            out.append(ab.when.subject)
        for st in ab.steps:
            if st.to is not None:
                out += [x for x in (st.to.all, st.to.choose) if x is not None]
            out += [c.selector for c in st.cond if c.selector is not None]
    return out


def v1_card_vector(card: CardDef) -> np.ndarray:
    """A row of v1's card table: v0's card features, then ``V1_CARD_EXTRA`` (0/1 flags)."""
    extra = np.zeros(len(V1_CARD_EXTRA), dtype=np.float32)
    for ab in card.abilities:
        for st in ab.steps:
            col = _EXTRA_COL.get(f"does:{st.do}")
            if col is not None:
                extra[col] = 1
            for c in st.cond:
                extra[_EXTRA_COL[f"if:{c.kind}"]] = 1
    for sel in _selectors(card):
        if sel.keyword is not None:
            extra[_EXTRA_COL["selects:keyword"]] = 1
        if sel.zone is not None:
            extra[_EXTRA_COL["selects:zone"]] = 1
    return np.concatenate([card_vector(card), extra])


def card_table(registry: tuple[tuple[str, CardDef], ...] | None = None) -> np.ndarray:
    """``(n_card_ids(), len(V1_CARD_FEATURES))`` float32: row ``card_id`` is the card's static
    features (v0's card features, docs/observation.md, then ``V1_CARD_EXTRA``); the reserved
    rows are zeros. Built from the default card pool (the user's cards too, ``sync_index``)
    unless ``registry`` (name, card) pairs are given."""
    from hostwcg_env.cards.loader import extra_card_files

    sync_index()
    return _card_table(registry, extra_card_files())


@cache
def _card_table(registry: tuple[tuple[str, CardDef], ...] | None, _files: tuple[str, ...]) -> np.ndarray:
    if registry is None:
        from hostwcg_env.cards import default_pool

        reg = default_pool()
    else:
        reg = dict(registry)
    table = np.zeros((n_card_ids(), len(V1_CARD_FEATURES)), dtype=np.float32)
    for name, i in _IDS.items():
        card = reg.get(name)
        if card is not None:
            table[i] = v1_card_vector(card)
    table.setflags(write=False)
    return table


__all__ = ["CARD_FEATURES", "CARD_NAMES", "V1_CARD_EXTRA", "V1_CARD_EXTRA_DOC", "V1_CARD_FEATURES",
           "v1_card_vector", "FACE_DOWN", "FIRST_CARD", "NONE", "N_CARD_IDS", "OTHER", "RESERVED", "UNKNOWN",
           "card_id", "card_name", "card_table", "extra_card_names", "index_files", "n_card_ids", "sync_index"]
