"""The effect primitives (docs/cards.md "Steps"): one class per primitive, each holding
everything about it in one place, as Forge pairs each effect's resolution and description:

* its **fields**, typed (``Damage.amount``), and how a card file gives them (``spec``,
  ``build``, ``check``: the loader in ``hostwcg_env.cards`` reads these, so its checks and
  messages follow the class);
* whether it **can be performed** now, in its entirety (``can_perform``, 34.2.2);
* its **resolution** (``resolve``) and the choices it asks for on the way (its ``on_*``
  continuations);
* its **text** (``text``), the sentence a player reads;
* the trigger **events** its resolution can cause (``spec().events``), for loop detection
  (42.1).

Adding a primitive is writing one class here (docs/cards.md "Adding a primitive"); it is
registered by being a subclass of :class:`Primitive` with its own ``spec``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .actions import PASS, Action, Decision, DecisionKind, Kind, Resume, listed_at, slot_at
from .carddef import Cond, Ref, Res, Selector, Step
from .core import Core
from .costs import symbol
from .damage import damage_entity, heal_host, host_points
from .events import (
    ControlChanged,
    Created,
    EntersSlot,
    Equipped,
    Look,
    NoSlot,
    Retargeted,
    RetargetFailed,
    Reveal,
    StatsChanged,
)
from .events import (
    GainAP as GainAPEvent,
)
from .events import (
    PutIntoPlay as PutIntoPlayEvent,
)
from .events import (
    Search as SearchEvent,
)
from .hands import DiscardCards, draw, gain, shuffle
from .kinds import Duration, ItemKind, Link, ModKind, Who, Zone
from .legal import open_slots
from .references import players_of, ref_ids
from .state import Mod, StackItem
from .targeting import candidates, matches
from .tasks import Task
from .wording import (
    KEYWORD_WORDS,
    RES_WORDS,
    TextCtx,
    article,
    cards,
    count,
    duration,
    is_host_ref,
    owner_zone_phrase,
    players,
    plural,
    ref_phrase,
    selector_noun,
    stat_changes,
    verb,
)
from .zones import attach, destroy, move, move_slot, new_obj


@dataclass
class StepFields:
    """Every field a card file may give a step, read and checked by the loader; each
    primitive's ``build`` takes the ones it has."""

    link: Link = Link.THEN
    to: Ref | None = None
    amount: int = 1
    who: Who = Who.YOU
    resource: str | None = None  # a Res symbol or "host"
    health: int | None = None
    power: int | None = None
    soul: int | None = None
    duration: Duration = Duration.PERMANENT
    keyword: str | None = None
    token: str | None = None
    filter: Selector | None = None
    reveal: bool = True
    cond: tuple[Cond, ...] = ()


@dataclass
class StepSite:
    """Where a step stands in its card, for the checks that depend on it."""

    index: int  # its place in the ability's steps
    ability_kind: str
    equipment: bool  # the card is an Equipment sorcery (23)
    declared: frozenset[str]  # the ability's declared target names
    ref: Ref | None
    ref_type: str | None  # the selector type ``to`` names, where known
    stats: dict[str, int | None]  # health, power, soul as given
    ref_zone: Zone | None = None  # the zone of the cards ``to`` names (a drop/banished selector)
    ref_card_type: str | None = None  # the card_type of that selector


ENTITIES: Final = ("entity",)
PERMANENTS: Final = ("entity", "permanent")
ENTITIES_OR_HOSTS: Final = ("entity", "host", "entity_or_host")
EFFECTS: Final = ("effect",)
ZONE_CARDS: Final = ("card",)  # cards in a drop zone or banished zone (a selector's ``zone``)


@dataclass(frozen=True)
class Spec:
    """What a primitive is, beside its fields: its name in card files, what a card file may
    give it, what its text always says, and what its resolution can trigger."""

    do: str  # the name card files give it
    fields: tuple[str, ...]  # the fields a card file may give (beside do and link)
    words: str  # what its text always contains (lower case; the tests check it)
    required: tuple[str, ...] | None = None  # None: ("to",) when "to" is one of the fields
    acts_on: tuple[str, ...] | None = None  # the selector types ``to`` may name
    events: frozenset[str] = frozenset()  # trigger events its resolution can cause (42.1)
    amount_key: str = "amount"  # the card-file name of ``amount``
    stat_minimum: int | None = None  # the least health/power/soul a card file may give

    def required_fields(self) -> tuple[str, ...]:
        if self.required is not None:
            return self.required
        return ("to",) if "to" in self.fields else ()


