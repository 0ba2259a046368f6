"""The web app (hostwcg_env/web) on a real uvicorn server in a thread, on a free port of
127.0.0.1: for the web tests (tests/test_web.py, tests/test_web_browser.py) and screenshots."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from hostwcg_env.web.app import create_app
from hostwcg_env.web.sessions import Hub


@contextlib.contextmanager
def running(hub: Hub) -> Iterator[int]:
    """Serve ``hub``'s app until the block ends; yields the port."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(create_app(hub), host="127.0.0.1", port=0,
                                           log_level="warning", ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    ready = threading.Event()
    for _ in range(400):
        if server.started or not thread.is_alive():
            break
        ready.wait(0.05)
    if not server.started:
        raise RuntimeError("the test server did not start")
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(30)
