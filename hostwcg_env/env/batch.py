"""The core of the one single-agent and vector stack (docs/env.md "One stack, per-version
observers and skipping"): ``GameBatch``, n games of one env version with a learner seat in
each and the opponents asked in batches, and the batched opponent forms. The views over it
are ``hostwcg_env.env.vector`` (``HostVectorEnv``, ``HostSingleEnv``: Stable-Baselines3's
``VecEnv`` API) and hostwcg_v0's ``SingleAgentEnv`` (``hostwcg_env.env.single``); this module
imports neither Stable-Baselines3 nor torch.

``GameBatch`` plays each game through its version's ``raw_env`` (so its observer) and writes
the observations into one row per game (``buffers``: the learner's, ``opponent_buffers``: the
opponent's), in place where the observer can (``WritesRows``) and else copied from
``observe()``. Which decisions are taken without asking anyone is the version's own episode
semantics, declared by its observer (``Observer.skip``): ``"forced"`` takes every decision with
one legal action, of either seat (hostwcg_v0); ``"public"`` only those whose being forced is
public, as the AEC env does (hostwcg_v1), so whether a seat is asked never tells what is
hidden. The observation space must be a ``Dict`` with an ``"action_mask"`` entry (every
version's is).

A batched opponent (``batch_policy``) is ``"random"``, a callable ``policy(obs, masks) ->
actions`` (``obs`` the observation arrays of the m games waiting, first axis m; ``masks``
their ``(m, N)`` action masks), an object with ``predict(obs, action_masks=...,
deterministic=...)`` (an SB3 model), or an engine-level agent with ``choose(view, actions)``,
asked game by game from its own ``PlayerView``. A policy whose ``reads_observation`` is False
(the random one) is given the masks alone (``obs`` None): no observation is written for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

import numpy as np
from gymnasium import spaces

from hostwcg_env.engine import IllegalActionError

from .aec import AGENTS, HostAECEnv, action_index
from .codec import LayoutError, encode, offered
from .observers.base import SKIPS, Row, Skip, WritesRows

BatchPolicy = Callable[[dict[str, np.ndarray] | None, np.ndarray], np.ndarray]


class RandomBatchPolicy:
    """Uniform over each row's legal actions, for a whole batch at once (reads the masks only)."""

    reads_observation = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reseed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: dict[str, np.ndarray] | None, masks: np.ndarray) -> np.ndarray:
        u = self.rng.random(masks.shape)
        u[masks == 0] = -1.0
        return u.argmax(axis=1)


def batch_policy(spec: Any, seed: int | None = None) -> Any:
    """An opponent as a batched policy (see the module docstring); an engine-level agent
    (``choose``) is kept as it is."""
    if isinstance(spec, str):
        if spec == "random":
            return RandomBatchPolicy(seed)
        raise ValueError(f"opponent {spec!r}: give 'random', a batched callable policy(obs, masks) "
                         f"-> actions, a model with predict(obs, action_masks=...), or an engine-level "
                         f"agent: agents.make_agent({spec!r}, seed=...) (gymnasium.make('hostwcg/HostWCG-v1', "
                         f"opponent={spec!r}) makes it)")
    if hasattr(spec, "choose"):
        return spec
    if hasattr(spec, "predict"):
        def predict(obs: dict[str, np.ndarray], masks: np.ndarray) -> np.ndarray:
            actions, _ = spec.predict(obs, action_masks=masks.astype(bool), deterministic=False)
            return np.asarray(actions)

        return predict
    if callable(spec):
        return spec
    raise TypeError(f"opponent must be 'random', a callable policy(obs, masks) -> actions, or an object "
                    f"with predict(): got {spec!r}")


def check_seat(seat: Any) -> None:
    """A learner seat as the envs take it: ``"alternate"``, 0 or 1."""
    if seat not in ("alternate", 0, 1) or type(seat) is bool:
        raise ValueError(f"seat must be 'alternate', 0 or 1, got {seat!r}")


_CHOOSES, _MASKS, _OBSERVES = 0, 1, 2  # an engine-level agent; a policy of the masks alone; of observations


def _kind(opponent: Any) -> int:
    if hasattr(opponent, "choose"):
        return _CHOOSES
    return _OBSERVES if getattr(opponent, "reads_observation", True) else _MASKS


def _rows_of(buffers: dict[str, np.ndarray], i: int) -> dict[str, np.ndarray]:
    return {k: b[i] for k, b in buffers.items()}


