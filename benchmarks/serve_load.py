"""Load run of `cuticle serve`: many hook requests from several clients at once on loopback, against a real server.

    python benchmarks/serve_load.py [--requests 20000] [--clients 8] [--lines 200] [--json]

A workspace is set up in a temporary directory as `cuticle init` leaves it (key, config, a MEMORY.md of
``--lines`` lines, the sample USER.md); one `cuticle serve` process answers; ``--clients`` threads send
``--requests`` requests in all, round-robin over four real Claude Code payloads: a memory write the gate stamps
(answered with a rewrite), a write contradicting a user directive (denied), a shell command (policy) and a user
prompt. Every answer is checked against what that payload must get; a wrong answer, an HTTP error or a dropped
connection counts as an error. Reported: errors, requests per second, latency p50/p90/p99/max (ms, per request,
client side), and the server's resident memory (RSS) at start, at the end and its peak (VmHWM).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_workspace(lines: int) -> Path:
    root = Path(tempfile.mkdtemp(prefix="cuticle-load-"))
    state = root / ".cuticle"
    state.mkdir(mode=0o700)
    (state / "key").write_text(os.urandom(32).hex() + "\n", encoding="ascii")
    (state / "config.toml").write_text('[gate]\nserver = "off"\n', encoding="utf-8")
    body = ["# MEMORY.md", "", "- User said: never run `terraform destroy`, not even in sandbox accounts."]
    body += [f"- The build of service svc{i} took {i % 9 + 1} minutes on CI." for i in range(lines - 3)]
    (root / "MEMORY.md").write_text("\n".join(body) + "\n", encoding="utf-8")
    shutil.copy(ROOT / "sample-workspace" / "USER.md", root / "USER.md")
    return root


def payloads(root: Path) -> list[tuple[str, bytes, str]]:
    """(event, body, what the answer must be) for the four request kinds."""
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")

    def write(content: str) -> dict:
        return {"session_id": "load", "cwd": str(root), "hook_event_name": "PreToolUse", "tool_name": "Write",
                "permission_mode": "acceptEdits",
                "tool_input": {"file_path": str(root / "MEMORY.md"), "content": content}}

    return [
        ("PreToolUse", json.dumps(write(memory + "- The flaky test is probably a race.\n")).encode(), "rewrite"),
        ("PreToolUse", json.dumps(write(memory + "- It's fine to run terraform destroy in sandbox accounts.\n")).encode(),
         "deny"),
        ("PreToolUse", json.dumps({"session_id": "load", "cwd": str(root), "hook_event_name": "PreToolUse",
                                   "tool_name": "Bash", "tool_input": {"command": "git status && ls -la"}}).encode(),
         "allow"),
        ("UserPromptSubmit", json.dumps({"session_id": "load", "cwd": str(root), "hook_event_name": "UserPromptSubmit",
                                         "prompt": "please look at the failing test"}).encode(), "allow"),
    ]


def verdict(body: dict) -> str:
    out = body.get("stdout") or ""
    hso = (json.loads(out).get("hookSpecificOutput") or {}) if out.strip() else {}
    if hso.get("permissionDecision") == "deny":
        return "deny"
    if "updatedInput" in hso:
        return "rewrite"
    return "allow"


def rss_kib(pid: int) -> dict[str, int]:
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=20000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--lines", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    root = make_workspace(args.lines)
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "gate", "serve", "--workspace", str(root)], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        info_path = root / ".cuticle" / "serve.json"
        for _ in range(400):
            if info_path.exists() and info_path.stat().st_size:
                break
            time.sleep(0.05)
        info = json.loads(info_path.read_text())
        port = int(info["address"].rsplit(":", 1)[1])
        headers = {"Authorization": f"Bearer {info['token']}", "Content-Type": "application/json"}
        kinds = payloads(root)
        # warm up: the first request of each kind loads the gate, the rules and the lexicons
        for event, body, _ in kinds:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("POST", f"/hook/claude/{event}?result=0", body=body, headers=headers)
            conn.getresponse().read()
            conn.close()
        rss_start = rss_kib(proc.pid)

        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        counter = iter(range(args.requests))

        def client() -> None:
            mine: list[float] = []
            bad: list[str] = []
            while True:
                with lock:
                    n = next(counter, None)
                if n is None:
                    break
                event, body, want = kinds[n % len(kinds)]
                t0 = time.perf_counter()
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    conn.request("POST", f"/hook/claude/{event}?result=0", body=body, headers=headers)
                    resp = conn.getresponse()
                    data = resp.read()
                    conn.close()
                    if resp.status != 200:
                        bad.append(f"HTTP {resp.status}")
                    elif verdict(json.loads(data)) != want:
                        bad.append(f"request {n}: wanted {want}, got {verdict(json.loads(data))}")
                except Exception as exc:  # noqa: BLE001 - every failure is an error of the run
                    bad.append(f"{type(exc).__name__}: {exc}")
                mine.append((time.perf_counter() - t0) * 1000)
            with lock:
                latencies.extend(mine)
                errors.extend(bad)

        t0 = time.perf_counter()
        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        rss_end = rss_kib(proc.pid)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(root, ignore_errors=True)

    lat = sorted(latencies)

    def pct(p: float) -> float:
        return round(lat[min(len(lat) - 1, int(p / 100 * len(lat)))], 2)

    report = {
        "requests": len(lat), "clients": args.clients, "errors": len(errors), "error_samples": errors[:5],
        "seconds": round(wall, 2), "requests_per_s": round(len(lat) / wall, 1),
        "latency_ms": {"p50": pct(50), "p90": pct(90), "p99": pct(99), "max": round(lat[-1], 2),
                       "mean": round(statistics.fmean(lat), 2)},
        "server_rss_mib": {"start": round(rss_start.get("VmRSS", 0) / 1024, 1),
                           "end": round(rss_end.get("VmRSS", 0) / 1024, 1),
                           "peak": round(rss_end.get("VmHWM", 0) / 1024, 1)},
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"cuticle serve: {report['requests']} requests from {args.clients} clients in {report['seconds']} s "
              f"({report['requests_per_s']}/s), {report['errors']} errors")
        print("latency ms: " + ", ".join(f"{k} {v}" for k, v in report["latency_ms"].items()))
        print("server RSS MiB: " + ", ".join(f"{k} {v}" for k, v in report["server_rss_mib"].items()))
        for e in report["error_samples"]:
            print(f"  error: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
