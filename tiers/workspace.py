"""The workspace: where memory files live, where cuticle keeps its state, and what the config says."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from pathlib import Path

from .discover import CONFIG_NAME, KEY_NAME, STATE_DIR, installed_root, is_installed  # noqa: F401 - re-exported
from .errors import ConfigError, WorkspaceError
from .fsutil import atomic_write, file_lock
from .lazy import LazyRe

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any


#: Memory files by default (DESIGN.md §2); `[memory] globs` in the config replaces the list.
DEFAULT_MEMORY_GLOBS: tuple[str, ...] = ("MEMORY.md", "memory.md", "USER.md", "memory/**/*.md")
#: Files cuticle generates or owns; agents may not hand-edit them.
DEFAULT_GUARDED: tuple[str, ...] = ("PERSONALITY.md", "INSIGHTS.md")


@functools.lru_cache(maxsize=256)
def glob_source(pattern: str) -> str:
    """The regular expression (source text, anchored with ``\\Z``) of a path glob: ``**`` spans directories, ``*``
    and ``?`` stay inside one. Callers that join many globs into one alternation take the text, not a compiled
    pattern per glob (compiling is the expensive part of a cold hook call)."""
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
    return "".join(out) + r"\Z"


@functools.lru_cache(maxsize=256)
def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """A path glob (:func:`glob_source`) compiled."""
    return re.compile(glob_source(pattern))


def glob_match(rel_path: str, patterns: tuple[str, ...] | list[str]) -> bool:
    """True when the workspace-relative POSIX path matches any of the globs."""
    return glob_set(tuple(patterns)).match(rel_path)


@functools.lru_cache(maxsize=256)
def glob_set(globs: tuple[str, ...]) -> GlobSet:
    """The :class:`GlobSet` of ``globs`` (one per tuple of globs and process)."""
    return GlobSet(globs)


class GlobSet:
    """Globs matched as one: a path is in the set when any glob matches it (:func:`glob_source`).

    The globs without a wildcard are a set of paths (most memory globs). The others are one alternation, compiled
    the first time a path holds some wildcard glob's literal runs (in order, the first at the start and the last
    at the end: what every match of the glob holds). So a cold hook call that asks about a memory file or an
    ordinary path compiles nothing, and compiling is the expensive part of a cold call; once compiled, the regex
    alone answers (the literal test only ever spares a compile, never changes an answer)."""

    __slots__ = ("globs", "paths", "_runs", "_regex")

    def __init__(self, globs: tuple[str, ...]) -> None:
        self.globs = globs
        wild = [g for g in dict.fromkeys(globs) if "*" in g or "?" in g]
        self.paths = frozenset(g for g in globs if "*" not in g and "?" not in g)
        self._runs = tuple(_literal_runs(g) for g in wild)
        self._regex = LazyRe("|".join(f"(?:{glob_source(g)})" for g in wild)) if wild else None

    def match(self, path: str) -> bool:
        if path in self.paths:
            return True
        rx = self._regex
        if rx is None:
            return False
        if not rx.compiled and not any(_holds_runs(path, runs) for runs in self._runs):
            return False
        return rx.match(path) is not None


def _literal_runs(glob: str) -> tuple[str, ...]:
    """The literal runs of a glob between its wildcards (``**/``, ``**``, ``*``, ``?``, as :func:`glob_source`
    reads them): ``memory/**/*.md`` -> ``("memory/", "", ".md")``."""
    runs: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**", i):
            i += 3 if glob.startswith("**/", i) else 2  # `**/` may match nothing: its slash is not required
        elif glob[i] in "*?":
            i += 1
        else:
            current.append(glob[i])
            i += 1
            continue
        runs.append("".join(current))
        current = []
    runs.append("".join(current))
    return tuple(runs)


def _holds_runs(path: str, runs: tuple[str, ...]) -> bool:
    """``path`` starts with the first run, ends with the last, and holds the others in order between them."""
    first, last = runs[0], runs[-1]
    if not path.startswith(first):
        return False
    pos = len(first)
    for run in runs[1:-1]:
        pos = path.find(run, pos)
        if pos < 0:
            return False
        pos += len(run)
    return len(path) - len(last) >= pos and path.endswith(last)


#: Paths inside a workspace that only the user changes: cuticle's state (a `.cuticle/` at any depth: a nested one
#: would be a decoy workspace) and the hosts' hook settings, which switch the gate off. Matched case-insensitively
#: (a case-insensitive file system makes `.CUTICLE` the same directory).
SELF_GLOBS: tuple[str, ...] = (
    ".cuticle", ".cuticle/**", "**/.cuticle", "**/.cuticle/**", "chitin.yaml", ".claude/settings*.json", ".codex/**",
    ".gemini/settings.json", ".cursor/hooks.json", ".github/hooks/**", ".git/hooks/**", ".git/config",
    ".openclaw/openclaw.json", ".openclaw/extensions/**",
    # Gemini CLI extensions: each one's manifest and hooks/hooks.json start commands and MCP servers
    ".gemini/extensions/**",
    # MCP server lists: each entry is a command the host starts at its next session, outside every hook
    ".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", ".gemini/mcp.json",
)


def is_self_path(rel_path: str) -> bool:
    """True when the workspace-relative POSIX path is cuticle's state or a host's hook settings (SELF_GLOBS)."""
    return glob_match(rel_path.lower(), SELF_GLOBS)


def find_installed(start: str | os.PathLike[str] | None, project: str | None = None) -> Path | None:
    """``installed_root(start, project)`` as a Path: the protected workspace of ``start``, or None."""
    root = installed_root(start, project)
    return Path(root) if root is not None else None


def find_workspace(start: str | os.PathLike[str] | None = None) -> Path:
    """The workspace of the CLI's commands at ``start``: the protected workspace (``find_installed``), else the
    nearest directory holding any `.cuticle/`, else ``start`` itself."""
    here = Path(start or os.getcwd()).resolve()
    if here.is_file():
        here = here.parent
    installed = find_installed(here)
    if installed is not None:
        return installed
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
        #: the configuration error the hook met and replaced by the defaults (see ``config_or_defaults``)
        self.config_error: str | None = None

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
        module it imports are a measurable part of that start). The cache is derived state: it is used only with
        a valid HMAC under the workspace key, so editing it changes nothing (a workspace without a key has no
        cache)."""
        import json

        cache = self.state_dir / "cache" / "config.json"
        key = self._existing_key()
        if key is not None:
            try:
                cached = json.loads(cache.read_text(encoding="utf-8"))
                if (isinstance(cached, dict) and cached.get("toml") == text and isinstance(cached.get("config"), dict)
                        and cached.get("mac") == _config_mac(key, text, cached["config"])):
                    return cached["config"]
            except (OSError, ValueError, TypeError):
                pass
        import tomllib  # on first use of a changed config, not at import

        try:
            config = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{self.config_path}: invalid TOML: {exc}") from exc
        if key is None:
            return config
        try:
            if json.loads(json.dumps(config)) == config:  # TOML dates and times do not survive JSON: no cache then
                data = json.dumps({"toml": text, "config": config, "mac": _config_mac(key, text, config)},
                                  ensure_ascii=False)
                atomic_write(cache, data.encode("utf-8", "surrogatepass"))
        except (OSError, TypeError, ValueError):
            pass  # a read-only workspace simply has no cache
        return config

    def _existing_key(self) -> bytes | None:
        """The stamp key when the workspace has one (never creates it)."""
        try:
            text = self.state_path(KEY_NAME).read_text(encoding="ascii").strip()
            return bytes.fromhex(text) if text else None
        except (OSError, ValueError):
            return None

    def config_or_defaults(self) -> str | None:
        """For the hook: load and check the configuration; when it is unreadable or invalid, use the defaults
        (every check on) instead and return the error (the hook reports it to the user and the model)."""
        if self.config_error is not None:
            return self.config_error
        try:
            self.config
            self.memory_globs
            self.guarded_globs
            for name in ("gate", "tiers", "memory", "policy", "lint", "personality"):
                self.section(name)
        except ConfigError as exc:
            self._config = {}
            self.config_error = " ".join(str(exc).split())
        return self.config_error

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
        """A memory file: matched by ``[memory] globs``, or imported by one (``memory_imports``)."""
        return glob_match(rel_path, self.memory_globs) or rel_path in self.memory_imports()

    def memory_imports(self) -> frozenset[str]:
        """Workspace files that the hosts' instruction files import into the model's memory: ``@path`` lines of
        ``CLAUDE.md``/``GEMINI.md``/``AGENTS.md`` that are memory files (Claude Code and Gemini CLI load an
        imported file as part of the file that imports it, up to five hops), relative to the importing file, and
        what those import in turn. A file imported this way is memory: writes to it get every memory check.
        Re-read when an importing file changes (its size and mtime), so a long-lived server sees new imports."""
        from .imports import IMPORTERS, imported_by

        return imported_by(self.root, [rel for rel in IMPORTERS if glob_match(rel, self.memory_globs)])

    def is_guarded_file(self, rel_path: str) -> bool:
        return glob_match(rel_path, self.guarded_globs)

    def memory_files(self) -> Iterator[Path]:
        """Existing memory files, sorted, never following a symlink out of the workspace."""
        seen: set[Path] = set()
        for glob in (*self.memory_globs, *sorted(self.memory_imports())):
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
        """Create `.cuticle/` (mode 700: it holds the user's prompts and the stamp key) if needed."""
        from .fsutil import make_private_dir

        make_private_dir(self.state_dir)
        return self.state_dir

    def secure_state(self) -> None:
        """Make an existing `.cuticle/` private (dirs 700, files 600): state written by older versions or by hand
        may be world-readable, and it holds the user's raw prompts. One stat when it is private already."""
        try:
            if not os.stat(self.state_dir).st_mode & 0o077:
                return
        except OSError:
            return
        for top, dirs, files in os.walk(self.state_dir):
            for d in (top, *(os.path.join(top, x) for x in dirs)):
                try:
                    os.chmod(d, 0o700)
                except OSError:
                    pass
            for f in files:
                try:
                    os.chmod(os.path.join(top, f), 0o600, follow_symlinks=False)
                except (OSError, NotImplementedError):
                    pass

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


def _config_mac(key: bytes, text: str, config: dict) -> str:
    import json

    from .mac import hmac_sha256

    body = json.dumps(config, sort_keys=True, ensure_ascii=False)
    return hmac_sha256(key, b"config\x1f" + text.encode("utf-8", "surrogatepass") + b"\x1f"
                       + body.encode("utf-8", "surrogatepass")).hex()
