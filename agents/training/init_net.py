"""A recipe's ``init``: the network its first stage continues from (docs/training.md, "The recipe").

``[recipe] init = "ppo_v1"`` starts a run from the shipped ``ppo_v1`` weights
(``agents/checkpoints/ppo_hostwcg_v1.npz``); ``init = "my/policy.npz"`` from numpy weights of the
set policy (another run's ``policy.npz``; a relative path is read from the recipe's folder first).
The name or path is checked where the recipe is read (``agents.training.recipe.resolve_init``).
The run copies the weights to ``RUN/init/model.npz`` and makes the MaskablePPO model a league,
DAgger or expert-iteration stage continues from (``RUN/init/model.zip``), so the run directory
holds what it started from.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path


def sha256_of(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def init_model(run_root: Path, init: str, seed: int) -> dict[str, str]:
    """RUN/init/model.npz (the weights, copied) and RUN/init/model.zip (a MaskablePPO model that
    plays as they do), made once: the ``model`` the first stage continues from."""
    from agents.training.distill_v1 import build_model

    d = run_root / "init"
    npz, zip_ = d / "model.npz", d / "model.zip"
    if not (npz.is_file() and zip_.is_file()):
        d.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(init, d / "model.tmp.npz")
        os.replace(d / "model.tmp.npz", npz)
        build_model(0, 0, seed, init=str(npz)).save(str(d / "model.tmp.zip"))
        os.replace(d / "model.tmp.zip", zip_)
    return {"zip": str(zip_), "npz": str(npz)}
