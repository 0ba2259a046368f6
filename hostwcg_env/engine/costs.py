"""Costs and payment (12, 14.2, 17.2.1, 27.4).

A typed resource pays its own symbol or a generic one; a generic resource pays only generic
(12.3, 12.4). A payment assigns a pool resource to each generic symbol, generic first (12.5.1,
A23); typed symbols are paid by their own type. A pool maps resource symbols (``"&"``) to
counts.
"""

from __future__ import annotations

from typing import Final

from .carddef import TYPED, Res

Cost = tuple[Res, ...]
_GENERIC_FIRST: Final = ("$", *(r.value for r in TYPED))  # the order generic options are offered
_SYMBOL: Final[dict[Res, str]] = {r: r.value for r in Res}


def symbol(r: Res) -> str:
    """The pool key of a resource type (its symbol as a plain string)."""
    return _SYMBOL[r]


def typed_need(cost: Cost) -> dict[str, int]:
    """How many of each typed symbol a cost has."""
    need: dict[str, int] = {}
    for r in cost:
        if r is not Res.GENERIC:
            sym = _SYMBOL[r]
            need[sym] = need.get(sym, 0) + 1
    return need


def generic_count(cost: Cost) -> int:
    return sum(1 for r in cost if r is Res.GENERIC)


_SPLITS: Final[dict[Cost, tuple[list[tuple[str, int]], int]]] = {}


def _split(cost: Cost) -> tuple[list[tuple[str, int]], int]:
    """(typed symbols with counts, total) of a cost; costs are few and hashable (cached)."""
    hit = _SPLITS.get(cost)
    if hit is None:
        hit = _SPLITS[cost] = (list(typed_need(cost).items()), len(cost))
    return hit


def can_pay(pool: dict[str, int], cost: Cost) -> bool:
    """Can ``pool`` pay ``cost``? Typed symbols need their own type; whatever is left over, of
    any type, may pay the generic symbols (12.3.1)."""
    if not cost:
        return True
    need, total = _split(cost)
    for sym, n in need:
        if pool.get(sym, 0) < n:
            return False
    return sum(pool.values()) >= total  # typed needs met: the rest pays the generic symbols


def generic_options(pool: dict[str, int], cost: Cost) -> list[str]:
    """Pool symbols that may pay the next generic symbol and still leave the rest payable:
    ``$`` or any typed resource (12.3.1)."""
    out = []
    for sym in _GENERIC_FIRST:
        if pool.get(sym, 0) <= 0:
            continue
        rest = dict(pool)
        rest[sym] -= 1
        remaining = list(cost)
        remaining.remove(Res.GENERIC)
        if can_pay(rest, tuple(remaining)):
            out.append(sym)
    return out


def auto_choice(pool: dict[str, int], cost: Cost, own: str) -> str:
    """The canonical generic payment (S095): ``$`` first, then off-type surplus, then any."""
    opts = generic_options(pool, cost)
    if "$" in opts:
        return "$"
    need = typed_need(cost)
    off = [o for o in opts if o != own]
    pick_from = off or opts
    best = pick_from[0]
    best_key = (pool.get(best, 0) - need.get(best, 0), -"&£!%".find(best))
    for sym in pick_from[1:]:  # the first of the largest, as max() would choose
        key = (pool.get(sym, 0) - need.get(sym, 0), -"&£!%".find(sym))
        if key > best_key:
            best, best_key = sym, key
    return best


def pay_typed(pool: dict[str, int], cost: Cost) -> None:
    for sym, n in typed_need(cost).items():
        pool[sym] -= n
        if pool[sym] == 0:
            del pool[sym]


def spend(pool: dict[str, int], sym: str) -> None:
    pool[sym] -= 1
    if pool[sym] == 0:
        del pool[sym]
