"""The board one seat sees, drawn three ways: text (``hostwcg_env.render``), HTML
(``board_html``, for notebooks) and an RGB image (``board_image``, for video recording).

``board_of(game, seat)`` is the one model of what the seat sees (``model.py``); a player's
board is built only from its PlayerView.
"""

from __future__ import annotations

from .model import SPECTATOR, Board, CardFace, Seat, Side, StackEntry, board_of

__all__ = ["SPECTATOR", "Board", "CardFace", "Seat", "Side", "StackEntry", "board_of"]
