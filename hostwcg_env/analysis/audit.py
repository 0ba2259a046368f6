"""The blunder audit: replay kept games and classify each choice by documented rules
(``docs/agents.md``, "The blunder audit").

    hostwcg audit agents/ladder_results/*.jsonl* [--games N] [--examples K]

Rules, each judged from what the deciding player could see when it chose:

* **R1** a harmful effect (damage, destroy, banish, return to hand, gain control, a stat cut,
  harmful Equipment) targets the chooser's own object while an opposing target was legal, or
  while it could decline (an "up to" target);
* **R2** a helpful effect (a stat boost, healing, a helpful keyword, helpful Equipment) targets
  an opposing object while one of the chooser's own was legal;
* **R3** an attack that loses the attacker for nothing: by the numbers on the board (25.4)
  the attacked Entity destroys the attacker and survives; judged where the choice is made
  (declaring an attack whose every possible target is such a fight, or choosing such a target
  while another was legal);
* **R4** a stall: the player's third own turn in a row (and each stall after it counts once)
  in which it played, activated and attacked nothing although a card was playable, while not
  ahead in the damage race;
* **R5** leaving the hand empty: the turn player ends its turn with no card in hand while the
  opponent has an Entity to attack with, although it could have kept one (it played its last
  card that turn, or could still spend an action point to draw, 11.3.2): the next Host damage
  it takes loses the game (1.1.3);
* **R6** self-harm by choice: a card played or an ability activated by choice whose harmful
  effect can only target the chooser's own objects, and does;
* **R7** drawing out: an action point spent to draw the last card of the player's deck (11.3.2):
  a player with no card in its deck loses at once (1.1, 1.1.2).

R1 and R2 are the clear blunders. A chosen own object that an opposing effect on the stack
targets (a rescue, such as returning it to hand) is never R1 or R6.

The games are read through one adapter, :func:`replayed_games`, over the game records of
results files (``records.py``, read by ``recordfile.iter_records`` and replayed by
``replay.replay``). A record of an older engine epoch (``hostwcg_env.engine.ENGINE_EPOCH``) was
asked other decisions and does not replay: it is counted and named, not audited.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hostwcg_env.engine import ENGINE_EPOCH, Action, Game
from hostwcg_env.engine.actions import PASS, DecisionKind, Kind, Place, Resume
from hostwcg_env.engine.announce import Announce
from hostwcg_env.engine.carddef import Ability, CardDef, Step
from hostwcg_env.engine.places import resolve_ref
from hostwcg_env.engine.primitives import Grant, Modify
from hostwcg_env.engine.resolution import ExecStep
from hostwcg_env.engine.state import GameState, Obj
from hostwcg_env.engine.stats import has_keyword, health, host_health, host_soul, power

RULES = {
    "R1": "harmful effect on its own object while an opposing target, or declining, was legal",
    "R2": "helpful effect on an opposing object while one of its own was legal",
    "R3": "attack that loses the attacker for nothing",
    "R4": "stall: three or more own turns in a row playing nothing with a card playable, not ahead",
    "R5": "ended its turn with an empty hand facing an opposing Entity, although it could have kept a card",
    "R6": "played or activated a harmful effect whose only legal targets were its own",
    "R7": "spent an action point to draw the last card of its deck (an empty deck loses, 1.1.2)",
}
CLEAR = ("R1", "R2")
STALL_TURNS = 3
HARMFUL = frozenset({"damage", "destroy", "banish", "return_to_hand", "gain_control"})
HELPFUL_KEYWORDS = frozenset({"first_strike", "fast"})
HARMFUL_KEYWORDS = frozenset({"cannot_block"})


# ============================================================================ effects


def _sign(value: int | None, current: int | None = None, setting: bool = False) -> int:
    """+1 helpful, -1 harmful, 0 neither, for one stat change."""
    if value is None:
        return 0
    if setting:
        return 0 if current is None or value == current else (1 if value > current else -1)
    return (value > 0) - (value < 0)


def _stat_now(s: GameState, o: Obj | None, stat: str) -> int | None:
    if o is None:
        return None
    if o.zone == "host":
        return host_health(s, o.owner) if stat == "health" else host_soul(s, o.owner) if stat == "soul" else None
    if stat == "power":
        return power(s, o)
    if stat == "health":
        return health(s, o)
    return None


def _combine(signs: list[int]) -> int:
    """Helpful only if every change helps, harmful only if every change harms."""
    signs = [x for x in signs if x]
    if not signs:
        return 0
    if all(x > 0 for x in signs):
        return 1
    if all(x < 0 for x in signs):
        return -1
    return 0


def step_effect(s: GameState, st: Step, card: CardDef, target: Obj | None) -> int:
    """How one step affects its target: +1 helpful, -1 harmful, 0 neither or mixed. A ``set``
    compares with the target's current value; Equipment by what its card gives the equipped
    Entity."""
    do = st.do
    if do in HARMFUL:
        return -1
    if do == "heal":
        return 1
    if isinstance(st, Modify):
        return _combine([_sign(st.power), _sign(st.health), _sign(st.soul)])
    if do == "set":
        return _combine([_sign(getattr(st, k), _stat_now(s, target, k), setting=True)
                         for k in ("power", "health", "soul")])
    if isinstance(st, Grant):
        kw = st.keyword or ""
        return 1 if kw in HELPFUL_KEYWORDS else -1 if kw in HARMFUL_KEYWORDS else 0
    if do == "equip":
        return equipment_effect(s, card, target)
    return 0


def equipment_effect(s: GameState, card: CardDef, target: Obj | None) -> int:
    """What an Equipment's static abilities give the equipped Entity (+1, -1 or 0)."""
    signs: list[int] = []
    for ab in card.abilities:
        if ab.kind != "static" or ab.affects != "equipped":
            continue
        signs += [_sign(ab.power), _sign(ab.health), _sign(ab.soul)]
        signs += [_sign(ab.set_power, _stat_now(s, target, "power"), setting=True),
                  _sign(ab.set_health, _stat_now(s, target, "health"), setting=True)]
        signs += [1 if g in HELPFUL_KEYWORDS else -1 if g in HARMFUL_KEYWORDS else 0 for g in ab.grants]
    return _combine(signs)


