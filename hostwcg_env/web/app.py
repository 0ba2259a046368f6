"""The web app: a Starlette application served by uvicorn (``hostwcg serve``).

Routes: ``/`` the page (static HTML, CSS and JavaScript shipped in ``static/``, nothing
fetched from elsewhere); ``/api/options`` the agents, decks, results files and reports to pick
from; ``/api/records?file=`` the games kept in a results file; ``/reports/NAME`` one report;
``/ws`` the WebSocket a tab plays, watches or replays over (``sessions.py``, protocol in
docs/web.md).

Why Starlette: the app is one page, a few JSON routes and a WebSocket; Starlette has all three
(and a test client) in one small package with no further dependencies, where FastAPI adds
pydantic and request validation the app does not use (every WebSocket message is checked by
hand in ``sessions.py``, where the errors are sent back on the socket). uvicorn runs it, with
the ``websockets`` library for the sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .files import FileError
from .sessions import Hub, Refused, Session, session_for
from .table import dumps

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096  # characters in one message from a tab
MAX_RECORDS = 500  # records listed per request
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1"]


def create_app(hub: Hub, allowed_hosts: list[str] | None = None) -> Starlette:
    """The app around ``hub`` (the shared thread pool, folders and sessions). With
    ``allowed_hosts`` only requests naming one of them as the Host are answered (a page on
    another site cannot reach a server on 127.0.0.1 through a name of its own)."""

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def options(request: Request) -> Response:
        from hostwcg_env.cards.decks import pool_decks

        decks = [{"id": k, "name": d.name, "host": d.host} for k, d in pool_decks(include_test=True).items()]
        return JSONResponse({"agents": hub.agent_names(), "decks": decks,
                             "results": hub.roots.list_results(), "reports": hub.roots.list_reports()})

    async def records(request: Request) -> Response:
        ref = request.query_params.get("file", "")
        try:
            path = hub.roots.results_file(ref)
        except FileError as e:
            return JSONResponse({"error": str(e)}, status_code=404)
        loop = asyncio.get_running_loop()
        try:
            rows = await loop.run_in_executor(hub.executor, _records, path)
        except (OSError, ValueError) as e:
            return JSONResponse({"error": f"{ref}: {e}"}, status_code=422)
        return JSONResponse({"file": ref, "records": rows[:MAX_RECORDS], "more": len(rows) > MAX_RECORDS})

    async def report(request: Request) -> Response:
        ref = request.path_params["ref"]
        try:
            path = hub.roots.report_file(ref)
        except FileError as e:
            return JSONResponse({"error": str(e)}, status_code=404)
        return FileResponse(path, media_type="text/html")

    async def socket(ws: WebSocket) -> None:
        if not _same_origin(ws):
            await ws.close(code=1008)
            return
        await ws.accept()
        await _serve_socket(ws, hub)

    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)] if allowed_hosts else []

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        for s in list(hub.sessions):
            await s.close()
        hub.executor.shutdown(wait=False, cancel_futures=True)

    return Starlette(routes=[
        Route("/", index),
        Route("/api/options", options),
        Route("/api/records", records),
        Route("/reports/{ref:path}", report),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], middleware=middleware, lifespan=lifespan)


def _same_origin(ws: WebSocket) -> bool:
    """A browser names the page that opens a socket (``Origin``): only this app's own pages
    may open one (a page of another site must not play through the user's server)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser (a script, the tests): nothing to protect against
    return urlsplit(origin).netloc == ws.headers.get("host", "")


def _records(path: Path) -> list[dict[str, Any]]:
    from hostwcg_env.analysis.records import record_key
    from hostwcg_env.analysis.replay import describe, replayable

    out = []
    for i, rec in enumerate(replayable(path, warn=False)):
        out.append({"index": i, "key": record_key(rec), "about": describe(rec)})
        if i >= MAX_RECORDS:  # one more than listed: there are more (replayed by key or index)
            break
    return out


async def _handle(session: Session, msg: Any, send: Any) -> None:
    """``session.handle``; a fault in the app (not in the message: those are answered by the
    session) is said to the tab in one line, and the session and server go on."""
    try:
        await session.handle(msg)
    except (WebSocketDisconnect, asyncio.CancelledError):
        raise
    except Exception as e:
        await send({"type": "error", "message": f"internal error: {type(e).__name__}: {e}"})


async def _serve_socket(ws: WebSocket, hub: Hub) -> None:
    """One tab: read its messages one by one until it goes, then close its session."""
    lock = asyncio.Lock()
    session: Session | None = None

    async def send(msg: dict[str, Any]) -> None:
        async with lock:
            if session is not None and session.closed:
                return
            await ws.send_text(dumps(msg))

    try:
        while True:
            event = await ws.receive()
            if event["type"] == "websocket.disconnect":
                break
            text = event.get("text")
            if text is None:
                await send({"type": "error", "message": "send text (JSON), not bytes"})
                continue
            if len(text) > MAX_MESSAGE:
                await send({"type": "error", "message": f"message too long ({len(text)} characters, "
                                                        f"at most {MAX_MESSAGE})"})
                continue
            try:
                msg = json.loads(text)
            except ValueError as e:
                await send({"type": "error", "message": f"not JSON: {e}"})
                continue
            if session is None:
                if not isinstance(msg, dict) or msg.get("type") != "start":
                    await send({"type": "error", "message": "start a game first: {\"type\": \"start\", "
                                                            "\"mode\": \"play\" | \"watch\" | \"replay\", ...}"})
                    continue
                if len(hub.sessions) >= hub.max_sessions:
                    await send({"type": "error", "message": f"the server is running {hub.max_sessions} "
                                                            "games (its limit): try again later"})
                    continue
                try:
                    candidate = session_for(msg.get("mode"), hub, send)
                except Refused as e:
                    await send({"type": "error", "message": str(e)})
                    continue
                hub.sessions.add(candidate)
                await _handle(candidate, msg, send)
                if candidate.game is None:  # refused: the tab may start again
                    hub.sessions.discard(candidate)
                    continue
                session = candidate
                continue
            await _handle(session, msg, send)
    except (WebSocketDisconnect, RuntimeError, OSError):  # the socket broke mid-send: the tab is gone
        pass
    finally:
        if session is not None:
            await session.close()
            hub.sessions.discard(session)
