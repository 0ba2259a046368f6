"""hostwcg_v1: PettingZoo API conformance, the Dict observation (shapes, bounds, incremental
writes equal fresh ones), the card index, the action features, and v0 left as it was."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

from hostwcg_env import hostwcg_v0, hostwcg_v1
from hostwcg_env.cards import default_pool, default_ruleset
from hostwcg_env.engine import Area, Kind, RuleConfig
from hostwcg_env.env import AGENTS, shipped_decks
from hostwcg_env.env.v1 import card_index
from hostwcg_env.env.v1.cards import (
    FACE_DOWN,
    FIRST_CARD,
    N_CARD_IDS,
    NONE,
    OTHER,
    UNKNOWN,
    card_id,
    card_name,
)
from hostwcg_env.env.v1.encoder import fresh
from hostwcg_env.env.v1.layout import (
    ACTION_KIND_ID,
    COL,
    GCOL,
    ZONE_ID,
    obs_layout,
)

LAY = obs_layout()


def _play(e, seed: int, check=None, max_steps: int = 100_000) -> int:  # type: ignore[no-untyped-def]
    """Random legal actions on a raw v1 env; ``check(e)`` after every step."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    steps = 0
    while e.agents and steps < max_steps:
        if check is not None:
            check(e)
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(e.action_mask(agent)))))
        steps += 1
    return steps


# ----------------------------------------------------------------------------- PettingZoo
def test_api_test() -> None:
    api_test(hostwcg_v1.env(), num_cycles=400)


def test_api_test_raw_env() -> None:
    api_test(hostwcg_v1.raw_env(), num_cycles=300)


def test_seed_test() -> None:
    seed_test(hostwcg_v1.env, num_cycles=300)


def test_render_test() -> None:
    render_test(lambda render_mode=None: hostwcg_v1.env(render_mode=render_mode))


def test_parallel_api_test() -> None:
    parallel_api_test(hostwcg_v1.parallel_env(), num_cycles=1000)


def test_parallel_seed_test() -> None:
    """Its unmasked random actions are mostly illegal: the parallel env ends the game on one, as
    the AEC env() does, instead of raising (docs/env.md)."""
    parallel_seed_test(hostwcg_v1.parallel_env, num_cycles=300)


def test_metadata_names_v1_and_v0_stays() -> None:
    assert hostwcg_v1.raw_env().metadata["name"] == "hostwcg_v1"
    assert str(hostwcg_v1.env()) == "hostwcg_v1"
    assert hostwcg_v1.parallel_env().metadata["name"] == "hostwcg_v1"
    assert hostwcg_v0.raw_env().metadata["name"] == "hostwcg_v0"
    v0 = hostwcg_v0.raw_env().observation_space("player_0")
    assert v0["observation"].shape == (11964,) and v0["action_mask"].shape == (266,)


# ----------------------------------------------------------------------------- the arrays
def test_spaces_and_sizes() -> None:
    e = hostwcg_v1.raw_env()
    space = e.observation_space("player_0")
    assert space is e.observation_space("player_1")
    assert e.action_space("player_0").n == hostwcg_v0.raw_env().action_space("player_0").n == 266
    for key, (shape, dtype) in LAY.sizes().items():
        assert space[key].shape == shape and space[key].dtype == np.dtype(dtype), key
    floats, ints = LAY.counts()
    assert (floats, ints) == (4104, 1994), "docs/observation_v1.md states these figures"
    assert floats < 11964 / 2 and floats + ints < 11964, "v1 is far smaller than v0's 11,964 floats"


def test_every_observation_lies_in_the_space_and_equals_a_fresh_encoding() -> None:
    """Incremental writes (rows, zones, globals, history, actions rewritten only when their
    inputs changed) give exactly what a fresh encoder writes, for both agents, every step."""
    checked = 0

    def check(e) -> None:  # type: ignore[no-untyped-def]
        nonlocal checked
        g = e.game
        for i, a in enumerate(AGENTS):
            obs = e.observe(a)
            assert e.observation_space(a).contains(obs)
            deciding = not g.is_over and g.decision.player == i
            f = fresh(g.view(i), e.memories[a], e.legal.pairs if deciding else None, config=e.config)
            for k in obs:
                assert np.array_equal(obs[k], f[k]), f"{k} differs from a fresh encoding"
            checked += 1

    for seed in range(4):
        _play(hostwcg_v1.raw_env(), seed, check)
    assert checked > 1000


