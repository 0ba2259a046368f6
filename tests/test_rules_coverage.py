"""docs/rules-coverage.md is current, and every numbered rule is cited by the engine and tested.

Runs ``scripts/rules_coverage.py`` in check mode through its functions. The comprehensive rules
live outside the repository (``../shared/seeds``); without them these tests are skipped.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("rules_coverage", ROOT / "scripts" / "rules_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rules_coverage"] = module
    spec.loader.exec_module(module)
    return module


rc = _load()


@pytest.fixture(scope="module")
def coverage():  # type: ignore[no-untyped-def]
    try:
        seed = rc.find_seed()
    except FileNotFoundError as e:
        pytest.skip(str(e))
    return rc.collect(seed)


def test_coverage_report_is_current(coverage) -> None:  # type: ignore[no-untyped-def]
    diff = rc.stale_diff(rc.render(coverage))
    assert not diff, "docs/rules-coverage.md is out of date; run: python scripts/rules_coverage.py\n" + "\n".join(diff[:40])


def test_every_rule_is_tested(coverage) -> None:  # type: ignore[no-untyped-def]
    missing = coverage.untested()
    assert not missing, f"{len(missing)} rules have no test: {', '.join(missing)}"


def test_every_rule_is_cited_in_the_engine(coverage) -> None:  # type: ignore[no-untyped-def]
    missing = coverage.uncited()
    assert not missing, f"{len(missing)} rules are not cited under hostwcg_env/: {', '.join(missing)}"


def test_rule_parsing_handles_the_seed_layout(coverage) -> None:  # type: ignore[no-untyped-def]
    """Headings, lines prefixed '- ' and ' - ', and the win conditions printed under the wrong parent."""
    rules = coverage.by_number()
    assert rules["1"].text == "Victory Conditions" and rules["1"].parent is None
    assert rules["1.1"].text.startswith("When any victory condition is met")
    assert rules["1.1.1"].parent == "1.2"  # printed under 1.2 (RULINGS A01)
    assert rules["4.1.1"].parent == "4.1"
    assert rules["15.3.2.2.1"].parent == "15.3.2.2"
    assert rules["42.1.2"].parent == "42.1"
    assert "32.9" in rules and "33.6" in rules


def test_citations_match_whole_numbers_only() -> None:
    known = {"1.2", "1.1.1", "4", "14", "14.7", "14.7.1", "14.8", "14.9", "14.10", "21.2.1", "25", "25.1"}
    assert rc.citations("see 14.7.1", known) == {"14.7.1"}
    assert rc.citations("21.2.1: each effect", known) == {"21.2.1"}  # not 1.2 nor 1.1.1
    assert rc.citations("(14.7-14.10, 21)", known) == {"14.7", "14.8", "14.9", "14.10"}
    assert rc.citations("Battle (25, A30) and S037 [25.1, 4]", known) == {"25", "25.1", "4"}
    assert rc.citations("usage error (4) or --help (0)", known) == set()
    assert rc.citations("rule 14, deal 4 damage, hand[4], A21 (4)", known) == {"14"}
    assert rc.citations("1.2.1 is an alias", known) == {"1.1.1"}
    assert rc.name_citation("test_rule_14_7_1_occupied_slot", known) == {"14.7.1"}
    assert rc.name_citation("test_rule_25_battle_in_2_steps", known) == {"25"}
