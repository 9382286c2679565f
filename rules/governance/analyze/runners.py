"""Programs that run other programs or hand out files, by what they run and touch: build tools whose program
file holds shell recipes (``make -f``, ``cmake -P``), ``script``, ``socat`` addresses, ``xmlstarlet ed -L``, static
web servers and ``cpio -o`` (readers of a whole tree), and the runners a command is handed to (``at``, ``crontab``,
``tmux``, ``screen``, ``ssh``, containers).
"""

from __future__ import annotations

import re

from tiers.lazy import LazyRe


# build tools whose program file holds shell recipes or file commands ------------------------------------------
def _program_file(w, argv, k, stdin, cwd) -> str | None:
    """The text of the program file ``argv[k]`` (a stream, or a regular file on disk; None: unknown)."""
    from ..content import read_text

    text = w.stream_text(argv, k, stdin)
    if text is None:
        ref = w.env.norm(argv[k], cwd)
        text = read_text(ref.abs) if ref.abs and ref.scope != "unknown" else None
    return None if text == "\x00unknown" else text


def _h_make(w, tool, argv, cwd, stdin, effects, taints):
    """``make -f FILE``: each recipe line (a tab-indented line) is a shell command line, walked as one."""
    k = 1
    while k < len(argv):
        a = argv[k]
        if a in ("-f", "--file", "--makefile") and k + 1 < len(argv):
            text = _program_file(w, argv, k + 1, stdin, cwd)
            for line in (text or "").splitlines():
                if line.startswith("\t"):
                    w.run_text(line.strip().lstrip("@-+").replace("$$", "$"), cwd, f"{tool} recipe", ";")
            k += 2
            continue
        k += 1
    return "exec", None


_CMAKE_FILE = LazyRe(r"\bfile\s*\(\s*(WRITE|APPEND|TOUCH|TOUCH_NOCREATE|REMOVE|REMOVE_RECURSE|RENAME|COPY_FILE|"
                     r"CREATE_LINK|CONFIGURE\s+OUTPUT|DOWNLOAD\s+\S+)\s+(\"[^\"]*\"|[^\s)]+)"
                     r"(?:\s+(\"[^\"]*\"|[^\s)]+))?",
                     re.I)
_CMAKE_EXEC = LazyRe(r"\bexecute_process\s*\(\s*COMMAND\s+([^)]*)\)", re.I)


def _h_cmake(w, tool, argv, cwd, stdin, effects, taints):
    """``cmake -P SCRIPT``: the script's ``file(WRITE|APPEND|RENAME|…)`` targets are written (a rename or link:
    both names), ``execute_process(COMMAND …)`` runs as a command."""
    if "-P" not in argv or argv.index("-P") + 1 >= len(argv):
        return "exec", None
    text = _program_file(w, argv, argv.index("-P") + 1, stdin, cwd)
    if text is None:
        return "exec", None
    typ = "exec"
    for m in _CMAKE_FILE.finditer(text):
        op = m.group(1).upper()
        names = [m.group(2)] + ([m.group(3)] if m.group(3) and op.startswith(("RENAME", "COPY", "CREATE")) else [])
        for name in names:
            effects.append(w.write_effect(w.env.norm(name.strip('"'), cwd), f"{tool} -P file({op.split()[0]})"))
        typ = "write"
    for m in _CMAKE_EXEC.finditer(text):
        w.run_text(" ".join(x.strip('"') for x in m.group(1).split()), cwd, f"{tool} execute_process", ";")
    return typ, None


def _h_script(w, tool, argv, cwd, stdin, effects, taints):
    """``script [-c CMD] [FILE]``: CMD runs, the typescript (default ``typescript``) and ``-O``/``-B``/``-T``/
    ``-I`` logs are written."""
    k = 1
    ops: list[str] = []
    while k < len(argv):
        a = argv[k]
        if a in ("-c", "--command") and k + 1 < len(argv):
            w.run_text(argv[k + 1], cwd, f"{tool} -c", ";")
            k += 2
            continue
        if a in ("-O", "--log-out", "-B", "--log-io", "-I", "--log-in", "-T", "--log-timing", "-t", "--timing",
                 "-E", "--echo", "-m", "--logging-format") and k + 1 < len(argv):
            if a not in ("-E", "--echo", "-m", "--logging-format"):
                effects.append(w.write_effect(w.env.norm(argv[k + 1], cwd), f"{tool} {a}"))
            k += 2
            continue
        if not a.startswith("-"):
            ops.append(a)
        k += 1
    effects.append(w.write_effect(w.env.norm(ops[0] if ops else "typescript", cwd), tool))
    return "write", None


