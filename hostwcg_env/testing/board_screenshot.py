"""Screenshot the HTML board in a real headless browser: docs/img/board.png.

Plays a seeded game between two shipped agents, picks a busy mid-game position where the
viewer (A) decides (cards in both rows, markers, a stack or a battle), writes the board as A
sees it to HTML, and screenshots it with Chromium (Debian: ``apt-get install -y chromium``)::

    python scripts/board_screenshot.py                      # docs/img/board.png
    python scripts/board_screenshot.py --seed 3 --agents heuristic,random --out /tmp/b.png
    python scripts/board_screenshot.py --theme dark --seat spectator --out /tmp/dark.png
    python scripts/board_screenshot.py --html-only /tmp/board.html

The screenshot (a 1400x1000 window) is cropped to the board and, if it is over 300 KB,
re-saved with a palette (Pillow). ``--frame`` also writes the rgb_array image of the same
position (``board-frame.png``). ``scripts/board_screenshot.py`` is the command line;
``pick_position`` the position it draws and ``take`` the screenshot.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from agents import decide, make_agent
from hostwcg_env.board.html import board_html
from hostwcg_env.board.model import board_of
from hostwcg_env.cards import default_ruleset
from hostwcg_env.demo import agent_seeds, load_decks
from hostwcg_env.engine import Action, Game

ROOT = Path(__file__).resolve().parents[2]  # the checkout

WINDOW = (1400, 1000)
PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>hostwcg board</title>
<style>body{{margin:0;padding:12px;background:{bg}}}</style></head><body>{board}</body></html>"""
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """The path of a Chromium (or Chrome) binary, or None."""
    env = os.environ.get("CHROMIUM")
    if env and Path(env).exists():
        return env
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def _score(game: Game, viewer: int) -> int:
    """How much a position shows: cards in play, markers, the stack, a battle."""
    s = game.state
    score = 0
    for p in s.players:
        for oid in [*p.front, *p.back]:
            if oid is not None:
                score += 2 + 2 * len(s.objs[oid].markers) + 2 * s.objs[oid].face_down
        score += len(p.forms) * 2
    score += 3 * min(len(s.players[viewer].hand), 5) + min(len(s.players[1 - viewer].hand), 5)
    score += 4 * min(len(s.stack), 2) + 3 * (s.battle is not None)
    d = s.decision
    return score if d is not None and d.player == viewer and len(d.actions) >= 3 else -1


def pick_position(seed: int = 23, agents: tuple[str, str] = ("ppo", "heuristic"),
                  viewer: int = 0, min_turn: int = 4, max_turn: int = 14) -> Game:
    """Replay a seeded game between two agents and return it at the busiest position (between
    ``min_turn`` and ``max_turn``) where ``viewer`` decides."""
    deck_a, deck_b = load_decks(None)
    seeds = agent_seeds(seed)

    def new() -> tuple[Game, list[Any]]:
        players = [make_agent(n, seed=s) for n, s in zip(agents, seeds, strict=True)]
        return default_ruleset().new_game(deck_a, deck_b, seed=seed), players

    game, players = new()
    actions: list[Action] = []
    best, best_at = -1, 0
    while not game.is_over and game.state.turn <= max_turn:
        if game.state.turn >= min_turn:
            sc = _score(game, viewer)
            if sc > best:
                best, best_at = sc, len(actions)
        d = game.decision
        assert d is not None  # the game is not over
        a = decide(players[d.player], game)
        actions.append(a)
        game.apply(a)
    replay, _ = new()
    for a in actions[:best_at]:
        replay.apply(a)
    return replay


PAGE_BG = {"light": "#ffffff", "dark": "#111418"}


def write_html(game: Game, path: Path, seat: Any = 0, theme: str = "light") -> Path:
    bg = PAGE_BG[theme]
    path.write_text(PAGE.format(bg=bg, board=board_html(board_of(game, seat), theme=theme)),
                    encoding="utf-8")
    return path


def screenshot(html: Path, png: Path, chromium: str, window: tuple[int, int] = WINDOW,
               timeout: float = 120) -> Path:
    """Chromium, headless, no network, a throwaway profile: ``html`` -> ``png``."""
    png.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hostwcg-chromium-") as profile:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
               f"--screenshot={png}", f"--window-size={window[0]},{window[1]}",
               html.resolve().as_uri()]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if not png.exists():
        raise RuntimeError(f"chromium wrote no screenshot (exit {proc.returncode}): "
                           f"{proc.stderr.strip()[-800:]}")
    return png


def crop_to_board(png: Path, page_bg: str, pad: int = 6) -> tuple[int, int]:
    """Cut the page around the board away; returns the new (width, height)."""
    from PIL import Image, ImageChops

    with Image.open(png) as im:
        rgb = im.convert("RGB")
    bg = Image.new("RGB", rgb.size, tuple(int(page_bg[i:i + 2], 16) for i in (1, 3, 5)))
    box = ImageChops.difference(rgb, bg).getbbox()
    if box is not None:
        x0, y0, x1, y1 = box
        rgb = rgb.crop((max(0, x0 - pad), max(0, y0 - pad), min(rgb.width, x1 + pad), min(rgb.height, y1 + pad)))
    rgb.save(png, optimize=True)
    return rgb.size


def shrink(png: Path, limit: int = 300_000) -> None:
    """Re-save the PNG with a palette if it is over ``limit`` bytes."""
    if png.stat().st_size <= limit:
        return
    from PIL import Image

    with Image.open(png) as im:
        small = im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    small.save(png, optimize=True)


def take(game: Game, png: Path, chromium: str, seat: Any = 0, theme: str = "light") -> tuple[int, int]:
    """Screenshot the board of ``game`` as ``seat`` sees it to ``png`` (cropped to the board, a
    palette if large); returns the picture's (width, height)."""
    with tempfile.TemporaryDirectory(prefix="hostwcg-board-") as tmp:
        html = write_html(game, Path(tmp) / "board.html", seat, theme)
        screenshot(html, png, chromium)
    size = crop_to_board(png, PAGE_BG[theme])
    shrink(png)
    return size


def write_frame(game: Game, png: Path, seat: Any = 0) -> Path:
    """The rgb_array image of the same position beside ``png`` (``NAME-frame.png``)."""
    from hostwcg_env.board.image import board_image_pil

    frame = png.with_name(png.stem + "-frame.png")
    board_image_pil(board_of(game, seat)).save(frame, optimize=True)
    return frame
