"""hostwcg_v0: the PettingZoo AEC environment over the rules engine.

| | |
|---|---|
| agents | `player_0`, `player_1` (seat 0 plays deck 0 and is engine player A) |
| decks | each seat draws one of the eight preconstructed decks per episode (seeded); `decks=` names two, `decks="test"` the stand-in test decks |
| action space | `Discrete(N)`: fixed blocks, see `docs/action_space.md` |
| observation | `{"observation": Box(float32), "action_mask": Box(int8, (N,))}`, see `docs/observation.md` |
| rewards | +1 / -1 to the winner / loser when the game ends, 0 for a draw or truncation |
| truncation | the turn limit (`RuleConfig.turn_limit`, reason `turn_limit`) or the decisions-per-turn cap (`max_decisions_per_turn`, reason `decision_limit`) |
| versions | see below |

Versions (PettingZoo's convention): the number in ``hostwcg_v0`` (and in the gymnasium id
``hostwcg/HostWCG-v0``) changes whenever the same arguments and seed could give different
observations, masks, rewards or games: the observation's layout or encoding, the action
space's blocks, the rewards, termination or truncation, the rules played by default
(``RuleConfig`` defaults), a card's behaviour or a shipped deck's list. A new version is a new
module (``hostwcg_v1``) and the old one stays importable and unchanged. Speed, memory, error
messages, rendering and new optional arguments whose default keeps the old behaviour change
no version.

| version | since | what changed |
|---|---|---|
| v0 | 0.1.0 | first release |
| v0 | 0.2.0 (unreleased) | the default decks: each seat draws one of the eight preconstructed decks per episode instead of playing the stand-in test decks (``decks="test"`` gives 0.1.0's decks); whether an agent is asked depends on public facts only (a player whose hidden cards could answer is asked even when its one legal action is to pass), and the turn limit ends a game at exactly ``turn_limit`` turns. Kept at v0 because these are fixes made before any use outside this repository; the games differ from 0.1.0's |
| v1 | 0.2.0 (unreleased) | ``hostwcg_v1`` (docs/env_v1.md): the same game, agents, rewards and action space; a Dict observation of card rows with the player's memory of what the rules made known, a public history and described actions; gymnasium id ``hostwcg/HostWCG-v1`` |

The agent to act is whoever holds the engine's current decision. With
``auto_single=True`` (the default, for training) decisions with exactly one legal action are
taken automatically where that they have only one follows from public facts
(``Game.forced_action``): a player holding hidden cards that could be usable is asked, even
when the one legal action is to pass, so that who is asked tells nothing hidden. Rules tests
use ``auto_single=False``. The action mask of the agent not deciding is all zeros.
Observations are built only from that agent's PlayerView.

Every version runs on the one AEC class here (``HostAECEnv``) and differs only in its observer
(``hostwcg_env.env.observers``; docs/env.md "Observers: how the versions differ"): ``raw_env``
below binds v0's.
"""  # noqa: E501 (markdown table rows: a row cannot be wrapped, docs/env.md renders them)

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

import hostwcg_env  # noqa: F401  (registers the card pool)
from hostwcg_env.cards import Deck, default_ruleset, load_deck, pool_decks
from hostwcg_env.cards.decks import stand_in_decks
from hostwcg_env.engine import Action, Game, IllegalActionError, RuleConfig

from .codec import Codec, LayoutError
from .inputs import AGENTS, SELECTED, Selected, check_int, check_seed, seat_of, step_after_end
from .observation import ObservationEncoder
from .observers import Observer
from .observers.v0 import V0Observer

RENDER_MODES = ("ansi", "human", "rgb_array")
RENDER_FPS = 2  # frames a second of a recorded video (gymnasium's RecordVideo reads it)


