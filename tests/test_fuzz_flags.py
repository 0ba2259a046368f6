"""The random-play fuzz (tests/test_fuzz.py) under every RuleConfig flag off its default: each
variant plays a few seeded games over rotating deck pairs with the invariants checked after
every action, a sample replayed and cloned. ``scripts/fuzz.py`` runs the same at scale."""

from __future__ import annotations

import dataclasses

import pytest
from fuzz_variants import NUMERIC_VALUES, flag_variants
from test_fuzz import PAIRS, run_chunk

from hostwcg_env.engine import RuleConfig

VARIANTS = flag_variants()
GAMES = 3  # per variant (scripts/fuzz.py plays thousands)


def test_every_flag_has_a_variant_off_its_default() -> None:
    labels = {label.split("=")[0] for label, _ in VARIANTS}
    assert labels == {"default"} | {f.name for f in dataclasses.fields(RuleConfig)}
    assert set(NUMERIC_VALUES) <= labels
    for label, cfg in VARIANTS[1:]:
        name = label.split("=")[0]
        assert getattr(cfg, name) != getattr(RuleConfig(), name), label


@pytest.mark.parametrize("k", range(len(VARIANTS)), ids=[label for label, _ in VARIANTS])
def test_random_games_under_flag(k: int) -> None:
    label, cfg = VARIANTS[k]
    a, b = PAIRS[(7 * k) % len(PAIRS)]
    reasons = run_chunk(a, b, range(GAMES), cfg=cfg, sample_every=2)
    assert sum(reasons.values()) == GAMES, (label, reasons)
