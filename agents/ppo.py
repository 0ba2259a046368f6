"""The shipped MaskablePPO policy, run with numpy alone (no torch needed to play).

``scripts/train_ppo.py`` trains with sb3-contrib; ``NumpyPolicy`` reproduces the actor's torch
forward pass (MLP with tanh or ReLU, then the action head) and picks the most probable legal
action. It loads either

* an exported ``.npz`` (``export_sb3``; the shipped ``agents/checkpoints/ppo_hostwcg_v0.npz``),
  which needs numpy alone, or
* a Stable-Baselines3 model ``.zip`` as training saves it (``runs/x/latest.zip``): its actor's
  weights are converted at load time (``weights_of_zip``), which needs torch (the ``train``
  extra). So ``make_agent("ppo:runs/x/latest.zip")``, ``hostwcg evaluate --agents
  heuristic,ppo:runs/x/latest.zip`` and ``hostwcg play --vs ppo:runs/x/latest.zip`` play a
  trained model directly.
"""

from __future__ import annotations

import io
import json
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

CHECKPOINTS = Path(__file__).parent / "checkpoints"
DEFAULT = CHECKPOINTS / "ppo_hostwcg_v0.npz"


class NumpyPolicy:
    name = "ppo"

    def __init__(self, weights: dict[str, np.ndarray], deterministic: bool = True, seed: int | None = None,
                 guard: bool = True) -> None:
        from hostwcg_env.threads import limit_blas_threads

        limit_blas_threads()  # one BLAS thread unless HOSTWCG_BLAS_THREADS says otherwise (hostwcg_env/threads.py)
        self.guard = guard
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
        """The policy in an exported ``.npz`` or a Stable-Baselines3 model ``.zip``; the arrays
        are read once per file (and again when it changes) and shared by every policy loaded
        from it (the ladder makes one agent a game)."""
        return cls(load_weights(path), **kw)

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
        return w @ x + b

    def narrow(self, view: Any, actions: tuple[Any, ...]) -> tuple[Any, ...]:
        """The guard (``guard=True``, the default): where ``agents.decide`` asks it (the ladder,
        ``hostwcg play``, demos, balance studies), a target is chosen only among the sensible
        ones (``agents/sensible.py``: a harmful effect on an opposing object, a helpful one on
        its own, whenever legal), so the policy makes none of the blunder audit's clear
        blunders (R1, R2). Its other choices, and its play inside the env (``act`` alone),
        are the network's."""
        if not self.guard:
            return actions
        from .sensible import sensible_targets

        return sensible_targets(view, actions)

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


def load_weights(path: str | Path) -> dict[str, np.ndarray]:
    """The actor's arrays (``pi.N.weight``, ``action.weight``, ``activation``...) of an exported
    ``.npz`` or of a Stable-Baselines3 model ``.zip`` (converted; needs torch)."""
    p = Path(path).resolve()
    mtime = p.stat().st_mtime_ns  # OSError (no such file) names the file
    suffix = p.suffix.lower()
    if suffix == ".zip" or (suffix != ".npz" and zipfile.is_zipfile(p) and not _is_npz(p)):
        return _zip_weights(str(p), mtime)
    return _read_weights(str(p), mtime)


def _is_npz(p: Path) -> bool:
    with zipfile.ZipFile(p) as z:
        return all(n.endswith(".npy") for n in z.namelist())


@lru_cache(maxsize=8)
def _read_weights(path: str, mtime_ns: int) -> dict[str, np.ndarray]:
    """The arrays of an exported policy file (``mtime_ns`` keys the cache to its contents)."""
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


@lru_cache(maxsize=8)
def _zip_weights(path: str, mtime_ns: int) -> dict[str, np.ndarray]:
    return weights_of_zip(path)


def weights_of_zip(path: str | Path) -> dict[str, np.ndarray]:
    """The actor of a Stable-Baselines3 (or sb3-contrib) model ``.zip`` with an ``MlpPolicy``,
    in ``export_sb3``'s layout. Reads the zip's ``policy.pth`` (tensors only: nothing in the
    file is unpickled) and the activation named in its ``data``; needs torch."""
    try:
        import torch
    except ImportError:
        raise ImportError(
            f"{path} is a Stable-Baselines3 model (.zip): reading it needs torch, which is not "
            "installed. Install the train extra (pip install -e '.[train]'), or give a policy "
            "exported to numpy (.npz: scripts/train_ppo.py --export PATH.npz), which needs numpy "
            "alone") from None
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        if "policy.pth" not in names or "data" not in names:
            raise ValueError(f"{path} is not a Stable-Baselines3 model .zip (it has no policy.pth "
                             "and data; a model saved by model.save(PATH) has)")
        state = torch.load(io.BytesIO(z.read("policy.pth")), map_location="cpu", weights_only=True)
        data = json.loads(z.read("data"))
    kwargs = data.get("policy_kwargs") or {}
    activation = str(kwargs.get("activation_fn", "Tanh"))  # SB3's MlpPolicy default is Tanh
    sd = {k: v.detach().cpu().numpy() for k, v in state.items()}
    extra = [k for k in sd if k.startswith(("features_extractor.", "pi_features_extractor."))]
    if extra:
        raise ValueError(f"{path}: the policy has a features extractor with weights ({extra[0]}); "
                         "NumpyPolicy runs an MlpPolicy on the flat observation only")
    return actor_arrays(sd, activation)


def actor_arrays(sd: dict[str, np.ndarray], activation: str) -> dict[str, np.ndarray]:
    """An sb3 MlpPolicy's state dict (as numpy arrays) -> the actor in ``export_sb3``'s layout."""
    if "action_net.weight" not in sd:
        raise ValueError("the model has no action_net: not an actor-critic MlpPolicy")
    act = activation.lower()
    if "tanh" in act:
        name = "tanh"
    elif "relu" in act and "leaky" not in act:
        name = "relu"
    else:
        raise ValueError(f"the policy's activation {activation!r} is not one NumpyPolicy runs (Tanh, ReLU)")
    out: dict[str, np.ndarray] = {}
    linear = [k for k in sd if k.startswith("mlp_extractor.policy_net.") and k.endswith(".weight")]
    linear.sort(key=lambda k: int(k.split(".")[2]))
    for i, k in enumerate(linear):
        out[f"pi.{i}.weight"] = sd[k]
        out[f"pi.{i}.bias"] = sd[k.replace(".weight", ".bias")]
    out["action.weight"] = sd["action_net.weight"]
    out["action.bias"] = sd["action_net.bias"]
    out["activation"] = np.array(name)
    return out


def export_sb3(model: Any, path: str | Path, meta: dict[str, Any] | None = None) -> None:
    """Write an sb3(-contrib) MlpPolicy's actor weights as a numpy .npz (+ .json metadata)."""
    sd = {k: v.detach().cpu().numpy() for k, v in model.policy.state_dict().items()}
    out = actor_arrays(sd, model.policy.activation_fn.__name__)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, allow_pickle=True, **out)
    if meta is not None:
        path.with_suffix(".json").write_text(json.dumps(meta, indent=2))
