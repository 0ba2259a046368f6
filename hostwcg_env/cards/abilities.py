"""Abilities, steps, selectors and triggers of a card table (docs/cards.md), checked and converted.

Each parser takes a :class:`Table` and returns the frozen value from ``engine.carddef``, or None
after reporting what was wrong; the caller drops the card if anything was reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hostwcg_env.cards._reader import Scope, Table, type_name, unknown
from hostwcg_env.engine.carddef import (
    COND_STATS,
    COND_ZONES,
    EVENTS,
    KEYWORDS,
    PHASES,
    RES_LETTERS,
    RES_NAMES,
    SELECTOR_TYPES,
    STATE_CONDITIONS,
    TYPED,
    Ability,
    CardType,
    Cond,
    CondKind,
    Ref,
    Res,
    Selector,
    Step,
    Trigger,
    parse_cost,
)
from hostwcg_env.engine.kinds import (
    AbilityKind,
    Condition,
    Controller,
    Duration,
    Link,
    Phase,
    SelectorType,
    Who,
    Zone,
)
from hostwcg_env.engine.primitives import PRIMITIVE_CLASSES, PRIMITIVES, StepFields, StepSite

CONTROLLERS = ("you", "opponent", "any")
PLAYERS = ("you", "opponent", "each")
TRIGGER_PLAYERS = ("you", "opponent", "any")
DURATIONS = ("permanent", "end_of_turn")
LINKS = ("then", "and")
SEARCH_CARD_TYPES = ("entity", "sorcery", "form", "ambush")
GRANTABLE = ("fast", "first_strike", "cannot_block")
HOST_WORDS = ("your_host", "opponent_host", "each_host")
REF_WORDS = ("self", "event.subject", *HOST_WORDS)
AFFECTS_WORDS = ("self", "equipped", *HOST_WORDS)

SELECTOR_FIELDS = (
    "type",
    "controller",
    "subtype",
    "other",
    "power_max",
    "power_min",
    "health_max",
    "health_min",
    "card_type",
    "keyword",
    "zone",
)
TARGET_FIELDS = (*SELECTOR_FIELDS, "count", "up_to")
STAT_FILTERS = ("power_max", "power_min", "health_max", "health_min")
TARGET_TYPES = ("entity", "host", "permanent", "entity_or_host", "effect")
IN_PLAY_TYPES = ("entity", "host", "permanent", "entity_or_host")
SUBJECT_TYPES = ("entity", "host", "permanent", "entity_or_host", "card")
CHOOSE_TYPES = (*IN_PLAY_TYPES, "card")  # what `to = { all/choose = ... }` and `count` may name
SELECTOR_ZONES = ("drop", "banished")  # a card selector's zone: open zones (4.2.1, 4.9.1)
SELECTOR_KEYWORDS = tuple(sorted(KEYWORDS))
COND_KINDS = ("count", "stat", "keyword", "zone", "previous")
COND_STAT_WORDS = tuple(COND_STATS)
COND_ZONE_WORDS = tuple(z.value for z in COND_ZONES)
PREVIOUS_WORDS = ("happened", "failed")
COND_FIELDS = (*COND_KINDS, "of", "who", "min", "max")

# Events whose table in docs/cards.md has no subject / no player.
NO_SUBJECT_EVENTS = frozenset(
    {
        "start_of_game",
        "start_of_turn",
        "end_of_turn",
        "start_of_phase",
        "gains_resource",
        "host_damaged",
        "host_healed",
    }
)
NO_PLAYER_EVENTS = frozenset({"start_of_game"})

KIND_FIELDS: dict[str, tuple[str, ...]] = {
    "spell": ("kind", "text", "targets", "steps"),
    "static": (
        "kind",
        "text",
        "affects",
        "health",
        "power",
        "soul",
        "set_health",
        "set_power",
        "set_soul",
        "grants",
    ),
    "triggered": ("kind", "text", "when", "targets", "optional", "steps"),
    "activated": ("kind", "text", "cost", "once_per_turn", "fast", "targets", "steps"),
    "ambush": ("kind", "text", "when", "while", "targets", "steps"),
    "during": ("kind", "text", "phase", "targets", "steps"),
}

# What each primitive takes from a card file (its fields, the required ones, what its `to` may
# name, and its own checks) is declared on its class in hostwcg_env/engine/primitives.py.


@dataclass
class CardContext:
    """What the ability parsers need to know about the card they belong to."""

    type: str  # a CardType value
    lingering: bool
    equipment: bool
    token_refs: list[tuple[Scope, str, str]] = field(default_factory=list)  # scope, field, name

    @property
    def self_type(self) -> str:
        return {"entity": "entity", "token": "entity", "host": "host"}.get(self.type, "permanent")


# --------------------------------------------------------------------------- selectors


def parse_selector(
    scope: Scope, value: Any, path: str, types: tuple[str, ...], role: str, targeting: bool = False,
    zoned: bool = False,
) -> Selector | None:
    """A selector table or a type word (``"entity"`` = ``{ type = "entity" }``). ``zoned``: a
    card selector here names cards in a drop or banished zone and must say which (``zone``);
    elsewhere a selector has no zone."""
    if isinstance(value, str):
        if not _selector_type(scope, path, value, types, role):
            return None
        if zoned and value == "card":
            scope.err(path, 'a card selector here needs a zone: { type = "card", zone = "drop" } '
                      '(or "banished")')
            return None
        return Selector(type=SelectorType(value))
    if not isinstance(value, dict):
        scope.err(
            path, f"expected a selector (a type word or a table), got {type_name(value)} {value!r}"
        )
        return None
    t = Table(scope, value, path)
    t.allow(TARGET_FIELDS if targeting else SELECTOR_FIELDS)
    if not t.require("type", f"one of {', '.join(types)}"):
        return None
    kind = t.get_str("type")
    if kind is None or not _selector_type(scope, t.where("type"), kind, types, role):
        return None
    before = len(scope.sink)
    card_type = t.get_str("card_type", SEARCH_CARD_TYPES, "card type")
    sel = Selector(
        type=SelectorType(kind),
        controller=Controller(t.get_str("controller", CONTROLLERS, "controller") or "any"),
        subtype=t.get_str("subtype"),
        other=bool(t.get_bool("other")),
        power_max=t.get_int("power_max"),
        power_min=t.get_int("power_min"),
        health_max=t.get_int("health_max"),
        health_min=t.get_int("health_min"),
        card_type=None if card_type is None else CardType(card_type),
        count=t.get_int("count", minimum=1) or 1,
        up_to=bool(t.get_bool("up_to")),
        keyword=t.get_str("keyword", SELECTOR_KEYWORDS, "keyword"),
        zone=_selector_zone(t, kind, role, zoned),
    )
    if sel.card_type is not None and kind != "card":
        t.err("card_type", 'only a selector of type = "card" has a card_type')
    if kind == "card" and not zoned and (sel.keyword is not None or any(
            t.has(k) for k in STAT_FILTERS)):
        bad = "keyword" if sel.keyword is not None else next(k for k in STAT_FILTERS if t.has(k))
        t.err(bad, "a card in a hand or deck has no current stats or keywords here: only a "
              "selector with a zone (drop, banished) filters on them")
    if sel.subtype is not None and (not sel.subtype or " " in sel.subtype.strip()):
        t.err("subtype", f"a subtype is one word, got {sel.subtype!r}")
    for stat, low, high in (("power", sel.power_min, sel.power_max), ("health", sel.health_min, sel.health_max)):
        if low is not None and high is not None and low > high:
            t.err(f"{stat}_min", f"{stat}_min {low} is above {stat}_max {high}: nothing can match")
    return sel if len(scope.sink) == before else None


def _selector_zone(t: Table, kind: str, role: str, zoned: bool) -> Zone | None:
    """A card selector's ``zone``: required where ``zoned``, refused elsewhere. Only the open
    drop and banished zones (4.2.1, 4.9.1): a selector never looks into a hand or deck."""
    if not t.has("zone"):
        if zoned and kind == "card":
            t.require("zone", 'a card selector here needs zone = "drop" or "banished"')
        return None
    word = t.get_str("zone", SELECTOR_ZONES, "selector zone")
    if word is None:
        return None
    if kind != "card":
        t.err("zone", 'only a selector of type = "card" has a zone')
        return None
    if not zoned:
        t.err("zone", f"a selector {role} has no zone: cards in a drop or banished zone are named "
              "by to = { choose = ... } or { all = ... } (chosen on resolution, 30.2) or by a "
              "count condition, never targeted (30.1)")
        return None
    return Zone(word)


def _selector_type(scope: Scope, path: str, kind: str, types: tuple[str, ...], role: str) -> bool:
    if kind not in SELECTOR_TYPES:
        scope.err(path, unknown("selector type", kind, SELECTOR_TYPES))
        return False
    if kind not in types:
        scope.err(
            path, f"selector type {kind!r} cannot be used {role} (allowed: {', '.join(types)})"
        )
        return False
    return True


def parse_targets(t: Table) -> tuple[dict[str, Selector], set[str]]:
    """``targets = { name = selector, ... }`` in TOML order, and every well-named target."""
    table = t.get_table("targets")
    out: dict[str, Selector] = {}
    declared: set[str] = set()
    if table is None:
        return out, declared
    for name, value in table.data.items():
        if name in REF_WORDS or name in AFFECTS_WORDS or not name.isidentifier():
            table.err(
                name,
                f"bad target name {name!r}: use a plain word that is not one of "
                f"{', '.join(AFFECTS_WORDS)}",
            )
            continue
        declared.add(name)
        if isinstance(value, dict) and "zone" in value:
            table.err(name, "a card in a drop or banished zone is never a target: targets are in "
                      "play or on the stack (30.1); name it in a step with to = { choose = ... } "
                      "(chosen on resolution, 30.2)")
            continue
        sel = parse_selector(
            t.scope, value, table.where(name), TARGET_TYPES, "as a target", targeting=True
        )
        if sel is not None:
            out[name] = sel
    if not table.data:
        t.err("targets", "empty table: leave targets out instead")
    return out, declared


# --------------------------------------------------------------------------- steps


@dataclass
class StepEnv:
    """The ability a step belongs to: its targets and what its references may name."""

    card: CardContext
    kind: str
    targets: dict[str, Selector]
    declared: set[str]  # every declared target name, even one whose selector was bad
    has_event: bool
    used: set[str] = field(default_factory=set)


def parse_steps(t: Table, env: StepEnv, required: bool) -> tuple[Step, ...]:
    if required and not t.require(
        "steps", 'a list of primitives, e.g. [ { do = "draw", amount = 1 } ]'
    ):
        return ()
    tables = t.get_tables("steps")
    if required and t.has("steps") and isinstance(t.data["steps"], list) and not t.data["steps"]:
        t.err("steps", "empty: this ability needs at least one step")
    steps = [parse_step(st, i, env) for i, st in enumerate(tables)]
    return tuple(s for s in steps if s is not None)


def parse_step(t: Table, index: int, env: StepEnv) -> Step | None:
    """One step: the primitive named by ``do`` (its class in engine/primitives.py says which
    fields it takes, which are required, what its ``to`` may name, and its own checks)."""
    before = len(t.scope.sink)
    if not t.require("do", 'the primitive, e.g. do = "damage"'):
        return None
    do = t.get_str("do", PRIMITIVES, "primitive")
    if do is None:
        return None
    cls = PRIMITIVE_CLASSES[do]
    spec = cls.spec()
    t.allow(("do", "link", "if", *spec.fields))
    required = spec.required_fields()
    for key in required:
        t.require(key, f"{do} needs {', '.join(required)}")
    link = t.get_str("link", LINKS, "link") or "then"
    if index == 0 and link == "and":
        t.err("link", "the first step has no previous step to link to")
    amount = t.get_int(spec.amount_key, minimum=1)
    ref_type: str | None = None
    ref = None
    if t.has("to"):
        ref, ref_type = parse_ref(t, env)
        _check_acts_on(t, do, spec.acts_on, ref_type)
    stats = {k: t.get_int(k, minimum=spec.stat_minimum) for k in ("health", "power", "soul")}
    zsel = None if ref is None else ref.choose or ref.all
    site = StepSite(index, env.kind, env.card.equipment, frozenset(env.declared), ref, ref_type, stats,
                    ref_zone=None if zsel is None else zsel.zone,
                    ref_card_type=None if zsel is None or zsel.card_type is None else zsel.card_type.value)
    cond = parse_conditions(t, index, env) if t.has("if") else ()
    for key, message in cls.check(site):
        t.err(key, message)
    fields = StepFields(
        link=Link(link),
        to=ref,
        amount=1 if amount is None else amount,
        who=Who(t.get_str("who", PLAYERS, "player") or "you"),
        resource=_parse_resource(t) if t.has("resource") else None,
        health=stats["health"],
        power=stats["power"],
        soul=stats["soul"],
        duration=Duration(t.get_str("duration", DURATIONS, "duration") or "permanent"),
        keyword=t.get_str("keyword", GRANTABLE, "grantable keyword"),
        token=t.get_str("token"),
        filter=_parse_filter(t),
        reveal=True if t.get_bool("reveal") is None else bool(t.get_bool("reveal")),
        cond=cond,
    )
    if fields.token is not None:
        env.card.token_refs.append((t.scope, t.where("token"), fields.token))
    step = cls.build(fields)
    return step if len(t.scope.sink) == before else None


def parse_ref(t: Table, env: StepEnv) -> tuple[Ref | None, str | None]:
    """``to``: a target name, a reference word, ``{ all = sel }`` or ``{ choose = sel }``.

    Returns the Ref and the selector type it names (None where unknown, e.g. event.subject).
    """
    value = t.data["to"]
    where = t.where("to")
    if isinstance(value, str):
        if value in env.declared:
            env.used.add(value)
            sel = env.targets.get(value)
            return Ref(name=value), sel.type if sel else None
        if value == "event.subject" and not env.has_event:
            t.err(
                "to",
                "'event.subject' needs an event: only triggered and event ambush abilities have one",
            )
            return None, None
        if value in REF_WORDS:
            kind = (
                "host" if value in HOST_WORDS else env.card.self_type if value == "self" else None
            )
            return Ref(name=value), kind
        declared = ", ".join(sorted(env.declared)) or "none"
        t.err(
            "to",
            f"unknown reference {value!r}: not a declared target (declared: {declared}) "
            f"nor one of {', '.join(REF_WORDS)}",
        )
        return None, None
    if not isinstance(value, dict):
        t.err(
            "to",
            f"expected a target name, a reference word or {{ all = ... }} / {{ choose = ... }}, "
            f"got {type_name(value)} {value!r}",
        )
        return None, None
    keys = list(value)
    if len(keys) != 1 or keys[0] not in ("all", "choose"):
        t.err(
            "to",
            f"a table reference has exactly one key, all or choose (got {', '.join(keys) or 'none'})",
        )
        return None, None
    sel = parse_selector(
        t.scope, value[keys[0]], f"{where}.{keys[0]}", CHOOSE_TYPES, f"with {keys[0]}", zoned=True
    )
    if sel is None:
        return None, None
    ref = Ref(all=sel) if keys[0] == "all" else Ref(choose=sel)
    return ref, sel.type


# --------------------------------------------------------------------------- conditions


def parse_conditions(t: Table, index: int, env: StepEnv) -> tuple[Cond, ...]:
    """``if = { ... }`` or ``if = [ { ... }, ... ]`` (all must hold): a conditional step,
    checked when it is reached (A54; docs/cards.md "Conditions")."""
    value = t.data["if"]
    if isinstance(value, dict):
        tables = [Table(t.scope, value, t.where("if"))]
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        tables = t.get_tables("if")
    else:
        t.err("if", "expected a condition table, e.g. if = { zone = \"hand\", max = 0 }, or a "
              f"non-empty list of them, got {type_name(value)} {value!r}")
        return ()
    out = [parse_condition(c, index, env) for c in tables]
    return tuple(c for c in out if c is not None)


def parse_condition(t: Table, index: int, env: StepEnv) -> Cond | None:
    before = len(t.scope.sink)
    t.allow(COND_FIELDS)
    kinds = [k for k in COND_KINDS if t.has(k)]
    if len(kinds) != 1:
        t.err(kinds[1] if len(kinds) > 1 else "count",
              f"a condition has exactly one of {', '.join(COND_KINDS)} (got {', '.join(kinds) or 'none'})")
        return None
    kind = CondKind(kinds[0])
    least = t.get_int("min", minimum=0)
    most = t.get_int("max", minimum=0)
    if least is not None and most is not None and least > most:
        t.err("min", f"min {least} is above max {most}: the condition can never hold")
    takes_of = kind in (CondKind.STAT, CondKind.KEYWORD)
    if t.has("of") and not takes_of:
        t.err("of", "only a stat or keyword condition has an of")
    if t.has("who") and kind is not CondKind.ZONE:
        t.err("who", "only a zone condition has a who")
    if kind in (CondKind.KEYWORD, CondKind.PREVIOUS):
        for key in ("min", "max"):
            if t.has(key):
                t.err(key, f"a {kind} condition has no {key}")
    elif kind in (CondKind.STAT, CondKind.ZONE) and least is None and most is None:
        t.require("min", f"a {kind} condition needs min or max")
    of: Ref | None = None
    of_type: str | None = None
    if takes_of and t.require("of", "what it looks at: a target name or one of " + ", ".join(REF_WORDS)):
        of, of_type = _parse_of(t, env)
    selector = None
    stat = keyword = None
    zone: Zone | None = None
    happened = True
    who = Who.YOU
    if kind is CondKind.COUNT:
        selector = parse_selector(t.scope, t.data["count"], t.where("count"), CHOOSE_TYPES,
                                  "in a count condition", zoned=True)
        if least is None and most is None:
            least = 1  # "if you control a ..."
    elif kind is CondKind.STAT:
        stat = t.get_str("stat", COND_STAT_WORDS, "stat")
        if stat == "power" and of_type == "host":
            t.err("stat", "Hosts have no power (13.4)")
        if stat == "soul" and of_type in ("entity", "permanent"):
            t.err("stat", "only Hosts have soul (13.4)")
    elif kind is CondKind.KEYWORD:
        keyword = t.get_str("keyword", SELECTOR_KEYWORDS, "keyword")
    elif kind is CondKind.ZONE:
        word = t.get_str("zone", COND_ZONE_WORDS, "zone")
        zone = None if word is None else Zone(word)
        who = Who(t.get_str("who", ("you", "opponent"), "player") or "you")
    else:
        word = t.get_str("previous", PREVIOUS_WORDS, "previous")
        happened = word != "failed"
        if index == 0:
            t.err("previous", "the first step has no previous step")
    if len(t.scope.sink) != before:
        return None
    return Cond(kind=kind, selector=selector, of=of, stat=stat, keyword=keyword, zone=zone, who=who,
                least=least, most=most, happened=happened)


def _parse_of(t: Table, env: StepEnv) -> tuple[Ref | None, str | None]:
    """A condition's ``of``: a declared target or a reference word (never all/choose)."""
    value = t.data["of"]
    if isinstance(value, str) and value in env.declared:
        env.used.add(value)
        sel = env.targets.get(value)
        return Ref(name=value), sel.type if sel else None
    if isinstance(value, str) and value in REF_WORDS:
        if value == "event.subject" and not env.has_event:
            t.err("of", "'event.subject' needs an event: only triggered and event ambush abilities have one")
            return None, None
        return Ref(name=value), ("host" if value in HOST_WORDS else env.card.self_type if value == "self" else None)
    declared = ", ".join(sorted(env.declared)) or "none"
    t.err("of", f"unknown reference {value!r}: not a declared target (declared: {declared}) "
          f"nor one of {', '.join(REF_WORDS)}")
    return None, None


