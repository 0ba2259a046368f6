"""Costs and payment (12, 14.2, 17.2.1, 27.4).

A typed resource pays its own symbol or a generic one; a generic resource pays only generic
(12.3, 12.4). A payment assigns a pool resource to each generic symbol, generic first (12.5.1,
A23); typed symbols are paid by their own type.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .carddef import TYPED, Res


def typed_need(cost: tuple[Res, ...]) -> Counter[str]:
    return Counter(r.value for r in cost if r is not Res.GENERIC)


def generic_count(cost: tuple[Res, ...]) -> int:
    return sum(1 for r in cost if r is Res.GENERIC)


@lru_cache(maxsize=4096)
def _split(cost: tuple[Res, ...]) -> tuple[tuple[tuple[str, int], ...], int, int]:
    """(typed symbols with counts, generic count, total) of a cost; costs are few and hashable."""
    need = typed_need(cost)
    return tuple(need.items()), generic_count(cost), len(cost)


def can_pay(pool: dict[str, int], cost: tuple[Res, ...]) -> bool:
    """Can ``pool`` pay ``cost``? Typed symbols need their own type; whatever is left over, of
    any type, may pay the generic symbols (12.3.1)."""
    if not cost:
        return True
    need, generic, total = _split(cost)
    for sym, n in need:
        if pool.get(sym, 0) < n:
            return False
    return sum(pool.values()) >= total  # typed needs met: the rest pays the generic symbols


def generic_options(pool: dict[str, int], cost: tuple[Res, ...]) -> list[str]:
    """Pool symbols that may pay the next generic symbol and still leave the rest payable:
    ``$`` or any typed resource (12.3.1)."""
    out = []
    for sym in ["$"] + [r.value for r in TYPED]:
        if pool.get(sym, 0) <= 0:
            continue
        rest = dict(pool)
        rest[sym] -= 1
        remaining = list(cost)
        remaining.remove(Res.GENERIC)
        if can_pay(rest, tuple(remaining)):
            out.append(sym)
    return out


def auto_choice(pool: dict[str, int], cost: tuple[Res, ...], own: str) -> str:
    """The canonical generic payment (S095): ``$`` first, then off-type surplus, then any."""
    opts = generic_options(pool, cost)
    if "$" in opts:
        return "$"
    need = typed_need(cost)
    off = [o for o in opts if o != own]
    pick_from = off or opts
    return max(pick_from, key=lambda sym: (pool.get(sym, 0) - need.get(sym, 0), -"&£!%".find(sym)))


def pay_typed(pool: dict[str, int], cost: tuple[Res, ...]) -> None:
    for sym, n in typed_need(cost).items():
        pool[sym] -= n
        if pool[sym] == 0:
            del pool[sym]


def spend(pool: dict[str, int], sym: str) -> None:
    pool[sym] -= 1
    if pool[sym] == 0:
        del pool[sym]
