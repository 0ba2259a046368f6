"""The web app (hostwcg_env/web, docs/web.md): playing, watching and replaying over the
WebSocket, hidden information, bad messages, many games at once, closed tabs, and the files
it may read. The page in a real browser: tests/test_web_browser.py."""

from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")

from starlette.testclient import TestClient  # noqa: E402

from hostwcg_env.board import board_of  # noqa: E402
from hostwcg_env.cards.loader import default_ruleset  # noqa: E402
from hostwcg_env.demo import _agent, load_decks  # noqa: E402
from hostwcg_env.engine import Action, Game, RuleConfig  # noqa: E402
from hostwcg_env.engine.actions import Kind  # noqa: E402
from hostwcg_env.engine.kinds import Zone  # noqa: E402
from hostwcg_env.engine.view import hidden_ids  # noqa: E402
from hostwcg_env.testing.resample import resample_opponent  # noqa: E402
from hostwcg_env.web.app import create_app  # noqa: E402
from hostwcg_env.web.files import Roots  # noqa: E402
from hostwcg_env.web.sessions import Hub  # noqa: E402
from hostwcg_env.web.table import Table, dumps  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LADDER = ROOT / "agents" / "ladder_results"


def _hub(tmp_path: Path, **kw: Any) -> Hub:
    results = tmp_path / "results"
    reports = tmp_path / "reports"
    results.mkdir(exist_ok=True)
    reports.mkdir(exist_ok=True)
    return Hub(Roots.of([results], [reports]), **kw)


def _kept_game(tmp_path: Path) -> str:
    """A small results file (two kept games) in the results folder; its name for the app."""
    from hostwcg_env.analysis.recordfile import iter_records

    src = sorted(LADDER.glob("*.jsonl.gz"))[0]
    recs = []
    for rec in iter_records(src, warn=False):
        if rec["actions"]:
            recs.append(rec)
        if len(recs) == 2:
            break
    (tmp_path / "results" / "kept.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    return "0/kept.jsonl"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, Hub]]:
    hub = _hub(tmp_path)
    with TestClient(create_app(hub)) as c:
        yield c, hub


def _recv(ws: Any) -> dict[str, Any]:
    return json.loads(ws.receive_text())  # type: ignore[no-any-return]


def _start_play(ws: Any, **kw: Any) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "start", "mode": "play", "vs": "random", "seat": "A", "seed": 1, **kw}))
    started = _recv(ws)
    assert started["type"] == "started", started
    assert list(started["decks"]) == [started["you"]]  # not the opponent's deck: its Host is hidden (A13)
    return _recv(ws)


# ============================================================================ playing


def test_a_whole_game_is_played_over_the_socket_and_its_end_names_the_rule(client: Any) -> None:
    c, hub = client
    rng = random.Random(3)
    seen_forced = False
    with c.websocket_connect("/ws") as ws:
        m = _start_play(ws, seat="B", seed=5)
        moves = 0
        while not m["over"]:
            assert m["type"] == "state" and m["seat"] == "B"
            d = m["decision"]
            assert d["mine"] and d["player"] == "B"
            assert len(d["options"]) >= 2  # one legal action is taken for the player, not asked
            for o in d["options"]:  # every option is legal notation, with words and maybe a place
                assert str(Action.parse(o["a"])) == o["a"] and o["label"]
            seen_forced |= bool(m["forced"])
            # each answer taken for the player is said in the log, where it was taken
            assert [e["forced"] for e in m["log"] if "forced" in e] == m["forced"]
            ws.send_text(json.dumps({"type": "act", "action": rng.choice(d["options"])["a"]}))
            m = _recv(ws)
            moves += 1
        assert moves > 10
        assert seen_forced
        over = m["over"]
        assert over["verdict"] in ("You win.", "You lose.", "A draw.")
        assert re.search(r"\(rules? [\d.]+|RuleConfig", over["text"]), over["text"]
        assert m["decision"] is None
    assert not hub.sessions  # the closed socket let its game go


