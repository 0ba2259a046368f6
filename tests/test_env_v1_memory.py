"""hostwcg_v1 memory and hidden information (docs/env_v1.md "Memory: what the rules made known").

* What the rules made known is remembered exactly while it stays known: after every step of
  random games the memory is checked against the real (hidden) game state, which only this
  test reads: every card the viewer believes to be in the opponent's hand is there, the
  known top of its deck is the real top in order, its damage zone rows are the real damage
  zone in order; right after a reveal of the whole hand, the memory is that hand; after a look
  at the top, the looked-at cards are the known top until a draw or shuffle.
* It is forgotten when it stops being known (unit tests on the event rules: a card that leaves
  the hand unseen, a shuffle, a mulligan).
* Resampling: the opponent's hidden cards (and the viewer's own deck below its known top) are
  drawn again, consistently with what the viewer knows, and both games go on with the same
  public choices: the viewer's observation (memory included), the mask and who is asked stay
  identical until an event the viewer sees or the list of a search differs (the rules showed
  it a card that was drawn again).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from hostwcg_env import hostwcg_v1
from hostwcg_env.engine import Game, Kind
from hostwcg_env.engine import events as ev
from hostwcg_env.engine.actions import listed_at
from hostwcg_env.engine.kinds import Phase
from hostwcg_env.env import AGENTS, shipped_decks
from hostwcg_env.env.v1 import Memory
from hostwcg_env.env.v1.cards import card_id
from hostwcg_env.env.v1.layout import COL, GCOL, HISTORY_KIND_ID, obs_layout
from hostwcg_env.testing.resample import resample_opponent

LAY = obs_layout()
A, B = 0, 1  # the players
# decks whose cards reveal a hand (Mind Leech), search and show (Royal Herald, Wandering
# Druid) and look at the top (Whispering Muse, Flash of Insight, Hall of Records)
KNOWING = ("Blood and Tears", "Whispers", "Iron Law", "Wild Pack")


def _decks() -> list[Any]:
    decks = [d for d in shipped_decks() if d.name in KNOWING]
    assert len(decks) == len(KNOWING)
    return decks


def _rows(obs: dict[str, np.ndarray], zone: str) -> list[int]:
    z = LAY.zone[zone]
    return [int(x) for x in obs["card_id"][z.start : z.stop] if x]


# ----------------------------------------------------------------------------- the oracle
class Oracle:
    """Checks each agent's memory against the real state after every step (test only)."""

    def __init__(self) -> None:
        self.seen = Counter[str]()
        self.pos = 0
        self.looks: dict[int, int] = {}

    def check(self, e: Any) -> None:
        g = e.game
        s = g.state
        new = s.events[self.pos :]
        self.pos = len(s.events)
        observed = {a: e.observe(a) for a in AGENTS}  # syncs both memories
        for i, a in enumerate(AGENTS):
            obs = observed[a]
            mem = e.memories[a]
            me, opp = s.players[i], s.players[1 - i]
            name = s.objs.__getitem__
            real_opp_hand = Counter(name(o).card.name for o in opp.hand)
            known = Counter(mem.opp_hand)
            assert not known - real_opp_hand, f"{a} believes {known - real_opp_hand} in a hand without them"
            assert _rows(obs, "opp_known_hand") == [card_id(n) for n in mem.opp_hand][: LAY.zone["opp_known_hand"].rows]
            top = [name(o).card.name for o in me.deck[: len(mem.deck_top)]]
            assert mem.deck_top == top, f"{a}'s known top {mem.deck_top} is not the deck's top {top}"
            assert _rows(obs, "my_deck_top") == [card_id(n) for n in mem.deck_top]
            damage = [card_id(name(o).card.name) for o in reversed(me.damage)]
            assert _rows(obs, "my_damage") == damage[: LAY.zone["my_damage"].rows], "damage zone rows, top first"
            self.seen["damage_rows"] += bool(damage)
            # what the opponent knows of my hand: my memory of its view is its memory, and
            # the known_to_opp flags of my hand rows
            assert Counter(mem.my_known) == Counter(e.memories[AGENTS[1 - i]].opp_hand)
            z = LAY.zone["my_hand"]
            shown = Counter(name(o).card.name for o in me.hand[: z.rows])
            flagged = Counter(name(o).card.name for j, o in enumerate(me.hand[: z.rows])
                              if obs["cards"][z.start + j, COL["known_to_opp"]])
            assert flagged == Counter(mem.my_known) & shown
            self._completeness(e, i, new, mem)

    def _completeness(self, e: Any, i: int, new: list[Any], mem: Memory) -> None:
        s = e.game.state
        q = 1 - i
        Q, P = "AB"[q], "AB"[i]
        texts = [str(ev) for ev in new]
        for k, t in enumerate(texts):
            later = texts[k + 1 :]
            if t.startswith(f"Reveal({Q}, hand="):
                moved = any(x.startswith(f"{kind}({Q}") for x in later for kind in
                            ("Draw", "WouldPlay", "Discard", "DamageCard", "Mulligan", "Reveal", "Bounce"))
                if not moved:
                    real = Counter(s.objs[o].card.name for o in s.players[q].hand)
                    assert Counter(mem.opp_hand) == real, f"revealed hand {real} not remembered: {mem.opp_hand}"
                    self.seen["hand_reveal"] += 1
            elif t.startswith(f"Reveal({Q}, card="):
                card = t[len(f"Reveal({Q}, card=") : -1]
                gone = any(x.startswith(f"{kind}({Q}") for x in later for kind in
                           ("WouldPlay", "Discard", "DamageCard", "Mulligan"))
                if not gone and card in (s.objs[o].card.name for o in s.players[q].hand):
                    assert card in mem.opp_hand, f"the searched-and-shown {card} is not remembered"
                    self.seen["card_reveal"] += 1
            elif t.startswith(f"Look({P}, deck, "):
                self.looks[i] = int(t.split(", ")[2])
            elif t.startswith((f"Draw({P}", f"Shuffle({P}", f"Mulligan({P}")) and i in self.looks:
                del self.looks[i]
            if t.startswith(f"Shuffle({P})") and not any(x.startswith(f"Look({P}") for x in later):
                assert mem.deck_top == [], "a shuffle forgets the known top"
                self.seen["shuffle"] += 1
        if i in self.looks and mem.looking is None:
            n = self.looks.pop(i)
            assert len(mem.deck_top) == min(n, len(s.players[i].deck)), "a finished look is the known top"
            self.seen["look"] += 1


