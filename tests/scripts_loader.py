"""Loading a file of scripts/ as a module, for the tests of the scripts (they are not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(name: str, path: Path | None = None) -> ModuleType:
    """``scripts/NAME.py`` (or ``path``) as the module ``NAME``, registered in ``sys.modules``
    (dataclasses and pickling need it there) and loaded once."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path or SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
