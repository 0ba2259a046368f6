"""Illegal actions are refused, name the rule they break, and change nothing
(README.md "Rules fidelity": an illegal action raises IllegalActionError naming the rule it
breaks, nothing is ever silently substituted; docs/scenarios.md: "... and leaves the game
exactly as it was").

Two parts:
- a sweep over many random reachable states (from seeded random games): every syntactically
  valid action of every kind that is not in ``legal_actions()`` must raise IllegalActionError
  whose message starts with a rule number (``^\\d+(\\.\\d+)*: ``), and the state must be
  unchanged (a deep fingerprint compared before and after);
- named positions (scenario format) for specific rule citations.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import hostwcg_env  # noqa: F401  (registers the default card pool)
from hostwcg_env.cards import default_ruleset, load_deck
from hostwcg_env.engine import Action, Game, IllegalActionError, Kind, RuleConfig
from hostwcg_env.scenarios import setup_game

DECK_DIR = Path(hostwcg_env.__file__).parent / "cards" / "decks"
DECKS = {p.stem: load_deck(p) for p in sorted(DECK_DIR.glob("*.toml"))}
PAIRS = [(a, b) for a in DECKS for b in DECKS]

RULE_RE = re.compile(r"^\d+(\.\d+)*: ")

# --------------------------------------------------------------------------- candidates
_PLACES_OWN = [f"f{i}" for i in range(5)] + [f"b{i}" for i in range(4)] + ["host", "form0", "form1"]


def _all_candidates() -> list[Action]:
    """Every syntactically valid action of every kind (concede excepted: always accepted)."""
    texts = ["pass", "yes", "ap host", "ap draw"]
    texts += [f"ap any {r}" for r in "&£!%"]
    texts += [f"play h{i}" for i in range(10)]
    texts += [f"attack f{i}" for i in range(5)]
    texts += [f"slot f{i}" for i in range(5)] + [f"slot b{i}" for i in range(4)]
    board = [f"{side}.{pl}" for side in "AB" for pl in _PLACES_OWN] + ["A.f0.m0", "B.f0.m0"]
    texts += [f"target {pl}" for pl in board] + [f"target stack{i}" for i in range(4)]
    texts += [f"pay {r}" for r in "&£!%$"] + ["pay auto"]
    texts += [f"card h{i}" for i in range(10)] + [f"card d{i}" for i in range(10)]
    texts += [f"trigger {i}" for i in range(4)]
    texts += [f"activate {pl} {n}" for pl in board for n in range(3)]
    acts = [Action.parse(t) for t in texts]
    assert len(set(acts)) == len(acts)
    return acts


CANDIDATES = _all_candidates()


# --------------------------------------------------------------------------- fingerprints
def full_fingerprint(s) -> tuple:  # type: ignore[no-untyped-def]
    """Everything that could change: reprs of players, objects (cards included), stack,
    pending triggers, tasks, decision, the scalars, the generator state, the log length."""
    return (repr(s.players), repr(s.objs), repr(s.stack), repr(s.pending), repr(s.tasks),
            repr(s.decision), s.phase, s.step, s.priority, s.passes, s.turn, s.tp, s.over,
            s.winner, repr(s.battle), s.rng.getstate(), len(s.events), s.next_id, s.next_sid)


def quick_fingerprint(s) -> tuple:  # type: ignore[no-untyped-def]
    """A cheap per-attempt fingerprint: every zone list and slot, pools, action points, the
    decision object and its actions, stack / pending / task sizes, the scalars, the generator
    log length. The deep one (which also holds the generator state) (``full_fingerprint``) is compared around each
    state's whole sweep, so a change that any attempt leaves behind is caught either way."""
    d = s.decision
    return (
        [(tuple(pl.deck), tuple(pl.hand), tuple(pl.drop), tuple(pl.damage), tuple(pl.banished),
          tuple(pl.forms), tuple(pl.front), tuple(pl.back), pl.host, tuple(pl.pool.items()),
          pl.ap, pl.hit_empty) for pl in s.players],
        id(d), d and d.actions, d and d.player, len(s.objs), s.next_id, s.next_sid,
        tuple(it.sid for it in s.stack), len(s.pending), len(s.tasks), s.phase, s.step,
        s.priority, s.passes, s.turn, s.tp, s.over, s.winner, id(s.battle), len(s.events), s.decisions_total,
        s.decisions_this_turn)


