"""The typed event log (docs/scenarios.md "Event texts"): every state change, in order.

Each event has a full text (the replay) and, where it names a card only one player may see,
``private`` = that player and ``public`` = the text everyone else sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final


@dataclass(init=False)
class Event:
    """One state change: its kind, its text, its data (ids and values triggers read), and for
    a private event the one player who sees ``text`` (the others see ``public``)."""

    kind: str
    text: str
    data: dict[str, Any]
    private: int | None
    public: str

    def __init__(self, kind: str, text: str, data: dict[str, Any] | None = None,
                 private: int | None = None, public: str = "") -> None:
        self.kind = kind
        self.text = text
        self.data = {} if data is None else data
        self.private = private
        self.public = public

    def text_for(self, player: int | None) -> str:
        if self.private is None or player == self.private:
            return self.text
        return self.public

    def __str__(self) -> str:
        return self.text


# engine event kind -> trigger event name (docs/cards.md "Triggers")
TRIGGER_NAMES: Final = {
    "GameStarted": "start_of_game",
    "WouldPlay": "would_play",
    "WouldCreate": "would_create",
    "WouldCast": "would_cast",
    "WouldEmbody": "would_embody",
    "WouldLay": "would_lay",
    "Played": "played",
    "Created": "created",
    "Cast": "cast",
    "Embodied": "embodied",
    "Laid": "laid",
    "EntersSlot": "enters_slot",
    "LeavesPlay": "leaves_play",
    "MovesSlot": "moves_slot",
    "Attacks": "attacks",
    "Blocks": "blocks",
    "Destroyed": "destroyed",
    "Destroys": "destroys",
    "LosesSickness": "loses_sickness",
    "Draw": "draws",
    "Discard": "discards",
    "GainResource": "gains_resource",
    "HostDamaged": "host_damaged",
    "HostHealed": "host_healed",
}
