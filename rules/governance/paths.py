"""Where a path really points, and whether it is protected: workspace-relative, home (``~/``) or absolute.

Paths are joined to the command's working directory (``cd x && …`` moves it), ``~`` and ``$HOME`` are expanded,
``..`` is resolved lexically, and protected sets are matched case-insensitively (case-insensitive file systems make
``CHITIN.YAML`` the policy too).
"""

from __future__ import annotations

import fnmatch
import functools
import os
import posixpath
import re

from tiers.hostfiles import HOME_PACK_GLOBS, HOST_PACK_GLOBS
from tiers.lazy import LazyRe
from tiers.record import dataclass, field
from tiers.workspace import DEFAULT_GUARDED, DEFAULT_MEMORY_GLOBS, SELF_GLOBS, GlobSet, glob_match, glob_set, glob_source, glob_to_regex  # noqa: F401


#: host hook settings, MCP server lists and cuticle's own files, relative to the workspace: one set with the gate's
#: file tools (tiers.workspace.SELF_GLOBS; a `.cuticle/` at any depth: a nested one would be a decoy workspace)
WS_SELF_GLOBS: tuple[str, ...] = SELF_GLOBS
#: the same for the user's home directory (``~/``-prefixed display paths) and system-wide managed settings
HOME_SELF_GLOBS: tuple[str, ...] = (
    "~/.claude/settings*.json", "~/.codex/**", "~/.gemini/settings.json", "~/.cursor/hooks.json",
    "~/.copilot/hooks/**", "~/.openclaw/openclaw.json", "~/.openclaw/extensions/**", "~/.openclaw/hooks/**",
    "~/.config/cuticle/**", "~/.gitconfig", "~/.config/git/config", "/etc/claude-code/**", "/etc/gemini-cli/settings.json",
    "~/.gemini/extensions/**", "~/.claude/plugins/**",
    "/library/application support/claudecode/**",
)
#: what a shell write to a host's agent, command or skill file is denied as (the file tools check its content)
PACK_WHAT = "a host's agent, command or skill file: it can declare hooks, tool permissions and MCP servers"
#: what such a denial tells the agent to do instead (the shell cannot show the content it writes)
PACK_FIX = ("write it with the file tools (Write/Edit), which allow it when what it declares to the host stays as it "
            "was; hooks, allowed-tools, permissionMode, mcpServers and !`command` lines are the user's to set")