def assert_refused(g: Game, act: Action, where: str) -> IllegalActionError:
    """``act`` must raise IllegalActionError citing a rule and leave the state unchanged."""
    before = quick_fingerprint(g.state)
    try:
        g.apply(act)
    except IllegalActionError as exc:
        err = exc
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(f"{where}: '{act}' raised {type(exc).__name__}: {exc}") from exc
    else:
        raise AssertionError(f"{where}: illegal '{act}' was accepted")
    msg = str(err)
    assert RULE_RE.match(msg), f"{where}: '{act}' -> message without a rule number: {msg!r}"
    assert quick_fingerprint(g.state) == before, f"{where}: '{act}' ({msg}) changed the state"
    return err


def check_state(g: Game, where: str, seen_rules: dict[str, int],
                rebuild: Callable[[], Game] | None = None) -> int:
    """Try every candidate action that is not legal here; returns how many were tried."""
    legal = set(g.legal_actions())
    before = full_fingerprint(g.state)
    n = 0
    for act in CANDIDATES:
        if act in legal:
            continue
        err = assert_refused(g, act, where)
        seen_rules[err.rule] = seen_rules.get(err.rule, 0) + 1
        n += 1
    if full_fingerprint(g.state) != before:
        raise AssertionError(f"{where}: the state changed during the sweep: {_culprit(rebuild)}")
    assert set(g.legal_actions()) == legal
    return n


def _culprit(rebuild: Callable[[], Game] | None) -> str:
    """Diagnostics only: which attempt changed the deep fingerprint (on a rebuilt game)."""
    if rebuild is None:
        return "no way to rebuild the position"
    g = rebuild()
    legal = set(g.legal_actions())
    for act in CANDIDATES:
        if act in legal:
            continue
        before = full_fingerprint(g.state)
        try:
            g.apply(act)
        except Exception:  # noqa: BLE001
            pass
        if full_fingerprint(g.state) != before:
            return f"'{act}' changed it"
    return "no single attempt changed it on a rebuilt game"


# --------------------------------------------------------------------------- random states
GAMES = 50  # per test function
CHUNKS = 4
P_PRIORITY = 0.01  # chance to sweep a priority decision
P_OTHER = 0.2  # chance to sweep any other decision kind
MAX_PER_GAME = 6


def sweep_games(seeds: range) -> tuple[int, dict[str, int], dict[str, int]]:
    states = 0
    kinds: dict[str, int] = {}
    rules: dict[str, int] = {}
    for seed in seeds:
        a, b = PAIRS[seed % len(PAIRS)]
        g = default_ruleset(RuleConfig()).new_game(DECKS[a], DECKS[b], seed=seed)
        rng = random.Random(f"illegal|{seed}")
        taken: list[Action] = []
        per_game = 0

        def rebuild(a: str = a, b: str = b, seed: int = seed, taken: list[Action] = taken) -> Game:
            r = default_ruleset(RuleConfig()).new_game(DECKS[a], DECKS[b], seed=seed)
            for act in list(taken):
                r.apply(act)
            return r

        while not g.is_over:
            k = len(taken)
            d = g.decision
            assert d is not None
            p = P_PRIORITY if d.kind.value == "priority" else P_OTHER
            if rng.random() < p and per_game < MAX_PER_GAME:
                per_game += 1
                where = (f"{a} vs {b} seed {seed} action {k} "
                         f"(turn {g.state.turn} {g.state.phase}/{g.state.step}, {d})")
                check_state(g, where, rules, rebuild)
                states += 1
                kinds[d.kind.value] = kinds.get(d.kind.value, 0) + 1
            legal = g.legal_actions()
            act = legal[rng.randrange(len(legal))]
            g.apply(act)
            taken.append(act)
        # the finished game refuses everything too (1.1)
        check_state(g, f"{a} vs {b} seed {seed} (over)", rules, rebuild)
        states += 1
    return states, kinds, rules


# chunk 0 is in the fast run; the others are slow (docs/contributing.md)
@pytest.mark.parametrize("chunk", [0] + [pytest.param(c, marks=pytest.mark.slow) for c in range(1, CHUNKS)])
def test_illegal_actions_in_random_states(chunk: int) -> None:
    states, kinds, rules = sweep_games(range(chunk * GAMES, (chunk + 1) * GAMES))
    assert states >= 100, states
    assert kinds.get("priority", 0) >= 20, kinds
    for kind in ("mulligan", "first_player", "choose_slot"):
        assert kinds.get(kind, 0) >= 1, kinds


def test_candidates_cover_every_action_kind() -> None:
    kinds = {a.kind for a in CANDIDATES}
    assert kinds == set(Kind) - {Kind.CONCEDE}


