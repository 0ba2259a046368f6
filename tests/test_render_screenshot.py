"""The HTML board in a real browser: scripts/board_screenshot.py renders a mid-game position
of a seeded game between two shipped agents, screenshots it with headless Chromium and writes
the PNG docs/img/board.png shows. The check: the picture is the board (its size, its colours
where the image board has them), not a blank or an error page.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hostwcg_env.board import board_of
from hostwcg_env.board.image import board_image
from hostwcg_env.board.style import PALETTES, RES_COLORS
from hostwcg_env.testing import board_screenshot

PIL = pytest.importorskip("PIL.Image")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "board_screenshot.py"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}

COMMITTED = ROOT / "docs" / "img" / "board.png"


def _rgb(color: str) -> np.ndarray:
    return np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)])


def _share(img: np.ndarray, color: str, tol: int = 6) -> float:
    """The fraction of pixels within ``tol`` of ``color``."""
    return float((np.abs(img.astype(int) - _rgb(color)).max(axis=2) <= tol).mean())


def _check_board_picture(png: Path) -> None:
    with PIL.open(png) as im:
        assert im.format == "PNG"
        img = np.asarray(im.convert("RGB"))
    h, w = img.shape[:2]
    assert 1000 <= w <= 1400 and 700 <= h <= 1000, (w, h)  # the board, cropped from a 1400x1000 window
    assert len(np.unique(img[::3, ::3].reshape(-1, 3), axis=0)) > 200  # a picture, not a blank page
    game = board_screenshot.pick_position()  # the position the script draws
    board = board_of(game, 0)
    frame = board_image(board)
    p = PALETTES["light"]
    # the surfaces both boards are made of, in the same order of size
    for key, least in (("bg", 0.15), ("slot", 0.03), ("card", 0.05), ("back1", 0.005), ("mine", 0.01)):
        assert _share(img, p[key]) >= least, (key, _share(img, p[key]))
        assert _share(frame, p[key]) >= least, (key, _share(frame, p[key]))
    # every resource colour of a card on the table is drawn (cost pips, borders)
    shown = {c.resource for s in board.sides for c in [*s.front, *s.back, *s.forms, *(s.hand or ())]
             if c is not None and c.resource}
    assert shown
    for sym in shown:
        assert _share(img, RES_COLORS[sym], tol=10) > 0.0005, sym
    # both players' colours (their names, the stack item's controller)
    for key in ("a", "b"):
        assert _share(img, p[key], tol=30) > 0.0001, key


@pytest.mark.slow
def test_committed_screenshot_is_small_and_shows_the_board() -> None:
    assert COMMITTED.exists(), "run: python scripts/board_screenshot.py"
    assert COMMITTED.stat().st_size < 300_000
    _check_board_picture(COMMITTED)


@pytest.mark.slow
@pytest.mark.skipif(board_screenshot.find_chromium() is None,
                    reason="Chromium is not installed (Debian: apt-get install -y chromium); "
                           "the screenshot needs a real headless browser")
def test_screenshot_script_draws_the_board_in_chromium(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    run = subprocess.run([sys.executable, str(SCRIPT), "--out", str(out)], capture_output=True, text=True,
                         timeout=600, env=ENV)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.startswith(f"{out} (")
    assert out.stat().st_size < 300_000
    _check_board_picture(out)
    html = tmp_path / "board.html"
    run = subprocess.run([sys.executable, str(SCRIPT), "--html-only", str(html)], capture_output=True,
                         text=True, timeout=600, env=ENV)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "<div class='hwb hwb-light'" in html.read_text(encoding="utf-8")
