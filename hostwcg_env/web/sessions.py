"""The three kinds of session a browser tab opens over its WebSocket: play against an agent,
watch two agents, replay a kept game. A session owns its game; the server (``app.py``) gives
it the messages its tab sends and a ``send`` to answer with, and closes it when the tab goes.

Every message a tab sends is checked here: anything malformed, illegal or out of turn is
answered with ``{"type": "error", "message": ...}`` (one line) and changes nothing. An agent
thinks in the server's thread pool (``Hub.executor``), never on the event loop, so one slow
agent does not hold up the other sessions; the session's game is touched by one thing at a
time (``Session.busy``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hostwcg_env.analysis.records import Record
from hostwcg_env.cards.decks import Deck, pool_decks
from hostwcg_env.cards.loader import default_ruleset
from hostwcg_env.demo import _agent, agent_seeds
from hostwcg_env.engine import Action, Game, IllegalActionError, RuleConfig
from hostwcg_env.engine.actions import Kind

from .files import FileError, Roots
from .table import SIDES, Table, seat_of

Send = Callable[[dict[str, Any]], Awaitable[None]]
AgentFn = Callable[[Game], Action]
AgentFactory = Callable[[str, int], AgentFn]

MAX_SEED = 2**31 - 1
MIN_DELAY, MAX_DELAY = 0.02, 10.0  # seconds between a watched game's actions
SNAPSHOT_EVERY = 64  # a replay keeps a copy of the game every so many actions (stepping back)


class Refused(Exception):
    """A message the session will not act on; its text is sent back as the error."""


@dataclass
class Hub:
    """What the sessions share: the thread pool agents think in, the agents a tab may name,
    the folders results files and reports are read from, and the sessions open now."""

    roots: Roots
    agents: tuple[str, ...] = ()  # named on the command line (``serve --agent``), besides the shipped
    executor: Executor = field(default_factory=lambda: ThreadPoolExecutor(4, thread_name_prefix="agent"))
    make_agent: AgentFactory = _agent
    max_sessions: int = 64
    sessions: set[Session] = field(default_factory=set)

    def agent_names(self) -> list[str]:
        from agents import AGENT_NAMES

        return list(dict.fromkeys([*AGENT_NAMES, *self.agents]))

    def agent(self, spec: Any, seed: int) -> AgentFn:
        """An agent a tab named: one of the menu's, or a shipped agent with options
        (``ismcts:300``), never a path or a module (those only from the command line)."""
        if not isinstance(spec, str) or not spec or len(spec) > 200:
            raise Refused("agent: give an agent's name, e.g. heuristic")
        if spec not in self.agent_names():
            base = spec.partition(":")[0]
            from agents import AGENT_NAMES

            if base not in AGENT_NAMES or any(c in spec for c in "/\\") or \
                    spec.lower().endswith((".npz", ".zip", ".pt")):
                raise Refused(f"agent {spec!r} is not offered here (a shipped agent, or one given "
                              f"to 'hostwcg serve --agent')")
        try:
            return self.make_agent(spec, seed)
        except (ValueError, ImportError, OSError, KeyError) as e:
            raise Refused(f"agent {spec!r} cannot be made: {e}") from None


def _int(msg: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    v = msg.get(key, default)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise Refused(f"{key}: give a whole number from {lo} to {hi}, not {v!r}")
    return v


def _decks(names: Any, seed: int) -> tuple[Deck, Deck]:
    """Seat A's and B's decks: shipped deck ids, ``""`` for one drawn from the seed (as
    ``hostwcg_env.demo.load_decks`` draws it); never a path."""
    if names is None:
        names = []
    if not isinstance(names, list) or len(names) > 2 or not all(isinstance(n, str) for n in names):
        raise Refused("decks: give a list of at most two deck ids")
    pool = pool_decks(include_test=True)
    rng = random.Random(f"hostwcg decks {seed}")
    shipped = list(pool_decks().values())
    drawn = [rng.choice(shipped), rng.choice(shipped)]
    out: list[Deck] = []
    for i in (0, 1):
        name = names[i].strip() if i < len(names) else ""
        if not name:
            out.append(drawn[i])
        elif name in pool:
            out.append(pool[name])
        else:
            raise Refused(f"decks: no shipped deck {name!r} (known: {', '.join(pool)})")
    return out[0], out[1]


class Session:
    """One tab's game. Subclasses answer ``start`` and their own message types."""

    mode = ""

    def __init__(self, hub: Hub, send: Send) -> None:
        self.hub = hub
        self.send = send
        self.game: Game | None = None
        self.task: asyncio.Task[None] | None = None
        self.busy = asyncio.Lock()
        self.closed = False

    async def handle(self, msg: Any) -> None:
        """Act on one message from the tab; anything wrong is sent back as an error."""
        try:
            if not isinstance(msg, dict):
                raise Refused("a message is a JSON object with a 'type'")
            kind = msg.get("type")
            if not isinstance(kind, str):
                raise Refused("a message needs a 'type' (a string)")
            if kind == "start":
                if self.game is not None:
                    raise Refused("this session already has a game: open a new tab for another")
                await self.start(msg)
                return
            if self.game is None:
                raise Refused(f"{kind!r} before 'start': start a game first")
            await self.on(kind, msg)
        except Refused as e:
            await self.error(str(e))

    async def error(self, text: str) -> None:
        await self.send({"type": "error", "message": text})

    async def start(self, msg: dict[str, Any]) -> None:
        raise NotImplementedError

    async def on(self, kind: str, msg: dict[str, Any]) -> None:
        raise Refused(f"unknown message type {kind!r} for a {self.mode} session")

    async def think(self, agent: AgentFn, game: Game) -> Action:
        """An agent's decision, taken in the thread pool (the event loop goes on meanwhile)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.hub.executor, agent, game)

    def run(self, coro: Awaitable[None]) -> None:
        async def guarded() -> None:
            try:
                await coro
            except asyncio.CancelledError:
                raise
            except Exception as e:  # an agent that fails: say so, keep the server up
                with contextlib.suppress(Exception):
                    await self.error(f"the game stopped: {type(e).__name__}: {e}")

        self.task = asyncio.create_task(guarded())

    async def close(self) -> None:
        """The tab went: stop the game's work and let the game go."""
        self.closed = True
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        self.game = None


