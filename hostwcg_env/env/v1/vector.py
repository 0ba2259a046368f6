"""n hostwcg_v1 games stepped in one process, as a Stable-Baselines3 ``VecEnv`` (docs/env_v1.md).

``VectorEnv(n, opponent=...)`` holds n games. The learner plays one seat of each (alternating
every episode, game ``i`` starting at seat ``i % 2``, unless ``seat`` is fixed); the opponent
is one *batched* policy, asked once for all the games that wait on it:

* ``"random"``: uniform over each game's legal actions (numpy, seeded by ``seed``);
* a callable ``policy(obs, masks) -> actions``: ``obs`` the Dict observation arrays of the m
  games waiting (first axis m), ``masks`` their ``(m, N)`` action masks, the m action indices
  back;
* an object with ``predict(obs, action_masks=..., deterministic=...)`` (an SB3 MaskablePPO
  model, ``agents.set_policy.NumpySetPolicy``): called as SB3 models are;
* an engine-level agent, an object with ``choose(view, actions)`` (``agents.make_agent("heuristic")``,
  ``"lookahead"``): asked game by game from its own ``PlayerView``, as in ``SingleAgentEnv``;
* a list of these, an *opponent pool*: each game draws its opponent when its episode starts
  (uniformly, or by ``pick(game) -> pool index``, e.g. a league's prioritised sampling) and
  keeps it to the end; ``infos[i]["opponent"]`` names the pool index the finished game was
  played against, and ``set_opponents(pool)`` replaces the pool for the episodes that start
  afterwards.

The random and engine-level opponents read no v1 observation: only the learner's is written
(half the encoding of an observation-reading opponent).

The observations are written in place (incrementally) into preallocated arrays, one row per
game (``buffers``: the learner's, ``opponent_buffers``: the opponent's); ``step_wait`` returns
copies unless ``copy_obs=False``. A finished game is reset at once (SB3's convention: its last
observation in ``infos[i]["terminal_observation"]``, ``TimeLimit.truncated`` at the turn
limit); rewards are +1 / -1 at the end, 0 for a draw or the turn limit. An illegal learner
action ends that game with -1 (``infos[i]["illegal_action"]``), as ``SingleAgentEnv`` does;
an illegal opponent action raises. ``action_masks()`` gives the learner's masks (MaskablePPO).
Each game is a ``raw_env``: the same game, memory and observation as the AEC env.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from hostwcg_env.engine import IllegalActionError

from ..aec import AGENTS, RENDER_FPS, RENDER_MODES, action_index
from ..codec import LayoutError, encode, offered
from ..inputs import check_int, check_seed, step_after_end
from .aec import raw_env
from .encoder import Slate
from .spaces import observation_space

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


BatchPolicy = Callable[[dict[str, np.ndarray], np.ndarray], np.ndarray]


class RandomBatchPolicy:
    """Uniform over each row's legal actions, for a whole batch at once."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reseed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: dict[str, np.ndarray], masks: np.ndarray) -> np.ndarray:
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
        return spec  # type: ignore[no-any-return]
    raise TypeError(f"opponent must be 'random', a callable policy(obs, masks) -> actions, or an object "
                    f"with predict(): got {spec!r}")


