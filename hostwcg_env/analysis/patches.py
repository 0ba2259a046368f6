"""Card and deck what-ifs for ``hostwcg balance compare`` (docs/balance.md, "Card and deck
what-ifs"): a *patch* edits a card of the shipped pool in memory, a *swap* edits a deck list.

    --patch "Mossback Tortoise: health=5, power=2"
    --swap "brae: -Nature's Bounty +Seed the Earth"     (also -2 Squire, +1 Alpha Wolf)

A patch sets top-level fields of the card's TOML table (docs/cards.md); each value is read as
a TOML value (``health=5``, ``cost="%$"``, ``keywords=["First Strike"]``), and a word that is
not one (``type=entity``) as a string. The edited table goes through the card loader, so a bad
patch gets the loader's own one-line error. A swap takes cards out of a deck (``-``) and puts
cards in (``+``); the new list must pass the deck rules (3.1, A10) against the patched pool.

Patches travel with each game (``GameSpec.patches``, the record's ``"patches"``), so worker
processes and replays rebuild the same pool: :func:`patched_pool` is a pure function of the
patch texts.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from .records import DeckRef

if TYPE_CHECKING:
    from hostwcg_env.engine.carddef import CardDef

TOML = Any  # tomllib.load: a card table's value, of any TOML type (the card loader checks it)

_FIELD = re.compile(r",\s*(?=[A-Za-z_][\w]*\s*=)")
_CHANGE = re.compile(r"(?:^|\s)([+-])\s*(?:(\d+)\s*x?\s+)?")


class PatchError(ValueError):
    """A patch or swap that cannot be applied; the message is one line naming it."""


def parse_patch(text: str) -> tuple[str, dict[str, TOML]]:
    """``"Mossback Tortoise: health=5"`` -> ``("Mossback Tortoise", {"health": 5})``."""
    name, colon, body = text.partition(":")
    if not colon or not name.strip() or not body.strip():
        raise PatchError(f"--patch {text!r}: write CARD: FIELD=VALUE[, FIELD=VALUE ...] "
                         "(e.g. \"Mossback Tortoise: health=5\")")
    fields: dict[str, TOML] = {}
    for part in _FIELD.split(body.strip()):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if not eq or not re.fullmatch(r"[A-Za-z_]\w*", key):
            raise PatchError(f"--patch {text!r}: {part.strip()!r} is not FIELD=VALUE")
        if key == "name":
            raise PatchError(f"--patch {text!r}: a patch cannot rename a card (decks and records name it)")
        fields[key] = _value(raw.strip())
    return name.strip(), fields


def _value(raw: str) -> TOML:
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw.strip("\"'")


@cache
def _raw_tables() -> dict[str, tuple[str, dict[str, TOML]]]:
    """The shipped cards' TOML tables by name, with the file each comes from."""
    from hostwcg_env.cards.loader import DATA_DIR

    out: dict[str, tuple[str, dict[str, TOML]]] = {}
    for path in sorted(DATA_DIR.glob("*.toml")):
        with path.open("rb") as fh:
            for table in tomllib.load(fh).get("card", []):
                out[str(table.get("name", "")).strip()] = (path.name, table)
    return out