# ============================================================================ play


class PlaySession(Session):
    """A person at one seat against an agent. Messages: ``act`` (``action``: a legal action
    in the notation of docs/scenarios.md), ``concede``."""

    mode = "play"

    async def start(self, msg: dict[str, Any]) -> None:
        seed = _int(msg, "seed", 0, 0, MAX_SEED)
        side = msg.get("seat", "A")
        if side not in ("A", "B"):
            raise Refused(f"seat: A or B, not {side!r}")
        seat = SIDES.index(side)
        deck_a, deck_b = _decks(msg.get("decks"), seed)
        vs = msg.get("vs", "heuristic")
        self.agent = self.hub.agent(vs, seed + 1)
        self.vs = vs
        self.seat = seat
        self.concede = False
        self.game = game = default_ruleset(RuleConfig()).new_game(deck_a, deck_b, seed=seed)
        self.table = Table(game, seat)
        mine = (deck_a, deck_b)[seat]  # the opponent's deck is not said: its Host is hidden (A13)
        await self.send({"type": "started", "mode": "play", "you": side, "seed": seed, "vs": vs,
                         "decks": {side: f"{mine.name} ({mine.host})"}})
        self.run(self.advance())

    async def advance(self) -> None:
        """Play until the person must decide or the game ends, then send the state: the
        agent's decisions in the thread pool, the person's forced ones taken and said."""
        game, table = self.game, self.table
        assert game is not None
        async with self.busy:
            while not game.is_over:
                if self.concede:
                    game.concede(self.seat)
                    break
                d = game.decision
                assert d is not None
                if d.player == self.seat:
                    if not table.take_forced():
                        break
                    continue
                action = await self.think(self.agent, game)
                if self.closed:
                    return
                game.apply(action)
            await self.send(table.message())
            if self.concede and not game.is_over:  # asked for while the last state was sent
                game.concede(self.seat)
                await self.send(table.message())

    async def on(self, kind: str, msg: dict[str, Any]) -> None:
        game = self.game
        assert game is not None
        if kind == "concede":
            if game.is_over:
                raise Refused("the game is over")
            if self.task is not None and not self.task.done():
                self.concede = True  # taken as soon as the agent's decision is in
                return
            self.concede = True
            self.run(self.advance())
            return
        if kind != "act":
            raise Refused(f"unknown message type {kind!r} for a play session (act, concede)")
        text = msg.get("action")
        if not isinstance(text, str) or not text.strip() or len(text) > 100:
            raise Refused("act: give 'action', a legal action such as 'pass' or 'play h0'")
        if game.is_over:
            raise Refused("the game is over")
        if self.busy.locked() or (self.task is not None and not self.task.done()):
            raise Refused("not your turn: the opponent is deciding")
        d = game.decision
        if d is None or d.player != self.seat:
            raise Refused("not your turn: the opponent is deciding")
        try:
            action = Action.parse(text)
        except ValueError as e:
            raise Refused(f"act: {e}") from None
        if action.kind is Kind.CONCEDE:
            raise Refused("to give up, send 'concede'")
        try:
            game.apply(action)
        except IllegalActionError as e:
            raise Refused(f"not allowed: {e}") from None
        self.run(self.advance())


# ============================================================================ watch


