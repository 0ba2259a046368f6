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
  the state plus a state-free preference. Illegal actions are masked by MaskablePPO.
* **value**: a linear read of the state.

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

from hostwcg_env.env.v1.cards import N_CARD_IDS
from hostwcg_env.env.v1.layout import ACTION_KINDS, HISTORY_KINDS, ZONE_SPECS, C, G


class SetEncoder(BaseFeaturesExtractor):
    """Observation -> [action logits (N), state (dim)] (see the module docstring)."""

    def __init__(self, observation_space: spaces.Dict, dim: int = 64, emb: int = 32) -> None:
        mask_space, arg_space = observation_space["action_mask"], observation_space["action_arg"]
        assert isinstance(mask_space, spaces.Box) and isinstance(arg_space, spaces.Box)
        n_actions = int(mask_space.shape[0])
        super().__init__(observation_space, features_dim=n_actions + dim)
        self.n_actions, self.dim, self.emb = n_actions, dim, emb
        self.n_zones = len(ZONE_SPECS)
        max_arg = int(arg_space.high.max())
        self.card_emb = nn.Embedding(N_CARD_IDS, emb)
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

    def forward(self, obs: dict[str, th.Tensor]) -> th.Tensor:
        relu = th.relu
        cid = obs["card_id"].long()
        zone = obs["card_zone"].long()
        x = th.cat([obs["cards"], self.card_emb(cid) + self.zone_emb(zone)], dim=-1)
        h = relu(self.row2(relu(self.row1(x))))  # (B, R, d)
        onehot = nn.functional.one_hot(zone, self.n_zones + 1)[..., 1:].to(h.dtype)  # (B, R, Z)
        counts = onehot.sum(dim=1).clamp(min=1.0)  # (B, Z)
        pooled = th.einsum("brz,brd->bzd", onehot, h) / counts[..., None]
        hist = obs["history"].long()
        kind = hist[..., 0]
        hx = self.hist_kind(kind) + self.hist_actor(hist[..., 1]) + self.card_emb(hist[..., 2]) + self.card_emb(hist[..., 3])
        present = (kind > 0).to(h.dtype)[..., None]
        hvec = (hx * present).sum(dim=1) / present.sum(dim=1).clamp(min=1.0)
        state_in = th.cat([pooled.flatten(1), obs["globals"], hvec], dim=-1)
        s = relu(self.state2(relu(self.state1(state_in))))  # (B, d)
        a = self.act_kind(obs["action_kind"].long()) + self.act_arg(obs["action_arg"].long()) + \
            self.card_emb(obs["action_card"].long())
        src = obs["action_source_row"].long()
        tgt = obs["action_target_row"].long()
        hs = _gather_rows(h, src)
        ht = _gather_rows(h, tgt)
        av = relu(self.act1(th.cat([a, hs, ht], dim=-1)))  # (B, N, d)
        q = self.query(s)
        logits = (av * q[:, None, :]).sum(-1) / math.sqrt(self.dim) + self.pref(av).squeeze(-1)
        return th.cat([logits, s], dim=-1)


def _gather_rows(h: th.Tensor, rows: th.Tensor) -> th.Tensor:
    """``h[b, rows[b, n]]`` with zeros where ``rows`` is -1 (no row)."""
    valid = (rows >= 0).to(h.dtype)[..., None]
    idx = rows.clamp(min=0)[..., None].expand(-1, -1, h.shape[-1])
    return th.gather(h, 1, idx) * valid


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
    ``policy_kwargs``: ``dim`` (state and card vectors, 64), ``emb`` (embeddings, 32)."""

    def __init__(self, observation_space: spaces.Dict, action_space: spaces.Space, lr_schedule: Any,
                 dim: int = 64, emb: int = 32, **kwargs: Any) -> None:
        kwargs.setdefault("features_extractor_class", SetEncoder)
        kwargs["features_extractor_kwargs"] = {"dim": dim, "emb": emb, **kwargs.get("features_extractor_kwargs", {})}
        kwargs.setdefault("net_arch", [])
        self._dim, self._emb = dim, emb
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build_mlp_extractor(self) -> None:
        fe = self.features_extractor
        assert isinstance(fe, SetEncoder)
        self.mlp_extractor = _Split(fe.n_actions, fe.dim)  # type: ignore[assignment]

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()  # the logits come from the pointer head
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),  # type: ignore[call-arg]
                                              **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(dim=self._dim, emb=self._emb)
        return data


def export_weights(model: Any) -> dict[str, np.ndarray]:
    """The numpy weights of a trained MaskablePPO(SetPolicy) model (``NumpySetPolicy``)."""
    policy = model.policy if hasattr(model, "policy") else model
    out = {f"enc.{k}": v.detach().cpu().numpy().astype(np.float32)
           for k, v in policy.features_extractor.state_dict().items()}
    out["value.weight"] = policy.value_net.weight.detach().cpu().numpy().astype(np.float32)
    out["value.bias"] = policy.value_net.bias.detach().cpu().numpy().astype(np.float32)
    return out


__all__ = ["SetEncoder", "SetPolicy", "export_weights"]
