"""n hostwcg_v1 games stepped in one process, as a Stable-Baselines3 ``VecEnv`` (docs/env_v1.md),
and one game as a gymnasium ``Env``: the one vector stack (``hostwcg_env.env.vector``) bound
to v1's ``raw_env``.

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
Each game is a ``raw_env``: the same game, memory and observation as the AEC env; a seat is
asked wherever the AEC env asks it (v1's observer skips only publicly forced decisions).
"""

from __future__ import annotations

from typing import Any

from ..vector import BatchPolicy, HostSingleEnv, HostVectorEnv, RandomBatchPolicy, batch_policy
from .aec import raw_env
from .layout import ObsLayout


class VectorEnv(HostVectorEnv):
    """n v1 games for SB3 (see the module docstring). ``env_kwargs`` go to each ``raw_env``
    (decks, deck_pools, config, turn_limit)."""

    aec_class = raw_env

    @property
    def obs_layout(self) -> ObsLayout:
        return self.games[0].obs_layout  # type: ignore[attr-defined, no-any-return]


class SingleEnv(HostSingleEnv):
    """One v1 game against a batched opponent as a gymnasium ``Env`` (the vector env of one game,
    without automatic resets): for ``gymnasium.utils.env_checker`` and SB3's ``check_env``.
    ``render()`` draws the board from the learner's seat (unless ``render_view`` is given): text
    (``"ansi"``), printed (``"human"``) or an (H, W, 3) uint8 image (``"rgb_array"``, for
    gymnasium's ``RecordVideo``)."""

    vector_class = VectorEnv
    vec: VectorEnv


def vector_env(n: int, opponent: Any = "random", **kwargs: Any) -> VectorEnv:
    """``n`` hostwcg_v1 games in one process as an SB3 VecEnv (see ``VectorEnv``)."""
    return VectorEnv(n, opponent=opponent, **kwargs)


def single_env(opponent: Any = "random", **kwargs: Any) -> SingleEnv:
    """One hostwcg_v1 game as a gymnasium Env (see ``SingleEnv``)."""
    return SingleEnv(opponent=opponent, **kwargs)


__all__ = ["BatchPolicy", "RandomBatchPolicy", "SingleEnv", "VectorEnv", "batch_policy", "single_env", "vector_env"]
