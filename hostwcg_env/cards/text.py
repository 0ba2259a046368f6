"""English rules text rendered from a card's data, so printed text cannot drift from behaviour.

:func:`card_text` turns a :class:`CardDef` (keywords, abilities, steps, selectors, triggers)
into the sentences a player reads, e.g.::

    >>> card_text(pool["Xin, Master of Pain"])
    'When this Entity attacks, it can deal 2 damage to target Entity.'

The loader stores this text in ``CardDef.text`` when a card file gives none (docs/cards.md).
Every primitive is rendered with the words in :data:`PRIMITIVE_WORDS`, which the tests check.
"""

from __future__ import annotations

from typing import Any

from hostwcg_env.engine.carddef import Ability, CardDef, CardType, Ref, Res, Selector, Step, Trigger

# The words each primitive's text always contains (lower case), whatever its fields.
PRIMITIVE_WORDS: dict[str, str] = {
    "damage": "damage",
    "destroy": "destroy",
    "heal": "heal",
    "draw": "draw",
    "discard": "discard",
    "gain_resource": "resource",
    "modify": "gain",
    "set": "become",
    "grant": "gain",
    "create_token": "create",
    "return_to_hand": "return",
    "banish": "banish",
    "move_slot": "move",
    "gain_control": "gain control",
    "equip": "equip",
    "search": "search",
    "reveal_hand": "reveal",
    "look_top": "look at",
    "retarget": "change the targets",
}

KEYWORD_WORDS = {
    "fast": "Fast",
    "first_strike": "First Strike",
    "cannot_block": "Cannot Block",
    "lingering": "Lingering",
    "unique": "Unique",
}
KEYWORD_ORDER = ("fast", "lingering", "first_strike", "cannot_block")
PHASE_WORDS = {
    "start": "Start Phase",
    "action1": "Action Phase 1",
    "battle": "Battle Phase",
    "action2": "Action Phase 2",
    "end": "End Phase",
}
RES_WORDS = {"&": "&", "£": "£", "!": "!", "%": "%"}
NUMBERS = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five"}
TYPE_NOUNS = {
    "entity": ("Entity", "Entities"),
    "host": ("Host", "Hosts"),
    "permanent": ("permanent", "permanents"),
    "entity_or_host": ("Entity or Host", "Entities or Hosts"),
    "effect": ("effect", "effects"),
}
CARD_TYPE_NOUNS = {
    "entity": "Entity card",
    "sorcery": "Sorcery card",
    "form": "Form card",
    "ambush": "Ambush card",
}
SELF_NOUNS = {
    CardType.ENTITY: "this Entity",
    CardType.TOKEN: "this Entity",
    CardType.FORM: "this Form",
    CardType.HOST: "this Host",
}
CONDITION_WORDS = {
    "opponent_controls_entity": "your opponent controls an Entity",
    "you_control_no_entity": "you control no Entity",
    "your_hand_empty": "your hand is empty",
    "opponent_attacking": "an Entity your opponent controls is attacking",
}


def card_text(card: CardDef) -> str:
    """The card's rules text: keywords first, then each ability in order, one sentence each."""
    parts: list[str] = []
    kws = [KEYWORD_WORDS[k] for k in KEYWORD_ORDER if k in card.keywords]
    if kws:
        parts.append(", ".join(kws) + ".")
    for ab in card.abilities:
        sentence = ability_text(card, ab)
        if sentence:
            parts.append(sentence)
    if not parts and card.type is CardType.HOST:
        # a Host is never played and has no rules text: say what it brings (11.3.1, 13)
        kind = {"&": "Authority", "£": "Strife", "!": "Emotion", "%": "Amity"}.get(
            card.resource.value, "Generic"
        )
        return f"{kind} Host ({card.resource.value}): health {card.health}, soul {card.soul}."
    if not parts and card.type is CardType.TOKEN:
        return f"Entity token, {card.health} health and {card.power} power."
    return " ".join(parts)