def test_options_carry_the_board_place_they_are_clicked_at(client: Any) -> None:
    c, _ = client
    with c.websocket_connect("/ws") as ws:
        m = _start_play(ws, seed=2)
        assert m["decision"]["kind"] == "mulligan" or m["decision"]["kind"] == "first_player"
        rng = random.Random(0)
        kinds: dict[str, set[str]] = {}
        for _ in range(60):
            if m["over"]:
                break
            board = m["board"]
            hand = {c["place"] for c in board["sides"][0]["hand"]}
            for o in m["decision"]["options"]:
                kinds.setdefault(o["kind"], set()).add(o["place"])
                if o["kind"] == "play":
                    assert o["place"] in hand and o["label"].startswith("play ")
                if o["kind"] == "attack":
                    assert o["place"].startswith("A.f") and o["label"].startswith("attack with ")
                if o["kind"] in ("pass", "yes", "ap host", "ap draw", "ap any", "pay"):
                    assert o["place"] == ""
            ws.send_text(json.dumps({"type": "act", "action": rng.choice(m["decision"]["options"])["a"]}))
            m = _recv(ws)
        assert {"play", "pass"} <= kinds.keys()


def test_the_order_of_triggers_is_asked_with_their_cards_names() -> None:
    """``trigger K`` is labelled with the card whose trigger it is: the card the notation
    takes for it by name (engine/notation.py)."""
    from hostwcg_env.engine.notation import _names

    checked = 0
    for seed in range(4, 60):
        g = _new_game(seed)
        rng = random.Random(seed)
        while not g.is_over and checked < 12:
            d = g.decision
            assert d is not None
            for a in d.actions:
                if a.kind is Kind.TRIGGER:
                    label = Table(g, d.player).label(board_of(g, d.player), a)
                    name = re.fullmatch(r"put (.+)'s trigger on the stack next", label)
                    assert name and _names(g.state, a, name.group(1), None), (label, a)
                    checked += 1
            g.apply(rng.choice(g.legal_actions()))
        if checked >= 12:
            break
    assert checked >= 12


def test_concede_ends_the_game_with_its_rule(client: Any) -> None:
    c, hub = client
    with c.websocket_connect("/ws") as ws:
        _start_play(ws)
        ws.send_text(json.dumps({"type": "concede"}))
        m = _recv(ws)
        assert m["over"]["winner"] == "B" and "35.3.5" in m["over"]["text"]
        ws.send_text(json.dumps({"type": "act", "action": "pass"}))
        assert _recv(ws) == {"type": "error", "message": "the game is over"}


# ============================================================================ hidden information


_PUBLIC = frozenset({Kind.PASS, Kind.YES, Kind.AP_HOST, Kind.AP_DRAW, Kind.AP_ANY, Kind.ATTACK,
                     Kind.TARGET, Kind.SLOT, Kind.PAY})
_OPEN = frozenset({Zone.DROP, Zone.BANISHED, Zone.FRONT, Zone.BACK, Zone.FORM, Zone.STACK, Zone.MARKER})


def _revealed(g1: Game, g2: Game) -> bool:
    """The rules made a resampled card public (tests/test_hidden_info.py ``_revealed``)."""
    s1, s2 = g1.state, g2.state
    if s1.objs.keys() != s2.objs.keys():
        return True
    return any(o.zone in _OPEN and not o.face_down and o.card.name != s2.objs[i].card.name
               for i, o in s1.objs.items())


def _new_game(seed: int) -> Game:
    a, b = load_decks(None, seed)
    return default_ruleset(RuleConfig()).new_game(a, b, seed=seed)


def _forward(t: Table) -> None:
    while t.take_forced():
        pass


