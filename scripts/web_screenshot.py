"""Screenshot the web app (``hostwcg serve``, docs/web.md) mid-game: docs/img/web-play.png.

Starts the app on a free port of 127.0.0.1, opens it in headless Chromium with Playwright
(a system Chromium: Debian's ``apt-get install -y chromium``, or ``--chromium PATH``), starts
a game against ``ppo_v1`` and plays it by clicking (the cards in the hand first, then the
highlighted places, then the buttons) until a position with cards on both sides, then
screenshots the window::

    python scripts/web_screenshot.py                          # docs/img/web-play.png, 1280x800
    python scripts/web_screenshot.py --width 390 --height 844 --out /tmp/phone.png

A screenshot over 200 KB is re-saved with a palette (Pillow).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from hostwcg_env.testing.web_server import running
from hostwcg_env.web.files import Roots
from hostwcg_env.web.sessions import Hub

ROOT = Path(__file__).resolve().parent.parent

MAX_BYTES = 200_000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "img" / "web-play.png"))
    ap.add_argument("--vs", default="ppo_v1")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--moves", type=int, default=20, help="clicks before the screenshot (default 20)")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=800)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    hub = Hub(Roots.of([], []))
    with running(hub) as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.goto(f"http://127.0.0.1:{port}/")
        page.select_option("#form-play select[name=vs]", args.vs)
        page.fill("#form-play input[name=seed]", str(args.seed))
        page.click("#start-play")
        count = "() => +(document.body.dataset.states || 0)"
        page.wait_for_function(f"{count} > 0")
        rng = random.Random(args.seed)
        for _ in range(args.moves):
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
        page.screenshot(path=args.out)
        browser.close()
    out = Path(args.out)
    if out.stat().st_size > MAX_BYTES:
        from PIL import Image

        Image.open(out).convert("RGB").quantize(colors=128).save(out, optimize=True)
    print(f"wrote {out} ({out.stat().st_size // 1000} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
