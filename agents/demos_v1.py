"""hostwcg_v1 demonstrations: an agent's recorded choices as v1 observations, for behaviour
cloning the set policy (``scripts/distill_v1.py``; ``agents/demos.py`` is v0's format).

A game record keeps every action of its game, so replaying it through a ``hostwcg_v1``
``raw_env`` started from the record's game (``raw_env.start_from``;
``hostwcg_env.analysis.distill.v1_from_records``, the analysis layer reads records) shows each
choice of each player exactly as the env shows it to that player: the observation (memory and history
included: they are written from the player's view and the events it saw), the mask and the
action taken. The lookahead's balance studies and the pimc confirmation games are thus a
distillation set that costs no game to make.

A row is one choice (two or more legal actions; the env takes forced ones itself) of a
recorded seat. Stored compactly (``V1Demos.arrays``): the card rows in use (zone > 0) as
``(row, zone, card id, 39 features as float16)``, the globals, the history, and the legal
actions as ``(index, card, source row, target row)`` (``action_kind`` / ``action_arg`` are the
same in every state and are kept once); the action taken, the game's result from that
player's side (+1 / -1 / 0) and the value target PPO would see there,
``gamma ** (choices left after it) * result``. A game with a choice the env's layout does not
offer (more than 24 pending triggers to order: ``hostwcg_env.env.codec.offered``) is skipped and
counted. ``batch(data, rows)`` rebuilds the dense
observation dict the policies read (``agents.set_policy.NumpySetPolicy``,
``agents.set_policy_torch.SetPolicy``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .demos import GameRows

# the stored arrays with one entry (or one run of entries) per row, beside GameRows' own
_PARTS = ("row_idx", "row_zone", "row_card", "row_feat", "globals", "history", "act_idx", "act_card",
          "act_src", "act_tgt")


class V1Demos(GameRows):
    """Collects rows game by game; ``arrays()`` gives the stored format."""

    def __init__(self, env: Any) -> None:
        super().__init__()
        self.n_rows, self.n_feat = env.obs_layout.sizes()["cards"][0]
        probe = env.encoder.slate()
        self.action_kind = probe.arrays["action_kind"].astype(np.int16).copy()
        self.action_arg = probe.arrays["action_arg"].astype(np.int16).copy()
        self.row_ptr = [0]
        self.row_idx: list[np.ndarray] = []
        self.row_zone: list[np.ndarray] = []
        self.row_card: list[np.ndarray] = []
        self.row_feat: list[np.ndarray] = []
        self.globals: list[np.ndarray] = []
        self.history: list[np.ndarray] = []
        self.act_ptr = [0]
        self.act_idx: list[np.ndarray] = []
        self.act_card: list[np.ndarray] = []
        self.act_src: list[np.ndarray] = []
        self.act_tgt: list[np.ndarray] = []

    def add(self, obs: dict[str, np.ndarray], action: int, seat: int) -> None:
        """One choice of ``seat`` in the current game (the arrays are copied)."""
        mask = obs["action_mask"]
        if not mask[action]:
            raise ValueError(f"action {action} is not legal in the observation it is recorded with")
        rows = np.flatnonzero(obs["card_zone"] > 0)
        self.row_idx.append(rows.astype(np.uint8))
        self.row_zone.append(obs["card_zone"][rows].astype(np.uint8))
        self.row_card.append(obs["card_id"][rows].astype(np.int16))
        self.row_feat.append(obs["cards"][rows].astype(np.float16))
        self.row_ptr.append(self.row_ptr[-1] + len(rows))
        self.globals.append(obs["globals"].astype(np.float32))
        self.history.append(obs["history"].astype(np.int16))
        legal = np.flatnonzero(mask)
        self.act_idx.append(legal.astype(np.int16))
        self.act_card.append(obs["action_card"][legal].astype(np.int16))
        self.act_src.append(obs["action_source_row"][legal].astype(np.int8))
        self.act_tgt.append(obs["action_target_row"][legal].astype(np.int8))
        self.act_ptr.append(self.act_ptr[-1] + len(legal))
        self._row(action, seat)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` rows (drop those of a game that cannot be kept: one under way,
        or one with a choice the layout cannot express)."""
        for name in (*_PARTS, "actions", "targets", "outcomes", "games"):
            setattr(self, name, getattr(self, name)[:n])
        self.row_ptr = self.row_ptr[: n + 1]
        self.act_ptr = self.act_ptr[: n + 1]
        self._seat_rows = {0: [], 1: []}

    def arrays(self) -> dict[str, np.ndarray]:
        def cat(xs: list[np.ndarray], dtype: Any, shape: tuple[int, ...] = ()) -> np.ndarray:
            return np.concatenate(xs) if xs else np.zeros((0, *shape), dtype=dtype)

        return {
            "row_ptr": np.asarray(self.row_ptr, dtype=np.int64),
            "row_idx": cat(self.row_idx, np.uint8),
            "row_zone": cat(self.row_zone, np.uint8),
            "row_card": cat(self.row_card, np.int16),
            "row_feat": cat(self.row_feat, np.float16, (self.n_feat,)),
            "globals": np.stack(self.globals) if self.globals else np.zeros((0, 0), np.float32),
            "history": np.stack(self.history) if self.history else np.zeros((0, 0, 0), np.int16),
            "act_ptr": np.asarray(self.act_ptr, dtype=np.int64),
            "act_idx": cat(self.act_idx, np.int16),
            "act_card": cat(self.act_card, np.int16),
            "act_src": cat(self.act_src, np.int8),
            "act_tgt": cat(self.act_tgt, np.int8),
            "action_kind": self.action_kind,
            "action_arg": self.action_arg,
            "actions": np.asarray(self.actions, dtype=np.int16),
            "value_targets": np.asarray(self.targets, dtype=np.float32),
            "outcomes": np.asarray(self.outcomes, dtype=np.int8),
            "games": np.asarray(self.games, dtype=np.int32),
            "n_rows": np.asarray(self.n_rows),
            "n_games": np.asarray(self.n_games),
        }


