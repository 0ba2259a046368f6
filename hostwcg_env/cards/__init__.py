"""Cards as data: the TOML card loader and deck lists (docs/cards.md)."""

from hostwcg_env.cards.decks import (
    Deck,
    DeckError,
    DeckProblem,
    check_deck,
    deck_path,
    load_deck,
    pool_decks,
    resolve_deck,
    short_name,
)
from hostwcg_env.cards.loader import (
    CardError,
    card_files,
    default_pool,
    default_ruleset,
    extra_card_files,
    load_card_table,
    load_card_tables,
    load_cards,
)
from hostwcg_env.cards.text import card_text

__all__ = [
    "CardError",
    "Deck",
    "DeckError",
    "DeckProblem",
    "card_files",
    "card_text",
    "check_deck",
    "deck_path",
    "default_pool",
    "default_ruleset",
    "extra_card_files",
    "load_card_table",
    "load_card_tables",
    "load_cards",
    "load_deck",
    "pool_decks",
    "resolve_deck",
    "short_name",
]
