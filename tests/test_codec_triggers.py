"""More pending triggers than the action layout indexes (33.2; docs/action_space.md,
"Triggers"): the player orders them among the first MAX_TRIGGERS, every one still reaches the
stack, and no env, agent or script is handed an action it cannot express."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from hostwcg_env.engine import Action, Area, Kind, Place
from hostwcg_env.env.codec import Codec, LayoutError, encode, offered
from hostwcg_env.env.layout import MAX_TRIGGERS, action_layout
from hostwcg_env.env.v1.layout import obs_layout
from hostwcg_env.env.v1.spaces import Legal


def _triggers(n: int) -> tuple[Action, ...]:
    return tuple(Action(Kind.TRIGGER, Place(Area.PENDING, i)) for i in range(n))


def _game(actions: tuple[Action, ...]) -> SimpleNamespace:
    return SimpleNamespace(decision=SimpleNamespace(actions=actions, player=0), is_over=False, state=None)


def test_up_to_max_triggers_every_trigger_is_offered() -> None:
    acts = _triggers(MAX_TRIGGERS)
    assert offered(acts) is acts


def test_past_max_triggers_the_first_ones_are_offered() -> None:
    acts = _triggers(MAX_TRIGGERS + 7)
    got = offered(acts)
    assert got == acts[:MAX_TRIGGERS]
    lay = action_layout()
    with pytest.raises(LayoutError, match="trigger index"):
        encode(lay, None, 0, acts[-1])
    codec = Codec(lay)
    mask = codec.mask(_game(acts))  # type: ignore[arg-type]
    assert int(mask.sum()) == MAX_TRIGGERS
    assert {codec.decode(_game(acts), i) for i in np.flatnonzero(mask)} == set(acts[:MAX_TRIGGERS])  # type: ignore[arg-type]
    legal = Legal(obs_layout())
    legal.refresh(_game(acts))  # type: ignore[arg-type]
    assert int(legal.mask.sum()) == MAX_TRIGGERS


def test_ordering_them_one_by_one_places_every_trigger() -> None:
    """As triggers go on the stack the later ones move up (the engine renumbers the pending
    list), so all of them are placed whatever the choices."""
    pending = [f"t{i}" for i in range(MAX_TRIGGERS + 5)]
    placed = []
    rng = np.random.default_rng(0)
    while pending:
        acts = offered(_triggers(len(pending)))
        pick = acts[rng.integers(len(acts))].src.index
        placed.append(pending.pop(pick))
    assert sorted(placed) == sorted(f"t{i}" for i in range(MAX_TRIGGERS + 5))
