"""No hidden order leaves the engine through a public reveal (41.1, 4.1.1, 2.1.1).

A public reveal shows a hidden zone as a multiset: its cards by name, never in the zone's real
order (the order the cards were drawn or put there). Twin games that differ only in the hidden
order of a hand, a deck or a damage zone play the same reveal; every output a player receives
(its event texts, its PlayerView, hostwcg_v0's and hostwcg_v1's observation, the text render)
must be the same in both.
"""

from __future__ import annotations

import random

import pytest

from hostwcg_env.engine import Game, GameState, RuleConfig
from hostwcg_env.engine.events import Reveal
from hostwcg_env.env.observation import ObservationEncoder
from hostwcg_env.env.v1.encoder import fresh
from hostwcg_env.env.v1.memory import Memory
from hostwcg_env.render import render_text
from hostwcg_env.scenarios import run_line, setup_game

ENC = ObservationEncoder(RuleConfig())

# Which zones each viewer cannot see the order of: both decks (4.1.1), the other player's
# hand (4.3.1) and damage zone (2.1.1).
HIDDEN_ORDER = {0: (("deck", 0), ("deck", 1), ("hand", 1), ("damage", 1)),
                1: (("deck", 0), ("deck", 1), ("hand", 0), ("damage", 0))}


def _exposure_game(who: str) -> Game:
    """A casts a reveal of ``who``'s hand ("opponent": Exposure; "each": both hands); both
    players hold several cards, with copies, and damage in their damage zones. Stops with the
    reveal on the stack, about to resolve."""
    step = {"do": "reveal_hand", "who": who}
    card = {"name": "Mutual Exposure", "type": "sorcery", "resource": "emotion", "cost": "!",
            "text": "Each player reveals their hand.",
            "abilities": [{"kind": "spell", "steps": [step]}]}
    g = setup_game({"setup": {"turn": 3, "phase": "action1",
                              "A": {"hand": ["Exposure" if who == "opponent" else "Mutual Exposure",
                                             "Wall", "Squire", "Ogre", "Squire"],
                                    "pool": {"!": 1}, "deck": 8, "damage_zone": ["Duelist", "Herald", "Ogre"]},
                              "B": {"hand": ["Ogre", "Wall", "Duelist", "Squire", "Wall"], "deck": 8,
                                    "damage_zone": ["Wall", "Herald", "Squire"]}},
                    "cards": [card]}, "<test_reveal_order>")
    for line in ("A play h0", "A pass", "B pass", "A slot b0", "A pass"):
        run_line(g, line)
    return g


def _twin(g: Game, viewer: int, rng: random.Random) -> Game:
    """``g`` with the order of every zone hidden from ``viewer`` shuffled."""
    s = g.state.copy()
    for zone, p in HIDDEN_ORDER[viewer]:
        ids = getattr(s.players[p], zone)
        for _ in range(20):
            new = list(ids)
            rng.shuffle(new)
            if [s.objs[o].name for o in new] != [s.objs[o].name for o in ids]:
                break
        ids[:] = new
    return Game(s)


def _outputs(g: Game, viewer: int) -> tuple[object, ...]:
    view = g.view(viewer)
    mem = Memory(viewer)
    mem.sync(view)
    v1 = fresh(view, mem)
    st = view.state
    return (tuple(str(e) for e in view.events), repr(st.players[1 - viewer]), repr(sorted(st.objs.items())),
            ENC.encode(view).tobytes(), tuple(sorted((k, a.tobytes()) for k, a in v1.items())),
            render_text(g, viewer), sorted(mem.opp_hand))


def _reveals(g: Game) -> list[str]:
    return [str(e) for e in g.events if isinstance(e, Reveal)]


@pytest.mark.parametrize("who", ["opponent", "each"])
@pytest.mark.parametrize("viewer", [0, 1])
def test_twins_that_differ_only_in_hidden_order_see_the_same_reveal(who: str, viewer: int) -> None:
    g = _exposure_game(who)
    rng = random.Random(7)
    twins = [g.clone()] + [_twin(g, viewer, rng) for _ in range(6)]
    outs = []
    for t in twins:
        run_line(t, "B pass")  # the reveal resolves
        assert _reveals(t), "the reveal did not resolve"
        outs.append(_outputs(t, viewer))
    for o in outs[1:]:
        for a, b, what in zip(outs[0], o, ("events", "view of the other side", "view objects",
                                            "hostwcg_v0 observation", "hostwcg_v1 observation",
                                            "render", "v1 memory"), strict=True):
            assert a == b, f"{what} of {'AB'[viewer]} depends on a hidden order"


def test_a_revealed_hand_is_shown_as_a_multiset_in_name_order() -> None:
    g = _exposure_game("each")
    run_line(g, "B pass")
    assert _reveals(g) == ["Reveal(A, hand=[Ogre, Squire, Squire, Wall])",
                           "Reveal(B, hand=[Duelist, Ogre, Squire, Wall, Wall])"]


def test_the_twins_really_differ_in_hidden_order() -> None:
    """The twin test is not vacuous: the twins' real zones are in other orders."""
    g = _exposure_game("opponent")
    t = _twin(g, 0, random.Random(7))

    def names(s: GameState, zone: str, p: int) -> list[str]:
        return [s.objs[o].name for o in getattr(s.players[p], zone)]

    assert names(t.state, "hand", 1) != names(g.state, "hand", 1)
    assert names(t.state, "damage", 1) != names(g.state, "damage", 1)
    assert sorted(names(t.state, "hand", 1)) == sorted(names(g.state, "hand", 1))

