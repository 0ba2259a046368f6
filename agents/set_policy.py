"""The set-based hostwcg_v1 policy with numpy alone (``agents/set_policy_torch.py`` trains it).

``NumpySetPolicy(weights)`` runs the same forward pass as the torch ``SetEncoder`` (card
encoder shared by every row, mean pools per zone, history, state MLP, pointer-style action
head with its optional action MLP, linear value): ``forward(obs)`` gives the action logits and
the values of a batch of v1 observations, ``predict(obs, action_masks=..., deterministic=...)``
the actions (as an SB3 model: it can be the batched opponent of ``hostwcg_v1.vector_env``). The
weights are the dict ``set_policy_torch.export_weights(model)`` makes (``np.savez`` /
``np.load`` keep it).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

CHECK_LOGIT_SCALE = 5.0  # the learned check reads an action's logit below the network's best over this


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0, out=x)


class NumpySetPolicy:
    name = "set"

    def __init__(self, weights: dict[str, np.ndarray], deterministic: bool = True, seed: int | None = None) -> None:
        from hostwcg_env.threads import limit_blas_threads

        limit_blas_threads()  # one BLAS thread unless HOSTWCG_BLAS_THREADS says otherwise (hostwcg_env/threads.py)
        w = {k: np.asarray(v, dtype=np.float32) for k, v in weights.items() if k != EXTRA_CARDS}
        self.w = w
        # the user's cards the network was trained with (its card ids from the shipped index's end
        # on, docs/cards.md "Your own cards"): the current index's ids are mapped onto its own
        self.extra_cards = tuple(str(n) for n in np.asarray(weights.get(EXTRA_CARDS, ())).reshape(-1))
        self.n_card_rows = w["enc.card_emb.weight"].shape[0]
        self._map_for: tuple[str, ...] | None = None
        self._map: np.ndarray | None = None
        self._table_for: np.ndarray | None = None  # the map ``_table`` was taken through
        self._table = np.zeros((0, 0), np.float32)
        # each layer's weight transposed once, contiguous: x @ W.T on a strided view is twice as slow
        self.wt = {k[: -len(".weight")]: np.ascontiguousarray(v.T) for k, v in w.items()
                   if k.endswith(".weight") and f"{k[: -len('.weight')]}.bias" in w}
        self.dim, self.emb, self.head = sizes(w)
        self.n_zones = w["enc.zone_emb.weight"].shape[0] - 1
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        sub = {k[len("check."):]: v for k, v in w.items() if k.startswith("check.") and k.count(".") > 1}
        if sub and self.extra_cards:
            sub[EXTRA_CARDS] = np.asarray(self.extra_cards)
        self._check = NumpySetPolicy(sub) if sub else None  # the learned check's network (check_choice)

    def _lin(self, name: str, x: np.ndarray) -> np.ndarray:
        return x @ self.wt[f"enc.{name}"] + self.w[f"enc.{name}.bias"]

    def _emb(self, name: str, idx: np.ndarray) -> np.ndarray:
        return self.w[f"enc.{name}.weight"][idx]

    def _card_table(self) -> np.ndarray:
        """The card embeddings indexed by this process's card ids: the network's own table, or
        its rows taken through ``_card_map`` (built once for each index, not at every lookup)."""
        m = self._card_map()
        if m is None:
            return self.w["enc.card_emb.weight"]
        if self._table_for is not m:
            self._table, self._table_for = self.w["enc.card_emb.weight"][m], m
        return self._table

    def _card_map(self) -> np.ndarray | None:
        """This process's card ids -> the network's (None: the same), rebuilt when the index is.
        A card the network never saw is ``OTHER`` (its row still carries its type, cost and stats)."""
        from hostwcg_env.env.v1.cards import N_CARD_IDS, OTHER, extra_card_names, index_files

        now = extra_card_names()
        key = index_files()
        if key is self._map_for:
            return self._map
        if now == self.extra_cards and self.n_card_rows == N_CARD_IDS + len(now):
            m = None
        else:
            base = self.n_card_rows - len(self.extra_cards)  # the shipped ids the network has rows for
            mine = {name: base + i for i, name in enumerate(self.extra_cards)}
            m = np.array([i if i < base else OTHER for i in range(N_CARD_IDS)]
                         + [mine.get(name, OTHER) for name in now], dtype=np.int64)
        self._map_for, self._map = key, m
        return m

    def forward(self, obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(logits (B, N), values (B,)) of a batch of observations (or one, without the batch axis).
        Only the legal actions (``action_mask``) are scored; the others' logits are 0."""
        logits, values, _ = self.forward_parts(obs)
        return logits, values

    def forward_parts(self, obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
        """``forward``'s (logits, values) and the vectors its heads read: (the state vector
        (B, d), and for each legal action, its game ``ab``, its index ``an`` and its action
        vector (L, d)); the learned check (``check_choice``) scores actions from them."""
        single = obs["cards"].ndim == 2
        if single:
            obs = {k: v[None] for k, v in obs.items()}
        cid = obs["card_id"].astype(np.int64)
        zone = obs["card_zone"].astype(np.int64)
        b, r = cid.shape
        cards = self._card_table()
        bi, ri = np.nonzero(zone > 0)  # the rows in use
        zi = zone[bi, ri]
        x = np.concatenate([obs["cards"][bi, ri].astype(np.float32),
                            cards[cid[bi, ri]] + self._emb("zone_emb", zi)], axis=-1)
        empty = np.zeros((1, x.shape[1]), dtype=np.float32)
        empty[0, x.shape[1] - self.emb:] = cards[0] + self._emb("zone_emb", np.zeros(1, np.int64))[0]
        h_all = _relu(self._lin("row2", _relu(self._lin("row1", np.concatenate([x, empty])))))  # (L + 1, d)
        h = h_all[:-1]
        seg = bi * self.n_zones + (zi - 1)
        sums = np.zeros((b * self.n_zones, self.dim), dtype=np.float32)
        step = np.diff(seg)
        if len(seg) and (step >= 0).all():  # a zone's rows are contiguous (the layout): sum each run
            starts = np.flatnonzero(np.concatenate([[1], step]))
            sums[seg[starts]] = np.add.reduceat(h, starts, axis=0)
        else:
            np.add.at(sums, seg, h)
        counts = np.maximum(np.bincount(seg, minlength=b * self.n_zones), 1).astype(np.float32)
        pooled = (sums / counts[:, None]).reshape(b, -1)
        hist = obs["history"].astype(np.int64)
        kind = hist[..., 0]
        hx = (self._emb("hist_kind", kind) + self._emb("hist_actor", hist[..., 1])
              + cards[hist[..., 2]] + cards[hist[..., 3]])
        present = (kind > 0).astype(np.float32)[..., None]
        hvec = (hx * present).sum(axis=1) / np.maximum(present.sum(axis=1), 1.0)
        state_in = np.concatenate([pooled, obs["globals"].astype(np.float32), hvec], axis=-1)
        s = _relu(self._lin("state2", _relu(self._lin("state1", state_in))))
        ab, an = np.nonzero(obs["action_mask"])
        a = (self._emb("act_kind", obs["action_kind"][ab, an].astype(np.int64))
             + self._emb("act_arg", obs["action_arg"][ab, an].astype(np.int64))
             + cards[obs["action_card"][ab, an].astype(np.int64)])
        where = np.full((b, r), len(h), dtype=np.int64)
        where[bi, ri] = np.arange(len(h))
        hs = _gather_rows(h_all, where, ab, obs["action_source_row"][ab, an].astype(np.int64))
        ht = _gather_rows(h_all, where, ab, obs["action_target_row"][ab, an].astype(np.int64))
        av = _relu(self._lin("act1", np.concatenate([a, hs, ht], axis=-1)))
        q = self._lin("query", s)
        logits = np.zeros((b, obs["action_mask"].shape[1]), dtype=np.float32)
        legal = (av * q[ab]).sum(-1) / math.sqrt(self.dim) + self._lin("pref", av)[:, 0]
        if self.head:  # the action MLP (``head`` > 0 in the torch SetEncoder)
            sa = s[ab]
            hidden = _relu(self._lin("head1", np.concatenate([av, sa, av * sa], axis=-1)))
            legal = legal + self._lin("head2", hidden)[:, 0]
        logits[ab, an] = legal
        values = (s @ self.wt["value"] + self.w["value.bias"])[:, 0]
        return logits, values, (s, ab, an, av)

    @property
    def has_check(self) -> bool:
        """Whether the weights carry a learned check (``check.*``, ``scripts/learned_check.py``)."""
        return self._check is not None

    def check_choice(self, obs: dict[str, np.ndarray], logits: np.ndarray, ranked: np.ndarray) -> int:
        """The learned check's pick among the network's most probable legal actions in one
        observation ``obs`` (no batch axis): ``logits`` (N,) the network's, ``ranked`` the legal
        indices, most probable first (two or more). The check is a second set network of the
        same shape (``check.enc.*``, started from this one's weights) with an MLP head
        (``check.head.*``) that scores each of the first ``check.top`` actions from its action
        vector, the state vector, its logit below the first's (over ``CHECK_LOGIT_SCALE``) and
        its rank. It was fitted to the lookahead's evaluation of each action after a rollout to
        the end of the next turn, centred within the choice (``scripts/learned_check.py``).
        Returns the position in ``ranked`` of the best-scored action if it scores more than
        ``check.margin`` over the first, else 0."""
        q = self.check_scores(obs, logits, ranked)
        best = int(q.argmax())
        return best if q[best] > q[0] + float(self.w["check.margin"].reshape(-1)[0]) else 0

    def check_scores(self, obs: dict[str, np.ndarray], logits: np.ndarray, ranked: np.ndarray) -> np.ndarray:
        """The learned check's scores of the first ``check.top`` of ``ranked`` (``check_choice``)."""
        c = self._check
        assert c is not None, "these weights carry no learned check"
        top = int(self.w["check.top"].reshape(-1)[0])
        idx = np.asarray(ranked[:top], dtype=np.int64)
        _logits, _values, (s, _ab, an, av) = c.forward_parts(obs)
        n = len(idx)
        x = np.concatenate([av[np.searchsorted(an, idx)], np.repeat(s[:1], n, axis=0),
                            ((logits[idx] - logits[idx[0]]) / CHECK_LOGIT_SCALE)[:, None].astype(np.float32),
                            np.eye(top, dtype=np.float32)[:n]], axis=1)
        h = _relu(x @ c.wt["head.0"] + c.w["head.0.bias"])
        h = _relu(h @ c.wt["head.2"] + c.w["head.2.bias"])
        return (h @ c.wt["head.4"] + c.w["head.4.bias"])[:, 0]

    def predict(self, obs: dict[str, np.ndarray], action_masks: np.ndarray | None = None,
                deterministic: bool | None = None, **kwargs: Any) -> tuple[np.ndarray, None]:
        """Actions of a batch (as an SB3 model's ``predict``): the most probable legal action, or
        a sample of the masked softmax when not deterministic (a row with no legal action, a
        finished game's, gets 0). ``action_masks`` may narrow the observation's legal actions:
        only those are scored."""
        logits, _ = self.forward(obs)
        masks = np.asarray(action_masks if action_masks is not None else obs["action_mask"],
                           dtype=bool).reshape(logits.shape)
        logits = np.where(masks | ~masks.any(axis=1, keepdims=True), logits, -np.inf)
        det = self.deterministic if deterministic is None else deterministic
        if det:
            actions = logits.argmax(axis=1)
        else:
            z = logits - logits.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            u = self.rng.random((p.shape[0], 1))
            actions = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)
            actions = np.where(masks[np.arange(len(actions)), actions], actions, logits.argmax(axis=1))
        return actions, None


EXTRA_CARDS = "index.extra_cards"  # the weights' entry naming the user's cards (set_policy_torch.export_weights)


def sizes(weights: dict[str, np.ndarray]) -> tuple[int, int, int]:
    """The ``dim``, ``emb`` and ``head`` (units of the action MLP, 0: none) of a set policy's
    weights: the sizes a torch ``SetEncoder`` needs to take them."""
    head = weights["enc.head1.weight"].shape[0] if "enc.head1.weight" in weights else 0
    return weights["enc.row2.weight"].shape[0], weights["enc.card_emb.weight"].shape[1], head


def load_weights(path: str | Path) -> dict[str, np.ndarray]:
    """The arrays of a set policy's numpy weights file (``export_weights`` saved with
    ``np.savez``): what ``NumpySetPolicy`` takes."""
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def _gather_rows(h_all: np.ndarray, where: np.ndarray, games: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The card vector of row ``rows[m]`` of game ``games[m]``, zeros where ``rows`` is -1 (no row)."""
    return h_all[where[games, np.maximum(rows, 0)]] * (rows >= 0).astype(np.float32)[:, None]


__all__ = ["EXTRA_CARDS", "NumpySetPolicy", "load_weights", "sizes"]
