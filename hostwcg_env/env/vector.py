"""The one single-agent and vector stack of every env version (docs/env.md "One stack,
per-version observers and skipping").

``GameBatch`` is the core: n games of one version (its ``raw_env``, so its observer), a
learner seat in each, an opponent per game asked in *batches* (one call for all the games
that wait on the same opponent), observations written into one row per game
(``buffers``: the learner's, ``opponent_buffers``: the opponent's). Which decisions are taken
without asking anyone is the version's own episode semantics, declared by its observer
(``Observer.skip``): ``"forced"`` takes every decision with one legal action, of either seat
(hostwcg_v0); ``"public"`` only those whose being forced is public, as the AEC env does
(hostwcg_v1), so whether a seat is asked never tells what is hidden.

The views over the core:

* ``HostVectorEnv``: n games as a Stable-Baselines3 ``VecEnv`` (automatic resets, opponent
  pools, seeding as SB3's); a version binds its ``raw_env`` as ``aec_class``
  (``hostwcg_env.env.v1.vector.VectorEnv``);
* ``HostSingleEnv``: one game as a gymnasium ``Env``, the vector env of one game without
  automatic resets (``hostwcg_env.env.v1.vector.SingleEnv``, ``hostwcg/HostWCG-v1``);
* hostwcg_v0's ``SingleAgentEnv`` (``hostwcg_env.env.single``) keeps v0's own seeding and
  per-game opponent forms over a core of one game.

A batched opponent (``batch_policy``) is ``"random"``, a callable ``policy(obs, masks) ->
actions`` (``obs`` the observation arrays of the m games waiting, first axis m; ``masks``
their ``(m, N)`` action masks), an object with ``predict(obs, action_masks=...,
deterministic=...)`` (an SB3 model), or an engine-level agent with ``choose(view, actions)``,
asked game by game from its own ``PlayerView``. A policy whose ``reads_observation`` is False
(the random one) is given the masks alone (``obs`` None): no observation is written for it.

The observation space must be a ``Dict`` with an ``"action_mask"`` entry (every version's
is). An observer that writes in place (``WritesRows``: v1's) writes straight into the rows;
any other observer's ``observe`` arrays are copied into them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from hostwcg_env.engine import IllegalActionError

from .aec import AGENTS, RENDER_FPS, RENDER_MODES, HostAECEnv, action_index
from .codec import LayoutError, encode, offered
from .inputs import check_int, check_seed, step_after_end
from .observers.base import SKIPS, Row, Skip, WritesRows

try:  # an SB3 VecEnv when Stable-Baselines3 is installed (the train extra), else the same API
    from stable_baselines3.common.vec_env import VecEnv as _Base
except ImportError:  # pragma: no cover - the test environment has SB3
    class _Base:  # type: ignore[no-redef]
        """The parts of SB3's VecEnv this env uses, for an install without SB3."""

        def __init__(self, num_envs: int, observation_space: spaces.Space, action_space: spaces.Space) -> None:
            self.num_envs = num_envs
            self.observation_space = observation_space
            self.action_space = action_space
            self.reset_infos: list[dict[str, Any]] = [{} for _ in range(num_envs)]
            self._seeds: list[int | None] = [None] * num_envs

        def _reset_seeds(self) -> None:
            self._seeds = [None] * self.num_envs

        def seed(self, seed: int | None = None) -> list[int | None]:
            if seed is None:
                seed = int(np.random.randint(0, 2**32 - 1))
            self._seeds = [seed + i for i in range(self.num_envs)]
            return self._seeds

        def step(self, actions: np.ndarray) -> Any:
            self.step_async(actions)  # type: ignore[attr-defined]
            return self.step_wait()  # type: ignore[attr-defined]

        def _get_indices(self, indices: Any) -> Any:
            if indices is None:
                return range(self.num_envs)
            return [indices] if isinstance(indices, int) else indices


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
        self._forfeit = np.zeros(n, dtype=bool)  # the learner's illegal action ended the game
        self._opp_of: list[Any] = [None] * n
        # the observers that write in place (None where the rows are copied from observe())
        self._writes: list[WritesRows] | None = None
        if isinstance(first.observer, WritesRows):
            self._writes = [cast(WritesRows, e.observer) for e in self.games]
        self._learner = [AGENTS[0]] * n  # the learner's agent name in each game
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
        self._learner[i] = AGENTS[seat]
        self._opp_of[i] = opponent
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
        return bool(self._forfeit[i]) or g is None or g.is_over

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
        if self._forfeit[i]:
            return
        applied = False
        while not g.is_over:
            d = g.decision
            assert d is not None
            if len(d.actions) != 1:
                break
            e._apply(d.player, d.actions[0])
            applied = True
        if applied:
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
        games, learner = self.games, self._learner
        todo = active
        while todo:
            waiting: list[int] = []
            for i in todo:
                if forced:
                    self._take_forced(i)
                if self.game_over(i):
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
            groups: dict[int, list[int]] = {}  # one batched call per opponent
            for i in waiting:
                groups.setdefault(id(self._opp_of[i]), []).append(i)
            for group in groups.values():
                self._play_opponent(group)
            todo = waiting
        for i in active:  # the learner's observation (of the finished game without a restart)
            self._write_row(i, int(self.seats[i]), self._rows[i][0])

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
        if hasattr(opp, "choose"):  # engine level: from its own view, game by game
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
        if not getattr(opp, "reads_observation", True):  # the masks alone: no observation is written
            rows = [self.games[i].action_mask(AGENTS[1 - int(self.seats[i])]) for i in group]
            masks = rows[0][None] if len(rows) == 1 else np.stack(rows)
            actions = np.asarray(opp(None, masks)).reshape(-1)
        else:
            for i in group:
                self._write_row(i, 1 - int(self.seats[i]), self._rows[i][1])
            idx = np.asarray(group)
            obs = {k: b[idx] for k, b in self.opponent_buffers.items()}
            actions = np.asarray(opp(obs, obs["action_mask"])).reshape(-1)
        if actions.shape[0] != len(group):
            raise ValueError(f"the opponent policy gave {actions.shape[0]} actions for {len(group)} games")
        chosen = actions.tolist() if actions.dtype.kind in "iu" else list(actions)  # Python ints: one check each
        for j, i in enumerate(group):
            e = self.games[i]
            try:
                e.step(action_index(chosen[j], e.layout.n))
            except IllegalActionError as err:
                raise ValueError(f"the opponent policy chose an illegal action in game {i}: {err}") from err