def ability_text(card: CardDef, ab: Ability) -> str:
    """One ability as a sentence (ends with a full stop)."""
    if ab.kind == "static":
        return _cap(_static(card, ab)) + "."
    ctx = _Ctx(card, ab)
    body = _steps(ctx, ab.steps)
    if ab.kind == "spell":
        return _cap(body) + "."
    if ab.kind == "triggered":
        assert ab.when is not None
        clause = _trigger(card, ab.when)
        if ab.optional:
            body = _optional(card, ab, body)
        return f"{_cap(clause)}, {body}."
    if ab.kind == "activated":
        cost = "".join(r.value for r in ab.cost)
        head = " ".join(x for x in ("Ⓢ" if ab.once_per_turn else "", cost) if x) or "Free"
        fast = "Fast. " if ab.fast else ""
        return f"{fast}{head}: {_cap(body)}."
    if ab.kind == "ambush":
        if ab.when is not None:
            req = _trigger(card, ab.when)
            if req.startswith("Whenever "):
                req = "When " + req[len("Whenever ") :]  # an Ambush is activated once (A39)
        else:
            req = "While " + CONDITION_WORDS.get(ab.while_ or "", str(ab.while_))
        text = f"Activate: {_cap(req)}"
        return f"{text}; {body}." if body else f"{text}."
    if ab.kind == "during":
        return f"During your {PHASE_WORDS.get(ab.phase or '', ab.phase)}, you may {body}."
    return body


# --------------------------------------------------------------------------- helpers


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def _count(n: int) -> str:
    return NUMBERS.get(n, str(n))


class _Ctx:
    """What the step renderer needs: the card, the ability's targets, and which were named."""

    def __init__(self, card: CardDef, ab: Ability) -> None:
        self.card = card
        self.ab = ab
        self.targets = dict(ab.targets)
        self.named: set[str] = set()
        self.last: str | None = None  # the last reference rendered, for "it"


def _optional(card: CardDef, ab: Ability, body: str) -> str:
    subject_self = ab.when is not None and ab.when.subject == "self"
    if subject_self and card.type in (CardType.ENTITY, CardType.TOKEN):
        return "it can " + body
    return "you may " + body


# --------------------------------------------------------------------------- selectors


def selector_noun(sel: Selector, plural: bool = False) -> str:
    """``Knight Entity you control with power 2 or less`` (without an article)."""
    if sel.type == "card":
        noun = CARD_TYPE_NOUNS.get(sel.card_type or "", "card")
        if plural:
            noun += "s"
        if sel.subtype:
            noun = f"{sel.subtype} {noun}"
        return noun
    one, many = TYPE_NOUNS.get(sel.type, (sel.type, sel.type + "s"))
    noun = many if plural else one
    if sel.subtype:
        noun = f"{sel.subtype} {noun}"
    if sel.other:
        noun = f"other {noun}"
    if sel.controller == "you":
        noun += " you control"
    elif sel.controller == "opponent":
        noun += " your opponent controls"
    filters = []
    for stat in ("power", "health"):
        low, high = getattr(sel, f"{stat}_min"), getattr(sel, f"{stat}_max")
        if low is not None and high is not None:
            filters.append(f"{stat} {low} to {high}")
        elif low is not None:
            filters.append(f"{stat} {low} or more")
        elif high is not None:
            filters.append(f"{stat} {high} or less")
    if filters:
        noun += " with " + " and ".join(filters)
    return noun


def _article(noun: str) -> str:
    if noun.startswith("other "):
        return "another " + noun[len("other ") :]
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _target_phrase(sel: Selector) -> str:
    if sel.count == 1 and not sel.up_to:
        return "target " + selector_noun(sel)
    n = _count(sel.count) if sel.count > 1 else "one"
    noun = selector_noun(sel, plural=sel.count > 1)
    return f"{'up to ' if sel.up_to else ''}{n} target {noun}"


# --------------------------------------------------------------------------- references