def test_twin_games_differing_in_hidden_cards_send_the_same_bytes() -> None:
    """From many positions the opponent's hidden cards are drawn again (hostwcg_env.testing.resample);
    both games go on with the same choices (the player's: any legal one; the opponent's: public
    ones). Every message the player is sent is byte-identical until the rules reveal a
    resampled card."""
    compared = 0
    for seed in range(8):
        rng = random.Random(f"web twins {seed}")
        for viewer in (0, 1):
            g1 = _new_game(seed)
            for _ in range(rng.randrange(20, 160)):  # warm up with random play
                if g1.is_over:
                    break
                g1.apply(rng.choice(g1.legal_actions()))
            if g1.is_over:
                continue
            s2 = resample_opponent(g1.state, viewer, rng)
            if s2 is None:
                continue
            g2 = Game(s2)
            t1, t2 = Table(g1, viewer, told=len(g1.events)), Table(g2, viewer, told=len(g2.events))
            for step in range(80):
                if g1.is_over:
                    break
                d = g1.decision
                assert d is not None
                if d.player == viewer:
                    _forward(t1)
                    _forward(t2)
                    if g1.is_over or g1.decision is None or g1.decision.player != viewer:
                        continue
                    b1, b2 = dumps(t1.message()), dumps(t2.message())
                    assert b1 == b2, f"seed {seed} viewer {viewer} step {step}: the messages differ"
                    compared += 1
                    a = rng.choice(g1.legal_actions())
                else:
                    both = [a for a in g1.legal_actions() if a.kind in _PUBLIC and a in g2.legal_actions()]
                    if not both:
                        break
                    a = next((x for x in both if x.kind is Kind.PASS), None) if rng.random() < 0.7 else None
                    a = a or rng.choice(both)
                g1.apply(a)
                g2.apply(a)
                if _revealed(g1, g2):
                    break
    assert compared >= 150, compared


def _hidden_names(game: Game, viewer: int, told: list[str]) -> set[str]:
    """Names of cards hidden from ``viewer`` that it has no other way to know: not on its
    board (built from its PlayerView) and not in any event it was told."""
    s = game.state
    hidden = {s.objs[o].name for o in hidden_ids(s, viewer)}
    board = json.dumps(_faces(board_of(game, viewer)))
    seen = " ".join(told) + board
    return {n for n in hidden if n not in seen and n != "?"}


def _faces(board: Any) -> list[str]:
    from dataclasses import asdict

    out: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if isinstance(x.get("name"), str):
                out.append(x["name"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(asdict(board))
    return out


def test_no_payload_names_a_hidden_card(client: Any) -> None:
    """Every message of whole games, searched for the names of the cards the player may not
    see (the opponent's hand, both decks, the opponent's face-down cards and damage zone, and
    the opponent's Host before the game begins, A13)."""
    c, hub = client
    searched = 0
    for seed in (11, 12):
        rng = random.Random(seed)
        with c.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "start", "mode": "play", "vs": "random", "seed": seed}))
            started = dumps(_recv(ws))
            m = _recv(ws)
            told: list[str] = []
            first = True
            while True:
                game = next(iter(hub.sessions)).game  # the server's game, read between messages
                assert game is not None
                told += [str(e.redact(0)) for e in game.events[len(told):]]
                payload = dumps(m) + (started if first else "")
                first = False
                names = _hidden_names(game, 0, told)
                assert names, "nothing hidden to search for"
                leaked = [n for n in names if n in payload]
                assert not leaked, f"seed {seed}: the payload names hidden cards {leaked}"
                searched += 1
                if m["over"]:
                    break
                ws.send_text(json.dumps({"type": "act", "action": rng.choice(m["decision"]["options"])["a"]}))
                m = _recv(ws)
    assert searched > 40