@dataclass
class TargetChoice:
    """A choose_target decision explained: the card, its ability, the steps that act on the
    target being chosen, and whether the effect was started by choice (played or activated)."""

    card: CardDef
    ability: Ability
    steps: tuple[Step, ...]
    by_choice: bool


def explain_target(s: GameState) -> TargetChoice | None:
    """The effect a choose_target decision chooses a target for (None for retargeting)."""
    d = s.decision
    if d is None or d.kind is not DecisionKind.CHOOSE_TARGET:
        return None
    t = d.task
    if d.resume == Resume.ANNOUNCE_TARGET and isinstance(t, Announce):
        ai, name = t.specs[t.spec_i]
        if t.trig is not None:
            card = t.trig.card
        else:
            assert t.obj is not None  # a card played or an ability activated has its object
            card = s.objs[t.obj].card
        ab = card.abilities[ai]
        steps = tuple(st for st in ab.steps if st.to is not None and st.to.name == name)
        return TargetChoice(card, ab, steps, t.what != "trigger")
    if d.resume == Resume.CHOOSE_ON_RESOLUTION and isinstance(t, ExecStep):
        item = t.item
        ab = item.ability_def
        if ab is None:
            return None
        return TargetChoice(item.card, ab, (ab.steps[t.step],), False)
    return None


def _targeted_by_opponent(s: GameState, oid: int, p: int) -> bool:
    return any(it.controller != p and any(oid in ids for ids in it.targets.values()) for it in s.stack)


# ============================================================================ per-choice rules


@dataclass
class Flag:
    """One classified choice."""

    rule: str
    player: int
    turn: int
    action: str
    detail: str
    severity: float = 1.0
    board: str = ""
    agent: str = ""
    seed: int | None = None
    source: str = ""


def _obj_at(s: GameState, place: Place) -> Obj | None:
    oid = resolve_ref(s, place)
    return s.objs.get(oid) if oid is not None and oid >= 0 else None


def _value(o: Obj) -> float:
    c = o.card
    return len(c.cost) + 0.5 * (c.power + c.health)