def _ref(ctx: _Ctx, ref: Ref | None, possessive: bool = False) -> str:
    """The object(s) a step acts on, as a noun phrase ("target Entity", "it", "your Host")."""
    if ref is None:
        return ""
    if ref.all is not None:
        noun = selector_noun(ref.all, plural=True)
        text = "all " + noun if not ref.all.other else "all " + noun
        ctx.last = None
        return text + ("'" if possessive else "")
    if ref.choose is not None:
        ctx.last = None
        return _article(selector_noun(ref.choose)) + ("'s" if possessive else "")
    name = ref.name or ""
    if name in ctx.targets:
        sel = ctx.targets[name]
        if name in ctx.named:
            text = "it" if sel.count == 1 else "them"
            if possessive:
                text = "its" if sel.count == 1 else "their"
            return text
        ctx.named.add(name)
        ctx.last = name
        text = _target_phrase(sel)
        return text + ("'s" if possessive and sel.count == 1 else "'" if possessive else "")
    if name == "self" and ctx.ab.when is not None and ctx.ab.when.subject == "self":
        return "its" if possessive else "it"  # "When this Entity blocks, it gains ..."
    if name in ("your_host", "opponent_host") and ctx.last == name:
        return "its" if possessive else "it"  # "Your Host heals 1 and it gains +1 health."
    ctx.last = name
    words = {
        "self": SELF_NOUNS.get(ctx.card.type, "this card"),
        "event.subject": _subject_noun(ctx),
        "your_host": "your Host",
        "opponent_host": "your opponent's Host",
        "each_host": "each Host",
    }
    text = words.get(name, name)
    if possessive:
        text += "'s"
    return text


def _subject_noun(ctx: _Ctx) -> str:
    when = ctx.ab.when
    if when is not None and when.event.startswith("would_"):
        return "that card"
    return "that Entity"


def _is_host_ref(ctx: _Ctx, ref: Ref | None) -> bool:
    if ref is None:
        return False
    if ref.name in ("your_host", "opponent_host", "each_host"):
        return True
    if ref.name in ctx.targets:
        return ctx.targets[ref.name].type == "host"
    if ref.name == "self":
        return ctx.card.type is CardType.HOST
    return False


def _verb(ctx: _Ctx, ref: Ref | None, one: str, many: str) -> str:
    """Agreement: "gains" for one object, "gain" for several."""
    if ref is None:
        return one
    if ref.all is not None or ref.name == "each_host":
        return many if ref.all is not None else one
    if ref.name in ctx.targets and ctx.targets[ref.name].count > 1:
        return many
    return one


# --------------------------------------------------------------------------- stats


def _stat_changes(health: int | None, power: int | None, soul: int | None, signed: bool) -> str:
    parts = []
    for stat, value in (("health", health), ("power", power), ("soul", soul)):
        if value is None or (signed and value == 0):
            continue
        parts.append(f"{value:+d} {stat}" if signed else f"{value} {stat}")
    return " and ".join(parts)


def _static(card: CardDef, ab: Ability) -> str:
    aff = ab.affects
    if isinstance(aff, Selector):
        noun = selector_noun(aff, plural=True)
        subject, one = noun[:1].upper() + noun[1:], False
    else:
        subject, one = {
            "self": (SELF_NOUNS.get(card.type, "this card"), True),
            "equipped": ("the equipped card", True),
            "your_host": ("your Host", True),
            "opponent_host": ("your opponent's Host", True),
            "each_host": ("each Host", True),
        }.get(str(aff), (str(aff), True))
    clauses = []
    gains = []
    adds = _stat_changes(ab.health or None, ab.power or None, ab.soul or None, signed=True)
    if adds:
        gains.append(adds)
    gains += [KEYWORD_WORDS[kw] for kw in ab.grants if kw != "cannot_block"]
    if gains:
        clauses.append(f"{'gains' if one else 'gain'} {' and '.join(gains)}")
    sets = [
        (k, v)
        for k, v in (("health", ab.set_health), ("power", ab.set_power), ("soul", ab.set_soul))
        if v is not None
    ]
    if len(sets) == 1 and not clauses and one:
        subject += "'s" if not subject.endswith("s") else "'"
        clauses.append(f"{sets[0][0]} becomes {sets[0][1]}")
    elif sets:
        clauses.append(
            f"{'becomes' if one else 'become'} " + " and ".join(f"{v} {k}" for k, v in sets)
        )
    if "cannot_block" in ab.grants:
        clauses.append("cannot block")
    text = f"{subject} " + " and ".join(clauses)
    if card.type is CardType.AMBUSH:
        text = "while this card is in play, " + text  # a Lingering Ambush, once activated (A39)
    return text


