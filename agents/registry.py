"""The agent registry: every agent a name can make, as a typed spec (docs/write-an-agent.md).

An agent name is ``NAME[:PART]...``. ``NAME`` is a registered agent (``hostwcg agents`` lists
them); each ``PART`` is one of

* the spec's value (``lookahead:2``: two worlds; ``ppo:PATH``: a model file);
* ``KEY=VALUE``, a typed option (``pimc:8:first=2``);
* an option's name alone, for the options that may stand alone (``ismcts:raw``, ``ppo_v1:look``).

Besides the built-in specs, three ways bring an agent of your own to every place that takes an
agent name (``hostwcg evaluate``, ``ladder``, ``play``, ``demo``, ``balance``, ``gymnasium.make``):

* ``module:Class`` (or ``module:function``): anything importable that makes an agent, called
  with ``seed=`` when it takes one, and with the ``KEY=VALUE`` parts that follow as keyword
  arguments (their values read as Python literals: ``mypkg.agents:Greedy:depth=2``);
* an entry point in the ``hostwcg.agents`` group of an installed package, named by its entry
  point's name: its object is an :class:`AgentSpec` or a class or factory as above;
* :func:`register` in the running process (not seen by worker processes).

Every refusal is one :class:`AgentNameError` (a ``ValueError``) of one format:
``agent 'ismcts:0.5': 0.5 is not a budget (expected ismcts[:ITERATIONS|:SECONDSs]...)``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import Any

__all__ = ["BOOL", "NUMBER", "PATH", "POSITIVE", "WHOLE", "AgentNameError", "AgentSpec", "Kind", "Option",
           "UnknownAgent", "number", "whole", "agent_specs", "describe", "make", "parse", "problem", "register",
           "spec_of"]

ENTRY_POINT_GROUP = "hostwcg.agents"
_UNSET: Any = object()


class AgentNameError(ValueError):
    """An agent name that cannot be made: ``agent NAME: PROBLEM (expected USAGE)``."""

    def __init__(self, name: str, problem: str, expected: str = "") -> None:
        self.agent, self.problem, self.expected = name, problem, expected
        super().__init__(f"agent {name!r}: {problem}" + (f" (expected {expected})" if expected else ""))


class UnknownAgent(AgentNameError):
    """A name that is neither registered, an entry point, nor ``module:Class``."""

    def __init__(self, name: str, base: str, known: list[str]) -> None:
        super().__init__(name, "", "")
        ValueError.__init__(self, f"unknown agent {name!r}{_close(base, known)} (expected {', '.join(known)}, "
                                  "or MODULE:CLASS: docs/write-an-agent.md)")


# ------------------------------------------------------------------ option types


@dataclass(frozen=True)
class Kind:
    """A type of option value: how it is read from text, and what is expected, in words."""

    read: Callable[[str], Any]
    expected: str


def whole(lo: int | None = None) -> Kind:
    def read(text: str) -> int:
        n = int(text)
        if lo is not None and n < lo:
            raise ValueError(text)
        return n

    return Kind(read, "a whole number" + (f", {lo} or more" if lo is not None else ""))


def number(lo: float | None = None) -> Kind:
    def read(text: str) -> float:
        x = float(text)
        if x != x or x in (float("inf"), float("-inf")) or (lo is not None and x < lo):
            raise ValueError(text)
        return x

    return Kind(read, "a number" + (f", {lo:g} or more" if lo is not None else ""))


def _boolean(text: str) -> bool:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def _positive(text: str) -> float:
    x = number().read(text)
    if x <= 0:
        raise ValueError(text)
    return x


WHOLE, NUMBER, BOOL = whole(), number(), Kind(_boolean, "true or false (1 or 0)")
POSITIVE = Kind(_positive, "a number above 0")
PATH = Kind(str, "a file path")


@dataclass(frozen=True)
class Option:
    """One option of an agent spec: ``KEY=VALUE`` sets it, ``KEY`` alone sets it to ``bare``
    (where ``bare`` is given), and ``default`` is what the agent uses when it is not given."""

    name: str
    kind: Kind
    default: Any
    help: str
    bare: Any = _UNSET

    def read(self, agent: str, text: str, expected: str) -> Any:
        try:
            return self.kind.read(text)
        except (ValueError, TypeError):
            raise AgentNameError(agent, f"{self.name}= takes {self.kind.expected}, not {text!r}",
                                 expected) from None


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent: its name, a one-line help, its options (typed, with defaults), the
    value that may follow the name (``value``: an option written without its key) and the
    constructor, called as ``build(seed, **options)`` with the options the name gives (and the
    keyword arguments of ``make_agent``, which win)."""

    name: str
    help: str
    build: Callable[..., Any]
    options: tuple[Option, ...] = ()
    value: str | None = None  # the option a bare value sets (lookahead:2 -> worlds=2)
    usage: str = ""  # how the name is written, e.g. "lookahead[:WORLDS][:KEY=VALUE...]"
    read_value: Callable[[str, str], dict[str, Any]] | None = None  # (name, value): a form of its own (ismcts:0.5s)

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.name == key), None)

    def written(self) -> str:
        if self.usage:
            return self.usage
        head = f"[:{self.value.upper()}]" if self.value else ""
        rest = "[:KEY=VALUE...]" if [o for o in self.options if o.name != self.value] else ""
        return f"{self.name}{head}{rest}"

    def parse(self, name: str, arg: str) -> dict[str, Any]:
        """The options the part of ``name`` after ``NAME:`` (``arg``) sets."""
        out: dict[str, Any] = {}
        if not arg:
            return out
        if not self.options:
            raise AgentNameError(name, f"{self.name} takes no ':' argument", self.name)
        values: list[str] = []
        for part in arg.split(":"):
            key, eq, text = part.partition("=")
            opt = self.option(key.strip()) if key.strip() != self.value or eq else None
            if opt is not None and eq:
                out[opt.name] = opt.read(name, text.strip(), self.written())
            elif opt is not None and opt.bare is not _UNSET:
                out[opt.name] = opt.bare
            elif opt is not None:
                raise AgentNameError(name, f"{opt.name} needs a value: {opt.name}=VALUE ({opt.kind.expected})",
                                     self.written())
            else:
                values.append(part)
        if not values:
            return out
        value = self.option(self.value) if self.value else None
        known = ", ".join(o.name for o in self.options)
        if value is None or value.kind is not PATH:  # a path may hold ':' and '='
            for i, part in enumerate(values):
                key = part.partition("=")[0].strip()
                if "=" in part:
                    raise AgentNameError(name, f"unknown option {key!r} (options: {known})", self.written())
                if i or (value is None and self.read_value is None):
                    raise AgentNameError(name, f"{part!r} is not an option (options: {known})", self.written())
        text = ":".join(values)
        if self.read_value is not None:
            for k, v in self.read_value(name, text).items():
                out.setdefault(k, v)
        elif value is not None:
            try:
                out.setdefault(value.name, value.kind.read(text))
            except (ValueError, TypeError):
                raise AgentNameError(name, f"{text!r} is not {value.name.upper()}: {value.kind.expected}",
                                     self.written()) from None
        return out


