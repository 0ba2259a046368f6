"""``Any`` in ``hostwcg_env/analysis`` is kept only where a library forces it (docs/contributing.md,
"Lint and types"): every line that uses ``Any`` says why in a comment on that line (for example
``JSON = Any  # json.loads``); a line that does not fails the test, which names its file and line.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANALYSIS = ROOT / "hostwcg_env" / "analysis"

# un-commented `Any` lines allowed in hostwcg_env/analysis (255 before the data had types): none
LIMIT = 0


def uncommented_any(source: str) -> list[int]:
    """The lines that use the name ``Any`` (not in an import, a string or a comment) and carry
    no comment."""
    uses: set[int] = set()
    commented: set[int] = set()
    importing = False
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and tok.string in ("import", "from") and tok.start[1] == 0:
            importing = True
        elif tok.type == tokenize.NEWLINE:
            importing = False
        elif tok.type == tokenize.COMMENT:
            commented.add(tok.start[0])
        elif tok.type == tokenize.NAME and tok.string == "Any" and not importing:
            uses.add(tok.start[0])
    return sorted(uses - commented)


def test_the_counter_sees_uses_and_excuses_commented_lines() -> None:
    src = ("from typing import Any\n"
           "JSON = Any  # json.loads\n"
           "def f(x: Any) -> dict[str, Any]:\n"
           "    '''Any in a docstring'''\n"
           "    return {}  # Any in a comment\n"
           "y: list[Any] = []\n")
    assert uncommented_any(src) == [3, 6]


def test_uncommented_any_in_analysis_does_not_grow() -> None:
    found = {p.name: uncommented_any(p.read_text()) for p in sorted(ANALYSIS.glob("*.py"))}
    total = sum(len(lines) for lines in found.values())
    where = ", ".join(f"{name}:{n}" for name, lines in found.items() for n in lines)
    assert total <= LIMIT, (f"{total} lines of hostwcg_env/analysis use Any without a comment saying which "
                            f"library forces it (at most {LIMIT}): {where}")