def _random_game(e: Any, seed: int, oracle: Oracle) -> None:
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    oracle.pos = 0
    oracle.looks.clear()
    while e.agents:
        oracle.check(e)
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(e.action_mask(agent)))))


def test_memory_holds_exactly_what_the_rules_made_known() -> None:
    decks = _decks()
    e = hostwcg_v1.raw_env(deck_pools=[decks, decks])
    oracle = Oracle()
    for seed in range(24):
        _random_game(e, seed, oracle)
    seen = oracle.seen
    assert seen["hand_reveal"] >= 2 and seen["card_reveal"] >= 2 and seen["look"] >= 10, seen
    assert seen["shuffle"] >= 30 and seen["damage_rows"] >= 1000, seen


# ----------------------------------------------------------------------------- event rules
class FakeView:
    """The parts of a PlayerView that Memory reads, fed by hand."""

    def __init__(self, player: int) -> None:
        self.player = player
        self.log: list[ev.Event] = []
        self.game_key = object()
        self.sizes = {0: [0, 5, 30, 0, 0, 0], 1: [0, 5, 30, 0, 0, 0]}

    def events_from(self, start: int) -> list[ev.Event]:
        return self.log[start:]

    def zone_sizes(self, p: int) -> tuple[int, ...]:
        return tuple(self.sizes[p])

    def host(self, p: int) -> None:
        return None

    def row(self, p: int, row: str) -> list[Any]:
        return []

    def forms(self, p: int) -> list[Any]:
        return []

    def drop(self, p: int) -> list[Any]:
        return []


def _mem(*events: ev.Event, viewer: int = 0) -> tuple[Memory, FakeView]:
    v = FakeView(viewer)
    m = Memory(viewer)
    v.log += events
    m.sync(v)  # type: ignore[arg-type]
    return m, v


def test_a_revealed_hand_is_known_until_its_cards_leave() -> None:
    m, v = _mem(ev.Reveal(B, "hand", ("Squire", "Squire", "Blast", "Xin, Master of Pain", "Snare")))
    assert Counter(m.opp_hand) == Counter(["Squire", "Squire", "Blast", "Xin, Master of Pain", "Snare"])
    v.log += [ev.WouldPlay(B, 7, "Squire", False, 1), ev.Discard(B, 8, "Blast")]
    m.sync(v)  # type: ignore[arg-type]
    assert Counter(m.opp_hand) == Counter(["Squire", "Xin, Master of Pain", "Snare"])
    v.log += [ev.Draw(B, 9, "Knight").redact(A)]  # a card joins unseen: nothing known changes
    m.sync(v)  # type: ignore[arg-type]
    assert len(m.opp_hand) == 3
    # a face-down Ambush laid (14.3): it could have been the Snare
    v.log += [ev.WouldPlay(B, 10, "Snare", True, 2).redact(A)]
    m.sync(v)  # type: ignore[arg-type]
    assert Counter(m.opp_hand) == Counter(["Squire", "Xin, Master of Pain"])
    v.log += [ev.DamageCard(B, "Squire").redact(A)]  # a card put face down into the damage zone: any of them (2.1)
    m.sync(v)  # type: ignore[arg-type]
    assert m.opp_hand == []


