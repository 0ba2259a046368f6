"""Training recipes: the TOML file ``hostwcg train`` runs (docs/training.md, "The recipe").

A recipe names the decks, the teacher (any agent name ``agents.make_agent`` takes), the stages
in order, each with its time budget in minutes and its options, and the final evaluation::

    [recipe]
    name = "smoke"
    seed = 7

    [cards]
    files = ["my_cards.toml"]    # optional: card files added to the shipped pool

    [decks]
    decks = "preconstructed"     # or "ladder", or a list of deck names and deck files

    [teacher]
    agent = "heuristic"

    [[stages]]
    kind = "demos"               # demos, clone, dagger, league, expert-iteration
    minutes = 0.3

    [evaluation]
    opponents = ["random", "heuristic"]
    games = 20

:func:`load_recipe` reads and checks one: every problem is a :class:`RecipeError` whose message
is one line naming the file, the table and the key. The result is a :class:`Recipe` with every
default filled in (``Recipe.resolved()`` is what the run directory's config.json records).
Shipped recipes live in ``agents/recipes/`` and load by name (``load_recipe("smoke")``).
"""

from __future__ import annotations

import contextlib
import difflib
import glob
import hashlib
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RECIPES_DIR = Path(__file__).resolve().parents[1] / "recipes"

STAGE_KINDS = ("demos", "clone", "dagger", "league", "expert-iteration")
# the stages that make a network (the ones a dagger, league or expert-iteration stage continues)
MODEL_KINDS = ("clone", "dagger", "league", "expert-iteration")

_REQ = object()  # a key without a default: the recipe must give it

# kind -> key -> (type, default). Types: int, float, bool, str, "agents" (a list of agent
# names), "str?" (a string or absent), "weights" (a table: action kind -> a weight > 0 of the
# cloning loss on the choices of that kind). "minutes" is every stage's budget.
STAGE_OPTIONS: dict[str, dict[str, tuple[Any, Any]]] = {
    "demos": {
        "minutes": (float, _REQ), "games": (int, 1_000_000), "chunk_games": (int, 20), "workers": (int, 1),
        "teacher": ("str?", None),
    },
    "clone": {
        "minutes": (float, _REQ), "epochs": (int, 4), "dim": (int, 64), "emb": (int, 32), "lr": (float, 1e-3),
        "batch_size": (int, 512), "holdout": (float, 0.05), "value_coef": (float, 0.5), "weights": ("weights", {}),
    },
    "dagger": {
        "minutes": (float, _REQ), "rounds": (int, 1), "games": (int, 1_000_000), "teacher": ("str?", None),
        "opponents": ("agents", ["teacher", "heuristic", "self"]), "envs": (int, 32), "greedy": (bool, False),
        "label_share": (float, 0.6), "from_scratch": (bool, True), "dim": (int, 0), "emb": (int, 0),
        "epochs": (int, 3), "lr": (float, 1e-3), "batch_size": (int, 512), "holdout": (float, 0.03),
        "weights": ("weights", {}),
    },
    "league": {
        "minutes": (float, _REQ), "opponents": ("agents", ["heuristic", "lookahead"]), "self_play": (bool, True),
        "lr": (float, 1e-4), "clip": (float, 0.1), "ent_coef": (float, 0.001), "pfsp": (str, "variance"),
        "envs": (int, 64), "n_steps": (int, 32), "batch_size": (int, 1024), "epochs": (int, 2),
        "gamma": (float, 0.995), "snapshot_every": (int, 200_000), "eval_every": (int, 200_000),
        "eval_games": (int, 40), "curve_every": (float, 0.0), "curve_games": (int, 0),
        "curve_opponents": ("agents", []), "threads": (int, 1),
    },
    "expert-iteration": {
        "minutes": (float, _REQ), "rounds": (int, 2), "mode": (str, "hard"), "games": (int, 1_000_000),
        "worlds": (int, 4), "top": (int, 4), "opponents": ("agents", ["heuristic", "lookahead", "self"]),
        "envs": (int, 32), "chunk_games": (int, 50), "label_share": (float, 0.8), "accumulate": (bool, True),
        "from_scratch": (bool, False),
        "epochs": (int, 2), "lr": (float, 1e-4), "beta": (float, 30.0), "batch_size": (int, 512),
        "holdout": (float, 0.03), "weights": ("weights", {}),
    },
}
CHOICES = {("league", "pfsp"): ("hard", "variance"), ("expert-iteration", "mode"): ("hard", "soft")}
# keys that must be > 0 (others that are numbers must be >= 0)
POSITIVE = {"minutes", "games", "chunk_games", "workers", "epochs", "rounds", "envs", "n_steps", "batch_size",
            "snapshot_every", "eval_every", "worlds", "top", "lr", "threads"}