def merge(parts: Iterable[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One demonstration set of several (``arrays()`` of each), games renumbered."""
    parts = [p for p in parts if len(p["actions"])]
    if not parts:
        raise ValueError("no demonstration rows to merge")
    out: dict[str, np.ndarray] = {}
    for k in (*_PARTS, "actions", "value_targets", "outcomes"):
        out[k] = np.concatenate([p[k] for p in parts])
    for ptr, key in (("row_ptr", "row_idx"), ("act_ptr", "act_idx")):
        pieces, base = [np.zeros(1, np.int64)], 0
        for p in parts:
            pieces.append(p[ptr][1:] + base)
            base += len(p[key])
        out[ptr] = np.concatenate(pieces)
    games, base = [], 0
    for p in parts:
        games.append(p["games"] + base)
        base += int(p["n_games"])
    out["games"] = np.concatenate(games)
    out["n_games"] = np.asarray(base)
    for k in ("action_kind", "action_arg", "n_rows"):
        out[k] = parts[0][k]
    return out


def batch(data: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, np.ndarray]:
    """The dense v1 observations (a dict of ``(len(rows), ...)`` arrays, as the env gives them)
    of the given demonstration rows."""
    rows = np.asarray(rows, dtype=np.int64)
    b = len(rows)
    n_rows = int(data["n_rows"])
    n_act = len(data["action_kind"])
    n_feat = data["row_feat"].shape[1]
    cards = np.zeros((b, n_rows, n_feat), np.float32)
    card_id = np.zeros((b, n_rows), np.int32)
    card_zone = np.zeros((b, n_rows), np.int32)
    mask = np.zeros((b, n_act), np.int8)
    act_card = np.zeros((b, n_act), np.int32)
    act_src = np.full((b, n_act), -1, np.int32)
    act_tgt = np.full((b, n_act), -1, np.int32)
    rp, ap = data["row_ptr"], data["act_ptr"]
    r_lo, r_hi, a_lo, a_hi = rp[rows], rp[rows + 1], ap[rows], ap[rows + 1]
    ri = _ranges(r_lo, r_hi)
    rb = np.repeat(np.arange(b), r_hi - r_lo)
    slot = data["row_idx"][ri].astype(np.int64)
    cards[rb, slot] = data["row_feat"][ri]
    card_id[rb, slot] = data["row_card"][ri]
    card_zone[rb, slot] = data["row_zone"][ri]
    ai = _ranges(a_lo, a_hi)
    ab = np.repeat(np.arange(b), a_hi - a_lo)
    idx = data["act_idx"][ai].astype(np.int64)
    mask[ab, idx] = 1
    act_card[ab, idx] = data["act_card"][ai]
    act_src[ab, idx] = data["act_src"][ai]
    act_tgt[ab, idx] = data["act_tgt"][ai]
    return {
        "cards": cards, "card_id": card_id, "card_zone": card_zone,
        "globals": data["globals"][rows].astype(np.float32),
        "history": data["history"][rows].astype(np.int32),
        "action_mask": mask,
        "action_kind": np.broadcast_to(data["action_kind"].astype(np.int32), (b, n_act)).copy(),
        "action_arg": np.broadcast_to(data["action_arg"].astype(np.int32), (b, n_act)).copy(),
        "action_card": act_card, "action_source_row": act_src, "action_target_row": act_tgt,
    }


def _ranges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The concatenation of ``arange(lo[i], hi[i])`` for every i."""
    n = hi - lo
    if not n.sum():
        return np.zeros(0, np.int64)
    starts = np.repeat(lo - np.concatenate([[0], np.cumsum(n)[:-1]]), n)
    return starts + np.arange(int(n.sum()))


__all__ = ["V1Demos", "batch", "merge"]
