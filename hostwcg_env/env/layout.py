"""The flattened action space and the observation layout: fixed, named blocks.

Each block of action indices has one meaning whatever the state (docs/action_space.md).
Places are ego-centric: the deciding player's own side first, then the opponent's.
``docs/action_space.md`` and ``docs/observation.md`` are generated from these tables
(``python scripts/gen_env_docs.py``) and checked current by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from hostwcg_env.cards.decks import DECK_SIZE
from hostwcg_env.engine import RuleConfig

MAX_HAND = 30  # hand indices the default layout names (there is no maximum hand size, A20)
MAX_FORMS = 6  # forms per player the layout can name
MAX_ABILITIES = 4  # abilities per card that can be activated
MAX_STACK = 12  # stack items that can be targeted (Redirect) or observed
MAX_LIST = 50  # cards of a searched / looked-at list (a whole deck)
MAX_TRIGGERS = 24  # pending triggers to order (the fuzz met 13 at once with the shipped decks)
OBS_PENDING = 12  # pending triggers described in the observation (the first ones, in order)
TYPES = ("&", "£", "!", "%")
PAY_SYMBOLS = ("&", "£", "!", "%", "$", "auto")


@dataclass(frozen=True)
class Block:
    name: str
    start: int
    size: int
    meaning: str
    index_meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.size


@dataclass(frozen=True)
class ActionLayout:
    """Index blocks for one table size (slot counts come from the RuleConfig)."""

    front: int
    back: int
    blocks: tuple[Block, ...]
    hand: int = MAX_HAND  # hand indices the `play` and `card` blocks name (``hand_slots``)

    @property
    def n(self) -> int:
        return self.blocks[-1].stop

    def block(self, name: str) -> Block:
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(name)

    @cached_property
    def starts(self) -> dict[str, int]:
        """First index of each block by name (the codec's hot path)."""
        return {b.name: b.start for b in self.blocks}

    @property
    def own_places(self) -> int:
        return self.front + self.back + MAX_FORMS

    @property
    def side_places(self) -> int:
        return 1 + self.front + self.back + MAX_FORMS


def hand_slots(config: RuleConfig) -> int:
    """Hand indices the action layout names and the observation shows: ``MAX_HAND`` (30) for
    a starting hand of up to 5 cards (9.1.6; the default layout), and for a larger starting
    hand as many more as it has cards, up to a whole deck (a hand holds only its owner's
    cards, at most ``DECK_SIZE``, 3.1.1). The second player's extra opening and turn-2 cards
    of the first-turn house rules (docs/rulings.md A56) count as a larger starting hand."""
    opening = config.starting_hand + config.second_player_extra_cards + config.second_turn_draw
    extra = max(0, opening - RuleConfig().starting_hand)
    return max(MAX_HAND, min(DECK_SIZE, MAX_HAND + extra))


def action_layout(config: RuleConfig | None = None) -> ActionLayout:
    """The action blocks for a table: slot counts and hand size follow ``config``."""
    c = config or RuleConfig()
    f, b = c.frontrow_slots, c.backrow_slots
    hand = hand_slots(c)
    side = 1 + f + b + MAX_FORMS
    spec = [
        ("pass", 1, "pass priority / next phase / decline / done", "-"),
        ("yes", 1, "yes (an optional effect; go first after winning the roll)", "-"),
        ("ap_host", 1, "spend 1 # to gain your Host's resource type (11.3.1)", "-"),
        ("ap_draw", 1, "spend 1 # to draw a card (11.3.2)", "-"),
        ("ap_any", 4, "spend 2 # to gain a resource of a type (11.3.3)", "type & £ ! %"),
        ("play", hand, "play the card at hand index i (14)", "hand index"),
        ("activate", (f + b + MAX_FORMS) * MAX_ABILITIES,
         "activate ability k of your object j (27, 17.2, 39.2)",
         f"j * {MAX_ABILITIES} + k; j = own frontrow 0..{f - 1}, backrow {f}..{f + b - 1}, "
         f"forms {f + b}..{f + b + MAX_FORMS - 1}"),
        ("attack", f, "declare the Entity in your frontrow slot k as attacker (25.2)", "frontrow slot"),
        ("slot", f + b, "choose slot s for a resolving card (14.7)", f"frontrow 0..{f - 1}, backrow {f}..{f + b - 1}"),
        ("target", 2 * side + MAX_STACK, "choose target t, or what to attack (30, 25.3)",
         f"own side 0..{side - 1} (Host, frontrow, backrow, forms), opponent's side {side}..{2 * side - 1}, "
         f"stack items {2 * side}.. (bottom first)"),
        ("pay", len(PAY_SYMBOLS), "pay the next generic $ with a resource type (12.5.1)", "& £ ! % $ auto"),
        ("card", hand + MAX_LIST,
         "choose a card: hand index i (damage, discard, mulligan), or item i of a searched/looked-at list",
         f"hand 0..{hand - 1}, list {hand}..{hand + MAX_LIST - 1}"),
        ("trigger", MAX_TRIGGERS, "put your pending trigger i on the stack next (33.2)", "pending trigger index"),
    ]
    blocks = []
    start = 0
    for name, size, meaning, idx in spec:
        blocks.append(Block(name, start, size, meaning, idx))
        start += size
    return ActionLayout(f, b, tuple(blocks), hand)
