"""The engine's random-play fuzz: games between shipped decks played by seeded random choices,
every invariant checked after every action, a sample replayed and cloned (``run_chunk``); and
every RuleConfig flag off its default, one variant per value (``flag_variants``).

Used by tests/test_fuzz.py, tests/test_fuzz_flags.py and ``scripts/fuzz.py`` (the large runs).

Invariants checked after every action (``check_invariants``):
- every object id in ``state.objs`` is in exactly one place (an owner zone list, a slot, the
  Host, a form zone, a marker list, a card item on the stack or the card being resolved), each
  id in a container exists in ``objs``, and each object's ``zone`` / ``slot`` / ``owner`` /
  ``controller`` / ``attached_to`` agree with where it is found;
- per owner, the number of non-token cards stays 50 main + 1 Host; tokens are only in play;
- no pool value and no action-point total is negative;
- the stack is empty whenever the phase changes (a phase or turn change inside one ``apply``
  only happens from a state whose stack was empty);
- the game is either over (no legal action) or waits on a decision with distinct legal actions
  whose text notation round-trips; the turn never exceeds the turn limit, and a game truncated
  at the turn limit ends with ``turn == turn_limit``.

Every game is played by the project's one game runner (``hostwcg_env.analysis.runner``) with a
driver for both seats and a visitor that checks the invariants, so the fuzz covers the very loop
the ladder, balance studies and replays play through. The reference replay starts the game from
the deck files directly (``Game.new``), so it also checks that the runner's decks give the same
game.
"""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path
from typing import Any

import hostwcg_env  # noqa: F401  (registers the default card pool)
from hostwcg_env.analysis.records import DeckRef
from hostwcg_env.analysis.runner import GameSpec, Visitor, play
from hostwcg_env.cards import default_ruleset, load_deck
from hostwcg_env.engine import Action, Game, RuleConfig
from hostwcg_env.engine.config import _CHOICES

DECK_DIR = Path(hostwcg_env.__file__).parent / "cards" / "decks"
DECKS = {p.stem: load_deck(p) for p in sorted(DECK_DIR.glob("*.toml"))}
REFS = {stem: DeckRef.of(deck, id=stem) for stem, deck in DECKS.items()}
PAIRS = [(a, b) for a in DECKS for b in DECKS]  # ordered: seat-swapped and mirrors

TOTAL_GAMES = 2000
GAMES_PER_PAIR = math.ceil(TOTAL_GAMES / len(PAIRS))
CHUNK = 100  # games per test function
SAMPLE_EVERY = 50  # every 50th game is replayed and cloned
CLONES_PER_SAMPLE = 3

MAIN_SIZE = 50
OWNER_ZONES = ("deck", "hand", "drop", "damage", "banished")
TOKEN_ZONES = frozenset(("front", "back", "form", "marker"))

_ROUND_TRIPPED: set[Action] = set()


class FuzzFailure(AssertionError):
    pass


# --------------------------------------------------------------------------- invariants
def _stack_card_ids(s) -> list[int]:  # type: ignore[no-untyped-def]
    """Objects in zone 'stack': card items on the stack, plus the card item that is being
    resolved while its controller chooses its slot (popped, held by the decision)."""
    out = [it.obj for it in s.stack if it.kind == "card" and it.obj is not None]
    d = s.decision
    v = getattr(d.task, "item", None) if d is not None else None
    if v is not None and v.kind == "card" and v.obj is not None:
        if all(v.sid != it.sid for it in s.stack):
            out.append(v.obj)
    return out


def _where_is(s, oid: int) -> list[str]:  # type: ignore[no-untyped-def]
    """Every place that lists ``oid`` (for failure messages only)."""
    places = []
    for p, pl in enumerate(s.players):
        for z in OWNER_ZONES + ("forms",):
            if oid in getattr(pl, z):
                places.append(f"{'AB'[p]}.{z}")
        for row in ("front", "back"):
            for i, x in enumerate(getattr(pl, row)):
                if x == oid:
                    places.append(f"{'AB'[p]}.{row}[{i}]")
        if pl.host == oid:
            places.append(f"{'AB'[p]}.host")
    for o in s.objs.values():
        if oid in o.markers:
            places.append(f"markers of {o.id} ({o.name})")
    if oid in _stack_card_ids(s):
        places.append("stack")
    return places


