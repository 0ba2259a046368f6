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
from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import Action, Game, GameState, IllegalActionError, Kind, RuleConfig
from hostwcg_env.engine.kinds import Zone
from hostwcg_env.engine.legal import priority_actions
from hostwcg_env.engine.view import determinize
from hostwcg_env.env import action_layout, shipped_decks
from hostwcg_env.env.codec import encode
from hostwcg_env.env.observation import ObservationEncoder
from hostwcg_env.render import render_text
from hostwcg_env.testing.resample import resample_opponent

LAY = action_layout(RuleConfig())
ENC = ObservationEncoder(RuleConfig())


def _mask(game: Game, p: int) -> np.ndarray:
    m = np.zeros(LAY.n, dtype=np.int8)
    d = game.decision
    if d is None or game.is_over or d.player != p:
        return m
    acts = priority_actions(game.state, p) if d.kind.value == "priority" else d.actions
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
        g = default_ruleset().new_game(rng.choice(decks), rng.choice(decks), seed=seed)
        k = 0
        while not g.is_over:
            if k % every == 0:
                yield g
            g.apply(rng.choice(g.legal_actions()))
            k += 1


PROBES = [Action.parse(t) for t in ("play h0", "attack f0", "target B.f0", "card h1", "ap draw")]


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


# --------------------------------------------------------------------------- no tells
# Who is asked to decide, and when, must depend only on what the other player may know.
# From many states where the viewer decides, the opponent's hidden cards (hand, deck, damage
# zone, face-down cards) are drawn again, consistently with the viewer's view, and both games
# go on with the same choices: the viewer's own (any legal one) and the opponent's public
# ones (pass, action points, attacks, targets, slots, payments). Until the opponent makes a
# choice that differs or shows a hidden card, or the rules turn a resampled card face up in an
# open zone (a heal sends a damage card to the drop zone), what the viewer sees must stay identical: the
# AEC's agent_selection sequence, the parallel env's observation dict and the viewer's
# observation and mask in it, the rewards and flags, and every line of the viewer's ansi
# render.

_PUBLIC_KINDS = frozenset({Kind.PASS, Kind.YES, Kind.AP_HOST, Kind.AP_DRAW, Kind.AP_ANY, Kind.ATTACK,
                           Kind.TARGET, Kind.SLOT, Kind.PAY})


def _twin(p1, state):  # type: ignore[no-untyped-def]
    """A parallel env like ``p1`` whose game is ``state``."""
    from hostwcg_env.env import parallel_env

    p2 = parallel_env(render_mode="ansi", render_view=p1.aec.render_view)
    p2.reset(seed=0)
    a1, a2 = p1.aec, p2.aec
    a2.game = Game(state)
    a2.game.auto_pass = a1.game.auto_pass
    for name in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
        setattr(a2, name, dict(getattr(a1, name)))
    a2.agents = list(a1.agents)
    a2.agent_selection = a1.agent_selection
    p2.agents = list(p1.agents)
    return p2


def _same_for_viewer(p1, p2, viewer: str, where: str) -> None:  # type: ignore[no-untyped-def]
    assert p1.aec.agent_selection == p2.aec.agent_selection, f"{where}: agent_selection differs"
    o1, o2 = p1.aec.observe(viewer), p2.aec.observe(viewer)
    assert np.array_equal(o1["observation"], o2["observation"]), f"{where}: observation differs"
    assert np.array_equal(o1["action_mask"], o2["action_mask"]), f"{where}: mask differs"
    r1, r2 = p1.render().splitlines(), p2.render().splitlines()
    diff = [(a, b) for a, b in zip(r1, r2, strict=False) if a != b]
    assert len(r1) == len(r2) and not diff, f"{where}: render lines differ: {diff[:2]}"


_OPEN_ZONES = frozenset({Zone.DROP, Zone.BANISHED, Zone.FRONT, Zone.BACK, Zone.FORM, Zone.STACK, Zone.MARKER})


def _revealed(s1: GameState, s2: GameState) -> bool:
    """True once the twins differ in a face-up card of an open zone (4.2.1: the drop and banished
    zones and what is face up in play are open to both players): the game itself made a
    resampled card public, e.g. a Host heals and its damage zone's top card goes face up to the
    drop zone (2.1, 2.2). From there the twins may rightly look different to the viewer. Cards
    in hands, decks and damage zones are not exempted: a difference there must not show."""
    if s1.objs.keys() != s2.objs.keys():
        return True
    return any(o.zone in _OPEN_ZONES and not o.face_down and o.card.name != s2.objs[i].card.name
               for i, o in s1.objs.items())