class GameBatch:
    """n games of one env version (``aec_class``, its ``raw_env``), one learner seat in each,
    the opponents batched (see the module docstring). The views start a game
    (``start_game``), step the learner's action on the game (``games[i].step``) and call
    ``advance``, which plays on until every game given waits on its learner or is over."""

    def __init__(self, n: int, aec_class: Callable[..., HostAECEnv], env_kwargs: dict[str, Any]) -> None:
        self.games: list[HostAECEnv] = [aec_class(**env_kwargs) for _ in range(n)]
        first = self.games[0]
        skip = getattr(first.observer, "skip", None)
        if skip not in SKIPS:
            raise TypeError(f"{type(first.observer).__name__}.skip must be one of {list(SKIPS)} (which decisions "
                            f"the single-agent and vector envs take without asking), got {skip!r}")
        self.skip: Skip = skip
        space = first.observation_space(AGENTS[0])
        if not isinstance(space, spaces.Dict) or "action_mask" not in space.spaces:
            raise TypeError(f"{type(first).__name__}: the single-agent and vector envs need a Dict observation "
                            f"with an 'action_mask' entry, got {space}")
        sizes = {k: ((n, *(s.shape or ())), s.dtype) for k, s in space.spaces.items()}
        self.buffers = {k: np.zeros(shape, dtype=dt) for k, (shape, dt) in sizes.items()}
        self.opponent_buffers = {k: np.zeros(shape, dtype=dt) for k, (shape, dt) in sizes.items()}
        self.seats = np.zeros(n, dtype=np.int64)  # the learner's seat in each game
        self.done = np.zeros(n, dtype=bool)
        self._forfeit = [False] * n  # the learner's illegal action ended the game (a list: read every step)
        self._opp_of: list[Any] = [None] * n
        self._opp_kind = [_OBSERVES] * n  # how each game's opponent is asked (_CHOOSES, _MASKS, _OBSERVES)
        # the observers that write in place (None where the rows are copied from observe())
        self._writes: list[WritesRows] | None = None
        if isinstance(first.observer, WritesRows):
            self._writes = [cast(WritesRows, e.observer) for e in self.games]
        self._seat = [0] * n  # seats as a list (read every step; ``seats`` is the public array)
        self._learner = [AGENTS[0]] * n  # the learner's agent name in each game
        self._opponent = [AGENTS[1]] * n  # the opponent's
        self._writers: list[tuple[Row, Row]] | None = None
        self._bind_rows()

    def _bind_rows(self) -> None:
        """Each game's two rows (the learner's, the opponent's) as views of the buffers; an
        observer that writes in place gets a writer for each (or, in a copy, rebinds them)."""
        n = len(self.games)
        self._rows = [(_rows_of(self.buffers, i), _rows_of(self.opponent_buffers, i)) for i in range(n)]
        if self._writes is None:
            return
        writers = self._writers
        if writers is None:
            self._writers = [(w.row(mine), w.row(theirs)) for w, (mine, theirs) in zip(self._writes, self._rows,
                                                                                          strict=True)]
        else:
            for (w_mine, w_theirs), (mine, theirs) in zip(writers, self._rows, strict=True):
                w_mine.rebind(mine)
                w_theirs.rebind(theirs)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A copy (pickle, deepcopy) has buffers of its own, and numpy copies a view as an
        array of its own: each game's rows become views of the copy's buffers again."""
        self.__dict__.update(state)
        self._bind_rows()

    # ------------------------------------------------------------------ one game
    def start_game(self, i: int, seed: int | None, seat: int, opponent: Any) -> None:
        """Reset game ``i`` (``seed`` for its dealing) with the learner at ``seat`` against
        the batched policy ``opponent``; ``advance`` plays it to the learner's first decision."""
        self.seats[i] = seat
        self._seat[i] = seat
        self._learner[i] = AGENTS[seat]
        self._opponent[i] = AGENTS[1 - seat]
        self._opp_of[i] = opponent
        self._opp_kind[i] = _kind(opponent)
        e = self.games[i]
        if self._writes is not None and self._writers is not None:
            mine, theirs = self._writers[i]
            self._writes[i].bind(seat, mine)
            self._writes[i].bind(1 - seat, theirs)
        e.reset(seed=seed)
        self.done[i] = False
        self._forfeit[i] = False

    def game_over(self, i: int) -> bool:
        g = self.games[i].game
        return self._forfeit[i] or g is None or g.is_over

    def outcome(self, i: int) -> tuple[float, bool, str | None]:
        """The finished game ``i`` for its learner: (reward, truncated, winner)."""
        seat = int(self.seats[i])
        if self._forfeit[i]:
            return -1.0, False, AGENTS[1 - seat]
        g = self.games[i].game
        assert g is not None
        s = g.state
        if s.winner is None:
            return 0.0, bool(s.truncated), None
        return (1.0 if s.winner == seat else -1.0), bool(s.truncated), AGENTS[s.winner]

    def _take_forced(self, i: int) -> None:
        """``skip == "forced"``: take every decision of game ``i`` with one legal action, of
        either seat, until one has a choice or the game is over. Inside these envs neither
        seat sees the other's stops, so who is asked tells no one anything."""
        e = self.games[i]
        g = e.game
        assert g is not None
        d = g.decision
        if d is None or len(d.actions) != 1 or self._forfeit[i] or g.is_over:
            return  # a choice, or the end (no decision)
        apply = e._apply
        while not g.is_over:
            d = g.decision
            assert d is not None
            if len(d.actions) != 1:
                break
            apply(d.player, d.actions[0])
        e._settle()  # the env's view of the decision reached (mask, agent_selection), or the end

    def _ended(self, i: int) -> bool:
        """Game ``i`` is over; whether it goes on (was started again). The vector env scores
        and restarts it here; a single game stops."""
        return False

    # ------------------------------------------------------------------ the batch
    def advance(self, active: Iterable[int]) -> None:
        """Play the opponents in the ``active`` games (one batched call per opponent and
        round) until each waits on its learner or is over; then write each learner's row."""
        active = list(active)
        forced = self.skip == "forced"
        games, learner, forfeit = self.games, self._learner, self._forfeit
        todo = active
        while todo:
            waiting: list[int] = []
            for i in todo:
                if forced:
                    self._take_forced(i)
                g = games[i].game
                if forfeit[i] or g is None or g.is_over:
                    if not self._ended(i):
                        continue
                    if forced:
                        self._take_forced(i)
                    if self.game_over(i):  # cannot happen in these rules; be safe
                        continue
                if games[i].agent_selection != learner[i]:
                    waiting.append(i)
            if not waiting:
                break
            if len(waiting) == 1:
                self._play_opponent(waiting)
            else:
                groups: dict[int, list[int]] = {}  # one batched call per opponent
                for i in waiting:
                    groups.setdefault(id(self._opp_of[i]), []).append(i)
                for group in groups.values():
                    self._play_opponent(group)
            todo = waiting
        for i in active:  # the learner's observation (of the finished game without a restart)
            self._write_row(i, self._seat[i], self._rows[i][0])

    def _write_row(self, i: int, player: int, row: dict[str, np.ndarray]) -> None:
        """Bring ``player``'s observation of game ``i`` into its row (``row``: the learner's
        or the opponent's row of that game, the one bound to ``player``)."""
        e = self.games[i]
        g = e.game
        assert g is not None
        if self._writes is not None:
            self._writes[i].observe_into(g, player, e._deciding(g, player))
            return
        obs = e.observer.observe(g, player, e._deciding(g, player))
        for k, a in row.items():
            a[...] = obs[k]

    def _play_opponent(self, group: list[int]) -> None:
        """One move of the opponent in each game of ``group`` (all against the same opponent)."""
        opp = self._opp_of[group[0]]
        kind = self._opp_kind[group[0]]
        if kind == _CHOOSES:  # engine level: from its own view, game by game
            for i in group:
                e = self.games[i]
                g = e.game
                assert g is not None and g.decision is not None
                d = g.decision
                a = opp.choose(g.view(d.player), offered(d.actions))
                try:
                    e.step(encode(e.layout, g.state, d.player, a))
                except (IllegalActionError, LayoutError) as err:
                    raise ValueError(f"the opponent agent chose an illegal action in game {i}: {err}") from err
            return
        if kind == _MASKS:  # the masks alone: no observation is written
            rows = [self.games[i].action_mask(self._opponent[i]) for i in group]
            masks = rows[0][None] if len(rows) == 1 else np.stack(rows)
            out = opp(None, masks)
        else:
            for i in group:
                self._write_row(i, 1 - self._seat[i], self._rows[i][1])
            idx = np.asarray(group)
            obs = {k: b[idx] for k, b in self.opponent_buffers.items()}
            out = opp(obs, obs["action_mask"])
        if type(out) is list:  # already one Python value per game
            chosen = out
        else:
            actions = np.asarray(out).reshape(-1)
            chosen = actions.tolist() if actions.dtype.kind in "iu" else list(actions)  # Python ints: one check each
        if len(chosen) != len(group):
            raise ValueError(f"the opponent policy gave {len(chosen)} actions for {len(group)} games")
        for j, i in enumerate(group):
            e = self.games[i]
            try:
                e.step(action_index(chosen[j], e._n))
            except IllegalActionError as err:
                raise ValueError(f"the opponent policy chose an illegal action in game {i}: {err}") from err


__all__ = ["BatchPolicy", "GameBatch", "RandomBatchPolicy", "batch_policy", "check_seat"]