def test_observation_space_is_held_in_every_config() -> None:
    cfg = RuleConfig(frontrow_slots=3, backrow_slots=2, starting_hand=7)
    e = hostwcg_v1.raw_env(config=cfg)
    lay = obs_layout(cfg)
    default = RuleConfig()
    fewer = 2 * (default.frontrow_slots - 3 + default.backrow_slots - 2)  # one row per slot, both sides
    assert e.observation_space("player_0")["cards"].shape[0] == lay.rows == LAY.rows - fewer
    assert e.action_space("player_0").n == hostwcg_v0.raw_env(config=cfg).action_space("player_0").n

    def check(e) -> None:  # type: ignore[no-untyped-def]
        for a in AGENTS:
            assert e.observation_space(a).contains(e.observe(a))

    _play(e, 3, check)


def test_rows_show_what_the_view_shows() -> None:
    """Hand rows are the hand's cards in order; slot rows sit at their slots; the opponent's
    face-down card is a face-down row; every row in use has a zone, an empty one has none."""
    e = hostwcg_v1.raw_env()
    seen_face_down = 0

    def check(e) -> None:  # type: ignore[no-untyped-def]
        nonlocal seen_face_down
        g = e.game
        for i, a in enumerate(AGENTS):
            obs = e.observe(a)
            v = g.view(i)
            z = LAY.zone["my_hand"]
            hand = v.hand()
            for j in range(z.rows):
                want = card_id(hand[j].name) if j < len(hand) else NONE
                assert obs["card_id"][z.start + j] == want
                assert obs["card_zone"][z.start + j] == (z.zid if j < len(hand) else 0)
            for p, prefix in ((i, "my_"), (1 - i, "opp_")):
                for row in ("front", "back"):
                    z = LAY.zone[prefix + row]
                    assert (obs["card_zone"][z.start:z.stop] == z.zid).all()
                    for j, o in enumerate(v.row(p, row)):
                        got = obs["card_id"][z.start + j]
                        if o is None:
                            assert got == NONE
                        elif isinstance(o, str):
                            assert got == FACE_DOWN and obs["cards"][z.start + j, COL["face_down"]] == 1
                            seen_face_down += 1
                        else:
                            assert got == card_id(o.name)
                            assert obs["cards"][z.start + j, COL["mine"]] == (o.controller == i)
            in_use = obs["card_zone"] > 0
            assert (obs["card_id"][~in_use] == NONE).all()

    for seed in range(3):
        _play(e, seed, check)
    assert seen_face_down > 0


# ----------------------------------------------------------------------------- card ids
def test_card_index_names_every_card_of_the_pool() -> None:
    names = card_index.CARD_NAMES
    assert len(set(names)) == len(names)
    missing = sorted(set(default_pool()) - set(names))
    assert not missing, f"cards without an id (run python scripts/gen_env_docs.py): {missing}"
    assert N_CARD_IDS == FIRST_CARD + len(names)
    for name in default_pool():
        i = card_id(name)
        assert FIRST_CARD <= i < N_CARD_IDS and card_name(i) == name
    assert card_id("?") == FACE_DOWN and card_id("No Such Card") == OTHER
    assert ([card_name(i) for i in (NONE, UNKNOWN, FACE_DOWN, OTHER)]
            == ["<none>", "<unknown>", "<face-down>", "<other>"])


def test_card_table_rows_are_the_cards_features() -> None:
    from hostwcg_env.engine.primitives import PRIMITIVES
    from hostwcg_env.env.observation import CARD_FEATURES, PRIMS, card_vector
    from hostwcg_env.env.v1.cards import V1_CARD_EXTRA, V1_CARD_FEATURES

    table = hostwcg_v1.card_table()
    n0 = len(card_vector(default_pool()["Squire"]))
    assert n0 == len(CARD_FEATURES) == 85  # v0's card features are fixed (its checkpoint)
    assert table.shape == (N_CARD_IDS, len(V1_CARD_FEATURES)) and V1_CARD_FEATURES[:n0] == tuple(CARD_FEATURES)
    assert not table[:FIRST_CARD].any()
    for name, card in list(default_pool().items())[:40]:
        assert np.array_equal(table[card_id(name), :n0], card_vector(card))
    # every primitive has a column: v0's does:* or one appended for v1
    assert PRIMITIVES == set(PRIMS) | {n[5:] for n in V1_CARD_EXTRA if n.startswith("does:")}
    col = {n: i for i, n in enumerate(V1_CARD_FEATURES)}
    rite = table[card_id("Rite of Return")]
    assert rite[col["does:put_into_play"]] == 1 and rite[col["if:zone"]] == 1 and rite[col["selects:zone"]] == 1
    assert rite[col["does:gain_ap"]] == 0 and rite[col["if:count"]] == 0
    assert table[card_id("Unhorse"), col["selects:keyword"]] == 1
    assert table[card_id("Quartermaster"), col["does:gain_ap"]] == 1
    assert table[card_id("Duelist's Gambit"), col["if:previous"]] == 1
    assert not table[card_id("Squire"), n0:].any()


