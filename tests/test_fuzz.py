"""Seeded random-play fuzz of the engine (README.md "Rules fidelity"): thousands of complete
games between every ordered pair of shipped decks, every invariant checked after every action,
a sample replayed and cloned. The checker, the games and their invariants are
``hostwcg_env.testing.fuzz`` (its docstring lists them); here they are split into test
functions (per deck pair and seed chunk) so that pytest-xdist runs them in parallel.
``test_random_games_to_the_turn_limit`` plays short games to the turn limit and
``test_random_games_to_the_decision_limit`` to the per-turn decision cap.
"""

from __future__ import annotations

import pytest

from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import RuleConfig
from hostwcg_env.testing.fuzz import (
    CHUNK,
    DECKS,
    GAMES_PER_PAIR,
    PAIRS,
    TOTAL_GAMES,
    check_invariants,
    run_chunk,
)

# The fast run (pytest -m "not slow") plays each deck once as A, against the next deck as B;
# the other pairs are slow (docs/contributing.md). The whole suite plays every pair.
NAMES = list(DECKS)
FAST_PAIRS = {(a, NAMES[(i + 1) % len(NAMES)]) for i, a in enumerate(NAMES)}
CASES = [
    pytest.param(a, b, start, id=f"{a}-vs-{b}-{start}",
                 marks=() if (a, b) in FAST_PAIRS else pytest.mark.slow)
    for a, b in PAIRS
    for start in range(0, GAMES_PER_PAIR, CHUNK)
]


@pytest.mark.parametrize("a,b,start", CASES)
def test_random_games(a: str, b: str, start: int) -> None:
    seeds = range(start, min(start + CHUNK, GAMES_PER_PAIR))
    reasons = run_chunk(a, b, seeds)
    assert sum(reasons.values()) == len(seeds)


# Short games played to the end of a truncated game: a turn limit of 3 to 8 (each deck pair
# gets one), or a small cap on decisions in one turn. The invariants are checked after every
# action, the end of the truncated game included (``check_invariants``).
LIMIT_GAMES = 3  # per deck pair
LIMIT_CHUNKS = 10
LIMIT_PAIRS = [(a, b, 3 + i % 6) for i, (a, b) in enumerate(PAIRS)]


@pytest.mark.parametrize("chunk", range(LIMIT_CHUNKS))
def test_random_games_to_the_turn_limit(chunk: int) -> None:
    truncated = 0
    for a, b, limit in LIMIT_PAIRS[chunk::LIMIT_CHUNKS]:
        cfg = RuleConfig(turn_limit=limit)
        reasons = run_chunk(a, b, range(LIMIT_GAMES), cfg=cfg, sample_every=2)
        truncated += reasons.get("turn_limit", 0)
        assert "decision_limit" not in reasons
    assert truncated >= LIMIT_GAMES * len(LIMIT_PAIRS[chunk::LIMIT_CHUNKS]) // 2, truncated


@pytest.mark.parametrize("cap", [4, 9, 25])
def test_random_games_to_the_decision_limit(cap: int) -> None:
    reasons: dict[str, int] = {}
    for a, b, _limit in LIMIT_PAIRS[cap::10]:
        cfg = RuleConfig(max_decisions_per_turn=cap)
        for k, v in run_chunk(a, b, range(2), cfg=cfg, sample_every=3).items():
            reasons[k] = reasons.get(k, 0) + v
    assert reasons.get("decision_limit", 0) >= 1, reasons
    assert "turn_limit" not in reasons


def test_fuzz_covers_enough_games() -> None:
    assert len(PAIRS) * GAMES_PER_PAIR >= TOTAL_GAMES
    assert len(DECKS) >= 2


def test_invariant_checker_catches_a_duplicate() -> None:
    """The checker itself: an id listed twice, or a card lost, is reported."""
    g = default_ruleset(RuleConfig()).new_game(DECKS[PAIRS[0][0]], DECKS[PAIRS[0][1]], seed=1)
    s = g.clone().state
    s.players[0].deck.append(s.players[0].deck[0])
    with pytest.raises(AssertionError, match="exactly one place"):
        check_invariants(s, RuleConfig())
    s = g.clone().state
    s.players[0].hand.append(s.players[0].deck[0])
    with pytest.raises(AssertionError, match="A.hand lists"):
        check_invariants(s, RuleConfig())
    s = g.clone().state
    oid = s.players[1].deck.pop()
    del s.objs[oid]
    with pytest.raises(AssertionError, match="non-token cards per owner"):
        check_invariants(s, RuleConfig())
    s = g.clone().state
    s.players[0].ap = -1
    with pytest.raises(AssertionError, match="action points"):
        check_invariants(s, RuleConfig())