# ------------------------------------------------------------------ the built-in agents


def _weights(kw: dict[str, Any]) -> dict[str, Any]:
    """The lookahead's evaluation weights among ``kw`` gathered into one ``weights=Weights``."""
    from .lookahead import Weights

    names = {f.name for f in fields(Weights)}
    given = {k: kw.pop(k) for k in list(kw) if k in names}
    if given and "weights" not in kw:
        kw["weights"] = Weights(**given)
    return kw


def _weight_options() -> tuple[Option, ...]:
    from .lookahead import Weights

    return tuple(Option(f.name, WHOLE if f.type in (int, "int") else NUMBER, f.default,
                        "evaluation weight (docs/agents.md, lookahead)") for f in fields(Weights))


def _random(seed: int | None) -> Any:
    from .random_agent import RandomAgent

    return RandomAgent(seed)


def _heuristic(seed: int | None) -> Any:
    from .heuristic import HeuristicAgent

    return HeuristicAgent(seed)


def _lookahead(seed: int | None, **kw: Any) -> Any:
    from .lookahead import LookaheadAgent

    return LookaheadAgent(seed=seed, **_weights(kw))


def _pimc(seed: int | None, **kw: Any) -> Any:
    from .pimc import PIMCAgent

    return PIMCAgent(seed=seed, **_weights(kw))