@dataclass(frozen=True)
class Primitive(Step):
    """The common base of the effect primitives: see the module's docstring."""

    @staticmethod
    def spec() -> Spec:
        """Its name and card-file schema (every primitive declares its own)."""
        raise NotImplementedError("Primitive is abstract")

    @property
    def do(self) -> str:
        return SPECS_BY_CLASS[type(self)].do

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        """The step from the fields a card file gave (checked already)."""
        raise NotImplementedError(cls.__name__)

    @classmethod
    def check(cls, site: StepSite) -> list[tuple[str, str]]:
        """Problems (field, message) peculiar to this primitive, beyond its fields' types."""
        return []

    # ------------------------------------------------------------ resolving
    def feasible(self, g: Core, item: StackItem) -> bool:
        """Can this part be performed now, in its entirety (34.2.2)? What it acts on must be
        there (a choice needs a candidate; declared targets must all still be named), and then
        whatever the primitive itself needs (``can_perform``)."""
        s = g.s
        ref = self.to
        if ref is not None and ref.choose is not None:
            if not candidates(s, ref.choose, item.controller, item.source):
                return False
        elif ref is not None and ref.all is None:
            ids = ref_ids(s, item, ref)
            wanted = item.targets.get(ref.name or "", None)
            if wanted is not None:
                if len(ids) < len(wanted):
                    return False
            elif not ids:
                return False
        return self.can_perform(g, item)

    def can_perform(self, g: Core, item: StackItem) -> bool:
        return True

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        """Do it, to the objects ``ids`` its reference names now."""
        raise NotImplementedError(type(self).__name__)

    # ------------------------------------------------------------ text
    def text(self, tc: TextCtx) -> str:
        raise NotImplementedError(type(self).__name__)


def as_primitive(step: Step) -> Primitive:
    """The primitive a card's step is (every step the loader builds is one)."""
    if not isinstance(step, Primitive):
        raise TypeError(f"{type(step).__name__} is not an effect primitive")
    return step


def _source(item: StackItem) -> tuple[int | None, str, str]:
    """Damage or destruction by this item is by card effect (38.1.2)."""
    return (item.source, item.source_name, "effect")


# ============================================================================ damage and destruction


@dataclass(frozen=True)
class Damage(Primitive):
    """Damage to Entities (counters, 18.4) or Hosts (2.1: one point at a time, a card from
    hand to the damage zone)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("damage", fields=("amount", "to"), words="damage", required=("amount", "to"),
                    acts_on=ENTITIES_OR_HOSTS, events=frozenset({"host_damaged", "destroyed",
                    "destroys", "leaves_play"}))

    amount: int = 1

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, amount=f.amount)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        s = g.s
        if self.amount <= 0:
            return  # A03d: 0 damage is no damage
        hosts = []
        for i in ids:
            o = s.objs[i]
            if o.zone == Zone.HOST:
                hosts.append(o.owner)
            elif o.zone == Zone.FRONT:
                damage_entity(g, o, self.amount, _source(item))
        if hosts:
            g.push_seq(host_points(hosts, self.amount, item.source_name))

    def text(self, tc: TextCtx) -> str:
        return f"deal {self.amount} damage to {ref_phrase(tc, self.to)}"


@dataclass(frozen=True)
class Destroy(Primitive):
    """Destroys Entities (18.2)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("destroy", fields=("to",), words="destroy", acts_on=ENTITIES,
                    events=frozenset({"destroyed", "destroys", "leaves_play"}))


    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond)

    def can_perform(self, g: Core, item: StackItem) -> bool:
        ref = self.to
        return ref is None or ref.choose is not None or ref.all is not None or all(
            g.s.objs[i].zone == Zone.FRONT for i in ref_ids(g.s, item, ref))

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        objs = [g.s.objs[i] for i in ids if g.s.objs[i].zone == Zone.FRONT]
        if objs:
            destroy(g, objs, _source(item))

    def text(self, tc: TextCtx) -> str:
        return f"destroy {ref_phrase(tc, self.to)}"


@dataclass(frozen=True)
class Heal(Primitive):
    """A Host heals from the top of its damage zone (2.2); an Entity loses damage counters."""

    @staticmethod
    def spec() -> Spec:
        return Spec("heal", fields=("amount", "to"), words="heal", required=("amount", "to"),
                    acts_on=ENTITIES_OR_HOSTS, events=frozenset({"host_healed"}))

    amount: int = 1

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, amount=f.amount)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        s = g.s
        for i in ids:
            o = s.objs[i]
            if o.zone == Zone.HOST:
                heal_host(g, o.owner, self.amount)
            else:
                o.damage = max(0, o.damage - self.amount)
                s.dmg += 1

    def text(self, tc: TextCtx) -> str:
        if is_host_ref(tc, self.to):
            target = ref_phrase(tc, self.to)
            return f"{target} {verb(tc, self.to, 'heals', 'heal')} {self.amount}"
        return f"heal {self.amount} damage from {ref_phrase(tc, self.to)}"


# ============================================================================ cards and resources