def patch_card(text: str, pool: Mapping[str, CardDef]) -> CardDef:
    """The CardDef ``text`` makes of a shipped card, checked by the card loader against ``pool``."""
    from hostwcg_env.cards.loader import CardError, load_card_tables

    name, fields = parse_patch(text)
    raw = _raw_tables()
    if name not in raw:
        close = difflib.get_close_matches(name, raw, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else " (hostwcg cards list shows the pool)"
        raise PatchError(f"--patch {text!r}: no card {name!r} in the shipped pool{hint}")
    table = {**raw[name][1], **fields}
    try:
        cards = load_card_tables([table], f"--patch {text!r}", pool)
    except CardError as e:
        raise PatchError(e.problems[0]) from None
    return cards[name]


@cache
def patched_pool(patches: tuple[str, ...]) -> dict[str, CardDef]:
    """The shipped card pool with ``patches`` applied in order (a fresh dict each new tuple)."""
    from hostwcg_env.cards import default_pool

    pool = default_pool()
    for text in patches:
        card = patch_card(text, pool)
        pool[card.name] = card
    return pool


def check_patches(patches: Sequence[str]) -> tuple[str, ...]:
    """The patches, each checked (PatchError on the first bad one); two patches of one card merge
    in order, so the later field wins."""
    out = tuple(patches)
    patched_pool(out)
    return out


def parse_swap(text: str) -> tuple[str, list[tuple[str, int, str]]]:
    """``"brae: -Nature's Bounty +2 Seed the Earth"`` -> ``("brae", [("-", 1, "Nature's
    Bounty"), ("+", 2, "Seed the Earth")])``."""
    deck, colon, body = text.partition(":")
    marks = list(_CHANGE.finditer(body))
    if not colon or not deck.strip() or not marks or body[: marks[0].start()].strip():
        raise PatchError(f"--swap {text!r}: write DECK: -CARD +CARD ... (e.g. \"brae: -Nature's Bounty "
                         "+Seed the Earth\"; -2 CARD takes out two)")
    changes = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        card = body[m.end() : end].strip()
        if not card:
            raise PatchError(f"--swap {text!r}: a {m.group(1)} names no card")
        changes.append((m.group(1), int(m.group(2) or 1), card))
    return deck.strip(), changes


def swap_deck(text: str, decks: Sequence[DeckRef], pool: Mapping[str, CardDef]) -> tuple[int, DeckRef]:
    """Apply a swap to the matching deck of ``decks``: its index and the new DeckRef (same id,
    so the games pair with the old list's), the new list checked by the deck rules."""
    from hostwcg_env.cards.decks import Deck, DeckError, check_deck, deck_path

    name, changes = parse_swap(text)
    try:
        target = deck_path(name).stem  # the deck resolver of every command (as simulate.resolve_decks)
    except DeckError as e:
        raise PatchError(f"--swap {text!r}: {e.problems[0].message.removeprefix('UNKNOWN_DECK ')}") from None
    index = next((i for i, d in enumerate(decks) if d.id == target), None)
    if index is None:
        raise PatchError(f"--swap {text!r}: deck {target!r} is not in the study (--decks)")
    old = decks[index]
    main = list(old.main)
    for sign, count, card in changes:
        for _ in range(count):
            if sign == "-":
                if card not in main:
                    have = main.count(card)
                    raise PatchError(f"--swap {text!r}: {old.id} holds {have or 'no'} {card!r} to take out")
                main.reverse()
                main.remove(card)  # the last copy: the list keeps its order otherwise
                main.reverse()
            else:
                main.append(card)
    problems = check_deck(Deck.from_lists(old.host, main, name=old.name), pool)
    if problems:
        raise PatchError(f"--swap {text!r}: " + "; ".join(p.message for p in problems))
    return index, replace(old, main=tuple(main))  # the same deck (id, name, Host, plan), a new list


def apply_changes(decks: Sequence[DeckRef], patches: Sequence[str], swaps: Sequence[str]) -> tuple[
        list[DeckRef], tuple[str, ...]]:
    """The decks after ``swaps`` and the checked patches (a swap is checked against the patched
    pool)."""
    checked = check_patches(patches)
    pool = patched_pool(checked)
    out = list(decks)
    for text in swaps:
        i, ref = swap_deck(text, out, pool)
        out[i] = ref
    return out, checked


def changed_cards(patches: Sequence[str], swaps: Sequence[str]) -> set[str]:
    """The card names the changes touch (the compare summary always shows them)."""
    names = {parse_patch(p)[0] for p in patches}
    for s in swaps:
        names |= {card for _, _, card in parse_swap(s)[1]}
    return names
