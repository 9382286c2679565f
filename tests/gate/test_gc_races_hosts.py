"""GC and the after-tool step never lose a line a host wrote, although hosts take no lock: 8 processes write
through the real gate (``gate.handler.handle``, what `cuticle hook` runs) and apply its answers as the host's
tool does, each write in two chunks, while GC runs over the same file; checked against a model of the file."""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import time
from pathlib import Path

import pytest
from hostsim import apply_write, claude_edit, claude_write, send

from tiers import stamps
from tiers.workspace import Workspace

WORKERS = 8
#: per worker: 96 approved lines in all, about 4.5 s on two cores (CUTICLE_RACE_LINES sets another count)
LINES = int(os.environ.get("CUTICLE_RACE_LINES", "12"))
HEAD = "# Memory\n\n- Staging runs on Redis.\n"


def _line(i: int, k: int) -> str:
    return f"- Maybe shard {i}x{k} of the cache is stale after deploys."


def _codex(ws: Path, content: str, *, event: str, call: str, response=None) -> dict:
    p = {"session_id": "c", "transcript_path": None, "cwd": str(ws), "hook_event_name": event, "model": "gpt-5.4",
         "turn_id": "u1", "tool_name": "Write", "tool_use_id": call,
         "tool_input": {"file_path": str(ws / "MEMORY.md"), "content": content}}
    if response is not None:
        p["tool_response"] = response
    return p


def _writer(root: str, i: int, out) -> None:
    """One host: its own writes are serialized (``host.lock``, which cuticle never sees), GC's are not."""
    ws = Path(root)
    path = ws / "MEMORY.md"
    written = []
    for k in range(LINES):
        new = _line(i, k)
        with open(ws.parent / "host.lock", "w") as lk:
            fcntl.flock(lk, fcntl.LOCK_EX)
            text = path.read_text(encoding="utf-8")
            call = f"w{i}-{k}"
            if i % 2:  # Codex: cannot rewrite; the file is stamped by the after-tool event
                content = text + new + "\n"
                pre = send("codex", _codex(ws, content, event="PreToolUse", call=call))
                if pre.blocked:
                    continue
                apply_write(path, content, chunks=2, pause=0.002)
                send("codex", _codex(ws, content, event="PostToolUse", call=call, response={"success": True}))
                written.append(new)
            elif k % 2:  # Claude Edit anchored on the last line
                last = text.rstrip("\n").split("\n")[-1]
                ans = claude_edit(ws, "MEMORY.md", last, last + "\n" + new, chunks=2, pause=0.002, call=call,
                                  post=True)
                if ans.applied:
                    written.append(new)
            else:  # Claude Write of the whole file
                ans = claude_write(ws, "MEMORY.md", text + new + "\n", chunks=2, pause=0.002, call=call, post=True)
                if ans.applied:
                    written.append(new)
    out.put((i, written))


def _collector(root: str, stop, out) -> None:
    from tiers.gc import collect
    from tiers.session import start_session

    ws = Workspace(root)
    removed = runs = 0
    while not stop.is_set():
        start_session(ws, f"gc-{runs}")  # every run in a new session: last session's hypotheses expire
        removed += len(collect(ws).removed)
        runs += 1
        time.sleep(0.02)
    out.put(("gc", removed, runs))


def _warm(root: Path) -> None:
    (root / ".cuticle").mkdir(parents=True)
    (root / "MEMORY.md").write_text(HEAD, encoding="utf-8")
    claude_write(root, "MEMORY.md", HEAD + _line(0, 0) + "\n")
    send("codex", _codex(root, HEAD + _line(1, 0) + "\n", event="PreToolUse", call="warm"))
    from tiers.gc import collect

    collect(Workspace(root))


def test_eight_hosts_writing_while_gc_runs_lose_no_line(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / ".cuticle").mkdir(parents=True)
    (root / ".cuticle" / "config.toml").write_text("[tiers]\nhypothesis_ttl = 1\n", encoding="utf-8")
    ws = Workspace(root)
    ws.key  # noqa: B018
    (root / "MEMORY.md").write_text(HEAD, encoding="utf-8")
    _warm(tmp_path / "warm")  # the gate's modules and lexicons load once, before the fork, not in each host
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    stop = ctx.Event()
    gc = ctx.Process(target=_collector, args=(str(root), stop, out))
    gc.start()
    workers = [ctx.Process(target=_writer, args=(str(root), i, out)) for i in range(WORKERS)]
    for w in workers:
        w.start()
    results = [out.get(timeout=120) for _ in workers]
    stop.set()
    gc_result = out.get(timeout=60)
    for p in [*workers, gc]:
        p.join(timeout=30)
        assert p.exitcode == 0
    if results and results[0][0] == "gc":  # the queue is shared: put the GC result where it belongs
        results, gc_result = [r for r in [*results, gc_result] if r[0] != "gc"], results[0]
    approved = [line for _, lines in results for line in lines]
    assert len(approved) >= WORKERS * LINES * 0.75  # a few Edits fail when GC took their anchor line

    text = (root / "MEMORY.md").read_text(encoding="utf-8")
    contents = [stamps.split_stamp(x)[0].rstrip() for x in text.splitlines()]
    archive = [json.loads(x) for x in (root / ".cuticle" / "gc-archive.jsonl").read_text().splitlines() if x.strip()]
    archived = {stamps.split_stamp(r["text"])[0].rstrip() for r in archive}
    lost = [x for x in approved if x not in contents and x not in archived]
    print(f"approved {len(approved)}, in file {sum(x in contents for x in approved)}, archived {len(archive)}, "
          f"gc runs {gc_result[2]}, gc removed {gc_result[1]}")
    assert lost == [], f"{len(lost)} of {len(approved)} approved lines lost"
    assert [x for x in approved if contents.count(x) > 1] == []
    assert text.startswith(HEAD)
    ids = [(r["id"], r["file"]) for r in archive]
    assert len(ids) == len(set(ids)), "duplicate archive records"
    assert gc_result[1] > 0, "GC never removed a line: the race was not exercised"
    assert sorted(p.name for p in root.iterdir()) == [".cuticle", "MEMORY.md"]  # no temp or lock files beside
