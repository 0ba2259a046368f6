"""hostwcg_v0's observations, masks, rewards and flags are pinned bit for bit: a fixed set of
seeded games is played and hashed, and the digests below were taken before the env layer was
made faster. Speed work (incremental encoding, cached masks, the fused wrappers, the engine
compiled or not) must leave every digest as it is; a change that moves one is a change of
the env's version (hostwcg_env/env/aec.py "Versions").

Each case plays random legal actions from one ``random.Random`` and seeds the env once (later
resets unseeded, as training loops do); some cases also observe the agent that is not
deciding, at irregular steps, so the incremental encoder meets every pattern of calls.

The SHA-256 digests are the check. A failure also names the first field that differs: every
field fed to the digest (the observation section by section, ``docs/observation.md``) has a
one-byte hash kept in ``tests/golden/hostwcg_v0.npz`` (``hostwcg_env.testing.golden``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hostwcg_env import hostwcg_v0
from hostwcg_env.cards import load_deck
from hostwcg_env.cards.decks import DECKS_DIR, stand_in_decks
from hostwcg_env.engine import RuleConfig
from hostwcg_env.env import AGENTS
from hostwcg_env.env.observation import obs_sections
from hostwcg_env.testing.golden import (
    Trace,
    check,
    first_difference,
    load_shorts,
    play_aec,
    save_shorts,
)

TRACES = Path(__file__).resolve().parent / "golden" / "hostwcg_v0.npz"


def _sections(name: str, obs: np.ndarray) -> list[tuple[str, np.ndarray]] | None:
    """The v0 observation section by section (a table of other sizes: the vector as one field)."""
    if name != "observation" or obs.size != _V0_SIZE:
        return None
    parts, start = [], 0
    for section, rows, width, _ in obs_sections(RuleConfig()):
        parts.append((f"section {section!r}", obs[start:start + rows * width]))
        start += rows * width
    return parts


def _trace() -> Trace:
    return Trace(_sections)


_V0_SIZE = sum(rows * width for _, rows, width, _ in obs_sections(RuleConfig()))


def _seen(h: Trace, agent: str, obs: Any, last: bool) -> None:
    h.feed(("agent", agent), ("observation", obs["observation"]), ("action_mask", obs["action_mask"]))


def _end(h: Trace, e: Any) -> None:
    h.feed(("end", "end"), ("cumulative rewards", sorted(e._cumulative_rewards.items())))


def aec_digest(make: Callable[[], Any], seed: int, games: int, peek_every: int = 0) -> Trace:
    """Everything the agents see in ``games`` games of an AEC env (``play_aec``): the deciding
    agent's ``last()`` every step and, every ``peek_every``-th step, the other agent's observation."""
    return play_aec(make(), _trace(), seed, games, _seen, peek_every, end=_end)


def parallel_digest(seed: int, games: int) -> Trace:
    e = hostwcg_v0.parallel_env(**POOLS)
    rng = random.Random(seed)
    h = _trace()
    for k in range(games):
        obs, _infos = e.reset(seed=seed if k == 0 else None)
        for a in AGENTS:
            h.where = f"game {k}, reset, {a}"
            h.feed(("agent", a), ("observation", obs[a]["observation"]), ("action_mask", obs[a]["action_mask"]))
        step = 0
        while e.agents:
            actions = {}
            for a in e.agents:
                legal = np.flatnonzero(obs[a]["action_mask"])
                actions[a] = int(legal[rng.randrange(len(legal))]) if len(legal) else 0
            obs, rew, term, trunc, info = e.step(actions)
            for a in sorted(obs):
                h.where = f"game {k}, step {step}, {a}"
                h.feed(("agent", a), ("observation", obs[a]["observation"]), ("action_mask", obs[a]["action_mask"]),
                       ("reward", rew[a]), ("terminated", term[a]), ("truncated", trunc[a]),
                       ("info", sorted(info[a].items())))
            step += 1
    return h


# The shipped decks change with balance work (docs/balance.md); the digests pin the env, so they
# play the decks as they were when the digests were taken, kept in the decks' history folder.
_FILES = sorted((DECKS_DIR / "history" / "2026-11-25").glob("*.toml"))
FROZEN = [load_deck(p) for p in _FILES]
# shipped_decks(include_test=True)'s order of that day: every deck file sorted by its stem
DECKS = [d for _, d in sorted([*zip((p.stem for p in _FILES), FROZEN, strict=True),
                               *zip(("test_authority", "test_strife"), stand_in_decks(), strict=True)],
                              key=lambda x: x[0])]
POOLS = {"deck_pools": [FROZEN, FROZEN]}  # the default decks of 2026-11-25
CASES: dict[str, Callable[[], Trace]] = {
    "env-default-decks": lambda: aec_digest(lambda: hostwcg_v0.env(**POOLS), 11, games=4),
    "raw-test-decks-peek": lambda: aec_digest(lambda: hostwcg_v0.raw_env(decks="test"), 12, games=3, peek_every=3),
    "raw-all-decks-peek-every-step": lambda: aec_digest(
        lambda: hostwcg_v0.raw_env(deck_pools=[DECKS, DECKS]), 13, games=3, peek_every=1),
    "raw-ask-every-decision": lambda: aec_digest(lambda: hostwcg_v0.raw_env(auto_single=False, **POOLS), 14, games=1,
                                                 peek_every=5),
    "raw-small-table-big-hand": lambda: aec_digest(
        lambda: hostwcg_v0.raw_env(config=RuleConfig(frontrow_slots=3, backrow_slots=2, starting_hand=9), **POOLS),
        15, games=2, peek_every=2),
    "parallel": lambda: parallel_digest(16, games=2),
}

# taken on the engine of ENGINE_EPOCH 3 (main at 8a56aa4, engine v2: rules 35.2/35.4 and 41.3
# fixed, so the games differ from epoch 2's) with main's env layer from before the speed work;
# on the engine of epoch 2 the env layer of commit 83be384 gave other digests, which the speed
# work kept until that merge. "raw-test-decks-peek" was taken again after b98419d: one of its
# games ends while a card resolves, and its last observations now show that card on the stack
# (34.5) where before it was in no zone; every earlier step is the same
DIGESTS = {
    "env-default-decks": "a76d94f59b5781514b4b210e90336ddbd430310fab5996d7e2778bf6088db042",
    "raw-test-decks-peek": "e0955f991a321595e5cb3b53f6f9c8d6c619e6e00286277ec73c30f9670c4145",
    "raw-all-decks-peek-every-step": "c3a55fedc5ea7c5a4433f3cb1da0474c0e04472ae00d59ba906b5732f3f20e9e",
    "raw-ask-every-decision": "e56d10303951d8a84294962159ac3d7f14a3ed69a749374f84ef8acd77453f7e",
    "raw-small-table-big-hand": "d43c48b9cb02379e94ffa20e91508d177c00f0040d0113338f18c895c5ebb675",
    "parallel": "c04e7c52aeeaf65d718b4643e7e08b847ccf44888a55e01557f2825128aaf9cf",
}


@pytest.mark.parametrize("case", list(CASES))
def test_observations_masks_and_rewards_are_unchanged(case: str) -> None:
    check(case, CASES[case](), DIGESTS[case], TRACES)


def test_a_changed_field_is_named_by_game_step_agent_and_section() -> None:
    """The message of a failure: a run whose observation of one step differs in one section."""
    trace = CASES["parallel"]()
    kept = bytearray(load_shorts(TRACES)["parallel"])
    assert bytes(kept) == bytes(trace.short)
    at = trace.names.index("game 0, step 3, player_1: observation section 'my_hand'")
    kept[at] ^= 0xFF
    assert first_difference(bytes(kept), trace) == (
        f"first differing field: game 0, step 3, player_1: observation section 'my_hand' (field {at})")
    assert "the first 10 agree" in first_difference(bytes(kept[:10]), trace)


if __name__ == "__main__":  # print the digests and keep the fields' hashes (to pin a new version's)
    traces = {name: fn() for name, fn in CASES.items()}
    for name, trace in traces.items():
        print(f'    "{name}": "{trace.digest()}",')
    save_shorts(TRACES, traces)
