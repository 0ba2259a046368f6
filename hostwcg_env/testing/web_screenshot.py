"""Screenshot the web app (``hostwcg serve``, docs/web.md) mid-game: docs/img/web-play.png.

Starts the app on a free port of 127.0.0.1, opens it in headless Chromium with Playwright
(a system Chromium: Debian's ``apt-get install -y chromium``, or ``--chromium PATH``), starts
a game against ``ppo_v1`` and plays it by clicking (the cards in the hand first, then the
highlighted places, then the buttons) until a position with cards on both sides, then
screenshots the window::

    python scripts/web_screenshot.py                          # docs/img/web-play.png, 1280x800
    python scripts/web_screenshot.py --width 390 --height 844 --out /tmp/phone.png

A screenshot over 200 KB is re-saved with a palette (Pillow). ``scripts/web_screenshot.py``
is the command line; ``shoot`` plays and screenshots. Needs Playwright (the dev extra).
"""

from __future__ import annotations

import random
from pathlib import Path

from hostwcg_env.testing.web_server import running
from hostwcg_env.web.files import Roots
from hostwcg_env.web.sessions import Hub

ROOT = Path(__file__).resolve().parents[2]  # the checkout

MAX_BYTES = 200_000


def shoot(out: Path, vs: str = "ppo_v1", seed: int = 7, moves: int = 20, width: int = 1280, height: int = 800,
          chromium: str = "/usr/bin/chromium") -> Path:
    """Serve the app, start a game against ``vs`` (``seed``), make ``moves`` clicks and
    screenshot a ``width`` x ``height`` window to ``out`` (re-saved with a palette if over
    ``MAX_BYTES``)."""
    from playwright.sync_api import sync_playwright

    hub = Hub(Roots.of([], []))
    with running(hub) as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium)
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"http://127.0.0.1:{port}/")
        page.select_option("#form-play select[name=vs]", vs)
        page.fill("#form-play input[name=seed]", str(seed))
        page.click("#start-play")
        count = "() => +(document.body.dataset.states || 0)"
        page.wait_for_function(f"{count} > 0")
        rng = random.Random(seed)
        for _ in range(moves):
            if page.locator("#over").is_visible():
                break
            n = page.evaluate(count)
            hand, board = page.locator("#hand .can"), page.locator("#table .can")
            buttons = page.locator("#decision > .btns button")
            if hand.count():
                hand.first.click()
            elif board.count() and (rng.random() < 0.6 or not buttons.count()):
                board.nth(rng.randrange(board.count())).click()
            else:
                buttons.nth(rng.randrange(buttons.count())).click()
            if page.locator("#menu").is_visible():
                page.locator("#menu button").first.click()
            page.wait_for_function(f"{count} > {n}")
        page.locator("#table .card:not(.back)").first.hover()
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(out))
        browser.close()
    if out.stat().st_size > MAX_BYTES:
        from PIL import Image

        Image.open(out).convert("RGB").quantize(colors=128).save(out, optimize=True)
    return out