def _turnsearch(seed: int | None, **kw: Any) -> Any:
    from .turnsearch import TurnSearchAgent

    return TurnSearchAgent(seed=seed, **_weights(kw))


ISMCTS_USAGE = "ismcts[:ITERATIONS|:SECONDSs][:raw][:KEY=VALUE...]"
ISMCTS_BUDGET = "ismcts:ITERATIONS, a whole number 1 or more, or ismcts:SECONDSs, e.g. ismcts:0.5s"


def _ismcts_budget(name: str, text: str) -> dict[str, Any]:
    """``300``: iterations; ``0.5s``: seconds. A bare ``0.5`` is refused: it would read as
    iterations, not seconds."""
    t = text.strip()
    try:
        if t.endswith("s"):
            return {"seconds": POSITIVE.read(t[:-1])}
        elif int(t) >= 1:
            return {"iterations": int(t)}
    except ValueError:
        pass
    hint = f": write ismcts:{t}s for {t} seconds a decision" if re.fullmatch(r"\d*\.\d+|\d+\.\d*", t) else ""
    raise AgentNameError(name, f"{text!r} is not a budget{hint}", ISMCTS_BUDGET)


def _ismcts(seed: int | None, seconds: float | None = None, raw: bool = False, **kw: Any) -> Any:
    from .ismcts import ISMCTSAgent

    if seconds is not None:
        kw.setdefault("time_limit", seconds)
        kw.setdefault("iterations", 1_000_000)
    kw.setdefault("sensible", not raw)
    return ISMCTSAgent(seed=seed, **kw)


def _ppo(seed: int | None, path: str = "", raw: bool = False, **kw: Any) -> Any:
    from .ppo import DEFAULT, NumpyPolicy

    return NumpyPolicy.load(path or DEFAULT, seed=seed, guard=not raw, **kw)


V1_USAGE = "ppo_v1[:PATH.npz][:raw][:sample][:attacks][:plain][:look[=MARGIN]][:worlds=N][:turns=N][:top=K]"


def _ppo_v1(seed: int | None, path: str = "", raw: bool = False, sample: bool = False, attacks: bool = False,
            plain: bool = False, look: float | bool | None = None, **search: Any) -> Any:
    from .set_agent import DEFAULT_V1, SetPolicyAgent

    if path and not path.endswith(".npz"):
        raise ValueError(f"{path!r} is not a .npz file of v1 weights")
    if search.keys() & {"worlds", "turns", "top"} and look is None:
        raise ValueError("worlds=, turns= and top= set the 'look' check: add :look")
    if raw and attacks:
        raise ValueError("'attacks' is part of the guard that 'raw' leaves out")
    if look is not None:
        if raw or sample:
            raise ValueError("'look' checks the guarded greedy network, not 'raw' or 'sample'")
        from .set_search import SearchedSetAgent

        if look is not True:
            search["margin"] = look
        return SearchedSetAgent(path or DEFAULT_V1, seed=seed, attacks=attacks, check=not plain, **search)
    return SetPolicyAgent(path or DEFAULT_V1, seed=seed, sample=sample, guard=not raw, attacks=attacks,
                          check=not plain, **search)


def _level(seed: int | None, level: str | None = None, **kw: Any) -> Any:
    """``level:N``: the heuristic with skills left out (levels 1 to 3) or a shipped agent (4, 5),
    ``agents/levels.py``."""
    from .levels import LEVELS, SkilledHeuristic, known_levels, level_of

    if level is None:
        raise ValueError(f"no such level (known: {known_levels()})")
    lv = level_of(level)
    number = next(n for n, x in LEVELS.items() if x is lv)
    if lv.agent == "heuristic":
        return SkilledHeuristic(seed, level=lv, name=f"level:{number}")
    return make(lv.agent, seed, **kw)


