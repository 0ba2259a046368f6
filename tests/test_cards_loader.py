"""The card loader: test_cards.toml loads the stand-in cards the scenarios use, and bad files are refused
with every problem named by file, card and field (docs/cards.md)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from hostwcg_env.cards import CardError, default_pool, load_card_table, load_cards
from hostwcg_env.engine.carddef import TYPED, CardType, Ref, Res, Selector
from hostwcg_env.engine.kinds import Controller, SelectorType

DATA = Path(__file__).resolve().parent.parent / "hostwcg_env" / "cards" / "data" / "test_cards.toml"

TEST_IDS = (
    ["H1", "H2"]
    + [f"E{i}" for i in range(1, 24)]
    + [f"F{i}" for i in range(1, 11)]
    + [f"S{i}" for i in range(1, 34)]
    + ["M1", "M2", "M3"]
)


@pytest.fixture(scope="module")
def cards():
    return load_cards(DATA)


def write(tmp_path: Path, text: str, name: str = "bad.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def refuse(tmp_path: Path, text: str) -> tuple[str, CardError]:
    path = write(tmp_path, text)
    with pytest.raises(CardError) as info:
        load_cards(path)
    return str(path), info.value


# --------------------------------------------------------------------------- test_cards.toml


def test_every_stand_in_card_is_defined(cards):
    by_id = {c.test_id: c for c in cards.values()}
    assert sorted(by_id) == sorted(TEST_IDS)
    assert len(cards) == len(TEST_IDS)


def test_default_pool_is_cached_and_a_fresh_dict(cards):
    a, b = default_pool(), default_pool()
    assert a == b and a is not b
    assert set(cards) <= set(a)
    a.pop("Squire")
    assert "Squire" in default_pool()


def test_resource_is_the_type_of_the_cost(cards):
    for card in cards.values():
        typed = {r for r in card.cost if r in TYPED}
        if card.type is CardType.HOST:
            assert card.resource in TYPED
        elif typed:
            assert {card.resource} == typed, card.name
        else:
            assert card.resource is Res.GENERIC, card.name


def test_hosts(cards):
    host = cards["Test Host"]
    assert (host.type, host.resource, host.health, host.soul, host.cost) == (
        CardType.HOST,
        Res.AUTHORITY,
        8,
        5,
        (),
    )
    assert cards["Strife Host"].resource is Res.STRIFE


def test_plain_entities(cards):
    ogre = cards["Ogre"]
    assert (ogre.health, ogre.power, ogre.subtypes) == (4, 3, ("Giant",))
    assert ogre.cost == (Res.STRIFE, Res.STRIFE, Res.GENERIC)
    assert cards["Duelist"].subtypes == ("Human", "Warrior")
    assert cards["Duelist"].keywords == {"first_strike"}
    assert cards["Shy Sprite"].keywords == {"cannot_block"}
    assert cards["Quickling"].is_fast
    assert (cards["Wall"].health, cards["Wall"].power) == (5, 0)


def test_wolf_is_a_token(cards):
    wolf = cards["Wolf"]
    assert (wolf.type, wolf.health, wolf.power, wolf.cost, wolf.test_id) == (
        CardType.TOKEN,
        1,
        1,
        (),
        "E23",
    )


def test_static_abilities(cards):
    (knight,) = cards["Banner Knight"].abilities
    assert knight.kind == "static"
    assert knight.affects == Selector(type=SelectorType.ENTITY, controller=Controller.YOU)
    assert (knight.health, knight.power) == (1, 1)
    (witch,) = cards["Hex Witch"].abilities
    assert witch.affects.controller == "opponent" and (witch.health, witch.power) == (-2, -2)
    (eq,) = cards["Equalizer"].abilities
    assert eq.affects == Selector(type=SelectorType.ENTITY) and (eq.set_health, eq.set_power) == (4, 2)
    assert cards["Soul Anchor"].abilities[0].affects == "your_host"
    assert cards["Soul Anchor"].abilities[0].soul == 2
    assert cards["Aegis"].abilities[0].health == 2
    assert cards["Wizard Tower"].abilities[0].affects.subtype == "Wizard"


def test_forms_are_unique(cards):
    forms = [c for c in cards.values() if c.type is CardType.FORM]
    assert len(forms) == 10
    assert all("unique" in f.keywords for f in forms)


def test_triggered_abilities(cards):
    (raider,) = cards["Raider"].abilities
    assert raider.kind == "triggered" and raider.optional
    assert (raider.when.event, raider.when.subject) == ("attacks", "self")
    assert raider.targets == (("t", Selector(type=SelectorType.ENTITY)),)
    assert (
        raider.steps[0].do == "damage"
        and raider.steps[0].amount == 2
        and raider.steps[0].to == Ref(name="t")
    )
    (sentinel,) = cards["Sentinel"].abilities
    assert sentinel.when.subject == Selector(type=SelectorType.ENTITY, controller=Controller.OPPONENT)
    assert sentinel.steps[0].to == Ref(name="event.subject")
    (scribe,) = cards["Mirror Scribe"].abilities
    assert (scribe.when.event, scribe.when.player) == ("draws", "opponent")
    enters, moves = cards["Surveyor"].abilities
    assert enters.when.subject == Selector(type=SelectorType.ENTITY, other=True)
    assert moves.when.subject == Selector(type=SelectorType.ENTITY) and moves.steps[0].resource == "host"
    assert cards["Echo Sphinx"].abilities[0].steps[0].resource == "host"
    assert cards["Rested Guard"].abilities[0].steps[0].resource == Res.AUTHORITY == "&"
    (shield,) = cards["Shieldbearer"].abilities
    step = shield.steps[0]
    assert (step.do, step.to, step.health, step.duration) == (
        "modify",
        Ref(name="self"),
        2,
        "end_of_turn",
    )
    assert cards["Gatekeeper"].abilities[0].when.event == "would_create"
    assert cards["Dawn Shrine"].abilities[0].when.player == "you"
    assert cards["Dusk Shrine"].abilities[0].steps[0].to == Ref(name="your_host")


def test_activated_and_during_abilities(cards):
    (pinger,) = cards["Pinger"].abilities
    assert pinger.kind == "activated" and pinger.once_per_turn and pinger.cost == ()
    (adept,) = cards["Adept"].abilities
    assert adept.cost == (Res.STRIFE, Res.GENERIC) and not adept.once_per_turn
    assert adept.steps[0].power == 1 and adept.steps[0].duration == "end_of_turn"
    (ritual,) = cards["Morning Ritual"].abilities
    assert (ritual.kind, ritual.phase, ritual.steps[0].do) == ("during", "start", "draw")


def test_sorceries(cards):
    first, second = cards["Fork Bolt"].abilities
    assert first.kind == second.kind == "spell" and first.targets == second.targets
    harsh = cards["Harsh Rite"].abilities[0].steps
    bulwark = cards["Bulwark Rite"].abilities[0].steps
    assert [s.do for s in harsh] == [s.do for s in bulwark] == ["damage", "modify"]
    assert (harsh[1].link, bulwark[1].link) == ("then", "and")
    assert (
        harsh[1].to == Ref(name="t") and harsh[1].health == 2 and harsh[1].duration == "permanent"
    )
    assert cards["Dampen"].abilities[0].steps[0].power == 0
    assert cards["Doom"].abilities[0].targets[0][1].type == "host"
    assert cards["Soul Lock"].abilities[0].steps[0].soul == 3
    assert cards["Flash Spark"].is_fast and cards["Redirect"].is_fast
    assert cards["Redirect"].abilities[0].steps[0].do == "retarget"
    assert cards["Scatter"].abilities[0].targets[0][1] == Selector(
        type=SelectorType.ENTITY, count=2, up_to=True
    )
    assert cards["Twin Draw"].abilities[0].steps[0].who == "each"
    assert cards["Mutual Blast"].abilities[0].steps[0].to == Ref(name="each_host")
    assert cards["Sweep"].abilities[0].steps[0].to == Ref(all=Selector(type=SelectorType.ENTITY))
    assert cards["Cull"].abilities[0].steps[0].to == Ref(
        choose=Selector(type=SelectorType.ENTITY, controller=Controller.OPPONENT)
    )
    assert cards["Cull"].abilities[0].targets == ()
    assert [s.do for s in cards["Grim Chain"].abilities[0].steps] == ["destroy", "damage", "draw"]
    search = cards["Tutor"].abilities[0].steps[0]
    assert (
        search.filter == Selector(type=SelectorType.CARD, card_type=CardType.ENTITY, subtype="Human")
        and search.reveal
    )
    wolf = cards["Call Wolf"].abilities[0].steps[0]
    assert (wolf.do, wolf.token, wolf.amount) == ("create_token", "Wolf", 1)
    assert cards["Exposure"].abilities[0].steps[0].who == "opponent"
    assert cards["Windfall"].abilities[0].steps[0].resource == "%"


def test_lingering_and_equipment(cards):
    beacon = cards["Beacon"]
    assert beacon.is_lingering and [a.kind for a in beacon.abilities] == ["static"]
    blade = cards["Iron Blade"]
    assert blade.is_equipment and not blade.is_lingering
    spell, static = blade.abilities
    assert spell.targets == (("t", Selector(type=SelectorType.PERMANENT)),) and spell.steps[0].do == "equip"
    assert static.affects == "equipped" and static.power == 2


def test_ambushes(cards):
    (snare,) = cards["Snare"].abilities
    assert snare.kind == "ambush" and snare.when.subject == Selector(
        type=SelectorType.ENTITY, controller=Controller.OPPONENT
    )
    assert snare.steps[0].to == Ref(name="event.subject")
    (backlash,) = cards["Backlash"].abilities
    assert (backlash.when.event, backlash.when.player) == ("cast", "opponent")
    assert [s.do for s in backlash.steps] == ["damage", "draw"]
    tower = cards["Watchtower"]
    assert tower.is_lingering and [a.kind for a in tower.abilities] == ["ambush", "static"]
    assert tower.abilities[0].steps == () and tower.abilities[1].power == -1


# --------------------------------------------------------------------------- inline cards

BANISHER = {
    "name": "Banisher",
    "type": "sorcery",
    "resource": "strife",
    "cost": "£",
    "abilities": [
        {"kind": "spell", "targets": {"t": "entity"}, "steps": [{"do": "banish", "to": "t"}]}
    ],
}


def test_load_card_table_inline():
    card = load_card_table(BANISHER, "tests/scenarios/x.toml")
    assert card.name == "Banisher" and card.abilities[0].steps[0].do == "banish"


def test_load_card_table_names_source_card_and_field():
    bad = {**BANISHER, "cost": "£X"}
    with pytest.raises(CardError) as info:
        load_card_table(bad, "tests/scenarios/x.toml")
    assert "tests/scenarios/x.toml: card 'Banisher': field 'cost': unknown cost symbol 'X'" in str(
        info.value
    )


def test_load_card_table_checks_tokens_against_pool():
    caller = {
        "name": "Caller",
        "type": "sorcery",
        "cost": "%",
        "abilities": [{"kind": "spell", "steps": [{"do": "create_token", "token": "Wolf"}]}],
    }
    assert load_card_table(caller, "s.toml", pool=default_pool()).resource is Res.AMITY
    bad = {
        **caller,
        "abilities": [{"kind": "spell", "steps": [{"do": "create_token", "token": "Bear"}]}],
    }
    with pytest.raises(CardError, match="unknown token 'Bear'"):
        load_card_table(bad, "s.toml", pool=default_pool())


# --------------------------------------------------------------------------- refusals

ENTITY = """
[[card]]
name = "Bad"
type = "entity"
resource = "strife"
cost = "£"
health = 2
power = 2
"""
SORCERY = """
[[card]]
name = "Bad"
type = "sorcery"
resource = "strife"
cost = "£"
"""
SPELL = SORCERY + '[[card.abilities]]\nkind = "spell"\n'

BAD_CASES = [
    # (id, file text, field, fragment of the message)
    ("unknown card field", ENTITY + 'colour = "red"\n', "colour", "unknown field 'colour'"),
    (
        "unknown type",
        ENTITY.replace('"entity"', '"creature"'),
        "type",
        "unknown card type 'creature'",
    ),
    (
        "unknown keyword",
        ENTITY + 'keywords = ["flying"]\n',
        "keywords[0]",
        "unknown keyword 'flying'",
    ),
    (
        "unknown resource",
        ENTITY.replace('"strife"', '"fire"'),
        "resource",
        "unknown resource 'fire'",
    ),
    ("bad cost symbol", ENTITY.replace('"£"', '"£X"'), "cost", "unknown cost symbol 'X'"),
    (
        "wrong type int",
        ENTITY.replace("health = 2", 'health = "2"'),
        "health",
        "expected an integer",
    ),
    (
        "wrong type float",
        ENTITY.replace("power = 2", "power = 2.5"),
        "power",
        "expected an integer",
    ),
    ("wrong type list", ENTITY + 'keywords = "fast"\n', "keywords", "expected an array"),
    ("wrong type cost", ENTITY.replace('"£"', "3"), "cost", "expected a string"),
    ("subtype with space", ENTITY + 'subtypes = ["Human Wizard"]\n', "subtypes[0]", "one word"),
    ("missing health", ENTITY.replace("health = 2\n", ""), "health", "missing"),
    ("missing power", ENTITY.replace("power = 2\n", ""), "power", "missing"),
    ("missing cost", ENTITY.replace('cost = "£"\n', ""), "cost", "missing"),
    (
        "token missing power",
        '[[card]]\nname = "Bad"\ntype = "token"\nhealth = 1\n',
        "power",
        "missing",
    ),
    (
        "token with cost",
        '[[card]]\nname = "Bad"\ntype = "token"\ncost = "&"\nhealth = 1\npower = 1\n',
        "cost",
        "never played",
    ),
    (
        "host missing soul",
        '[[card]]\nname = "Bad"\ntype = "host"\nresource = "strife"\nhealth = 8\n',
        "soul",
        "missing",
    ),
    (
        "host missing health",
        '[[card]]\nname = "Bad"\ntype = "host"\nresource = "strife"\nsoul = 5\n',
        "health",
        "missing",
    ),
    (
        "host missing resource",
        '[[card]]\nname = "Bad"\ntype = "host"\nhealth = 8\nsoul = 5\n',
        "resource",
        "typed resource",
    ),
    (
        "host generic resource",
        '[[card]]\nname = "Bad"\ntype = "host"\nresource = "generic"\nhealth = 8\nsoul = 5\n',
        "resource",
        "typed resource",
    ),
    ("soul on entity", ENTITY + "soul = 3\n", "soul", "has no soul"),
    (
        "lingering on form",
        '[[card]]\nname = "Bad"\ntype = "form"\ncost = "&"\nkeywords = ["lingering"]\n'
        '[[card.abilities]]\nkind = "static"\naffects = "your_host"\nhealth = 1\n',
        "keywords",
        "INVALID_KEYWORD Lingering on Form",
    ),
    (
        "unknown ability kind",
        ENTITY + '[[card.abilities]]\nkind = "passive"\n',
        "abilities[0].kind",
        "unknown ability kind 'passive'",
    ),
    (
        "unknown ability field",
        ENTITY + '[[card.abilities]]\nkind = "static"\naffects = "self"\npower = 1\ncolour = 1\n',
        "abilities[0].colour",
        "unknown field 'colour'",
    ),
    (
        "unknown event",
        ENTITY + '[[card.abilities]]\nkind = "triggered"\n'
        'when = { event = "attackz", subject = "self" }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].when.event",
        "unknown event 'attackz' (known: ",
    ),
    (
        "unknown when field",
        ENTITY + '[[card.abilities]]\nkind = "triggered"\n'
        'when = { event = "attacks", subject = "self", foo = 1 }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].when.foo",
        "unknown field 'foo'",
    ),
    (
        "unknown trigger player",
        ENTITY + '[[card.abilities]]\nkind = "triggered"\n'
        'when = { event = "draws", player = "me" }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].when.player",
        "unknown player 'me'",
    ),
    (
        "subject on subjectless event",
        ENTITY + '[[card.abilities]]\nkind = "triggered"\n'
        'when = { event = "start_of_turn", subject = "self" }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].when.subject",
        "has no subject",
    ),
    (
        "start_of_phase without phase",
        ENTITY + '[[card.abilities]]\nkind = "triggered"\n'
        'when = { event = "start_of_phase" }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].when.phase",
        "missing",
    ),
    (
        "trigger without when",
        ENTITY + '[[card.abilities]]\nkind = "triggered"\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].when",
        "missing",
    ),
    (
        "unknown primitive",
        SPELL + 'steps = [ { do = "explode" } ]\n',
        "abilities[0].steps[0].do",
        "unknown primitive 'explode'",
    ),
    (
        "unknown step field",
        SPELL + 'steps = [ { do = "draw", amount = 1, foo = 1 } ]\n',
        "abilities[0].steps[0].foo",
        "unknown field 'foo'",
    ),
    (
        "field of another primitive",
        SPELL + 'steps = [ { do = "draw", amount = 1, to = "self" } ]\n',
        "abilities[0].steps[0].to",
        "unknown field 'to'",
    ),
    (
        "missing step amount",
        SPELL + 'targets = { t = "entity" }\nsteps = [ { do = "damage", to = "t" } ]\n',
        "abilities[0].steps[0].amount",
        "missing",
    ),
    (
        "zero amount",
        SPELL + 'steps = [ { do = "draw", amount = 0 } ]\n',
        "abilities[0].steps[0].amount",
        "at least 1",
    ),
    (
        "unknown link",
        SPELL + 'steps = [ { do = "draw" }, { do = "draw", link = "or" } ]\n',
        "abilities[0].steps[1].link",
        "unknown link 'or'",
    ),
    (
        "and on first step",
        SPELL + 'steps = [ { do = "draw", link = "and" } ]\n',
        "abilities[0].steps[0].link",
        "first step",
    ),
    (
        "unknown duration",
        SPELL + 'targets = { t = "entity" }\n'
        'steps = [ { do = "modify", to = "t", power = 1, duration = "forever" } ]\n',
        "abilities[0].steps[0].duration",
        "unknown duration 'forever'",
    ),
    (
        "unknown who",
        SPELL + 'steps = [ { do = "draw", who = "both" } ]\n',
        "abilities[0].steps[0].who",
        "unknown player 'both'",
    ),
    (
        "modify without stats",
        SPELL + 'targets = { t = "entity" }\nsteps = [ { do = "modify", to = "t" } ]\n',
        "abilities[0].steps[0].do",
        "at least one of health, power, soul",
    ),
    (
        "power on a host",
        SPELL + 'targets = { t = "host" }\nsteps = [ { do = "modify", to = "t", power = 1 } ]\n',
        "abilities[0].steps[0].power",
        "Hosts have no power",
    ),
    (
        "destroy a host",
        SPELL + 'steps = [ { do = "destroy", to = "your_host" } ]\n',
        "abilities[0].steps[0].to",
        "destroy acts on entity, not on host",
    ),
    (
        "gain generic",
        SPELL + 'steps = [ { do = "gain_resource", amount = 1, resource = "$" } ]\n',
        "abilities[0].steps[0].resource",
        "generic",
    ),
    (
        "unknown gain resource",
        SPELL + 'steps = [ { do = "gain_resource", amount = 1, resource = "gold" } ]\n',
        "abilities[0].steps[0].resource",
        "unknown resource 'gold'",
    ),
    (
        "grant unknown keyword",
        SPELL + 'targets = { t = "entity" }\n'
        'steps = [ { do = "grant", to = "t", keyword = "flying" } ]\n',
        "abilities[0].steps[0].keyword",
        "unknown grantable keyword 'flying'",
    ),
    (
        "undeclared target",
        SPELL + 'steps = [ { do = "damage", amount = 1, to = "u" } ]\n',
        "abilities[0].steps[0].to",
        "unknown reference 'u': not a declared target",
    ),
    (
        "unused target",
        SPELL + 'targets = { t = "entity", u = "entity" }\n'
        'steps = [ { do = "damage", amount = 1, to = "t" } ]\n',
        "abilities[0].targets.u",
        "no step uses it",
    ),
    (
        "reserved target name",
        SPELL + 'targets = { self = "entity" }\n'
        'steps = [ { do = "damage", amount = 1, to = "self" } ]\n',
        "abilities[0].targets.self",
        "bad target name",
    ),
    (
        "unknown selector type",
        SPELL + 'targets = { t = "creature" }\n'
        'steps = [ { do = "damage", amount = 1, to = "t" } ]\n',
        "abilities[0].targets.t",
        "unknown selector type 'creature'",
    ),
    (
        "card selector as target",
        SPELL + 'targets = { t = "card" }\nsteps = [ { do = "damage", amount = 1, to = "t" } ]\n',
        "abilities[0].targets.t",
        "cannot be used as a target",
    ),
    (
        "unknown selector field",
        SPELL + 'targets = { t = { type = "entity", colour = "red" } }\n'
        'steps = [ { do = "damage", amount = 1, to = "t" } ]\n',
        "abilities[0].targets.t.colour",
        "unknown field 'colour'",
    ),
    (
        "selector without type",
        SPELL + 'targets = { t = { controller = "you" } }\n'
        'steps = [ { do = "damage", amount = 1, to = "t" } ]\n',
        "abilities[0].targets.t.type",
        "missing",
    ),
    (
        "unknown controller",
        ENTITY + '[[card.abilities]]\nkind = "static"\n'
        'affects = { type = "entity", controller = "me" }\npower = 1\n',
        "abilities[0].affects.controller",
        "unknown controller 'me'",
    ),
    (
        "count outside targets",
        SPELL + 'steps = [ { do = "damage", amount = 1, to = { all = { type = "entity", '
        "count = 2 } } } ]\n",
        "abilities[0].steps[0].to.all.count",
        "unknown field 'count'",
    ),
    (
        "bad table reference",
        SPELL + 'steps = [ { do = "damage", amount = 1, to = { any = "entity" } } ]\n',
        "abilities[0].steps[0].to",
        "exactly one key, all or choose",
    ),
    (
        "card_type off a card selector",
        SPELL + 'targets = { t = { type = "entity", card_type = "form" } }\n'
        'steps = [ { do = "destroy", to = "t" } ]\n',
        "abilities[0].targets.t.card_type",
        'type = "card"',
    ),
    (
        "search filter not a card",
        SPELL + 'steps = [ { do = "search", filter = "entity" } ]\n',
        "abilities[0].steps[0].filter",
        "cannot be used as a search filter",
    ),
    (
        "event.subject in a spell",
        SPELL + 'steps = [ { do = "destroy", to = "event.subject" } ]\n',
        "abilities[0].steps[0].to",
        "needs an event",
    ),
    (
        "static without effect",
        ENTITY + '[[card.abilities]]\nkind = "static"\naffects = "self"\n',
        "abilities[0].kind",
        "needs at least one of",
    ),
    (
        "static unknown affects word",
        ENTITY + '[[card.abilities]]\nkind = "static"\naffects = "everyone"\npower = 1\n',
        "abilities[0].affects",
        "unknown affects word or selector type 'everyone'",
    ),
    (
        "equipped off equipment",
        ENTITY + '[[card.abilities]]\nkind = "static"\naffects = "equipped"\npower = 1\n',
        "abilities[0].affects",
        "only for Equipment",
    ),
    (
        "soul on entities",
        ENTITY + '[[card.abilities]]\nkind = "static"\naffects = "entity"\nsoul = 1\n',
        "abilities[0].soul",
        "only Hosts have soul",
    ),
    (
        "unknown phase",
        ENTITY
        + '[[card.abilities]]\nkind = "during"\nphase = "lunch"\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].phase",
        "unknown phase 'lunch'",
    ),
    (
        "activated cost symbol S",
        ENTITY + '[[card.abilities]]\nkind = "activated"\ncost = "Ⓢ"\n'
        'steps = [ { do = "draw" } ]\n',
        "abilities[0].cost",
        "once_per_turn",
    ),
    (
        "optional on activated",
        ENTITY + '[[card.abilities]]\nkind = "activated"\noptional = true\n'
        'steps = [ { do = "draw" } ]\n',
        "abilities[0].optional",
        "unknown field 'optional'",
    ),
    (
        "optional not bool",
        ENTITY + '[[card.abilities]]\nkind = "triggered"\noptional = "yes"\n'
        'when = { event = "attacks", subject = "self" }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].optional",
        "expected true or false",
    ),
    ("empty steps", SPELL + "steps = []\n", "abilities[0].steps", "at least one step"),
    (
        "spell on an entity",
        ENTITY + '[[card.abilities]]\nkind = "spell"\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].kind",
        "an Entity cannot have a spell ability",
    ),
    (
        "triggered on plain sorcery",
        SORCERY + '[[card.abilities]]\nkind = "triggered"\n'
        'when = { event = "draws" }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].kind",
        "non-Lingering Sorcery cannot have a triggered ability",
    ),
    ("sorcery without abilities", SORCERY, "abilities", "needs a spell ability"),
    (
        "lingering sorcery without static",
        SORCERY + 'keywords = ["lingering"]\n',
        "abilities",
        "needs a spell ability",
    ),
    (
        "equip off equipment",
        SPELL + 'targets = { t = "permanent" }\nsteps = [ { do = "equip", to = "t" } ]\n',
        "abilities[0].steps[0].do",
        "only the first step of an Equipment",
    ),
    (
        "equipment without equip",
        SPELL.replace('cost = "£"', 'cost = "£"\nsubtypes = ["Equipment"]')
        + 'steps = [ { do = "draw" } ]\n',
        "abilities",
        "first step is equip",
    ),
    (
        "equipment with two spells",
        SPELL.replace('cost = "£"', 'cost = "£"\nsubtypes = ["Equipment"]')
        + 'targets = { t = "permanent" }\nsteps = [ { do = "equip", to = "t" } ]\n'
        + '[[card.abilities]]\nkind = "spell"\nsteps = [ { do = "draw" } ]\n',
        "abilities",
        "exactly one spell",
    ),
    (
        "equipment on an entity",
        ENTITY + 'subtypes = ["Equipment"]\n',
        "subtypes[0]",
        "Sorcery subtype",
    ),
    (
        "ambush without ambush ability",
        '[[card]]\nname = "Bad"\ntype = "ambush"\ncost = "£"\n',
        "abilities",
        "exactly one ambush ability",
    ),
    (
        "ambush with when and while",
        '[[card]]\nname = "Bad"\ntype = "ambush"\ncost = "£"\n'
        '[[card.abilities]]\nkind = "ambush"\nwhen = { event = "attacks" }\n'
        'while = { condition = "opponent_attacking" }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].when",
        "exactly one requirement",
    ),
    (
        "unknown state condition",
        '[[card]]\nname = "Bad"\ntype = "ambush"\ncost = "£"\n'
        '[[card.abilities]]\nkind = "ambush"\nwhile = { condition = "raining" }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].while.condition",
        "unknown state condition 'raining'",
    ),
    (
        "empty ambush steps",
        '[[card]]\nname = "Bad"\ntype = "ambush"\ncost = "£"\n'
        '[[card.abilities]]\nkind = "ambush"\nwhen = { event = "attacks" }\nsteps = []\n',
        "abilities[0].steps",
        "only a Lingering Ambush",
    ),
    (
        "unknown token",
        SPELL + 'steps = [ { do = "create_token", token = "Bear" } ]\n',
        "abilities[0].steps[0].token",
        "unknown token 'Bear'",
    ),
    ("name with brackets", ENTITY.replace('"Bad"', '"Bad [print 2]"'), "name", "cannot contain"),
    (
        "power on sorcery",
        SPELL.replace('cost = "£"', 'cost = "£"\npower = 1') + 'steps = [ { do = "draw" } ]\n',
        "power",
        "has no power",
    ),
    (
        "stat filter in static affects",
        ENTITY + '[[card.abilities]]\nkind = "static"\n'
        'affects = { type = "entity", power_max = 2 }\npower = 1\n',
        "abilities[0].affects.power_max",
        "stat filters are not allowed",
    ),
    (
        "unknown subject selector type",
        ENTITY + '[[card.abilities]]\nkind = "triggered"\n'
        'when = { event = "attacks", subject = "creature" }\nsteps = [ { do = "draw" } ]\n',
        "abilities[0].when.subject",
        "unknown selector type 'creature'",
    ),
    (
        "wrong type of a selector field",
        SPELL + 'targets = { t = { type = "entity", power_max = "two" } }\n'
        'steps = [ { do = "damage", amount = 1, to = "t" } ]\n',
        "abilities[0].targets.t.power_max",
        "expected an integer",
    ),
    (
        "wrong type of a step field",
        SPELL + 'steps = [ { do = "draw", amount = "1" } ]\n',
        "abilities[0].steps[0].amount",
        "expected an integer",
    ),
    (
        "steps not a list",
        SPELL + 'steps = { do = "draw" }\n',
        "abilities[0].steps",
        "expected an array of tables",
    ),
    (
        "first strike on sorcery",
        SPELL.replace('cost = "£"', 'cost = "£"\nkeywords = ["first_strike"]')
        + 'steps = [ { do = "draw" } ]\n',
        "keywords",
        "INVALID_KEYWORD first_strike on Sorcery",
    ),
]


@pytest.mark.parametrize(
    ("text", "field", "fragment"), [c[1:] for c in BAD_CASES], ids=[c[0] for c in BAD_CASES]
)
def test_bad_card_is_refused_naming_file_card_and_field(tmp_path, text, field, fragment):
    path, error = refuse(tmp_path, text)
    name = "Bad [print 2]" if "[print" in text else "Bad"
    prefix = f"{path}: card '{name}': field '{field}': "
    matching = [p for p in error.problems if p.startswith(prefix) and fragment in p]
    assert matching, "\n".join(error.problems)
    assert str(error) == "\n".join(error.problems)


@pytest.mark.rules("22.3")
def test_s155_lingering_only_on_sorceries_and_ambushes(tmp_path):
    path, error = refuse(tmp_path, ENTITY + 'keywords = ["lingering"]\n')
    assert f"{path}: card 'Bad': field 'keywords': INVALID_KEYWORD Lingering on Entity" in str(
        error
    )
    # Lingering is fine on sorceries (Beacon) and ambushes (Watchtower).
    assert default_pool()["Beacon"].is_lingering and default_pool()["Watchtower"].is_lingering


def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    text = (
        ENTITY
        + 'colour = "red"\nkeywords = ["lingering", "flying"]\n'
        + """