def check_invariants(s, cfg: RuleConfig) -> None:  # type: ignore[no-untyped-def]
    """Structural and numeric invariants of a GameState; raises AssertionError naming the problem."""
    objs = s.objs
    get = objs.get
    listed: list[int] = []
    for p, pl in enumerate(s.players):
        for z in OWNER_ZONES:
            ids = getattr(pl, z)
            listed += ids
            for oid in ids:
                o = get(oid)
                if o is None or o.zone != z or o.owner != p:
                    raise AssertionError(f"{'AB'[p]}.{z} lists {oid}: {o and (o.name, o.zone, o.owner)}")
        listed += pl.forms
        for oid in pl.forms:
            o = get(oid)
            if o is None or o.zone != "form" or o.controller != p:
                raise AssertionError(f"{'AB'[p]}.forms lists {oid}: {o and (o.name, o.zone, o.controller)}")
        for zone, row, n in (("front", pl.front, cfg.frontrow_slots), ("back", pl.back, cfg.backrow_slots)):
            if len(row) != n:
                raise AssertionError(f"{'AB'[p]}.{zone} has {len(row)} slots, not {n}")
            for i, oid in enumerate(row):
                if oid is None:
                    continue
                listed.append(oid)
                o = get(oid)
                if o is None or o.zone != zone or o.slot != i or o.controller != p:
                    raise AssertionError(
                        f"{'AB'[p]}.{zone}[{i}] holds {oid}: {o and (o.name, o.zone, o.slot, o.controller)}")
        listed.append(pl.host)
        o = get(pl.host)
        if o is None or o.zone != "host" or o.owner != p:
            raise AssertionError(f"{'AB'[p]}.host is {pl.host}: {o and (o.name, o.zone, o.owner)}")
        for r, v in pl.pool.items():
            if v < 0:
                raise AssertionError(f"{'AB'[p]} pool {r} = {v} < 0")
        if pl.ap < 0:
            raise AssertionError(f"{'AB'[p]} has {pl.ap} action points < 0")
    for sid in _stack_card_ids(s):
        listed.append(sid)
        o = get(sid)
        if o is None or o.zone != "stack":
            raise AssertionError(f"stack card item holds {sid}: {o and (o.name, o.zone)}")
    cards = [0, 0]
    for o in objs.values():
        if o.markers:
            listed += o.markers
            for m in o.markers:
                mo = get(m)
                if mo is None or mo.zone != "marker" or mo.attached_to != o.id:
                    raise AssertionError(f"{o.name} ({o.id}) lists marker {m}: "
                                         f"{mo and (mo.name, mo.zone, mo.attached_to)}")
        if o.token:
            if o.zone not in TOKEN_ZONES:
                raise AssertionError(f"token {o.name} ({o.id}) is in zone {o.zone}")
        else:
            cards[o.owner] += 1
        if o.zone == "marker" and (o.attached_to is None or o.attached_to not in objs):
            raise AssertionError(f"marker {o.name} ({o.id}) attached to {o.attached_to}")
    if len(listed) != len(objs) or len(set(listed)) != len(listed) or set(listed) != objs.keys():
        lset = set(listed)
        dups = sorted({x for x in listed if listed.count(x) > 1})
        missing = sorted(objs.keys() - lset)
        ghosts = sorted(lset - objs.keys())
        raise AssertionError(
            "objects not in exactly one place: "
            + "; ".join([f"{x} in {_where_is(s, x)}" for x in dups]
                        + [f"{x} ({objs[x].name}, zone {objs[x].zone}) nowhere" for x in missing]
                        + [f"{x} listed but not in objs" for x in ghosts]))
    if cards != [MAIN_SIZE + 1, MAIN_SIZE + 1]:
        raise AssertionError(f"non-token cards per owner {cards}, expected {MAIN_SIZE + 1} each")
    if s.turn > cfg.turn_limit:
        raise AssertionError(f"turn {s.turn} > turn limit {cfg.turn_limit}")
    if s.started and s.decisions_this_turn > cfg.max_decisions_per_turn:
        raise AssertionError(f"{s.decisions_this_turn} decisions in turn {s.turn} > cap {cfg.max_decisions_per_turn}")
    if s.over:
        if s.reason == "turn_limit" and (s.turn != cfg.turn_limit or not s.truncated or s.winner is not None):
            raise AssertionError(f"truncated at the turn limit {cfg.turn_limit} in turn {s.turn} "
                                 f"(truncated={s.truncated}, winner={s.winner})")
        if s.reason == "decision_limit" and (s.decisions_this_turn != cfg.max_decisions_per_turn
                                             or not s.truncated or s.winner is not None):
            raise AssertionError(f"decision cap {cfg.max_decisions_per_turn} ended the game after "
                                 f"{s.decisions_this_turn} decisions in the turn")
        if s.decision is not None:
            raise AssertionError(f"game over but {s.decision} is pending")
        if s.winner not in (0, 1, None):
            raise AssertionError(f"winner {s.winner!r}")
    else:
        d = s.decision
        if d is None or not d.actions:
            raise AssertionError(f"game not over but no decision with actions: {d}")
        acts = d.actions
        if len(set(acts)) != len(acts):
            raise AssertionError(f"duplicate legal actions {acts}")
        for a in acts:
            if a not in _ROUND_TRIPPED:
                if Action.parse(str(a)) != a:
                    raise AssertionError(f"notation does not round-trip: {a!r} -> {str(a)!r}")
                _ROUND_TRIPPED.add(a)


