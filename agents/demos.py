"""Demonstrations: an agent's choices as (observation, legal-action mask, action) rows, for
behaviour cloning (``scripts/pretrain_bc.py``).

A row is one choice (a decision with at least two legal actions: forced ones are not shown to a
learner by the env, nor kept here) of the recorded player: the observation exactly as the env
gives it to that player (11,964 float32, stored sparse: column indices as uint16 and values as
float16, about 1.5% non-zero), the mask bit-packed, the flat index of the action taken, and
the game's result from that player's side (+1, -1, 0 for a draw) with the value target PPO
would see there, ``gamma ** (choices left after it) * result`` (the reward comes at the end).

Rows come from games played for the purpose (``pretrain_bc.generate``: the heuristic) or from
game records (``hostwcg_env.analysis.distill.from_records``): a record keeps every action of its
game, so replaying it shows each choice of an agent exactly as that agent saw it. The ISMCTS
games of the ladder are thus a distillation set for free.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .base import Observer


class GameRows:
    """The per-row bookkeeping of a demonstration set, whatever the observation's format: the
    action taken, the game it belongs to, and, once the game ends, the result from the
    recorded seat's side and the discounted value target (``DemoBuilder`` for hostwcg_v0,
    ``agents.demos_v1.V1Demos`` for hostwcg_v1)."""

    def __init__(self) -> None:
        self.actions: list[int] = []
        self.targets: list[float] = []
        self.outcomes: list[int] = []
        self.games: list[int] = []
        self.n_games = 0
        self._seat_rows: dict[int, list[int]] = {0: [], 1: []}

    def _row(self, action: int, seat: int) -> None:
        """The row's action and game (its observation stored by the subclass)."""
        self.actions.append(int(action))
        self.targets.append(0.0)  # known when the game ends
        self.outcomes.append(0)
        self.games.append(self.n_games)
        self._seat_rows[seat].append(len(self.actions) - 1)

    def end_game(self, winner: int | None, gamma: float) -> None:
        """Close the current game: fill in its results and value targets."""
        for seat, rows in self._seat_rows.items():
            result = 0 if winner is None else (1 if winner == seat else -1)
            for k, row in enumerate(rows):
                self.targets[row] = result * gamma ** (len(rows) - 1 - k)
                self.outcomes[row] = result
        self._seat_rows = {0: [], 1: []}
        self.n_games += 1


class DemoBuilder(GameRows):
    """Collects demonstration rows game by game; ``arrays()`` gives the stored format."""

    def __init__(self, obs_size: int, n_actions: int) -> None:
        super().__init__()
        self.obs_size = obs_size
        self.n_actions = n_actions
        self.indptr = [0]
        self.cols: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []

    def add(self, observation: np.ndarray, mask: np.ndarray, action: int, seat: int) -> None:
        """One choice of ``seat`` in the current game (its observation is copied)."""
        if not mask[action]:
            raise ValueError(f"action {action} is not legal in the mask it is recorded with")
        nz = np.flatnonzero(observation)
        self.cols.append(nz.astype(np.uint16))
        self.vals.append(observation[nz].astype(np.float16))
        self.indptr.append(self.indptr[-1] + len(nz))
        self.masks.append(np.packbits(np.asarray(mask).astype(bool)))
        self._row(action, seat)

    def arrays(self, seconds: float = 0.0) -> dict[str, np.ndarray]:
        return {
            "indptr": np.asarray(self.indptr, dtype=np.int64),
            "indices": np.concatenate(self.cols) if self.cols else np.zeros(0, np.uint16),
            "values": np.concatenate(self.vals) if self.vals else np.zeros(0, np.float16),
            "masks": (np.stack(self.masks) if self.masks
                      else np.zeros((0, (self.n_actions + 7) // 8), np.uint8)),
            "actions": np.asarray(self.actions, dtype=np.int16),
            "value_targets": np.asarray(self.targets, dtype=np.float32),
            "outcomes": np.asarray(self.outcomes, dtype=np.int8),
            "games": np.asarray(self.games, dtype=np.int32),
            "obs_size": np.asarray(self.obs_size),
            "n_actions": np.asarray(self.n_actions),
            "n_games": np.asarray(self.n_games),
            "seconds": np.asarray(seconds),
        }


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Concatenate demonstration sets (game ids are renumbered to stay distinct)."""
    if len(parts) == 1:
        return parts[0]
    for d in parts[1:]:
        if int(d["obs_size"]) != int(parts[0]["obs_size"]) or int(d["n_actions"]) != int(parts[0]["n_actions"]):
            raise ValueError(f"demonstration sets of different shapes: observation {int(d['obs_size'])} vs "
                             f"{int(parts[0]['obs_size'])}, actions {int(d['n_actions'])} vs "
                             f"{int(parts[0]['n_actions'])}")
    out = dict(parts[0])
    ptr, games = [parts[0]["indptr"]], [parts[0]["games"]]
    off_nnz = int(parts[0]["indptr"][-1])
    off_game = int(parts[0]["games"].max(initial=-1)) + 1
    for d in parts[1:]:
        ptr.append(d["indptr"][1:] + off_nnz)
        games.append(d["games"] + off_game)
        off_nnz += int(d["indptr"][-1])
        off_game += int(d["games"].max(initial=-1)) + 1
    out["indptr"] = np.concatenate(ptr)
    out["games"] = np.concatenate(games).astype(np.int32)
    for k in ("indices", "values", "masks", "actions", "value_targets", "outcomes"):
        out[k] = np.concatenate([d[k] for d in parts])
    out["n_games"] = np.asarray(sum(int(d["n_games"]) for d in parts))
    out["seconds"] = np.asarray(sum(float(d["seconds"]) for d in parts))
    if any("skipped_without_actions" in d for d in parts):
        out["skipped_without_actions"] = np.asarray(sum(int(d.get("skipped_without_actions", 0)) for d in parts))
    return out


Relabel = Callable[[Any, int, np.ndarray, np.ndarray, Observer], int]
"""``relabel(game, action, observation, mask, observer) -> label``: the label of a row from the
recorded flat ``action`` (``hostwcg_env.analysis.distill.from_records``)."""


def overrides_only(anchor: Any, policy: Any) -> Relabel:
    """A ``relabel`` for ``from_records`` (hostwcg_env.analysis.distill) that teaches a policy only
    what a search adds to its anchor: where the recorded choice (ISMCTS's, anchored on the
    heuristic) differs from the ``anchor`` agent's own choice in that state, the label is the
    recorded choice; elsewhere it is ``policy``'s own (greedy ``act``), so the policy is not pulled
    back towards the anchor it has already improved on. ``anchor`` must be deterministic (the
    heuristic is)."""
    from hostwcg_env.env.codec import encode

    from .base import decide

    def relabel(game: Any, action: int, obs: np.ndarray, mask: np.ndarray, observer: Observer) -> int:
        own = encode(observer.codec.lay, game.state, game.decision.player, decide(anchor, game))
        return action if own != action else int(policy.act(obs, mask))

    return relabel