def _check_acts_on(t: Table, do: str, allowed: tuple[str, ...] | None, ref_type: str | None) -> None:
    if ref_type is None or allowed is None or ref_type in allowed:
        return
    if ref_type == "entity_or_host" and "entity" in allowed and "host" not in allowed:
        t.err("to", f"{do} acts on {', '.join(allowed)} only, and this reference may be a Host")
    elif ref_type != "entity_or_host":
        t.err("to", f"{do} acts on {', '.join(allowed)}, not on {ref_type}")


def _parse_resource(t: Table) -> str | None:
    """A type symbol (``& £ ! %``), a type name or letter, or ``"host"`` (the Host's type)."""
    value = t.get_str("resource")
    if value is None:
        return None
    if value == "host":
        return "host"
    res = RES_NAMES.get(value) or RES_LETTERS.get(value)
    if res is None:
        try:
            res = Res(value)
        except ValueError:
            t.err(
                "resource",
                unknown(
                    "resource",
                    value,
                    [
                        *(r.value for r in TYPED),
                        "host",
                        *(n for n, r in RES_NAMES.items() if r in TYPED),
                    ],
                ),
            )
            return None
    if res not in TYPED:
        t.err("resource", 'generic ($) is not a resource you can gain (12.4): use a type or "host"')
        return None
    return res  # a Res is a str equal to its symbol