class VectorEnv(_Base):
    """n v1 games for SB3 (see the module docstring). ``env_kwargs`` go to each ``raw_env``
    (decks, deck_pools, config, turn_limit)."""

    def __init__(self, n: int, opponent: Any = "random", seat: int | str = "alternate",
                 seed: int | None = None, copy_obs: bool = True, autoreset: bool = True,
                 **env_kwargs: Any) -> None:
        n = check_int("n (the number of games)", n, 1)
        check_seed(seed)
        if seat not in ("alternate", 0, 1) or type(seat) is bool:
            raise ValueError(f"seat must be 'alternate', 0 or 1, got {seat!r}")
        self.games = [raw_env(**env_kwargs) for _ in range(n)]
        lay = self.games[0].obs_layout
        self.obs_layout = lay
        self.seat = seat
        self.copy_obs = copy_obs
        self.autoreset = autoreset
        self.pick: Callable[[int], int] | None = None  # game -> pool index at each episode start
        self._pick_rng = np.random.default_rng(seed)
        self.set_opponents(opponent, seed)
        self.opp_index = np.zeros(n, dtype=np.int64)  # the pool index each game plays this episode
        self._opp_of: list[Any] = [self.pool[0]] * n
        self.buffers = {k: np.zeros((n, *shape), dtype=dt) for k, (shape, dt) in lay.sizes().items()}
        self.opponent_buffers = {k: np.zeros((n, *shape), dtype=dt) for k, (shape, dt) in lay.sizes().items()}
        self._learner_slates = [Slate(lay, {k: b[i] for k, b in self.buffers.items()}) for i in range(n)]
        self._opp_slates = [Slate(lay, {k: b[i] for k, b in self.opponent_buffers.items()}) for i in range(n)]
        self.seats = np.array([i % 2 if seat == "alternate" else int(seat) for i in range(n)], dtype=np.int64)
        self.episodes = np.zeros(n, dtype=np.int64)
        self.done = np.zeros(n, dtype=bool)
        self._forfeit = np.zeros(n, dtype=bool)  # the learner's illegal action ended the game
        self._rewards = np.zeros(n, dtype=np.float32)
        self._dones = np.zeros(n, dtype=bool)
        self._actions: np.ndarray | None = None
        self._started = False
        self.render_mode = None
        super().__init__(n, observation_space(lay), spaces.Discrete(lay.n_actions))
        if seed is not None:
            self.seed(seed)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A copy (pickle, deepcopy) has buffers of its own, and numpy copies a view as an
        array of its own: each game's slates become views of the copy's buffers again."""
        self.__dict__.update(state)
        for i, (mine, theirs) in enumerate(zip(self._learner_slates, self._opp_slates, strict=True)):
            mine.rebind({k: b[i] for k, b in self.buffers.items()})
            theirs.rebind({k: b[i] for k, b in self.opponent_buffers.items()})

    # ------------------------------------------------------------------ opponents
    def set_opponents(self, opponent: Any, seed: int | None = None) -> None:
        """The opponent, or a list of them (a pool), for the episodes that start from now on;
        games under way finish against the opponent they started with."""
        specs = list(opponent) if isinstance(opponent, (list, tuple)) else [opponent]
        if not specs:
            raise ValueError("opponent: the pool is empty; give at least one opponent (e.g. 'random')")
        self.pool = [batch_policy(o, None if seed is None else seed + k) for k, o in enumerate(specs)]
        self.opponent = self.pool[0]

    def _draw_opponent(self, i: int) -> None:
        if len(self.pool) == 1:
            k = 0
        elif self.pick is not None:
            k = int(self.pick(i))
            if not 0 <= k < len(self.pool):
                raise ValueError(f"pick({i}) gave opponent {k}; the pool has {len(self.pool)}")
        else:
            k = int(self._pick_rng.integers(len(self.pool)))
        self.opp_index[i] = k
        self._opp_of[i] = self.pool[k]

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
    def _learner(self, i: int) -> str:
        return AGENTS[int(self.seats[i])]

    def _start(self, i: int, seed: int | None) -> None:
        """Reset game i (its learner seat for this episode) and play the opponent to the
        learner's first decision (for this one game; ``_advance`` batches the opponent)."""
        if self.seat == "alternate":
            self.seats[i] = (i + self.episodes[i]) % 2
        self.episodes[i] += 1
        e = self.games[i]
        s = int(self.seats[i])
        e._slates = {AGENTS[s]: self._learner_slates[i], AGENTS[1 - s]: self._opp_slates[i]}
        self._draw_opponent(i)
        e.reset(seed=seed)
        self.done[i] = False
        self._forfeit[i] = False

    def _over(self, i: int) -> bool:
        g = self.games[i].game
        return bool(self._forfeit[i]) or g is None or g.is_over

    def _advance(self, active: Sequence[int], infos: list[dict[str, Any]]) -> None:
        """Play the opponent in every active game (one batched call per round) until each waits
        on the learner; a game that ends is scored and (with autoreset) started again."""
        todo = list(active)
        while todo:
            waiting: list[int] = []
            for i in todo:
                if self._over(i):
                    self._finish(i, infos[i])
                    if not self.autoreset:
                        continue
                    self._start(i, None)
                    if self._over(i):  # cannot happen in these rules; be safe
                        continue
                e = self.games[i]
                if e.agent_selection != self._learner(i):
                    waiting.append(i)
            if not waiting:
                break
            groups: dict[int, list[int]] = {}  # one batched call per opponent
            for i in waiting:
                groups.setdefault(id(self._opp_of[i]), []).append(i)
            for group in groups.values():
                self._play_opponent(group)
            todo = waiting
        for i in active:  # the learner's observation (of the finished game without autoreset)
            self.games[i].observe_into(self._learner(i))

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
        if isinstance(opp, RandomBatchPolicy):  # it reads the masks alone: no observation is written
            masks = np.stack([self.games[i].action_mask(AGENTS[1 - int(self.seats[i])]) for i in group])
            actions = opp(self.opponent_buffers, masks)
        else:
            for i in group:
                self.games[i].observe_into(AGENTS[1 - int(self.seats[i])])
            idx = np.asarray(group)
            obs = {k: b[idx] for k, b in self.opponent_buffers.items()}
            actions = np.asarray(opp(obs, obs["action_mask"])).reshape(-1)
        if actions.shape[0] != len(group):
            raise ValueError(f"the opponent policy gave {actions.shape[0]} actions for {len(group)} games")
        for j, i in enumerate(group):
            e = self.games[i]
            try:
                e.step(action_index(actions[j], e.layout.n))
            except IllegalActionError as err:
                raise ValueError(f"the opponent policy chose an illegal action in game {i}: {err}") from err

    def _finish(self, i: int, info: dict[str, Any]) -> None:
        """Score game i for its learner; with autoreset keep its last observation."""
        e = self.games[i]
        g = e.game
        assert g is not None
        s = g.state
        learner = self._learner(i)
        if self._forfeit[i]:
            self._rewards[i] = -1.0
            info["TimeLimit.truncated"] = False
            info["winner"] = AGENTS[1 - int(self.seats[i])]
        else:
            self._rewards[i] = 0.0 if s.winner is None else (1.0 if AGENTS[s.winner] == learner else -1.0)
            info["TimeLimit.truncated"] = bool(s.truncated)
            info["winner"] = None if s.winner is None else AGENTS[s.winner]
        self._dones[i] = True
        self.done[i] = True
        info["seat"] = learner
        info["opponent"] = int(self.opp_index[i])
        if self.autoreset:
            e.observe_into(learner)
            info["terminal_observation"] = {k: b[i].copy() for k, b in self.buffers.items()}

    # ------------------------------------------------------------------ VecEnv
    def reset(self) -> dict[str, np.ndarray]:
        n = self.num_envs
        for i in range(n):
            self.episodes[i] = 0
            self._start(i, self._seeds[i])
        self._reset_seeds()
        self._started = True
        infos: list[dict[str, Any]] = [{} for _ in range(n)]
        self._advance(range(n), infos)
        self.reset_infos = [{"seat": self._learner(i)} for i in range(n)]
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
        active = []
        for i in range(n):
            if self.done[i]:
                if self.autoreset:
                    raise RuntimeError(f"game {i} is over and was not reset")
                continue
            e = self.games[i]
            a = action_index(acts[i], e.layout.n)
            if not self.buffers["action_mask"][i, a]:
                # as SingleAgentEnv: an illegal action loses the episode
                infos[i]["illegal_action"] = True
                self._forfeit[i] = True  # scored as lost by _finish
                active.append(i)
                continue
            e.step(a)
            active.append(i)
        self._advance(active, infos)
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