def classify_target(s: GameState, action: Action) -> Flag | None:
    """R1, R2 or R6 for a choose_target decision answered with ``action``."""
    d = s.decision
    if d is None or action.kind is not Kind.TARGET:
        return None
    why = explain_target(s)
    if why is None:
        return None
    chosen = _obj_at(s, action.dst)
    if chosen is None:
        return None
    effect = _combine([step_effect(s, st, why.card, chosen) for st in why.steps])
    if effect == 0:
        return None
    p = d.player
    owners = [o.controller for a in d.actions if a.kind is Kind.TARGET and (o := _obj_at(s, a.dst)) is not None]
    mine = chosen.controller == p
    what = f"{why.card.name} -> {'own' if mine else 'opposing'} {chosen.name}"
    if effect < 0 and mine and not _targeted_by_opponent(s, chosen.id, p):
        if any(c != p for c in owners):
            return Flag("R1", p, s.turn, str(action), what, _value(chosen))
        if PASS in d.actions:  # an "up to" target: declining was legal
            return Flag("R1", p, s.turn, str(action), what + " (declining was legal)", _value(chosen))
        if why.by_choice:
            return Flag("R6", p, s.turn, str(action), what + " (no opposing target)", _value(chosen))
    if effect > 0 and not mine and any(c == p for c in owners):
        return Flag("R2", p, s.turn, str(action), what, _value(chosen))
    return None


def fight(s: GameState, att: Obj, blk: Obj) -> tuple[bool, bool]:
    """(the attacker is destroyed, the blocker is destroyed) by the numbers on the board: each
    deals its power (26.2.1), First Strike first (25.4.1.2), an Entity that cannot block deals
    none (25.3.3.1)."""
    att_kills = power(s, att) + blk.damage >= health(s, blk)
    blk_hits = not has_keyword(s, blk, "cannot_block")
    blk_kills = blk_hits and power(s, blk) + att.damage >= health(s, att)
    att_fs, blk_fs = has_keyword(s, att, "first_strike"), has_keyword(s, blk, "first_strike")
    if att_fs and not blk_fs and att_kills:
        return False, True
    if blk_fs and not att_fs and blk_kills:
        return True, False
    return blk_kills, att_kills


def _losing(s: GameState, att: Obj, target: Obj | None) -> bool:
    """An attack on ``target`` that destroys the attacker and not the target (a Host target,
    1 damage that always lands, never loses, 25.4.2.5)."""
    if target is None or target.zone != "front":
        return False
    dies, kills = fight(s, att, target)
    return dies and not kills


def _fight_text(s: GameState, att: Obj, target: Obj) -> str:
    return (f"{att.name} (P{power(s, att)}/H{health(s, att) - att.damage}) into {target.name} "
            f"(P{power(s, target)}/H{health(s, target) - target.damage})")


def classify_attack(game: Game, action: Action) -> Flag | None:
    """R3, judged where the choice is made: declaring an attack (``attack fN``) whose every
    possible target then is a losing fight, or choosing a losing target while another was
    not. A target that became losing only after the attack was declared (a Fast Entity
    played in response) is not the attacker's blunder."""
    s = game.state
    d = s.decision
    if d is None:
        return None
    p = d.player
    if d.kind is DecisionKind.PRIORITY and action.kind is Kind.ATTACK:
        oid = s.players[p].front[action.src.index]
        att = s.objs.get(oid) if oid is not None else None
        targets = [s.objs[t] for t in game.attack_targets(p)]
        if att is None or not targets or not all(_losing(s, att, t) for t in targets):
            return None
        worst = targets[0]
        return Flag("R3", p, s.turn, str(action), "every target loses it: " + _fight_text(s, att, worst), _value(att))
    b = s.battle
    if d.kind is not DecisionKind.CHOOSE_ATTACK_TARGET or b is None or action.kind is not Kind.TARGET:
        return None
    att = s.objs.get(b.attacker)
    target = _obj_at(s, action.dst)
    if att is None or target is None or not _losing(s, att, target):
        return None
    others = [_obj_at(s, a.dst) for a in d.actions if a != action and a.kind is Kind.TARGET]
    if not any(o is not None and not _losing(s, att, o) for o in others):
        return None
    return Flag("R3", p, s.turn, str(action), _fight_text(s, att, target) + " (a better target was legal)", _value(att))


def last_action_phase(s: GameState) -> bool:
    """The turn's last Action Phase: Action Phase 2, or Action Phase 1 of the first turn (10.4.2)."""
    return s.phase == "action2" or (s.phase == "action1" and s.turn == 1)