def _builtin() -> list[AgentSpec]:
    one = whole(1)
    w = _weight_options()
    look_opts = (Option("worlds", one, 1, "sampled worlds a choice"),
                 Option("turns", one, 1, "turns rolled out (1: to the end of this one)"),
                 Option("max_rollout", one, 200, "decisions at most in one rollout"),
                 Option("stall", whole(0), 0, "from this turn make the heuristic's attacks (0: never)"),
                 Option("margin", NUMBER, 0.0, "keep the heuristic's choice unless beaten by more"))
    return [
        AgentSpec("random", "uniform over the legal actions (the rating anchor)", _random),
        AgentSpec("heuristic", "rules of thumb, microseconds a choice", _heuristic),
        AgentSpec("lookahead", "each sensible action tried in sampled worlds, the turn played out by the "
                  "heuristic, the position scored", _lookahead,
                  (*look_opts, Option("stop", BOOL, False, "also score stopping the turn at once", bare=True), *w),
                  value="worlds"),
        AgentSpec("pimc", "the lookahead over 16 worlds by successive halving, rolled out through the "
                  "opponent's reply", _pimc,
                  (Option("worlds", one, 16, "sampled worlds at most"), Option("turns", one, 2, "turns rolled out"),
                   Option("first", one, 2, "worlds for every action in the first round"),
                   Option("keep", number(0.0), 0.5, "share of the actions kept each round"),
                   *look_opts[2:3], Option("stall", whole(0), 50, "from this turn the heuristic's attacks (0: never)"),
                   *look_opts[4:], *w), value="worlds"),
        AgentSpec("turnsearch", "a search over this turn's sequences of the player's own actions", _turnsearch,
                  (Option("iterations", one, 64, "search iterations a choice"),
                   Option("worlds", one, 4, "sampled worlds"), Option("c", NUMBER, 0.1, "exploration"),
                   Option("widen", NUMBER, 1.0, "progressive widening"), Option("alpha", NUMBER, 0.5, "widening power"),
                   Option("turns", one, 1, "turns rolled out"), Option("max_rollout", one, 200, "rollout length"),
                   *w), value="iterations"),
        AgentSpec("ismcts", "information-set Monte Carlo tree search, a budget of iterations or seconds", _ismcts,
                  (Option("iterations", one, 200, "iterations a decision"),
                   Option("seconds", POSITIVE, None, "seconds a decision (the search stops past it)"),
                   Option("raw", BOOL, False, "choose among every legal action, not the sensible ones", bare=True),
                   Option("rollout_depth", one, 60, "decisions in one rollout"),
                   Option("exploration", NUMBER, 0.7, "UCT exploration constant"),
                   Option("min_visits", one, 6, "visits before an action may replace the heuristic's")),
                  usage=ISMCTS_USAGE, read_value=_ismcts_budget),
        AgentSpec("ppo", "the shipped MaskablePPO policy of hostwcg_v0 (numpy), or a trained .zip/.npz", _ppo,
                  (Option("path", PATH, "", "a Stable-Baselines3 .zip or an exported .npz (default: shipped)"),
                   Option("raw", BOOL, False, "the network alone, no target guard", bare=True)),
                  value="path", usage="ppo[:PATH][:raw]"),
        AgentSpec("ppo_v1", "the shipped hostwcg_v1 set policy; ppo_v1:look checks it by rollouts (the strongest)",
                  _ppo_v1,
                  (Option("path", PATH, "", "v1 weights .npz (default: shipped)"),
                   Option("raw", BOOL, False, "the network alone", bare=True),
                   Option("sample", BOOL, False, "sample its actions", bare=True),
                   Option("attacks", BOOL, False, "no attack that loses the attacker for nothing", bare=True),
                   Option("plain", BOOL, False, "ignore a learned check in the weights", bare=True),
                   Option("look", number(0.0), None, "check by rollouts; the margin to replace its choice",
                          bare=True),
                   Option("worlds", one, 1, "look: sampled worlds"), Option("turns", one, 2, "look: turns"),
                   Option("top", whole(0), 4, "look: likeliest actions checked (0: all)")),
                  value="path", usage=V1_USAGE),
        AgentSpec("level", "an opponent at a chosen strength, weaker by skill, not noise: level:1 (weakest) to "
                  "level:5 (docs/levels.md)", _level,
                  (Option("level", Kind(str, "1 to 5, or a level's name"), None, "1 to 5, or a level's name"),),
                  value="level", usage="level:1 to level:5"),
    ]


_SPECS: dict[str, AgentSpec] = {}


