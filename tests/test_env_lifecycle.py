"""Envs are freed: nothing outside an env (a cache on a method, a module-level table keyed by
env or game) keeps it, or its game, alive once its last user lets go of it."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from hostwcg_env import hostwcg_v0
from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import view as engine_view
from hostwcg_env.env import AGENTS, shipped_decks
from hostwcg_env.env.single import SingleAgentEnv


def _use_aec(e: Any) -> None:
    """Reset, a few steps, spaces, observe, render."""
    e.reset(seed=1)
    for _ in range(5):
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    for a in AGENTS:
        e.observation_space(a)
        e.action_space(a)
        e.observe(a)
    e.render()


def _dead_after_use(make: Callable[[], Any], use: Callable[[Any], None],
                    inner: Callable[[Any], list[Any]]) -> list[str]:
    """Weakrefs to the env and what it wraps; the names of those still alive after gc."""
    e = make()
    use(e)
    refs = {"env": weakref.ref(e)}
    by_id: dict[str, tuple[int, type]] = {}  # objects that take no weak reference (compiled)
    for k, obj in enumerate(inner(e)):
        name = f"inner {k} ({type(obj).__name__})"
        try:
            refs[name] = weakref.ref(obj)
        except TypeError:
            by_id[name] = (id(obj), type(obj))
    del e, obj
    gc.collect()
    alive = [name for name, r in refs.items() if r() is not None]
    if by_id:
        live = {(id(o), type(o)) for o in gc.get_objects()}
        alive += [name for name, key in by_id.items() if key in live]
    return alive


def _raw(e: Any) -> list[Any]:
    return [e, e.game.state]


def test_raw_env_is_freed() -> None:
    assert _dead_after_use(lambda: hostwcg_v0.raw_env(render_mode="ansi"), _use_aec, _raw) == []


def test_wrapped_env_is_freed() -> None:
    alive = _dead_after_use(lambda: hostwcg_v0.env(render_mode="ansi"), _use_aec,
                            lambda e: [e.unwrapped, e.unwrapped.game.state])
    assert alive == []


def test_three_wrapper_stack_is_freed() -> None:
    from hostwcg_env.env.aec import pettingzoo_wrapped_env

    alive = _dead_after_use(lambda: pettingzoo_wrapped_env(render_mode="ansi"), _use_aec,
                            lambda e: [e.unwrapped])
    assert alive == []


def test_parallel_env_is_freed() -> None:
    def use(p: Any) -> None:
        obs, _ = p.reset(seed=1)
        for a in AGENTS:
            p.observation_space(a)
            p.action_space(a)
        for _ in range(5):
            acts = {a: int(np.flatnonzero(o["action_mask"])[0]) if o["action_mask"].any() else 0
                    for a, o in obs.items()}
            obs, *_ = p.step(acts)
        p.render()

    assert _dead_after_use(lambda: hostwcg_v0.parallel_env(render_mode="ansi"), use,
                           lambda p: [p.aec, p.aec.game.state]) == []


def test_single_agent_env_is_freed() -> None:
    def use(s: Any) -> None:
        s.reset(seed=0)
        for _ in range(5):
            s.step(int(np.flatnonzero(s.action_masks())[0]))
        s.render()

    alive = _dead_after_use(lambda: SingleAgentEnv(seed=0, render_mode="ansi"), use,
                            lambda s: [s.aec, s.aec.game.state])
    assert alive == []


def test_many_envs_do_not_accumulate() -> None:
    """300 envs made, used and dropped one after another: none is left alive."""
    refs = []
    for i in range(300):
        e = hostwcg_v0.raw_env()
        e.reset(seed=i)
        e.observation_space(AGENTS[0])
        e.action_space(AGENTS[0])
        refs.append(weakref.ref(e))
        del e
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_determinize_does_not_keep_every_games_registry() -> None:
    """ISMCTS determinizes from each game's own registry dict: its per-registry cache is
    bounded, not one entry per game ever played."""
    a, b = shipped_decks()[:2]
    games = 40
    for i in range(games):
        g = default_ruleset().new_game(a, b, seed=i)
        while not g.state.started:
            g.apply(g.legal_actions()[0])
        engine_view.determinize(g.view(0), random.Random(i))
    assert len(engine_view._FALLBACKS) < games // 4


@pytest.mark.parametrize("make", [hostwcg_v0.raw_env, hostwcg_v0.env])
def test_spaces_stay_the_same_objects(make: Callable[[], Any]) -> None:
    e = make()
    e.reset(seed=0)
    for a in AGENTS:
        assert e.observation_space(a) is e.observation_space(a)
        assert e.action_space(a) is e.action_space(a)
    p = hostwcg_v0.parallel_env()
    assert p.observation_space(AGENTS[0]) is p.observation_space(AGENTS[1])
    assert p.action_space(AGENTS[0]) is p.action_space(AGENTS[0])


def test_encoder_does_not_keep_every_buffer_it_was_given() -> None:
    """Encoding into a fresh buffer each time (a caller's choice) leaves the buffers free."""
    from hostwcg_env.env.observation import ObservationEncoder

    e = hostwcg_v0.raw_env()
    e.reset(seed=0)
    enc = ObservationEncoder(e.config)
    refs = []
    for _ in range(50):
        buf = np.zeros(enc.size, dtype=np.float32)
        enc.encode(e.game.view(0), buf)
        refs.append(weakref.ref(buf))
        del buf
    gc.collect()
    assert sum(r() is not None for r in refs) < 10
