"""The parallel view of the env (PettingZoo ParallelEnv), one class for every version: it
steps the version's AEC env (``aec_class``; hostwcg_v1's ``ParallelEnv`` names its own).

Every step takes a dict of actions; only the action of the agent whose decision it is counts
(its mask is the only non-zero one); the other agent's action is ignored. Both agents get an
observation every step.

An illegal action (an index of the action space that is not legal now) ends the game as it does
in the AEC ``env()`` (PettingZoo's ``TerminateIllegalWrapper``): reward -1 to the agent that
chose it and 0 to the other, every agent terminated and truncated, and PettingZoo's
illegal-move warning. An action outside the action space raises (docs/env.md).
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.env_logger import EnvLogger

from .aec import AGENTS, RENDER_FPS, RENDER_MODES, HostAECEnv, action_index, raw_env
from .inputs import step_after_end


class HostParallelEnv(ParallelEnv):
    metadata = {"render_modes": list(RENDER_MODES), "name": "hostwcg_v0", "render_fps": RENDER_FPS}
    aec_class: type[HostAECEnv] = raw_env  # the version's AEC env (hostwcg_v0's here)

    def __init__(self, **kwargs: Any) -> None:
        self.aec = self.aec_class(**kwargs)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)  # the same object every call

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(AGENTS)
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if self.aec.game is None:
            raise RuntimeError("step() before reset(): call env.reset() first")
        if not self.agents:
            raise step_after_end()
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict of agent -> action, got {type(actions).__name__}")
        unknown = [a for a in actions if a not in self.possible_agents]
        if unknown:
            raise ValueError(f"actions names unknown agents {unknown} (the agents are {', '.join(self.agents)})")
        actor = self.aec.agent_selection
        if actor not in actions:
            raise ValueError(f"actions has no action for {actor}, the agent whose decision it is: give "
                             f"an action for each agent in env.agents (only {actor}'s counts now)")
        index = action_index(actions[actor], int(self.aec.action_space(actor).n))  # type: ignore[attr-defined]
        if not self.aec.action_mask(actor)[index]:
            return self._end_illegal(actor)
        self.aec.step(index)
        obs = {a: self.aec.observe(a) for a in self.agents}
        rew = {a: float(self.aec.rewards.get(a, 0.0)) for a in self.agents}
        term = {a: bool(self.aec.terminations[a]) for a in self.agents}
        trunc = {a: bool(self.aec.truncations[a]) for a in self.agents}
        info = {a: dict(self.aec.infos[a]) for a in self.agents}
        if any(term.values()) or any(trunc.values()):
            self.agents = []
        return obs, rew, term, trunc, info

    def _end_illegal(self, actor: str) -> tuple[dict, dict, dict, dict, dict]:
        """End the game on ``actor``'s illegal action, as the AEC ``env()`` does: -1 to it, 0 to
        the other, every agent terminated and truncated (TerminateIllegalWrapper's flags)."""
        EnvLogger.warn_on_illegal_move()
        agents = self.agents
        obs = {a: self.aec.observe(a) for a in agents}
        rew = {a: -1.0 if a == actor else 0.0 for a in agents}
        term = dict.fromkeys(agents, True)
        trunc = dict.fromkeys(agents, True)
        info = {a: dict(self.aec.infos[a]) for a in agents}
        self.agents = []
        return obs, rew, term, trunc, info

    def render(self) -> Any:
        return self.aec.render()

    def _repr_html_(self) -> str:
        return self.aec._repr_html_()

    def close(self) -> None:
        self.aec.close()


def parallel_env(**kwargs: Any) -> HostParallelEnv:
    return HostParallelEnv(**kwargs)
