"""A set-based policy for hostwcg_v1 as an sb3-contrib MaskablePPO custom policy (torch).

The network (``agents/set_policy.py`` runs the same forward pass with numpy alone):

* **card encoder**, shared by every row: the card's embedding (``card_id``) plus its zone's
  embedding (``card_zone``), beside the row's 39 features, through a 2-layer ReLU MLP: one
  vector per card row;
* **pooled per zone**: the mean of the rows of each zone (rows in use) - the same card in any
  place of a zone counts the same, whatever its row;
* **history**: the mean of the embeddings of each entry's kind, actor, card and target card;
* **state**: the zone pools, the globals and the history through a 2-layer ReLU MLP;
* **pointer-style action head**: each action index is described by its kind, argument and
  card embeddings and by the card vectors of its source and target rows (``action_*`` arrays);
  one ReLU layer makes an action vector, whose logit is its dot product with a query made from
  the state plus a state-free preference; with ``head`` > 0, plus a ReLU MLP of ``head`` units
  on [action vector, state, their product] (started at zero output, so a network widened with it
  plays as before: ``import_weights``). Illegal actions are masked by MaskablePPO.
* **value**: a linear read of the state.

Only what matters is computed: the card encoder runs on the rows in use (a row of zone 0 is
all zeros and no action points at it; about 30 of the 103) and the action head on the legal
actions (about 2.4 of the 266 in random play); the logits of the other indices are 0 and
masked by MaskablePPO. This is the same function as scoring every row and index densely
(``tests/test_set_policy.py`` checks the logits and the gradients against the dense formula)
at a tenth of the cost of a PPO update.

``MaskablePPO(SetPolicy, hostwcg_v1.vector_env(n), policy_kwargs={"dim": 64})``.
``export_weights(model)`` gives the numpy weights of ``agents.set_policy.NumpySetPolicy``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from agents.set_policy import EXTRA_CARDS
from hostwcg_env.env.v1.cards import N_CARD_IDS, extra_card_names
from hostwcg_env.env.v1.layout import ACTION_KINDS, HISTORY_KINDS, ZONE_SPECS, C, G


class SetEncoder(BaseFeaturesExtractor):
    """Observation -> [action logits (N), state (dim)] (see the module docstring)."""

    def __init__(self, observation_space: spaces.Dict, dim: int = 64, emb: int = 32, head: int = 0) -> None:
        mask_space, arg_space = observation_space["action_mask"], observation_space["action_arg"]
        id_space = observation_space["card_id"]
        assert isinstance(mask_space, spaces.Box) and isinstance(arg_space, spaces.Box)
        assert isinstance(id_space, spaces.Box)
        n_actions = int(mask_space.shape[0])
        super().__init__(observation_space, features_dim=n_actions + dim)
        self.n_actions, self.dim, self.emb = n_actions, dim, emb
        self.n_zones = len(ZONE_SPECS)
        max_arg = int(arg_space.high.max())
        # one row per card id: the shipped index's and the user's cards' (hostwcg_env/env/v1/cards.py)
        self.card_emb = nn.Embedding(int(id_space.high.max()) + 1, emb)
        self.zone_emb = nn.Embedding(self.n_zones + 1, emb)
        self.row1 = nn.Linear(C + emb, dim)
        self.row2 = nn.Linear(dim, dim)
        self.hist_kind = nn.Embedding(len(HISTORY_KINDS) + 1, emb)
        self.hist_actor = nn.Embedding(3, emb)
        self.state1 = nn.Linear(self.n_zones * dim + G + emb, dim)
        self.state2 = nn.Linear(dim, dim)
        self.act_kind = nn.Embedding(len(ACTION_KINDS), emb)
        self.act_arg = nn.Embedding(max_arg + 1, emb)
        self.act1 = nn.Linear(emb + 2 * dim, dim)
        self.query = nn.Linear(dim, dim)
        self.pref = nn.Linear(dim, 1)
        self.head = head
        if head:  # the action MLP: [action vector, state, product] -> one logit, zero at the start
            self.head1 = nn.Linear(3 * dim, head)
            self.head2 = nn.Linear(head, 1)
            nn.init.zeros_(self.head2.weight)
            nn.init.zeros_(self.head2.bias)

    def forward(self, obs: dict[str, th.Tensor]) -> th.Tensor:
        logits, s, _ab, _an, _av = self.parts(obs)
        return th.cat([logits, s], dim=-1)

    def parts(self, obs: dict[str, th.Tensor]) -> tuple[th.Tensor, ...]:
        """(logits (B, N), state (B, d), and for each legal action its game ``ab``, index ``an``
        and action vector (M, d)): what ``forward`` joins, and what the learned check reads
        (``scripts/learned_check.py``)."""
        relu = th.relu
        cid = obs["card_id"].long()
        zone = obs["card_zone"].long()
        b, r = cid.shape
        # the card encoder, on the rows in use only (a row of zone 0 is all zeros, no action points at it)
        bi, ri = (zone > 0).nonzero(as_tuple=True)
        zi = zone[bi, ri]
        # row1 of [features, embedding], as two products (no concatenated copy of every row)
        w1 = self.row1.weight
        n_feat = w1.shape[1] - self.emb
        e = th.cat([self.card_emb(cid[bi, ri]) + self.zone_emb(zi),
                    self.card_emb.weight[:1] + self.zone_emb.weight[:1]])
        pre = nn.functional.linear(e, w1[:, n_feat:], self.row1.bias)  # (L + 1, d), row L: an empty row
        pre = pre + th.cat([nn.functional.linear(obs["cards"][bi, ri], w1[:, :n_feat]), pre.new_zeros(1, self.dim)])
        h_all = relu(self.row2(relu(pre)))  # (L + 1, d): the card vectors, then an empty row's
        h = h_all[:-1]
        # mean per zone: a segment sum over (game, zone)
        seg = bi * self.n_zones + (zi - 1)
        sums = h.new_zeros(b * self.n_zones, self.dim).index_add(0, seg, h)
        counts = th.bincount(seg, minlength=b * self.n_zones).clamp(min=1).to(h.dtype)
        pooled = (sums / counts[:, None]).view(b, self.n_zones * self.dim)
        # the history: the mean over its entries of their kind, actor, card and target embeddings,
        # as counts of each id times the tables (a bag: cheaper than an embedding per entry)
        hist = obs["history"].long()
        kind = hist[..., 0]
        present = (kind > 0).to(h.dtype)  # (B, T)
        hsum = _bag(self.hist_kind.weight, kind, present) + _bag(self.hist_actor.weight, hist[..., 1], present) + \
            _bag(self.card_emb.weight, hist[..., 2:4].flatten(1), present.repeat_interleave(2, dim=1))
        hvec = hsum / present.sum(dim=1, keepdim=True).clamp(min=1.0)
        state_in = th.cat([pooled, obs["globals"], hvec], dim=-1)
        s = relu(self.state2(relu(self.state1(state_in))))  # (B, d)
        # the pointer head, on the legal actions only (the others are masked: their logit stays 0)
        ab, an = (obs["action_mask"] > 0).nonzero(as_tuple=True)
        a = self.act_kind(obs["action_kind"][ab, an].long()) + self.act_arg(obs["action_arg"][ab, an].long()) + \
            self.card_emb(obs["action_card"][ab, an].long())
        where = th.full((b, r), h.shape[0], dtype=th.long, device=h.device)  # row -> its vector in h_all
        where[bi, ri] = th.arange(h.shape[0], device=h.device)
        hs = _gather_rows(h_all, where, ab, obs["action_source_row"][ab, an].long())
        ht = _gather_rows(h_all, where, ab, obs["action_target_row"][ab, an].long())
        av = relu(self.act1(th.cat([a, hs, ht], dim=-1)))  # (M, d)
        q = self.query(s)
        legal = (av * q[ab]).sum(-1) / math.sqrt(self.dim) + self.pref(av).squeeze(-1)
        if self.head:
            sa = s[ab]
            legal = legal + self.head2(relu(self.head1(th.cat([av, sa, av * sa], dim=-1)))).squeeze(-1)
        logits = s.new_zeros(b, self.n_actions).index_put((ab, an), legal)
        return logits, s, ab, an, av


def _bag(table: th.Tensor, ids: th.Tensor, weights: th.Tensor) -> th.Tensor:
    """``sum_t weights[b, t] * table[ids[b, t]]`` for each b, as (counts of each id) @ table."""
    counts = weights.new_zeros(ids.shape[0], table.shape[0]).scatter_add_(1, ids, weights)
    return counts @ table


def _gather_rows(h_all: th.Tensor, where: th.Tensor, games: th.Tensor, rows: th.Tensor) -> th.Tensor:
    """The card vector of row ``rows[m]`` of game ``games[m]``, zeros where ``rows`` is -1 (no row)."""
    valid = (rows >= 0).to(h_all.dtype)[:, None]
    return h_all[where[games, rows.clamp(min=0)]] * valid


class _Split(nn.Module):
    """The features are [logits, state]: the actor's latent is the logits, the critic's the state."""

    def __init__(self, n_actions: int, dim: int) -> None:
        super().__init__()
        self.n = n_actions
        self.latent_dim_pi = n_actions
        self.latent_dim_vf = dim

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return features[:, : self.n], features[:, self.n :]

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return features[:, : self.n]

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return features[:, self.n :]


class SetPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy over hostwcg_v1 observations: ``SetEncoder`` + pointer head.
    ``policy_kwargs``: ``dim`` (state and card vectors, 64), ``emb`` (embeddings, 32), ``head``
    (units of the action MLP, 0: none). A saved model records ``extra_cards``, the user's cards
    its card ids name beyond the shipped index (docs/cards.md, "Your own cards"); loaded where the
    card pool adds other cards, it is refused."""

    def __init__(self, observation_space: spaces.Dict, action_space: spaces.Space, lr_schedule: Any,
                 dim: int = 64, emb: int = 32, head: int = 0, extra_cards: tuple[str, ...] | list[str] | None = None,
                 **kwargs: Any) -> None:
        now = extra_card_names()
        if extra_cards is not None and tuple(extra_cards) != now:
            raise ValueError(f"this model was trained with the cards {list(extra_cards)} beyond the shipped pool, "
                             f"but the pool now adds {list(now)}: give the same card files (HOSTWCG_CARDS)")
        self._extra_cards = now
        kwargs.setdefault("features_extractor_class", SetEncoder)
        kwargs["features_extractor_kwargs"] = {"dim": dim, "emb": emb, "head": head,
                                               **kwargs.get("features_extractor_kwargs", {})}
        kwargs.setdefault("net_arch", [])
        self._dim, self._emb, self._head = dim, emb, head
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build_mlp_extractor(self) -> None:
        fe = self.features_extractor
        assert isinstance(fe, SetEncoder)
        self.mlp_extractor = _Split(fe.n_actions, fe.dim)  # type: ignore[assignment]

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()  # the logits come from the pointer head
        fe = self.features_extractor
        if isinstance(fe, SetEncoder) and fe.head:  # after SB3's orthogonal init: the MLP starts at zero output
            nn.init.zeros_(fe.head2.weight)
            nn.init.zeros_(fe.head2.bias)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),  # type: ignore[call-arg]
                                              **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(dim=self._dim, emb=self._emb, head=self._head)
        if self._extra_cards:
            data.update(extra_cards=list(self._extra_cards))
        return data