# --------------------------------------------------------------------------- one game
def action_rng(a: str, b: str, seed: int) -> random.Random:
    return random.Random(f"fuzz|{a}|{b}|{seed}")


class RandomWalk:
    """The fuzz's player for both seats, a driver of the game runner: one seeded RNG picks
    uniformly among the legal actions of every decision."""

    def __init__(self, a: str, b: str, seed: int) -> None:
        self.rng = action_rng(a, b, seed)

    def next_action(self, game: Game) -> Action:
        legal = game.legal_actions()
        return legal[self.rng.randrange(len(legal))]


class Checks(Visitor):
    """The invariants after every action, the phase rule around it, the end within a bound,
    and clones taken at the given points (before the action of that index)."""

    def __init__(self, cfg: RuleConfig, clone_at: set[int]) -> None:
        self.cfg = cfg
        self.max_actions = cfg.turn_limit * (cfg.max_decisions_per_turn + 1) + 1000
        self.clone_at = clone_at
        self.actions: list[Action] = []
        self.clones: dict[int, Game] = {}
        self.game: Game | None = None
        self._before: tuple[int, str] = (0, "")
        self._stack = 0

    def start(self, game: Game) -> None:
        self.game = game
        check_invariants(game.state, self.cfg)

    def before(self, game: Game, i: int, action: Action) -> None:
        s = game.state
        if i >= self.max_actions:
            raise AssertionError(f"no end after {i} actions (turn {s.turn})")
        if i in self.clone_at:
            self.clones[i] = game.clone()
        self._before = (s.turn, s.phase)
        self._stack = len(s.stack)
        self.actions.append(action)

    def after(self, game: Game, i: int, action: Action) -> None:
        s = game.state
        if (s.turn, s.phase) != self._before and self._stack:
            raise AssertionError(
                f"phase changed {self._before} -> {(s.turn, s.phase)} with {self._stack} item(s) on the stack")
        check_invariants(s, self.cfg)


def play_game(a: str, b: str, seed: int, sample: bool = False,
              cfg: RuleConfig | None = None) -> tuple[list[Action], Game, dict]:
    """Play one random game (the game runner, hostwcg_env/analysis/runner.py) with every
    invariant checked after every action.

    Returns the actions taken, the finished game and, for sampled games, the clones taken at
    random points ({action index: clone})."""
    cfg = cfg or RuleConfig()
    clone_at: set[int] = set()
    if sample:
        crng = random.Random(seed)
        clone_at = {crng.randrange(0, 400) for _ in range(CLONES_PER_SAMPLE)} | {0}
    checks = Checks(cfg, clone_at)
    walk = RandomWalk(a, b, seed)
    try:
        default = RuleConfig().as_dict()
        rules = tuple((k, v) for k, v in cfg.as_dict().items() if v != default[k])
        g = play(GameSpec(REFS[a], REFS[b], seed, rules=rules), visit=checks, players=(walk, walk)).game
        if not g.is_over or g.legal_actions():
            raise AssertionError("game over but legal actions remain")
        if g.state.reason == "":
            raise AssertionError("game over without a reason")
    except Exception as exc:
        where = f"decks {a} vs {b}, seed {seed}, after {len(checks.actions)} actions"
        if checks.game is not None:
            st = checks.game.state
            where += f" (turn {st.turn} {st.phase}/{st.step}, decision {st.decision})"
        tail = " | ".join(str(x) for x in checks.actions[-12:])
        raise FuzzFailure(f"{where}: {type(exc).__name__}: {exc}\n  last actions: {tail}") from exc
    return checks.actions, g, checks.clones


