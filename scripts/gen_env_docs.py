"""Generate docs/action_space.md and docs/observation.md (hostwcg_v0), docs/observation_v1.md
and the v1 card index hostwcg_env/env/v1/card_index.py (hostwcg_v1) from the layout tables.
The card index is append-only: a card new to the pool gets the next id, no id ever moves.

    python scripts/gen_env_docs.py          # write the files
    python scripts/gen_env_docs.py --check  # exit 1 if they are not current

The command-line front end of ``hostwcg_env.testing.env_docs``, which makes each text.
"""

from __future__ import annotations

import argparse

from hostwcg_env.testing.env_docs import update


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is not current")
    stale = update(check=ap.parse_args(argv).check)
    if stale:
        print("out of date (run python scripts/gen_env_docs.py):", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
