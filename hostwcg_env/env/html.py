"""An HTML board for notebooks (``_repr_html_``), built from the same view as the text board."""

from __future__ import annotations

import html

from hostwcg_env.engine import Game


def render_html(game: Game, viewer: int | None) -> str:
    from hostwcg_env.render import render_text

    text = render_text(game, viewer)
    return ("<div style='font-family:monospace;white-space:pre;border:1px solid #888;"
            f"padding:6px;border-radius:4px'>{html.escape(text)}</div>")