def _parse_filter(t: Table) -> Selector | None:
    if not t.has("filter"):
        return None
    return parse_selector(
        t.scope, t.data["filter"], t.where("filter"), ("card",), "as a search filter"
    )


# --------------------------------------------------------------------------- triggers


def parse_trigger(t: Table) -> Trigger | None:
    """``when = { event, subject, player, phase }`` (28): the trigger of a triggered effect
    (28.1), or an Ambush's event requirement, the part before its ';' (29.2)."""
    before = len(t.scope.sink)
    t.allow(("event", "subject", "player", "phase"))
    if not t.require("event"):
        return None
    event = t.get_str("event", EVENTS, "event")
    if event is None:
        return None
    subject: Any = None
    if t.has("subject"):
        if event in NO_SUBJECT_EVENTS:
            t.err("subject", f"event {event!r} has no subject")
        elif t.data["subject"] in ("self", "other"):
            subject = t.data["subject"]
        else:
            subject = parse_selector(
                t.scope,
                t.data["subject"],
                t.where("subject"),
                SUBJECT_TYPES,
                'as a subject (or write "self" / "other")',
            )
    player = Controller(t.get_str("player", TRIGGER_PLAYERS, "player") or "any")
    if t.has("player") and event in NO_PLAYER_EVENTS:
        t.err("player", f"event {event!r} has no player")
    phase = t.get_str("phase", PHASES, "phase")
    if event == "start_of_phase" and not t.has("phase"):
        t.require("phase", f"start_of_phase needs one of {', '.join(PHASES)}")
    if event != "start_of_phase" and t.has("phase"):
        t.err("phase", 'only event = "start_of_phase" takes a phase')
    if len(t.scope.sink) != before:
        return None
    return Trigger(event=event, subject=subject, player=player, phase=None if phase is None else Phase(phase))