def agent_specs() -> dict[str, AgentSpec]:
    """The registered specs by name: the built-in ones and those registered with :func:`register`
    (the ``hostwcg.agents`` entry points are listed by :func:`entry_points`)."""
    if not _SPECS:
        for s in _builtin():
            _SPECS[s.name] = s
    return _SPECS


def register(spec: AgentSpec, replace: bool = False) -> AgentSpec:
    """Add ``spec`` to the registry of this process (``replace`` to change an existing one)."""
    specs = agent_specs()
    if not re.fullmatch(r"[A-Za-z_][\w-]*", spec.name):
        raise ValueError(f"agent spec name {spec.name!r}: letters, digits, '_' and '-' only")
    if spec.name in specs and not replace:
        raise ValueError(f"agent spec {spec.name!r} is already registered (replace=True to change it)")
    specs[spec.name] = spec
    return spec


def entry_points() -> dict[str, Any]:
    """The ``hostwcg.agents`` entry points of the installed packages, by name (not loaded)."""
    from importlib.metadata import entry_points as eps

    return {ep.name: ep for ep in eps(group=ENTRY_POINT_GROUP)}


# ------------------------------------------------------------------ module:Class


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _call(name: str, factory: Any, seed: int | None, kw: dict[str, Any]) -> Any:
    """``factory(seed=seed, **kw)``, without ``seed`` where it takes none."""
    if not callable(factory):
        raise AgentNameError(name, f"{factory!r} is not a class or a function", "MODULE:CLASS")
    try:
        params = inspect.signature(factory).parameters
        takes_seed = "seed" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())
        keys = [k for k, p in params.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and k != "seed"]
    except (TypeError, ValueError):  # a builtin without a signature
        takes_seed, keys = False, []
    try:
        agent = factory(seed=seed, **kw) if takes_seed else factory(**kw)
    except TypeError as e:
        takes = f"KEY=VALUE of {', '.join(keys)}" if keys else "no KEY=VALUE options"
        raise AgentNameError(name, f"{e}", takes) from None
    check_agent(name, agent)
    return agent


def check_agent(name: str, agent: Any) -> None:
    """Refuse an object that is not an agent (``agents.base.Agent``)."""
    if not (callable(getattr(agent, "choose", None)) or callable(getattr(agent, "act", None))):
        raise AgentNameError(name, f"{type(agent).__name__} has neither choose(view, actions) nor "
                             "act(observation, action_mask)", "an agent (docs/write-an-agent.md)")


def _options(name: str, parts: Iterable[str]) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    for part in parts:
        key, eq, text = part.partition("=")
        if not eq or not key.isidentifier():
            raise AgentNameError(name, f"{part!r}: options after the class are KEY=VALUE",
                                 "MODULE:CLASS[:KEY=VALUE...]")
        kw[key] = _literal(text)
    return kw


def _import(name: str, module: str, attr: str) -> Any:
    """``module.attr``, the current folder importable too (as ``python -m`` has it; the
    ``hostwcg`` command's own folder is its script's)."""
    import os
    import sys

    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        raise AgentNameError(name, f"cannot import {module!r}: {e}", "MODULE:CLASS, importable") from None
    obj: Any = mod
    for a in attr.split("."):
        if not hasattr(obj, a):
            raise AgentNameError(name, f"module {module!r} has no {attr!r}", "MODULE:CLASS, importable")
        obj = getattr(obj, a)
    return obj


_IMPORTABLE = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*")


def _close(base: str, known: list[str]) -> str:
    """"; did you mean ..." from the one lookup of names (hostwcg_env/cards/lookup.py); a name is
    never completed into another: the name is what the ladder's records keep."""
    from hostwcg_env.cards.lookup import lookup

    found = lookup(base, known, limit=3)
    near = [found.name] if found.name else found.near
    return f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""


# ------------------------------------------------------------------ making agents


@dataclass(frozen=True)
class Parsed:
    """What an agent name says: its spec (or factory) and the options it sets."""

    name: str
    spec: AgentSpec | None = None
    factory: Any = None
    options: dict[str, Any] = field(default_factory=dict)


