"""Helpers for the real-host tests: agent hosts installed from the npm registry into a cache outside the
repository, and reused.

The cache is ``$CUTICLE_HOSTS_CACHE`` (default ``~/.cache/cuticle-hosts``): one folder per host, filled once by
``npm install`` and marked with the package list it holds. Install scripts run only for the ``node`` package (it
links the Node binary it ships); the hosts' own scripts only check versions or fetch what the package already ships. A host whose packages cannot be installed is skipped only when
the registry cannot be reached, with a message naming the packages; any other install failure fails the test.

Every host process runs as a user would run it: a throw-away HOME, a PATH without this virtual environment (so the
command `cuticle init` writes must work from there), and cuticle installed with `cuticle init <host>`.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample-workspace"
#: the cuticle console script of this environment (what a user's `pip install cuticle` puts on their PATH)
CUTICLE = Path(sys.executable).parent / "cuticle"

#: host -> npm install steps (package specs; later steps run with the earlier ones' bin/ on PATH)
PACKAGES = {
    "openclaw": (["node@24"], ["openclaw@2026.9.6"]),
    "claude": (["@anthropic-ai/claude-code@2.1.332"],),
    "codex": (["@openai/codex@0.171.0"],),
}
#: the one package whose install script runs
WITH_SCRIPTS = ("node@",)
BASE_PATH = "/usr/local/bin:/usr/bin:/bin"


def _registry_reachable(spec: str) -> bool:
    try:
        proc = subprocess.run(["npm", "view", spec, "version"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and bool(proc.stdout.strip())


def cache_dir() -> Path:
    return Path(os.environ.get("CUTICLE_HOSTS_CACHE") or Path.home() / ".cache" / "cuticle-hosts")


def npm_host(host: str) -> Path:
    """The folder holding ``host``'s packages under node_modules/, installed on first use."""
    steps = PACKAGES[host]
    wanted = json.dumps(steps)
    cache = cache_dir()
    folder = cache / host
    marker = folder / ".cuticle-installed"
    if marker.is_file() and marker.read_text(encoding="utf-8") == wanted:
        return folder
    specs = ", ".join(s for step in steps for s in step)
    if shutil.which("npm") is None:
        pytest.skip(f"npm is not installed: cannot install {specs} for the {host} host tests")
    folder.mkdir(parents=True, exist_ok=True)
    with open(cache / f"{host}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel sessions share the cache
        if marker.is_file() and marker.read_text(encoding="utf-8") == wanted:
            return folder
        if not (folder / "package.json").is_file():
            (folder / "package.json").write_text('{"private": true}\n', encoding="utf-8")
        log = []
        for step in steps:
            env = {**os.environ, "PATH": f"{folder / 'node_modules' / '.bin'}:{os.environ.get('PATH', BASE_PATH)}"}
            scripts = [] if all(spec.startswith(WITH_SCRIPTS) for spec in step) else ["--ignore-scripts"]
            proc = subprocess.run(["npm", "install", "--no-audit", "--no-fund", *scripts, *step], cwd=folder,
                                  env=env, capture_output=True, text=True, timeout=1500)
            log.append(proc.stdout[-2000:] + proc.stderr[-3000:])
            if proc.returncode != 0:
                if not _registry_reachable(step[0]):
                    pytest.skip(f"the npm registry cannot be reached: the {host} host tests need {specs} "
                                f"(installed once into {folder})")
                pytest.fail(f"npm install {' '.join(step)} failed in {folder}:\n" + "\n".join(log))
        marker.write_text(wanted, encoding="utf-8")
    return folder


def host_env(home: Path, *path_dirs: Path, **extra: str) -> dict:
    """The environment a host process gets: its own HOME and PATH, nothing from this virtual environment."""
    env = {"HOME": str(home), "PATH": ":".join([*(str(p) for p in path_dirs), BASE_PATH]), "LANG": "C.UTF-8",
           "TMPDIR": os.environ.get("TMPDIR", "/tmp"), "CUTICLE_SERVER": "off"}
    env.update(extra)
    return env


def user_workspace(tmp_path: Path, name: str = "ws") -> Path:
    """A copy of sample-workspace/, as a user's project."""
    dest = tmp_path / name
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns(".cuticle"))
    return dest


def cuticle(env: dict, *args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run this environment's cuticle by its absolute path, as the user does after `pip install cuticle`."""
    proc = subprocess.run([str(CUTICLE), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"cuticle {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc


def seed_insight(env: dict, ws: Path) -> None:
    """One insight, so that PERSONALITY.md has something to deliver (it is rendered from INSIGHTS.md)."""
    cuticle(env, "contribute", "--workspace", str(ws), "--type", "behavioral", "--claim",
            "Lead with the command, then one line of why.", "--reasoning", "Alex skims replies", "--confidence",
            "0.8", "--force")


def stop_servers(ws: Path) -> None:
    """Stop the `cuticle serve` a run started for ``ws`` (by the pid it recorded), if any."""
    try:
        info = json.loads((ws / ".cuticle" / "serve.json").read_text(encoding="utf-8"))
        os.kill(int(info["pid"]), signal.SIGTERM)
    except (OSError, ValueError, KeyError, TypeError):
        pass


def stamped(text: str | None) -> list[str]:
    return [line for line in (text or "").splitlines() if "<!--cu:" in line]