def event_texts(g: Game) -> list[str]:
    return [str(e) for e in g.events]


def replay(a: str, b: str, seed: int, actions: list[Action], cfg: RuleConfig | None = None) -> Game:
    g = default_ruleset(cfg or RuleConfig()).new_game(DECKS[a], DECKS[b], seed=seed)
    for act in actions:
        g.apply(act)
    return g


def _first_diff(x: list[str], y: list[str]) -> str:
    for i, (u, v) in enumerate(zip(x, y, strict=False)):
        if u != v:
            return f"event {i}: {u!r} != {v!r}"
    return f"lengths {len(x)} != {len(y)}"


def run_chunk(a: str, b: str, seeds: range, cfg: RuleConfig | None = None,
              sample_every: int = SAMPLE_EVERY) -> dict[str, int]:
    reasons: dict[str, int] = {}
    base = PAIRS.index((a, b)) * GAMES_PER_PAIR
    for seed in seeds:
        sample = (base + seed) % sample_every == 0  # every 50th game over the whole file
        actions, g, clones = play_game(a, b, seed, sample=sample, cfg=cfg)
        reasons[g.state.reason] = reasons.get(g.state.reason, 0) + 1
        if not sample:
            continue
        log = event_texts(g)
        r = replay(a, b, seed, actions, cfg)
        assert r.is_over and r.winner == g.winner, f"{a} vs {b} seed {seed}: replay ended differently"
        rlog = event_texts(r)
        assert rlog == log, f"{a} vs {b} seed {seed}: replay log differs: {_first_diff(log, rlog)}"
        for k, c in sorted(clones.items()):
            for act in actions[k:]:
                c.apply(act)
            assert c.is_over and c.winner == g.winner, f"{a} vs {b} seed {seed}: clone at {k} ended differently"
            clog = event_texts(c)
            assert clog == log, f"{a} vs {b} seed {seed}: clone at {k} differs: {_first_diff(log, clog)}"
    return reasons


# --------------------------------------------------------------------------- rule flags
# A value off the default for every numeric flag: smaller and larger boards and hands, fewer
# and more action points, short games, a tight per-turn decision cap.
NUMERIC_VALUES: dict[str, tuple[int, ...]] = {
    "frontrow_slots": (2, 7),
    "backrow_slots": (1, 6),
    "ap_per_turn": (0, 2, 7),
    "starting_hand": (0, 9),
    "turn_limit": (12,),
    "max_decisions_per_turn": (30,),
    "first_turn_ap_cut": (2, 9),  # A56: down to no # on turn 1
    "second_player_extra_cards": (2,),
    "second_turn_extra_ap": (2,),
    "second_turn_draw": (1, 3),
}


def flag_variants() -> list[tuple[str, RuleConfig]]:
    """(label, config) for the default and every flag set to each value other than its default."""
    default = RuleConfig()
    out: list[tuple[str, RuleConfig]] = [("default", default)]
    for f in dataclasses.fields(RuleConfig):
        value = getattr(default, f.name)
        if isinstance(value, bool):
            others: tuple[object, ...] = (not value,)
        elif f.name in _CHOICES:
            others = tuple(v for v in _CHOICES[f.name] if v != value)
        else:
            others = NUMERIC_VALUES[f.name]  # a KeyError here: a new numeric flag needs values
        for v in others:
            changed: dict[str, Any] = {f.name: v}
            out.append((f"{f.name}={str(v).lower()}", dataclasses.replace(default, **changed)))
    return out
