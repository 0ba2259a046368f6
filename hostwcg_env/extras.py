"""Which optional extra installs a missing module, for one-line errors (README.md "Install").

``pip install -e .`` installs the core (numpy, gymnasium, pettingzoo, threadpoolctl): the engine,
both envs, ``demo``, ``play``, ``evaluate``, ``ladder``, ``audit``, ``replay`` and ``balance``
with CSV and HTML output. Everything else comes with an extra named in pyproject.toml; a command that reaches
a module of a missing extra stops with one line naming the extra (``hostwcg_env/cli.py``).
"""

from __future__ import annotations

# the top-level module -> the extra of pyproject.toml that installs it
EXTRA_OF: dict[str, str] = {
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "tensorboard": "train",
    "pandas": "analysis",
    "pyarrow": "analysis",
    "matplotlib": "analysis",
    "tqdm": "analysis",
    "nashpy": "analysis",
    "ray": "distributed",
    "PIL": "render",
    "moviepy": "render",
    "jupyter": "notebooks",
    "nbclient": "notebooks",
    "nbformat": "notebooks",
    "ipykernel": "notebooks",
    "pyspiel": "openspiel",
    "starlette": "web",
    "uvicorn": "web",
    "websockets": "web",
    "onnx": "export",
    "onnxruntime": "export",
}


def missing_module(error: BaseException) -> str | None:
    """The top-level name of the optional module whose absence raised ``error`` (or an
    ImportError it was raised from), or None when it is not one an extra installs."""
    seen: set[int] = set()
    e: BaseException | None = error
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        name = getattr(e, "name", None) if isinstance(e, ImportError) else None
        if name:
            top = str(name).split(".")[0]
            if top in EXTRA_OF:
                return top
        e = e.__cause__ or e.__context__
    return None


def missing_extra_line(error: BaseException) -> str | None:
    """One line naming the extra to install for ``error``, or None when no extra would help."""
    module = missing_module(error)
    if module is None:
        return None
    extra = EXTRA_OF[module]
    return (f"this needs the '{extra}' extra ({module} is not installed): "
            f"pip install -e '.[{extra}]'")


def require(extra: str, *modules: str) -> None:
    """Exit with one line naming ``extra`` when any of ``modules`` (default: every module
    EXTRA_OF gives to ``extra``) cannot be imported; the scripts that need an extra call it
    first (``scripts/train_ppo.py``)."""
    import importlib

    names = modules or tuple(m for m, e in EXTRA_OF.items() if e == extra and m != "tensorboard")
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError as e:
            module = missing_module(e) or name
            raise SystemExit(f"{_script_name()}: this needs the '{extra}' extra ({module} is not "
                             f"installed): pip install -e '.[{extra}]'") from None


def _script_name() -> str:
    import sys
    from pathlib import Path

    return Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "hostwcg"
