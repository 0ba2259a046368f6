"""Hidden information is provably hidden (README.md "Rules fidelity", docs/rulings.md A09).

Over hundreds of random states we resample everything the observing agent cannot see
(``determinize`` from its own view: the opponent's hand, both decks, the opponent's face-down
cards and damage zone) and check that its observation, its action mask, its text render and
the error message of an illegal action do not change.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import hostwcg_env  # noqa: F401
from hostwcg_env import hostwcg_v0
from hostwcg_env.engine import Action, Game, IllegalActionError, Kind, RuleConfig
from hostwcg_env.engine.view import determinize
from hostwcg_env.env import action_layout, shipped_decks
from hostwcg_env.env.codec import encode
from hostwcg_env.env.observation import ObservationEncoder
from hostwcg_env.render import render_text

LAY = action_layout(RuleConfig())
ENC = ObservationEncoder(RuleConfig())


def _mask(game: Game, p: int) -> np.ndarray:
    m = np.zeros(LAY.n, dtype=np.int8)
    d = game.decision
    if d is None or game.is_over or d.player != p:
        return m
    acts = game._priority_actions(p) if d.kind.value == "priority" else d.actions
    for a in acts:
        m[encode(LAY, game.state, p, a)] = 1
    return m


def _error(game: Game, action: Action) -> str:
    try:
        game.clone().apply(action)
    except IllegalActionError as e:
        return str(e)
    return "accepted"


def _states(n_games: int, every: int):  # type: ignore[no-untyped-def]
    decks = shipped_decks(include_test=True)
    for seed in range(n_games):
        rng = random.Random(seed)
        g = Game.new(rng.choice(decks), rng.choice(decks), seed=seed)
        k = 0
        while not g.is_over:
            if k % every == 0:
                yield g
            g.apply(rng.choice(g.legal_actions()))
            k += 1


PROBES = [Action(Kind.PLAY, "h0"), Action(Kind.ATTACK, "f0"), Action(Kind.TARGET, "B.f0"),
          Action(Kind.CARD, "h1"), Action(Kind.AP_DRAW)]


@pytest.mark.slow
def test_resampling_hidden_state_changes_no_observation_mask_render_or_error() -> None:
    checked = 0
    for g in _states(n_games=14, every=9):
        for p in (0, 1):
            view = g.view(p)
            obs = ENC.encode(view).copy()
            mask = _mask(g, p)
            text = render_text(g, p)
            errors = [_error(g, a) if g.decision and g.decision.player == p else "" for a in PROBES]
            for k in range(2):
                g2 = Game(determinize(view, random.Random(k)))
                assert np.array_equal(ENC.encode(g2.view(p)), obs), "observation depends on hidden state"
                assert np.array_equal(_mask(g2, p), mask), "mask depends on hidden state"
                assert render_text(g2, p) == text, "render depends on hidden state"
                errs2 = [_error(g2, a) if g2.decision and g2.decision.player == p else "" for a in PROBES]
                assert errs2 == errors, "an error message depends on hidden state"
            checked += 1
    assert checked >= 500


def test_determinized_states_really_differ_in_hidden_cards() -> None:
    """The resampling test is not vacuous: hidden cards do change."""
    changed = 0
    for g in _states(n_games=3, every=25):
        view = g.view(0)
        real = [g.state.objs[o].name for o in g.state.players[1].hand]
        fake = determinize(view, random.Random(1))
        sampled = [fake.objs[o].name for o in fake.players[1].hand]
        assert "?" not in sampled
        changed += real != sampled
    assert changed > 0


def test_info_dicts_carry_nothing_hidden() -> None:
    e = hostwcg_v0.raw_env()
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    for _agent in e.agent_iter():
        obs, _r, term, trunc, info = e.last()
        assert set(info) <= {"winner", "reason"}
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_env_observation_equals_encoding_of_the_agents_view() -> None:
    e = hostwcg_v0.raw_env()
    e.reset(seed=5)
    for _ in range(50):
        if not e.agents:
            break
        for i, a in enumerate(("player_0", "player_1")):
            assert np.array_equal(e.observe(a)["observation"], ENC.encode(e.game.view(i)))
        obs = e.observe(e.agent_selection)
        if e.terminations[e.agent_selection]:
            e.step(None)
        else:
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
