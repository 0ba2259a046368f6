"""Host WCG as an OpenSpiel game: ``import hostwcg_env.openspiel`` registers ``python_hostwcg``
with ``pyspiel`` (OpenSpiel's Python game API); ``pyspiel.load_game("python_hostwcg")`` loads it.

Needs the ``openspiel`` extra (``pip install -e ".[openspiel]"``, the ``open_spiel`` package);
docs/openspiel.md shows it played by OpenSpiel's IS-MCTS bot.

* **The game** is hostwcg_v1's (docs/env_v1.md): the same rules, decks, action space
  (``Discrete(266)``, docs/action_space.md), turn limit and rewards (+1 / -1 at the end, 0 for
  a draw or the turn limit). A decision with one legal action whose being forced is public is
  taken without asking, as in the env (docs/env.md ``auto_single``), so OpenSpiel's history
  holds the decisions a player was asked.
* **Chance** is *sampled stochastic*: no chance nodes; shuffles and draws come from each
  game's own random generator, seeded when ``new_initial_state`` deals it from the game
  object's generator (parameter ``rng_seed``; -1: from the system). A clone goes on with the
  same generator (the same actions give the same game).
* **Tensors** come from the v1 encoder. The information-state tensor of a player is its v1
  observation with its memory of what the rules made known and the public history (every
  array of docs/observation_v1.md, flattened in that order); the observation tensor is the
  same encoding of what the player sees now, without that memory (an empty memory: no known
  cards of the opponent's hand, of my deck's top, no history). The strings are digests of the
  tensors (two information states with the same tensor have the same string).
* **Resampling** (``resample_from_infostate(player, sampler)``) draws a full game consistent
  with the player's view through the engine's ``determinize``: the player's hidden-from-itself
  cards and the opponent's hidden cards are drawn from what remains of each decklist (the
  opponent's is the list of the deck whose Host it shows, else a uniform draw), the future
  shuffles get a new seed taken from ``sampler``, the player keeps its memory, and the
  opponent's memory starts afresh (what it remembers depends on cards the player cannot see).
  The player's information state (string and tensor) and the player to act are unchanged.

Parameters: ``turn_limit`` (200), ``decks`` (``""``: each seat draws one of the eight
preconstructed decks per game; ``"test"``: the two stand-in test decks; ``"NAME_A,NAME_B"``:
one deck per seat), ``rng_seed`` (-1).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError:  # pragma: no cover - the dev extra installs OpenSpiel
    raise ImportError("hostwcg_env.openspiel needs OpenSpiel: pip install -e '.[openspiel]' "
                      "(the open_spiel package)") from None

import hostwcg_env  # noqa: F401  (registers the card pool)
from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import Game
from hostwcg_env.engine.view import PlayerView, determinize
from hostwcg_env.env.aec import config_for, deck_pools_for
from hostwcg_env.env.v1.encoder import Encoder, Slate
from hostwcg_env.env.v1.layout import ObsLayout, obs_layout
from hostwcg_env.env.v1.memory import Memory
from hostwcg_env.env.v1.spaces import Legal

SHORT_NAME = "python_hostwcg"
DEFAULT_TURN_LIMIT = 200

_PARAMS: dict[str, Any] = {"turn_limit": DEFAULT_TURN_LIMIT, "decks": "", "rng_seed": -1}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Host WCG (hostwcg_v1)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


def _decks_param(decks: str) -> Any:
    """The ``decks`` parameter as ``deck_pools_for`` takes it."""
    if decks == "":
        return None
    if decks == "test":
        return "test"
    names = [d.strip() for d in decks.split(",")]
    if len(names) != 2 or not all(names):
        raise ValueError(f"python_hostwcg: decks must be '', 'test' or 'NAME_A,NAME_B' (one deck per seat), "
                         f"got {decks!r}")
    return names


class HostWCGGame(pyspiel.Game):
    """The OpenSpiel game (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_PARAMS, **(params or {})}
        turn_limit = int(p["turn_limit"])
        if turn_limit < 1:
            raise ValueError(f"python_hostwcg: turn_limit must be at least 1, got {turn_limit}")
        self.config = config_for(None, turn_limit)
        self.rules = default_ruleset(self.config)
        self.deck_pools = deck_pools_for(_decks_param(str(p["decks"])))
        self.obs_layout: ObsLayout = obs_layout(self.config)
        self.encoder = Encoder(layout=self.obs_layout)
        self.legal = Legal(self.obs_layout)  # keyed on the decision object: shared by every state
        seed = int(p["rng_seed"])
        self.rng = random.Random(None if seed == -1 else seed)
        n_actions = self.obs_layout.n_actions
        info = pyspiel.GameInfo(
            num_distinct_actions=n_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # every decision a player is asked, setup (turn 0) included, is one of a turn's
            max_game_length=(turn_limit + 1) * self.config.max_decisions_per_turn,
        )
        super().__init__(GAME_TYPE, info, p)

    def new_initial_state(self) -> HostWCGState:
        """A new game: its decks and seed are drawn from this object's generator when the
        state is first read (so OpenSpiel's ``Clone``, which starts from a new initial
        state, draws nothing)."""
        return HostWCGState(self)

    def deal(self) -> _Core:
        """A new engine game: decks and seed drawn from this object's generator."""
        seed = self.rng.getrandbits(63)
        decks = [self.rng.choice(pool) for pool in self.deck_pools]
        return self._core(self.rules.new_game(decks[0], decks[1], seed=seed))

    def _core(self, game: Game) -> _Core:
        core = _Core(game, [Memory(0), Memory(1)])
        core.settle(self.legal)
        return core

    def state_from(self, game: Game) -> HostWCGState:
        """A state that starts from an engine ``Game`` before its first action (one dealt by
        ``hostwcg_env.cards.default_ruleset(config).new_game(deck_a, deck_b, seed)``, a
        scenario), as the env's ``start_from``. Its rules must be this game's (``self.config``,
        the turn limit included), which the tensors' sizes follow."""
        if game.state.config != self.config:
            raise ValueError("python_hostwcg: state_from needs a game dealt with this game's rules: "
                             "default_ruleset(game.config).new_game(deck_a, deck_b, seed)")
        state = HostWCGState(self)
        state._core_ = self._core(game)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> HostWCGObserver:
        """The information-state observer (perfect recall asked) or the observation one (the
        default; OpenSpiel passes the parameters alone, positionally, when it asks no type)."""
        if isinstance(iig_obs_type, dict):
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"python_hostwcg: the observer takes no parameters, got {params!r}")
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("python_hostwcg: only a player's own observer exists (private_info=SINGLE_PLAYER)")
        return HostWCGObserver(self, recall)