def classify_pass(s: GameState, action: Action, played_last: bool = False) -> Flag | None:
    """R5 for a priority decision answered with ``action``: the turn player passes on an empty
    stack in its last Action Phase with no card in hand while the opponent has an Entity to
    attack with, and it could have kept a card: it played its last card this turn
    (``played_last``) or could still spend an action point to draw."""
    d = s.decision
    if d is None or action.kind is not Kind.PASS or d.kind is not DecisionKind.PRIORITY:
        return None
    p = d.player
    if p != s.tp or s.stack or not last_action_phase(s) or s.players[p].hand:
        return None
    attackers = sum(1 for o in s.players[1 - p].front if o is not None)
    could_draw = Action(Kind.AP_DRAW) in d.actions
    if not attackers or not (played_last or could_draw):
        return None
    why = "played its last card this turn" if played_last else f"{s.players[p].ap} action point(s) left to draw"
    return Flag("R5", p, s.turn, str(action),
                f"ends its turn with an empty hand facing {attackers} opposing "
                f"Entit{'y' if attackers == 1 else 'ies'} ({why})",
                float(attackers))


def classify_draw(s: GameState, action: Action) -> Flag | None:
    """R7: an action point spent to draw (11.3.2) the last card of the player's deck, which
    loses the game at once (1.1, 1.1.2)."""
    d = s.decision
    if d is None or action.kind is not Kind.AP_DRAW or len(s.players[d.player].deck) != 1:
        return None
    return Flag("R7", d.player, s.turn, str(action), "draws the last card of its deck and loses (1.1.2)", 1.0)


def classify(game: Game, action: Action, played_last: bool = False) -> list[Flag]:
    """The per-choice rules (R1, R2, R3, R5, R6, R7) for the decision of ``game`` answered with
    ``action``; ``played_last``: the deciding player played its last card earlier this turn
    (R5). The game's history is kept by :class:`GameTracker` (R4, and R5's ``played_last``)."""
    s = game.state
    d = s.decision
    if d is None:
        return []
    if d.kind is DecisionKind.CHOOSE_TARGET:
        f = classify_target(s, action)
    elif d.kind is DecisionKind.CHOOSE_ATTACK_TARGET or action.kind is Kind.ATTACK:
        f = classify_attack(game, action)
    elif d.kind is DecisionKind.PRIORITY:
        f = classify_draw(s, action) or classify_pass(s, action, played_last)
    else:
        f = None
    return [f] if f is not None else []


# ============================================================================ R4, stalls


def ahead(s: GameState, p: int) -> bool:
    """Ahead in the damage race: the opponent's Host has taken a larger share of its health."""
    q = 1 - p
    mine = len(s.players[p].damage) / max(1, host_health(s, p))
    theirs = len(s.players[q].damage) / max(1, host_health(s, q))
    return theirs > mine


@dataclass
class GameTracker:
    """One game's history: feed it every decision before its action is applied (``see``, which
    returns the flags of that choice) and the finished game (``finish``). Keeps R4's stalls
    (in ``stalls``, complete after ``finish``) and R5's once-a-turn check."""

    turns: int = STALL_TURNS
    render: bool = False  # draw a stall's board (the staller's view) as it stands when the stall ends
    stalls: list[Flag] = field(default_factory=list)
    _turn: int = -1
    _tp: int = 0
    _playable: bool = False
    _acted: bool = False
    _played_last: bool = False
    _r5_done: bool = False
    _streak: list[int] = field(default_factory=lambda: [0, 0])
    _open: list[Flag | None] = field(default_factory=lambda: [None, None])

    def see(self, game: Game, action: Action) -> list[Flag]:
        s = game.state
        if s.turn != self._turn:
            self._close(game)
            self._turn, self._tp = s.turn, s.tp
            self._playable = self._acted = self._played_last = self._r5_done = False
        d = s.decision
        if d is None:
            return []
        flags = classify(game, action, self._played_last)
        if any(f.rule == "R5" for f in flags):
            if self._r5_done:
                flags = [f for f in flags if f.rule != "R5"]
            self._r5_done = True
        if d.player == s.tp:
            if d.kind is DecisionKind.PRIORITY and s.phase in ("action1", "action2"):
                if any(a.kind is Kind.PLAY for a in d.actions):
                    self._playable = True
            if action.kind in (Kind.PLAY, Kind.ACTIVATE, Kind.ATTACK):
                self._acted = True
            if action.kind is Kind.PLAY:
                self._played_last = len(s.players[d.player].hand) == 1
        return flags

    def _close(self, game: Game) -> None:
        if self._turn < 0:
            return
        s = game.state
        p = self._tp
        if self._playable and not self._acted and not ahead(s, p):
            self._streak[p] += 1
            if self._streak[p] >= self.turns:
                f = self._open[p]
                if f is None:
                    f = Flag("R4", p, self._turn, "pass", "", 0.0)
                    self._open[p] = f
                    self.stalls.append(f)
                f.severity = float(self._streak[p])
                f.detail = f"{self._streak[p]} own turns in a row with a playable card, ending turn {self._turn}"
                if self.render:
                    from hostwcg_env.render import render_text

                    f.board = render_text(game, viewer=p)
        else:
            self._streak[p] = 0
            self._open[p] = None

    def finish(self, game: Game) -> None:
        self._close(game)
        self._turn = -1