FRACTIONS = {"label_share", "holdout"}  # in [0, 1)

TOP_KEYS = {"recipe": {"name", "description", "seed", "init"}, "cards": {"files"}, "decks": {"decks"},
            "teacher": {"agent"},
            "evaluation": {"opponents", "games", "seed", "workers", "check"}, "stages": set()}


class RecipeError(ValueError):
    """A recipe that cannot be run: one line, ``FILE: [TABLE] KEY: what is wrong``."""


@dataclass(frozen=True)
class Stage:
    """One stage: its kind, its name (the run directory's folder), its budget and options."""

    index: int
    kind: str
    name: str
    minutes: float
    options: dict[str, Any]


@dataclass(frozen=True)
class Recipe:
    """A checked recipe, its defaults filled in."""

    path: Path
    text: str
    name: str
    description: str
    seed: int
    decks: str | list[str]  # "preconstructed", "ladder" or deck names / deck file paths (resolved)
    teacher: str
    stages: list[Stage]
    evaluation: dict[str, Any] = field(default_factory=dict)
    init: str | None = None  # a network the first stage continues from (agents/training/init_net.py)
    card_files: list[str] = field(default_factory=list)  # the user's card files (resolved), added to the pool

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    @property
    def minutes(self) -> float:
        return sum(s.minutes for s in self.stages)

    def decks_arg(self) -> str:
        """The decks as ``train_v1 --decks`` and ``distill_v1.dagger(decks=)`` take them."""
        if self.decks == "preconstructed":
            return "shipped"
        if self.decks == "ladder":
            return "ladder"
        return ",".join(self.decks)

    @contextlib.contextmanager
    def pool(self) -> Iterator[None]:
        """Within the block every game (and every worker process started in it) plays the shipped
        cards plus the recipe's card files (``hostwcg_env.cards.loader.card_files``), and those
        alone: a ``HOSTWCG_CARDS`` set outside does not reach a recipe's run."""
        from hostwcg_env.cards.loader import card_files

        with card_files(self.card_files):
            yield

    def cards(self) -> list[dict[str, str]]:
        """The card files with the sha256 of their contents (the run's provenance)."""
        return [{"file": f, "sha256": hashlib.sha256(Path(f).read_bytes()).hexdigest()} for f in self.card_files]

    def deck_refs(self) -> list[Any]:
        """The decks as the ladder's runner deals them (``DeckRef``s)."""
        from hostwcg_env.analysis.ladder import default_decks
        from hostwcg_env.analysis.simulate import resolve_decks

        if self.decks in ("preconstructed", "ladder"):
            return list(default_decks(include_test=self.decks == "ladder"))
        with self.pool():
            return resolve_decks(list(self.decks))

    def resolved(self) -> dict[str, Any]:
        """Everything the run uses, for config.json and the model card."""
        return {"name": self.name, "description": self.description, "seed": self.seed, "cards": self.cards(),
                "decks": self.decks, "teacher": self.teacher, "file": str(self.path), "sha256": self.sha256,
                "stages": [{"name": s.name, "kind": s.kind, "minutes": s.minutes, **s.options} for s in self.stages],
                "evaluation": self.evaluation, "init": self.init}


def shipped_recipes() -> list[str]:
    """The names of the shipped recipes (``agents/recipes/*.toml``), sorted."""
    return sorted(f.stem for f in RECIPES_DIR.glob("*.toml"))


def recipe_path(name: str | Path) -> Path:
    """A recipe file: a path, or the name of a shipped recipe (:func:`shipped_recipes`)."""
    p = Path(name)
    if p.is_file():
        return p
    shipped = RECIPES_DIR / f"{name}.toml"
    if "/" not in str(name) and shipped.is_file():
        return shipped
    names = ", ".join(shipped_recipes())
    raise RecipeError(f"{name}: no such recipe file, and not a shipped recipe (shipped: {names})")


def load_recipe(name: str | Path) -> Recipe:
    """Read and check a recipe (a path or a shipped recipe's name)."""
    path = recipe_path(name)
    text = path.read_text(encoding="utf-8")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RecipeError(f"{path}: not valid TOML: {e}") from None
    return parse_recipe(raw, path, text)