# --------------------------------------------------------------------------- steps


def _steps(ctx: _Ctx, steps: tuple[Step, ...]) -> str:
    out = ""
    for i, st in enumerate(steps):
        text = _step(ctx, st)
        if i == 0:
            out = text
        elif st.link == "and":
            out += " and " + text
        else:
            out += ", then " + text
    return out


def _who(who: str, you: str, opponent: str, each: str) -> str:
    return {"you": you, "opponent": opponent, "each": each}.get(who, you)


def _cards(n: int) -> str:
    return f"{_count(n)} {_plural(n, 'card', 'cards')}"


def _step(ctx: _Ctx, st: Step) -> str:
    do = st.do
    if do == "damage":
        return f"deal {st.amount} damage to {_ref(ctx, st.to)}"
    if do == "destroy":
        return f"destroy {_ref(ctx, st.to)}"
    if do == "heal":
        if _is_host_ref(ctx, st.to):
            target = _ref(ctx, st.to)
            return f"{target} {_verb(ctx, st.to, 'heals', 'heal')} {st.amount}"
        return f"heal {st.amount} damage from {_ref(ctx, st.to)}"
    if do == "draw":
        return _who(
            st.who,
            f"draw {_cards(st.amount)}",
            f"your opponent draws {_cards(st.amount)}",
            f"each player draws {_cards(st.amount)}",
        )
    if do == "discard":
        return _who(
            st.who,
            f"discard {_cards(st.amount)}",
            f"your opponent discards {_cards(st.amount)}",
            f"each player discards {_cards(st.amount)}",
        )
    if do == "gain_resource":
        if st.resource == "host":
            what = f"{_plural(st.amount, 'resource', 'resources')} of your Host's type"
        else:
            sym = st.resource.value if isinstance(st.resource, Res) else str(st.resource)
            what = f"{RES_WORDS.get(sym, sym)} {_plural(st.amount, 'resource', 'resources')}"
        return _who(
            st.who,
            f"gain {st.amount} {what}",
            f"your opponent gains {st.amount} {what}",
            f"each player gains {st.amount} {what}",
        )
    if do == "modify":
        target = _ref(ctx, st.to)
        changes = _stat_changes(st.health, st.power, st.soul, signed=True)
        return f"{target} {_verb(ctx, st.to, 'gains', 'gain')} {changes}{_duration(st)}"
    if do == "set":
        changes = _stat_changes(st.health, st.power, st.soul, signed=False)
        given = [k for k in ("health", "power", "soul") if getattr(st, k) is not None]
        if len(given) == 1:
            target = _ref(ctx, st.to, possessive=True)
            verb = _verb(ctx, st.to, "becomes", "become")
            return f"{target} {given[0]} {verb} {getattr(st, given[0])}{_duration(st)}"
        target = _ref(ctx, st.to)
        return f"{target} {_verb(ctx, st.to, 'becomes', 'become')} {changes}{_duration(st)}"
    if do == "grant":
        target = _ref(ctx, st.to)
        kw = KEYWORD_WORDS.get(st.keyword or "", str(st.keyword))
        return f"{target} {_verb(ctx, st.to, 'gains', 'gain')} {kw}{_duration(st)}"
    if do == "create_token":
        token = st.token or "token"
        if st.amount == 1:
            return f"create {_article(token)} token"
        return f"create {_count(st.amount)} {token} tokens"
    if do == "return_to_hand":
        target = _ref(ctx, st.to)
        owner = "its owner's" if _verb(ctx, st.to, "1", "2") == "1" else "their owners'"
        return f"return {target} to {owner} hand"
    if do == "banish":
        return f"banish {_ref(ctx, st.to)}"
    if do == "move_slot":
        return f"move {_ref(ctx, st.to)} to another open frontrow slot you control"
    if do == "gain_control":
        return f"gain control of {_ref(ctx, st.to)}"
    if do == "equip":
        return f"equip {_ref(ctx, st.to)}"
    if do == "search":
        noun = selector_noun(st.filter) if st.filter is not None else "card"
        reveal = ", reveal it" if st.reveal else ""
        return f"search your deck for {_article(noun)}{reveal} and put it into your hand, then shuffle your deck"
    if do == "reveal_hand":
        return _who(
            st.who,
            "reveal your hand",
            "your opponent reveals their hand",
            "each player reveals their hand",
        )
    if do == "look_top":
        n = st.amount
        if n == 1:
            return "look at the top card of your deck and put it back"
        return f"look at the top {_count(n)} cards of your deck and put them back in any order"
    if do == "retarget":
        return f"change the targets of {_ref(ctx, st.to)}"
    return do.replace("_", " ")


