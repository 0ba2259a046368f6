"""The one single-agent and vector stack's views with Stable-Baselines3's ``VecEnv`` API
(docs/env.md "One stack, per-version observers and skipping"): ``HostVectorEnv``, n games of a
version as a ``VecEnv``, and ``HostSingleEnv``, one game as a gymnasium ``Env``, both over
``hostwcg_env.env.batch.GameBatch``. A version binds its ``raw_env`` as ``aec_class`` (and
its vector env as ``vector_class``): ``hostwcg_env.env.v1.vector``. This module imports
Stable-Baselines3 where it is installed (the train extra); ``hostwcg_env.env.batch`` does not.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .aec import AGENTS, RENDER_FPS, RENDER_MODES, HostAECEnv, action_index
from .batch import BatchPolicy, GameBatch, RandomBatchPolicy, batch_policy, check_seat
from .inputs import check_int, check_seed, step_after_end

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


__all__ = ["BatchPolicy", "GameBatch", "HostSingleEnv", "HostVectorEnv", "RandomBatchPolicy", "batch_policy"]