#: socat address types that open a file by path (reads and writes through it)
_SOCAT_FILES = ("FILE:", "OPEN:", "GOPEN:", "CREATE:", "CREAT:", "PIPE:", "UNIX-CONNECT:", "UNIX-LISTEN:")
_SOCAT_EXEC = ("EXEC:", "SYSTEM:")


def _h_socat(w, tool, argv, cwd, stdin, effects, taints):
    """``socat ADDR ADDR``: data flows both ways, so a file address is read and written, ``EXEC:``/``SYSTEM:``
    addresses run their command; the network addresses go to the network checks."""
    for a in argv[1:]:
        if a.startswith("-"):
            continue
        up = a.upper()
        if up.startswith(_SOCAT_FILES):
            path = a.split(":", 1)[1].split(",", 1)[0]
            if path:
                ref = w.env.norm(path, cwd)
                w.check_state_secret(ref, path, tool)
                effects.append(w.write_effect(ref, tool))
        elif up.startswith(_SOCAT_EXEC):
            w.run_text(a.split(":", 1)[1].split(",", 1)[0].replace("\\,", ","), cwd, f"{tool} {up.split(':')[0]}", ";")
    return w.run_net(tool, argv, cwd, stdin, effects)


def _h_xmlstarlet(w, tool, argv, cwd, stdin, effects, taints):
    """``xmlstarlet ed -L|--inplace … FILE…``: the files (the trailing operands that are files on disk or protected
    paths) are rewritten in place."""
    import os

    args = argv[1:]
    if not args or args[0] not in ("ed", "edit") or not ({"-L", "--inplace"} & set(args)):
        return "read", None
    for a in reversed(args[1:]):
        if a.startswith("-"):
            break
        ref = w.env.norm(a, cwd)
        if not (w.env.protected(ref) or (ref.abs and os.path.isfile(ref.abs))):
            break
        effects.append(w.write_effect(ref, f"{tool} ed -L"))
    return "write", None


from .tools import SERVER_DIR_OPTS as _SERVER_DIR_OPTS  # noqa: E402


def _h_static_server(w, tool, argv, cwd, stdin, effects, taints):
    """A static web server (``busybox httpd``, ``http-server``, ``serve``…) hands every file under its directory
    to whoever connects: a read of that tree."""
    if tool == "caddy" and argv[1:2] != ["file-server"]:
        return "exec", None
    opts = _SERVER_DIR_OPTS.get(tool, ())
    d = next((argv[k + 1] for k, x in enumerate(argv[:-1]) if x in opts), None)
    if d is None:
        valued = {"-p", "--port", "-a", "--address", "-c", "-l", "--listen", "-P", "--proxy"}
        ops, k = [], 1
        while k < len(argv):
            x = argv[k]
            if x in valued:
                k += 2
                continue
            if not x.startswith("-") and tool not in ("httpd", "caddy"):
                ops.append(x)
            k += 1
        d = ops[0] if ops else "."
    w.dir_read(tool, [d], cwd)
    return "net", None


def _h_cpio(w, tool, argv, cwd, stdin, effects, taints):
    """``cpio -o``: archives the names it reads from stdin (``find . | cpio -o``): each listed name is read."""
    if not any(a in ("-o", "--create") or (a.startswith("-") and not a.startswith("--") and "o" in a)
               for a in argv[1:]):
        return "write", None
    names = stdin.names if stdin is not None and stdin.names else ()
    for n in names:
        base = n[:-len("/$(find)")] if n.endswith("/$(find)") else None  # every file under base
        if base is not None and w.dir_read("cpio -o", [base], cwd):
            break
        if w.check_state_secret(w.env.norm(n, cwd), n, "cpio -o"):
            break
    return "read", None