class WatchSession(Session):
    """Two agents play; the tab watches from a side. Messages: ``pause``, ``resume``, ``step``
    (one action while paused), ``speed`` (``delay``: seconds between actions)."""

    mode = "watch"

    async def start(self, msg: dict[str, Any]) -> None:
        seed = _int(msg, "seed", 0, 0, MAX_SEED)
        names = msg.get("agents", ["heuristic", "heuristic"])
        if not isinstance(names, list) or len(names) != 2:
            raise Refused("agents: give two agents, seat A's and seat B's")
        seeds = agent_seeds(seed)
        self.agents = [self.hub.agent(n, s) for n, s in zip(names, seeds, strict=True)]
        deck_a, deck_b = _decks(msg.get("decks"), seed)
        try:
            seat = seat_of(str(msg.get("side", "all")))
        except ValueError as e:
            raise Refused(str(e)) from None
        self.delay = self._delay(msg.get("delay", 0.5))
        self.paused = bool(msg.get("paused", False))
        self.wake = asyncio.Event()
        self.steps = 0
        self.game = game = default_ruleset(RuleConfig()).new_game(deck_a, deck_b, seed=seed)
        self.table = Table(game, seat)
        shown = [p for p in (0, 1) if seat is None or seat == p]  # a Host is hidden until the start (A13)
        decks = (deck_a, deck_b)
        await self.send({"type": "started", "mode": "watch", "seed": seed, "agents": names,
                         "decks": {SIDES[p]: f"{decks[p].name} ({decks[p].host})" for p in shown}})
        await self.send(self.table.message(paused=self.paused, delay=self.delay))
        self.run(self.drive())

    @staticmethod
    def _delay(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or not MIN_DELAY / 2 <= v <= MAX_DELAY:
            raise Refused(f"delay: seconds between actions, from {MIN_DELAY} to {MAX_DELAY}, not {v!r}")
        return max(float(v), MIN_DELAY)

    async def drive(self) -> None:
        game = self.game
        assert game is not None
        while not game.is_over:
            if self.paused and self.steps == 0:
                self.wake.clear()
                await self.wake.wait()
                continue
            if self.steps:
                self.steps -= 1
            async with self.busy:
                d = game.decision
                assert d is not None
                action = await self.think(self.agents[d.player], game)
                if self.closed:
                    return
                game.apply(action)
                # the action itself only to a side that may read it (a hand index is the player's)
                seen = self.table.seat is None or self.table.seat == d.player
                await self.send(self.table.message(paused=self.paused, delay=self.delay,
                                                   last=f"{SIDES[d.player]}: {action}" if seen else ""))
            if not self.paused:
                try:
                    await asyncio.wait_for(self._interrupted(), timeout=self.delay)
                except TimeoutError:
                    pass

    async def _interrupted(self) -> None:
        self.wake.clear()
        await self.wake.wait()

    async def on(self, kind: str, msg: dict[str, Any]) -> None:
        if kind == "pause":
            self.paused = True
        elif kind == "resume":
            self.paused = False
        elif kind == "step":
            if not self.paused:
                raise Refused("step: pause first")
            if self.game is not None and self.game.is_over:
                raise Refused("the game is over")
            self.steps += 1
        elif kind == "speed":
            self.delay = self._delay(msg.get("delay"))
        else:
            raise Refused(f"unknown message type {kind!r} for a watch session (pause, resume, step, speed)")
        self.wake.set()
        await self.send({"type": "control", "paused": self.paused, "delay": self.delay})


# ============================================================================ replay


class ReplaySession(Session):
    """A kept game, step by step, from a side. Messages: ``seek`` (``to``: how many of the
    record's actions are played, 0 to all), ``step`` (``by``: +1, -1, ...), ``side``."""

    mode = "replay"

    async def start(self, msg: dict[str, Any]) -> None:
        from hostwcg_env.analysis.records import record_key
        from hostwcg_env.analysis.replay import describe, load_record, new_game

        ref = msg.get("file")
        if not isinstance(ref, str):
            raise Refused("file: give a results file from the list")
        try:
            path = self.hub.roots.results_file(ref)
        except FileError as e:
            raise Refused(str(e)) from None
        key = msg.get("key")
        if key is not None and (not isinstance(key, str) or not key):
            raise Refused("key: a record's key (DECK_A|DECK_B|SEED), or leave it out for 'index'")
        index = _int(msg, "index", 0, 0, 10**9) if key is None else 0
        try:
            seat = seat_of(str(msg.get("side", "spectator")))
        except ValueError as e:
            raise Refused(str(e)) from None
        loop = asyncio.get_running_loop()
        try:
            rec = await loop.run_in_executor(self.hub.executor, _load, load_record, path, index, key)
            game = new_game(rec)
            actions = [Action.parse(t) for t in rec["actions"]]
        except (LookupError, ValueError, OSError) as e:
            raise Refused(f"{ref}: {e}") from None
        if not actions:
            raise Refused(f"{ref}: record {record_key(rec)} has no actions (written before they were kept)")
        self.rec = rec
        self.actions = actions
        self.start_state = game.state.copy()
        self.snapshots: dict[int, Any] = {0: self.start_state}
        self.turns: list[int] = []  # the position (actions played) at which each turn began
        self.game = game
        self.at = 0
        self.seat = seat
        self.table = Table(game, seat)
        await self.send({"type": "started", "mode": "replay", "file": ref, "key": record_key(rec),
                         "about": describe(rec), "actions": len(actions)})
        await self.send(self._message(reset=True))

    def _message(self, reset: bool = False) -> dict[str, Any]:
        d_next = self.actions[self.at] if self.at < len(self.actions) else None
        return self.table.message(at=self.at, total=len(self.actions), reset=reset,
                                  next=None if d_next is None or self.seat is not None and
                                  self._decider() != self.seat else str(d_next))

    def _decider(self) -> int | None:
        g = self.game
        return None if g is None or g.decision is None or g.is_over else g.decision.player

    def _goto(self, to: int) -> bool:
        """Play to position ``to``; True when the game was rebuilt from a snapshot (the log
        starts again)."""
        game = self.game
        assert game is not None
        rebuilt = False
        if to < self.at:
            base = max(k for k in self.snapshots if k <= to)
            self.game = game = Game(self.snapshots[base].copy())
            self.at = base
            self.table = Table(game, self.seat)
            rebuilt = True
        while self.at < to:
            try:
                game.apply(self.actions[self.at])
            except IllegalActionError as e:
                raise Refused(f"the record does not replay at action {self.at + 1}: {e}") from None
            self.at += 1
            if self.at % SNAPSHOT_EVERY == 0 and self.at not in self.snapshots:
                self.snapshots[self.at] = game.state.copy()
        return rebuilt

    async def on(self, kind: str, msg: dict[str, Any]) -> None:
        n = len(self.actions)
        if kind == "seek":
            to = _int(msg, "to", 0, 0, n)
        elif kind == "step":
            to = min(max(self.at + _int(msg, "by", 1, -n, n), 0), n)
        elif kind == "side":
            try:
                self.seat = seat_of(str(msg.get("side")))
            except ValueError as e:
                raise Refused(str(e)) from None
            to = self.at
            self.table = Table(self.game, self.seat) if self.game is not None else self.table
            async with self.busy:
                await self.send(self._message(reset=True))
            return
        elif kind == "turn":  # to the start of the next (by=1) or this/previous (by=-1) turn
            by = _int(msg, "by", 1, -1, 1)
            to = -by - 2  # worked out in the thread pool below
        else:
            raise Refused(f"unknown message type {kind!r} for a replay session (seek, step, turn, side)")
        if self.busy.locked():
            raise Refused("busy: the last step is still being played")
        async with self.busy:
            loop = asyncio.get_running_loop()
            if to < 0:
                to = await loop.run_in_executor(self.hub.executor, self._turn_target, -to - 2)
            rebuilt = await loop.run_in_executor(self.hub.executor, self._goto, to)
            await self.send(self._message(reset=rebuilt))

    def _turn_target(self, by: int) -> int:
        """Replays forward to find where the next turn begins (no state kept but snapshots)."""
        game = self.game
        assert game is not None
        n = len(self.actions)
        if by > 0:
            probe = Game(game.state.copy(events=False))
            turn = probe.state.turn
            k = self.at
            while k < n and (probe.state.turn == turn or not probe.state.started):
                probe.apply(self.actions[k])
                k += 1
            return k
        # back: to the first position of the current turn, or of the previous one when at it
        want = game.state.turn if self.at else 0
        probe = Game(self.start_state.copy(events=False))
        start_of: dict[int, int] = {probe.state.turn: 0}
        for k in range(self.at):
            probe.apply(self.actions[k])
            start_of.setdefault(probe.state.turn, k + 1)
        here = start_of.get(want, 0)
        if here == self.at and want > 0:
            return start_of.get(want - 1, 0)
        return here


def _load(load_record: Callable[..., Record], path: Path, index: int,
          key: str | None) -> Record:
    return load_record(path, index=index, key=key)


MODES: dict[str, type[Session]] = {"play": PlaySession, "watch": WatchSession, "replay": ReplaySession}


def session_for(mode: Any, hub: Hub, send: Send) -> Session:
    if mode not in MODES:
        raise Refused(f"mode: play, watch or replay, not {mode!r}")
    return MODES[mode](hub, send)


__all__ = ["MODES", "Hub", "PlaySession", "Refused", "ReplaySession", "Session", "WatchSession",
           "session_for"]