def test_no_replay_message_from_a_side_names_a_hidden_card(client: Any, tmp_path: Path) -> None:
    """A kept game replayed from B's side, every step searched as above (the replay's game is
    the whole game: only the side's messages must hide what B may not see)."""
    c, hub = client
    ref = _kept_game(tmp_path)
    with c.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "start", "mode": "replay", "file": ref, "index": 0, "side": "B"}))
        total = _recv(ws)["actions"]
        m = _recv(ws)
        told: list[str] = []
        for k in range(0, total, 4):  # four actions a step: every message sent is searched
            game = next(iter(hub.sessions)).game
            assert game is not None
            told += [str(e.redact(1)) for e in game.events[len(told):]]
            names = _hidden_names(game, 1, told)
            leaked = [n for n in names if n in dumps(m)]
            assert not leaked, f"step {k}: the payload names hidden cards {leaked}"
            ws.send_text(json.dumps({"type": "step", "by": 4}))
            m = _recv(ws)
        assert m["over"] is not None


# ============================================================================ bad input


_FUZZ: list[Any] = [
    "", "{", "null", "[]", "42", '"pass"', "{}", '{"type": 7}', '{"type": "act"}',
    '{"type": "act", "action": 5}', '{"type": "act", "action": ""}', '{"type": "act", "action": "fly away"}',
    '{"type": "act", "action": "play h99"}', '{"type": "act", "action": "attack f9"}',
    '{"type": "act", "action": "target Z.f0"}', '{"type": "act", "action": "concede"}',
    '{"type": "act", "action": "' + "x" * 5000 + '"}', '{"type": "start", "mode": "play"}',
    '{"type": "seek", "to": 3}', '{"type": "pause"}', '{"type": "nonsense"}', '{"type": ["act"]}',
    '{"type": "act", "action": {"a": 1}}', '{"type": "act", "action": "pay £"}',
]


def test_malformed_illegal_and_out_of_place_messages_get_an_error_and_the_game_goes_on(client: Any) -> None:
    c, hub = client
    rng = random.Random(7)
    with c.websocket_connect("/ws") as ws:
        ws.send_text('{"type": "act", "action": "pass"}')  # before start
        assert "start a game first" in _recv(ws)["message"]
        ws.send_text('{"type": "start", "mode": "chess"}')
        assert "mode" in _recv(ws)["message"]
        ws.send_text('{"type": "start", "mode": "play", "vs": "../../etc/passwd"}')
        assert "not offered" in _recv(ws)["message"]
        for spec in ("ppo:/etc/passwd", "ppo_v1:../x.npz", "os:system", "ppo:C:\\\\x"):
            ws.send_text(json.dumps({"type": "start", "mode": "play", "vs": spec}))
            assert "not offered" in _recv(ws)["message"], spec
        ws.send_text('{"type": "start", "mode": "play", "decks": ["/etc/passwd"]}')
        assert "no shipped deck" in _recv(ws)["message"]
        ws.send_bytes(b"\x00\x01")
        assert _recv(ws)["type"] == "error"
        m = _start_play(ws, seed=4)
        errors = 0
        while not m["over"]:
            legal = {json.dumps({"type": "act", "action": o["a"]}) for o in m["decision"]["options"]}
            for junk in rng.sample(_FUZZ, 3) + [_mutate(rng, m)]:
                if json.dumps(json.loads(junk)) in legal if junk.startswith('{"type": "act"') else False:
                    continue  # a legal action by chance
                ws.send_text(junk)
                e = _recv(ws)
                assert e["type"] == "error" and isinstance(e["message"], str) and "\n" not in e["message"], e
                errors += 1
            ws.send_text(json.dumps({"type": "act", "action": rng.choice(m["decision"]["options"])["a"]}))
            m = _recv(ws)
        assert errors > 40
    assert not hub.sessions


def _mutate(rng: random.Random, m: dict[str, Any]) -> str:
    """A near miss of a legal action: a legal one with its index or place changed."""
    legal = {o["a"] for o in m["decision"]["options"]}
    for _ in range(50):
        a = rng.choice(sorted(legal))
        b = re.sub(r"\d+", lambda x: str(int(x.group()) + rng.randrange(1, 9)), a)
        b = b.replace("A.", "B.") if rng.random() < 0.5 else b
        if b not in legal:
            return json.dumps({"type": "act", "action": b})
    return json.dumps({"type": "act", "action": "yes" if "pass" in legal else "pass?"})


