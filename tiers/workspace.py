"""The workspace: where memory files live, where cuticle keeps its state, and what the config says."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from pathlib import Path

from .errors import ConfigError, WorkspaceError
from .fsutil import atomic_write, file_lock

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

STATE_DIR = ".cuticle"
CONFIG_NAME = "config.toml"
KEY_NAME = "key"

#: Memory files by default (DESIGN.md §2); `[memory] globs` in the config replaces the list.
DEFAULT_MEMORY_GLOBS: tuple[str, ...] = ("MEMORY.md", "memory.md", "USER.md", "memory/**/*.md")
#: Files cuticle generates or owns; agents may not hand-edit them.
DEFAULT_GUARDED: tuple[str, ...] = ("PERSONALITY.md", "INSIGHTS.md")


@functools.lru_cache(maxsize=256)
def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Translate a path glob (``**`` spans directories, ``*`` and ``?`` stay inside one) to a compiled regex."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def glob_match(rel_path: str, patterns: tuple[str, ...] | list[str]) -> bool:
    """True when the workspace-relative POSIX path matches any of the globs."""
    return any(glob_to_regex(p).match(rel_path) for p in patterns)


def find_workspace(start: str | os.PathLike[str] | None = None) -> Path:
    """The nearest directory holding ``.cuticle/`` at or above ``start``; else ``start`` itself."""
    here = Path(start or os.getcwd()).resolve()
    if here.is_file():
        here = here.parent
    for candidate in (here, *here.parents):
        if (candidate / STATE_DIR).is_dir():
            return candidate
    return here


class Workspace:
    """One agent workspace: its root, its memory files, its `.cuticle/` state and configuration.

    State is created lazily: constructing a Workspace never writes anything.
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise WorkspaceError(f"{root}: workspace is not a directory")
        self.state_dir = self.root / STATE_DIR
        self._config: dict[str, Any] | None = None

    @classmethod
    def discover(cls, start: str | os.PathLike[str] | None = None) -> Workspace:
        return cls(find_workspace(start))

    def __repr__(self) -> str:
        return f"Workspace({str(self.root)!r})"

    # -- configuration -------------------------------------------------------------------------------
    @property
    def config_path(self) -> Path:
        return self.state_dir / CONFIG_NAME

    @property
    def config(self) -> dict[str, Any]:
        """The parsed `.cuticle/config.toml` (empty when absent). Raises ConfigError when it does not parse."""
        if self._config is None:
            try:
                text = self.config_path.read_text(encoding="utf-8")
            except FileNotFoundError:
                self._config = {}
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"{self.config_path}: cannot read config ({exc})") from exc
            else:
                self._config = self._parse_config(text)
        return self._config

    def _parse_config(self, text: str) -> dict[str, Any]:
        """Parse the config text, reusing the parse a previous process left in ``.cuticle/cache/config.json``
        when its text is identical (the hook starts a fresh interpreter per call; ``tomllib`` and the ``typing``
        module it imports are a measurable part of that start)."""
        import json

        cache = self.state_dir / "cache" / "config.json"
        try:
            cached = json.loads(cache.read_text(encoding="utf-8"))
            if isinstance(cached, dict) and cached.get("toml") == text and isinstance(cached.get("config"), dict):
                return cached["config"]
        except (OSError, ValueError):
            pass
        import tomllib  # on first use of a changed config, not at import

        try:
            config = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{self.config_path}: invalid TOML: {exc}") from exc
        try:
            data = json.dumps({"toml": text, "config": config}, ensure_ascii=False)
            if json.loads(data)["config"] == config:  # TOML dates and times do not survive JSON: no cache then
                cache.parent.mkdir(parents=True, exist_ok=True)
                tmp = cache.with_name(f".config.{os.getpid()}.tmp")
                tmp.write_text(data, encoding="utf-8")
                os.replace(tmp, cache)
        except (OSError, TypeError, ValueError):
            pass  # a read-only workspace simply has no cache
        return config

    def section(self, name: str) -> dict[str, Any]:
        """One table of the config (``[gate]``, ``[memory]``…), empty when absent; a non-table is an error."""
        value = self.config.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{self.config_path}: [{name}] must be a table")
        return value

    @property
    def memory_globs(self) -> tuple[str, ...]:
        globs = self.section("memory").get("globs", DEFAULT_MEMORY_GLOBS)
        if not isinstance(globs, (list, tuple)) or not all(isinstance(g, str) and g for g in globs):
            raise ConfigError(f"{self.config_path}: [memory] globs must be a list of non-empty strings")
        return tuple(globs)

    @property
    def guarded_globs(self) -> tuple[str, ...]:
        globs = self.section("memory").get("guarded", DEFAULT_GUARDED)
        if not isinstance(globs, (list, tuple)) or not all(isinstance(g, str) and g for g in globs):
            raise ConfigError(f"{self.config_path}: [memory] guarded must be a list of non-empty strings")
        return tuple(globs)

    # -- paths ---------------------------------------------------------------------------------------
    def relpath(self, path: str | os.PathLike[str]) -> str:
        """Workspace-relative POSIX path of ``path`` after resolving ``..`` and symlinks.

        Raises WorkspaceError when the real location is outside the workspace: a symlink or ``..`` that
        leaves it is never silently followed into someone else's files.
        """
        p = Path(path)
        if not p.is_absolute():
            p = self.root / p
        real = p.resolve()
        try:
            return real.relative_to(self.root).as_posix()
        except ValueError:
            raise WorkspaceError(f"{path}: resolves outside the workspace {self.root.name}/") from None

    def is_memory_file(self, rel_path: str) -> bool:
        return glob_match(rel_path, self.memory_globs)

    def is_guarded_file(self, rel_path: str) -> bool:
        return glob_match(rel_path, self.guarded_globs)

    def memory_files(self) -> Iterator[Path]:
        """Existing memory files, sorted, never following a symlink out of the workspace."""
        seen: set[Path] = set()
        for glob in self.memory_globs:
            for p in sorted(self.root.glob(glob)):
                if not p.is_file() or STATE_DIR in p.relative_to(self.root).parts:
                    continue
                try:
                    rel = self.relpath(p)
                except WorkspaceError:
                    continue
                if rel in {q.as_posix() for q in seen}:
                    continue
                seen.add(Path(rel))
        for rel in sorted(seen, key=lambda q: q.as_posix()):
            yield self.root / rel

    # -- state ---------------------------------------------------------------------------------------
    def state_path(self, *parts: str) -> Path:
        return self.state_dir.joinpath(*parts)

    def ensure_state(self) -> Path:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        return self.state_dir

    @functools.cached_property
    def key(self) -> bytes:
        """The per-workspace stamp key (32 random bytes, hex in `.cuticle/key`), created on first use."""
        path = self.state_path(KEY_NAME)
        try:
            text = path.read_text(encoding="ascii").strip()
            if text:
                return bytes.fromhex(text)
        except FileNotFoundError:
            pass
        except (ValueError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: stamp key is not hex; delete it to make a new one") from exc
        self.ensure_state()
        with file_lock(path):
            if path.exists() and path.read_text(encoding="ascii").strip():
                return bytes.fromhex(path.read_text(encoding="ascii").strip())
            import secrets  # once per workspace, when the key is created

            atomic_write(path, secrets.token_hex(32).encode("ascii") + b"\n")
            os.chmod(path, 0o600)
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
