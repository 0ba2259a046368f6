"""A recipe's ``init``: the network its first stage continues from (docs/training.md, "The recipe").

``[recipe] init = "ppo_v1"`` starts a run from the shipped ``ppo_v1`` weights
(``agents/checkpoints/ppo_hostwcg_v1.npz``); ``init = "my/policy.npz"`` from numpy weights of the
set policy (another run's ``policy.npz``; a relative path is read from the recipe's folder first).
The run copies the weights to ``RUN/init/model.npz`` and makes the MaskablePPO model a league,
DAgger or expert-iteration stage continues from (``RUN/init/model.zip``), so the run directory
holds what it started from.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

from agents.training.recipe import RecipeError

SHIPPED = {"ppo_v1": "ppo_hostwcg_v1.npz"}  # the shipped set policies a recipe can name


def resolve_init(recipe: Path, value: Any) -> str:
    """The weights file ``value`` names (a shipped policy's name or an .npz path), checked."""
    from agents.set_agent import DEFAULT_V1
    from agents.set_policy import load_weights, sizes

    where = f"{recipe}: [recipe] init"
    if not isinstance(value, str) or not value:
        raise RecipeError(f"{where}: a shipped policy's name ({', '.join(SHIPPED)}) or an .npz path, got {value!r}")
    if value in SHIPPED:
        path = DEFAULT_V1.parent / SHIPPED[value]
    else:
        near = recipe.parent / value
        path = near if near.is_file() else Path(value)
        if not path.is_file():
            raise RecipeError(f"{where}: {value!r}: no such file, and not a shipped policy ({', '.join(SHIPPED)})")
    try:
        sizes(load_weights(path))
    except Exception as e:  # not an npz, or not a set policy's weights
        raise RecipeError(f"{where}: {value!r}: not a set policy's numpy weights ({str(e).splitlines()[0]})") from None
    return str(path.resolve())


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
