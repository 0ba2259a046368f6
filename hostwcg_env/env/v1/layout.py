"""The layout of a hostwcg_v1 observation: zones and their row budgets, the features of a card
row, the global features, the history columns and the action kinds.

Every array has a fixed shape for a table (slot counts come from the RuleConfig): the card
rows are cut into zones, each with a fixed budget of rows; a zone that holds more cards than
its budget keeps the most recent ones (or the top ones) and says how many it left out in the
globals. ``docs/observation_v1.md`` is generated from these tables
(``python scripts/gen_env_docs.py``) and checked current by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from hostwcg_env.engine import RuleConfig
from hostwcg_env.engine.actions import DecisionKind

from ..layout import ActionLayout, action_layout

# ----------------------------------------------------------------------------- zones
# (name, budget or None for a slot row, what the rows hold, which rows a longer zone keeps)
ZONE_SPECS: tuple[tuple[str, int | None, str], ...] = (
    ("my_host", 1, "my Host (its health, soul and the damage zone's size as damage)"),
    ("opp_host", 1, "the opponent's Host (unknown before the game begins, 4.6.1)"),
    ("my_hand", 10, "my hand, in hand-index order (`play hI`, `card hI`); beyond 10 cards the first 10"),
    ("my_front", None, "my frontrow, one row per slot (an empty slot is a row with card_id 0)"),
    ("my_back", None, "my backrow, one row per slot (my face-down cards shown, flagged face_down)"),
    ("opp_front", None, "the opponent's frontrow, one row per slot"),
    ("opp_back", None, "the opponent's backrow, one row per slot (a face-down card: card_id face-down)"),
    ("my_markers", 3, "markers (Equipment) on my cards: `slot` is the carrier's slot"),
    ("opp_markers", 3, "markers on the opponent's cards"),
    ("my_forms", 4, "my Form zone, in arrival order (`A.formI`); beyond 4 the first 4"),
    ("opp_forms", 4, "the opponent's Form zone"),
    ("stack", 6, "the stack, bottom first (`stackI`); beyond 6 items the bottom 6; a face-down item shows face-down"),
    ("pending", 4, "my pending triggers, in the order `trigger I` names them"),
    ("choice", 10, "the cards my search or look decision lists (`card dI`), in list order"),
    ("decision", 1, "the card my current decision is about (the card being played, activated or resolved)"),
    ("my_damage", 8, "my damage zone in order, top first (2.1.2): the top 8"),
    ("my_drop", 8, "my drop zone, most recent first: the 8 most recent"),
    ("opp_drop", 8, "the opponent's drop zone, most recent first"),
    ("my_banished", 3, "my banished zone, most recent first"),
    ("opp_banished", 3, "the opponent's banished zone, most recent first"),
    ("opp_known_hand", 5,
     "cards known to be in the opponent's hand (revealed, searched and shown), while that stays certain"),
    ("my_deck_top", 3, "the known top of my deck, top first (after a look, until a draw or shuffle changes it)"),
)
ZONE_NAMES = tuple(z[0] for z in ZONE_SPECS)
ZONE_ID = {name: i + 1 for i, name in enumerate(ZONE_NAMES)}  # 0: the row holds nothing
SLOT_ZONES = frozenset({"my_front", "my_back", "opp_front", "opp_back"})

# ----------------------------------------------------------------------------- card rows
CARD_TYPES = ("host", "entity", "sorcery", "form", "ambush", "token")
ITEM_KINDS = ("card", "ability", "trigger", "spell", "ambush", "during")
ROW_FEATURES: tuple[tuple[str, str], ...] = (
    *((f"type:{t}", f"the card is of type {t}") for t in CARD_TYPES),
    ("cost", "printed cost, symbols / 5"),
    ("printed_health", "printed health / 10"),
    ("printed_power", "printed power / 10"),
    ("mine", "1 if the viewer controls it (in play, on the stack) or owns it (other zones)"),
    ("owner_differs", "1 if its controller is not its owner (37.2)"),
    ("face_down", "1 if face down (the viewer's own face-down cards are shown and flagged)"),
    ("health", "current health / 10 (Entity, Host)"),
    ("power", "current power / 10"),
    ("soul", "current soul / 10 (Host)"),
    ("damage", "damage marked / 10 (Entity); the damage zone's size / 10 (Host)"),
    ("sick", "Creation Sickness (18.5.1)"),
    ("attacked", "attacked this turn"),
    ("token", "a token"),
    ("markers", "markers attached / 3"),
    ("fast", "has Fast now (printed or granted)"),
    ("first_strike", "has First Strike now"),
    ("cannot_block", "cannot block now"),
    ("slot", "slot index / 8 (rows of slots; a marker: its carrier's slot)"),
    ("order", "position in its zone / 10 (hand index, stack from the top, damage zone from the top, "
              "drop from the most recent, list item, trigger index)"),
    *((f"item:{k}", f"a stack item or pending trigger of kind {k}") for k in ITEM_KINDS),
    ("targets", "targets chosen by this stack item / 3"),
    ("targeted_by_me", "stack items of mine that target it / 3"),
    ("targeted_by_opp", "stack items of the opponent that target it / 3"),
    ("attacking", "the attacker of the battle under way"),
    ("attack_target", "the Entity blocking or the Host attacked in the battle under way"),
    ("used_this_turn", "an ability of it usable once per turn was used this turn"),
    ("carrier_back", "a marker whose carrier is in the backrow"),
    ("known_to_opp", "a card of my hand the opponent knows is there (it was revealed)"),
)
ROW_NAMES = tuple(f[0] for f in ROW_FEATURES)
COL = {name: i for i, name in enumerate(ROW_NAMES)}
C = len(ROW_FEATURES)
LIMIT = 10.0  # every float lies in [-LIMIT, LIMIT]

# ----------------------------------------------------------------------------- globals
PHASES = ("setup", "pregame", "start", "action1", "battle", "action2", "end")
STEPS = ("declare", "attack", "block", "early_damage", "normal_damage", "after", "main", "discard", "expire")
DECISIONS = tuple(k.value for k in DecisionKind)
RES = ("&", "£", "!", "%", "$")
SIDE_FIELDS = ("ap", *(f"pool:{r}" for r in RES), "host_health", "host_soul", "damage_zone",
               "health_left", "hand", "deck", "drop", "banished", "forms", "markers")
OVERFLOW_ZONES = ("my_hand", "my_forms", "opp_forms", "stack", "pending", "choice", "my_damage",
                  "my_drop", "opp_drop", "my_banished", "opp_banished", "my_markers", "opp_markers")
GLOBAL_FEATURES: tuple[tuple[str, str], ...] = (
    ("turn", "turn / turn limit"),
    *((f"phase:{p}", f"the phase is {p}") for p in PHASES),
    *((f"step:{s}", f"the step is {s}") for s in STEPS),
    ("my_turn", "it is my turn"),
    ("went_first", "I took the first turn"),
    ("started", "the game has begun (Hosts flipped, 9.1.8)"),
    ("deciding", "I decide now"),
    ("opp_deciding", "the opponent decides now"),
    *((f"decision:{d}", f"my decision is {d}") for d in DECISIONS),
    ("stack", "stack size / 6"),
    ("pending", "my pending triggers / 4"),
    ("battle", "a battle is under way"),
    ("battle_mine", "I attack"),
    ("battle_host", "the attack is at a Host"),
    ("battle_blocked", "the attack is at an Entity (blocked)"),
    *((f"me:{f}", f"mine: {f}") for f in SIDE_FIELDS),
    *((f"opp:{f}", f"the opponent's: {f}") for f in SIDE_FIELDS),
    ("opp_known_hand", "cards of the opponent's hand known / 10"),
    ("opp_unknown_hand", "cards of the opponent's hand not known / 10"),
    ("my_deck_top", "known cards on top of my deck / 3"),
    ("choice", "cards my search or look decision lists / 10"),
    *((f"left_out:{z}", f"cards of {z} beyond its rows / 10") for z in OVERFLOW_ZONES),
)
GLOBAL_NAMES = tuple(g[0] for g in GLOBAL_FEATURES)
GCOL = {name: i for i, name in enumerate(GLOBAL_NAMES)}
G = len(GLOBAL_FEATURES)
# what each side field is divided by
SIDE_DIV = {"ap": 4, "host_health": 10, "host_soul": 10, "damage_zone": 10, "health_left": 10,
            "hand": 10, "deck": 50, "drop": 50, "banished": 10, "forms": 6, "markers": 3,
            **{f"pool:{r}": 5 for r in RES}}

# ----------------------------------------------------------------------------- history
HISTORY_LEN = 24  # the last K public events of interest, most recent first
HISTORY_KINDS: tuple[tuple[str, str, str], ...] = (
    # (name, the event, card / target / amount)
    ("turn", "TurnBegan", "actor: whose turn; amount: the turn number (clipped)"),
    ("play", "WouldPlay", "card played (face-down: the face-down id)"),
    ("activate", "Activated", "card whose ability was activated"),
    ("trigger", "TriggerPlaced", "card whose trigger was put on the stack"),
    ("attack", "Attacks", "attacker; target: the blocker or the Host attacked"),
    ("ap_draw", "APSpent draw", "-"),
    ("ap_host", "APSpent host", "-"),
    ("ap_any", "APSpent any", "amount: the resource gained (1 & 2 £ 3 ! 4 %)"),
    ("discard", "Discard", "card discarded"),
    ("damage_card", "DamageCard", "card put in the damage zone (mine; the opponent's unknown)"),
    ("host_damaged", "HostDamaged", "actor: whose Host; amount"),
    ("host_healed", "HostHealed", "actor: whose Host; amount"),
    ("destroyed", "Destroyed", "actor: the victim's side; card: the victim; target: the source"),
    ("sent_to_drop", "SentToDrop", "actor: its side; card: the Entity at 0 health"),
    ("damage_dealt", "DamageDealt", "card: the source; target: the Entity damaged; amount"),
    ("equipped", "Equipped", "card: the Equipment; target: the card equipped"),
    ("reveal", "Reveal", "actor: whose hand; card: the card shown (a search), amount: cards shown"),
    ("search", "Search", "actor: who searches its deck"),
    ("look", "Look", "actor: who looks at its deck's top; amount: how many"),
    ("shuffle", "Shuffle", "actor: whose deck"),
    ("mulligan", "Mulligan", "amount: cards put back"),
    ("fizzled", "Fizzled", "card: the item that did not resolve"),
    ("control", "ControlChanged", "actor: who gains control; card: the Entity"),
)
HISTORY_KIND_ID = {k[0]: i + 1 for i, k in enumerate(HISTORY_KINDS)}  # 0: an empty entry
HISTORY_COLUMNS: tuple[tuple[str, str], ...] = (
    ("kind", "the event kind (0: no entry), see the table"),
    ("actor", "0 me, 1 the opponent, 2 no one / not known"),
    ("card", "card_id of the event's card (0 none)"),
    ("target", "card_id of its target (0 none)"),
    ("target_owner", "0 mine, 1 the opponent's, 2 none / not known"),
    ("amount", "a number the event carries, clipped to 0..15"),
    ("turns_ago", "how many turns ago, clipped to 0..15"),
    ("phase", "the phase it happened in (index into the phases, 1-based; 0 none)"),
)
H = len(HISTORY_COLUMNS)

# ----------------------------------------------------------------------------- actions
ACTION_KINDS = ("pass", "yes", "ap_host", "ap_draw", "ap_any", "play", "activate", "attack",
                "slot", "target", "pay", "card_hand", "card_list", "trigger")
ACTION_KIND_ID = {k: i for i, k in enumerate(ACTION_KINDS)}
ACTION_ARRAYS: tuple[tuple[str, str], ...] = (
    ("action_mask", "1 where the index is legal now (all zeros when the viewer does not decide)"),
    ("action_kind", "the kind of each index (the table below; the same in every state)"),
    ("action_arg", "the index within its kind: resource (ap_any, pay: 0 & 1 £ 2 ! 3 % 4 $ 5 auto), slot, "
                   "ability, hand or list index (the same in every state)"),
    ("action_card", "card_id of the card the action plays, uses, chooses or targets (0 none); legal indices only"),
    ("action_source_row", "row of `cards` the action acts with: the card played, activated, attacking, "
                          "chosen from hand or list, the trigger; for a target, slot, payment or yes: the "
                          "`decision` row; -1 none"),
    ("action_target_row",
     "row of `cards` the action points at: the target (a card or a slot's row), the slot chosen; -1 none"),
)


@dataclass(frozen=True)
class Zone:
    name: str
    zid: int
    start: int
    rows: int
    meaning: str

    @property
    def stop(self) -> int:
        return self.start + self.rows


@dataclass(frozen=True)
class ObsLayout:
    """Row ranges of the zones and the array sizes for one table."""

    config: RuleConfig
    zones: tuple[Zone, ...]
    actions: ActionLayout

    @property
    def rows(self) -> int:
        return self.zones[-1].stop

    @cached_property
    def zone(self) -> dict[str, Zone]:
        return {z.name: z for z in self.zones}

    @property
    def n_actions(self) -> int:
        return self.actions.n

    def sizes(self) -> dict[str, tuple[tuple[int, ...], str]]:
        """Shape and dtype of every array of the observation."""
        R, N = self.rows, self.n_actions
        return {
            "cards": ((R, C), "float32"),
            "card_id": ((R,), "int32"),
            "card_zone": ((R,), "int32"),
            "globals": ((G,), "float32"),
            "history": ((HISTORY_LEN, H), "int32"),
            "action_mask": ((N,), "int8"),
            "action_kind": ((N,), "int32"),
            "action_arg": ((N,), "int32"),
            "action_card": ((N,), "int32"),
            "action_source_row": ((N,), "int32"),
            "action_target_row": ((N,), "int32"),
        }

    def counts(self) -> tuple[int, int]:
        """(floats, integers) in one observation."""
        floats = ints = 0
        for shape, dtype in self.sizes().values():
            n = 1
            for d in shape:
                n *= d
            if dtype.startswith("float"):
                floats += n
            else:
                ints += n
        return floats, ints


def obs_layout(config: RuleConfig | None = None) -> ObsLayout:
    """The v1 layout for a table: slot rows follow the slot counts of ``config``."""
    c = config or RuleConfig()
    zones = []
    start = 0
    for name, budget, meaning in ZONE_SPECS:
        if budget is None:
            rows = c.frontrow_slots if name.endswith("front") else c.backrow_slots
        else:
            rows = budget
        zones.append(Zone(name, ZONE_ID[name], start, rows, meaning))
        start += rows
    return ObsLayout(c, tuple(zones), action_layout(c))
