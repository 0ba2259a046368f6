"""Build a game position from a scenario's ``[setup]`` (docs/scenarios.md "File format").

Every field is checked; a bad one raises ScenarioError naming the file and the field.
"""

from __future__ import annotations

import random
from typing import Any

from hostwcg_env.cards import default_pool, load_card_tables
from hostwcg_env.engine import CardDef, CardType, Game, RuleConfig
from hostwcg_env.engine.kinds import ItemKind, ModKind, Phase, PhaseStep, Zone
from hostwcg_env.engine.state import GameState, Mod, Obj, Player, StackItem
from hostwcg_env.engine.zones import new_obj

from .checks import slot_problem

FILLER = "Squire"
SIDE_FIELDS = {"host", "hand", "deck", "damage_zone", "drop", "banished", "pool", "ap", "forms",
               "front", "back"}
SETUP_FIELDS = {"turn", "phase", "step", "priority", "first_player", "new_game", "seed", "A", "B",
                "stack"}
ENTITY_FIELDS = {"card", "damage", "sick", "attacked", "markers", "owner", "mods", "face_down", "label"}
HOST_FIELDS = {"card", "mods", "label"}
CARD_FIELDS = {"card", "label"}  # a table standing for a card in a list (hand, deck, forms ...)
STACK_FIELDS = {"controller", "card", "targets", "label"}
MOD_FIELDS = {"health", "power", "soul", "set_health", "set_power", "set_soul", "duration"}


class ScenarioError(ValueError):
    """A malformed scenario: the message names the file and the field."""


def registry_for(doc: dict[str, Any], source: str) -> dict[str, CardDef]:
    pool = default_pool()
    extra = doc.get("cards", [])
    if extra:
        pool.update(load_card_tables(extra, source, pool))
    return pool


def setup_game(doc: dict[str, Any], source: str = "<scenario>",
               labels: dict[str, int] | None = None) -> Game:
    """The game a scenario document describes, ready at its first decision. The objects the
    setup names with ``label`` are added to ``labels`` (label -> object id), if given."""
    builder = Builder(doc, source)
    game = builder.build()
    if labels is not None:
        labels.update(builder.labels)
    return game


