"""States that travel (docs/engine.md "Saving and sending a game"): a ``Game``, a
``GameState`` and a ``PlayerView`` pickle and deep-copy to an equal state that plays on
identically, the envs do so mid-game, and a mid-game state goes through a process pool and a
Ray task and comes back played on. The compiled build needs the reducers of
``hostwcg_env.engine.travel`` (without them: ``__init__() missing required argument`` and
``FrozenInstanceError``); this file runs in both builds."""

from __future__ import annotations

import copy
import dataclasses
import enum
import importlib
import inspect
import pickle
import pkgutil
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import hostwcg_env.engine as engine
from hostwcg_env import hostwcg_v0, hostwcg_v1
from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import Game, GameState
from hostwcg_env.engine.travel import ARGS, MODULES, attributes
from hostwcg_env.env import shipped_decks

SKIP = ("ident", "hidden_cache", "stat_cache", "ability_cache", "rng", "rng_shared")
# __init__ arguments stored under another attribute name
RENAMED = {"game.Game": {"state": "s"}, "view.PlayerView": {"state": "_s"}}
# classes with required __init__ arguments that no state or env holds (made and used in one call)
TRANSIENT = {"wording.TextCtx", "stats.PoolTables", "core.Core"}


def _game(seed: int, steps: int) -> Game:
    decks = shipped_decks(include_test=True)
    rng = random.Random(seed)
    g = default_ruleset().new_game(rng.choice(decks), rng.choice(decks), seed=seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def canon(x: Any) -> Any:
    """``x`` as nested tuples of plain values: a set in sorted order (its iteration order
    depends on the process's string hashing, and a copy may insert in another order), an
    object as its type and attributes; lists, tuples and dicts in their own order."""
    if x is None or isinstance(x, bool | int | float | str | bytes | enum.Enum):
        return x
    if isinstance(x, set | frozenset):
        return ("set", tuple(sorted((canon(v) for v in x), key=repr)))
    if isinstance(x, list | tuple):
        return (type(x).__name__, tuple(canon(v) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((canon(k), canon(v)) for k, v in x.items()))
    if isinstance(x, random.Random):
        return ("rng", x.getstate())
    attrs = attributes(x) if type(x).__module__.startswith("hostwcg_env") else None
    if not attrs:
        return repr(x)
    return (type(x).__qualname__, tuple((k, canon(v)) for k, v in sorted(attrs.items())))


def state_key(s: GameState) -> tuple[Any, ...]:
    """Everything a state is, comparable (caches and its identity token left out)."""
    attrs = attributes(s)
    rng = None if s.rng is None else s.rng.getstate()
    return (*((k, canon(attrs[k])) for k in sorted(attrs) if k not in SKIP), rng)


def play_on(g: Game, seed: int, steps: int = 400) -> Game:
    """Random legal actions from ``seed`` until the end or ``steps``: the same on equal games."""
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def _same_game(a: Game, b: Game) -> None:
    assert state_key(a.state) == state_key(b.state)
    play_on(a, 99)
    play_on(b, 99)
    assert [str(e) for e in a.events] == [str(e) for e in b.events]
    assert (a.winner, a.state.reason, a.state.turn) == (b.winner, b.state.reason, b.state.turn)


COPIES: dict[str, Callable[[Any], Any]] = {
    "deepcopy": copy.deepcopy,
    **{f"pickle{p}": (lambda x, p=p: pickle.loads(pickle.dumps(x, protocol=p))) for p in (2, 4, 5)},
}


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize(("seed", "steps"), [(0, 0), (1, 37), (2, 150), (3, 400)])
def test_game_and_state_round_trip_to_equal_states_that_play_on_identically(how: str, seed: int,
                                                                            steps: int) -> None:
    g = _game(seed, steps)
    assert " at 0x" not in str(state_key(g.state))  # the key holds no object address
    twin = COPIES[how](g)
    assert type(twin) is Game and twin.state is not g.state
    state = COPIES[how](g.state)
    assert type(state) is GameState
    ref = g.clone()
    _same_game(twin, ref.clone())
    _same_game(Game(state), ref.clone())
    _same_game(g, ref)  # and the original is untouched


@pytest.mark.parametrize("how", list(COPIES))
def test_player_view_round_trips_and_still_hides(how: str) -> None:
    g = _game(4, 60)
    for p in (0, 1):
        view = g.view(p)
        twin = COPIES[how](view)
        assert twin.player == p and twin.events == view.events
        assert state_key(twin.state) == state_key(view.state)
        assert twin.decision() == view.decision() and twin.hand_names(p) == view.hand_names(p)
        assert twin.card_names() == view.card_names()


def test_every_engine_class_that_needs_a_reducer_has_one() -> None:
    """``travel.ARGS`` names, for each class, the attributes its required ``__init__``
    arguments set, in order; every class with required arguments is covered or transient; every
    frozen dataclass's module is registered."""
    import copyreg

    needed: dict[str, tuple[str, ...]] = {}
    frozen: list[str] = []
    for m in pkgutil.iter_modules(engine.__path__):
        if m.name.startswith("_") or m.name == "config":
            continue
        mod = importlib.import_module(f"hostwcg_env.engine.{m.name}")
        for name, cls in vars(mod).items():
            if not inspect.isclass(cls) or cls.__module__ != mod.__name__:
                continue
            key = f"{m.name}.{name}"
            if dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                frozen.append(key)
                assert cls in copyreg.dispatch_table, f"{key}: a frozen dataclass without a reducer"
                continue
            if engine.compiled():  # the signature below needs the Python build
                continue
            params = list(inspect.signature(cls.__init__).parameters.values())[1:]
            required = tuple(RENAMED.get(key, {}).get(p.name, p.name) for p in params
                             if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD)
            if required and key not in TRANSIENT:
                needed[key] = required
    assert frozen and all(k.split(".")[0] in MODULES for k in frozen)
    if not engine.compiled():
        assert needed == ARGS
    for key in ARGS:
        mod, name = key.split(".")
        assert mod in MODULES
        assert getattr(importlib.import_module(f"hostwcg_env.engine.{mod}"), name) in copyreg.dispatch_table


@pytest.mark.parametrize("how", list(COPIES))
def test_typed_actions_travel_field_for_field(how: str) -> None:
    """An action's places and resource come back equal (frozen dataclasses are made again from
    their fields, in order, through ``__init__``), and a pending decision's actions with them."""
    from hostwcg_env.engine import Action

    texts = ["activate B.f0.m1 2", "target stack3", "pay auto", "pay $", "ap any %", "card d4", "trigger 1",
             "slot b2", "play h7", "attack f4", "pass"]
    for text in texts:
        a = Action.parse(text)
        twin = COPIES[how](a)
        assert twin == a and str(twin) == text and (twin.source, twin.target, twin.res, twin.n) == (
            a.source, a.target, a.res, a.n)
    g = _game(2, 0)
    while g.decision is not None and not any(a.source is not None or a.target is not None
                                             for a in g.decision.actions):
        g.apply(g.decision.actions[-1])
    assert g.decision is not None
    assert COPIES[how](g).decision.actions == g.decision.actions


def test_frozen_dataclasses_take_their_fields_in_order() -> None:
    """What the frozen reducer relies on: ``__init__``'s first parameters are the fields, in
    order (the Python build; mypyc keeps the signature)."""
    if engine.compiled():
        pytest.skip("the signature needs the Python build")
    checked = 0
    for m in pkgutil.iter_modules(engine.__path__):
        if m.name.startswith("_") or m.name == "config":
            continue
        mod = importlib.import_module(f"hostwcg_env.engine.{m.name}")
        for cls in vars(mod).values():
            if (inspect.isclass(cls) and cls.__module__ == mod.__name__ and dataclasses.is_dataclass(cls)
                    and cls.__dataclass_params__.frozen):  # type: ignore[attr-defined]
                names = [f.name for f in dataclasses.fields(cls)]
                params = list(inspect.signature(cls.__init__).parameters)[1:]
                assert params[:len(names)] == names, cls
                checked += 1
    assert checked >= 3


# ---------------------------------------------------------------------------- envs
def _step_aec(e: Any, rng: np.random.Generator, n: int) -> None:
    for _ in range(n):
        if not e.agents:
            return
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(e.action_mask(agent)))))


