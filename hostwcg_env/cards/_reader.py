"""Typed, problem-collecting access to one TOML table of a card file.

Every check appends a message naming the file, the card and the field instead of raising, so a
card file is refused with all of its problems at once (docs/cards.md).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

_TYPE_NAMES = {
    str: "string",
    int: "integer",
    float: "float",
    bool: "boolean",
    dict: "table",
    list: "array",
}


def type_name(value: Any) -> str:
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def unknown(what: str, value: object, known: Iterable[str]) -> str:
    """``unknown event 'attackz' (known: ...; did you mean 'attacks'?)``."""
    names = sorted(known)
    text = f"unknown {what} {value!r} (known: {', '.join(names) or 'none'}"
    if isinstance(value, str):
        close = difflib.get_close_matches(value, names, n=1)
        if close:
            text += f"; did you mean {close[0]!r}?"
    return text + ")"



NUMBER_MAX = 999  # the largest number a card file may hold, and -NUMBER_MAX the smallest (docs/cards.md)

class Scope:
    """Where problems go and what they are prefixed with (``file: card 'X'``)."""

    def __init__(self, sink: list[str], prefix: str) -> None:
        self.sink = sink
        self.prefix = prefix

    def err(self, field: str, message: str) -> None:
        where = f"{self.prefix}: field '{field}'" if field else self.prefix
        self.sink.append(f"{where}: {message}")


class Table:
    """One TOML table at ``path`` inside a card; every getter reports problems to ``scope``."""

    def __init__(self, scope: Scope, data: dict[str, Any], path: str = "") -> None:
        self.scope = scope
        self.data = data
        self.path = path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def err(self, key: str, message: str) -> None:
        self.scope.err(self.where(key), message)

    def has(self, key: str) -> bool:
        return key in self.data

    def allow(self, keys: Iterable[str]) -> None:
        allowed = set(keys)
        for key in self.data:
            if key not in allowed:
                self.err(key, unknown("field", key, allowed))

    def require(self, key: str, why: str = "") -> bool:
        if key in self.data:
            return True
        self.err(key, "missing" + (f" ({why})" if why else ""))
        return False

    def get_str(
        self, key: str, choices: Iterable[str] | None = None, what: str = "value"
    ) -> str | None:
        """The string at ``key`` (None if absent or wrong); checked against ``choices``."""
        if key not in self.data:
            return None
        value = self.data[key]
        if not isinstance(value, str):
            self.err(key, f"expected a string, got {type_name(value)} {value!r}")
            return None
        if choices is not None:
            known = set(choices)
            if value not in known:
                self.err(key, unknown(what, value, known))
                return None
        return value

    def get_int(self, key: str, minimum: int | None = None) -> int | None:
        """The integer at ``key`` (None if absent or wrong): every number of a card file is from
        ``-NUMBER_MAX`` to ``NUMBER_MAX`` (docs/cards.md "Numbers"), and at least ``minimum``."""
        if key not in self.data:
            return None
        value = self.data[key]
        if not isinstance(value, int) or isinstance(value, bool):
            self.err(key, f"expected an integer, got {type_name(value)} {value!r}")
            return None
        if minimum is not None and value < minimum:
            self.err(key, f"must be at least {minimum}, got {value}")
            return None
        if not -NUMBER_MAX <= value <= NUMBER_MAX:
            self.err(key, f"must be from {max(minimum, -NUMBER_MAX) if minimum is not None else -NUMBER_MAX} "
                          f"to {NUMBER_MAX}, got {value} (docs/cards.md \"Numbers\")")
            return None
        return value

    def get_bool(self, key: str) -> bool | None:
        if key not in self.data:
            return None
        value = self.data[key]
        if not isinstance(value, bool):
            self.err(key, f"expected true or false, got {type_name(value)} {value!r}")
            return None
        return value

    def get_strs(
        self, key: str, choices: Iterable[str] | None = None, what: str = "value"
    ) -> list[str]:
        """The strings at ``key`` (bad items are reported and dropped; duplicates refused)."""
        if key not in self.data:
            return []
        value = self.data[key]
        if not isinstance(value, list):
            self.err(key, f"expected an array of strings, got {type_name(value)} {value!r}")
            return []
        known = set(choices) if choices is not None else None
        out: list[str] = []
        for i, item in enumerate(value):
            where = f"{key}[{i}]"
            if not isinstance(item, str):
                self.err(where, f"expected a string, got {type_name(item)} {item!r}")
            elif known is not None and item not in known:
                self.err(where, unknown(what, item, known))
            elif item in out:
                self.err(where, f"duplicate {what} {item!r}")
            else:
                out.append(item)
        return out

    def get_table(self, key: str) -> Table | None:
        if key not in self.data:
            return None
        value = self.data[key]
        if not isinstance(value, dict):
            self.err(key, f"expected a table, got {type_name(value)} {value!r}")
            return None
        return Table(self.scope, value, self.where(key))

    def get_tables(self, key: str) -> list[Table]:
        """An array of tables (``[[card.abilities]]`` or ``steps = [ {...}, ... ]``)."""
        if key not in self.data:
            return []
        value = self.data[key]
        if not isinstance(value, list):
            self.err(key, f"expected an array of tables, got {type_name(value)} {value!r}")
            return []
        out: list[Table] = []
        for i, item in enumerate(value):
            if isinstance(item, dict):
                out.append(Table(self.scope, item, f"{self.where(key)}[{i}]"))
            else:
                self.scope.err(
                    f"{self.where(key)}[{i}]", f"expected a table, got {type_name(item)} {item!r}"
                )
        return out