def parse(name: str) -> Parsed:
    """Read an agent name without making the agent (a ``module:Class`` is imported)."""
    text = name.strip()
    base, _, arg = text.partition(":")
    specs = agent_specs()
    if base in specs:
        return Parsed(text, spec=specs[base], options=specs[base].parse(text, arg))
    eps = entry_points()
    if base in eps:
        try:
            obj = _load(base, eps[base])
        except AgentNameError as e:
            raise AgentNameError(text, e.problem, e.expected) from None
        if isinstance(obj, AgentSpec):
            return Parsed(text, spec=obj, options=obj.parse(text, arg))
        return Parsed(text, factory=obj, options=_options(text, filter(None, arg.split(":"))))
    attr, _, rest = arg.partition(":")
    if arg and _IMPORTABLE.fullmatch(base) and _IMPORTABLE.fullmatch(attr):
        return Parsed(text, factory=_import(text, base, attr), options=_options(text, filter(None, rest.split(":"))))
    raise UnknownAgent(text, base, list(specs) + list(eps))


def make(name: str, seed: int | None = None, **kw: Any) -> Any:
    """The agent ``name`` describes, seeded; ``kw`` are constructor options that win over the
    name's (``opponent_decks=...``)."""
    p = parse(name)
    opts = {**p.options, **kw}
    if p.spec is None:
        return _call(p.name, p.factory, seed, opts)
    try:
        return p.spec.build(seed, **opts)
    except AgentNameError:
        raise
    except (ValueError, TypeError) as e:  # the constructor's own checks (pimc: first <= worlds)
        if isinstance(e, TypeError) and "argument" not in str(e):
            raise
        raise AgentNameError(p.name, str(e), p.spec.written()) from e


def problem(spec: str) -> str | None:
    """What is wrong with an agent spec (``random``, ``ismcts:300``, ``ppo:PATH``,
    ``module:Class``...), or None: the agent is made once, and a refusal is one line."""
    import zipfile

    base, _, arg = spec.partition(":")
    try:
        make(spec, seed=0)
    except AgentNameError as e:
        if base == "ppo" and e.__cause__ is not None:  # the file is neither a model .zip nor an exported policy
            why = e.problem.split(". ")[0]
            return (f"agent {spec!r}: {arg or 'the shipped policy'} is neither a Stable-Baselines3 "
                    f"model .zip nor an exported policy .npz ({why})")
        return str(e)
    except OSError as e:
        return f"agent {spec!r} cannot be made: {e.strerror or e}: {e.filename or arg}"
    except ImportError as e:  # a model .zip without torch installed (agents.ppo.weights_of_zip)
        return f"agent {spec!r} cannot be made: {e}"
    except (ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        if base == "ppo":  # neither a model .zip nor an exported policy (agents.ppo)
            why = str(e).split(". ")[0] or type(e).__name__
            return (f"agent {spec!r}: {arg or 'the shipped policy'} is neither a Stable-Baselines3 "
                    f"model .zip nor an exported policy .npz ({why})")
        return f"agent {spec!r} cannot be made: {e}"
    return None


def spec_of(name: str) -> AgentSpec | Any | None:
    """The spec registered as ``name``, or the object of the entry point of that name (an
    ``AgentSpec``, a class or a factory), or None."""
    if name in agent_specs():
        return agent_specs()[name]
    eps = entry_points()
    return _load(name, eps[name]) if name in eps else None


def _load(name: str, ep: Any) -> Any:
    try:
        return ep.load()
    except Exception as e:  # a broken plugin: its own error, on one line
        raise AgentNameError(name, f"entry point {ep.value!r} fails to load: {e}",
                             f"an importable object ({ENTRY_POINT_GROUP})") from None


def describe() -> list[tuple[str, str, str]]:
    """``(name, how it is written, help)`` of every registered agent and entry point."""
    rows = [(s.name, s.written(), s.help) for s in agent_specs().values()]
    for n, ep in entry_points().items():
        if n in agent_specs():
            continue
        try:
            obj = _load(n, ep)
        except AgentNameError as e:
            rows.append((n, n, e.problem))
            continue
        if isinstance(obj, AgentSpec):
            rows.append((n, obj.written().replace(obj.name, n, 1), f"{obj.help} (entry point {ep.value})"))
        else:
            rows.append((n, f"{n}[:KEY=VALUE...]", f"entry point {ep.value}: its constructor's options"))
    return rows