#: files whose upload or read-out is credential exfiltration
SECRET_GLOBS: tuple[str, ...] = (
    "~/.ssh/**", "**/.ssh/**", "**/id_rsa*", "**/id_ed25519*", "**/id_ecdsa*", "**/*.pem", "**/*.key", "**/.env",
    "**/.env.*", "~/.aws/**", "~/.netrc", "**/.netrc", "~/.pgpass", "~/.npmrc", "~/.pypirc", "~/.kube/config",
    "~/.docker/config.json", "~/.config/gh/hosts.yml", "~/.git-credentials", "/etc/shadow", "/etc/gshadow",
    "/etc/sudoers", "~/.gnupg/**", "**/credentials*", "**/secrets*",
)
#: credential files an agent never writes through the shell (the ``no-secret-write`` invariant); unlike
#: SECRET_GLOBS (reads and uploads) a document *about* secrets (``docs/secrets-handling.md``) is not one
CREDENTIAL_GLOBS: tuple[str, ...] = (
    "**/.env", "**/.env.*", "~/.ssh/**", "**/.ssh/**", "**/*secrets*.yml", "**/*secrets*.yaml", "**/*secrets*.json",
    "**/credentials", "**/credentials.*", "**/*.pem", "**/*.key", "**/id_rsa*", "**/id_ed25519*", "**/id_ecdsa*",
    "~/.aws/**", "~/.netrc", "~/.pgpass", "~/.npmrc", "~/.pypirc", "~/.kube/**", "~/.docker/config.json",
    "~/.config/gh/**", "~/.git-credentials", "~/.gnupg/**",
)
#: templates that look like env files and hold no secrets
CREDENTIAL_EXCEPTIONS: tuple[str, ...] = ("**/.env.example", "**/.env.sample", "**/.env.template", "**/*.pub")
#: cuticle's own secrets, relative to the workspace: whoever reads them can forge stamps or server answers
STATE_SECRETS: tuple[str, ...] = (".cuticle/key", ".cuticle/serve.json")
#: example paths standing for every protected glob, for targets only known as a pattern (see Env.reach)
_EXAMPLES_WS: tuple[str, ...] = (
    "MEMORY.md", "memory.md", "USER.md", "memory/x.md", "INSIGHTS.md", "PERSONALITY.md", "chitin.yaml",
    ".cuticle/key", ".cuticle/serve.json", ".cuticle/x", ".claude/settings.json", ".claude/settings.local.json",
    ".codex/x", ".gemini/settings.json", ".cursor/hooks.json", ".github/hooks/x.json", ".openclaw/openclaw.json",
    ".env", "config/secrets.yml", "credentials.json", ".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json",
)
#: for a directory protected whatever the file name: the names that matter there (a literal basename under an
#: unknown directory reaches only these, and the files the directory has; an unknown basename reaches all)
_NAMED_IN: dict[str, tuple[str, ...]] = {
    ".cuticle": ("key", "config.toml", "serve.json", "policy-cache.json", "events.jsonl", "state"),
    ".codex": ("config.toml", "hooks.json"), ".github/hooks": ("cuticle.json", "hooks.json"), ".copilot/hooks": ("cuticle.json", "hooks.json"),
    ".git/hooks": ("pre-commit", "pre-push", "commit-msg", "post-checkout", "post-merge", "post-commit",
                   "prepare-commit-msg", "pre-rebase", "post-rewrite", "pre-merge-commit"),
    ".ssh": ("authorized_keys", "authorized_keys2", "config", "known_hosts", "environment", "rc", "id_*"),
    ".openclaw/extensions": ("*.js", "*.ts", "*.mjs", "package.json", "openclaw.plugin.json"),
    ".openclaw/hooks": ("*.js", "*.ts", "*.mjs", "hook.json"),
    ".config/cuticle": ("config.toml",), "agents": ("*.md",), "commands": ("*.md", "*.toml"),
    "skills": ("skill.md",), "prompts": ("*.prompt.md",), "claude-code": ("managed-settings.json",),
    "claudecode": ("managed-settings.json",), ".aws": ("credentials", "config"), ".kube": ("config",),
    ".gnupg": ("*.gpg", "*.kbx", "*.conf"), ".config/gh": ("hosts.yml", "config.yml"),
}
_EXAMPLES_HOME: tuple[str, ...] = ("~/.ssh/authorized_keys", "~/.openclaw/openclaw.json", "~/.claude/settings.json")
DEVICES = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom")


@dataclass(frozen=True, slots=True)
class PathRef:
    """A resolved path. ``scope`` is ``ws`` (``rel`` set), ``home``, ``abs`` or ``unknown`` (unresolvable)."""

    scope: str
    display: str
    rel: str | None = None
    abs: str | None = None



def _user_home(user: str) -> str:
    """``~user``'s directory as the shell expands it: the account's home from the password database (``~root`` is
    ``/root``, and ``~me`` is this user's own home, where the hosts' settings live); an unknown account keeps the
    ``/home/user`` guess, which no protected path of this user can hide behind."""
    import pwd  # a built-in module: no file is read until the lookup

    try:
        home = pwd.getpwnam(user).pw_dir
    except (KeyError, ValueError, OSError):
        return f"/home/{user}"
    return posixpath.normpath(home) if home.startswith("/") else f"/home/{user}"