class _Gate:
    """An agent that waits at a gate before each decision: to catch a session while its
    agent thinks."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.open = threading.Event()

    def factory(self, name: str, seed: int) -> Any:
        inner = _agent("random", seed)

        def act(game: Game) -> Action:
            self.entered.set()
            assert self.open.wait(30), "the gate was never opened"
            return inner(game)

        return act


def test_out_of_turn_while_the_agent_thinks_and_other_games_go_on(tmp_path: Path) -> None:
    """One game's agent is held mid-decision: that tab's action is refused as out of turn,
    and another game on the same server plays on meanwhile (agents think off the event loop)."""
    gate = _Gate()
    hub = _hub(tmp_path)
    slow = {"ok": False}
    real = hub.make_agent

    def agents(name: str, seed: int) -> Any:
        return gate.factory(name, seed) if name == "heuristic" else real(name, seed)

    hub.make_agent = agents
    with TestClient(create_app(hub)) as c, c.websocket_connect("/ws") as held, c.websocket_connect("/ws") as free:
        held.send_text(json.dumps({"type": "start", "mode": "play", "vs": "heuristic", "seat": "B", "seed": 9}))
        assert _recv(held)["type"] == "started"
        assert gate.entered.wait(30)  # the agent is deciding, and will not finish until opened
        held.send_text(json.dumps({"type": "act", "action": "pass"}))
        assert "not your turn" in _recv(held)["message"]
        m = _start_play(free, seed=8)  # the other game plays a dozen moves meanwhile
        for _ in range(12):
            if m["over"]:
                break
            free.send_text(json.dumps({"type": "act", "action": m["decision"]["options"][0]["a"]}))
            m = _recv(free)
        slow["ok"] = not gate.open.is_set()
        gate.open.set()
        assert _recv(held)["type"] == "state"
    assert slow["ok"]
    assert not hub.sessions


def test_a_concession_while_the_agent_thinks_is_taken_when_it_has_decided(tmp_path: Path) -> None:
    gate = _Gate()
    hub = _hub(tmp_path, make_agent=gate.factory)
    with TestClient(create_app(hub)) as c, c.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "start", "mode": "play", "vs": "random", "seat": "B", "seed": 9}))
        assert _recv(ws)["type"] == "started"
        assert gate.entered.wait(30)
        ws.send_text(json.dumps({"type": "concede"}))
        gate.open.set()
        m = _recv(ws)  # the state the agent's decision led to may come first, if it won the race
        if not m["over"]:
            m = _recv(ws)
        assert m["type"] == "state" and m["over"]["reason"] == "concede" and m["over"]["winner"] == "A"


def test_a_closed_tab_frees_its_game_even_while_its_agent_thinks(tmp_path: Path) -> None:
    gate = _Gate()
    hub = _hub(tmp_path, make_agent=gate.factory)
    with TestClient(create_app(hub)) as c:
        with c.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "start", "mode": "play", "vs": "random", "seat": "B", "seed": 9}))
            assert _recv(ws)["type"] == "started"
            assert gate.entered.wait(30)
            assert len(hub.sessions) == 1
            session = next(iter(hub.sessions))
        gate.open.set()
        c.get("/api/options")  # the server has handled the close by the time it answers
        for _ in range(600):  # at most 30 s: the close is handled by the server's own thread
            if not hub.sessions:
                break
            threading.Event().wait(0.05)
        assert not hub.sessions and session.game is None and session.closed


def test_an_agent_that_fails_stops_its_game_with_a_message_and_the_server_goes_on(tmp_path: Path) -> None:
    def broken(name: str, seed: int) -> Any:
        if name == "heuristic":
            def act(game: Game) -> Action:
                raise RuntimeError("out of ideas")
            return act
        return _agent(name, seed)

    hub = _hub(tmp_path, make_agent=broken)
    with TestClient(create_app(hub)) as c:
        with c.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "start", "mode": "play", "vs": "heuristic", "seat": "B"}))
            assert _recv(ws)["type"] == "started"
            assert _recv(ws) == {"type": "error", "message": "the game stopped: RuntimeError: out of ideas"}
        with c.websocket_connect("/ws") as ws:
            assert _start_play(ws)["type"] == "state"


def test_the_menu_offers_the_command_line_agents_and_the_limit_on_games_holds(tmp_path: Path) -> None:
    def agents(name: str, seed: int) -> Any:
        return _agent("random" if name == "mine" else name, seed)

    hub = _hub(tmp_path, agents=("mine",), make_agent=agents, max_sessions=1)
    with TestClient(create_app(hub)) as c:
        assert c.get("/api/options").json()["agents"][-1] == "mine"
        with c.websocket_connect("/ws") as one, c.websocket_connect("/ws") as two:
            assert _start_play(one, vs="mine")["type"] == "state"
            two.send_text(json.dumps({"type": "start", "mode": "play", "vs": "mine"}))
            assert "its limit" in _recv(two)["message"]
        with c.websocket_connect("/ws") as three:  # the first game went with its tab
            assert _start_play(three, vs="mine")["type"] == "state"


# ============================================================================ many games


def test_twenty_games_at_once_do_not_interfere(tmp_path: Path) -> None:
    """20 tabs play at once on a real server (uvicorn, real sockets): each gets only its own
    game's messages; each plays a few moves and concedes."""
    import websockets

    from hostwcg_env.testing.web_server import running

    hub = _hub(tmp_path)

    async def one(i: int) -> tuple[int, str, int]:
        rng = random.Random(i)
        seat = "AB"[i % 2]
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            await ws.send(json.dumps({"type": "start", "mode": "play", "vs": "random", "seat": seat,
                                      "seed": 100 + i}))
            started = json.loads(await ws.recv())
            assert started["seed"] == 100 + i and started["you"] == seat
            m = json.loads(await ws.recv())
            host = load_decks(None, 100 + i)["AB".index(seat)].host  # this game's, no other's
            moves = 0
            while not m["over"] and moves < 8:
                assert m["seat"] == seat and m["decision"]["player"] == seat
                assert m["board"]["sides"]["AB".index(seat)]["host"]["name"] == host
                await ws.send(json.dumps({"type": "act", "action": rng.choice(m["decision"]["options"])["a"]}))
                m = json.loads(await ws.recv())
                moves += 1
            if not m["over"]:
                await ws.send(json.dumps({"type": "concede"}))
                m = json.loads(await ws.recv())
            return i, m["over"]["reason"], len(hub.sessions)

    async def all_of_them() -> list[tuple[int, str, int]]:
        return await asyncio.gather(*(one(i) for i in range(20)))

    with running(hub) as port:
        out = asyncio.run(all_of_them())
    assert sorted(i for i, _, _ in out) == list(range(20))
    assert max(n for _, _, n in out) >= 10  # they really were open at the same time
    assert all(reason in ("concede", "empty_hand", "damage_zone", "deck_out") for _, reason, _ in out)
    assert not hub.sessions