# commands handed to another runner: they run later or elsewhere, outside every hook ----------------------------
def _script_of(w, argv, stdin, cwd, file_opts=("-f",)) -> str | None:
    """The script a runner reads: ``-f FILE`` (a stream or a file on disk), else its stdin."""
    for k, a in enumerate(argv[:-1]):
        if a in file_opts:
            return _program_file(w, argv, k + 1, stdin, cwd)
    return stdin.text if stdin is not None else None


def _h_at(w, tool, argv, cwd, stdin, effects, taints):
    """``at TIME`` / ``batch``: the job (stdin or ``-f FILE``) is a shell script run later in this directory."""
    text = _script_of(w, argv, stdin, cwd)
    if text:
        w.run_text(text, cwd, f"{tool} job", ";")
    return "exec", None


_CRON_TIME = LazyRe(r"\s*(?:@\w+|(?:\S+\s+){4}\S+)\s+(.*)")


def _h_crontab(w, tool, argv, cwd, stdin, effects, taints):
    """``crontab FILE|-``: each entry's command is a shell command line run later, in a directory and environment
    not known now."""
    ops = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
    if any(a in ("-l", "-r", "-e") for a in argv[1:]) and not ops:
        return "exec", None
    text = None
    if not ops or ops[0] == "-":
        text = stdin.text if stdin is not None else None
    else:
        text = _program_file(w, [*ops], 0, stdin, cwd)
    for line in (text or "").splitlines():
        s = line.strip()
        if not s or s.startswith("#") or re.match(r"[A-Za-z_]\w*\s*=", s):
            continue
        m = _CRON_TIME.match(s)
        if m:
            w.run_text(m.group(1), None, f"{tool} entry", ";")  # later, from a directory not known now
    return "exec", None


#: tmux key names send-keys turns into keystrokes rather than text
_TMUX_KEYS = LazyRe(r"(?:Enter|C-[a-zA-Z]|M-[a-zA-Z]|Escape|Tab|Space|BSpace|KPEnter|Up|Down|Left|Right)")


def _h_tmux(w, tool, argv, cwd, stdin, effects, taints):
    """``tmux send-keys TEXT…`` types TEXT into a shell; ``new-session``/``new-window``/``split-window``/
    ``respawn-pane``/``run-shell CMD`` run CMD: each is a shell command line (in an unknown directory)."""
    args = argv[1:]
    k = 0
    while k < len(args) and args[k].startswith("-"):
        k += 2 if args[k] in ("-L", "-S", "-f") else 1
    if k >= len(args):
        return "exec", None
    sub, rest = args[k], args[k + 1:]
    valued = {"-t", "-s", "-n", "-c", "-x", "-y", "-F", "-e", "-N", "-l"}
    ops, j = [], 0
    while j < len(rest):
        a = rest[j]
        if a in valued:
            j += 2
            continue
        if not a.startswith("-") or a == "-":
            ops.append(a)
        j += 1
    if sub in ("send-keys", "send", "send-key"):
        text = " ".join(o for o in ops if not _TMUX_KEYS.fullmatch(o))
    elif sub in ("new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane",
                 "respawnp", "respawn-window", "run-shell", "run", "if-shell", "display-popup", "popup"):
        text = " ".join(ops)
    else:
        return "exec", None
    if text.strip():
        w.run_text(text, None, f"{tool} {sub}", ";")
    return "exec", None


def _h_screen(w, tool, argv, cwd, stdin, effects, taints):
    """``screen -X stuff TEXT`` types TEXT into a shell; ``screen [-dm] CMD…`` runs CMD."""
    args = argv[1:]
    if "-X" in args:
        rest = args[args.index("-X") + 1:]
        if rest[:1] == ["stuff"] and len(rest) > 1:
            w.run_text(rest[1].replace("\\n", "\n").replace("\\r", "\n").replace("^M", "\n"), None,
                       f"{tool} stuff", ";")
        return "exec", None
    k = 0
    while k < len(args) and args[k].startswith("-"):
        k += 2 if args[k] in ("-S", "-c", "-t", "-p", "-e", "-h", "-L", "-Logfile") else 1
    if k < len(args):
        w.dispatch(args[k:], [False] * (len(args) - k), [None] * (len(args) - k), cwd, f"{tool}", ";", None, [])
    return "exec", None


