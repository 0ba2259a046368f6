"""hostwcg_v0: PettingZoo API conformance, rewards, truncation, masks, codec coverage."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

from hostwcg_env import hostwcg_v0
from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import IllegalActionError, RuleConfig
from hostwcg_env.env import AGENTS, LayoutError, action_layout, section, shipped_decks
from hostwcg_env.env.codec import Codec, encode
from hostwcg_env.env.observation import ObservationEncoder

ROOT = Path(__file__).resolve().parents[1]


def play_random(e, seed: int, max_steps: int = 100000):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    steps = 0
    for _agent in e.agent_iter(max_steps):
        obs, rew, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, "the deciding agent always has a legal action"
        e.step(int(rng.choice(legal)))
        steps += 1
    return steps


def test_api_test() -> None:
    api_test(hostwcg_v0.env(), num_cycles=400)


def test_api_test_raw_env() -> None:
    api_test(hostwcg_v0.raw_env(), num_cycles=400)


def test_seed_test() -> None:
    seed_test(hostwcg_v0.env, num_cycles=300)


def test_render_test() -> None:
    render_test(lambda render_mode=None: hostwcg_v0.env(render_mode=render_mode))


def test_parallel_api_test() -> None:
    parallel_api_test(hostwcg_v0.parallel_env(), num_cycles=1000)


def test_parallel_seed_test() -> None:
    """Its unmasked random actions are mostly illegal: the parallel env ends the game on one, as
    the AEC env() does, instead of raising (docs/env.md)."""
    parallel_seed_test(hostwcg_v0.parallel_env, num_cycles=300)


def test_spaces_are_the_same_objects() -> None:
    e = hostwcg_v0.raw_env()
    for a in AGENTS:
        assert e.observation_space(a) is e.observation_space(a)
        assert e.action_space(a) is e.action_space(a)
    assert e.observation_space("player_0") is e.observation_space("player_1")


def test_rewards_are_zero_sum_at_the_end() -> None:
    for seed in range(6):
        e = hostwcg_v0.raw_env()
        e.reset(seed=seed)
        total = dict.fromkeys(AGENTS, 0.0)
        for agent in e.agent_iter():
            obs, rew, term, trunc, info = e.last()
            total[agent] += rew
            if term or trunc:
                e.step(None)
                continue
            e.step(int(np.random.default_rng(seed).choice(np.flatnonzero(obs["action_mask"]))))
        s = e.game.state
        if s.winner is None:
            assert total == {"player_0": 0.0, "player_1": 0.0}
        else:
            assert total[AGENTS[s.winner]] == 1.0 and total[AGENTS[1 - s.winner]] == -1.0
        assert not e.agents  # dead steps removed every agent


def test_turn_limit_truncates_with_zero_reward() -> None:
    e = hostwcg_v0.raw_env(turn_limit=2)
    e.reset(seed=3)
    rewards = dict.fromkeys(AGENTS, 0.0)
    truncated = False
    for agent in e.agent_iter():
        obs, rew, term, trunc, info = e.last()
        rewards[agent] += rew
        if term or trunc:
            truncated = truncated or trunc
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.game.state.truncated  # random play does not end a game in two turns
    assert truncated and rewards == {"player_0": 0.0, "player_1": 0.0}
    assert e.game.state.reason == "turn_limit"
    assert e.game.state.turn == 2  # exactly the limit, not one more
    assert section(e.observe("player_0")["observation"], "global")[0, 0] == 1.0  # turn / limit


def test_decision_cap_truncates_with_its_own_reason() -> None:
    from hostwcg_env.demo import explain_result

    e = hostwcg_v0.raw_env(config=RuleConfig(max_decisions_per_turn=3), auto_single=False)
    e.reset(seed=3)
    for _agent in e.agent_iter():
        obs, _rew, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    s = e.game.state
    assert s.truncated and s.winner is None and s.reason == "decision_limit"
    assert s.decisions_this_turn == 3  # exactly the cap: the fourth decision is never asked
    assert "decisions in one turn" in explain_result(s)


def test_mask_of_waiting_agent_is_all_zeros() -> None:
    e = hostwcg_v0.raw_env()
    e.reset(seed=1)
    for _ in range(200):
        if not e.agents:
            break
        actor = e.agent_selection
        other = AGENTS[1 - AGENTS.index(actor)]
        assert e.observe(other)["action_mask"].sum() == 0
        m = e.observe(actor)["action_mask"]
        if e.terminations[actor] or e.truncations[actor]:
            e.step(None)
            continue
        assert m.sum() >= 1
        e.step(int(np.flatnonzero(m)[0]))


def test_raw_env_raises_on_illegal_action_and_env_punishes_it() -> None:
    e = hostwcg_v0.raw_env()
    e.reset(seed=0)
    m = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(m == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(bad)
    w = hostwcg_v0.env()
    w.reset(seed=0)
    actor = w.agent_selection
    m = w.observe(actor)["action_mask"]
    w.step(int(np.flatnonzero(m == 0)[0]))  # TerminateIllegalWrapper logs a warning
    assert w.terminations[actor] and w.rewards[actor] == -1


def test_auto_single_off_asks_every_decision() -> None:
    e = hostwcg_v0.raw_env(auto_single=False)
    e.reset(seed=2)
    singles = 0
    for _agent in e.agent_iter(300):
        obs, _r, term, trunc, _i = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        singles += len(legal) == 1
        e.step(int(legal[0]))
    assert singles > 0


@pytest.mark.slow
def test_codec_covers_every_legal_action_over_shipped_decks() -> None:
    """Every legal action of thousands of random decisions maps to exactly one index, and
    back (no option the layout cannot express)."""
    decks = shipped_decks(include_test=True)
    lay = action_layout(RuleConfig())
    codec = Codec(lay)
    n = 0
    for seed in range(150):
        rng = random.Random(seed)
        a, b = rng.choice(decks), rng.choice(decks)
        g = default_ruleset().new_game(a, b, seed=seed)
        while not g.is_over:
            d = g.decision
            idx = [encode(lay, g.state, d.player, x) for x in d.actions]
            assert len(set(idx)) == len(idx)
            for i, x in zip(idx, d.actions, strict=True):
                assert codec.decode(g, i) == x
            n += len(idx)
            g.apply(rng.choice(d.actions))
    assert n > 10000


def test_layout_error_when_hand_index_is_out_of_range() -> None:
    from hostwcg_env.engine import Action, Kind
    from hostwcg_env.engine.actions import hand_at

    lay = action_layout(RuleConfig())
    with pytest.raises(LayoutError):
        encode(lay, None, 0, Action(Kind.PLAY, hand_at(99)))  # type: ignore[arg-type]


def test_sections_slice_the_observation() -> None:
    e = hostwcg_v0.raw_env()
    e.reset(seed=0)
    obs = e.observe(e.agent_selection)["observation"]
    enc = ObservationEncoder(RuleConfig())
    assert obs.shape == (enc.size,)
    hand = section(obs, "my_hand")
    p = AGENTS.index(e.agent_selection)
    assert hand.shape[0] == 30 and hand[:, 0].sum() == len(e.game.state.players[p].hand)
    with pytest.raises(KeyError):
        section(obs, "nope")


def test_generated_docs_are_current() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_env_docs.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_random_games_over_all_deck_pairs_finish() -> None:
    decks = shipped_decks(include_test=True)
    for i, a in enumerate(decks[:4]):
        e = hostwcg_v0.raw_env(decks=[a, decks[(i + 1) % len(decks)]])
        assert play_random(e, seed=i) > 0
        assert e.game.is_over


def test_deck_pools_per_seat() -> None:
    decks = shipped_decks(include_test=True)
    e = hostwcg_v0.raw_env(deck_pools=[decks, decks[:1]])
    e.reset(seed=5)
    assert e.game.state.players[1].decklist == list(decks[0].main)


def test_html_repr_and_ansi_render_hide_the_opponent_hand() -> None:
    e = hostwcg_v0.raw_env(render_mode="ansi", render_view=0)
    e.reset(seed=4)
    text = e.render()
    html = e._repr_html_()
    assert isinstance(text, str) and "<div" in html
    opp_hand = [e.game.state.objs[o].name for o in e.game.state.players[1].hand]
    mine = {e.game.state.objs[o].name for o in e.game.state.players[0].hand}
    secret = [n for n in opp_hand if n not in mine and n not in text]
    assert len(secret) == len([n for n in opp_hand if n not in mine])


def test_incremental_observation_equals_fresh_encoding_across_games() -> None:
    """The env encodes into a persistent buffer, rewriting only what changed; after every
    step, for both agents and across resets (object ids restart in each game), the result
    must equal a fresh encoding of the same view."""
    decks = shipped_decks(include_test=True)
    e = hostwcg_v0.raw_env(deck_pools=[decks, decks])
    enc = ObservationEncoder(RuleConfig())
    rng = np.random.default_rng(7)
    for seed in range(6):
        e.reset(seed=seed)
        for _agent in e.agent_iter(400):
            for i, a in enumerate(AGENTS):
                assert np.array_equal(e.observe(a)["observation"], enc.encode(e.game.view(i))), (seed, a)
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_observations_stay_inside_the_space_when_counts_grow_without_bound() -> None:
    """A long game can pile up a pool nobody spends or stats far past a card's printed ones:
    the encoder saturates them, so every observation lies in observation_space."""
    e = hostwcg_v0.raw_env()
    e.reset(seed=2)
    g = e.game
    rng = np.random.default_rng(2)
    for _ in range(60):  # into the game, with Entities in play
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for pl in g.state.players:
        pl.pool.update({"&": 600, "£": 75, "$": 999})
        pl.ap = 500
    for o in g.state.objs.values():
        if o.zone == "front":
            o.damage = 400
    g.state.dmg += 1
    space = e.observation_space("player_0")
    for a in AGENTS:
        obs = e.observe(a)
        assert space.contains(obs), float(np.abs(obs["observation"]).max())
        assert np.array_equal(obs["observation"], ObservationEncoder(RuleConfig()).encode(e.game.view(AGENTS.index(a))))
