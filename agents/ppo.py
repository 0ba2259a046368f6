"""The shipped MaskablePPO policy, run with numpy alone (no torch needed to play).

``scripts/train_ppo.py`` trains with sb3-contrib and exports the policy network's weights to
``agents/checkpoints/<name>.npz``; ``NumpyPolicy`` reproduces the torch forward pass
(MLP with tanh, then the action head) and picks the most probable legal action.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

CHECKPOINTS = Path(__file__).parent / "checkpoints"
DEFAULT = CHECKPOINTS / "ppo_hostwcg_v0.npz"


class NumpyPolicy:
    name = "ppo"

    def __init__(self, weights: dict[str, np.ndarray], deterministic: bool = True, seed: int | None = None) -> None:
        n = 0
        self.layers: list[tuple[np.ndarray, np.ndarray]] = []
        while f"pi.{n}.weight" in weights:
            self.layers.append((weights[f"pi.{n}.weight"].astype(np.float32, copy=False),
                                weights[f"pi.{n}.bias"].astype(np.float32, copy=False)))
            n += 1
        self.head = (weights["action.weight"].astype(np.float32, copy=False),
                     weights["action.bias"].astype(np.float32, copy=False))
        self.activation = str(weights.get("activation", np.array("tanh")))
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    @classmethod
    def load(cls, path: str | Path = DEFAULT, **kw: Any) -> NumpyPolicy:
        """The policy in an exported ``.npz``; the arrays are read once per file (and again
        when it changes) and shared by every policy loaded from it (the ladder makes one
        agent a game)."""
        p = Path(path).resolve()
        return cls(_read_weights(str(p), p.stat().st_mtime_ns), **kw)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x = np.asarray(observation, dtype=np.float32).reshape(-1)
        want = (self.layers[0][0] if self.layers else self.head[0]).shape[1]
        if x.shape[0] != want:
            raise ValueError(f"this policy reads observations of {want:,} values; this game's have "
                             f"{x.shape[0]:,} (a RuleConfig with other slot counts or a larger "
                             "starting hand changes the observation: train a policy on that table)")
        for w, b in self.layers:
            x = w @ x + b
            x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0)
        w, b = self.head
        return w @ x + b  # type: ignore[no-any-return]

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        logits = self.logits(observation)
        legal = np.asarray(action_mask).astype(bool)
        if len(logits) < len(legal):  # a checkpoint from before a block grew at the end
            logits = np.concatenate([logits, np.full(len(legal) - len(logits), -1e9, np.float32)])
        logits = np.where(legal, logits, -np.inf)
        if self.deterministic:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(self.rng.choice(len(p), p=p))

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)


@lru_cache(maxsize=8)
def _read_weights(path: str, mtime_ns: int) -> dict[str, np.ndarray]:
    """The arrays of an exported policy file (``mtime_ns`` keys the cache to its contents)."""
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def export_sb3(model: Any, path: str | Path, meta: dict[str, Any] | None = None) -> None:
    """Write an sb3(-contrib) MlpPolicy's actor weights as a numpy .npz (+ .json metadata)."""
    sd = {k: v.detach().cpu().numpy() for k, v in model.policy.state_dict().items()}
    out: dict[str, np.ndarray] = {}
    linear = [k for k in sd if k.startswith("mlp_extractor.policy_net.") and k.endswith(".weight")]
    linear.sort(key=lambda k: int(k.split(".")[2]))
    for i, k in enumerate(linear):
        out[f"pi.{i}.weight"] = sd[k]
        out[f"pi.{i}.bias"] = sd[k.replace(".weight", ".bias")]
    out["action.weight"] = sd["action_net.weight"]
    out["action.bias"] = sd["action_net.bias"]
    act = model.policy.activation_fn.__name__.lower()
    out["activation"] = np.array("tanh" if "tanh" in act else "relu")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **out)  # type: ignore[arg-type]
    if meta is not None:
        path.with_suffix(".json").write_text(json.dumps(meta, indent=2))
