"""Every scenario file in tests/scenarios/ is one test, named after its id and slug
(``test_s018_damage_goes_from_hand_face_down``), run through the same runner as
``hostwcg scenario run``."""

from __future__ import annotations

from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401  (registers the default card pool)
from hostwcg_env.scenarios import run_file

SCENARIO_DIR = Path(__file__).parent / "scenarios"


def _make(path: Path):  # type: ignore[no-untyped-def]
    def test() -> None:
        result = run_file(path)
        if not result.ok:
            pytest.fail(f"{path.name} ({result.id}: {result.title}):\n  " + "\n  ".join(result.mismatches))

    test.__doc__ = f"Scenario file {path.name}"
    return test


for _path in sorted(SCENARIO_DIR.glob("*.toml")):
    globals()["test_" + _path.stem] = _make(_path)