def test_a_searched_card_shown_to_both_is_known_and_a_mulligan_forgets() -> None:
    m, v = _mem(ev.Search(B), ev.Reveal(B, None, ("Royal Herald",)), ev.Shuffle(B))
    assert m.opp_hand == ["Royal Herald"]
    v.log += [ev.Mulligan(B, 5)]
    m.sync(v)  # type: ignore[arg-type]
    assert m.opp_hand == []


def test_the_hand_size_caps_what_is_known() -> None:
    m, v = _mem(ev.Reveal(B, "hand", ("Squire", "Blast")))
    v.sizes[1][1] = 1  # the hand shrank by a way no event rule reads
    v.log += [ev.PhaseBegan(A, Phase.END)]
    m.sync(v)  # type: ignore[arg-type]
    assert len(m.opp_hand) <= 1


def test_the_known_top_follows_the_order_chosen_and_is_forgotten_by_a_shuffle() -> None:
    m, v = _mem(ev.Look(A, 3, ("Squire", "Blast", "Snare")))
    assert m.looking == ["Squire", "Blast", "Snare"] and m.deck_top == []
    from hostwcg_env.engine import Action

    m.own_action(Action(Kind.CARD, listed_at(2)))  # Snare back on top first
    m.own_action(Action(Kind.CARD, listed_at(1)))  # then Blast; Squire last
    assert m.deck_top == ["Snare", "Blast", "Squire"]
    v.log += [ev.Draw(A, 11, "Snare")]
    m.sync(v)  # type: ignore[arg-type]
    assert m.deck_top == ["Blast", "Squire"]
    v.log += [ev.Shuffle(A)]
    m.sync(v)  # type: ignore[arg-type]
    assert m.deck_top == []


def test_the_opponents_look_tells_only_how_many() -> None:
    m, v = _mem(ev.Look(B, 2, ("Squire", "Blast")).redact(A))
    assert m.deck_top == [] and m.looking is None
    assert m.history()[0][0] == HISTORY_KIND_ID["look"] and m.history()[0][5] == 2


def test_what_the_opponent_knows_of_my_hand_is_my_memory_of_its_view() -> None:
    m, v = _mem(ev.Reveal(A, "hand", ("Squire", "Blast")), viewer=0)
    assert m.my_known == ["Squire", "Blast"] and m.opp_hand == []
    v.log += [ev.Draw(A, 12, "Snare"), ev.WouldPlay(A, 13, "Squire", False, 3)]
    m.sync(v)  # type: ignore[arg-type]
    assert m.my_known == ["Blast"]


# ----------------------------------------------------------------------------- resampling
def resample(s: Any, viewer: int, mem: Memory, rng: random.Random) -> Any:
    """A copy of ``s`` with the hidden cards drawn again consistently with what ``viewer``
    knows: the opponent's hidden cards (hand, deck, damage zone, face-down cards) shuffled
    among themselves, the hand cards it knows kept, a face-down card only ever an Ambush; the
    viewer's own deck shuffled below its known top. None if no such draw was found."""
    return resample_opponent(s, viewer, rng, known_hand=mem.opp_hand, own_known_top=len(mem.deck_top))


def _twin(e1: Any, state: Any) -> Any:
    e2 = hostwcg_v1.raw_env(deck_pools=e1.deck_pools)
    e2.reset(seed=0)
    e2.game = Game(state)
    e2.game.auto_pass = e1.game.auto_pass
    for name in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
        setattr(e2, name, dict(getattr(e1, name)))
    e2.agents = list(e1.agents)
    e2.agent_selection = e1.agent_selection
    for i, a in enumerate(AGENTS):
        e2.memories[a] = e1.memories[a].copy(e2.game.view(i).game_key)
    return e2


_PUBLIC = frozenset({Kind.PASS, Kind.YES, Kind.AP_HOST, Kind.AP_DRAW, Kind.AP_ANY, Kind.ATTACK,
                     Kind.TARGET, Kind.SLOT, Kind.PAY})


def _same(e1: Any, e2: Any, viewer: str, where: str) -> None:
    assert e1.agent_selection == e2.agent_selection, f"{where}: who is asked differs"
    o1, o2 = e1.observe(viewer), e2.observe(viewer)
    for k in o1:
        assert np.array_equal(o1[k], o2[k]), f"{where}: {k} differs"
    assert np.array_equal(e1.action_mask(viewer), e2.action_mask(viewer)), f"{where}: mask differs"