# ============================================================================ watch and replay


def test_watching_pauses_steps_and_changes_speed(client: Any) -> None:
    c, hub = client
    with c.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "start", "mode": "watch", "agents": ["random", "heuristic"],
                                 "seed": 2, "paused": True, "side": "all"}))
        assert _recv(ws)["type"] == "started"
        first = _recv(ws)
        assert first["paused"] and first["seat"] == "all"
        ws.send_text(json.dumps({"type": "step"}))
        assert _recv(ws) == {"type": "control", "paused": True, "delay": 0.5}
        one = _recv(ws)
        assert one["type"] == "state" and re.fullmatch(r"[AB]: \S.*", one["last"])
        ws.send_text(json.dumps({"type": "speed", "delay": 99}))
        assert "delay" in _recv(ws)["message"]
        ws.send_text(json.dumps({"type": "speed", "delay": 0.02}))
        assert _recv(ws)["delay"] == 0.02
        ws.send_text(json.dumps({"type": "resume"}))
        assert _recv(ws)["paused"] is False
        m = _recv(ws)
        while not m.get("over"):
            m = _recv(ws)
        assert m["over"]["verdict"] in ("A wins.", "B wins.", "A draw.")
        ws.send_text(json.dumps({"type": "step"}))
        assert _recv(ws)["type"] == "error"


