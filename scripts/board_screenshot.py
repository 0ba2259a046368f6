"""Screenshot the HTML board in a real headless browser: docs/img/board.png.

    python scripts/board_screenshot.py                      # docs/img/board.png
    python scripts/board_screenshot.py --seed 3 --agents heuristic,random --out /tmp/b.png
    python scripts/board_screenshot.py --theme dark --seat spectator --out /tmp/dark.png
    python scripts/board_screenshot.py --html-only /tmp/board.html

The command-line front end of ``hostwcg_env.testing.board_screenshot``, which picks the
position and drives Chromium (Debian: ``apt-get install -y chromium``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hostwcg_env.testing import board_screenshot as bs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--agents", default="ppo,heuristic", help="two agent names (agents.make_agent)")
    ap.add_argument("--seat", default="0", help="0, 1 or spectator")
    ap.add_argument("--theme", default="light", choices=("light", "dark"))
    ap.add_argument("--out", type=Path, default=bs.ROOT / "docs" / "img" / "board.png")
    ap.add_argument("--html-only", type=Path, default=None, help="write the HTML here and stop")
    ap.add_argument("--frame", action="store_true", help="also write the rgb_array frame (-frame.png)")
    args = ap.parse_args(argv)
    names = tuple(args.agents.split(","))
    if len(names) != 2:
        ap.error("--agents: give two agent names, e.g. heuristic,random")
    seat: Any = "spectator" if args.seat == "spectator" else int(args.seat)
    game = bs.pick_position(args.seed, (names[0], names[1]), viewer=0 if seat == "spectator" else seat)
    if args.html_only is not None:
        bs.write_html(game, args.html_only, seat, args.theme)
        print(args.html_only)
        return 0
    chromium = bs.find_chromium()
    if chromium is None:
        print("no chromium found: apt-get install -y chromium (or set CHROMIUM=/path)", file=sys.stderr)
        return 2
    w, h = bs.take(game, args.out, chromium, seat, args.theme)
    print(f"{args.out} ({w}x{h}, {args.out.stat().st_size // 1024} KB), turn {game.state.turn}, "
          f"decision {game.decision}")
    if args.frame:
        print(bs.write_frame(game, args.out, seat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
