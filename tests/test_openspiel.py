"""Host WCG as an OpenSpiel game (``hostwcg_env/openspiel.py``, docs/openspiel.md): OpenSpiel's
random-simulation test, resampling from an information state, the tensors against the
hostwcg_v1 env's observation, and OpenSpiel's own IS-MCTS bot playing it (the docs' example).

Skipped without the ``openspiel`` extra (``pip install -e ".[openspiel]"``); the dev extra has it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]' (the open_spiel package)")

import hostwcg_env.openspiel as hs  # noqa: E402  (after the skip)
from hostwcg_env import hostwcg_v1  # noqa: E402
from hostwcg_env.cards import default_ruleset  # noqa: E402
from hostwcg_env.env import AGENTS, shipped_decks  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _game(**params: object) -> object:
    return pyspiel.load_game(hs.SHORT_NAME, {"rng_seed": 1, "turn_limit": 6, **params})


def test_the_game_is_registered_with_its_type() -> None:
    names = {g.short_name: g for g in pyspiel.registered_games()}
    t = names[hs.SHORT_NAME]
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    game = _game()
    size = sum(int(np.prod(shape)) for shape, _ in hostwcg_v1.obs_layout().sizes().values())
    assert game.information_state_tensor_shape() == [size] == game.observation_tensor_shape()
    assert game.num_distinct_actions() == hostwcg_v1.obs_layout().n_actions == 266
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


@pytest.mark.slow
def test_openspiel_random_simulation_test() -> None:
    """OpenSpiel's own checks over whole random games: clones equal, legal actions sorted and
    only the current player's, unique action strings, tensor sizes, returns within bounds.
    Without serialization: a sampled-stochastic Python game cannot save its game-level
    generator (OpenSpiel's GetRNGState is C++ only)."""
    pyspiel.random_sim_test(_game(turn_limit=10), num_sims=2, serialize=False, verbose=False)


def test_resampling_keeps_the_players_information_state() -> None:
    """OpenSpiel's ResampleInfostateTest in Python: at every decision, for each player, a
    resampled state has the same information state (string and tensor) and player to act;
    and the opponent's hidden cards do differ in some sample."""
    game = _game(rng_seed=3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(0)
    state = game.new_initial_state()
    hands_differ = 0
    steps = 0
    while not state.is_terminal():
        for p in (0, 1):
            other = state.resample_from_infostate(p, sampler)
            assert state.information_state_string(p) == other.information_state_string(p)
            assert state.information_state_tensor(p) == other.information_state_tensor(p)
            assert state.observation_tensor(p) == other.observation_tensor(p)
            assert state.current_player() == other.current_player()
            hidden = sorted(o.card.name for o in state.engine_game.state.objs.values() if o.owner == 1 - p)
            sampled = sorted(o.card.name for o in other.engine_game.state.objs.values() if o.owner == 1 - p)
            hands_differ += hidden != sampled
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 10 and hands_differ > 0


def test_the_information_state_tensor_is_the_v1_observation() -> None:
    """The same game in the hostwcg_v1 env and in the pyspiel state: at every decision each
    player's information-state tensor is its v1 observation, every array flattened in order."""
    game = _game(turn_limit=8)
    rules = default_ruleset(game.config)
    decks = shipped_decks()
    env = hostwcg_v1.raw_env(turn_limit=8)
    env.start_from(rules.new_game(decks[0], decks[3], seed=11))
    state = game.state_from(rules.new_game(decks[0], decks[3], seed=11))
    rng = random.Random(2)
    steps = 0
    while not state.is_terminal():
        assert AGENTS[state.current_player()] == env.agent_selection
        for p, agent in enumerate(AGENTS):
            obs = env.observe(agent)
            flat = np.concatenate([a.astype(np.float32).ravel() for a in obs.values()])
            np.testing.assert_array_equal(np.asarray(state.information_state_tensor(p), np.float32), flat)
        legal = state.legal_actions()
        assert legal == np.flatnonzero(env.action_mask(env.agent_selection)).tolist()
        a = rng.choice(legal)
        state.apply_action(a)
        env.step(a)
        steps += 1
    assert not env.agents or all(env.terminations[a] or env.truncations[a] for a in env.agents)
    assert steps > 10


def test_the_observation_tensor_has_no_memory() -> None:
    """The observation is what the player sees now: no public history (the information state
    has it once something happened)."""
    game = _game()
    rng = random.Random(1)
    state = game.new_initial_state()
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    obs = hs.HostWCGObserver(game, recall=False)
    info = hs.HostWCGObserver(game, recall=True)
    obs.set_from(state, 0)
    info.set_from(state, 0)
    assert not obs.dict["history"].any() and info.dict["history"].any()
    np.testing.assert_array_equal(obs.dict["card_id"], info.dict["card_id"])


def test_a_clone_plays_on_as_the_original() -> None:
    game = _game()
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    twin = state.clone()
    while not state.is_terminal():
        a = rng.choice(state.legal_actions())
        state.apply_action(a)
        twin.apply_action(a)
        assert str(state) == str(twin)
    assert twin.is_terminal() and state.returns() == twin.returns()


def test_an_illegal_action_and_bad_parameters_are_refused_in_one_line() -> None:
    state = _game().new_initial_state()
    illegal = next(a for a in range(266) if a not in state.legal_actions())
    with pytest.raises(ValueError, match=f"action {illegal} is not legal"):
        state.apply_action(illegal)
    with pytest.raises(ValueError, match="decks must be"):
        _game(decks="karsh")
    with pytest.raises(ValueError, match="turn_limit must be at least 1"):
        _game(turn_limit=0)
    game = _game(turn_limit=6)
    other_rules = default_ruleset(hostwcg_v1.raw_env(turn_limit=7).config)
    with pytest.raises(ValueError, match="state_from needs a game dealt with this game's rules"):
        game.state_from(other_rules.new_game(shipped_decks()[0], shipped_decks()[1], seed=0))


def test_the_default_observer_is_the_observation() -> None:
    """``pyspiel.make_observation`` without a type gives the observation (no memory), with
    perfect recall the information state."""
    from open_spiel.python.observation import make_observation

    game = _game()
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    plain = make_observation(game)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    plain.set_from(state, 0)
    recall.set_from(state, 0)
    assert list(plain.tensor) == state.observation_tensor(0)
    assert list(recall.tensor) == state.information_state_tensor(0)


def _docs_example() -> str:
    text = (ROOT / "docs" / "openspiel.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    return next(b for b in blocks if "ISMCTSBot" in b)


@pytest.mark.slow
def test_openspiels_ismcts_bot_plays_the_docs_example(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/openspiel.md's example as written: OpenSpiel's IS-MCTS bot (which asserts that each
    resampled root has the searched information state) against a uniform random bot, a whole
    game to its end."""
    namespace: dict[str, object] = {}
    exec(compile(_docs_example(), "docs/openspiel.md", "exec"), namespace)
    state = namespace["state"]
    assert state.is_terminal()  # type: ignore[attr-defined]
    assert sum(1 for p, _ in namespace["moves"] if p == 0) > 5  # type: ignore[attr-defined]
    assert re.search(r"returns \[-?[01]\.0, -?[01]\.0\]", capsys.readouterr().out)
    # the same rng_seed deals the same game: the moves replay on a new game object to the same end
    replay = pyspiel.load_game(hs.SHORT_NAME, {"turn_limit": 6, "rng_seed": 0}).new_initial_state()
    for _, action in namespace["moves"]:  # type: ignore[attr-defined]
        assert action in replay.legal_actions()
        replay.apply_action(action)
    assert replay.is_terminal() and replay.returns() == state.returns()  # type: ignore[attr-defined]
