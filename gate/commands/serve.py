"""`cuticle serve`: answer hook requests from a long-lived local process (loopback TCP or a Unix socket).

`--status` / `--stop` report on or stop the workspace's background server (`--all`: every one of this user's);
exit codes: 0 done (or nothing was running), 1 a server could not be stopped, 2 usage error.
"""

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
    control = parser.add_mutually_exclusive_group()
    control.add_argument("--status", action="store_true", help="report the background server instead of starting one")
    control.add_argument("--stop", action="store_true", help="stop the background server instead of starting one")
    parser.add_argument("--all", action="store_true", help="with --status/--stop: every cuticle server of this user")
    parser.add_argument("--json", action="store_true", help="with --status/--stop: machine-readable JSON output")


def run(args: argparse.Namespace) -> int:
    from gate.commands._common import open_workspace
    from gate.server import make_server, write_info

    if args.status or args.stop:
        return _control(args)
    if args.all or args.json:
        from tiers.errors import UsageError

        raise UsageError("--all and --json go with --status or --stop")
    ws = open_workspace(args)
    srv = make_server(port=args.port, socket_path=args.socket, token=args.token, cwd=str(ws.root))
    from gate.door import Door
    from gate.server import stop_when_idle

    # always watched: the server stops when its workspace goes away or is re-created, idle or not. The workspace's
    # identity is taken before the server announces itself or the door makes anything in `.cuticle/`, so a
    # workspace removed or re-created meanwhile is never mistaken for ours
    stop_when_idle(srv, args.idle_timeout if args.idle_timeout and args.idle_timeout > 0 else 0, ws.state_dir,
                   token=srv.token)
    info = write_info(ws.state_dir, srv.address, srv.token)
    door = Door(ws.state_dir, srv)  # the hook's own way in (gate.client)
    print(f"cuticle serve: listening on {srv.address} (token in {info})", flush=True)
    try:
        srv.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        door.close()
        srv.server_close()
        try:
            # only our own record: after a 503 (code changed) a fresh server may already have written its own
            if json.loads(info.read_text(encoding="utf-8")).get("pid") == os.getpid():
                info.unlink()
        except (OSError, ValueError, AttributeError):
            pass
    print("cuticle serve: stopped", file=sys.stderr)
    return 0


def _control(args: argparse.Namespace) -> int:
    from gate import servectl
    from gate.commands._common import open_workspace, print_json

    if args.all:
        states = servectl.stop_all() if args.stop else servectl.status_all()
    else:
        state_dir = open_workspace(args).state_dir
        states = [servectl.stop(state_dir) if args.stop else servectl.status(state_dir)]
    if args.json:
        print_json({"servers": [s.to_json() for s in states]})
    elif not states:
        print("no cuticle server is running for this user")
    else:
        for s in states:
            print(servectl.describe(s))
    return 1 if any(s.state == "failed" for s in states) else 0
