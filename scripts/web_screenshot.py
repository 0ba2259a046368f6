"""Screenshot the web app (``hostwcg serve``, docs/web.md) mid-game: docs/img/web-play.png.

    python scripts/web_screenshot.py                          # docs/img/web-play.png, 1280x800
    python scripts/web_screenshot.py --width 390 --height 844 --out /tmp/phone.png

The command-line front end of ``hostwcg_env.testing.web_screenshot``, which plays the game by
clicking in headless Chromium with Playwright (a system Chromium: Debian's
``apt-get install -y chromium``, or ``--chromium PATH``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from hostwcg_env.testing.web_screenshot import ROOT, shoot


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "img" / "web-play.png"))
    ap.add_argument("--vs", default="ppo_v1")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--moves", type=int, default=20, help="clicks before the screenshot (default 20)")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=800)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args(argv)
    out = shoot(Path(args.out), args.vs, args.seed, args.moves, args.width, args.height, args.chromium)
    print(f"wrote {out} ({out.stat().st_size // 1000} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
