"""Golden traces: everything agents see in seeded games, pinned by a SHA-256 digest, with a
one-byte hash of each field kept beside it so that a failure names the first field that moved.

A case feeds named fields to a ``Trace`` (``trace.where`` says the game, step and agent); its
``digest()`` is the check. ``shorts()`` are the fields' one-byte hashes, kept in a ``.npz``;
``first_difference(kept, trace)`` names the first field whose hash the new run does not repeat.
One byte in 256 can hide an earlier difference, which the message says; the digest never errs.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

# splits a named array into named parts (the v0 observation into its sections), or None
Splitter = Callable[[str, np.ndarray], "Iterable[tuple[str, np.ndarray]] | None"]


class Trace:
    """The digest of a case, and a one-byte hash of each field fed to it with the field's name."""

    def __init__(self, split: Splitter | None = None) -> None:
        self.h = hashlib.sha256()
        self.short = bytearray()
        self.names: list[str] = []
        self.where = ""
        self._split = split

    def feed(self, *parts: tuple[str, Any]) -> None:
        """Feed each (name, value): arrays by their bytes, anything else by its ``repr``."""
        for name, x in parts:
            data = x.tobytes() if isinstance(x, np.ndarray) else repr(x).encode()
            self.h.update(data)
            pieces = self._split(name, x) if self._split and isinstance(x, np.ndarray) else None
            if pieces is None:
                self._short(name, data)
            else:
                for piece, arr in pieces:
                    self._short(f"{name} {piece}", arr.tobytes())

    def feed_dict(self, prefix: str, obs: Mapping[str, Any]) -> None:
        """Feed a dict observation key by key, in its own order."""
        self.feed(*((f"{prefix}[{key!r}]", value) for key, value in obs.items()))

    def _short(self, name: str, data: bytes) -> None:
        self.short.append(hashlib.blake2b(data, digest_size=1).digest()[0])
        self.names.append(f"{self.where}: {name}")

    def digest(self) -> str:
        return self.h.hexdigest()


def play_aec(env: Any, trace: Trace, seed: int, games: int,
             seen: Callable[[Trace, str, Mapping[str, Any], bool], None], peek_every: int = 0,
             end: Callable[[Trace, Any], None] | None = None, max_steps: int = 20_000) -> Trace:
    """Feed ``trace`` everything the agents of an AEC ``env`` see in ``games`` games of random
    legal actions drawn from ``random.Random(seed)`` (the env seeded once, later resets unseeded,
    as training loops do): every step, the deciding agent's ``last()`` (``seen(trace, agent, obs,
    True)``, then its reward, flags and info) and, every ``peek_every``-th step, the other
    agent's ``observe()`` (``seen(..., False)``); after each game, ``end(trace, env)``."""
    rng = random.Random(seed)
    steps = 0
    for k in range(games):
        env.reset(seed=seed if k == 0 else None)
        for agent in env.agent_iter(max_steps):
            obs, rew, term, trunc, info = env.last()
            trace.where = f"game {k}, step {steps}, {agent}'s last()"
            seen(trace, agent, obs, True)
            trace.feed(("reward", rew), ("terminated", term), ("truncated", trunc), ("info", sorted(info.items())))
            if peek_every and steps % peek_every == peek_every - 1:
                other = next(a for a in env.possible_agents if a != agent)
                if other in env.agents:
                    trace.where = f"game {k}, step {steps}, observe({other})"
                    seen(trace, other, env.observe(other), False)
            steps += 1
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        if end is not None:
            trace.where = f"game {k}, end"
            end(trace, env)
    return trace


def first_difference(kept: bytes, trace: Trace) -> str:
    """Where ``trace`` first departs from the kept one-byte hashes, in words."""
    for i, (a, b) in enumerate(zip(kept, trace.short, strict=False)):
        if a != b:
            return f"first differing field: {trace.names[i]} (field {i})"
    if len(kept) != len(trace.short):
        at = min(len(kept), len(trace.short))
        where = trace.names[at] if at < len(trace.names) else "after the last field"
        return (f"the run feeds {len(trace.short)} fields where {len(kept)} were kept; the first "
                f"{at} agree, then: {where}")
    return "every field's one-byte hash agrees: the difference is one a byte of hash cannot see"


def check(case: str, trace: Trace, digest: str, kept: Path) -> None:
    """Raise AssertionError unless ``trace`` has the pinned ``digest``; the message names the first
    field that moved (``first_difference`` against the hashes kept in ``kept``)."""
    if trace.digest() != digest:
        raise AssertionError(f"{case}: the digest moved; {first_difference(load_shorts(kept)[case], trace)}")


def load_shorts(path: Path) -> dict[str, bytes]:
    """The kept one-byte hashes of each case."""
    with np.load(path) as kept:
        return {name: kept[name].tobytes() for name in kept.files}


def save_shorts(path: Path, traces: Mapping[str, Trace]) -> None:
    """Keep the one-byte hashes of each case (to pin a new version's)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {n: np.frombuffer(bytes(t.short), dtype=np.uint8) for n, t in traces.items()}
    np.savez_compressed(path, **arrays)