def parse_while(t: Table) -> Condition | None:
    """``while = { condition = "..." }`` (or just the condition word): an Ambush's state
    requirement, the condition before its ';' (29.2)."""
    value = t.data["while"]
    if isinstance(value, str):
        word = t.get_str("while", STATE_CONDITIONS, "state condition")
        return None if word is None else Condition(word)
    table = t.get_table("while")
    if table is None:
        return None
    table.allow(("condition",))
    if not table.require("condition", f"one of {', '.join(sorted(STATE_CONDITIONS))}"):
        return None
    word = table.get_str("condition", STATE_CONDITIONS, "state condition")
    return None if word is None else Condition(word)


# --------------------------------------------------------------------------- abilities


def parse_ability(t: Table, card: CardContext) -> Ability | None:
    before = len(t.scope.sink)
    if not t.require("kind", f"one of {', '.join(KIND_FIELDS)}"):
        return None
    kind = t.get_str("kind", KIND_FIELDS, "ability kind")
    if kind is None:
        return None
    t.allow(KIND_FIELDS[kind])
    text = t.get_str("text") or ""
    if kind == "static":
        ability = _parse_static(t, card, text)
    else:
        ability = _parse_effect_ability(t, card, kind, text)
    return ability if len(t.scope.sink) == before else None