def _run_twins(seed: int, viewer: int, warm: int, horizon: int, rng: random.Random) -> tuple[int, int]:
    vname = AGENTS[viewer]
    decks = _decks()
    e1 = hostwcg_v1.raw_env(deck_pools=[decks, decks])
    e1.reset(seed=seed)
    steps = 0
    while e1.agents and (steps < warm or e1.agent_selection != vname):
        actor = e1.agent_selection
        if e1.terminations[actor] or e1.truncations[actor]:
            return 0, 0
        e1.step(int(rng.choice(np.flatnonzero(e1.action_mask(actor)))))
        steps += 1
    if not e1.agents:
        return 0, 0
    e1.observe(vname)  # the memory reads what happened
    s2 = resample(e1.game.state, viewer, e1.memories[vname], rng)
    if s2 is None:
        return 0, 0
    e2 = _twin(e1, s2)
    where = f"seed {seed} viewer {vname} after {steps} steps"
    _same(e1, e2, vname, where)
    compared = known = 0
    for k in range(horizon):
        if not e1.agents or e1.terminations[e1.agent_selection] or e1.truncations[e1.agent_selection]:
            break
        actor = e1.agent_selection
        if actor == vname:
            a = int(rng.choice(np.flatnonzero(e1.action_mask(actor))))
        else:
            both = [i for i in np.flatnonzero(e1.action_mask(actor) & e2.action_mask(actor))
                    if e1.legal.decode(int(i)).kind in _PUBLIC
                    and e1.legal.decode(int(i)) == e2.legal.decode(int(i))]
            if not both:
                break
            passes = [i for i in both if e1.legal.decode(int(i)).kind is Kind.PASS]
            a = int(passes[0]) if passes and rng.random() < 0.8 else int(rng.choice(both))
        e1.step(a)
        e2.step(a)
        v1, v2 = e1.game.view(viewer), e2.game.view(viewer)
        if v1.events != v2.events or [o.name for o in v1.choice_cards()] != [o.name for o in v2.choice_cards()]:
            break  # the rules showed the viewer a card that was drawn again (an event, a search): stop
        _same(e1, e2, vname, f"{where}, step {k}")
        compared += 1
        m = e1.memories[vname]
        known += bool(m.opp_hand or m.deck_top)
    return compared, known


@pytest.mark.parametrize("chunk", range(2))
def test_resampling_hidden_cards_changes_no_v1_observation(chunk: int) -> None:
    compared = known = 0
    for seed in range(chunk * 8, (chunk + 1) * 8):
        rng = random.Random(f"v1 twins|{seed}")
        for viewer in (0, 1):
            for warm in (rng.randrange(10, 80), rng.randrange(80, 300)):
                c, k = _run_twins(seed, viewer, warm, horizon=50, rng=rng)
                compared += c
                known += k
    assert compared >= 300, compared
    assert known >= 20, "steps compared while the viewer remembered hand or deck cards"


def test_the_resampled_twin_really_differs() -> None:
    """Not vacuous: the resampled opponent's hand differs, and what the viewer knows stays."""
    decks = _decks()
    differ = 0
    for seed in range(6):
        e = hostwcg_v1.raw_env(deck_pools=[decks, decks])
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(60):
            a = e.agent_selection
            if not e.agents or e.terminations[a] or e.truncations[a]:
                break
            e.step(int(rng.choice(np.flatnonzero(e.action_mask(a)))))
        if not e.agents:
            continue
        e.observe("player_0")
        s2 = resample(e.game.state, 0, e.memories["player_0"], random.Random(seed))
        if s2 is None:
            continue
        real = [e.game.state.objs[o].card.name for o in e.game.state.players[1].hand]
        fake = [s2.objs[o].card.name for o in s2.players[1].hand]
        differ += real != fake
        assert not Counter(e.memories["player_0"].opp_hand) - Counter(fake)
    assert differ >= 3


def test_globals_count_the_known_and_unknown_opponent_hand() -> None:
    decks = _decks()
    e = hostwcg_v1.raw_env(deck_pools=[decks, decks])
    seen = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        while e.agents:
            a = e.agent_selection
            if e.terminations[a] or e.truncations[a]:
                e.step(None)
                continue
            for i, b in enumerate(AGENTS):
                gl = e.observe(b)["globals"]
                n = e.game.view(i).zone_sizes(1 - i)[1]
                k = len(e.memories[b].opp_hand)
                assert gl[GCOL["opp_known_hand"]] == pytest.approx(k / 10)
                assert gl[GCOL["opp_unknown_hand"]] == pytest.approx((n - k) / 10)
                seen += k > 0
            e.step(int(rng.choice(np.flatnonzero(e.action_mask(a)))))
    assert seen > 0