class Builder:
    def __init__(self, doc: dict[str, Any], source: str) -> None:
        self.doc = doc
        self.src = source
        self.labels: dict[str, int] = {}
        self.reg = registry_for(doc, source)
        try:
            self.config = RuleConfig().with_overrides(doc.get("config", {}))
        except ValueError as e:
            raise ScenarioError(f"{source}: [config]: {e}") from None

    def fail(self, field: str, msg: str) -> ScenarioError:
        return ScenarioError(f"{self.src}: {field}: {msg}")

    def card(self, name: Any, field: str) -> CardDef:
        if not isinstance(name, str) or name not in self.reg:
            import difflib

            near = difflib.get_close_matches(str(name), list(self.reg), n=3)
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise self.fail(field, f"unknown card {name!r}{hint}")
        return self.reg[name]

    def build(self) -> Game:
        setup = self.doc.get("setup", {})
        for key in setup:
            if key not in SETUP_FIELDS:
                raise self.fail(f"setup.{key}", f"unknown field (known: {', '.join(sorted(SETUP_FIELDS))})")
        if setup.get("new_game"):
            return self.new_game(setup)
        s = GameState(config=self.config, registry=self.reg, rng=random.Random(setup.get("seed", 0)))
        self.s = s
        self.game = Game(s)
        turn = int(setup.get("turn", 1))
        first = "AB".index(setup.get("first_player", "A"))
        s.first_player = first
        s.turn = turn
        s.tp = first if turn % 2 == 1 else 1 - first
        phase = setup.get("phase", "action1")
        if phase not in ("start", "action1", "battle", "action2", "end"):
            raise self.fail("setup.phase", f"unknown phase {phase!r}")
        s.phase = Phase(phase)
        step = setup.get("step", {"battle": "declare", "end": "main"}.get(phase, ""))
        if step not in {st.value for st in PhaseStep}:
            raise self.fail("setup.step", f"unknown step {step!r} (known: "
                            f"{', '.join(st.value for st in PhaseStep if st.value)})")
        s.step = PhaseStep(step)
        s.priority = "AB".index(setup.get("priority", "AB"[s.tp]))
        s.started = True
        s.players = [self.blank(0), self.blank(1)]
        for p, side in ((0, "A"), (1, "B")):
            self.side(p, setup.get(side, {}), f"setup.{side}")
        for i, entry in enumerate(setup.get("stack", [])):
            self.stack_item(entry, f"setup.stack[{i}]")
        s.version += 1
        s.board += 1
        s.modv += 1
        return Game.from_state(s)

    def new_game(self, setup: dict[str, Any]) -> Game:
        decks = []
        for side in ("A", "B"):
            t = setup.get(side, {})
            host = t.get("host", "Test Host")
            deck = t.get("deck", 50)
            main = [FILLER] * deck if isinstance(deck, int) else list(deck)
            for n in [host, *main]:
                self.card(n, f"setup.{side}")
            decks.append((host, main))
        return Game.new(decks[0], decks[1], self.config, seed=int(setup.get("seed", 0)), registry=self.reg)

    def blank(self, p: int) -> Player:
        c = self.config
        return Player(idx=p, front=[None] * c.frontrow_slots, back=[None] * c.backrow_slots)

    def obj(self, card: CardDef, p: int, zone: str, ctrl: int | None = None, slot: int = -1,
            face_down: bool = False, token: bool = False, sick: bool = False,
            attached_to: int | None = None, damage: int = 0, attacked: bool = False) -> Obj:
        o = new_obj(self.game, card, p, p if ctrl is None else ctrl, Zone(zone), slot=slot,
                    face_down=face_down, token=token, sick=sick, attached_to=attached_to)
        o.damage = damage
        o.attacked = attacked
        if not card.type == CardType.HOST and not card.type == CardType.TOKEN:
            self.s.players[p].decklist.append(card.name)
        return o

    def names(self, value: Any, field: str) -> list[tuple[str, str | None]]:
        """(name, label) of each card of a list: names, ``{ card, label }`` tables, or a count
        of filler Squires."""
        if isinstance(value, int):
            return [(FILLER, None)] * value
        if not isinstance(value, list):
            raise self.fail(field, "must be a list of card names or a count")
        out: list[tuple[str, str | None]] = []
        for j, v in enumerate(value):
            if isinstance(v, dict):
                self.known(v, CARD_FIELDS, f"{field}[{j}]")
                out.append((v.get("card"), v.get("label")))  # type: ignore[arg-type]
            else:
                out.append((str(v), None))
        return out

    def known(self, table: dict[str, Any], allowed: set[str], field: str) -> None:
        for key in table:
            if key not in allowed:
                raise self.fail(f"{field}.{key}", f"unknown field (known: {', '.join(sorted(allowed))})")

    def label(self, name: Any, oid: int, field: str) -> None:
        """Name an object for the identity checks (docs/scenarios.md "Labels")."""
        if name is None:
            return
        if not isinstance(name, str) or not name:
            raise self.fail(f"{field}.label", "must be a non-empty string")
        if name in self.labels:
            raise self.fail(f"{field}.label", f"label {name!r} is used twice")
        self.labels[name] = oid

    def side(self, p: int, t: dict[str, Any], field: str) -> None:
        s = self.s
        pl = s.players[p]
        for key in t:
            if key not in SIDE_FIELDS:
                raise self.fail(f"{field}.{key}", f"unknown field (known: {', '.join(sorted(SIDE_FIELDS))})")
        host = t.get("host", "Test Host")
        host_t = host if isinstance(host, dict) else {"card": host}
        self.known(host_t, HOST_FIELDS, f"{field}.host")
        h = self.obj(self.card(host_t.get("card"), f"{field}.host"), p, "host")
        pl.host = h.id
        self.label(host_t.get("label"), h.id, f"{field}.host")
        self.mods(h, host_t.get("mods", []), f"{field}.host.mods")
        for zone, key, default in (("hand", "hand", []), ("deck", "deck", 30), ("damage", "damage_zone", []),
                                   ("drop", "drop", []), ("banished", "banished", [])):
            for j, (n, lab) in enumerate(self.names(t.get(key, default), f"{field}.{key}")):
                o = self.obj(self.card(n, f"{field}.{key}"), p, zone, face_down=zone == "damage")
                box = pl.owner_zone(Zone(zone))
                assert box is not None
                box.append(o.id)
                self.label(lab, o.id, f"{field}.{key}[{j}]")
        for j, (n, lab) in enumerate(self.names(t.get("forms", []), f"{field}.forms")):
            o = self.obj(self.card(n, f"{field}.forms"), p, "form")
            pl.forms.append(o.id)
            self.label(lab, o.id, f"{field}.forms[{j}]")
        pl.pool = {str(k): int(v) for k, v in t.get("pool", {}).items() if int(v)}
        for k in pl.pool:
            if k not in "&£!%$":
                raise self.fail(f"{field}.pool", f"unknown resource {k!r}")
        pl.ap = int(t.get("ap", 4))
        for row, key in (("front", "front"), ("back", "back")):
            slots = pl.front if row == "front" else pl.back
            for k, v in t.get(key, {}).items():
                i = int(k)
                if not 0 <= i < len(slots):
                    what = "frontrow" if row == "front" else "backrow"
                    raise self.fail(f"{field}.{key}.{k}", f"no such place: {'AB'[p]} has {len(slots)} "
                                    f"{what} slots ({row[0]}0-{row[0]}{len(slots) - 1})")
                self.place(p, row, i, v, f"{field}.{key}.{k}")

    def place(self, p: int, row: str, i: int, v: Any, field: str) -> None:
        t = v if isinstance(v, dict) else {"card": v}
        for key in t:
            if key not in ENTITY_FIELDS:
                raise self.fail(f"{field}.{key}", f"unknown field (known: {', '.join(sorted(ENTITY_FIELDS))})")
        card = self.card(t.get("card"), f"{field}.card")
        owner = "AB".index(t.get("owner", "AB"[p]))
        if row == "front" and card.type not in (CardType.ENTITY, CardType.TOKEN):
            raise self.fail(field, f"{card.name} is not an Entity (4.4.1)")
        if row == "back" and card.type not in (CardType.SORCERY, CardType.AMBUSH):
            raise self.fail(field, f"{card.name} is not a Sorcery or Ambush (4.5.1)")
        face_down = bool(t.get("face_down", card.type is CardType.AMBUSH))
        o = self.obj(card, owner, row, ctrl=p, slot=i, face_down=face_down,
                     damage=int(t.get("damage", 0)), sick=bool(t.get("sick", False)),
                     attacked=bool(t.get("attacked", False)), token=card.type is CardType.TOKEN)
        (self.s.players[p].front if row == "front" else self.s.players[p].back)[i] = o.id
        self.label(t.get("label"), o.id, field)
        self.mods(o, t.get("mods", []), f"{field}.mods")
        for j, (m, lab) in enumerate(self.names(t.get("markers", []), f"{field}.markers")):
            mc = self.card(m, f"{field}.markers[{j}]")
            mo = self.obj(mc, owner, "marker", ctrl=p, attached_to=o.id)
            o.markers = (*o.markers, mo.id)
            self.label(lab, mo.id, f"{field}.markers[{j}]")

    def mods(self, o: Obj, mods: list[dict[str, Any]], field: str) -> None:
        for j, m in enumerate(mods):
            for key in m:
                if key not in MOD_FIELDS:
                    raise self.fail(f"{field}[{j}].{key}", "unknown field")
            eot = m.get("duration", "permanent") == "end_of_turn"
            for stat in ("health", "power", "soul"):
                if stat in m:
                    o.mods = (*o.mods, Mod(ModKind.ADD, stat, int(m[stat]), self.game.tick(), eot))
                if "set_" + stat in m:
                    o.mods = (*o.mods, Mod(ModKind.SET, stat, int(m["set_" + stat]), self.game.tick(), eot))

    def stack_item(self, t: dict[str, Any], field: str) -> None:
        s = self.s
        self.known(t, STACK_FIELDS, field)
        p = "AB".index(t.get("controller", "A"))
        card = self.card(t.get("card"), f"{field}.card")
        o = self.obj(card, p, "stack", face_down=card.type is CardType.AMBUSH)
        places = list(t.get("targets", []))
        targets: dict[str, list[int]] = {}
        for ai, ab in enumerate(card.abilities):
            if ab.kind != "spell":
                continue
            for name, sel in ab.targets:
                got = targets.setdefault(f"{ai}:{name}", [])
                for _ in range(sel.count):
                    if places:
                        place = places.pop(0)
                        problem = slot_problem(s, place)
                        if problem:
                            raise self.fail(f"{field}.targets", problem)
                        oid = self.game.resolve_place(place)
                        if oid is None:
                            raise self.fail(f"{field}.targets", f"{place} is empty")
                        got.append(oid)
        item = StackItem(sid=s.next_sid, kind=ItemKind.CARD, controller=p, source=o.id, source_name=card.name,
                         card=card, targets=targets, obj=o.id, face_down=o.face_down,
                         in_response_to=s.stack[-1].sid if s.stack else None)
        s.next_sid += 1
        s.stack.append(item)
        self.label(t.get("label"), o.id, field)
