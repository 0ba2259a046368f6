"""One lookup for every name a user types: a card (``hostwcg cards show``, ``show CARD`` in
``hostwcg play``), a deck (``hostwcg deck check``, ``--decks``) and an agent's name
(``agents.registry``) are found the same way (docs/cards.md, "Naming a card or a deck").

``lookup(text, names)`` tries, in order:

1. the name itself;
2. the name in any case, punctuation and ``_``/``-`` aside (``grace, aligner of stars``);
3. the one name that starts with the text (``grace``), else the one name with a word that
   starts with it (``xin`` finds ``Xin, Master of Pain``, ``aligner`` finds Grace);

and otherwise answers with the names it could be (more than one fits) or the closest names
(none fits): the "did you mean" of every refusal.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["Match", "lookup", "name_key"]


def name_key(text: str) -> str:
    """``"Grace, Aligner of Stars"`` -> ``"grace aligner of stars"``: lower case, words only."""
    return " ".join(re.findall(r"[^\W_]+", text.casefold()))


@dataclass(frozen=True)
class Match:
    """The name found (``name``), or the names it could be (``ambiguous``) or the closest ones."""

    text: str
    name: str | None = None
    near: list[str] = field(default_factory=list)
    ambiguous: bool = False
    fits: int = 0  # how many names fit an ambiguous text (``near`` holds the first of them)

    def problem(self, what: str = "card") -> str:
        """One line: why nothing was found, with the names to try."""
        if self.ambiguous:
            more = f", ... ({self.fits} in all)" if self.fits > len(self.near) else ""
            return f"{self.text!r} could be more than one {what}: {', '.join(self.near)}{more}"
        hint = f"; did you mean {', '.join(repr(n) for n in self.near)}?" if self.near else ""
        return f"no {what} named {self.text!r}{hint}"


def lookup(text: str, names: Iterable[str], limit: int = 5, means: Mapping[str, str] | None = None) -> Match:
    """The name ``text`` stands for among ``names`` (see the module docstring). ``means`` maps a
    name to the one it is another name of (a deck's short name to its id): the match is that
    one, and two names of one thing are not ambiguous."""
    names = list(dict.fromkeys(names))
    if means is not None:
        m = lookup(text, names, limit)
        one = list(dict.fromkeys(means.get(n, n) for n in m.near))
        if m.name is not None or (m.ambiguous and len(one) == 1):
            return Match(text, means.get(m.name or m.near[0], m.name or m.near[0]))
        return Match(text, near=one[:limit], ambiguous=m.ambiguous, fits=len(one))
    if text in names:
        return Match(text, text)
    key = name_key(text)
    keys = {n: name_key(n) for n in names}
    exact = [n for n in names if keys[n] == key]
    if len(exact) == 1 or (exact and key):
        return Match(text, exact[0]) if len(exact) == 1 else Match(text, near=exact[:limit], ambiguous=True,
                                                                   fits=len(exact))
    if not key:
        return Match(text)
    for fits in ([n for n in names if keys[n].startswith(key)],
                 [n for n in names if f" {keys[n]}".find(f" {key}") >= 0]):
        if len(fits) == 1:
            return Match(text, fits[0])
        if fits:
            return Match(text, near=fits[:limit], ambiguous=True, fits=len(fits))
    by_key = {k: n for n, k in keys.items()}
    close = difflib.get_close_matches(key, list(by_key), n=limit, cutoff=0.6)
    return Match(text, near=[by_key[c] for c in close])
