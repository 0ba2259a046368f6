"""English rules text rendered from a card's data, so printed text cannot drift from behaviour.

:func:`card_text` turns a :class:`CardDef` (keywords, abilities, steps, selectors, triggers)
into the sentences a player reads, e.g.::

    >>> card_text(pool["Xin, Master of Pain"])
    'When this Entity attacks, it can deal 2 damage to target Entity.'

The loader stores this text in ``CardDef.text`` when a card file gives none (docs/cards.md).
Each effect primitive writes its own part (``text`` on its class in engine/primitives.py, with
the words of engine/wording.py); :data:`PRIMITIVE_WORDS` lists what each one's text always
contains, which the tests check.
"""

from __future__ import annotations

from typing import Any

from hostwcg_env.engine.carddef import Ability, CardDef, CardType, Res, Selector, Step, Trigger
from hostwcg_env.engine.primitives import PRIMITIVE_CLASSES, as_primitive
from hostwcg_env.engine.wording import (
    KEYWORD_WORDS,
    SELF_NOUNS,
    TextCtx,
    article,
    cap,
    condition_text,
    selector_noun,
    stat_changes,
)

# The words each primitive's text always contains (lower case), whatever its fields.
PRIMITIVE_WORDS: dict[str, str] = {do: cls.spec().words for do, cls in PRIMITIVE_CLASSES.items()}

KEYWORD_ORDER = ("fast", "lingering", "first_strike", "cannot_block")
PHASE_WORDS = {
    "start": "Start Phase",
    "action1": "Action Phase 1",
    "battle": "Battle Phase",
    "action2": "Action Phase 2",
    "end": "End Phase",
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
        return cap(_static(card, ab)) + "."
    ctx = TextCtx(card, ab)
    body = _steps(ctx, ab.steps)
    if ab.kind == "spell":
        return cap(body) + "."
    if ab.kind == "triggered":
        assert ab.when is not None
        clause = _trigger(card, ab.when)
        if ab.optional:
            body = _optional(card, ab, body)
        return f"{cap(clause)}, {body}."
    if ab.kind == "activated":
        cost = "".join(r.value for r in ab.cost)
        head = " ".join(x for x in ("Ⓢ" if ab.once_per_turn else "", cost) if x) or "Free"
        fast = "Fast. " if ab.fast else ""
        return f"{fast}{head}: {cap(body)}."
    if ab.kind == "ambush":
        if ab.when is not None:
            req = _trigger(card, ab.when)
            if req.startswith("Whenever "):
                req = "When " + req[len("Whenever ") :]  # an Ambush is activated once (A39)
        else:
            req = "While " + CONDITION_WORDS.get(ab.while_ or "", str(ab.while_))
        text = f"Activate: {cap(req)}"
        return f"{text}; {body}." if body else f"{text}."
    if ab.kind == "during":
        return f"During your {PHASE_WORDS.get(ab.phase or '', ab.phase)}, you may {body}."
    return body


def _optional(card: CardDef, ab: Ability, body: str) -> str:
    subject_self = ab.when is not None and ab.when.subject == "self"
    if subject_self and card.type in (CardType.ENTITY, CardType.TOKEN):
        return "it can " + body
    return "you may " + body


# --------------------------------------------------------------------------- stats


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
    adds = stat_changes(ab.health or None, ab.power or None, ab.soul or None, signed=True)
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


def _steps(tc: TextCtx, steps: tuple[Step, ...]) -> str:
    out = ""
    for i, st in enumerate(steps):
        if st.cond:  # "if ..., ..." (A54): the condition is read before what it governs
            head = condition_text(tc, st.cond)
            text = f"{head}, {as_primitive(st).text(tc)}"
        else:
            text = as_primitive(st).text(tc)
        if i == 0:
            out = text
        elif st.link == "and":
            out += " and " + text
        else:
            out += ", then " + text
    return out


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
        return article(selector_noun(subject))
    return article(default)


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
    """The card ``name`` stands for (``lookup.lookup``: any case, a unique start or word), else
    the names it could be or the closest ones. ``Match.problem`` words a refusal."""
    from .lookup import lookup

    m = lookup(name.strip(), pool)
    return (pool[m.name], []) if m.name is not None else (None, m.near)
