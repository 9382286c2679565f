"""A scripted stand-in for the Anthropic Messages API on loopback, so the real Claude Code runs without a model.

The conversation's n-th model turn answers the n-th scripted tool call (a ``tool_use``); after the script it says
"done". Requests without tools (titles, summaries) get text. Every request is logged with what the model would have
seen: the tool results of the last user message, and the system prompt and messages as text.
"""

from __future__ import annotations

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class MessagesStub:
    def __init__(self, script: list[dict]):
        self.script = script
        self.log: list[dict] = []
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _json(self, obj: dict) -> None:
                body = json.dumps(obj).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                self._json({})

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                    self._json({"input_tokens": 10})
                    return
                stub._answer(self, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> MessagesStub:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- one request ---------------------------------------------------------------------------------

    def _answer(self, handler, body: dict) -> None:
        msgs = body.get("messages") or []
        has_tools = bool(body.get("tools"))
        turn = sum(1 for m in msgs if m.get("role") == "assistant")
        step = self.script[turn] if has_tools and turn < len(self.script) else None
        results = []
        last = msgs[-1] if msgs else {}
        if isinstance(last.get("content"), list):
            for block in last["content"]:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    content = block.get("content")
                    if isinstance(content, list):
                        content = " ".join(x.get("text", "") for x in content if isinstance(x, dict))
                    results.append({"is_error": bool(block.get("is_error")), "content": str(content)})
        with self._lock:
            self.log.append({"turn": turn, "tools": has_tools, "results": results,
                             "context": json.dumps(body.get("system", "")) + json.dumps(msgs, ensure_ascii=False),
                             "sent": step["name"] if step else "text"})
        mid = "msg_" + uuid.uuid4().hex[:20]
        model = body.get("model", "claude-sonnet-4-5")
        usage = {"input_tokens": 10, "output_tokens": 5}
        if step:
            block = {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:20], "name": step["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(step["input"])}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": "done"}
            stop = "end_turn"
        if not body.get("stream"):
            full = {**block, **({"input": step["input"]} if step else {"text": "done"})}
            handler._json({"id": mid, "type": "message", "role": "assistant", "model": model, "content": [full],
                           "stop_reason": stop, "stop_sequence": None, "usage": usage})
            return
        events = [
            ("message_start", {"type": "message_start", "message": {"id": mid, "type": "message", "role": "assistant",
                                                                    "model": model, "content": [], "stop_reason": None,
                                                                    "stop_sequence": None, "usage": usage}}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"}),
        ]
        handler.send_response(200)
        handler.send_header("content-type", "text/event-stream")
        handler.send_header("cache-control", "no-cache")
        handler.end_headers()
        for name, data in events:
            handler.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        handler.wfile.flush()

    def tool_results(self) -> list[dict]:
        """What the model saw after each scripted call, in order (one result per tool turn)."""
        return [r for entry in self.log if entry["tools"] for r in entry["results"]]
