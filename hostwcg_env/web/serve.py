"""``hostwcg serve``: start the web app (docs/web.md) and print its URL."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import Any

DEFAULT_PORT = 8765


def default_results() -> list[Path]:
    """``runs`` (where ``hostwcg balance`` and ``evaluate`` write) and the shipped ladder
    results, those that exist."""
    import agents

    found = [Path("runs"), Path(agents.__file__).parent / "ladder_results"]
    return [p for p in found if p.is_dir()]


def default_reports() -> list[Path]:
    return [p for p in (Path("runs"),) if p.is_dir()]


def add_parser(sub: Any) -> None:
    from hostwcg_env.cli_input import agent_spec, at_least

    sv = sub.add_parser(
        "serve", help="play, watch and replay games in the browser (docs/web.md)",
        description="A local web app: play against an agent by clicking, watch two agents, replay a kept "
                    "game from a results file, open a balance report. Prints the URL to open.")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default 127.0.0.1: this machine only)")
    sv.add_argument("--port", type=at_least(0), default=DEFAULT_PORT,
                    help=f"the port (default {DEFAULT_PORT}; 0: any free port)")
    sv.add_argument("--results", nargs="+", metavar="DIR",
                    help="folders whose results files (.jsonl, .jsonl.gz) may be replayed "
                         "(default: runs and the shipped agents/ladder_results)")
    sv.add_argument("--reports", nargs="+", metavar="DIR",
                    help="folders whose HTML reports may be opened (default: runs)")
    sv.add_argument("--agent", action="append", type=agent_spec, default=[], metavar="SPEC",
                    help="add an agent to the menu (repeatable): any spec 'hostwcg play --vs' takes, "
                         "such as ppo_v1:PATH.npz; the browser may only pick from the menu and the "
                         "shipped agents")
    sv.add_argument("--threads", type=at_least(1), default=4, metavar="N",
                    help="threads agents think in, shared by every game (default 4)")
    sv.add_argument("--max-games", type=at_least(1), default=64, metavar="N",
                    help="games open at once (default 64)")
    sv.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from hostwcg_env.cli_input import CLIError

    try:
        import uvicorn

        from .app import LOOPBACK_HOSTS, create_app
        from .files import Roots
        from .sessions import Hub
    except ImportError as e:
        raise CLIError(f"the web app needs the 'web' extra: pip install 'hostwcg[web]' ({e})") from None
    results = [Path(p) for p in args.results] if args.results else default_results()
    reports = [Path(p) for p in args.reports] if args.reports else default_reports()
    for p in [*results, *reports]:
        if not p.is_dir():
            raise CLIError(f"{p}: no such folder")
    hub = Hub(Roots.of(results, reports), agents=tuple(args.agent),
              executor=ThreadPoolExecutor(args.threads, thread_name_prefix="agent"),
              max_sessions=args.max_games)
    loopback = args.host in ("127.0.0.1", "localhost", "::1")
    app = create_app(hub, allowed_hosts=LOOPBACK_HOSTS if loopback else None)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as e:
        sock.close()
        raise CLIError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    sock.listen(128)  # connections wait in the queue from now on, until uvicorn takes them
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"hostwcg serve: open http://{shown}:{port}/ in a browser (Ctrl+C stops the server)")
    print(f"  results files from: {', '.join(map(str, results)) or 'none'}; reports from: "
          f"{', '.join(map(str, reports)) or 'none'}")
    if not loopback:
        print(f"  listening on {args.host}: anyone who can reach this address can use the app",
              file=sys.stderr)
    sys.stdout.flush()
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shut down cleanly, then passes Ctrl+C on
        pass
    print("hostwcg serve: stopped")
    return 0