# ----------------------------------------------------------------------------- actions
def test_action_features_describe_every_legal_action() -> None:
    """Each legal index carries its kind, its card and the rows it acts with and on; the same
    content as the engine action it decodes to, as the viewer sees it."""
    kinds_seen: set[str] = set()

    def check(e) -> None:  # type: ignore[no-untyped-def]
        g = e.game
        p = g.decision.player
        a_name = AGENTS[p]
        obs = e.observe(a_name)
        v = g.view(p)
        legal = np.flatnonzero(obs["action_mask"])
        assert set(legal.tolist()) == {i for i, _ in e.legal.pairs}
        other = e.observe(AGENTS[1 - p])
        assert not other["action_mask"].any() and (other["action_source_row"] == -1).all()
        for i in legal:
            a = e.legal.decode(int(i))
            kind = obs["action_kind"][i]
            src, tgt, card = obs["action_source_row"][i], obs["action_target_row"][i], obs["action_card"][i]
            kinds_seen.add(a.kind.value)
            if a.kind is Kind.PLAY:
                h = a.src.index
                assert kind == ACTION_KIND_ID["play"] and card == card_id(v.hand()[h].name)
                assert src == (LAY.zone["my_hand"].start + h if h < 10 else -1)
            elif a.kind is Kind.ATTACK:
                assert src == LAY.zone["my_front"].start + a.src.index
                assert card == obs["card_id"][src] != NONE
            elif a.kind is Kind.TARGET:
                assert kind == ACTION_KIND_ID["target"]
                if a.dst.area is Area.HOST:
                    mine = a.dst.side == p
                    assert tgt == LAY.zone["my_host" if mine else "opp_host"].start
                if tgt >= 0:
                    assert card == obs["card_id"][tgt]
                    if a.dst.on_board and obs["card_id"][tgt] not in (NONE, FACE_DOWN):
                        assert obs["cards"][tgt, COL["mine"]] == (a.dst.side == p)
            elif a.kind is Kind.CARD and a.src.area is Area.LISTED:
                j = a.src.index
                assert card == card_id(v.choice_cards()[j].name)
            elif a.kind is Kind.TRIGGER:
                assert card == card_id(v.my_pending()[a.src.index].card.name)
            elif a.kind is Kind.PASS:
                assert card == NONE and src == tgt == -1

    e = hostwcg_v1.raw_env()
    for seed in range(6):
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        while e.agents:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
                continue
            check(e)
            e.step(int(rng.choice(np.flatnonzero(e.action_mask(agent)))))
    assert {"play", "attack", "target", "pass", "ap draw"} <= kinds_seen


def test_target_features_tell_my_entity_from_theirs() -> None:
    """The brief's example: an Equipment's target decision. Each legal target index points at
    a row whose `mine` flag says whose Entity it is, and at the decision row holding the
    Equipment (the card being played)."""
    found = 0
    decks = shipped_decks()
    for seed in range(40):
        rng = random.Random(seed)
        e = hostwcg_v1.raw_env(decks=[rng.choice(decks), rng.choice(decks)])
        e.reset(seed=seed)
        r = np.random.default_rng(seed)
        while e.agents and found < 5:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
                continue
            g = e.game
            d = g.decision
            obs = e.observe(agent)
            if d.kind.value == "choose_target" and "for " in d.prompt:
                name = d.prompt.split(" for ", 1)[1]
                dz = LAY.zone["decision"]
                assert obs["card_id"][dz.start] == card_id(name)
                for i in np.flatnonzero(obs["action_mask"]):
                    a = e.legal.decode(int(i))
                    if a.kind is Kind.TARGET and a.dst.on_board:
                        assert obs["action_source_row"][i] == dz.start
                        tgt = obs["action_target_row"][i]
                        if tgt >= 0 and obs["card_id"][tgt] not in (NONE, FACE_DOWN):
                            assert obs["cards"][tgt, COL["mine"]] == (a.dst.side == d.player)
                            found += 1
            e.step(int(r.choice(np.flatnonzero(e.action_mask(agent)))))
        if found >= 5:
            break
    assert found >= 5