# ============================================================================ games


@dataclass
class GameMeta:
    agents: tuple[str, str]
    seed: int
    reason: str | None
    source: str
    epoch: int = ENGINE_EPOCH


def replayed_games(paths: Sequence[str | Path], limit: int | None = None) -> Iterator[
        tuple[GameMeta, Callable[[Callable[[Game, Action], None]], Game] | None]]:
    """Each kept game of the results files, as its facts and a function that replays it calling
    ``visit(game, action)`` before every action, or None for a game recorded by an engine of
    another decision epoch (it does not replay: ``GameMeta.epoch`` says which). The one adapter
    to the record format (``records.py``): ``iter_records`` and ``replay``. Games kept without
    their actions are skipped; ``limit`` keeps the first games of each file."""
    from hostwcg_env.analysis import iter_records, replay
    from hostwcg_env.analysis.records import Record

    for path in paths:
        if not Path(path).is_file():
            raise ValueError(f"{path}: no such results file")
        n = 0
        for rec in iter_records(path):
            if not rec["actions"]:
                continue
            if limit is not None and n >= limit:
                break
            n += 1
            epoch = int(rec.get("epoch", 1))
            meta = GameMeta((rec["agents"][0], rec["agents"][1]), int(rec["seed"]), rec.get("reason"),
                            Path(path).name, epoch)
            if epoch != ENGINE_EPOCH:
                yield meta, None
                continue

            def run(visit: Callable[[Game, Action], None], rec: Record = rec) -> Game:
                return replay(rec, before_step=lambda game, _i, action: visit(game, action))  # type: ignore[no-any-return]

            yield meta, run


@dataclass
class AgentTally:
    games: int = 0
    choices: int = 0
    target_choices: int = 0
    flags: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RULES, 0))


@dataclass
class AuditResult:
    agents: dict[str, AgentTally] = field(default_factory=dict)
    pairs: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # [games, at the turn limit]
    examples: dict[tuple[str, str], list[tuple[float, int, Flag]]] = field(default_factory=dict)
    games: int = 0
    not_replayed: int = 0
    errors: list[str] = field(default_factory=list)
    other_epoch: dict[int, int] = field(default_factory=dict)  # games of another engine epoch, by epoch

    def epoch_note(self) -> str:
        """What was left out for its engine epoch, in one sentence ('' when nothing was)."""
        if not self.other_epoch:
            return ""
        n = sum(self.other_epoch.values())
        which = ", ".join(f"{k:,} of epoch {e}" for e, k in sorted(self.other_epoch.items()))
        return (f"{n:,} game(s) left out ({which}): recorded by an engine of another decision epoch, they "
                f"do not replay under this one (epoch {ENGINE_EPOCH}); audit games played with the current "
                f"engine, or check out the code that played them")

    def markdown(self, examples: int = 3) -> str:
        rules = list(RULES)
        lines = [f"{self.games:,} games replayed.", "",
                 "| agent | games | choices | target choices | " + " | ".join(rules) + " |",
                 "|---|---:|---:|---:|" + "---:|" * len(rules)]
        for name, t in sorted(self.agents.items()):
            lines.append(f"| {name} | {t.games} | {t.choices} | {t.target_choices} | "
                         + " | ".join(str(t.flags[r]) for r in rules) + " |")
        lines += ["", "| agent | clear blunders (R1+R2) per target choice | "
                      + " | ".join(f"{r} per 1,000 choices" for r in rules) + " |",
                  "|---|---:|" + "---:|" * len(rules)]
        for name, t in sorted(self.agents.items()):
            clear = sum(t.flags[r] for r in CLEAR)
            per_target = f"{clear / t.target_choices:.2%}" if t.target_choices else "-"
            per_k = [f"{1000 * t.flags[r] / t.choices:.2f}" if t.choices else "-" for r in rules]
            lines.append(f"| {name} | {per_target} | " + " | ".join(per_k) + " |")
        lines += ["", "| pairing | games | ended at the turn limit | share |", "|---|---:|---:|---:|"]
        for (a, b), (n, cut) in sorted(self.pairs.items()):
            lines.append(f"| {a} vs {b} | {n} | {cut} | {cut / n:.2%} |")
        if self.other_epoch:
            lines += ["", self.epoch_note() + "."]
        if self.not_replayed:
            lines += ["", f"{self.not_replayed} game(s) left out: they do not replay as recorded with this code "
                          f"(first: {self.errors[0]})"]
        lines += ["", "Rules: " + "; ".join(f"{r} {text}" for r, text in RULES.items()) + " (docs/agents.md)."]
        if examples:
            for (name, rule), heap in sorted(self.examples.items()):
                worst = sorted(heap, key=lambda t: (-t[0], -t[1]))[:examples]  # ties: the earliest first
                lines += ["", f"### {name}: {rule} ({RULES[rule]}), worst {len(worst)} of "
                              f"{self.agents[name].flags[rule]}"]
                for _sev, _n, f in worst:
                    lines += ["", f"{f.source} seed {f.seed}, turn {f.turn}, {'AB'[f.player]} ({name}): "
                                  f"`{f.action}`: {f.detail}"]
                    if f.board:
                        lines += ["", "```", f.board, "```"]
        return "\n".join(lines)


