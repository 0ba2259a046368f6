"""Game.auto_pass (the env's ``auto_single``): priority with nothing to do but pass (31.1.2)
is passed without stopping where both players can see that (``Game.forced_action``), and the
game that results is the same game. Where only the player's hidden cards decide that it can
do nothing, it is asked all the same: skipping that stop would tell the other player."""

from __future__ import annotations

import glob
import random

import pytest

from hostwcg_env.cards import default_ruleset
from hostwcg_env.cards.decks import DECKS_DIR, load_deck
from hostwcg_env.engine.actions import DecisionKind
from hostwcg_env.engine.legal import only_pass_publicly

DECKS = [load_deck(p) for p in sorted(glob.glob(str(DECKS_DIR / "*.toml")))]


def _play(seed: int, auto_pass: bool) -> tuple[list[str], tuple, int, int]:
    """A random game; single-option decisions are taken by the driver, so both runs draw
    the same random numbers. Returns the events, the end, the stops with a choice and the
    priority stops whose one action (pass) is not forced on public grounds."""
    rng = random.Random(seed)
    a, b = rng.choice(DECKS), rng.choice(DECKS)
    g = default_ruleset().new_game(a, b, seed=seed)
    g.auto_pass = auto_pass
    stops = hidden_passes = 0
    while not g.is_over:
        acts = g.legal_actions()
        d = g.decision
        assert d is not None
        if d.kind is DecisionKind.PRIORITY and len(acts) == 1:
            public = only_pass_publicly(g.state, d.player)
            assert (g.forced_action() is not None) == public
            if auto_pass:
                assert not public, "stopped for a pass forced on public grounds"
                hidden_passes += 1
        if len(acts) == 1:
            g.apply(acts[0])
            continue
        stops += 1
        g.apply(rng.choice(acts))
    s = g.state
    return ([str(e) for e in s.events], (s.winner, s.reason, s.truncated, s.decisions_total, s.turn),
            stops, hidden_passes)


@pytest.mark.parametrize("seed", range(12))
def test_rule_31_1_2_auto_pass_plays_the_same_game(seed: int) -> None:
    ev_a, end_a, stops_a, _ = _play(seed, auto_pass=False)
    ev_b, end_b, stops_b, _ = _play(seed, auto_pass=True)
    assert end_a == end_b  # the same winner, reason, decision count (forced passes counted) and turn
    assert ev_a == ev_b
    assert stops_a == stops_b


def test_auto_pass_stops_where_only_hidden_cards_leave_nothing_to_do() -> None:
    """A pass that only the hidden hand or face-down cards force is asked for: in the old
    engine these were skipped, so a stop told the other player a usable card was held."""
    assert sum(_play(seed, auto_pass=True)[3] for seed in range(6)) > 0


def test_auto_pass_survives_clone() -> None:
    g = default_ruleset().new_game(DECKS[0], DECKS[1], seed=3)
    g.auto_pass = True
    assert g.clone().auto_pass