@dataclass(slots=True)
class Env:
    """Everything path decisions need: workspace root, home, memory and guarded globs, the policy's paths."""

    root: str
    home: str = ""
    memory_globs: tuple[str, ...] = DEFAULT_MEMORY_GLOBS
    guarded_globs: tuple[str, ...] = DEFAULT_GUARDED
    policy_rels: tuple[str, ...] = ("chitin.yaml",)
    extra_protected: tuple[str, ...] = ()
    _cache: dict = field(default_factory=dict)
    #: resolved paths, (text, cwd) -> PathRef: the same few paths recur command after command (see :meth:`norm`)
    _norms: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, root: str, *, memory_globs=None, guarded_globs=None, policy_rels=(), extra=()) -> Env:
        home = os.path.expanduser("~")
        home = "" if home in ("~", "/") else posixpath.normpath(home)
        return cls(root=posixpath.normpath(root), home=home,
                   memory_globs=tuple(memory_globs or DEFAULT_MEMORY_GLOBS),
                   guarded_globs=tuple(guarded_globs if guarded_globs is not None else DEFAULT_GUARDED),
                   policy_rels=tuple(dict.fromkeys(("chitin.yaml", *policy_rels))), extra_protected=tuple(extra))

    # -- resolving -----------------------------------------------------------------------------------
    def norm(self, text: str, cwd: str | None) -> PathRef:
        """``text`` resolved against the working directory ``cwd`` (None: unknown). A pure function of the two
        strings for this environment, so each pair is resolved once (records are immutable and can be shared):
        one command resolves the same operand several times (its effect, the secret check, the write check), and
        an agent's commands keep naming the same few files."""
        key = (text, cwd)
        ref = self._norms.get(key)
        if ref is None:
            ref = self._resolve(text, cwd)
            if len(self._norms) < 4096:
                self._norms[key] = ref
        return ref

    def _resolve(self, text: str, cwd: str | None) -> PathRef:
        t = text
        if not t:
            return PathRef("unknown", "''")
        if t[0] == "~":
            if (t == "~+" or t.startswith("~+/")) and cwd:
                t = cwd + t[2:]  # ~+ is $PWD
            elif t == "~" or t.startswith("~/"):
                t = (self.home or "/home/~") + t[1:]
            elif not t.startswith("~+"):
                user, _, rest = t[1:].partition("/")
                t = _user_home(user) + ("/" + rest if rest else "")
        if t[0] == "$":
            for var in ("${HOME}", "$HOME"):
                if t.startswith(var):
                    t = (self.home or "/home/~") + t[len(var):]
            for var in ("${PWD}", "$PWD"):
                if t.startswith(var) and cwd:
                    t = cwd + t[len(var):]
            if t.startswith("$"):
                return PathRef("unknown", text)
        if t.startswith("/proc/self/cwd") and cwd and (len(t) == 14 or t[14] == "/"):
            t = cwd + t[14:]  # the process's working directory, spelled through /proc
        elif t.startswith("/proc/self/root/"):
            t = t[15:]
        if t[0] != "/":
            if cwd is None:
                return PathRef("unknown", text)
            t = cwd + "/" + t
        # an absolute path without '//', '.' or '..' components and no trailing slash is already normal
        if "/." in t or "//" in t:
            a = posixpath.normpath(t)
        elif t[-1] == "/" and len(t) > 1:
            a = t[:-1]  # normpath of a path whose only oddity is one trailing slash (``rm -rf build/``)
        else:
            a = t
        if a.startswith("//"):
            a = "/" + a.lstrip("/")
        root = self.root
        if a.startswith(root) and (len(a) == len(root) or a[len(root)] == "/"):
            rel = a[len(root) + 1:]
            return PathRef("ws", rel or ".", rel, a)
        if self.home and (a == self.home or a.startswith(self.home + "/")):
            return PathRef("home", "~" + a[len(self.home):], None, a)
        return PathRef("abs", a, None, a)

    def abs_of(self, display: str) -> str:
        """The absolute path behind a display path (workspace-relative, ``~/…`` or absolute)."""
        if display.startswith("/"):
            return display
        if display.startswith("~") and self.home:
            return self.home + display[1:]
        return posixpath.normpath(self.root + "/" + display)

    def cd(self, cwd: str | None, text: str | None) -> str | None:
        """The working directory after ``cd text`` (None when it cannot be known)."""
        if text is None or text in ("", "~"):
            return self.home or None
        if text == "-" or "$(…)" in text:
            return None
        ref = self.norm(text, cwd)
        return ref.abs

    # -- protection ----------------------------------------------------------------------------------
    def protected(self, ref: PathRef) -> tuple[str, str] | None:
        """``(invariant, what)`` when writing ``ref`` would modify memory, the policy, state or hook settings."""
        key = (ref.scope, ref.display)
        if key in self._cache:
            return self._cache[key]
        result = self._protected(ref)
        if len(self._cache) < 4096:
            self._cache[key] = result
        return result

    def _protected(self, ref: PathRef) -> tuple[str, str] | None:
        gov = "no-governance-self-modification"
        mem = "no-memory-write-via-shell"
        if ref.scope == "ws":
            rel = ref.rel or ""
            low = rel.lower()
            if rel in ("", "."):
                return mem, "the workspace root (it holds memory files and the policy)"
            self_globs = tuple(g.lower() for g in (*WS_SELF_GLOBS, *self.policy_rels, *self.extra_protected))
            if _match(low, self_globs) or _contains(low, self_globs):
                return gov, f"{rel} (cuticle's policy, state or a host's hook settings)"
            if _match(low, HOST_PACK_GLOBS) or _contains(low, HOST_PACK_GLOBS):
                return gov, f"{rel} ({PACK_WHAT})"
            if _match(rel, self.memory_globs) or _match(low, tuple(g.lower() for g in self.memory_globs)) \
                    or _contains(rel, self.memory_globs):
                return mem, f"{rel} (a memory file)"
            if _match(rel, self.guarded_globs) or _match(low, tuple(g.lower() for g in self.guarded_globs)):
                return mem, f"{rel} (generated by cuticle; never hand-edited)"
            if "/" not in rel and low == "chitin.yaml":
                return gov, f"{rel} (the policy)"
            return None
        if ref.scope == "unknown" and not ref.display.startswith(("$", "~", "/")):
            # relative to a directory only known at run time (cd "$(…)"): protect as if it were the root
            probe = posixpath.normpath(ref.display)
            if not probe.startswith(".."):
                return self._protected(PathRef("ws", probe, probe, None))
            return None
        if ref.scope in ("home", "abs"):
            low = ref.display.lower()
            if _match(low, HOME_SELF_GLOBS) or _contains(low, HOME_SELF_GLOBS):
                return gov, f"{ref.display} (a host's hook settings)"
            if _match(low, HOME_PACK_GLOBS) or _contains(low, HOME_PACK_GLOBS):
                return gov, f"{ref.display} ({PACK_WHAT})"
            if low.rsplit("/", 1)[-1] == "chitin.yaml":
                return gov, f"{ref.display} (a policy file)"
        return None

    def repo_pathspecs(self, top: str) -> list[str] | None:
        """git pathspecs, relative to the work tree at ``top``, that cover every path :meth:`protected` protects
        in that repository (``git ls-files -- SPECS`` lists them without listing the whole tree); None when the
        globs do not translate (a repository below the workspace's root, a policy path that is not relative)."""
        root = self.root
        if top == root:
            prefix = ""
        elif root.startswith(top.rstrip("/") + "/"):
            prefix = root[len(top.rstrip("/")) + 1:] + "/"
        else:
            return None
        globs = (*WS_SELF_GLOBS, *HOST_PACK_GLOBS, *self.policy_rels, *self.extra_protected, *self.memory_globs,
                 *self.guarded_globs)
        if any(g.startswith(("/", "~", "..")) for g in globs):
            return None
        specs = [f":(glob,icase){prefix}{g}" for g in dict.fromkeys(globs)]
        home = self.home
        if home and (home == top or home.startswith(top.rstrip("/") + "/")):
            at = home[len(top.rstrip("/")) + 1:] + "/" if home != top else ""
            specs += [f":(glob,icase){at}{g[2:]}" for g in (*HOME_SELF_GLOBS, *HOME_PACK_GLOBS) if g.startswith("~/")]
        return specs

    def is_credential(self, ref: PathRef) -> bool:
        """A credential file (CREDENTIAL_GLOBS less the templates): writing it is ``no-secret-write``."""
        if ref.scope == "unknown":
            return False
        path = ref.display if ref.scope != "ws" else (ref.rel or "")
        return _credential_path(path)

    def is_state_secret(self, ref: PathRef) -> bool:
        """The stamp key or the server token of this workspace."""
        return ref.scope == "ws" and (ref.rel or "").lower() in STATE_SECRETS

    # -- patterns ------------------------------------------------------------------------------------
    def candidates(self) -> tuple[str, ...]:
        """Absolute paths standing for every protected path: the protected files this workspace has (memory
        files, the policy, state, host settings, env files at the top) and one example for each protected glob.
        Found once per environment (a few directory listings)."""
        got = self._cache.get("candidates")
        if got is None:
            root = self.root
            seen: dict[str, None] = {}
            for rel in _EXAMPLES_WS:
                seen[root + "/" + rel] = None
            for g in self.memory_globs:
                seen[root + "/" + _example(g)] = None
            for rel in self.policy_rels + tuple(_example(g) for g in self.extra_protected):
                seen[root + "/" + rel] = None
            for d in ("", "memory", ".cuticle", "config"):
                try:
                    with os.scandir(root + ("/" + d if d else "")) as it:
                        for entry in it:
                            rel = (d + "/" if d else "") + entry.name
                            ref = PathRef("ws", rel, rel, root + "/" + rel)
                            if self.protected(ref) or _credential_path(rel):
                                seen[root + "/" + rel] = None
                except OSError:
                    continue
            if self.home:
                for h in _EXAMPLES_HOME:
                    seen[self.home + h[1:]] = None
            got = self._cache["candidates"] = tuple(seen)
        return got

    def shapes(self) -> tuple[tuple[str | None, str, str, bool], ...]:
        """Every protected glob as (directory as an absolute path or None for "any directory", basename glob,
        the glob, whether subdirectories count too, an example basename, the basename glob's compiled match),
        lowercased: what a target with a literal basename is matched against. The example and the matcher are
        made here, once per environment, not once per shape in every :meth:`reach`."""
        got = self._cache.get("shapes")
        if got is None:
            out: list[tuple[str | None, str, str]] = []
            globs = (*WS_SELF_GLOBS, *self.policy_rels, *self.extra_protected, *self.memory_globs,
                     *self.guarded_globs, *CREDENTIAL_GLOBS, *HOST_PACK_GLOBS)
            for g in dict.fromkeys(globs):
                low = g.lower()
                if low.startswith("~/"):
                    if not self.home:
                        continue
                    full = self.home.lower() + low[1:]
                elif low.startswith("/"):
                    full = low
                else:
                    full = self.root.lower() + "/" + low
                d, _, base = full.rpartition("/")
                recursive = base == "**" or "**" in d
                if base == "**":
                    base = "*"
                if "**" in d:
                    d = d.split("/**", 1)[0]
                anywhere = low.startswith("**/")
                if base == "*":
                    # a directory protected whatever the name: a literal basename reaches only the files that
                    # matter there (cuticle's own state files, hook files, SSH keys) and the files it has now
                    suffix = next((k for k in _NAMED_IN if d.endswith("/" + k) or d == k), None)
                    names = list(_NAMED_IN.get(suffix, ()))
                    if d.startswith(self.root.lower() + "/"):
                        try:
                            names += [n.lower() for n in os.listdir(self.root + d[len(self.root):])]
                        except OSError:
                            pass
                    for name in dict.fromkeys(names):
                        out.append((None if anywhere else d, name, g, recursive))
                    continue
                out.append((None if anywhere else d, base, g, recursive))
            got = self._cache["shapes"] = tuple((*shape, _example(shape[1]), _fnmatcher(shape[1]))
                                                for shape in out)
        return got

    def reach(self, pattern: str, cwd: str | None) -> str | None:
        """The first protected path (display form) that a target known only as a pattern could name, or None.

        ``pattern`` is a word after expansion: ``$NAME``, ``${…}`` and ``$(…)`` left in it stand for anything
        (slashes included), ``*``, ``?`` and ``[…]`` are globs. When the last component is itself unknown
        (``"$TARGET"``, ``memory/$(ls)``) the target may be any file in reach; when it is literal or a glob
        (``$DIR/out.txt``, ``$(pwd)/USER.md``, ``$(date).log``) only protected paths with a matching name count."""
        rx = _pattern_regex(pattern, cwd)
        if rx is None:
            return None
        head, sep, base = _split_last(pattern)
        any_name = bool(_UNKNOWN_PART.search(base))
        if any_name or (not sep and _UNKNOWN_PART.match(pattern)):
            for cand in self.candidates():
                if rx.match(cand) or rx.match(cand.lower()):
                    return self.norm(cand, None).display
            if not sep or _UNKNOWN_PART.search(head):
                return None
        drx = _pattern_regex(head, cwd) if sep else None
        root_too = False
        if sep and _UNKNOWN_PART.search(head):
            # a variable or substitution in the directory may hold ``..`` or the workspace's own path, and the
            # literal names after it may be a link to it (``$HOME/../$USER/ws/USER.md``): the workspace root is in
            # reach, and so is any directory ending in those literal names (``$OUT/dist/`` is not .cuticle/)
            tail = [m for m in _UNKNOWN_PART.finditer(head)][-1]
            drx = re.compile(".*" + re.escape(head[tail.end():].lower()) + "/?\\Z")
            root_too = True
        if sep and drx is None:  # a literal directory
            dref = self.norm(head or "/", cwd)
            dirs_abs = (dref.abs or "").lower()

            def dir_ok(d, recursive):
                return d is None or d == dirs_abs or (recursive and dirs_abs.startswith(d + "/"))
        else:
            here = (cwd or self.root).lower()

            root_low = self.root.lower()

            def dir_ok(d, recursive):
                if d is None or (root_too and d == root_low):
                    return True
                if drx is None:
                    return d == here or (recursive and here.startswith(d + "/"))
                return bool(drx.match(d) or (recursive and drx.match(d + "/x")))
        blow = base.lower()
        globbed = "*" in blow or "?" in blow or "[" in blow
        brx = _base_regex(blow) if any_name else None
        bmatch = _fnmatcher(blow) if globbed else None
        for d, g, display, recursive, example, gmatch in self.shapes():
            if not dir_ok(d, recursive):
                continue
            if brx is not None:  # a name partly known only at run time: its known parts must fit
                if d is None:
                    continue  # credentials anywhere: reached through the candidates (the files there are)
                if brx.fullmatch(g) or brx.fullmatch(example):
                    return display.replace("**/", "").replace("/**", "/…")
                continue
            if bmatch is None:
                if gmatch(blow):
                    return display.replace("**/", "").replace("/**", "/…")
                continue
            if g.startswith(".") and not blow.startswith("."):
                continue  # a shell glob does not match dot files unless it starts with a dot itself
            if bmatch(example) or bmatch(g):
                return display.replace("**/", "").replace("/**", "/…")
        return None

    def is_secret(self, ref: PathRef) -> bool:
        if ref.scope == "unknown":
            return False
        return _secret_path(ref.display if ref.scope != "ws" else (ref.rel or ""))