class HostVectorEnv(GameBatch, _Base):
    """n games of one version as an SB3 ``VecEnv``; a version binds its ``raw_env`` as
    ``aec_class`` (``hostwcg_env.env.v1.vector.VectorEnv``, docs/env_v1.md "The vector env").

    The learner plays one seat of each game (alternating every episode, game ``i`` starting
    at seat ``i % 2``, unless ``seat`` is fixed). ``opponent`` is a batched policy or a list
    of them, an *opponent pool*: each game draws its opponent when its episode starts
    (uniformly, or by ``pick(game) -> pool index``) and keeps it to the end;
    ``infos[i]["opponent"]`` names the pool index the finished game was played against, and
    ``set_opponents(pool)`` replaces the pool for the episodes that start afterwards.
    ``step_wait`` returns copies of the rows unless ``copy_obs=False``. A finished game is
    reset at once (SB3's convention: its last observation in
    ``infos[i]["terminal_observation"]``, ``TimeLimit.truncated`` at the turn limit), unless
    ``autoreset=False``; rewards are +1 / -1 at the end, 0 for a draw or the turn limit. An
    illegal learner action ends that game with -1 (``infos[i]["illegal_action"]``); an
    illegal opponent action raises. ``action_masks()`` gives the learner's masks
    (MaskablePPO). ``env_kwargs`` go to each ``raw_env`` (decks, deck_pools, config, turn_limit)."""

    aec_class: Callable[..., HostAECEnv]

    def __init__(self, n: int, opponent: Any = "random", seat: int | str = "alternate",
                 seed: int | None = None, copy_obs: bool = True, autoreset: bool = True,
                 **env_kwargs: Any) -> None:
        n = check_int("n (the number of games)", n, 1)
        check_seed(seed)
        check_seat(seat)
        GameBatch.__init__(self, n, type(self).aec_class, env_kwargs)
        self.seat = seat
        self.copy_obs = copy_obs
        self.autoreset = autoreset
        self.pick: Callable[[int], int] | None = None  # game -> pool index at each episode start
        self._pick_rng = np.random.default_rng(seed)
        self.set_opponents(opponent, seed)
        self.opp_index = np.zeros(n, dtype=np.int64)  # the pool index each game plays this episode
        self._opp_of = [self.pool[0]] * n
        self.seats[:] = [i % 2 if seat == "alternate" else int(seat) for i in range(n)]
        self.episodes = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros(n, dtype=np.float32)
        self._dones = np.zeros(n, dtype=bool)
        self._infos: list[dict[str, Any]] = []
        self._actions: np.ndarray | None = None
        self._started = False
        self.render_mode = None
        first = self.games[0]
        _Base.__init__(self, n, first.observation_space(AGENTS[0]), spaces.Discrete(first.layout.n))
        if seed is not None:
            self.seed(seed)

    # ------------------------------------------------------------------ opponents
    def set_opponents(self, opponent: Any, seed: int | None = None) -> None:
        """The opponent, or a list of them (a pool), for the episodes that start from now on;
        games under way finish against the opponent they started with."""
        specs = list(opponent) if isinstance(opponent, (list, tuple)) else [opponent]
        if not specs:
            raise ValueError("opponent: the pool is empty; give at least one opponent (e.g. 'random')")
        self.pool = [batch_policy(o, None if seed is None else seed + k) for k, o in enumerate(specs)]
        self.opponent = self.pool[0]

    def _draw_opponent(self, i: int) -> Any:
        if len(self.pool) == 1:
            k = 0
        elif self.pick is not None:
            k = int(self.pick(i))
            if not 0 <= k < len(self.pool):
                raise ValueError(f"pick({i}) gave opponent {k}; the pool has {len(self.pool)}")
        else:
            k = int(self._pick_rng.integers(len(self.pool)))
        self.opp_index[i] = k
        return self.pool[k]

    def seed(self, seed: int | None = None) -> list[int | None]:
        seeds = list(super().seed(check_seed(seed)))
        base = seeds[0]
        self._pick_rng = np.random.default_rng(base)
        for k, o in enumerate(self.pool):
            if isinstance(o, RandomBatchPolicy):
                o.reseed(None if base is None else base + k)
            elif hasattr(o, "choose") and hasattr(o, "reset") and base is not None:
                o.reset(base + k)
        return seeds

    # ------------------------------------------------------------------ games
    def _start(self, i: int, seed: int | None) -> None:
        """Start game i's next episode (its learner seat, its opponent drawn)."""
        if self.seat == "alternate":
            self.seats[i] = (i + self.episodes[i]) % 2
        self.episodes[i] += 1
        self.start_game(i, seed, int(self.seats[i]), self._draw_opponent(i))  # pick() sees the seat

    def _ended(self, i: int) -> bool:
        self._finish(i, self._infos[i])
        if not self.autoreset:
            return False
        self._start(i, None)
        return True

    def _finish(self, i: int, info: dict[str, Any]) -> None:
        """Score game i for its learner; with autoreset keep its last observation."""
        reward, truncated, winner = self.outcome(i)
        self._rewards[i] = reward
        info["TimeLimit.truncated"] = truncated
        info["winner"] = winner
        self._dones[i] = True
        self.done[i] = True
        info["seat"] = AGENTS[int(self.seats[i])]
        info["opponent"] = int(self.opp_index[i])
        if self.autoreset:
            self._write_row(i, int(self.seats[i]), self._rows[i][0])
            info["terminal_observation"] = {k: b[i].copy() for k, b in self.buffers.items()}

    # ------------------------------------------------------------------ VecEnv
    def reset(self) -> dict[str, np.ndarray]:
        n = self.num_envs
        for i in range(n):
            self.episodes[i] = 0
            self._start(i, self._seeds[i])
        self._reset_seeds()
        self._started = True
        self._infos = [{} for _ in range(n)]
        self.advance(range(n))
        self.reset_infos = [{"seat": AGENTS[int(self.seats[i])]} for i in range(n)]
        return self._obs()

    def _obs(self) -> dict[str, np.ndarray]:
        if self.copy_obs:
            return {k: b.copy() for k, b in self.buffers.items()}
        return self.buffers

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(-1)

    def step_wait(self) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if not self._started:
            raise RuntimeError("step() before reset(): call reset() first")
        acts = self._actions
        if acts is None or acts.shape[0] != self.num_envs:
            raise ValueError(f"step takes one action per game ({self.num_envs}), "
                             f"got {None if acts is None else acts.shape[0]}")
        self._actions = None
        n = self.num_envs
        self._rewards[:] = 0.0
        self._dones[:] = False
        infos: list[dict[str, Any]] = [{} for _ in range(n)]
        self._infos = infos
        active = []
        masks = self.buffers["action_mask"]
        for i in range(n):
            if self.done[i]:
                if self.autoreset:
                    raise RuntimeError(f"game {i} is over and was not reset")
                continue
            e = self.games[i]
            a = action_index(acts[i], e.layout.n)
            if not masks[i, a]:  # an illegal action loses the episode (as SingleAgentEnv)
                infos[i]["illegal_action"] = True
                self._forfeit[i] = True  # scored as lost by _finish
            else:
                e.step(a)
            active.append(i)
        self.advance(active)
        return self._obs(), self._rewards.copy(), self._dones.copy(), infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game, ``(n, N)`` bool (MaskablePPO)."""
        return self.buffers["action_mask"].astype(bool)

    def _mask_of(self, i: int) -> np.ndarray:
        return self.buffers["action_mask"][i].astype(bool)

    def close(self) -> None:
        for e in self.games:
            e.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        idx = list(self._get_indices(indices))
        if attr_name == "action_masks":
            return [functools.partial(self._mask_of, i) for i in idx]
        if attr_name in ("render_mode", "seats", "opponent", "pool", "opp_index"):
            return [getattr(self, attr_name) for _ in idx]
        return [getattr(self.games[i], attr_name) for i in idx]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        for i in self._get_indices(indices):
            setattr(self.games[i], attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            return [self._mask_of(i) for i in idx]
        return [getattr(self.games[i], method_name)(*method_args, **method_kwargs) for i in idx]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


class HostSingleEnv(gym.Env):
    """One game of a version against a batched opponent as a gymnasium ``Env``: its vector env
    (``vector_class``) of one game, without automatic resets; for
    ``gymnasium.utils.env_checker`` and SB3's ``check_env``. ``render()`` draws the board from
    the learner's seat (unless ``render_view`` is given): text (``"ansi"``), printed
    (``"human"``) or an (H, W, 3) uint8 image (``"rgb_array"``, for gymnasium's
    ``RecordVideo``)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}
    vector_class: Callable[..., HostVectorEnv]

    def __init__(self, opponent: Any = "random", seat: int | str = "alternate",
                 render_mode: str | None = None, **env_kwargs: Any) -> None:
        super().__init__()
        self.vec = type(self).vector_class(1, opponent=opponent, seat=seat, autoreset=False,
                                           render_mode=render_mode, **env_kwargs)
        self.render_mode = render_mode
        self._follow_learner = "render_view" not in env_kwargs  # render from the learner's seat
        self.observation_space = self.vec.observation_space
        self.action_space = self.vec.action_space
        self._ready = False

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict[str, np.ndarray], dict]:
        check_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            self.vec.seed(seed)  # reseeds the opponents too
        obs = self.vec.reset()
        self._ready = True
        if self._follow_learner:
            self.vec.games[0].render_view = int(self.vec.seats[0])
        return {k: v[0] for k, v in obs.items()}, dict(self.vec.reset_infos[0])

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        if not self._ready:
            raise RuntimeError("step() before reset(): call env.reset() first")
        if self.vec.done[0]:
            raise step_after_end()
        self.vec.step_async(np.array([action]))
        obs, rewards, dones, infos = self.vec.step_wait()
        info = infos[0]
        done = bool(dones[0])
        truncated = done and bool(info.get("TimeLimit.truncated"))
        return {k: v[0] for k, v in obs.items()}, float(rewards[0]), done and not truncated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.vec.action_masks()[0]

    def render(self) -> Any:
        """The board from the learner's seat (see the class docstring); None without a render mode."""
        return self.vec.games[0].render()


__all__ = ["BatchPolicy", "GameBatch", "HostSingleEnv", "HostVectorEnv", "RandomBatchPolicy", "batch_policy",
           "check_seat"]