def action_index(action: Any, n: int) -> int:
    """``action`` as an index of ``Discrete(n)``: a Python int or a numpy integer (a 0-d
    integer array too, as gymnasium's ``Discrete.contains``), never a bool, float or str."""
    if type(action) is not int:
        if isinstance(action, np.integer) or (
                isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu"):
            action = int(action)
        elif action is None:
            raise TypeError("None is the action of an agent that is done (terminated or truncated); "
                            f"the agent to act gives an integer index 0..{n - 1}")
        else:
            raise TypeError(f"an action is an integer index 0..{n - 1} (int or numpy integer), "
                            f"got {type(action).__name__} {action!r}")
    if not 0 <= action < n:
        raise ValueError(f"action {action} is outside the action space Discrete({n}): "
                         f"give an index 0..{n - 1} whose action_mask entry is 1")
    return action


def _as_deck(d: Any) -> Any:
    """A deck as ``Game.new`` takes it: a Deck or a pair (Host name, main-deck names) as given;
    a name (``karsh``, ``karsh_ember_tide``) or a path is read with ``hostwcg_env.cards.load_deck``."""
    if isinstance(d, str | Path):
        return load_deck(d)
    return d


def _check_pools(pools: list[list[Any]]) -> None:
    """Two non-empty pools of decks: a Deck (``hostwcg_env.cards.load_deck``) or a pair
    (Host name, main-deck names), as ``Game.new`` takes them."""
    if len(pools) != 2:
        raise ValueError(f"deck_pools: give two pools of decks (one per seat), got {len(pools)}")
    for seat, pool in enumerate(pools):
        if not pool:
            raise ValueError(f"deck_pools[{seat}] is empty: give at least one deck per seat")
        for d in pool:
            if not ((isinstance(d, tuple) and len(d) == 2) or (hasattr(d, "host") and hasattr(d, "main"))):
                raise TypeError("a deck is a Deck (hostwcg_env.cards.load_deck(path)), a deck name "
                                "('karsh') or a pair (Host name, main-deck card names), got "
                                f"{type(d).__name__} {d!r}"[:300])


def _not_reset(what: str) -> RuntimeError:
    return RuntimeError(f"{what} before reset(): call env.reset() first")


def shipped_decks(include_test: bool = False) -> list[Deck]:
    """The playable decks shipped with the package: the eight preconstructed decks, in file
    order (``brae_deep_roots`` ... ``verena_iron_law``). The env draws one per seat per episode
    from these by default. ``include_test=True`` adds the two stand-in test decks
    (``test_authority``, ``test_strife``), small decks for tests, in file order among them."""
    return list(pool_decks(include_test=include_test).values())


def finish_episode(env: Any) -> None:
    """Mark a finished game on an AEC env (``env.game`` over): truncations at a turn or
    decision limit, else terminations with +1/-1 to the winner and loser; every agent's info
    gets the winner and the reason. Shared by hostwcg_v0 and hostwcg_v1."""
    g = env.game
    assert g is not None
    s = g.state
    if s.truncated:
        env.truncations = dict.fromkeys(env.agents, True)
    else:
        env.terminations = dict.fromkeys(env.agents, True)
        if s.winner is not None:
            env.rewards[AGENTS[s.winner]] = 1.0
            env.rewards[AGENTS[1 - s.winner]] = -1.0
    for a in env.agents:
        env.infos[a] = {"winner": None if s.winner is None else AGENTS[s.winner], "reason": s.reason}
    if env.agent_selection not in env.agents:
        env.agent_selection = env.agents[0]


def config_for(config: Any = None, turn_limit: int | None = None) -> RuleConfig:
    """The rules an env plays: ``config`` (a RuleConfig, default the standard rules) with
    ``turn_limit`` set over it when given; anything else as ``config`` is refused."""
    if config is not None and not isinstance(config, RuleConfig):
        raise TypeError(f"config must be a RuleConfig (e.g. RuleConfig(damage_draws=True)), "
                        f"got {type(config).__name__}")
    cfg = config or RuleConfig()
    if turn_limit is not None:  # an integer, never a text read as one (docs/env.md "Inputs")
        cfg = cfg.with_overrides({"turn_limit": check_int("turn_limit", turn_limit, 1)})
    return cfg


def deck_pools_for(decks: Any = None, deck_pools: Sequence[Sequence[Any]] | None = None) -> list[list[Any]]:
    """The two per-seat pools an env draws its decks from: ``deck_pools`` as given; else
    ``decks``: ``None`` (every preconstructed deck for both seats), ``"test"`` (the two stand-in
    test decks, one per seat) or two decks (one per seat). A deck may be given by name or path."""
    if deck_pools is not None:
        if isinstance(deck_pools, str) or not isinstance(deck_pools, Sequence):
            raise TypeError(f"deck_pools: give two lists of decks (one per seat), got {deck_pools!r}")
        pools: list[list[Any]] = []
        for p in deck_pools:
            if isinstance(p, str) or not isinstance(p, Sequence):
                raise TypeError(f"deck_pools: each seat's pool is a list of decks, got {p!r}"[:300])
            pools.append([_as_deck(d) for d in p])
    elif decks is None:
        pool = shipped_decks()
        pools = [pool, list(pool)]
    elif isinstance(decks, str) and decks == "test":
        a, b = stand_in_decks()
        pools = [[a], [b]]
    elif isinstance(decks, str | Path) or not isinstance(decks, Sequence):
        raise ValueError(f"decks: give two decks (one per seat), None for the preconstructed decks "
                         f"or 'test' for the two test decks, got {decks!r}")
    else:
        pair = list(decks)
        if len(pair) != 2:
            raise ValueError("decks: give exactly two decks (one per seat), or deck_pools")
        pools = [[_as_deck(pair[0])], [_as_deck(pair[1])]]
    _check_pools(pools)
    return pools


class HostAECEnv(AECEnv):
    """The AEC env of every version without wrappers; an illegal action raises
    IllegalActionError. The game, agents, decks, rewards, truncation and rendering are the
    same for every version; what a version observes, and how its action indices map to the
    legal actions, is its observer (``make_observer``; docs/env.md "Observers"). The version
    modules bind an observer: ``raw_env`` here (hostwcg_v0), ``hostwcg_env.env.v1.aec.raw_env``."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "hostwcg", "is_parallelizable": True,
                                "render_fps": RENDER_FPS}

    def __init__(
        self,
        decks: Sequence[Any] | str | None = None,
        deck_pools: Sequence[Sequence[Any]] | None = None,
        config: RuleConfig | None = None,
        turn_limit: int | None = None,
        auto_single: bool = True,
        render_mode: str | None = None,
        render_view: int | str = 0,
    ) -> None:
        super().__init__()
        cfg = config_for(config, turn_limit)
        self.config = cfg
        self.rules = default_ruleset(cfg)
        self.deck_pools = deck_pools_for(decks, deck_pools)
        check_render(render_mode, render_view)
        self.render_mode = render_mode
        self.render_view = render_view
        self.auto_single = auto_single
        self.observer: Observer = self.make_observer(cfg)
        self.layout = self.observer.layout
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._obs_space = self.observer.observation_space
        self._act_space: spaces.Discrete = spaces.Discrete(self.layout.n)
        self._n = self.layout.n  # read on every step (ActionLayout.n is a computed property)
        self._zero_mask = np.zeros(self.layout.n, dtype=np.int8)
        self._rng = random.Random()
        self.game: Game | None = None

    def make_observer(self, config: RuleConfig) -> Observer:
        """This version's observer for the rules ``config`` (the version modules override it)."""
        raise NotImplementedError(f"{type(self).__name__} names no observer: use hostwcg_v0 or hostwcg_v1's raw_env")

    # ------------------------------------------------------------ spaces
    # The same objects on every call (api_test wants that), built once in __init__ and held
    # by the env itself: a cache on the method would hold every env ever made.
    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    # ------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if check_seed(seed) is not None:
            self._rng.seed(seed)
        game_seed = self._rng.getrandbits(63)
        decks = [self._rng.choice(pool) for pool in self.deck_pools]
        self.start_from(self.rules.new_game(decks[0], decks[1], seed=game_seed))

    def start_from(self, game: Game) -> None:
        """Start an episode from an engine ``Game`` before its first action (a recorded game's
        replay, ``hostwcg_env.analysis.distill.v1_from_records``); ``reset`` does this with a
        game of its own dealing."""
        self.game = game
        game.auto_pass = self.auto_single  # publicly forced passes need no stop (same game)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.observer.reset()
        self._settle()

    def _apply(self, player: int, action: Action) -> None:
        """Apply a player's action; its observer hears of it first (v1's memory, 41.2)."""
        g = self.game
        assert g is not None
        self.observer.before_apply(g, player, action)
        g.apply(action)

    def _settle(self) -> None:
        """Take forced decisions, then point agent_selection at whoever decides. A decision
        is taken here only when its being forced is public (``Game.forced_action``): skipping
        the others would tell the other agent what is hidden."""
        g = self.game
        assert g is not None
        if self.auto_single:
            while not g.is_over:
                a = g.forced_action()
                if a is None:
                    break
                d = g.decision
                assert d is not None
                self._apply(d.player, a)
        if g.is_over:
            self._finish()
            return
        d = g.decision
        assert d is not None
        self.observer.refresh(g)  # raises LayoutError if the layout cannot express an option
        self.agent_selection = AGENTS[d.player]

    def _finish(self) -> None:
        finish_episode(self)

    def step(self, action: Any) -> None:
        g = self.game
        if g is None:
            raise _not_reset("step()")
        if not self.agents:
            raise step_after_end()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # raises ValueError unless the action is None
            return
        a = self.observer.decode(g, action_index(action, self._n))
        if a is None:
            raise IllegalActionError("31.1", f"action index {action} is not legal for {agent} now "
                                     f"(legal: {np.flatnonzero(self.observer.mask(g)).tolist()})")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._apply(seat_of(agent), a)
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------ observing
    def _deciding(self, g: Game, p: int) -> bool:
        return not g.is_over and g.decision is not None and g.decision.player == p

    def observe(self, agent: str) -> Any:
        g = self.game
        if g is None:
            raise _not_reset("observe()")
        p = seat_of(agent)
        return self.observer.observe(g, p, self._deciding(g, p))

    def action_mask(self, agent: str | Selected = SELECTED) -> np.ndarray:
        """The mask of ``agent`` (default: the agent to act); an agent is checked as
        ``observe`` checks it. All zeros for an agent that does not decide now."""
        g = self.game
        if g is None:
            raise _not_reset("action_mask()")
        p = seat_of(self.agent_selection if isinstance(agent, Selected) else agent)
        if not self._deciding(g, p):
            return self._zero_mask.copy()
        return self.observer.mask(g).copy()

    def render(self) -> str | np.ndarray | None:
        """The board from ``render_view``'s seat: text (``"ansi"``; ``"human"`` prints it) or an
        (H, W, 3) uint8 image (``"rgb_array"``, the same board as the HTML one)."""
        if self.render_mode is None:
            return None
        g = self.game
        if g is None:
            raise _not_reset("render()")
        if self.render_mode == "rgb_array":
            from hostwcg_env.board.image import render_rgb

            return render_rgb(g, board_seat(self.render_view))
        from hostwcg_env.render import render_text

        text = render_text(g, board_seat(self.render_view))  # a spectator sees what is public
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _repr_html_(self) -> str:
        """The board as HTML (notebooks): ``render_view``'s seat; a spectator sees what is public."""
        from hostwcg_env.env.html import render_html

        if self.game is None:
            return f"<pre>{self.metadata['name']}: call reset() to start a game</pre>"
        return render_html(self.game, board_seat(self.render_view))

    def close(self) -> None:
        pass


class raw_env(HostAECEnv):  # noqa: N801  (PettingZoo naming)
    """hostwcg_v0's AEC env without wrappers: ``HostAECEnv`` with v0's observer (a flat
    vector and a flat mask, ``hostwcg_env.env.observers.v0``)."""

    metadata = {**HostAECEnv.metadata, "name": "hostwcg_v0"}
    observer: V0Observer

    def make_observer(self, config: RuleConfig) -> V0Observer:
        return V0Observer(config)

    @property
    def encoder(self) -> ObservationEncoder:
        """The observation encoder (the observer's)."""
        return self.observer.encoder

    @property
    def codec(self) -> Codec:
        """The action codec of the current decision (the observer's)."""
        return self.observer.codec


def check_render(render_mode: str | None, render_view: Any) -> None:
    """Refuse a render mode or view the env does not have; ``"rgb_array"`` needs Pillow."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {list(RENDER_MODES)} or None, got {render_mode!r}")
    if render_view not in (0, 1, "spectator") or type(render_view) is bool:
        raise ValueError(f"render_view must be 0, 1 or 'spectator', got {render_view!r}")
    if render_mode == "rgb_array":
        import hostwcg_env.board.image  # noqa: F401  (ImportError naming the extra, now rather than at render)


def board_seat(render_view: int | str) -> int | str:
    """The board's seat for a ``render_view``: a player, or the public spectator."""
    return "spectator" if render_view == "spectator" else int(render_view)


def _forward(name: str, guarded: bool) -> property:
    """A property reading (and writing) ``name`` on the wrapped env in one hop, instead of
    BaseWrapper.__getattr__ through a chain of wrappers. ``guarded`` names raise before reset,
    as OrderEnforcingWrapper's do."""

    def get(self: StandardWrappers) -> Any:
        if guarded and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def set_(self: StandardWrappers, value: Any) -> None:
        setattr(self.env, name, value)

    return property(get, set_)


class StandardWrappers(wrappers.OrderEnforcingWrapper):
    """PettingZoo's standard wrapper stack for this env in one layer.

    Behaves exactly as ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(
    TerminateIllegalWrapper(raw_env, illegal_reward=-1)))``, the stack PettingZoo's classic
    environments use, and is an ``OrderEnforcingWrapper``: an illegal action ends the game
    with -1 to its player (and PettingZoo's warning), an action outside the space fails an
    assertion, misuse before ``reset`` raises. One difference, on purpose: a step after the
    game is over raises raw_env's error (``inputs.step_after_end``) where PettingZoo's
    wrapper only warns, so every env and wrapper says the same (docs/env.md "Inputs"). One layer
    saves the attribute lookups that the three-wrapper chain repeats on every ``last()`` and
    ``step()``; the test suite plays
    both side by side and checks every observation, reward and flag agree
    (``pettingzoo_wrapped_env`` builds the three-wrapper stack).
    """

    agent_selection = _forward("agent_selection", True)
    rewards = _forward("rewards", True)
    terminations = _forward("terminations", True)
    truncations = _forward("truncations", True)
    infos = _forward("infos", True)
    agents = _forward("agents", True)
    _cumulative_rewards = _forward("_cumulative_rewards", False)
    possible_agents = _forward("possible_agents", False)
    metadata = _forward("metadata", False)
    render_mode = _forward("render_mode", False)

    def __init__(self, env: HostAECEnv, illegal_reward: float = -1) -> None:
        super().__init__(env)
        self._illegal_value = illegal_reward
        self._prev_mask: Any = None
        self._terminated = False  # ended by an illegal move
        self._n = int(env._act_space.n)

    def __str__(self) -> str:
        return str(self.env)  # as the three-wrapper stack prints: hostwcg_v0

    def _repr_html_(self) -> str:
        """The board as HTML in a notebook (PettingZoo's wrappers refuse private names)."""
        return self.env._repr_html_()

    @property
    def num_agents(self) -> int:
        if not self._has_reset:
            raise AttributeError("num_agents cannot be accessed before reset")
        return len(self.env.agents)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._terminated = False
        self._prev_mask = None
        super().reset(seed=seed, options=options)

    def agent_iter(self, max_iter: int = 2**63) -> wrappers.order_enforcing.AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Agents(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As ``AECEnv.last``, reading the env's dicts in one hop."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        e = self.env
        agent = e.agent_selection
        observation = self.observe(agent) if observe else None
        return (observation, e._cumulative_rewards[agent], e.terminations[agent], e.truncations[agent],
                e.infos[agent])

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        obs = self.env.observe(agent)
        if agent == self.env.agent_selection:
            self._prev_mask = obs["action_mask"]
        return obs

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
            return
        e = self.env
        if not e.agents:  # raw_env's error (PettingZoo's wrapper only warns and goes on)
            raise step_after_end()
        self._has_updated = True
        agent = e.agent_selection
        dead = e.terminations[agent] or e.truncations[agent]
        # AssertOutOfBoundsWrapper
        in_space = (0 <= action < self._n) if type(action) is int else self.action_space(agent).contains(action)
        assert type(action) is not bool, "action is not in action space (a bool is not an action index)"
        assert (action is None and dead) or in_space, "action is not in action space"
        # TerminateIllegalWrapper
        if self._prev_mask is None:
            self.observe(agent)
        mask = self._prev_mask
        self._prev_mask = None
        if self._terminated and dead:
            e._was_dead_step(action)
        elif not dead and not mask[action]:
            EnvLogger.warn_on_illegal_move()
            e._cumulative_rewards[agent] = 0
            e.terminations = dict.fromkeys(e.agents, True)
            e.truncations = dict.fromkeys(e.agents, True)
            e.rewards = dict.fromkeys(e.truncations, 0)
            e.rewards[agent] = float(self._illegal_value)
            e._accumulate_rewards()
            e._deads_step_first()
            self._terminated = True
        else:
            e.step(action)


class _Agents(wrappers.order_enforcing.AECOrderEnforcingIterable):
    """``agent_iter`` of StandardWrappers: PettingZoo's order-enforcing iteration (stop when no
    agent is left or after ``max_iter``; ``step`` or ``reset`` between two agents), reading the
    env in one hop."""

    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(wrappers.order_enforcing.AECOrderEnforcingIterator):
    def __next__(self) -> str:
        w = self.env
        e = w.env  # type: ignore[attr-defined]
        if not w._has_reset:  # type: ignore[attr-defined]
            raise AttributeError("agents cannot be accessed before reset")
        if not e.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert w._has_updated, "need to call step() or reset() in a loop over `agent_iter`"  # type: ignore[attr-defined]
        w._has_updated = False  # type: ignore[attr-defined]
        return e.agent_selection


def env(**kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's standard wrappers (illegal action -> -1 and game over,
    action bounds, call order), fused into one layer: see ``StandardWrappers``."""
    return StandardWrappers(raw_env(**kwargs), illegal_reward=-1)


def pettingzoo_wrapped_env(**kwargs: Any) -> AECEnv:
    """The same env wrapped by PettingZoo's three wrapper classes, one inside the other (for
    comparison: ``env()`` behaves identically and is faster)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


__all__ = ["RENDER_FPS", "RENDER_MODES", "HostAECEnv", "LayoutError", "StandardWrappers", "env",
           "pettingzoo_wrapped_env", "raw_env", "shipped_decks"]