_UNKNOWN_PART = LazyRe(r"\$\(…\)|\$\(find\)|\$\{[^}]*\}|\$[A-Za-z_0-9@*#?!$-][A-Za-z_0-9]*|`[^`]*`|\(…\)")


def is_pattern(text: str) -> bool:
    """The word still holds an unknown part (a variable, a substitution) or a glob character."""
    return "$" in text or "*" in text or "?" in text or "[" in text or "`" in text or "(…)" in text


@functools.lru_cache(maxsize=256)
def _base_regex(base: str):
    """A last path component as a regex: unknown parts are ``.*``, globs stay globs."""
    out, pos = [], 0
    for m in _UNKNOWN_PART.finditer(base):
        out.append(_glob_piece(base[pos:m.start()]))
        out.append(".*")
        pos = m.end()
    out.append(_glob_piece(base[pos:]))
    return re.compile("".join(out))


def _split_last(text: str) -> tuple[str, str, str]:
    """``text`` split at its last "/" outside a ``$(…)``/``${…}``/backtick part: (head, "/" or "", last part)."""
    depth = 0
    cut = -1
    i = 0
    while i < len(text):
        c = text[i]
        if c in "({":
            depth += 1
        elif c in ")}":
            depth = max(0, depth - 1)
        elif c == "/" and depth == 0:
            cut = i
        i += 1
    if cut < 0:
        return "", "", text
    return text[:cut], "/", text[cut + 1:]


