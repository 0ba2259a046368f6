"""Colours the HTML and the image boards share: two palettes and the resource colours."""

from __future__ import annotations

PALETTES: dict[str, dict[str, str]] = {
    "light": {
        "bg": "#f3f1ec", "panel": "#ffffff", "line": "#c9c4b8", "fg": "#1e1f24", "muted": "#6b6a66",
        "card": "#fffdf8", "slot": "#e7e3da", "back1": "#2c3e66", "back2": "#3d5288",
        "backfg": "#c9d4ee", "a": "#1b7fa6", "b": "#b86e00", "dmg": "#c62828", "good": "#2e7d32",
        "warn": "#b35c00", "chip": "#ece8df", "mine": "#fff3cd", "over": "#fde2e1", "hurt": "#c62828",
    },
    "dark": {
        "bg": "#1c1f26", "panel": "#262a33", "line": "#454b57", "fg": "#e8e6e1", "muted": "#a3a7b0",
        "card": "#30353f", "slot": "#242830", "back1": "#243356", "back2": "#34497c",
        "backfg": "#aebde0", "a": "#4fc1e9", "b": "#f0a53a", "dmg": "#ff6b6b", "good": "#7bd88f",
        "warn": "#ffb454", "chip": "#3a404b", "mine": "#4a4020", "over": "#5a2a2a", "hurt": "#b3261e",
    },
}

# authority, strife, emotion, amity, generic (12.1)
RES_COLORS = {"&": "#c9a227", "£": "#c0392b", "!": "#3f6fd1", "%": "#2e9b5f", "$": "#8a8f98"}
NO_RESOURCE = "#8a8f98"


def player_color(palette: dict[str, str], p: int) -> str:
    return palette["ab"[p]]
