"""A Ruleset (rule flags + cards) makes games; nothing is patched at import time."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from hostwcg_env.cards import default_pool, default_ruleset
from hostwcg_env.cards.decks import DECKS_DIR, load_deck
from hostwcg_env.engine import Game, RuleConfig, Ruleset

ROOT = Path(__file__).resolve().parent.parent
A = load_deck(DECKS_DIR / "test_authority.toml")
B = load_deck(DECKS_DIR / "test_strife.toml")


def _log(game: Game) -> list[str]:
    rng = random.Random(5)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return [str(e) for e in game.events]


def test_default_ruleset_plays_the_same_game_as_game_new_with_the_pool() -> None:
    via_rules = default_ruleset().new_game(A, B, seed=11)
    direct = Game.new(A, B, config=RuleConfig(), seed=11, registry=default_pool())
    assert _log(via_rules) == _log(direct)


def test_the_rule_flags_come_from_the_ruleset() -> None:
    rules = default_ruleset(RuleConfig(turn_limit=3))
    assert rules.new_game(A, B, seed=1).state.config.turn_limit == 3
    other = rules.with_overrides({"damage_draws": "true"})
    assert other.config.damage_draws and other.config.turn_limit == 3
    assert other.registry is rules.registry
    assert rules.with_config(RuleConfig()).config == RuleConfig()


def test_a_ruleset_knows_only_its_cards() -> None:
    pool = default_pool()
    few = {name: pool[name] for name in ("Test Host", "Squire")}
    rules = Ruleset(RuleConfig(), few)
    game = rules.new_game(("Test Host", ["Squire"] * 50), ("Test Host", ["Squire"] * 50), seed=2)
    assert not game.is_over
    with pytest.raises(ValueError, match="unknown card 'Pinger'"):
        rules.new_game(("Test Host", ["Pinger"] * 50), ("Test Host", ["Squire"] * 50))


def test_game_new_needs_a_registry() -> None:
    with pytest.raises(ValueError, match="default_ruleset"):
        Game.new(A, B, seed=1)


def test_importing_the_package_patches_nothing() -> None:
    code = ("import hostwcg_env; from hostwcg_env.engine import Game; "
            "print(any(n.startswith('default') for n in vars(Game)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT)}, check=True).stdout.strip()
    assert out == "False"
