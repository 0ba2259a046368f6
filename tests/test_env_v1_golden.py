"""hostwcg_v1's observations (every key of the dict: card rows, memory, history, the action
features), masks, rewards and flags are pinned bit for bit, as v0's are in test_env_golden.py:
a fixed set of seeded games is played and hashed. A refactor of the env layer must leave every
digest as it is; a change that moves one is a change of the env's behaviour (docs/env_v1.md).
A failure names the first field that moved (``hostwcg_env.testing.golden``), by game, step,
agent and observation key, from the one-byte hashes kept in ``tests/golden/hostwcg_v1.npz``.

The cases play the decks of 2026-11-25 (the decks' history folder), so balance work on the
shipped decks moves no digest. Pinned at commit 50d2ff5.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hostwcg_env import hostwcg_v1
from hostwcg_env.cards import load_deck
from hostwcg_env.cards.decks import DECKS_DIR
from hostwcg_env.engine import RuleConfig
from hostwcg_env.testing.golden import (
    Trace,
    check,
    first_difference,
    load_shorts,
    play_aec,
    save_shorts,
)

TRACES = Path(__file__).resolve().parent / "golden" / "hostwcg_v1.npz"
FROZEN = [load_deck(p) for p in sorted((DECKS_DIR / "history" / "2026-11-25").glob("*.toml"))]
POOLS = {"deck_pools": [FROZEN, FROZEN]}


def _seen(h: Trace, agent: str, obs: Any, last: bool) -> None:
    if last:
        h.feed(("agent", agent))
    h.feed_dict("observation", obs)


def aec_trace(make: Callable[[], Any], seed: int, games: int, peek_every: int = 0) -> Trace:
    return play_aec(make(), Trace(), seed, games, _seen, peek_every)


def parallel_trace(seed: int, games: int) -> Trace:
    e = hostwcg_v1.parallel_env(**POOLS)
    rng = random.Random(seed)
    h = Trace()
    for k in range(games):
        obs, _ = e.reset(seed=seed if k == 0 else None)
        step = 0
        while e.agents:
            actions = {}
            for a in e.agents:
                legal = np.flatnonzero(obs[a]["action_mask"])
                actions[a] = int(legal[rng.randrange(len(legal))]) if len(legal) else 0
            obs, rew, term, trunc, info = e.step(actions)
            for a in sorted(obs):
                h.where = f"game {k}, step {step}, {a}"
                h.feed_dict("observation", obs[a])
                h.feed(("reward", rew[a]), ("terminated", term[a]), ("truncated", trunc[a]))
            step += 1
    return h


CASES: dict[str, Callable[[], Trace]] = {
    "env-default-decks": lambda: aec_trace(lambda: hostwcg_v1.env(**POOLS), 21, games=3),
    "raw-test-decks-peek": lambda: aec_trace(lambda: hostwcg_v1.raw_env(decks="test"), 22, games=2, peek_every=3),
    "raw-ask-every-decision": lambda: aec_trace(lambda: hostwcg_v1.raw_env(auto_single=False, **POOLS), 23,
                                                games=1, peek_every=1),
    "raw-small-table": lambda: aec_trace(
        lambda: hostwcg_v1.raw_env(config=RuleConfig(frontrow_slots=3, backrow_slots=2), **POOLS), 24, games=2),
    "parallel": lambda: parallel_trace(25, games=2),
}

DIGESTS = {
    "env-default-decks": "c79e9b70e83d2f00e6ebdee986f2f8517f6bc172110b03af96ca81cf4a18df1e",
    "raw-test-decks-peek": "1a061fc17dc7bf66c34a0d3fd8022439dbb8ea1449936e8ad0e6fdee26b72295",
    "raw-ask-every-decision": "59fbde18de54190f33a28de10ad22561b493ce6e1b637464191f91081e50aaaf",
    "raw-small-table": "197c896864c10c0677651c58395df459d154bdd37ce62f5ea38c74c4f6d0fd0e",
    "parallel": "94f13d550a28b32f80b1216eee6203cc6257232a62be5973cd2e49898bd6bde3",
}


@pytest.mark.parametrize("case", list(CASES))
def test_v1_observations_masks_and_rewards_are_unchanged(case: str) -> None:
    check(case, CASES[case](), DIGESTS[case], TRACES)


def test_a_changed_v1_key_is_named_by_game_step_and_agent() -> None:
    trace = CASES["parallel"]()
    kept = bytearray(load_shorts(TRACES)["parallel"])
    assert bytes(kept) == bytes(trace.short)
    at = trace.names.index("game 0, step 2, player_0: observation['history']")
    kept[at] ^= 0xFF
    assert first_difference(bytes(kept), trace) == (
        f"first differing field: game 0, step 2, player_0: observation['history'] (field {at})")


if __name__ == "__main__":  # print the digests and keep the fields' hashes (to pin a new version's)
    traces = {name: fn() for name, fn in CASES.items()}
    for name, trace in traces.items():
        print(f'    "{name}": "{trace.digest()}",')
    save_shorts(TRACES, traces)