[[card]]
name = "Worse"
type = "entity"
cost = "£"
health = "two"
[[card.abilities]]
kind = "triggered"
when = { event = "attackz" }
steps = [ { do = "damage", amount = 1, to = "nobody" } ]
"""
    )
    path, error = refuse(tmp_path, text)
    expected = [
        "card 'Bad': field 'colour'",
        "card 'Bad': field 'keywords[1]'",
        "card 'Bad': field 'keywords': INVALID_KEYWORD Lingering on Entity",
        "card 'Worse': field 'health'",
        "card 'Worse': field 'power': missing",
        "card 'Worse': field 'abilities[0].when.event'",
        "card 'Worse': field 'abilities[0].steps[0].to'",
    ]
    for fragment in expected:
        assert any(p.startswith(path) and fragment in p for p in error.problems), fragment
    assert len(error.problems) == len(expected)


def test_duplicate_names_in_one_file(tmp_path):
    path, error = refuse(tmp_path, ENTITY + ENTITY)
    assert f"{path}: card 'Bad': field 'name': duplicate card name 'Bad'" in str(error)


def test_duplicate_names_across_files(tmp_path):
    first = write(tmp_path, ENTITY, "a.toml")
    second = write(tmp_path, ENTITY, "b.toml")
    with pytest.raises(CardError) as info:
        load_cards([first, second])
    assert (
        f"{second}: card 'Bad': field 'name': duplicate card name 'Bad' (first defined in {first}"
        in str(info.value)
    )


def test_duplicate_test_ids(tmp_path):
    text = ENTITY + 'test_id = "E1"\n' + ENTITY.replace('"Bad"', '"Other"') + 'test_id = "E1"\n'
    path, error = refuse(tmp_path, text)
    assert "field 'test_id': 'E1' is already used by 'Bad'" in str(error)


def test_card_without_name_is_numbered(tmp_path):
    path, error = refuse(tmp_path, ENTITY + ENTITY.replace('name = "Bad"\n', ""))
    assert f"{path}: card #2: field 'name': missing" in str(error)


def test_toml_syntax_error_names_the_file(tmp_path):
    path, error = refuse(tmp_path, '[[card]]\nname = "Bad\n')
    assert str(error).startswith(f"{path}: TOML syntax error")


def test_unknown_top_level_key(tmp_path):
    path, error = refuse(tmp_path, ENTITY.replace("[[card]]", "[[cards]]"))
    assert f"{path}: unknown top-level key 'cards'" in str(error)


def test_token_must_be_a_token(tmp_path):
    text = (
        SPELL
        + 'steps = [ { do = "create_token", token = "Grunt" } ]\n'
        + ENTITY.replace('"Bad"', '"Grunt"')
    )
    path, error = refuse(tmp_path, text)
    assert "field 'abilities[0].steps[0].token': 'Grunt' is an Entity, not a token" in str(error)


def test_directory_loads_every_toml(tmp_path):
    write(tmp_path, ENTITY, "a.toml")
    write(tmp_path, ENTITY.replace('"Bad"', '"Good"'), "b.toml")
    assert sorted(load_cards(tmp_path)) == ["Bad", "Good"]


def test_cost_letters(tmp_path):
    card = load_cards(write(tmp_path, ENTITY.replace('"£"', '"SSG"'), "ok.toml"))["Bad"]
    assert card.cost == (Res.STRIFE, Res.STRIFE, Res.GENERIC)


# --------------------------------------------------------------------------- nearest names


@pytest.mark.parametrize(
    ("text", "field", "hint"),
    [
        (ENTITY + 'keywords = ["first_strik"]\n', "keywords[0]", "did you mean 'first_strike'?"),
        (
            ENTITY + '[[card.abilities]]\nkind = "triggered"\n'
            'when = { event = "attack", subject = "self" }\nsteps = [ { do = "draw" } ]\n',
            "abilities[0].when.event",
            "did you mean 'attacks'?",
        ),
        (SPELL + 'steps = [ { do = "dammage" } ]\n', "abilities[0].steps[0].do", "did you mean 'damage'?"),
        (
            SPELL + 'targets = { t = "entitty" }\nsteps = [ { do = "destroy", to = "t" } ]\n',
            "abilities[0].targets.t",
            "did you mean 'entity'?",
        ),
        (ENTITY + 'helth = 2\n', "helth", "did you mean 'health'?"),
        (ENTITY.replace('"entity"', '"entiy"'), "type", "did you mean 'entity'?"),
    ],
    ids=["keyword", "trigger event", "primitive", "selector type", "field", "card type"],
)
def test_unknown_names_suggest_the_nearest(tmp_path, text, field, hint):
    path, error = refuse(tmp_path, text)
    prefix = f"{path}: card 'Bad': field '{field}': unknown "
    assert any(p.startswith(prefix) and hint in p for p in error.problems), error.problems


def test_the_shipped_pool_loads_and_names_every_file():
    """Every data file loads; a broken copy of one is refused naming that file."""
    from hostwcg_env.cards.loader import DATA_DIR

    files = sorted(DATA_DIR.glob("*.toml"))
    assert len(load_cards(files)) == len(default_pool())
    assert {f.name for f in files} >= {
        "hosts.toml", "named.toml", "tokens.toml", "pool_authority.toml", "pool_strife.toml",
        "pool_emotion.toml", "pool_amity.toml", "pool_neutral.toml", "test_cards.toml",
    }
