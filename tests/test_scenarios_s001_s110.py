"""Rules scenarios S001-S110 (docs/scenarios.md "Scenario ids") that a scenario file cannot express.

They all run the real game setup (9.1, ``new_game = true``): who wins the 2D6 roll depends on
the seed, and some checks compare two runs. The position is built with ``setup_game`` from the
same dict a scenario file holds, and every check on the state goes through ``check_expect``
with the keys of docs/scenarios.md.

Each deck holds 50 hypothetical cards with distinct names (Ka00-Ka49 for A, Kb00-Kb49 for B), so a
card's name identifies it. The roll winner always lets A go first, so A is the first player, as the
scenarios assume (docs/scenarios.md "Scenario ids"). A's Host is Test Host and B's is Strife Host,
so a Host's name in the other player's view means the Host zone is open.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from hostwcg_env.scenarios import check_expect, setup_game

SEED = 7
DRAW = re.compile(r"Draw\(([AB]), (K[ab]\d\d)\)")


def _names(prefix: str) -> list[str]:
    return [f"{prefix}{i:02d}" for i in range(50)]


def _card(name: str) -> dict[str, Any]:
    return {"name": name, "type": "entity", "resource": "authority", "cost": "&",
            "health": 1, "power": 1}


def _new_game(seed: int = SEED) -> Any:
    data = {
        "id": "S052",
        "title": "Real game setup with distinct cards",
        "rules": ["9.1"],
        "cards": [_card(n) for n in _names("Ka") + _names("Kb")],
        "setup": {
            "new_game": True,
            "seed": seed,
            "A": {"host": "Test Host", "deck": _names("Ka")},
            "B": {"host": "Strife Host", "deck": _names("Kb")},
        },
    }
    return setup_game(data)


def _text(event: Any) -> str:
    return str(event)


def _texts(game: Any, start: int = 0) -> list[str]:
    return [_text(e) for e in game.events[start:]]


def _drawn(game: Any, who: str, start: int = 0) -> list[str]:
    """Names drawn by ``who`` in the events from index ``start`` on."""
    out = []
    for text in _texts(game, start):
        m = DRAW.match(text)
        if m and m.group(1) == who:
            out.append(m.group(2))
    return out


def _expect(game: Any, expect: dict[str, Any], start: int = 0) -> None:
    mismatches = check_expect(game, expect, list(game.events[start:]))
    assert not mismatches, mismatches


def _decides(game: Any) -> tuple[str, str]:
    return "AB"[game.decision.player], game.decision.kind


def _a_goes_first(game: Any) -> None:
    """Answer the 2D6 winner's decision (9.1.5) so that A takes the first turn."""
    assert game.decision.kind == "first_player"
    game.apply_text("A yes" if game.decision.player == 0 else "B pass")


def _finish_mulligan(game: Any, who: str) -> None:
    """End ``who``'s mulligan decision if it is still open (it may close by itself)."""
    if game.decision is not None and _decides(game) == (who, "mulligan"):
        game.apply_text(f"{who} pass")


# §4-§6 -------------------------------------------------------------------------------------


@pytest.mark.rules("4.6.1", "4.6", "9.1.8")
def test_s037_host_zone_opens_at_game_start() -> None:
    """S037 [4.6.1, 4.6] The Host zone opens at game start. {A13}"""
    game = _new_game()
    hidden = {"view": {"A": {"not_contains": ["Strife Host"]},
                       "B": {"not_contains": ["Test Host"]}}}
    _expect(game, hidden)
    _a_goes_first(game)
    assert _decides(game) == ("A", "mulligan")
    _expect(game, hidden)
    game.apply_text("A pass")
    assert _decides(game) == ("B", "mulligan")
    _expect(game, hidden)
    game.apply_text("B pass")
    # 9.1.8: Hosts are flipped face up; both are visible to both players.
    _expect(game, {"view": {"A": {"contains": ["Test Host", "Strife Host"]},
                            "B": {"contains": ["Test Host", "Strife Host"]}}})


# §9 Game setup -----------------------------------------------------------------------------


@pytest.mark.rules("9.1.1", "9.1")
def test_s052_initial_placement() -> None:
    """S052 [9.1.1, 9.1] Initial placement."""
    game = _new_game()
    assert game.decision.kind == "first_player"
    expect: dict[str, Any] = {}
    for p in "AB":
        expect[f"{p}.deck"] = 50
        for zone in ("hand", "drop", "damage_zone", "banished", "forms"):
            expect[f"{p}.{zone}"] = 0
    # Hosts are face down: neither player sees the other's Host.
    expect["view"] = {"A": {"not_contains": ["Strife Host"]},
                      "B": {"not_contains": ["Test Host"]}}
    _expect(game, expect)