class SingleEnv(gym.Env):
    """One v1 game against a batched opponent as a gymnasium ``Env`` (the vector env of one game,
    without automatic resets): for ``gymnasium.utils.env_checker`` and SB3's ``check_env``.
    ``render()`` draws the board from the learner's seat (unless ``render_view`` is given): text
    (``"ansi"``), printed (``"human"``) or an (H, W, 3) uint8 image (``"rgb_array"``, for
    gymnasium's ``RecordVideo``)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}

    def __init__(self, opponent: Any = "random", seat: int | str = "alternate",
                 render_mode: str | None = None, **env_kwargs: Any) -> None:
        super().__init__()
        self.vec = VectorEnv(1, opponent=opponent, seat=seat, autoreset=False, render_mode=render_mode,
                             **env_kwargs)
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


def vector_env(n: int, opponent: Any = "random", **kwargs: Any) -> VectorEnv:
    """``n`` hostwcg_v1 games in one process as an SB3 VecEnv (see ``VectorEnv``)."""
    return VectorEnv(n, opponent=opponent, **kwargs)


def single_env(opponent: Any = "random", **kwargs: Any) -> SingleEnv:
    """One hostwcg_v1 game as a gymnasium Env (see ``SingleEnv``)."""
    return SingleEnv(opponent=opponent, **kwargs)


__all__ = ["BatchPolicy", "RandomBatchPolicy", "SingleEnv", "VectorEnv", "batch_policy", "single_env", "vector_env"]
