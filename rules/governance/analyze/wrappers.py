"""Wrappers looked through to the command they run: sudo, env, timeout, nohup, nice, command, exec, xargs,
watch, flock, eval, runners and busybox.
"""

from __future__ import annotations

from ..canon import tool_name
from ..invariants.no_ide_socket_access import ide_assignment
from .words import _skip_opts

def _w_sudo(w: Walker, argv, cwd):
    tool = tool_name(argv[0])
    if argv[0].rsplit("/", 1)[-1] == "sudoedit" or "-e" in argv[1:2]:
        return ("sudo", ["tee"] + [a for a in argv[1:] if not a.startswith("-")], None)
    valued = {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U", "--user", "--group", "--chdir", "--host",
              "--prompt", "--role", "--type", "--close-from", "--other-user", "--command-timeout"}
    if tool == "su":
        for j, a in enumerate(argv):
            if a in ("-c", "--command") and j + 1 < len(argv):
                return ("sudo", ["sh", "-c", argv[j + 1]], None)
        return ("sudo", ["sh"], None)
    i = _skip_opts(argv, valued)
    rest = argv[i:]
    if not rest and any(a in ("-s", "-i", "--shell", "--login") for a in argv[1:]):
        rest = ["sh"]
    return ("sudo", rest, None)


def _split_string(text: str) -> list[str]:
    """``env -S`` splitting: words with the shell's quoting and backslashes (an unbalanced quote: blanks only)."""
    import shlex

    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _w_env(w: Walker, argv, cwd):
    i = 1
    new_cwd = cwd
    while i < len(argv):
        a = argv[i]
        if a in ("-u", "--unset"):
            i += 2
            continue
        if a in ("-C", "--chdir"):
            new_cwd = w.env.cd(cwd, argv[i + 1] if i + 1 < len(argv) else None)
            i += 2
            continue
        if a.startswith("--chdir="):
            new_cwd = w.env.cd(cwd, a.split("=", 1)[1])
            i += 1
            continue
        if a.startswith("--split-string"):
            text = a.split("=", 1)[1] if "=" in a else (argv[i + 1] if i + 1 < len(argv) else "")
            return ("wrap", _split_string(text) + argv[i + (1 if "=" in a else 2):], None)
        if a.startswith("-") and not a.startswith("--") and "S" in a:
            # -S STRING, -S"STRING", or a cluster such as -iS: what follows S (or the next word) is a command line
            # env splits as the shell splits words (quotes and backslashes), so its own script is walked
            body = a[1:a.index("S")]
            if all(c in "i0v" for c in body):
                glued = a[a.index("S") + 1:]
                text = glued if glued else (argv[i + 1] if i + 1 < len(argv) else "")
                return ("wrap", _split_string(text) + argv[i + (1 if glued else 2):], None)
        if a == "--":
            i += 1
            break
        if a.startswith("-"):
            i += 1
            continue
        if "=" in a and not a.startswith("="):
            name, _, value = a.partition("=")
            w.report(ide_assignment(name, value, "env", segment=w.at))
            if name.startswith("GIT_") or name in ("EDITOR", "VISUAL", "PAGER"):
                w.git_env = w.git_env or name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
                                                  "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES")
                w.git_vars[name] = value  # `env GIT_PAGER=… git …`: judged by the git handler
            i += 1
            continue
        break
    rest = argv[i:]
    if new_cwd != cwd:
        return ("cwd", rest, new_cwd)
    return ("wrap", rest, None)


def _w_simple(valued: set[str], positional: int = 0):
    def handler(w: Walker, argv, cwd):
        i = _skip_opts(argv, valued)
        i += positional
        return ("wrap", argv[i:], None)
    return handler


def _w_command(w: Walker, argv, cwd):
    if any(a in ("-v", "-V") for a in argv[1:2]):
        return None
    i = _skip_opts(argv, set())
    return ("wrap", argv[i:], None)