@dataclass(frozen=True)
class Draw(Primitive):
    """Draws (A07: with too few cards the whole effect fails, unless the rule flag says draw
    what there is)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("draw", fields=("amount", "who"), words="draw", events=frozenset({"draws"}))

    amount: int = 1
    who: Who = Who.YOU

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, amount=f.amount, who=f.who)

    def can_perform(self, g: Core, item: StackItem) -> bool:
        s = g.s
        if s.config.draw_shortfall == "fail_whole_effect":
            return all(len(s.players[q].deck) >= self.amount for q in players_of(s, item, self.who))
        return True

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        for q in players_of(g.s, item, self.who):
            draw(g, q, self.amount)

    def text(self, tc: TextCtx) -> str:
        n = cards(self.amount)
        return players(self.who, f"draw {n}", f"your opponent draws {n}", f"each player draws {n}")


@dataclass(frozen=True)
class Discard(Primitive):
    """The player chooses and discards (4.2)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("discard", fields=("amount", "who"), words="discard",
                    events=frozenset({"discards"}))

    amount: int = 1
    who: Who = Who.YOU

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, amount=f.amount, who=f.who)

    def can_perform(self, g: Core, item: StackItem) -> bool:
        s = g.s
        return all(len(s.players[q].hand) >= self.amount for q in players_of(s, item, self.who))

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        g.push_seq([DiscardCards(q, self.amount) for q in players_of(g.s, item, self.who)])

    def text(self, tc: TextCtx) -> str:
        n = cards(self.amount)
        return players(self.who, f"discard {n}", f"your opponent discards {n}", f"each player discards {n}")


@dataclass(frozen=True)
class GainResource(Primitive):
    """Adds resources to the pool (11.3): a type, or the Host's type."""

    @staticmethod
    def spec() -> Spec:
        return Spec("gain_resource", fields=("amount", "resource", "who"), words="resource",
                    required=("amount", "resource"), events=frozenset({"gains_resource"}))

    amount: int = 1
    resource: str = "$"  # a Res symbol, or "host": the Host's type
    who: Who = Who.YOU

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        res = f.resource.value if isinstance(f.resource, Res) else f.resource
        return cls(link=f.link, to=f.to, cond=f.cond, amount=f.amount, resource=res or "$", who=f.who)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        s = g.s
        for q in players_of(s, item, self.who):
            sym = self.resource
            if sym == "host":
                res = s.objs[s.players[q].host].card.resource
                if res is Res.GENERIC:
                    continue  # A28: a Host with no type gives nothing
                sym = symbol(res)
            gain(g, q, sym, self.amount)

    def text(self, tc: TextCtx) -> str:
        n = self.amount
        if self.resource == "host":
            what = f"{plural(n, 'resource', 'resources')} of your Host's type"
        else:
            sym = self.resource
            what = f"{RES_WORDS.get(sym, sym)} {plural(n, 'resource', 'resources')}"
        return players(self.who, f"gain {n} {what}", f"your opponent gains {n} {what}",
                       f"each player gains {n} {what}")


@dataclass(frozen=True)
class GainAP(Primitive):
    """Adds action points (11.1). There is no cap: the Start Phase replenishes to 4 and never
    lowers (10.2.1, 11.2, A18), so points gained and not spent carry over; they are spent only
    in their owner's Action Phases (11.3)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("gain_ap", fields=("amount", "who"), words="action point", required=("amount",))

    amount: int = 1
    who: Who = Who.YOU

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, amount=f.amount, who=f.who)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        for q in players_of(g.s, item, self.who):
            g.s.players[q].ap += self.amount
            g.emit(GainAPEvent(q, self.amount))

    def text(self, tc: TextCtx) -> str:
        n = self.amount
        what = f"{n} {plural(n, 'action point', 'action points')} (#)"
        return players(self.who, f"gain {what}", f"your opponent gains {what}", f"each player gains {what}")


# ============================================================================ stats and keywords


def _check_stats(do: str, site: StepSite) -> list[tuple[str, str]]:
    out = []
    given = [k for k, v in site.stats.items() if v is not None]
    if not given:
        out.append(("do", f"{do} needs at least one of health, power, soul"))
    if site.ref_type == "host" and "power" in given:
        out.append(("power", "Hosts have no power (13.4)"))
    if site.ref_type == "entity" and "soul" in given:
        out.append(("soul", "Entities have no soul (13.4)"))
    return out


@dataclass(frozen=True)
class _StatChange(Primitive):
    """Modify and Set: a change to health, power and soul (18.6, 20.1), for a duration."""

    health: int | None = None
    power: int | None = None
    soul: int | None = None
    duration: Duration = Duration.PERMANENT

    def mod_kind(self) -> ModKind:
        raise NotImplementedError(type(self).__name__)

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, health=f.health, power=f.power, soul=f.soul, duration=f.duration)

    @classmethod
    def check(cls, site: StepSite) -> list[tuple[str, str]]:
        return _check_stats(cls.spec().do, site)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        s = g.s
        eot = self.duration == Duration.END_OF_TURN
        for i in ids:
            o = s.objs[i]
            ts = g.tick()
            for stat, v in (("health", self.health), ("power", self.power), ("soul", self.soul)):
                if v is not None:
                    o.mods = (*o.mods, Mod(self.mod_kind(), stat, v, ts, eot))
                    s.modv += 1
            g.emit(StatsChanged(i, o.name))


@dataclass(frozen=True)
class Modify(_StatChange):
    """Adds to or subtracts from stats (18.6.1, 18.6.2)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("modify", fields=("to", "health", "power", "soul", "duration"), words="gain",
                    acts_on=ENTITIES_OR_HOSTS, events=frozenset({"leaves_play"}))

    def mod_kind(self) -> ModKind:
        return ModKind.ADD


    def text(self, tc: TextCtx) -> str:
        target = ref_phrase(tc, self.to)
        changes = stat_changes(self.health, self.power, self.soul, signed=True)
        return f"{target} {verb(tc, self.to, 'gains', 'gain')} {changes}{duration(self.duration)}"