@pytest.mark.rules("9.1.2")
def test_s053_shuffle_and_cut() -> None:
    """S053 [9.1.2] Shuffle and cut: seeded, and the cut is no agent decision."""
    first, second, other = _new_game(SEED), _new_game(SEED), _new_game(SEED + 1)
    # The opponent's shuffle/cut asks nobody: the first decision is the roll winner's.
    for game in (first, second, other):
        assert game.decision.kind == "first_player"
        _a_goes_first(game)
    assert _texts(first) == _texts(second)
    hand_a, hand_b = _drawn(first, "A"), _drawn(first, "B")
    assert len(hand_a) == 5 and len(hand_b) == 5
    _expect(second, {"A.hand": hand_a, "B.hand": hand_b})
    # The decks really were shuffled (not the listed order), and another seed differs.
    assert set(hand_a) != set(_names("Ka")[:5])
    assert set(hand_b) != set(_names("Kb")[:5])
    assert (_drawn(other, "A"), _drawn(other, "B")) != (hand_a, hand_b)


@pytest.mark.rules("9.1.6")
def test_s055_opening_draw() -> None:
    """S055 [9.1.6] Opening draw."""
    game = _new_game()
    _a_goes_first(game)
    assert _decides(game) == ("A", "mulligan")
    _expect(game, {"A.hand": 5, "A.deck": 45, "B.hand": 5, "B.deck": 45})


@pytest.mark.rules("9.1.7", "9.1.7.1")
def test_s056_mulligan_two() -> None:
    """S056 [9.1.7] Mulligan 2."""
    game = _new_game()
    _a_goes_first(game)
    hand = _drawn(game, "A")
    assert len(hand) == 5
    _expect(game, {"A.hand": hand})
    b, d = hand[1], hand[3]
    start = len(game.events)
    game.apply_text(f"A card {b}")
    game.apply_text(f"A card {d}")
    _finish_mulligan(game, "A")
    new = _drawn(game, "A", start)
    assert len(new) == 2
    assert b not in new and d not in new
    kept = [c for c in hand if c not in (b, d)]
    _expect(game, {"A.hand": kept + new, "A.deck": 45})
    texts = _texts(game, start)
    assert any(t.startswith("Mulligan(A, 2)") for t in texts)
    # Then the deck is shuffled, after the draws.
    last_draw = max(i for i, t in enumerate(texts) if t.startswith("Draw(A"))
    assert any(t.startswith("Shuffle(A)") for t in texts[last_draw + 1:])
    # 9.1.7.1: a player who puts back nothing does not shuffle.
    start_b = len(game.events)
    game.apply_text("B pass")
    assert not any(t.startswith("Shuffle(B)") for t in _texts(game, start_b))


@pytest.mark.rules("9.1.7")
def test_s058_mulligan_five() -> None:
    """S058 [9.1.7] Mulligan 5."""
    game = _new_game()
    _a_goes_first(game)
    hand = _drawn(game, "A")
    assert len(hand) == 5
    start = len(game.events)
    for name in hand:
        game.apply_text(f"A card {name}")
    _finish_mulligan(game, "A")
    new = _drawn(game, "A", start)
    assert len(new) == 5
    assert not set(new) & set(hand)
    _expect(game, {"A.hand": new, "A.deck": 45})
    texts = _texts(game, start)
    assert any(t.startswith("Mulligan(A, 5)") for t in texts)
    last_draw = max(i for i, t in enumerate(texts) if t.startswith("Draw(A"))
    assert any(t.startswith("Shuffle(A)") for t in texts[last_draw + 1:])


@pytest.mark.rules("9.1.7")
def test_s059_mulligan_order_and_count() -> None:
    """S059 [9.1.7] Mulligan order and count. {A16}"""
    game = _new_game()
    _a_goes_first(game)
    # The first player decides first; putting a card back keeps the same single decision.
    assert _decides(game) == ("A", "mulligan")
    game.apply_text(f"A card {_drawn(game, 'A')[0]}")
    if _decides(game) == ("A", "mulligan"):
        game.apply_text("A pass")
    assert _decides(game) == ("B", "mulligan")
    game.apply_text("B pass")
    # No second mulligan for anyone.
    assert game.decision is not None
    assert game.decision.kind != "mulligan"