def card_kwargs() -> dict[str, Any]:
    """``SetPolicy``'s ``extra_cards`` for a new model (none in the shipped pool): the saved model records them."""
    extra = extra_card_names()
    return {"extra_cards": list(extra)} if extra else {}


def export_weights(model: Any) -> dict[str, np.ndarray]:
    """The numpy weights of a trained MaskablePPO(SetPolicy) model (``NumpySetPolicy``)."""
    policy = model.policy if hasattr(model, "policy") else model
    out = {f"enc.{k}": v.detach().cpu().numpy().astype(np.float32)
           for k, v in policy.features_extractor.state_dict().items()}
    out["value.weight"] = policy.value_net.weight.detach().cpu().numpy().astype(np.float32)
    out["value.bias"] = policy.value_net.bias.detach().cpu().numpy().astype(np.float32)
    rows = out["enc.card_emb.weight"].shape[0]
    if rows > N_CARD_IDS:  # trained with the user's cards: name them, so the index can be rebuilt
        extra = extra_card_names()
        if rows != N_CARD_IDS + len(extra):
            raise ValueError(f"the network has {rows - N_CARD_IDS} card ids beyond the shipped index but the "
                             f"card pool now adds {len(extra)} cards: export it with the card files it was "
                             "trained with (HOSTWCG_CARDS)")
        out[EXTRA_CARDS] = np.array(extra)
    return out