def _obs_equal(a: Any, b: Any) -> bool:
    return set(a) == set(b) and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("how", ["deepcopy", "pickle5"])
@pytest.mark.parametrize("make", [hostwcg_v0.raw_env, hostwcg_v0.env, hostwcg_v1.raw_env, hostwcg_v1.env],
                         ids=["v0 raw_env", "v0 env", "v1 raw_env", "v1 env"])
def test_aec_envs_copy_mid_game_and_play_on_identically(make: Callable[..., Any], how: str) -> None:
    e = make(turn_limit=12)
    e.reset(seed=3)
    _step_aec(e, np.random.default_rng(0), 40)
    twin = COPIES[how](e)
    for agent in ("player_0", "player_1"):
        assert _obs_equal(e.observe(agent), twin.observe(agent))
    assert twin.agent_selection == e.agent_selection
    _step_aec(e, np.random.default_rng(1), 10_000)
    _step_aec(twin, np.random.default_rng(1), 10_000)
    assert [str(x) for x in e.unwrapped.game.events] == [str(x) for x in twin.unwrapped.game.events]
    assert e.unwrapped.game.winner == twin.unwrapped.game.winner and not e.agents and not twin.agents


@pytest.mark.parametrize("how", ["deepcopy", "pickle5"])
@pytest.mark.parametrize("make", [hostwcg_v0.parallel_env, hostwcg_v1.parallel_env], ids=["v0", "v1"])
def test_parallel_envs_copy_mid_game_and_play_on_identically(make: Callable[..., Any], how: str) -> None:
    p = make(turn_limit=12)
    obs, _ = p.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(30):
        actor = p.aec.agent_selection
        obs, *_ = p.step({actor: int(rng.choice(np.flatnonzero(obs[actor]["action_mask"])))})
    twin = COPIES[how](p)
    runs = []
    for env in (p, twin):
        o = {a: env.aec.observe(a) for a in env.agents}
        rng = np.random.default_rng(1)
        steps = 0
        while env.agents:
            actor = env.aec.agent_selection
            o, *_ = env.step({actor: int(rng.choice(np.flatnonzero(o[actor]["action_mask"])))})
            steps += 1
        runs.append((steps, [str(x) for x in env.aec.game.events]))
    assert runs[0] == runs[1]


