"""The set-based policy of ``agents/set_policy_torch.py`` as a Ray RLlib RLModule (new API stack).

``SetRLModule`` reads hostwcg_v1's Dict observation as the env gives it (RLlib keeps a Dict
observation as a dict of tensors): the card rows through ``SetEncoder`` (the same network
MaskablePPO trains: card encoder shared by every row, pools per zone, history, state, and the
pointer-style head that scores each action index from its kind, argument, card and its source
and target rows), and a linear value read of the state, as ``SetPolicy``. Illegal actions get
the lowest float as their logit, so they are never sampled: ``action_mask`` is part of the
observation, as RLlib's action-masking example reads it.

Used by ``agents/rllib_selfplay.py`` (``scripts/train_rllib.py``); needs ``ray[rllib]`` and the
``train`` extra (torch, sb3-contrib for ``SetEncoder``'s base class).
"""

from __future__ import annotations

from typing import Any

import torch
from gymnasium import spaces
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN
from torch import nn

from agents.set_policy_torch import SetEncoder


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` where ``mask`` is set, the lowest float elsewhere (probability 0)."""
    return torch.where(mask > 0, logits, torch.full_like(logits, FLOAT_MIN))


class SetRLModule(TorchRLModule, ValueFunctionAPI):
    """PPO's RLModule over hostwcg_v1 observations. ``model_config``: ``dim`` (state and card
    vectors, 64), ``emb`` (embeddings, 32), as ``SetPolicy``'s ``policy_kwargs``."""

    def setup(self) -> None:
        given = self.model_config or {}
        assert isinstance(given, dict), "SetRLModule: model_config is a dict (dim, emb)"
        cfg = dict(given)
        space = self.observation_space
        assert isinstance(space, spaces.Dict), f"SetRLModule: a Dict observation space, not {space}"
        self.encoder = SetEncoder(space, dim=int(cfg.get("dim", 64)),
                                  emb=int(cfg.get("emb", 32)))
        self.vf = nn.Linear(self.encoder.dim, 1)

    def _encode(self, obs: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        out = self.encoder(obs)
        n = self.encoder.n_actions
        return mask_logits(out[:, :n], obs["action_mask"]), out[:, n:]

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, _state = self._encode(batch[Columns.OBS])
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, state = self._encode(batch[Columns.OBS])
        # the state is kept for PPO's value loss (compute_values(batch, embeddings)): one pass
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: state}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is None:
            _logits, embeddings = self._encode(batch[Columns.OBS])
        return self.vf(embeddings).squeeze(-1)


__all__ = ["SetRLModule", "mask_logits"]