def test_watching_from_one_side_shows_only_that_sides_actions(client: Any) -> None:
    c, _ = client
    with c.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "start", "mode": "watch", "agents": ["random", "random"],
                                 "seed": 4, "paused": True, "side": "B"}))
        started = _recv(ws)
        assert started["type"] == "started" and list(started["decks"]) == ["B"]  # A's Host: hidden (A13)
        assert _recv(ws)["seat"] == "B"
        lasts = []
        for _ in range(40):
            ws.send_text(json.dumps({"type": "step"}))
            assert _recv(ws)["type"] == "control"
            m = _recv(ws)
            lasts.append(m["last"])
            assert m["board"]["sides"][0]["hand"] is None  # A's hand: a count only
        assert any(x.startswith("B: ") for x in lasts) and "" in lasts
        assert all(x == "" or x.startswith("B: ") for x in lasts), lasts


def test_replay_steps_back_and_forth_from_each_side(client: Any, tmp_path: Path) -> None:
    from hostwcg_env.analysis.replay import load_record

    c, hub = client
    ref = _kept_game(tmp_path)
    rec = load_record(tmp_path / "results" / "kept.jsonl", index=1)
    rows = c.get("/api/records", params={"file": ref}).json()["records"]
    assert [r["index"] for r in rows] == [0, 1]
    with c.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "start", "mode": "replay", "file": ref, "key": rows[1]["key"],
                                 "side": "A"}))
        started = _recv(ws)
        assert started["actions"] == len(rec["actions"]) and started["key"] == rows[1]["key"]
        m = _recv(ws)
        assert m["at"] == 0 and m["reset"] and m["seat"] == "A"

        def go(msg: dict[str, Any]) -> dict[str, Any]:
            ws.send_text(json.dumps(msg))
            return _recv(ws)

        boards = {}
        for k in range(1, 150):
            m = go({"type": "step", "by": 1})
            assert m["at"] == k
            boards[k] = dumps(m["board"])
        for k in (149, 70, 3, 100):  # back (from snapshots) and forth: the same boards
            assert dumps(go({"type": "seek", "to": k})["board"]) == boards[k]
        m = go({"type": "step", "by": -1})
        assert m["at"] == 99 and m["reset"] and dumps(m["board"]) == boards[99]
        t = go({"type": "turn", "by": 1})
        assert t["at"] > 99 and t["board"]["turn"] == m["board"]["turn"] + 1
        assert go({"type": "turn", "by": -1})["at"] < t["at"]
        end = go({"type": "seek", "to": len(rec["actions"])})
        assert end["over"]["winner"] == (None if rec["winner"] is None else "AB"[rec["winner"]])
        assert end["over"]["reason"] == rec["reason"]
        spectator = go({"type": "side", "side": "spectator"})
        assert spectator["seat"] == "spectator" and spectator["reset"]
        assert all(s["hand"] is None for s in spectator["board"]["sides"])
        assert "to: give a whole number" in go({"type": "seek", "to": -1})["message"]


# ============================================================================ files