def import_weights(model: Any, weights: dict[str, np.ndarray]) -> None:
    """Load numpy weights (``export_weights``'s, as saved) into a MaskablePPO(SetPolicy) model of
    the same ``dim`` and ``emb``. Weights without the action MLP leave a model's ``head`` layers as
    they are (zero output at the start), so the model plays as the weights did; any other
    missing or unexpected name is an error."""
    policy = model.policy if hasattr(model, "policy") else model
    fe = policy.features_extractor
    enc = {k[4:]: th.as_tensor(v) for k, v in weights.items() if k.startswith("enc.")}
    missing, unexpected = fe.load_state_dict(enc, strict=False)
    missing = [k for k in missing if not k.startswith("head")]
    others = sorted(k for k in weights if not k.startswith(("enc.", "value.", "check.")) and k != EXTRA_CARDS)
    if missing or unexpected or others:
        raise ValueError(f"weights do not fit this SetPolicy (dim {fe.dim}, emb {fe.emb}, head {fe.head}): "
                         f"missing {missing}, unexpected {sorted(unexpected) + others}")
    policy.value_net.load_state_dict({"weight": th.as_tensor(weights["value.weight"]),
                                      "bias": th.as_tensor(weights["value.bias"])})


__all__ = ["SetEncoder", "SetPolicy", "card_kwargs", "export_weights", "import_weights"]