@dataclass(frozen=True)
class Set(_StatChange):
    """Sets stats; a set wins over every add (18.6.3)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("set", fields=("to", "health", "power", "soul", "duration"), words="become",
                    acts_on=ENTITIES_OR_HOSTS, events=frozenset({"leaves_play"}), stat_minimum=0)

    def mod_kind(self) -> ModKind:
        return ModKind.SET


    def text(self, tc: TextCtx) -> str:
        changes = stat_changes(self.health, self.power, self.soul, signed=False)
        given = [(k, v) for k, v in (("health", self.health), ("power", self.power), ("soul", self.soul))
                 if v is not None]
        if len(given) == 1:
            target = ref_phrase(tc, self.to, possessive=True)
            becomes = verb(tc, self.to, "becomes", "become")
            return f"{target} {given[0][0]} {becomes} {given[0][1]}{duration(self.duration)}"
        target = ref_phrase(tc, self.to)
        return f"{target} {verb(tc, self.to, 'becomes', 'become')} {changes}{duration(self.duration)}"


@dataclass(frozen=True)
class Grant(Primitive):
    """Gives a keyword (29)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("grant", fields=("to", "keyword", "duration"), words="gain", required=("to",
                    "keyword"), acts_on=ENTITIES)

    keyword: str = ""
    duration: Duration = Duration.PERMANENT

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, keyword=f.keyword or "", duration=f.duration)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        for i in ids:
            o = g.s.objs[i]
            o.mods = (*o.mods, Mod(ModKind.GRANT, self.keyword, 1, g.tick(),
                                   self.duration == Duration.END_OF_TURN))
            g.s.modv += 1

    def text(self, tc: TextCtx) -> str:
        target = ref_phrase(tc, self.to)
        kw = KEYWORD_WORDS.get(self.keyword, self.keyword)
        return f"{target} {verb(tc, self.to, 'gains', 'gain')} {kw}{duration(self.duration)}"


# ============================================================================ objects in play


@dataclass(frozen=True)
class CreateToken(Primitive):
    """Creates Entity tokens for you (A49), each in an open frontrow slot you choose (18.7)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("create_token", fields=("token", "count"), words="create", required=("token",),
                    events=frozenset({"created", "enters_slot"}), amount_key="count")

    token: str = ""
    amount: int = 1

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, token=f.token or "", amount=f.amount)

    def can_perform(self, g: Core, item: StackItem) -> bool:
        return bool(open_slots(g.s, item.controller, "f"))

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        g.push_seq([PlaceToken(item.controller, self.token) for _ in range(self.amount)])

    @staticmethod
    def run_place_token(g: Core, t: PlaceToken) -> None:
        """One token: it enters only an open frontrow slot (18.7); with none it is not
        created."""
        slots = open_slots(g.s, t.player, "f")
        if not slots:
            return
        acts = [Action(Kind.SLOT, target=slot_at("f", i)) for i in slots]
        g.decide(t.player, DecisionKind.CHOOSE_SLOT, acts, Resume.TOKEN_SLOT,
                 prompt=f"slot for {t.token}", task=t)

    @staticmethod
    def on_slot(g: Core, d: Decision, a: Action) -> None:
        t = d.task
        assert isinstance(t, PlaceToken)
        p = t.player
        card = g.s.registry[t.token]
        o = new_obj(g, card, p, p, Zone.FRONT, slot=a.dst.index, token=True, sick=True)
        attach(g, o)
        g.emit(Created(p, o.id, card.name, False))
        g.emit(EntersSlot(p, o.id, card.name, False, str(a.dst)))

    def text(self, tc: TextCtx) -> str:
        token = self.token or "token"
        if self.amount == 1:
            return f"create {article(token)} token"
        return f"create {count(self.amount)} {token} tokens"


@dataclass(frozen=True)
class ReturnToHand(Primitive):
    """To its owner's hand (tokens cease to exist, 36.3.1): a permanent in play, or a card in
    a drop zone or banished zone (4.2, 4.9). A card that comes from an open zone (6.1.1) is
    seen by both players as it goes (``Reveal(A, card=X)``)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("return_to_hand", fields=("to",), words="return",
                    acts_on=(*PERMANENTS, *ZONE_CARDS), events=frozenset({"leaves_play"}))


    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        for i in ids:
            o = g.s.objs.get(i)
            if o is None:
                continue
            if o.zone is Zone.DROP or o.zone is Zone.BANISHED:
                g.emit(Reveal(o.owner, None, (o.name,)))
            move(g, o, Zone.HAND)

    def text(self, tc: TextCtx) -> str:
        ref = self.to
        sel = None if ref is None else ref.choose or ref.all
        if sel is not None and sel.zone is not None:
            many = ref is not None and ref.all is not None
            return (f"return {ref_phrase(tc, ref, zone_word='from')} to "
                    f"{owner_zone_phrase(sel, 'hand', many)}")
        target = ref_phrase(tc, ref)
        owner = "its owner's" if verb(tc, ref, "1", "2") == "1" else "their owners'"
        return f"return {target} to {owner} hand"


