"""`cuticle serve`: answer hook requests from a long-lived local process (loopback TCP or a Unix socket)."""

from __future__ import annotations

import argparse
import json
import os
import sys


def configure(parser: argparse.ArgumentParser, name: str) -> None:
    from gate.commands._common import add_workspace

    add_workspace(parser)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (default: a free port)")
    where.add_argument("--socket", default=None, metavar="PATH", help="listen on a Unix socket instead of TCP")
    parser.add_argument("--token", default=None, help="request token (default: random; see .cuticle/serve.json)")
    parser.add_argument("--idle-timeout", type=float, default=0, metavar="SECONDS",
                        help="exit after this long without a request (default: never; autostarted servers: 1800)")


def run(args: argparse.Namespace) -> int:
    from gate.commands._common import open_workspace
    from gate.server import make_server, write_info

    ws = open_workspace(args)
    srv = make_server(port=args.port, socket_path=args.socket, token=args.token, cwd=str(ws.root))
    info = write_info(ws.state_dir, srv.address, srv.token)
    print(f"cuticle serve: listening on {srv.address} (token in {info})", flush=True)
    from gate.server import stop_when_idle

    # always watched: the server stops when its workspace goes away or is re-created, idle or not
    stop_when_idle(srv, args.idle_timeout if args.idle_timeout and args.idle_timeout > 0 else 0, ws.state_dir)
    try:
        srv.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
        try:
            # only our own record: after a 503 (code changed) a fresh server may already have written its own
            if json.loads(info.read_text(encoding="utf-8")).get("pid") == os.getpid():
                info.unlink()
        except (OSError, ValueError, AttributeError):
            pass
    print("cuticle serve: stopped", file=sys.stderr)
    return 0