def test_no_file_outside_the_configured_folders_can_be_read(client: Any, tmp_path: Path) -> None:
    c, hub = client
    (tmp_path / "reports" / "ok.html").write_text("<p>report</p>")
    (tmp_path / "secret.html").write_text("SECRET")
    (tmp_path / "secret.jsonl").write_text("SECRET\n")
    (tmp_path / "reports" / "link.html").symlink_to(tmp_path / "secret.html")
    (tmp_path / "results" / "link.jsonl").symlink_to(tmp_path / "secret.jsonl")
    (tmp_path / "reports" / "up").symlink_to(tmp_path, target_is_directory=True)
    opts = c.get("/api/options").json()
    assert opts["reports"] == ["0/ok.html"] and opts["results"] == []
    assert c.get("/reports/0/ok.html").text == "<p>report</p>"
    for bad in ("0/../secret.html", "0/%2e%2e/secret.html", "0/..%2fsecret.html", "0/link.html",
                "0/up/secret.html", "1/ok.html", "0//etc/passwd", "0/..\\secret.html", "x/ok.html",
                "0/", "/etc/passwd", "0/%2fetc%2fpasswd", "../secret.html", "0/ok.html%00.html"):
        r = c.get("/reports/" + bad)
        assert r.status_code == 404 and "SECRET" not in r.text, (bad, r.status_code, r.text[:80])
    for bad in ("0/link.jsonl", "0/../secret.jsonl", "0/../../pyproject.toml", "/etc/passwd", "9/x.jsonl"):
        r = c.get("/api/records", params={"file": bad})
        assert r.status_code == 404 and "SECRET" not in r.text, bad
        with c.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "start", "mode": "replay", "file": bad}))
            m = _recv(ws)
            assert m["type"] == "error" and "no such results file" in m["message"], m
    assert c.get("/static/../../__init__.py").status_code == 404


def test_a_page_of_another_site_cannot_open_a_socket_or_use_another_host_name(tmp_path: Path) -> None:
    from starlette.websockets import WebSocketDisconnect

    from hostwcg_env.web.app import LOOPBACK_HOSTS

    hub = _hub(tmp_path)
    with TestClient(create_app(hub, allowed_hosts=[*LOOPBACK_HOSTS, "testserver"])) as c:
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
                ws.receive_text()
        with c.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            ws.send_text("{}")
            assert _recv(ws)["type"] == "error"
        assert c.get("/api/options", headers={"host": "evil.example"}).status_code == 400


def test_the_page_and_its_files_are_served_locally(client: Any) -> None:
    c, _ = client
    page = c.get("/").text
    assert "/static/app.js" in page and "/static/style.css" in page
    for path in ("/static/app.js", "/static/style.css"):
        r = c.get(path)
        assert r.status_code == 200 and r.text
    everything = page + c.get("/static/app.js").text + c.get("/static/style.css").text
    assert not re.search(r"(src|href)=[\"']?(https?:)?//", everything), "something is fetched from elsewhere"
    assert "@import" not in everything and "url(http" not in everything


# ============================================================================ the command


def test_serve_binds_to_this_machine_and_prints_the_url(tmp_path: Path) -> None:
    import os
    import urllib.request

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "hostwcg_env", "serve", "--port", "0", "--results",
                             str(tmp_path), "--reports", str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert url, line + (proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
        with urllib.request.urlopen(url.group(0), timeout=30) as r:
            assert b"hostwcg" in r.read()
        proc.send_signal(signal.SIGINT)  # Ctrl+C: a clean stop, no traceback
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0 and "Traceback" not in err, err
        assert out.rstrip().endswith("hostwcg serve: stopped")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)


def test_serve_refuses_a_missing_folder_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from hostwcg_env.cli import main

    assert main(["serve", "--results", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"hostwcg serve: {tmp_path / 'nope'}: no such folder"


def test_serve_without_the_web_extra_names_it(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from hostwcg_env.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hostwcg serve: the web app needs the 'web' extra: pip install 'hostwcg[web]'")
    assert len(err.splitlines()) == 1
