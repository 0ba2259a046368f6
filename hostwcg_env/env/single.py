"""A single-agent gymnasium view of hostwcg_v0 for Stable-Baselines3 (MaskablePPO).

The learner plays one seat (alternating every episode unless ``seat`` is fixed; a seeded
``reset(seed=s)`` starts at seat ``s % 2``, so seeds 0, 1, 2... alternate too) against an
opponent *policy* that lives inside the env: ``"random"``, any callable ``(observation,
action_mask) -> int``, an object with ``act(observation, action_mask)`` or with the engine-level
``choose(view, actions)``, or a list of these (one is drawn per episode: an opponent pool).
The env does not know agent names: whoever has one makes the agent first
(``agents.make_agent("heuristic", seed=0)``), so the env layer never imports the agents.
``action_masks()`` gives the learner's legal actions. An illegal action ends the episode with
reward -1 (as PettingZoo's TerminateIllegalWrapper); an action that is not an index of the
action space raises, as does ``step`` after the episode ended or before ``reset``.
``render()`` draws the board from the learner's seat.

No decision with one legal action is asked, of either seat: ``step`` returns at the learner's
next decision with a choice (or the end). Neither seat sees the other's stops inside this env,
so whether the learner is asked depends only on its own legal action count. That is
hostwcg_v0's observer's ``skip = "forced"``: this env is the one single-agent and vector stack
(``hostwcg_env.env.batch.GameBatch``, one game) with v0's own seeding and opponent forms
(docs/env.md "One stack, per-version observers and skipping").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from .aec import AGENTS, RENDER_FPS, RENDER_MODES, action_index, raw_env
from .batch import GameBatch, check_seat
from .inputs import check_seed, step_after_end

Policy = Callable[[np.ndarray, np.ndarray], int]


class RandomPolicy:
    """Uniform over legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray) -> int:
        """A legal index drawn uniformly; the observation is not read (it may be None)."""
        return int(self.rng.choice(np.flatnonzero(action_mask)))

    def reseed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.act(observation, action_mask)


def _as_policy(spec: Any, seed: int | None) -> Any:
    """An opponent: an object with ``choose(view, actions)`` (engine-level), or a callable
    ``(observation, action_mask) -> int``."""
    if isinstance(spec, str):
        if spec == "random":
            return RandomPolicy(seed)
        raise ValueError(f"opponent {spec!r}: the env takes a policy, not an agent name (only 'random'); "
                         f"make the agent first: agents.make_agent({spec!r}, seed=...), or let "
                         f"gymnasium.make('hostwcg/HostWCG-v0', opponent={spec!r}) make it")
    if hasattr(spec, "choose"):
        return spec
    if callable(spec):
        return spec
    if hasattr(spec, "act"):
        return spec.act
    raise TypeError(f"opponent must be 'random', a callable, or an object with act() or choose(): got {spec!r}")