# ---------------------------------------------------------------------------- processes
def continue_game(g: Game, seed: int) -> Game:
    """Play ``g`` on in another process (module level: a pool pickles it by name)."""
    return play_on(g, seed)


def test_a_mid_game_state_goes_through_a_process_pool_and_plays_on() -> None:
    from multiprocessing import get_context

    g = _game(5, 80)
    with get_context("spawn").Pool(1) as pool:
        done, state = pool.apply(continue_game, (g.clone(), 7)), pool.apply(copy.deepcopy, (g.state,))
    assert state_key(state) == state_key(g.state)
    local = play_on(g.clone(), 7)
    assert [str(e) for e in done.events] == [str(e) for e in local.events]
    assert state_key(done.state) == state_key(local.state)


@pytest.mark.slow
def test_a_mid_game_state_goes_through_a_ray_task_and_plays_on() -> None:
    ray = pytest.importorskip("ray")
    g = _game(6, 90)

    def remote_play_on(game: Game, seed: int) -> Game:  # a local function: Ray ships it by value
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        return game

    ray.init(address="local", num_cpus=1, include_dashboard=False, logging_level="ERROR",
             configure_logging=False)
    try:
        done = ray.get(ray.remote(remote_play_on).remote(g.clone(), 8))
    finally:
        ray.shutdown()
    local = play_on(g.clone(), 8)
    assert [str(e) for e in done.events] == [str(e) for e in local.events]
    assert state_key(done.state) == state_key(local.state)


@pytest.mark.parametrize("how", list(COPIES))
def test_an_illegal_action_error_travels_back_from_a_worker(how: str) -> None:
    """A worker's IllegalActionError reaches the caller as itself (pickled with both of its
    arguments; before, unpickling it raised ``missing 1 required positional argument``)."""
    from hostwcg_env.engine import IllegalActionError

    e = COPIES[how](IllegalActionError("31.1", "action 7 is not legal now"))
    assert type(e) is IllegalActionError and e.rule == "31.1" and str(e) == "31.1: action 7 is not legal now"


@pytest.mark.parametrize("how", ["deepcopy", "pickle5"])
def test_single_agent_envs_copy_mid_episode_and_play_on_identically(how: str) -> None:
    from hostwcg_env.env.single import SingleAgentEnv

    for make in (lambda: SingleAgentEnv(seed=0, turn_limit=10), lambda: hostwcg_v1.single_env(turn_limit=10)):
        s = make()
        s.reset(seed=2)
        rng = np.random.default_rng(0)
        for _ in range(10):
            s.step(int(rng.choice(np.flatnonzero(s.action_masks()))))
        twin = COPIES[how](s)
        runs = []
        for env in (s, twin):
            rng = np.random.default_rng(1)
            out = []
            done = False
            while not done:
                obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
                out.append((reward, term, trunc))
                done = term or trunc
            runs.append((out, obs if isinstance(obs, np.ndarray) else sorted(obs)))
        assert runs[0][0] == runs[1][0]


@pytest.mark.parametrize("how", ["deepcopy", "pickle5"])
def test_a_vector_env_copies_mid_game_and_plays_on_identically(how: str) -> None:
    """The copy's games write into the copy's own buffers (numpy copies the per-game views as
    arrays of their own: before, the copy's observations and masks stopped changing)."""
    v = hostwcg_v1.vector_env(2, seed=1, turn_limit=8)
    v.reset()
    rng = np.random.default_rng(0)

    def act(env: Any, rng: np.random.Generator) -> np.ndarray:
        return np.array([int(rng.choice(np.flatnonzero(m))) for m in env.action_masks()])

    for _ in range(15):
        v.step(act(v, rng))
    twin = COPIES[how](v)
    outs = []
    for env in (v, twin):
        rng = np.random.default_rng(1)
        seen = []
        for _ in range(60):
            obs, rewards, dones, _ = env.step(act(env, rng))
            seen.append((obs["action_mask"].copy(), obs["cards"].copy(), rewards.copy(), dones.copy()))
        outs.append(seen)
    for a, b in zip(*outs, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