def _err(path: Path, table: str, key: str | None, message: str) -> RecipeError:
    where = f"[{table}]" + (f" {key}" if key else "")
    return RecipeError(f"{path}: {where}: {message}")


def _unknown(path: Path, table: str, keys: set[str], allowed: set[str]) -> None:
    for k in sorted(keys - allowed):
        close = difflib.get_close_matches(k, sorted(allowed), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(sorted(allowed))})"
        raise _err(path, table, k, f"unknown key{hint}")


def _check_agent(path: Path, table: str, key: str, name: Any) -> str:
    from agents import make_agent

    if not isinstance(name, str) or not name:
        raise _err(path, table, key, f"an agent name (a string), got {name!r}")
    try:
        make_agent(name, seed=0)
    except Exception as e:  # AgentNameError, or a path that cannot be read
        raise _err(path, table, key, str(e).splitlines()[0]) from None
    return name


def _value(path: Path, table: str, key: str, kind: Any, value: Any) -> Any:
    if kind is bool:
        if not isinstance(value, bool):
            raise _err(path, table, key, f"true or false, got {value!r}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _err(path, table, key, f"a whole number, got {value!r}")
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _err(path, table, key, f"a number, got {value!r}")
        value = float(value)
    elif kind in (str, "str?"):
        if not isinstance(value, str) or not value:
            raise _err(path, table, key, f"a non-empty string, got {value!r}")
        return value
    elif kind == "agents":
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise _err(path, table, key, f"a list of agent names, got {value!r}")
        return list(value)
    elif kind == "weights":
        return _weights(path, table, key, value)
    if key in POSITIVE and not value > 0:
        raise _err(path, table, key, f"must be > 0, got {value!r}")
    if key in FRACTIONS and not 0 <= value < 1:
        raise _err(path, table, key, f"must be from 0 to below 1, got {value!r}")
    if value < 0:
        raise _err(path, table, key, f"must be >= 0, got {value!r}")
    return value


def _weights(path: Path, table: str, key: str, value: Any) -> dict[str, float]:
    """A stage's ``weights``: each action kind (``hostwcg_v1``'s ``action_kind``, docs/observation_v1.md
    "Action kinds") and the weight of the cloning loss on the choices of that kind (1 for the
    kinds not named)."""
    from hostwcg_env.env.v1.layout import ACTION_KINDS

    kinds = list(ACTION_KINDS)
    if not isinstance(value, dict):
        raise _err(path, table, key, f"a table of action kinds and weights (weights = {{ ap_any = 10 }}), "
                                     f"got {value!r}")
    for k, w in value.items():
        if k not in kinds:
            near = difflib.get_close_matches(k, kinds, n=1)
            raise _err(path, table, key, f"{k!r}: not an action kind" + (f" (did you mean {near[0]!r}?)" if near
                                                                            else f" (one of {', '.join(kinds)})"))
        if isinstance(w, bool) or not isinstance(w, int | float) or not w > 0:
            raise _err(path, table, key, f"{k}: a weight > 0, got {w!r}")
    return {k: float(w) for k, w in value.items()}


def _decks(path: Path, value: Any) -> str | list[str]:
    from hostwcg_env.analysis.simulate import resolve_decks

    if value in ("preconstructed", "ladder"):
        return str(value)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise _err(path, "decks", "decks", f"\"preconstructed\", \"ladder\" or a list of deck names and files, "
                                           f"got {value!r}")
    out = []
    for v in value:  # a relative deck file is read from the recipe's folder first
        near = (path.parent / v)
        out.append(str(near.resolve()) if v.endswith(".toml") and near.is_file() else v)
    try:
        resolve_decks(out)
    except ValueError as e:
        raise _err(path, "decks", "decks", str(e)) from None
    except Exception as e:  # a deck file whose cards the pool does not hold (DeckError)
        raise _err(path, "decks", "decks", str(e).splitlines()[0]) from None
    return out


def _card_files(path: Path, value: Any) -> list[str]:
    """``[cards] files``: card files and glob patterns (``more/*.toml``), relative ones read from
    the recipe's folder; each checked by the card loader together with the shipped pool."""
    from hostwcg_env.cards.loader import CardError, card_files

    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _err(path, "cards", "files", f"a list of card files (paths or patterns like \"cards/*.toml\"), "
                                           f"got {value!r}")
    out: list[str] = []
    for v in value:
        p = Path(v) if Path(v).is_absolute() else path.parent / v
        if glob.has_magic(v):
            found = sorted(q for q in map(Path, glob.glob(str(p), recursive=True)) if q.is_file())
            if not found:
                raise _err(path, "cards", "files", f"{v!r} matches no file (read from {path.parent})")
        elif not p.is_file():
            raise _err(path, "cards", "files", f"{v!r}: no such card file (read from {path.parent})")
        else:
            found = [p]
        out += [str(q.resolve()) for q in found if str(q.resolve()) not in out]
    try:
        with card_files(out):
            pass
    except CardError as e:
        more = f" (and {len(e.problems) - 1} more: hostwcg cards validate lists them)" if len(e.problems) > 1 else ""
        raise _err(path, "cards", "files", e.problems[0] + more) from None
    return out


def parse_recipe(raw: dict[str, Any], path: Path, text: str = "") -> Recipe:
    """Check a recipe's parsed TOML (``raw``) and fill in its defaults."""
    path = Path(path)
    _unknown(path, "top level", set(raw), set(TOP_KEYS))
    for table in ("recipe", "cards", "decks", "teacher", "evaluation"):
        t = raw.get(table, {})
        if not isinstance(t, dict):
            raise _err(path, table, None, "must be a table")
        _unknown(path, table, set(t), TOP_KEYS[table])
    head = raw.get("recipe", {})
    name = head.get("name", path.stem)
    if not isinstance(name, str) or not name or any(c in name for c in "/\\"):
        raise _err(path, "recipe", "name", f"a name without slashes, got {name!r}")
    description = head.get("description", "")
    if not isinstance(description, str):
        raise _err(path, "recipe", "description", f"a string, got {description!r}")
    seed = head.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**40:
        raise _err(path, "recipe", "seed", f"a whole number from 0 to 2**40, got {seed!r}")
    files = _card_files(path, raw["cards"]["files"]) if "files" in raw.get("cards", {}) else []
    from hostwcg_env.cards.loader import card_files

    with card_files(files):  # the decks are checked against the recipe's pool: they may hold its cards
        decks = _decks(path, raw.get("decks", {}).get("decks", "preconstructed"))
    if "agent" not in raw.get("teacher", {}):
        raise _err(path, "teacher", "agent", "missing: the agent whose choices are cloned (e.g. \"lookahead\")")
    teacher = _check_agent(path, "teacher", "agent", raw["teacher"]["agent"])
    init = None
    if "init" in head:
        init = resolve_init(path, head["init"])

    items = raw.get("stages")
    if not isinstance(items, list) or not items:
        raise _err(path, "stages", None, "missing: give at least one [[stages]] table")
    stages: list[Stage] = []
    names: set[str] = set()
    for i, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise _err(path, f"stages {i}", None, "must be a table ([[stages]])")
        kind = item.get("kind")
        table = f"stages {i}"
        if kind not in STAGE_KINDS:
            raise _err(path, table, "kind", f"one of {', '.join(STAGE_KINDS)}, got {kind!r}")
        table = f"stages {i}: {kind}"
        spec = STAGE_OPTIONS[kind]
        sub = {"exploiters"} if kind == "league" else set()  # a [stages.exploiters] table
        _unknown(path, table, set(item) - {"kind", "name"}, set(spec) | sub)
        opts: dict[str, Any] = {}
        for key, (typ, default) in spec.items():
            if key in item:
                opts[key] = _value(path, table, key, typ, item[key])
            elif default is _REQ:
                raise _err(path, table, key, "missing: the stage's time budget in minutes")
            else:
                opts[key] = type(default)(default) if isinstance(default, list | dict) else default
        choice = CHOICES.get((kind, "pfsp")) if kind == "league" else CHOICES.get((kind, "mode"))
        key = "pfsp" if kind == "league" else "mode"
        if choice and opts.get(key) not in choice:
            raise _err(path, table, key, f"one of {', '.join(choice)}, got {opts.get(key)!r}")
        for key in ("teacher",):
            if opts.get(key) is not None:
                _check_agent(path, table, key, opts[key])
        for key in ("opponents", "curve_opponents"):
            for a in opts.get(key, []):
                if a not in ("self", "teacher"):
                    _check_agent(path, table, key, a)
        if kind == "league" and not opts["opponents"]:
            raise _err(path, table, "opponents", "give at least one fixed opponent")
        if kind == "expert-iteration" and opts["mode"] == "soft" and opts["weights"]:
            raise _err(path, table, "weights", "only a hard expert-iteration stage clones its labels (mode = \"hard\")")
        stage_name = item.get("name", f"{i:02d}_{kind}")
        if not isinstance(stage_name, str) or not stage_name or any(c in stage_name for c in "/\\"):
            raise _err(path, table, "name", f"a folder name without slashes, got {stage_name!r}")
        if stage_name in names:
            raise _err(path, table, "name", f"{stage_name!r} is the name of an earlier stage")
        names.add(stage_name)
        before = {s.kind for s in stages}
        if kind == "clone" and "demos" not in before:
            raise _err(path, table, "kind", "a clone stage needs a demos stage before it")
        if kind == "league":
            opts["exploiters"] = parse_exploiters(path, table, item.get("exploiters"),
                                                  bool(before & set(MODEL_KINDS)) or init is not None)
        if kind in ("dagger", "expert-iteration") and not before & set(MODEL_KINDS) and init is None:
            raise _err(path, table, "kind", f"a {kind} stage needs a network from an earlier stage "
                                            "(clone, dagger, league or expert-iteration) or [recipe] init")
        stages.append(Stage(i, kind, stage_name, float(opts.pop("minutes")), opts))
    if not any(s.kind in MODEL_KINDS for s in stages):
        raise _err(path, "stages", None, "no stage makes a network: add a clone or league stage")

    ev = raw.get("evaluation", {})
    evaluation: dict[str, Any] = {"opponents": ["random", "heuristic"], "games": 100, "seed": seed + 900_000_000,
                                  "workers": 1, "check": False}
    for key in ("games", "seed", "workers"):
        if key in ev:
            evaluation[key] = _value(path, "evaluation", key, int, ev[key])
    if "check" in ev:  # also the network checked by the search (ppo_v1:PATH:look), on the same seeds
        evaluation["check"] = _value(path, "evaluation", "check", bool, ev["check"])
    if "opponents" in ev:
        evaluation["opponents"] = _value(path, "evaluation", "opponents", "agents", ev["opponents"])
    for a in evaluation["opponents"]:
        _check_agent(path, "evaluation", "opponents", a)
    if evaluation["games"] < 1 or evaluation["workers"] < 1:
        raise _err(path, "evaluation", "games" if evaluation["games"] < 1 else "workers", "must be > 0")
    return Recipe(path=path, text=text, name=name, description=description, seed=seed, decks=decks,
                  teacher=teacher, stages=stages, evaluation=evaluation, init=init, card_files=files)


# ---------------------------------------------------------------------------- [recipe] init
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


# ---------------------------------------------------------------------------- [stages.exploiters]
# key -> (type, default) of a [stages.exploiters] table
EXPLOITER_OPTIONS: dict[str, tuple[Any, Any]] = {
    "every_minutes": (float, _REQ), "minutes": (float, _REQ), "keep": (int, 3), "weight": (float, 1.0),
    "start": (str, "main"), "games": (int, 40),
}
EXPLOITER_STARTS = ("main", "init")


def parse_exploiters(path: Path, table: str, raw: Any, has_network: bool) -> dict[str, Any] | None:
    """A league stage's ``[stages.exploiters]`` table checked, its defaults filled (None: absent).
    ``has_network``: an earlier stage or the recipe's ``init`` gives the stage a network to start from."""
    if raw is None:
        return None
    where = f"{table}: exploiters"
    if not isinstance(raw, dict):
        raise _err(path, table, "exploiters", "must be a table ([stages.exploiters] after the stage's [[stages]])")
    _unknown(path, where, set(raw), set(EXPLOITER_OPTIONS))
    out: dict[str, Any] = {}
    for key, (typ, default) in EXPLOITER_OPTIONS.items():
        if key in raw:
            value = _value(path, where, key, typ, raw[key])
            if key in ("every_minutes", "weight", "keep", "games") and not value > 0:
                raise _err(path, where, key, f"must be > 0, got {value!r}")
            out[key] = value
        elif default is _REQ:
            what = {"every_minutes": "the main policy's minutes of training between exploiters",
                    "minutes": "each exploiter's budget in minutes"}[key]
            raise _err(path, where, key, f"missing: {what}")
        else:
            out[key] = default
    if out["start"] not in EXPLOITER_STARTS:
        raise _err(path, where, "start", f"one of {', '.join(EXPLOITER_STARTS)}, got {out['start']!r}")
    if out["start"] == "init" and not has_network:
        raise _err(path, where, "start", "\"init\" needs a network the stage starts from (an earlier stage "
                                         "or [recipe] init)")
    return out