def _tally(res: AuditResult, name: str) -> AgentTally:
    t = res.agents.get(name)
    if t is None:
        t = res.agents[name] = AgentTally()
    return t


def audit(paths: Sequence[str | Path], limit: int | None = None, examples: int = 3,
          render: bool = True) -> AuditResult:
    """Replay every kept game of the results files and classify each choice; keeps the
    ``examples`` worst flags of each agent and rule, with the board as the chooser saw it. A
    game that does not replay as recorded (played by other code) is left out and counted in
    ``not_replayed``."""
    from hostwcg_env.analysis.replay import ReplayError
    from hostwcg_env.render import render_text

    res = AuditResult()
    counter = 0

    def worth_rendering(name: str, f: Flag) -> bool:
        heap = res.examples.get((name, f.rule), [])
        return examples > 0 and (len(heap) < examples or heap[0][0] < f.severity)

    for meta, run in replayed_games(paths, limit):
        if run is None:
            res.other_epoch[meta.epoch] = res.other_epoch.get(meta.epoch, 0) + 1
            continue
        names = meta.agents
        tracker = GameTracker(render=render and examples > 0)
        choices = [0, 0]
        targets = [0, 0]
        flags: list[Flag] = []

        def visit(game: Game, action: Action, tracker: GameTracker = tracker, names: tuple[str, str] = names,
                  choices: list[int] = choices, targets: list[int] = targets, flags: list[Flag] = flags) -> None:
            d = game.state.decision
            if d is None:
                return
            new = tracker.see(game, action)
            if len(d.actions) > 1:
                choices[d.player] += 1
                targets[d.player] += d.kind is DecisionKind.CHOOSE_TARGET
            for f in new:
                if render and worth_rendering(names[f.player], f):
                    f.board = render_text(game, viewer=f.player)
                flags.append(f)

        try:
            final = run(visit)
        except ReplayError as e:
            res.not_replayed += 1
            res.errors.append(f"{meta.source} seed {meta.seed}: {e}")
            continue
        tracker.finish(final)
        flags += tracker.stalls
        res.games += 1
        for seat, name in enumerate(names):
            t = _tally(res, name)
            t.games += 1
            t.choices += choices[seat]
            t.target_choices += targets[seat]
        pair = res.pairs.setdefault((min(names), max(names)), [0, 0])
        pair[0] += 1
        pair[1] += meta.reason == "turn_limit"
        for f in flags:
            name = names[f.player]
            f.agent, f.seed, f.source = name, meta.seed, meta.source
            _tally(res, name).flags[f.rule] += 1
            if examples <= 0:
                continue
            heap = res.examples.setdefault((name, f.rule), [])
            counter += 1
            item = (f.severity, -counter, f)
            if len(heap) < examples:
                heapq.heappush(heap, item)
            elif heap[0][0] < f.severity:
                heapq.heapreplace(heap, item)
    return res
