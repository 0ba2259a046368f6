"""States that travel: ``pickle``, ``copy.copy`` and ``copy.deepcopy`` of a ``Game``, a
``GameState``, a ``PlayerView`` and everything they hold, in both builds (docs/engine.md
"Saving and sending a game").

The Python build pickles these objects as any class. The compiled build cannot: a mypyc class
makes its instances through ``__init__`` (so ``copyreg``'s default, an empty instance filled
from a dict, raises ``__init__() missing required argument``), and a frozen dataclass refuses
the attribute writes that fill it (``FrozenInstanceError``). So each engine class gets a
reducer in ``copyreg``'s dispatch table, which ``pickle`` and ``copy`` consult before anything
else, outside the classes themselves (nothing mypyc must support):

* a frozen dataclass is made again from its fields, in order, through its ``__init__``;
* any other class with required ``__init__`` arguments is made through ``__init__`` with the
  attributes those arguments set (``ARGS``), then every attribute is written back as it was
  (so what ``__init__`` computes, such as a new ``StateKey``, is replaced by the original's
  copy).

``tests/test_travel.py`` checks ``ARGS`` against the constructors and that every engine class
with required arguments is covered.
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
from typing import Any, Final

# class ("module.Class") -> the attributes passed to its __init__, in order (the required
# arguments; an argument stored under another name, such as Game's ``state`` in ``s``, is
# given by that attribute)
ARGS: Final[dict[str, tuple[str, ...]]] = {
    "actions.IllegalActionError": ("rule", "message"),
    "actions.Decision": ("player", "kind", "actions"),
    "announce.Announce": ("what", "player", "obj", "ability", "specs", "cost"),
    "battle.CombatDamage": ("first_strike",),
    "battle.NextStep": ("step",),
    "damage.HostPoint": ("players", "chosen", "source_name"),
    "game.Game": ("s",),
    "hands.DiscardCards": ("player", "left"),
    "primitives.StepSite": ("index", "ability_kind", "equipment", "declared", "ref", "ref_type", "stats"),
    "primitives.PlaceToken": ("player", "token"),
    "primitives.SlotFor": ("obj",),
    "primitives.PutInSlot": ("player", "obj"),
    "primitives.SearchChoice": ("reveal",),
    "primitives.LookOrder": ("player", "left", "done"),
    "primitives.NewTargets": ("player", "sid", "plan", "i", "new"),
    "resolution.ItemWork": ("item",),
    "resolution.Group": ("item", "steps"),
    "resolution.ExecStep": ("item", "step", "ids"),
    "resolution.ItemDone": ("item",),
    "resolution.ItemChoice": ("item",),
    "setup.Mulligan": ("player", "back"),
    "state.Mod": ("kind", "stat", "value", "ts"),
    "state.Obj": ("id", "card", "owner", "controller", "zone"),
    "state.Player": ("idx",),
    "state.StackItem": ("sid", "kind", "controller", "source", "source_name", "card"),
    "state.PendingTrigger": ("controller", "source", "card", "ability"),
    "state.Battle": ("attacker", "attacker_name", "controller"),
    "state.BoardCache": ("board",),
    "state.StatCache": ("board", "modv"),
    "state.HiddenCache": ("key",),
    "state.LoopProbe": ("first",),
    "state.GameState": ("config", "registry", "rng"),
    "view.PlayerView": ("_s", "player"),
}
PACKAGE: Final = "hostwcg_env.engine"
# the modules whose classes a game's state or an env holds (ARGS' modules, and those of frozen
# dataclasses); wording.TextCtx and stats.PoolTables are made and used within one call
MODULES: Final = ("actions", "announce", "battle", "carddef", "damage", "events", "game", "hands",
                  "primitives", "resolution", "ruleset", "setup", "state", "tasks", "turn", "view")


def attributes(obj: Any) -> dict[str, Any]:
    """Every attribute ``obj`` has set: its ``__dict__`` (Python build) or the attributes a
    compiled class declares (``__mypyc_attrs__``, its bases' too), less unset ones."""
    d = getattr(obj, "__dict__", None)
    if d is not None:
        return dict(d)
    out: dict[str, Any] = {}
    for c in type(obj).__mro__:
        for name in getattr(c, "__mypyc_attrs__", ()):
            if name != "__dict__" and name not in out:
                try:
                    out[name] = getattr(obj, name)
                except AttributeError:  # declared, never set
                    pass
    return out


def make(cls: Any, args: tuple[Any, ...]) -> Any:
    """An instance of ``cls`` made through its ``__init__`` (its attributes follow as state)."""
    return cls(*args)


def _reduce_frozen(obj: Any) -> tuple[Any, ...]:
    return (make, (type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))))


def _reducer(names: tuple[str, ...]) -> Any:
    def reduce(obj: Any) -> tuple[Any, ...]:
        return (make, (type(obj), tuple(getattr(obj, n) for n in names)), attributes(obj))

    return reduce


def register_class(cls: type, args: tuple[str, ...]) -> None:
    """A reducer for a class outside the engine compiled with it (hostwcg_v0's observation
    encoder, ``hostwcg_env.env.observers.v0_encoder``): made through ``__init__`` with the
    attributes ``args`` names, then every attribute written back, as ``ARGS``' classes."""
    copyreg.pickle(cls, _reducer(args))


def register() -> list[type]:
    """Put a reducer for every engine class that needs one in ``copyreg``'s dispatch table
    (idempotent); the classes registered."""
    done: list[type] = []
    for short in MODULES:
        name = f"{PACKAGE}.{short}"
        module = importlib.import_module(name)
        for cname, cls in list(vars(module).items()):
            if not isinstance(cls, type) or cls.__module__ != name:
                continue
            key = f"{short}.{cname}"
            if key in ARGS:
                copyreg.pickle(cls, _reducer(ARGS[key]))
                done.append(cls)
            elif dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen and key != "config.RuleConfig":  # type: ignore[attr-defined]
                copyreg.pickle(cls, _reduce_frozen)
                done.append(cls)
    return done


__all__ = ["ARGS", "attributes", "make", "register", "register_class"]