class _PerGame:
    """A per-game opponent ``(observation, action_mask) -> int`` asked as a batched policy."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def __call__(self, obs: dict[str, np.ndarray], masks: np.ndarray) -> list[int]:
        return [int(self.policy(obs["observation"][j], masks[j])) for j in range(masks.shape[0])]


class _MasksOnly:
    """The built-in random opponent as a batched policy: it reads the masks alone, so no
    observation is encoded for it."""

    reads_observation = False

    def __init__(self, policy: RandomPolicy) -> None:
        self.policy = policy

    def __call__(self, obs: None, masks: np.ndarray) -> list[int]:
        return [self.policy.act(None, masks[j]) for j in range(masks.shape[0])]


def _batched(opponent: Any) -> Any:
    if hasattr(opponent, "choose"):
        return opponent  # engine level: the core asks it from its own view
    if type(opponent) is RandomPolicy:
        return _MasksOnly(opponent)
    return _PerGame(opponent)


class SingleAgentEnv(gym.Env):
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}

    def __init__(
        self,
        opponent: Any = "random",
        seat: int | str = "alternate",
        seed: int | None = None,
        render_mode: str | None = None,
        from_weights: Callable[[dict[str, np.ndarray], int], Any] | None = None,
        **env_kwargs: Any,
    ) -> None:
        """``from_weights(weights, seed)``: how ``add_opponent`` makes a policy of a dict of
        weights (e.g. ``lambda w, seed: agents.ppo.NumpyPolicy(w, deterministic=False,
        seed=seed)``, as scripts/train_ppo.py passes)."""
        super().__init__()
        check_seed(seed)
        self._from_weights = from_weights
        self.core = GameBatch(1, raw_env, {"render_mode": render_mode, **env_kwargs})
        self.aec = self.core.games[0]
        self.render_mode = render_mode
        self._follow_learner = "render_view" not in env_kwargs  # render from the learner's seat
        self._done: bool | None = None  # None before the first reset
        check_seat(seat)
        pool = list(opponent) if isinstance(opponent, Sequence) and not isinstance(opponent, str) else [opponent]
        if not pool:
            raise ValueError("opponent: the pool is empty; give at least one opponent (e.g. 'random')")
        self._specs = pool
        self._opponents = [_as_policy(o, seed) for o in pool]
        self.seat = seat
        self._episodes = 0
        self._rng = random.Random(seed)
        obs_space = self.aec.observation_space(AGENTS[0])
        assert isinstance(obs_space, gym.spaces.Dict)
        self.observation_space = obs_space["observation"]
        self.action_space = self.aec.action_space(AGENTS[0])
        self.learner = AGENTS[0]
        self._opponent: Policy = self._opponents[0]

    def _observation(self) -> np.ndarray:
        return self.core.buffers["observation"][0].copy()

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        check_seed(seed)  # the envs' one message (gymnasium's own check lets a bool through)
        super().reset(seed=seed)
        if seed is not None:  # the same seed gives the same sequence of episodes
            self._rng.seed(seed)
            self._episodes = seed % 2  # the seed picks the first seat: seeds 0, 1, 2... alternate
            for k, o in enumerate(self._opponents):
                owner: Any = o if hasattr(o, "reseed") else getattr(o, "__self__", None)
                if hasattr(owner, "reseed"):
                    owner.reseed(seed + k)
                elif hasattr(owner, "reset"):
                    owner.reset(seed + k)
        seat = self._episodes % 2 if self.seat == "alternate" else int(self.seat)
        self.learner = AGENTS[seat]
        self._episodes += 1
        self._opponent = self._rng.choice(self._opponents)
        if self._follow_learner:
            self.aec.render_view = seat
        self.core.start_game(0, self._rng.getrandbits(62), seat, _batched(self._opponent))
        self.core.advance([0])
        self._done = self.core.game_over(0)
        return self._observation(), {"seat": self.learner}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        e = self.aec
        if self._done is None:
            raise RuntimeError("step() before reset(): call env.reset() first")
        if self._done:  # terminated, truncated, or lost by an illegal action
            raise step_after_end()
        index = action_index(action, e.layout.n)  # TypeError / ValueError outside Discrete(n)
        if not self.core.buffers["action_mask"][0, index]:
            # As PettingZoo's TerminateIllegalWrapper: an illegal action loses the episode.
            e.agents = []
            self._done = True
            return self._observation(), -1.0, True, False, {"seat": self.learner, "illegal_action": True}
        e.step(index)
        self.core.advance([0])
        done = self._done = self.core.game_over(0)
        info: dict[str, Any] = {"seat": self.learner}
        if not done:
            return self._observation(), 0.0, False, False, info
        reward, truncated, info["winner"] = self.core.outcome(0)
        return self._observation(), reward, not truncated, truncated, info

    def add_opponent(self, spec: Any) -> int:
        """Add an opponent to the pool (e.g. a frozen snapshot during self-play); returns the pool size.
        ``spec`` may be a dict of weights, made a policy by the env's ``from_weights``."""
        if isinstance(spec, dict):
            if self._from_weights is None:
                raise TypeError("add_opponent: a dict of weights needs SingleAgentEnv(from_weights=...), "
                                "the function that makes a policy of it")
            spec = self._from_weights(spec, self._rng.getrandbits(32))
        self._opponents.append(_as_policy(spec, None))
        return len(self._opponents)

    def action_masks(self) -> np.ndarray:
        if self._done is None:
            raise RuntimeError("action_masks() before reset(): call env.reset() first")
        return self.core.buffers["action_mask"][0].astype(bool)

    def render(self) -> Any:
        """The board from the learner's seat (or the env's ``render_view``, where given): text
        (``"ansi"``), printed (``"human"``) or an (H, W, 3) uint8 image (``"rgb_array"``, for
        gymnasium's ``RecordVideo`` and ``RenderCollection``)."""
        return self.aec.render()

    def _repr_html_(self) -> str:
        """The board from the learner's seat as HTML (notebooks)."""
        return self.aec._repr_html_()