def _parse_effect_ability(t: Table, card: CardContext, kind: str, text: str) -> Ability:
    """An ability with an effect: its ``steps`` are the effect text, after the colon (27.3) or
    after the trigger statement (28.4)."""
    when = None
    while_ = None
    if kind in ("triggered", "ambush"):
        when_table = t.get_table("when")
        when = parse_trigger(when_table) if when_table is not None else None
        if kind == "triggered":
            t.require("when", 'the event, e.g. when = { event = "attacks", subject = "self" }')
        else:
            while_ = parse_while(t) if t.has("while") else None
            if t.has("when") == t.has("while"):
                t.err(
                    "when",
                    "an ambush ability needs exactly one requirement: when (an event) or while (a state)",
                )
    before = len(t.scope.sink)
    targets, declared = parse_targets(t)
    env = StepEnv(card, kind, targets, declared, has_event=t.has("when"))
    steps = parse_steps(t, env, required=kind != "ambush")
    if len(t.scope.sink) == before:  # an unused target is only worth saying once all else is right
        for name in sorted(declared - env.used):
            t.err(f"targets.{name}", f"target {name!r} is declared but no step uses it")
    cost: tuple[Res, ...] = ()
    if kind == "activated":
        cost = _parse_cost_field(t)
    phase = t.get_str("phase", PHASES, "phase")
    if kind == "during":
        t.require("phase", f"one of {', '.join(PHASES)}")
    return Ability(
        kind=AbilityKind(kind),
        steps=steps,
        targets=tuple(env.targets.items()),
        when=when,
        while_=while_,
        optional=bool(t.get_bool("optional")),
        cost=cost,
        once_per_turn=bool(t.get_bool("once_per_turn")),
        fast=bool(t.get_bool("fast")),
        phase=None if phase is None else Phase(phase),
        text=text,
    )