@functools.lru_cache(maxsize=1024)
def _pattern_regex(pattern: str, cwd: str | None):
    """A regex over absolute paths for :meth:`Env.reach` (None: the pattern is a plain path)."""
    if not is_pattern(pattern):
        return None
    text = pattern
    if text.startswith("~/"):
        text = "$HOME/" + text[2:]
    out: list[str] = []
    pos = 0
    anchored = text.startswith("/")
    for m in _UNKNOWN_PART.finditer(text):
        if m.start() == 0:
            anchored = True  # an unknown head may be an absolute path
        out.append(_glob_piece(text[pos:m.start()]))
        out.append(".*")
        pos = m.end()
    out.append(_glob_piece(text[pos:]))
    body = "".join(out)
    if not anchored:
        if cwd is None:
            body = "(?:.*/)?" + body
        else:
            body = re.escape(cwd.rstrip("/") + "/") + body
    body = body.replace(r"/\./", "/").replace("/.*/", "/(?:.*/)?")  # "any directories" may be none
    if body.endswith("/.*"):
        body = body[:-3] + "(?:/.*)?"
    try:
        return re.compile(body + r"/?\Z")
    except re.error:
        return re.compile(r".*")


def _glob_piece(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = text.find("]", i + 2)
            if end < 0:
                out.append(re.escape(c))
            else:
                body = text[i + 1:end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _credential_path(path: str) -> bool:
    low = path.lower()
    if _match(low, CREDENTIAL_EXCEPTIONS):
        return False
    return _match(path, CREDENTIAL_GLOBS) or _match(low, CREDENTIAL_GLOBS)


@functools.lru_cache(maxsize=4096)
def _secret_path(path: str) -> bool:
    """A credential file's path (the secret globs, tried as written and lowercased): a pure function of the path,
    cached because the combined glob regex costs several microseconds per call and paths recur."""
    if _match(path, SECRET_GLOBS):
        return True
    low = path.lower()
    return low != path and _match(low, SECRET_GLOBS)  # an all-lowercase path was just tried


def _combined(globs: tuple[str, ...]) -> GlobSet:
    """A set of globs matched as one (``tiers.workspace.GlobSet``: a path set, and one alternation compiled when a
    path could match a wildcard glob)."""
    return glob_set(globs)


def _match(path: str, globs: tuple[str, ...]) -> bool:
    # a glob character (one substring test each: a set's isdisjoint(path) would look up every character)
    if "*" in path or "?" in path or "[" in path:
        return any(_glob_overlap(path, g) for g in globs)
    return _combined(globs).match(path)


def _contains(path: str, globs: tuple[str, ...]) -> bool:
    """True when directory ``path`` contains something one of ``globs`` protects (``rm -r memory``)."""
    if "*" in path or "?" in path or "[" in path:  # a glob character
        return False
    prefix = path.rstrip("/") + "/"
    for g in globs:
        lit = g.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0]
        if lit.startswith(prefix):
            return True
    return False


@functools.lru_cache(maxsize=1024)
def _fnmatcher(glob: str):
    """``fnmatch.fnmatchcase(name, glob)`` as one compiled ``match`` (a truthy match or None)."""
    return re.compile(fnmatch.translate(glob)).match


def _example(glob: str) -> str:
    return glob.replace("**/", "").replace("**", "x").replace("*", "x").replace("?", "x")


def _glob_overlap(pattern_path: str, glob: str) -> bool:
    """A shell glob target (``memory/*.md``) may hit a protected glob: test an example of the protected set."""
    example = _example(glob)
    if fnmatch.fnmatchcase(example, pattern_path) or fnmatch.fnmatchcase(example.lower(), pattern_path.lower()):
        return True
    try:
        return bool(glob_to_regex(glob).match(pattern_path))
    except Exception:  # noqa: BLE001 - a malformed pattern never protects
        return False


def glob_in(path: str, globs: tuple[str, ...]) -> bool:
    """Path (or any of its ancestors) matches one of the globs: ``build/x/y`` is in ``build``."""
    match = _combined(tuple(globs)).match  # glob_match (any glob matches) once per ancestor
    parts = path.split("/")
    for i in range(len(parts), 0, -1):
        if match("/".join(parts[:i])):
            return True
    return False