def _w_xargs(w: Walker, argv, cwd):
    valued = {"-I", "-n", "-L", "-P", "-d", "-E", "-s", "-a", "--max-args", "--max-lines", "--max-procs",
              "--delimiter", "--arg-file", "--eof", "--replace", "--process-slot-var"}
    i = 1
    repl = None
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-"):
            break
        if a == "-I" and i + 1 < len(argv):
            repl = argv[i + 1]
            i += 2
            continue
        if a.startswith("-I") and len(a) > 2:
            repl = a[2:]
        elif a.startswith("-i"):
            repl = a[2:] or "{}"
        elif a.startswith("--replace"):
            repl = a.split("=", 1)[1] if "=" in a else "{}"
        if a.split("=", 1)[0] in valued and "=" not in a and not (len(a) > 2 and not a.startswith("--")):
            i += 2
            continue
        i += 1
    rest = argv[i:] or ["echo"]
    if repl:
        rest = [a.replace(repl, "\x00R") for a in rest]
    return ("stdin-args", rest, bool(repl))


def _w_watch(w: Walker, argv, cwd):
    i = _skip_opts(argv, {"-n", "--interval", "-d", "--differences", "-q", "--equexit"})
    rest = argv[i:]
    if not rest:
        return None
    return ("shell", [" ".join(rest)], None)


def _w_flock(w: Walker, argv, cwd):
    for j, a in enumerate(argv):
        if a in ("-c", "--command") and j + 1 < len(argv):
            return ("shell", [argv[j + 1]], j + 1)
    i = _skip_opts(argv, {"-w", "--timeout", "-E", "--conflict-exit-code"})
    return ("wrap", argv[i + 1:], None)


def _w_eval(w: Walker, argv, cwd):
    return ("shell", [" ".join(argv[1:])], 1)


def _w_runner(sub: str, valued: set[str] = frozenset()):
    """``uv run CMD``, ``poetry run CMD``, ``bundle exec CMD``…: the command after the subcommand runs."""
    def handler(w: Walker, argv, cwd):
        if len(argv) < 3 or argv[1] != sub:
            return None
        i = _skip_opts(argv, set(valued), start=2)
        return ("wrap", argv[i:], None) if i < len(argv) else None
    return handler


def _w_busybox(w: Walker, argv, cwd):
    return ("wrap", argv[1:], None) if len(argv) > 1 else None


_WRAPPERS = {
    "sudo": _w_sudo, "su": _w_sudo, "pkexec": _w_sudo, "run0": _w_sudo, "runuser": _w_sudo,
    "env": _w_env,
    "timeout": _w_simple({"-k", "-s", "--kill-after", "--signal"}, positional=1),
    "nohup": _w_simple(set()),
    "nice": _w_simple({"-n", "--adjustment"}),
    "ionice": _w_simple({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"}),
    "stdbuf": _w_simple({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "time": _w_simple({"-f", "-o", "--format", "--output"}),
    "command": _w_command, "builtin": _w_simple(set()), "exec": _w_simple({"-a"}),
    "setsid": _w_simple(set()), "chronic": _w_simple(set()), "unbuffer": _w_simple(set()),
    "caffeinate": _w_simple({"-t", "-w"}), "torsocks": _w_simple(set()), "proxychains": _w_simple({"-f"}),
    "proxychains4": _w_simple({"-f"}), "xvfb-run": _w_simple({"-s", "-n", "-e", "-f", "-p"}),
    "dbus-run-session": _w_simple(set()), "catchsegv": _w_simple(set()),
    "strace": _w_simple({"-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-S", "-X", "-P"}),
    "ltrace": _w_simple({"-o", "-e", "-p", "-s", "-u", "-n", "-a"}),
    "valgrind": _w_simple(set()), "chroot": _w_simple({"--userspec", "--groups"}, positional=1),
    "xargs": _w_xargs, "watch": _w_watch, "flock": _w_flock, "eval": _w_eval,
    "uv": _w_runner("run", {"--with", "--python", "-p", "--project", "--directory"}),
    "poetry": _w_runner("run"), "pipenv": _w_runner("run"), "bundle": _w_runner("exec"),
    "pnpm": _w_runner("exec"), "conda": _w_runner("run", {"-n", "--name", "-p", "--prefix"}),
    "systemd-run": _w_simple({"-p", "--property", "-u", "--unit", "-E", "--setenv", "--description", "-M",
                              "--machine", "--slice", "--on-calendar", "--on-active", "--on-boot", "--timer-property",
                              "-H", "--host", "--working-directory", "--uid", "--gid", "--nice"}),
    "busybox": _w_busybox, "doas": _w_sudo, "rtk": _w_simple(set()),
}
