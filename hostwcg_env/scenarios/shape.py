"""The shape of a scenario document (docs/scenarios.md "File format"): every field has the
type the format gives it. A file that is valid TOML but not a scenario (``step = 5``,
``pool = 3``, ``hand = -2``) is refused here with the field named, before anything is built."""

from __future__ import annotations

from typing import Any

from .builder import ENTITY_FIELDS, MOD_FIELDS, SETUP_FIELDS, SIDE_FIELDS, ScenarioError

ZONES = ("hand", "deck", "damage_zone", "drop", "banished", "forms")


def _kind(v: Any) -> str:
    return {str: "a string", bool: "true/false", int: "a whole number", float: "a number",
            list: "a list", dict: "a table"}.get(type(v), type(v).__name__)


class _Check:
    def __init__(self, source: str) -> None:
        self.src = source

    def fail(self, field: str, want: str, v: Any) -> ScenarioError:
        return ScenarioError(f"{self.src}: {field}: must be {want}, got {_kind(v)} {v!r}"[:300])

    def table(self, v: Any, field: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise self.fail(field, "a table", v)
        return v

    def tables(self, v: Any, field: str) -> list[dict[str, Any]]:
        if not isinstance(v, list):
            raise self.fail(field, "a list of tables ([[...]])", v)
        return [self.table(t, f"{field}[{i}]") for i, t in enumerate(v)]

    def text(self, v: Any, field: str) -> None:
        if not isinstance(v, str):
            raise self.fail(field, "a string", v)

    def texts(self, v: Any, field: str) -> None:
        if not isinstance(v, list):
            raise self.fail(field, "a list of strings", v)
        for i, x in enumerate(v):
            self.text(x, f"{field}[{i}]")

    def whole(self, v: Any, field: str, lo: int | None = 0) -> None:
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(field, "a whole number", v)
        if lo is not None and v < lo:
            raise self.fail(field, f"at least {lo}", v)

    def flag(self, v: Any, field: str) -> None:
        if not isinstance(v, bool):
            raise self.fail(field, "true or false", v)

    def player(self, v: Any, field: str) -> None:
        if v not in ("A", "B"):
            raise self.fail(field, '"A" or "B"', v)

    def cards(self, v: Any, field: str) -> None:
        """A zone: a list of card names or a count (of filler cards)."""
        if isinstance(v, int) and not isinstance(v, bool):
            self.whole(v, field)
        elif not isinstance(v, list):
            raise self.fail(field, "a list of card names or a count", v)
        else:
            for i, x in enumerate(v):
                if isinstance(x, dict):  # a card with a label: { card = "Squire", label = "sq" }
                    self.text(x.get("card"), f"{field}[{i}].card")
                    if "label" in x:
                        self.text(x["label"], f"{field}[{i}].label")
                else:
                    self.text(x, f"{field}[{i}]")

    # ------------------------------------------------------------------ parts
    def doc(self, doc: dict[str, Any]) -> None:
        if "config" in doc:
            self.table(doc["config"], "config")
        if "cards" in doc:
            self.tables(doc["cards"], "cards")
        if "rules" in doc and not isinstance(doc["rules"], list):
            raise self.fail("rules", "a list of rule numbers", doc["rules"])
        if "setup" in doc:
            self.setup(self.table(doc["setup"], "setup"))
        for i, step in enumerate(self.tables(doc.get("step", []), "step")):
            where = f"step {i + 1}"
            do = step.get("do", [])
            if not isinstance(do, str):
                self.texts(do, f"{where}: do")
            expect = self.table(step.get("expect", {}), f"{where}: expect")
            for key in ("legal", "illegal", "events", "no_events"):
                if key in expect:
                    self.texts(expect[key], f"{where}: expect.{key}")
            if "error" in expect:
                self.text(expect["error"], f"{where}: expect.error")
            if "view" in expect:
                for side, t in self.table(expect["view"], f"{where}: expect.view").items():
                    self.player(side, f"{where}: expect.view key")
                    self.table(t, f"{where}: expect.view.{side}")

    def setup(self, s: dict[str, Any]) -> None:
        known = [k for k in s if k in SETUP_FIELDS]
        for key in known:
            v, field = s[key], f"setup.{key}"
            if key == "turn":
                self.whole(v, field, 1)
            elif key == "seed":
                self.whole(v, field, None)
            elif key in ("phase", "step"):
                self.text(v, field)
            elif key in ("priority", "first_player"):
                self.player(v, field)
            elif key == "new_game":
                self.flag(v, field)
            elif key in ("A", "B"):
                self.side(self.table(v, field), field)
            elif key == "stack":
                for i, t in enumerate(self.tables(v, field)):
                    self.stack_item(t, f"{field}[{i}]")

    def side(self, t: dict[str, Any], field: str) -> None:
        for key in [k for k in t if k in SIDE_FIELDS]:
            v, f = t[key], f"{field}.{key}"
            if key == "host":
                if isinstance(v, dict):
                    self.entity(v, f)
                else:
                    self.text(v, f)
            elif key in ZONES:
                self.cards(v, f)
            elif key == "pool":
                for sym, n in self.table(v, f).items():
                    self.whole(n, f"{f}.{sym}")
            elif key == "ap":
                self.whole(v, f)
            elif key in ("front", "back"):
                for slot, e in self.table(v, f).items():
                    if not str(slot).isdigit():  # TOML keys are text; a document built in Python may use ints
                        raise self.fail(f"{f}.{slot}", "a slot number (0, 1, ...)", slot)
                    if isinstance(e, dict):
                        self.entity(e, f"{f}.{slot}")
                    else:
                        self.text(e, f"{f}.{slot}")

    def entity(self, t: dict[str, Any], field: str) -> None:
        for key in [k for k in t if k in ENTITY_FIELDS]:
            v, f = t[key], f"{field}.{key}"
            if key == "card":
                self.text(v, f)
            elif key == "damage":
                self.whole(v, f)
            elif key in ("sick", "attacked", "face_down"):
                self.flag(v, f)
            elif key == "markers":
                if not isinstance(v, list):
                    raise self.fail(f, "a list of card names", v)
                self.cards(v, f)
            elif key == "owner":
                self.player(v, f)
            elif key == "mods":
                for i, m in enumerate(self.tables(v, f)):
                    self.mod(m, f"{f}[{i}]")

    def mod(self, m: dict[str, Any], field: str) -> None:
        for key in [k for k in m if k in MOD_FIELDS]:
            if key == "duration":
                if m[key] not in ("permanent", "end_of_turn"):
                    raise self.fail(f"{field}.duration", '"permanent" or "end_of_turn"', m[key])
            else:
                self.whole(m[key], f"{field}.{key}", None)

    def stack_item(self, t: dict[str, Any], field: str) -> None:
        if "controller" in t:
            self.player(t["controller"], f"{field}.controller")
        if "targets" in t:
            self.texts(t["targets"], f"{field}.targets")


def check_shape(doc: dict[str, Any], source: str) -> None:
    """Raise ScenarioError naming the first field whose value has the wrong type or range."""
    _Check(source).doc(doc)