def _h_remote(w, tool, argv, cwd, stdin, effects, taints):
    """``ssh HOST CMD…``: CMD is a shell command line run on HOST, from the remote home directory (HOST may be
    this machine: an absolute path into the workspace reaches it). The network checks follow."""
    valued = set("bcDEeFIiJLlmOoPpQRSWw")
    args = argv[1:]
    k, host = 0, None
    while k < len(args):
        a = args[k]
        if a.startswith("-") and len(a) > 1:
            k += 2 if (len(a) == 2 and a[1] in valued) else 1
            continue
        host = a
        break
    if host is not None and k + 1 < len(args):
        w.run_text(" ".join(args[k + 1:]), None, f"{tool} {host}", ";")
    return w.run_net(tool, argv, cwd, stdin, effects)


#: container runner options that take a value
_CONTAINER_VALUED = frozenset({"-e", "--env", "--env-file", "--name", "-p", "--publish", "-w", "--workdir", "-u",
                               "--user", "--network", "--net", "--entrypoint", "-l", "--label", "-h", "--hostname",
                               "--platform", "--pull", "--cpus", "-m", "--memory", "--add-host", "--dns",
                               "--device", "--cap-add", "--cap-drop", "--security-opt", "--ulimit", "--log-driver",
                               "--restart", "--shm-size", "--tmpfs", "--ipc", "--pid", "--gpus", "--runtime"})


def _h_container(w, tool, argv, cwd, stdin, effects, taints):
    """``docker|podman run|create|exec … -v SRC:DST IMAGE CMD…``: CMD runs with SRC mounted at DST, so a path
    under DST in CMD is that path under SRC (``-v $PWD:/w … sh -c 'echo x >> /w/MEMORY.md'`` writes the
    workspace's MEMORY.md)."""
    args = argv[1:]
    if not args or args[0] not in ("run", "create", "exec", "container"):
        return "exec", None
    if args[0] == "container":
        args = args[1:]
        if not args or args[0] not in ("run", "create", "exec"):
            return "exec", None
    mounts: list[tuple[str, str]] = []
    k = 1
    while k < len(args):
        a = args[k]
        val = None
        if a in ("-v", "--volume", "--mount") and k + 1 < len(args):
            val, k = args[k + 1], k + 2
        elif a.startswith(("--volume=", "--mount=")):
            val, k = a.split("=", 1)[1], k + 1
        elif a in _CONTAINER_VALUED:
            k += 2
            continue
        elif a.startswith("-"):
            k += 1
            continue
        else:
            break
        if val is None:
            continue
        if "=" in val:  # --mount type=bind,source=SRC,target=DST
            parts = dict(p.split("=", 1) for p in val.split(",") if "=" in p)
            src, dst = parts.get("source") or parts.get("src"), parts.get("target") or parts.get("dst") \
                or parts.get("destination")
        else:
            bits = val.split(":")
            src, dst = (bits[0], bits[1]) if len(bits) >= 2 else (None, None)
        if src and dst and src.startswith((".", "/", "~", "$")):
            ref = w.env.norm(src, cwd)
            if ref.abs:
                mounts.append((dst.rstrip("/") or "/", ref.abs))
    cmd = args[k + (1 if args[0] != "exec" else 1):] if k < len(args) else []
    if not mounts or not cmd:
        return "exec", None

    def host(word: str) -> str:
        for dst, src in sorted(mounts, key=lambda m: -len(m[0])):
            word = re.sub(r"(?<![\w.-])" + re.escape(dst) + r"(?=/|$|[\s'\"])", lambda _m: src, word)
        return word

    mapped = [host(a) for a in cmd]
    w.dispatch(mapped, [False] * len(mapped), [None] * len(mapped), None, f"{tool} {args[0]}", ";", None, [])
    return "exec", None