# ----------------------------------------------------------------------------- globals
def test_globals_say_whose_decision_and_the_counts() -> None:
    e = hostwcg_v1.raw_env()

    def check(e) -> None:  # type: ignore[no-untyped-def]
        g = e.game
        for i, a in enumerate(AGENTS):
            gl = e.observe(a)["globals"]
            v = g.view(i)
            deciding = v.deciding == i
            assert gl[GCOL["deciding"]] == deciding and gl[GCOL["opp_deciding"]] == (v.deciding == 1 - i)
            if deciding:
                assert gl[GCOL[f"decision:{v.decision_kind.value}"]] == 1
            dz, hand, deck, drop, banished, forms = v.zone_sizes(i)
            assert gl[GCOL["me:hand"]] == pytest.approx(min(hand / 10, 10))
            assert gl[GCOL["me:deck"]] == pytest.approx(deck / 50)
            assert gl[GCOL["opp:hand"]] == pytest.approx(min(v.zone_sizes(1 - i)[1] / 10, 10))
            assert gl[GCOL["me:ap"]] == pytest.approx(v.ap(i) / 4)

    _play(e, 1, check)


def test_layout_tables_are_consistent() -> None:
    assert sorted(ZONE_ID.values()) == list(range(1, len(ZONE_ID) + 1))
    assert [z.start for z in LAY.zones] == sorted(z.start for z in LAY.zones)
    assert LAY.zones[0].start == 0 and LAY.rows == sum(z.rows for z in LAY.zones)


def test_game_of_the_same_seed_is_v0s_game() -> None:
    """v1 changes what is observed, not the game: the same seed and the same action indices
    play the same game as v0."""
    e0, e1 = hostwcg_v0.raw_env(), hostwcg_v1.raw_env()
    e0.reset(seed=9)
    e1.reset(seed=9)
    rng = np.random.default_rng(9)
    while e0.agents:
        assert e1.agents and e0.agent_selection == e1.agent_selection
        a = e0.agent_selection
        if e0.terminations[a] or e0.truncations[a]:
            e0.step(None)
            e1.step(None)
            continue
        m0, m1 = e0.action_mask(a), e1.action_mask(a)
        assert np.array_equal(m0, m1)
        i = int(rng.choice(np.flatnonzero(m0)))
        e0.step(i)
        e1.step(i)
    assert [str(x) for x in e0.game.events] == [str(x) for x in e1.game.events]


def test_a_new_game_encodes_before_the_game_begins() -> None:
    """Before the Hosts are flipped (9.1.8) my Host is mine to see and the opponent's is not
    (4.6.1): its row is an unknown card; no hand has been drawn yet."""
    g = default_ruleset().new_game(*shipped_decks()[:2], seed=4)
    from hostwcg_env.env.v1 import Memory

    for p in (0, 1):
        v = g.view(p)
        m = Memory(p)
        m.sync(v)
        arrays = fresh(v, m)
        host = g.state.objs[g.state.players[p].host].card.name
        assert arrays["card_id"][LAY.zone["my_host"].start] == card_id(host)
        assert arrays["card_id"][LAY.zone["opp_host"].start] == UNKNOWN
        assert arrays["globals"][GCOL["started"]] == 0
        assert not arrays["card_zone"][LAY.zone["my_hand"].start : LAY.zone["my_hand"].stop].any()


def test_view_events_from_is_the_tail_of_events() -> None:
    """``PlayerView.events_from(i)`` (the memory reads the log from where it stopped) is
    ``events[i:]`` as that viewer sees it: hidden draws stay hidden."""
    e = hostwcg_v1.raw_env()
    _play(e, 2, max_steps=200)
    for p in (0, 1):
        v = e.game.view(p)
        full = v.events
        assert len(full) > 50
        for i in (0, 7, len(full) // 2, len(full)):
            assert v.events_from(i) == full[i:]


@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_the_decision_row_names_the_same_card_whatever_order_the_names_come_in(order: int,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The card a decision's prompt names (the `decision` row) was the first of the longest
    names found, in the order a set of names iterates: with two names alike in length ("put on
    the stack: Rain of Embers, Fury Channeler", 33.2) it differed between processes. Now the
    longest name wins, and of those alike in length the one the prompt names first."""
    from hostwcg_env.env.v1.encoder import Encoder

    names = sorted(set(default_pool()))
    random.Random(order).shuffle(names)
    enc = Encoder(RuleConfig())
    monkeypatch.setattr(enc, "_all_names", lambda: set(names) if order % 2 else names)  # type: ignore[method-assign]
    assert enc._prompt_card("put on the stack: Rain of Embers, Fury Channeler") == "Rain of Embers"
    assert enc._prompt_card("put on the stack: Fury Channeler, Rain of Embers") == "Fury Channeler"
    assert enc._prompt_card("put on the stack: Hex of Frailty, Rain of Embers") == "Hex of Frailty"
    assert enc._prompt_card("target 't' for Alpha Wolf") == "Alpha Wolf"
    assert enc._prompt_card("nothing named here") is None
