"""A stub OpenAI-compatible chat-completions server on loopback, for the judge's tests and benchmark."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Stub:
    """Answers every POST with ``self.reply`` (a verdict dict, or a callable of the request body returning one),
    after ``self.delay`` seconds, with ``self.status``; records every request body in ``self.requests``."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.reply: object = {"verdict": "consistent", "confidence": 0.9, "reason": "no conflict"}
        self.delay = 0.0
        self.status = 200
        self.raw: bytes | None = None  # a body sent as it is (garbage replies)
        self.headers: dict[str, str] = {}
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_a) -> None:
                return

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                stub.requests.append({"path": self.path, "body": json.loads(body)})
                time.sleep(stub.delay)
                reply = stub.reply(stub.requests[-1]["body"]) if callable(stub.reply) else stub.reply
                data = stub.raw if stub.raw is not None else json.dumps(
                    {"choices": [{"message": {"role": "assistant", "content": json.dumps(reply)}}]}).encode()
                try:
                    self.send_response(stub.status)
                    for k, v in stub.headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (a timeout test)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def prompt(self, i: int = -1) -> dict:
        """The data (constraint, line, tiers, scope) the judge sent in request ``i``."""
        return json.loads(self.requests[i]["body"]["messages"][-1]["content"])

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