def _duration(st: Step) -> str:
    return " until end of turn" if st.duration == "end_of_turn" else ""


# --------------------------------------------------------------------------- triggers


def _player_noun(player: str) -> tuple[str, bool]:
    """(noun, third person singular?) for a trigger's player filter."""
    return {"you": ("you", False), "opponent": ("your opponent", True)}.get(
        player, ("a player", True)
    )


def _subject_phrase(card: CardDef, subject: Any, player: str, default: str) -> str:
    """The trigger's subject as a noun phrase with an article."""
    if subject == "self":
        return SELF_NOUNS.get(card.type, "this card")
    if subject == "other":
        return "another " + default
    if isinstance(subject, Selector):
        return _article(selector_noun(subject))
    return _article(default)


PLAY_VERBS = {
    "play": ("play", "plays", "card", "played"),
    "create": ("create", "creates", "Entity", "created"),
    "cast": ("cast", "casts", "Sorcery", "cast"),
    "embody": ("embody", "embodies", "Form", "embodied"),
    "lay": ("lay", "lays", "Ambush", "laid"),
}
DID_EVENTS = {
    "played": "play",
    "created": "create",
    "cast": "cast",
    "embodied": "embody",
    "laid": "lay",
}


def _trigger(card: CardDef, tr: Trigger) -> str:
    ev = tr.event
    word = "When" if tr.subject == "self" else "Whenever"
    player, third = _player_noun(tr.player)
    if ev == "start_of_game":
        return "At the start of the game"
    if ev in ("start_of_turn", "end_of_turn"):
        which = "start" if ev == "start_of_turn" else "end"
        whose = {"you": "your turn", "opponent": "your opponent's turn"}.get(tr.player, "each turn")
        return f"At the {which} of {whose}"
    if ev == "start_of_phase":
        phase = PHASE_WORDS.get(tr.phase or "", str(tr.phase))
        whose = {"you": "your", "opponent": "your opponent's"}.get(tr.player, "each")
        return f"At the start of {whose} {phase}"
    if ev.startswith("would_") or ev in DID_EVENTS:
        verb = ev[len("would_") :] if ev.startswith("would_") else DID_EVENTS[ev]
        base, third_form, noun, participle = PLAY_VERBS[verb]
        if tr.subject == "self":
            if ev.startswith("would_"):
                return f"When {SELF_NOUNS.get(card.type, 'this card')} would be {participle}"
            return f"When {SELF_NOUNS.get(card.type, 'this card')} is {participle}"
        what = _subject_phrase(card, tr.subject, tr.player, noun)
        if (
            isinstance(tr.subject, Selector)
            and tr.subject.controller != "any"
            and tr.player == "any"
        ):
            # "Whenever an Entity you control is created"
            be = "would be" if ev.startswith("would_") else "is"
            return f"Whenever {what} {be} {participle}"
        form = third_form if third else base
        if ev.startswith("would_"):
            return f"Whenever {player} would {base} {what}"
        return f"Whenever {player} {form} {what}"
    subject_default = "Entity"
    what = _subject_phrase(card, tr.subject, tr.player, subject_default)
    if (
        tr.player != "any"
        and tr.subject is None
        and ev
        in (
            "attacks",
            "blocks",
            "destroyed",
            "enters_slot",
            "leaves_play",
            "moves_slot",
            "destroys",
            "loses_sickness",
        )
    ):
        control = "you control" if tr.player == "you" else "your opponent controls"
        what = f"an Entity {control}"
    phrases = {
        "enters_slot": "enters a slot",
        "leaves_play": "leaves play",
        "moves_slot": "moves slots",
        "attacks": "attacks",
        "blocks": "blocks",
        "destroyed": "is destroyed",
        "destroys": "destroys an Entity",
        "loses_sickness": "loses Creation Sickness",
    }
    if ev in phrases:
        return f"{word} {what} {phrases[ev]}"
    if ev == "draws":
        return f"Whenever {player} {'draws' if third else 'draw'} a card"
    if ev == "discards":
        return f"Whenever {player} {'discards' if third else 'discard'} a card"
    if ev == "gains_resource":
        return f"Whenever {player} {'gains' if third else 'gain'} a resource"
    if ev in ("host_damaged", "host_healed"):
        host = {"you": "your Host", "opponent": "your opponent's Host"}.get(tr.player, "a Host")
        return f"Whenever {host} {'takes damage' if ev == 'host_damaged' else 'heals'}"
    return f"{word} {ev.replace('_', ' ')}"