class _Start:
    """The deal a new state starts from, made on first use and shared (not copied) by the
    clones OpenSpiel takes before it, so that a state and its clones play the same game."""

    def __init__(self, game: HostWCGGame) -> None:
        self.game = game
        self.core: _Core | None = None

    def get(self) -> _Core:
        if self.core is None:
            self.core = self.game.deal()
        return self.core

    def __deepcopy__(self, memo: dict[int, Any]) -> _Start:
        return self


class _Core:
    """The engine game and both players' memories; copied by ``clone`` (OpenSpiel's Clone
    deep-copies a state's attributes: this copies the game as the engine does)."""

    def __init__(self, game: Game, memories: list[Memory]) -> None:
        self.game = game
        self.memories = memories

    def clone(self) -> _Core:
        g = self.game.clone()
        key = g.view(0).game_key
        return _Core(g, [m.copy(key) for m in self.memories])

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self.clone()

    def apply(self, player: int, action: Any) -> None:
        """As the v1 env: the player's memory hears of its own choice first (41.2)."""
        mem = self.memories[player]
        mem.sync(self.game.view(player))
        mem.own_action(action)
        self.game.apply(action)

    def settle(self, legal: Legal) -> None:
        """Take the decisions whose being forced is public (``Game.forced_action``), as the env."""
        g = self.game
        g.auto_pass = True
        while not g.is_over:
            a = g.forced_action()
            if a is None:
                break
            d = g.decision
            assert d is not None
            self.apply(d.player, a)
        legal.refresh(g)


