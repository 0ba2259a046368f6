"""The HTML board for notebooks (``_repr_html_``): see ``hostwcg_env.board.html``."""

from __future__ import annotations

from typing import Any

from hostwcg_env.board.html import board_html
from hostwcg_env.board.model import Seat, board_of


def render_html(game: Any, viewer: Seat) -> str:
    """The board ``viewer`` sees as self-contained HTML: 0 or 1 (a player, from its
    PlayerView only), ``"spectator"`` (public cards only) or None (every card)."""
    return board_html(board_of(game, viewer))


__all__ = ["render_html"]