def _parse_cost_field(t: Table) -> tuple[Res, ...]:
    """An activated ability's ``cost``: what is printed before the colon (27.2)."""
    value = t.get_str("cost")
    if value is None:
        return ()
    if "Ⓢ" in value:
        t.err("cost", "write the once-per-turn symbol as once_per_turn = true (27.5)")
        return ()
    try:
        return parse_cost(value)
    except ValueError as exc:
        t.err("cost", f"{exc} (symbols: & £ ! % $ or letters A S E M G)")
        return ()


def _parse_static(t: Table, card: CardContext, text: str) -> Ability:
    affects: Any = None
    affects_type: str | None = None
    if t.require("affects", f"a selector or one of {', '.join(AFFECTS_WORDS)}"):
        value = t.data["affects"]
        if isinstance(value, str) and value in AFFECTS_WORDS:
            affects = value
            affects_type = (
                "host" if value in HOST_WORDS else card.self_type if value == "self" else None
            )
            if value == "equipped" and not card.equipment:
                t.err("affects", "'equipped' is only for Equipment sorceries (23)")
        elif isinstance(value, str) and value not in SELECTOR_TYPES:
            t.err(
                "affects",
                unknown("affects word or selector type", value, [*AFFECTS_WORDS, *IN_PLAY_TYPES]),
            )
        else:
            affects = parse_selector(
                t.scope, value, t.where("affects"), IN_PLAY_TYPES, "with affects"
            )
            affects_type = affects.type if affects is not None else None
            if isinstance(value, dict):
                for key in (*STAT_FILTERS, "keyword"):
                    if key in value:
                        # a continuous effect whose reach depends on stats that continuous
                        # effects change has no stable answer (the engine recurses forever)
                        t.err(
                            f"affects.{key}",
                            f"{'keyword' if key == 'keyword' else 'stat'} filters are not allowed in "
                            "a static ability's affects (what it affects would depend on the "
                            "stats and keywords statics change, 18.6)",
                        )
    adds = {k: t.get_int(k) for k in ("health", "power", "soul")}
    sets = {k: t.get_int(f"set_{k}", minimum=0) for k in ("health", "power", "soul")}
    grants = t.get_strs("grants", GRANTABLE, "grantable keyword")
    if all(v is None for v in (*adds.values(), *sets.values())) and not grants:
        t.err(
            "kind",
            "a static ability needs at least one of health, power, soul, set_health, "
            "set_power, set_soul, grants",
        )
    if affects_type == "host":
        for key in ("power", "set_power"):
            if t.has(key):
                t.err(key, "Hosts have no power (13.4)")
    if affects_type in ("entity", "permanent"):
        for key in ("soul", "set_soul"):
            if t.has(key):
                t.err(key, "only Hosts have soul (13.4)")
    return Ability(
        kind=AbilityKind.STATIC,
        affects=affects,
        health=adds["health"] or 0,
        power=adds["power"] or 0,
        soul=adds["soul"] or 0,
        set_health=sets["health"],
        set_power=sets["power"],
        set_soul=sets["soul"],
        grants=tuple(grants),
        text=text,
    )