def _opponent_choice(p1, p2, rng: random.Random) -> int | None:  # type: ignore[no-untyped-def]
    """An action index the opponent may take in both games that shows nothing hidden (pass
    when it can), or None if it has no such choice."""
    a1, a2 = p1.aec, p2.aec
    agent = a1.agent_selection
    m1, m2 = a1.action_mask(agent), a2.action_mask(agent)
    both = [i for i in np.flatnonzero(m1 & m2)
            if a1.codec.decode(a1.game, int(i)).kind in _PUBLIC_KINDS
            and a1.codec.decode(a1.game, int(i)) == a2.codec.decode(a2.game, int(i))]
    passes = [i for i in both if a1.codec.decode(a1.game, int(i)).kind is Kind.PASS]
    if passes and rng.random() < 0.8:
        return int(passes[0])
    return int(rng.choice(both)) if both else None


def _run_twins(seed: int, viewer: int, warm: int, horizon: int, rng: random.Random) -> tuple[int, int]:
    """Play ``warm`` random steps, resample, then compare for up to ``horizon`` steps; returns
    (steps compared, opponent decisions met)."""
    from hostwcg_env.env import parallel_env

    vname = ("player_0", "player_1")[viewer]
    p1 = parallel_env(render_mode="ansi", render_view=viewer, deck_pools=[shipped_decks()] * 2)
    p1.reset(seed=seed)
    steps = 0
    while p1.agents and (steps < warm or p1.aec.agent_selection != vname):
        actor = p1.aec.agent_selection
        p1.step({actor: int(rng.choice(np.flatnonzero(p1.aec.action_mask(actor))))})
        steps += 1
    if not p1.agents:
        return 0, 0
    s2 = resample_opponent(p1.aec.game.state, viewer, rng)
    if s2 is None:
        return 0, 0
    p2 = _twin(p1, s2)
    compared = opp = 0
    where = f"seed {seed} viewer {vname} after {steps} steps"
    _same_for_viewer(p1, p2, vname, where)
    for k in range(horizon):
        if not p1.agents:
            assert not p2.agents
            break
        actor = p1.aec.agent_selection
        if actor == vname:
            a = int(rng.choice(np.flatnonzero(p1.aec.action_mask(actor))))
        else:
            opp += 1
            choice = _opponent_choice(p1, p2, rng)
            if choice is None:
                break
            a = choice
        other = ("player_1", "player_0")[("player_0", "player_1").index(actor)]
        out1 = p1.step({actor: a, other: 0})
        out2 = p2.step({actor: a, other: 0})
        if _revealed(p1.aec.game.state, p2.aec.game.state):
            break  # the rules showed the viewer a resampled card (a heal turns a damage card face up, 2.2)
        assert out1[0].keys() == out2[0].keys(), f"{where}, step {k}: parallel observation keys differ"
        assert np.array_equal(out1[0][vname]["observation"], out2[0][vname]["observation"]) and \
            np.array_equal(out1[0][vname]["action_mask"], out2[0][vname]["action_mask"]), (
                f"{where}, step {k}: the parallel observation differs")
        for j in (1, 2, 3, 4):
            assert out1[j].keys() == out2[j].keys() and out1[j].get(vname) == out2[j].get(vname), (
                f"{where}, step {k}: parallel output {j} differs")
        if p1.agents:
            _same_for_viewer(p1, p2, vname, f"{where}, step {k}")
        compared += 1
    return compared, opp


@pytest.mark.parametrize("chunk", range(4))
def test_who_is_asked_depends_on_no_hidden_card(chunk: int) -> None:
    compared = opp = 0
    for seed in range(chunk * 6, (chunk + 1) * 6):
        rng = random.Random(f"twins|{seed}")
        for viewer in (0, 1):
            for warm in (rng.randrange(10, 60), rng.randrange(60, 220)):
                c, o = _run_twins(seed, viewer, warm, horizon=60, rng=rng)
                compared += c
                opp += o
    assert compared >= 500 and opp >= 150, (compared, opp)
