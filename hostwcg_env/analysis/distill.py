"""Demonstrations from game records: an agent's recorded choices replayed as behaviour-cloning
rows (``agents.demos``: the row format; ``scripts/pretrain_bc.py --ladder``: the training).

A record keeps every action of its game, so replaying it (``replay.py``) shows each choice of
an agent exactly as that agent saw it: the observation the env would give that player, the
action mask, the action taken. The ISMCTS games of the ladder are thus a distillation set that
costs nothing more to make.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from agents.demos import DemoBuilder, Relabel

from .records import Record
from .replay import new_game, replay
from .runner import Visitor

if TYPE_CHECKING:
    from agents.demos_v1 import V1Demos
    from hostwcg_env.engine import Action, Game
    from hostwcg_env.env.v1.aec import raw_env as V1Env


class _Choices(Visitor):
    """Adds every choice (two or more legal actions) of the recorded seats to a builder."""

    def __init__(self, builder: DemoBuilder, seats: list[int], relabel: Relabel | None) -> None:
        from agents import Observer
        from hostwcg_env.engine import RuleConfig

        self.builder, self.seats, self.relabel = builder, seats, relabel
        self.observer = Observer(RuleConfig())  # fresh buffers for a new game
        self.relabelled = 0

    def before(self, game: Game, i: int, action: Action) -> None:
        from hostwcg_env.env.codec import encode

        d = game.decision
        assert d is not None  # (an action answers the open decision)
        if d.player in self.seats and len(d.actions) >= 2:
            obs, mask = self.observer.observe(game)
            flat = encode(self.observer.codec.lay, game.state, d.player, action)
            if self.relabel is not None:
                label = self.relabel(game, flat, obs, mask, self.observer)
                self.relabelled += label != flat
                flat = label
            self.builder.add(obs, mask, flat, d.player)


def from_records(records: Iterable[Record], agent: str, gamma: float = 0.995,
                 relabel: Relabel | None = None) -> dict[str, np.ndarray]:
    """The choices of ``agent`` (its name in the records, e.g. ``ismcts:0.45s``) in the given
    game records (``recordfile.iter_records``: ladder results, balance shards), by replaying
    each game. Records where it did not play are skipped, and so are records without actions
    (the ladder's lines written before they were kept; counted in ``skipped_without_actions``);
    a replay that does not end as recorded is an error saying where it diverged.

    ``relabel(game, action, observation, mask, observer)``, when given, chooses the label of
    each row from the recorded flat ``action`` (``agents.demos.overrides_only`` keeps it only
    where a search departed from its anchor); ``relabelled`` counts the rows whose label differs
    from it."""
    from agents import Observer
    from hostwcg_env.engine import RuleConfig

    probe = Observer(RuleConfig())
    builder = DemoBuilder(probe.encoder.size, probe.codec.lay.n)
    skipped = relabelled = 0
    for rec in records:
        seats = [s for s, name in enumerate(rec["agents"]) if name == agent]
        if not seats:
            continue
        if not rec["actions"]:
            skipped += 1
            continue
        choices = _Choices(builder, seats, relabel)
        game = replay(rec, visit=choices)
        relabelled += choices.relabelled
        builder.end_game(game.winner, gamma)
    if builder.n_games == 0:
        raise ValueError(f"no record with agent {agent!r} and its actions"
                         + (f" ({skipped} without actions)" if skipped else ""))
    return {**builder.arrays(), "skipped_without_actions": np.asarray(skipped),
            "relabelled": np.asarray(relabelled)}


def replay_into_v1(rec: Record, demos: V1Demos, env: V1Env, seats: Iterable[int], gamma: float = 0.995) -> int:
    """Replay one record through ``env`` (a v1 ``raw_env`` with ``auto_single=False`` and the
    record's rules), adding every choice of ``seats`` to ``demos``; the number of rows added.
    A replay that does not end as recorded raises ValueError."""
    from hostwcg_env.engine import Action
    from hostwcg_env.env.aec import AGENTS
    from hostwcg_env.env.codec import encode

    seats = set(seats)
    game = new_game(rec)
    env.start_from(game)
    added = 0
    for i, text in enumerate(rec["actions"]):
        g = env.game
        assert g is not None  # (start_from set it)
        d = g.decision
        if d is None or g.is_over:
            raise ValueError(f"record {rec.get('key')}: the game ended before action {i + 1}")
        action = Action.parse(text)
        idx = encode(env.layout, g.state, d.player, action)
        if d.player in seats and len(d.actions) >= 2:
            demos.add(env.observe(AGENTS[d.player]), idx, d.player)
            added += 1
        env.step(idx)
    g = env.game
    assert g is not None
    if not g.is_over or g.state.winner != rec["winner"]:
        raise ValueError(f"record {rec.get('key')}: the replay did not end as recorded")
    demos.end_game(g.state.winner, gamma)
    return added


def v1_from_records(records: Iterable[Record], agent: str | None = None,
                    gamma: float = 0.995) -> dict[str, np.ndarray]:
    """The v1 rows of ``agent``'s choices (its name in the records; None: both seats of every game)
    in the given records (``hostwcg_env.analysis.replay.replayable``). Only records played under the
    default rules are taken (the env's observation layout follows the rules); the others are
    skipped."""
    from agents.demos_v1 import V1Demos
    from hostwcg_env.env.codec import LayoutError
    from hostwcg_env.env.v1.aec import raw_env

    env = raw_env(auto_single=False)
    demos = V1Demos(env)
    skipped = 0
    for rec in records:
        if rec.get("rules"):
            continue
        seats = [s for s, name in enumerate(rec["agents"]) if agent is None or name == agent]
        if not seats or not rec["actions"]:
            continue
        before = len(demos.actions)
        try:
            replay_into_v1(rec, demos, env, seats, gamma)
        except LayoutError:  # a choice the env's layout does not offer (codec.offered): skip the game
            demos.truncate(before)
            skipped += 1
    return {**demos.arrays(), "skipped_unexpressible": np.asarray(skipped)}