@dataclass(frozen=True)
class Banish(Primitive):
    """Banished cards go to their owner's banished zone (4.9, 4.9.1)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("banish", fields=("to",), words="banish", acts_on=PERMANENTS,
                    events=frozenset({"leaves_play"}))


    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        for i in ids:
            o = g.s.objs.get(i)
            if o is not None:
                move(g, o, Zone.BANISHED)

    def text(self, tc: TextCtx) -> str:
        return f"banish {ref_phrase(tc, self.to)}"


@dataclass(frozen=True)
class MoveSlot(Primitive):
    """Moves your Entity to another open frontrow slot you choose (8.2)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("move_slot", fields=("to",), words="move", acts_on=ENTITIES,
                    events=frozenset({"moves_slot"}))


    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond)

    def can_perform(self, g: Core, item: StackItem) -> bool:
        return len(open_slots(g.s, item.controller, "f")) > 0

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        for i in ids:
            o = g.s.objs[i]
            slots = open_slots(g.s, o.controller, "f")
            if slots:
                acts = [Action(Kind.SLOT, target=slot_at("f", k)) for k in slots]
                g.decide(item.controller, DecisionKind.CHOOSE_SLOT, acts, Resume.MOVE_SLOT,
                         prompt=f"move {o.name} to", task=SlotFor(i))
                return

    @staticmethod
    def on_slot(g: Core, d: Decision, a: Action) -> None:
        t = d.task
        assert isinstance(t, SlotFor)
        move_slot(g, g.s.objs[t.obj], a.dst.index)

    def text(self, tc: TextCtx) -> str:
        return f"move {ref_phrase(tc, self.to)} to another open frontrow slot you control"


@dataclass(frozen=True)
class GainControl(Primitive):
    """You gain control: the Entity moves to an open slot of yours (A49d, 37.2)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("gain_control", fields=("to",), words="gain control", acts_on=ENTITIES,
                    events=frozenset({"leaves_play", "enters_slot"}))


    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond)

    def can_perform(self, g: Core, item: StackItem) -> bool:
        return len(open_slots(g.s, item.controller, "f")) > 0

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        p = item.controller
        for i in ids:
            o = g.s.objs[i]
            if o.controller == p:
                continue
            acts = [Action(Kind.SLOT, target=slot_at("f", k)) for k in open_slots(g.s, p, "f")]
            g.decide(p, DecisionKind.CHOOSE_SLOT, acts, Resume.CONTROL_SLOT, prompt=f"slot for {o.name}",
                     task=SlotFor(i))
            return

    @staticmethod
    def on_slot(g: Core, d: Decision, a: Action) -> None:
        """A49d: gaining control moves the Entity to your slot, a zone change (a new object);
        you are now its controller (37.2)."""
        t = d.task
        assert isinstance(t, SlotFor)
        o = g.s.objs[t.obj]
        p = d.player
        new = move(g, o, Zone.FRONT, p, slot=a.dst.index)
        if new is None:
            return
        new.sick = True
        g.emit(ControlChanged(p, new.id, o.name))
        g.emit(EntersSlot(p, new.id, o.name, False, f"f{new.slot}"))

    def text(self, tc: TextCtx) -> str:
        return f"gain control of {ref_phrase(tc, self.to)}"


@dataclass(frozen=True)
class PutIntoPlay(Primitive):
    """Puts Entity cards from a drop zone or banished zone into play under your control, each
    in an open frontrow slot you choose (14.7). It needs an open slot (18.1, 18.7): with none
    the whole effect does not resolve (34.2.2, A41) and the cards stay where they were; with
    fewer slots than cards, the rest stay. It enters a slot (8.1, ``enters_slot``) as a new
    object (36.2) with Creation Sickness (18.5.1); it was not played, so no ``created`` or
    ``played`` event happens (14.4.1, 14.8)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("put_into_play", fields=("to",), words="into play", acts_on=ZONE_CARDS,
                    events=frozenset({"enters_slot"}))


    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond)

    @classmethod
    def check(cls, site: StepSite) -> list[tuple[str, str]]:
        if site.ref_zone is not None and site.ref_card_type != "entity":
            return [("to", 'put_into_play puts Entity cards into frontrow slots (4.4.1): its '
                     'selector needs card_type = "entity"')]
        return []

    def can_perform(self, g: Core, item: StackItem) -> bool:
        return bool(open_slots(g.s, item.controller, "f"))

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        g.push_seq([PutInSlot(item.controller, i) for i in ids])

    @staticmethod
    def run_put(g: Core, t: PutInSlot) -> None:
        """One card: it enters only an open frontrow slot (18.7); with none it stays where it
        is, as does a card that has left its zone meanwhile (36.2)."""
        o = g.s.objs.get(t.obj)
        if o is None or not (o.zone is Zone.DROP or o.zone is Zone.BANISHED):
            return
        slots = open_slots(g.s, t.player, "f")
        if not slots:
            g.emit(NoSlot(t.player, o.name))
            return
        acts = [Action(Kind.SLOT, target=slot_at("f", i)) for i in slots]
        g.decide(t.player, DecisionKind.CHOOSE_SLOT, acts, Resume.PUT_SLOT,
                 prompt=f"slot for {o.name}", task=t)

    @staticmethod
    def on_slot(g: Core, d: Decision, a: Action) -> None:
        t = d.task
        assert isinstance(t, PutInSlot)
        o = g.s.objs[t.obj]
        p = t.player
        new = move(g, o, Zone.FRONT, p, slot=a.dst.index)
        if new is None:
            return
        new.sick = True  # 18.5.1
        g.emit(PutIntoPlayEvent(p, new.id, o.name, str(a.dst)))
        g.emit(EntersSlot(p, new.id, o.name, False, str(a.dst)))

    def text(self, tc: TextCtx) -> str:
        ref = self.to
        sel = None if ref is None else ref.choose or ref.all
        yours = sel is not None and sel.controller == "you"
        return f"put {ref_phrase(tc, ref, zone_word='from')} into play{'' if yours else ' under your control'}"


