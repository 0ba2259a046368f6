"""Demonstrations from game records: an agent's recorded choices replayed as behaviour-cloning
rows (``agents.demos``: the row format; ``scripts/pretrain_bc.py --ladder``: the training).

A record keeps every action of its game, so replaying it (``replay.py``) shows each choice of
an agent exactly as that agent saw it: the observation the env would give that player, the
action mask, the action taken. The ISMCTS games of the ladder are thus a distillation set that
costs nothing more to make.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from agents.demos import DemoBuilder, Relabel

from .replay import replay
from .runner import Visitor


class _Choices(Visitor):
    """Adds every choice (two or more legal actions) of the recorded seats to a builder."""

    def __init__(self, builder: DemoBuilder, seats: list[int], relabel: Relabel | None) -> None:
        from agents import Observer
        from hostwcg_env.engine import RuleConfig

        self.builder, self.seats, self.relabel = builder, seats, relabel
        self.observer = Observer(RuleConfig())  # fresh buffers for a new game
        self.relabelled = 0

    def before(self, game: Any, i: int, action: Any) -> None:
        from hostwcg_env.env.codec import encode

        d = game.decision
        if d.player in self.seats and len(d.actions) >= 2:
            obs, mask = self.observer.observe(game)
            flat = encode(self.observer.codec.lay, game.state, d.player, action)
            if self.relabel is not None:
                label = self.relabel(game, flat, obs, mask, self.observer)
                self.relabelled += label != flat
                flat = label
            self.builder.add(obs, mask, flat, d.player)


def from_records(records: Iterable[dict[str, Any]], agent: str, gamma: float = 0.995,
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