def test_concede_is_always_accepted() -> None:
    a, b = PAIRS[0]
    g = default_ruleset(RuleConfig()).new_game(DECKS[a], DECKS[b], seed=0)
    deciding = g.decision.player
    g.apply(Action.parse("concede"))
    assert g.is_over and g.winner == 1 - deciding
    with pytest.raises(IllegalActionError, match=r"^1\.1: "):
        g.apply(Action.parse("pass"))


# --------------------------------------------------------------------------- named positions
def _refused(g: Game, line: str) -> str:
    """``line`` ("A play h0") must be refused without changing the state; returns the message."""
    before = full_fingerprint(g.state)
    with pytest.raises(IllegalActionError) as info:
        g.apply_text(line)
    assert full_fingerprint(g.state) == before, f"'{line}' changed the state"
    msg = str(info.value)
    assert RULE_RE.match(msg), msg
    return msg


def _game(setup: dict) -> Game:
    return setup_game({"setup": setup}, "<test_illegal_actions>")


def test_occupied_slot_14_7_1() -> None:
    g = _game({"turn": 1, "phase": "action1",
               "A": {"front": {"0": "Squire", "1": "Squire"}, "hand": ["Squire"], "pool": {"&": 1}}})
    for line in ("A play h0", "A pass", "B pass"):
        g.apply_text(line)
    assert str(g.decision) == "A choose_slot"
    assert Action.parse("slot f2") in g.legal_actions()
    for slot in ("f0", "f1"):
        assert _refused(g, f"A slot {slot}").startswith("14.7.1")
    # the same action by its parsed value
    before = full_fingerprint(g.state)
    with pytest.raises(IllegalActionError, match=r"^14\.7\.1: "):
        g.apply(Action.parse("slot f0"))
    assert full_fingerprint(g.state) == before


def test_slow_card_outside_own_action_phase_15_2_1() -> None:
    # A's Battle Phase: Squire is Slow (15.2.1), payable, and a frontrow slot is open.
    g = _game({"turn": 3, "phase": "battle",
               "A": {"hand": ["Squire"], "pool": {"&": 1}}})
    assert str(g.decision) == "A priority"
    assert _refused(g, "A play h0").startswith("15.2.1")
    # B's turn: A holds priority in B's Action Phase, with an empty stack
    g = _game({"turn": 2, "phase": "action1", "priority": "A",
               "A": {"hand": ["Squire"], "pool": {"&": 1}}})
    assert str(g.decision) == "A priority"
    assert _refused(g, "A play h0").startswith("15.2.1")


def test_attack_with_sick_entity_18_5_2_1() -> None:
    g = _game({"turn": 3, "phase": "battle",
               "A": {"front": {"0": {"card": "Squire", "sick": True}, "1": "Squire"}}})
    assert Action.parse("attack f1") in g.legal_actions()
    assert _refused(g, "A attack f0").startswith("18.5.2.1")


def test_second_attack_25_5_1() -> None:
    g = _game({"turn": 3, "phase": "battle",
               "A": {"front": {"0": {"card": "Squire", "attacked": True}, "1": "Squire"}}})
    assert _refused(g, "A attack f0").startswith("25.5.1")
    # and the same Entity after a real attack this turn, back in the declare step
    g = _game({"turn": 3, "phase": "battle", "A": {"front": {"0": "Squire"}}, "B": {"hand": 3}})
    g.apply_text("A attack f0")
    while not (g.state.step == "declare" and str(g.decision) == "A priority"):
        legal = g.legal_actions()
        act = next((a for a in legal if a.kind is Kind.TARGET), legal[0])
        g.apply(act)
        assert g.state.phase == "battle"
    assert _refused(g, "A attack f0").startswith("25.5.1")


def test_ap_draw_in_battle_phase_11_4() -> None:
    g = _game({"turn": 3, "phase": "battle", "A": {"ap": 4}})
    assert str(g.decision) == "A priority"
    assert _refused(g, "A ap draw").startswith("11.4")
    assert _refused(g, "A ap host").startswith("11.4")
    assert _refused(g, "A ap any £").startswith("11.4")


def test_unpayable_card_14_2() -> None:
    g = _game({"turn": 1, "phase": "action1", "A": {"hand": ["Squire"], "pool": {}}})
    assert str(g.decision) == "A priority"
    assert _refused(g, "A play h0").startswith("14.2")


def test_wrong_player_31_1() -> None:
    g = _game({"turn": 1, "phase": "action1", "A": {"hand": ["Squire"], "pool": {"&": 1}}})
    assert _refused(g, "B pass").startswith("31.1")