@dataclass(frozen=True)
class Equip(Primitive):
    """This Equipment leaves its backrow slot and becomes a face-up marker (24.1) attached to
    the permanent it equips (23.1, 23.3)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("equip", fields=("to",), words="equip", acts_on=PERMANENTS)


    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond)

    @classmethod
    def check(cls, site: StepSite) -> list[tuple[str, str]]:
        out = []
        if not (site.equipment and site.ability_kind == "spell" and site.index == 0):
            out.append(("do", "equip is only the first step of an Equipment sorcery's spell ability (23)"))
        ref = site.ref
        if ref is not None and (ref.name is None or ref.name not in site.declared):
            out.append(("to", "equip needs a declared target (23.2)"))
        return out

    def can_perform(self, g: Core, item: StackItem) -> bool:
        src = g.s.objs.get(item.source) if item.source is not None else None
        return src is not None and src.zone == Zone.BACK

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        s = g.s
        src = s.objs.get(item.source) if item.source is not None else None
        if src is None or src.zone != Zone.BACK or not ids:
            return
        target = s.objs[ids[0]]
        move(g, src, Zone.MARKER, src.controller, attached_to=target.id)
        g.emit(Equipped(target.id, target.name, src.name))

    def text(self, tc: TextCtx) -> str:
        return f"equip {ref_phrase(tc, self.to)}"


# ============================================================================ hidden cards


@dataclass(frozen=True)
class Search(Primitive):
    """Search your deck for a matching card, put it in hand, shuffle (41.3, A51). While it
    searches, the closed deck is semi-closed (41.3.1): the searcher sees every card of it
    (41.3.2), the opponent none; the matching ones are listed to choose from."""

    @staticmethod
    def spec() -> Spec:
        return Spec("search", fields=("filter", "reveal"), words="search", required=("filter",))

    filter: Selector | None = None
    reveal: bool = True

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, filter=f.filter, reveal=f.reveal)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        s = g.s
        p = item.controller
        sel = self.filter
        found = [oid for oid in s.players[p].deck if sel is None or matches(s, sel, s.objs[oid], p, None)]
        g.emit(SearchEvent(p))
        acts = [Action(Kind.CARD, listed_at(i)) for i in range(len(found))]
        if sel is not None or not found:
            acts.append(PASS)
        # with traits, how many cards match is hidden in the closed deck (6.1.3.1): a driver
        # must ask even when nothing matched (Game.forced_action)
        g.decide(p, DecisionKind.CHOOSE_CARD, acts, Resume.SEARCH_PICK, prompt="search: choose a card",
                 cards=tuple(found), task=SearchChoice(self.reveal), hidden=sel is not None,
                 seen=tuple(s.players[p].deck))

    @staticmethod
    def on_pick(g: Core, d: Decision, a: Action) -> None:
        """The found card goes to hand, shown to both players (as when it must match traits,
        41.3.3) unless the step has reveal = false; then the deck is shuffled."""
        s = g.s
        p = d.player
        t = d.task
        assert isinstance(t, SearchChoice)
        if a.kind is Kind.CARD:
            o = s.objs[d.cards[a.src.index]]
            if t.reveal:
                g.emit(Reveal(p, None, (o.name,)))
            move(g, o, Zone.HAND, p)
        shuffle(g, p)

    def text(self, tc: TextCtx) -> str:
        noun = selector_noun(self.filter) if self.filter is not None else "card"
        reveal = ", reveal it" if self.reveal else ""
        return f"search your deck for {article(noun)}{reveal} and put it into your hand, then shuffle your deck"


def reveal_zone(g: Core, p: int, zone: str, ids: list[int]) -> None:
    """Player ``p`` shows a hidden zone to both players (41.1.1) as a multiset: its cards in
    name order, never in the zone's real order (the order they were drawn or put there, which
    the other player may not see: 4.1.1, 4.3.1, 2.1.1). ``Reveal(B, hand=[Ogre, Squire])``."""
    g.emit(Reveal(p, zone, tuple(sorted(g.s.objs[o].name for o in ids))))


@dataclass(frozen=True)
class RevealHand(Primitive):
    """The hand is shown to both players, a public event (41.1, 41.1.1), in name order
    (``reveal_zone``)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("reveal_hand", fields=("who",), words="reveal")

    who: Who = Who.YOU

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, who=f.who)

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        s = g.s
        for q in players_of(s, item, self.who):
            reveal_zone(g, q, "hand", s.players[q].hand)

    def text(self, tc: TextCtx) -> str:
        return players(self.who, "reveal your hand", "your opponent reveals their hand",
                       "each player reveals their hand")