class HostWCGState(pyspiel.State):
    """A state of ``python_hostwcg`` (see the module docstring)."""

    def __init__(self, game: HostWCGGame) -> None:
        super().__init__(game)
        self._start = _Start(game)
        self._core_: _Core | None = None

    @property
    def core(self) -> _Core:
        """The engine game and memories (dealt on first use)."""
        if self._core_ is None:
            self._core_ = self._start.get().clone()
        return self._core_

    @property
    def engine_game(self) -> Game:
        """The engine ``Game`` this state holds (read it; apply actions through ``apply_action``)."""
        return self.core.game

    def _legal(self) -> Legal:
        legal: Legal = self.get_game().legal
        legal.refresh(self.core.game)
        return legal

    def current_player(self) -> int:
        g = self.core.game
        if g.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        d = g.decision
        assert d is not None
        return int(d.player)

    def _legal_actions(self, player: int) -> list[int]:
        g = self.core.game
        if g.is_over or g.decision is None or g.decision.player != player:
            return []
        return sorted(i for i, _ in self._legal().pairs)

    def _apply_action(self, action: int) -> None:
        core = self.core
        g = core.game
        if g.is_over:
            raise ValueError(f"python_hostwcg: action {action} after the game is over")
        legal = self._legal()
        a = legal.decode(int(action))
        if a is None:
            raise ValueError(f"python_hostwcg: action {action} is not legal for player {legal.player} now "
                             f"(legal: {sorted(i for i, _ in legal.pairs)})")
        core.apply(legal.player, a)
        core.settle(self.get_game().legal)

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine's text of the action where it is legal now, else its index."""
        g = self.core.game
        if not g.is_over and g.decision is not None and g.decision.player == player:
            a = self._legal().decode(int(action))
            if a is not None:
                return f"{'AB'[player]} {a}"
        return f"{'AB'[player] if player in (0, 1) else player} action {action}"

    def is_terminal(self) -> bool:
        return bool(self.core.game.is_over)

    def returns(self) -> list[float]:
        s = self.core.game.state
        if not s.over or s.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if s.winner == 0 else [-1.0, 1.0]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HostWCGState:
        """A state drawn from those ``player_id`` cannot tell from this one (module docstring);
        ``probability_sampler()`` (e.g. ``pyspiel.UniformProbabilitySampler``) seeds the draw."""
        core = self.core
        player = int(player_id)
        if player not in (0, 1):
            raise ValueError(f"python_hostwcg: resample_from_infostate needs player 0 or 1, got {player_id}")
        view = core.game.view(player)
        core.memories[player].sync(view)
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        world = Game(determinize(view, rng, opponent_cards=self._opponent_cards(view)))
        world.auto_pass = True
        key = world.view(player).game_key
        mine = core.memories[player].copy(key)
        mine.pos = len(world.state.events)  # the sampled game's log starts empty
        theirs = Memory(1 - player)
        theirs.game, theirs.pos = key, len(world.state.events)
        memories = [mine, theirs] if player == 0 else [theirs, mine]
        out = HostWCGState(self.get_game())
        out._core_ = _Core(world, memories)
        return out

    def _opponent_cards(self, view: PlayerView) -> list[str] | None:
        """The decklist of the deck in the opponent's pool whose Host it shows, else None."""
        host = view.host(view.opponent)
        if host is None:
            return None
        pool: list[Any] = self.get_game().deck_pools[view.opponent]
        lists = [list(d.main) for d in pool if d.host == host.card.name]
        return lists[0] if lists else None

    def __str__(self) -> str:
        """The whole board, every card shown (for debugging; OpenSpiel compares clones by it)."""
        from hostwcg_env.render import render_text

        g = self.core.game
        return render_text(g, None) + f"\nevents {len(g.state.events)}"


class HostWCGObserver:
    """OpenSpiel's Python observer: the v1 encoding of a player's view, with its memory
    (information state) or without (observation); ``tensor`` is every array of
    docs/observation_v1.md flattened, ``dict`` the same arrays by name."""

    def __init__(self, game: HostWCGGame, recall: bool) -> None:
        self.game = game
        self.recall = recall
        sizes = game.obs_layout.sizes()
        self.tensor = np.zeros(sum(int(np.prod(shape)) for shape, _ in sizes.values()), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, (shape, _) in sizes.items():
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + n].reshape(shape)
            at += n
        self._slate: Slate = game.encoder.slate()
        self._legal = Legal(game.obs_layout)

    def set_from(self, state: HostWCGState, player: int) -> None:
        core = state.core
        g = core.game
        view = g.view(player)
        if self.recall:
            mem = core.memories[player]
            mem.sync(view)
        else:  # what the player sees now: a memory that has read nothing
            mem = Memory(player)
            mem.game, mem.pos = view.game_key, len(g.state.events)
        deciding = not g.is_over and g.decision is not None and g.decision.player == player
        legal = self._legal
        if deciding:
            legal.refresh(g)
        sl = self._slate
        sl.game = None  # a fresh encoding: states differ from call to call
        self.game.encoder.encode(view, mem, sl, legal.pairs if deciding else None,
                                 legal.token if deciding else None)
        for name, arr in sl.arrays.items():
            self.dict[name][...] = arr

    def string_from(self, state: HostWCGState, player: int) -> str:
        self.set_from(state, player)
        kind = "infostate" if self.recall else "observation"
        return f"{kind} p{player} {hashlib.blake2b(self.tensor.tobytes(), digest_size=16).hexdigest()}"


pyspiel.register_game(GAME_TYPE, HostWCGGame)

__all__ = ["GAME_TYPE", "SHORT_NAME", "HostWCGGame", "HostWCGObserver", "HostWCGState"]