# --------------------------------------------------------------------------- a card in full


def resource_name(r: Res) -> str:
    """``authority &``: a resource's name and symbol."""
    from hostwcg_env.engine.carddef import RES_NAMES

    return next(name for name, res in RES_NAMES.items() if res is r) + f" {r.value}"


def stats_text(c: CardDef) -> str:
    """``H2/P3`` for Entities and tokens (health/power), ``H8/S5`` for Hosts (health/soul)."""
    if c.type is CardType.HOST:
        return f"H{c.health}/S{c.soul}"
    if c.type in (CardType.ENTITY, CardType.TOKEN):
        return f"H{c.health}/P{c.power}"
    return ""


def card_sheet(card: CardDef) -> list[str]:
    """A card in full, one fact a line: name, type, resource, cost, stats, keywords, text."""
    type_line = card.type.value.capitalize()
    if card.subtypes:
        type_line += " - " + " ".join(card.subtypes)
    out = [card.name, f"  type:       {type_line}", f"  resource:   {resource_name(card.resource)}"]
    if card.type not in (CardType.HOST, CardType.TOKEN):
        out.append(f"  cost:       {card.cost_text() or 'free'}")
    if card.type is CardType.HOST:
        out.append(f"  stats:      health {card.health}, soul {card.soul}")
    elif card.type in (CardType.ENTITY, CardType.TOKEN):
        out.append(f"  stats:      health {card.health}, power {card.power}")
    if card.keywords:
        out.append(f"  keywords:   {', '.join(sorted(card.keywords))}")
    if card.abilities:
        out.append(f"  abilities:  {', '.join(a.kind for a in card.abilities)}")
    if card.test_id:
        out.append(f"  test id:    {card.test_id}")
    out.append(f"  text:       {card.text or '(no text)'}")
    return out


def find_card(pool: dict[str, CardDef], name: str) -> tuple[CardDef | None, list[str]]:
    """The card called ``name`` (case-insensitive), else close names to suggest."""
    import difflib

    if name in pool:
        return pool[name], []
    folded = {n.lower(): n for n in pool}
    if name.lower() in folded:
        return pool[folded[name.lower()]], []
    near = difflib.get_close_matches(name.lower(), list(folded), n=5, cutoff=0.5)
    near += [n for n in folded if name.lower() in n and n not in near]
    return None, [folded[n] for n in near[:5]]