@dataclass(frozen=True)
class LookTop(Primitive):
    """You look at the top N of your deck and put them back in an order you choose (41.2)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("look_top", fields=("amount",), words="look at", required=("amount",))

    amount: int = 1

    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond, amount=f.amount)

    def can_perform(self, g: Core, item: StackItem) -> bool:
        return len(g.s.players[item.controller].deck) > 0

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        s = g.s
        p = item.controller
        top = s.players[p].deck[: self.amount]
        g.emit(Look(p, len(top), tuple(s.objs[o].name for o in top)))
        g.push(LookOrder(p, list(top), []))

    @staticmethod
    def run_look_order(g: Core, t: LookOrder) -> None:
        left = t.left
        if len(left) <= 1:
            # The looked-at cards go back on top in the chosen order. They are moved, not
            # written over the top slots: in a game sampled from a player's view the deck's
            # order is not the real one (4.1.1), and a card that left the deck meanwhile must
            # not come back as a stale id.
            deck = g.s.players[t.player].deck
            inside = set(deck)
            order = [o for o in t.done + left if o in inside]
            chosen = set(order)
            deck[:] = order + [o for o in deck if o not in chosen]
            return
        acts = [Action(Kind.CARD, listed_at(i)) for i in range(len(left))]
        g.decide(t.player, DecisionKind.CHOOSE_CARD, acts, Resume.LOOK_PICK,
                 prompt="put back: choose the next card from the top", cards=tuple(left), task=t)

    @staticmethod
    def on_pick(g: Core, d: Decision, a: Action) -> None:
        t = d.task
        assert isinstance(t, LookOrder)
        oid = d.cards[a.src.index]
        t.left.remove(oid)
        t.done.append(oid)
        g.push(t)

    def text(self, tc: TextCtx) -> str:
        n = self.amount
        if n == 1:
            return "look at the top card of your deck and put it back"
        return f"look at the top {count(n)} cards of your deck and put them back in any order"


# ============================================================================ the stack


@dataclass(frozen=True)
class Retarget(Primitive):
    """Change the targets of a stack item to new valid targets, the same number; if that is
    impossible nothing changes (30.6, 30.6.1)."""

    @staticmethod
    def spec() -> Spec:
        return Spec("retarget", fields=("to",), words="change the targets", acts_on=EFFECTS)


    @classmethod
    def build(cls, f: StepFields) -> Primitive:
        return cls(link=f.link, to=f.to, cond=f.cond)

    @classmethod
    def check(cls, site: StepSite) -> list[tuple[str, str]]:
        ref = site.ref
        if ref is not None and (ref.name is None or ref.name not in site.declared):
            return [("to", 'retarget needs a declared target of type "effect" (30.6)')]
        return []

    def resolve(self, g: Core, item: StackItem, ids: list[int]) -> None:
        s = g.s
        for tid in ids:
            target = next((x for x in s.stack if x.sid == -tid), None)
            if target is None or target.kind is ItemKind.CARD:
                continue
            ab = target.ability_def
            old = {i for v in target.targets.values() for i in v}
            plan: list[tuple[str, int]] = []
            for name, sel in ab.targets:
                n = len(target.targets.get(name, []))
                cands = [c for c in candidates(s, sel, target.controller, target.source) if c not in old]
                if len(cands) < n:
                    g.emit(RetargetFailed(target.source_name))
                    return
                plan.append((name, n))
            g.push(NewTargets(item.controller, target.sid, plan, 0, {}))

    @staticmethod
    def run_new_targets(g: Core, t: NewTargets) -> None:
        s = g.s
        target = next((x for x in s.stack if x.sid == t.sid), None)
        if target is None:
            return
        while t.i < len(t.plan):
            name, n = t.plan[t.i]
            got = t.new.setdefault(name, [])
            if len(got) >= n:
                t.i += 1
                continue
            sel = dict(target.ability_def.targets)[name]
            old = {i for v in target.targets.values() for i in v}
            cands = [c for c in candidates(s, sel, target.controller, target.source) if c not in old and c not in got]
            acts = [Action(Kind.TARGET, target=g.place_ref(c)) for c in cands]
            g.decide(t.player, DecisionKind.CHOOSE_TARGET, acts, Resume.RETARGET_PICK,
                     prompt=f"new target for {target.source_name}", task=t)
            return
        target.targets = {k: list(v) for k, v in t.new.items()}
        g.emit(Retargeted(target.source_name))

    @staticmethod
    def on_pick(g: Core, d: Decision, a: Action) -> None:
        t = d.task
        assert isinstance(t, NewTargets)
        name, _n = t.plan[t.i]
        tid = g.resolve_ref(a.dst)
        assert tid is not None  # one of the decision's own targets
        t.new.setdefault(name, []).append(tid)
        g.push(t)

    def text(self, tc: TextCtx) -> str:
        return f"change the targets of {ref_phrase(tc, self.to)}"


# ============================================================================ the work they leave


@dataclass(init=False)
class PlaceToken(Task):
    """One token of ``token`` to put into an open frontrow slot of ``player`` (CreateToken)."""

    player: int
    token: str

    def __init__(self, player: int, token: str) -> None:
        self.player = player
        self.token = token

    def clone(self) -> PlaceToken:
        return PlaceToken(self.player, self.token)


@dataclass(init=False)
class SlotFor(Task):
    """The object ``obj`` waits for the slot chosen for it (MoveSlot, GainControl)."""

    obj: int

    def __init__(self, obj: int) -> None:
        self.obj = obj

    def clone(self) -> SlotFor:
        return SlotFor(self.obj)


@dataclass(init=False)
class PutInSlot(Task):
    """The card ``obj`` waits to enter an open frontrow slot of ``player`` (PutIntoPlay)."""

    player: int
    obj: int

    def __init__(self, player: int, obj: int) -> None:
        self.player = player
        self.obj = obj

    def clone(self) -> PutInSlot:
        return PutInSlot(self.player, self.obj)


@dataclass(init=False)
class SearchChoice(Task):
    """A search waits for the card chosen; ``reveal``: whether it is shown (Search)."""

    reveal: bool

    def __init__(self, reveal: bool) -> None:
        self.reveal = reveal

    def clone(self) -> SearchChoice:
        return SearchChoice(self.reveal)


@dataclass(init=False)
class LookOrder(Task):
    """``player`` puts the looked-at cards back on top: ``done`` chosen so far, from the top;
    ``left`` still to place (LookTop)."""

    player: int
    left: list[int]
    done: list[int]

    def __init__(self, player: int, left: list[int], done: list[int]) -> None:
        self.player = player
        self.left = left
        self.done = done

    def clone(self) -> LookOrder:
        return LookOrder(self.player, list(self.left), list(self.done))


@dataclass(init=False)
class NewTargets(Task):
    """``player`` chooses new targets for the stack item ``sid``: ``plan`` lists each target
    name with how many it needs, ``i`` the one being chosen, ``new`` the choices so far
    (Retarget)."""

    player: int
    sid: int
    plan: list[tuple[str, int]]
    i: int
    new: dict[str, list[int]]

    def __init__(
        self,
        player: int,
        sid: int,
        plan: list[tuple[str, int]],
        i: int,
        new: dict[str, list[int]],
    ) -> None:
        self.player = player
        self.sid = sid
        self.plan = plan
        self.i = i
        self.new = new

    def clone(self) -> NewTargets:
        return NewTargets(self.player, self.sid, list(self.plan), self.i,
                          {k: list(v) for k, v in self.new.items()})


# ============================================================================ the registry


def _concrete(cls: type[Primitive], inherited: Spec | None = None) -> list[type[Primitive]]:
    """The primitives below ``cls``: every subclass that declares a ``spec`` of its own."""
    out: list[type[Primitive]] = []
    for sub in cls.__subclasses__():
        try:
            spec: Spec | None = sub.spec()
        except NotImplementedError:  # an abstract base, such as _StatChange
            spec = None
        if spec is not None and spec != inherited:
            out.append(sub)
        out.extend(_concrete(sub, spec))
    return out


# Every primitive, by the name card files give it: a class is registered by being defined.
PRIMITIVE_CLASSES: Final[dict[str, type[Primitive]]] = {c.spec().do: c for c in _concrete(Primitive)}
PRIMITIVES: Final = frozenset(PRIMITIVE_CLASSES)
SPECS_BY_CLASS: Final[dict[type[Primitive], Spec]] = {c: c.spec() for c in PRIMITIVE_CLASSES.values()}


def events_of(step: Step) -> frozenset[str]:
    """The trigger events a step's resolution can cause (42.1)."""
    return SPECS_BY_CLASS[as_primitive(step).__class__].events
