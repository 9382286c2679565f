"""SQL clients: the statements a command sends (arguments, ``-c``/``-e``, files, stdin), typed by their kind; the kind
and what counts as destructive are decided by ``invariants/no_destructive_sql.py``.
"""

from __future__ import annotations

import re

from tiers.lazy import LazyRe

from ..invariants.no_destructive_sql import destructive, sql_kind
from .model import RANK, Effect
from .words import _short


def run_sql(self, tool, argv, cwd, stdin, effects):
    texts: list[str] = []
    args = argv[1:]
    i = 0
    positional: list[str] = []
    flag_map = {"psql": ("-c", "--command"), "mysql": ("-e", "--execute"), "duckdb": ("-c", "-cmd"),
                "sqlite3": ("-cmd",), "sqlcmd": ("-Q", "-q"), "clickhouse-client": ("-q", "--query"),
                "cockroach": ("-e", "--execute"), "mysqlsh": ("-e", "--execute", "--sql"),
                "pgcli": ("-c",), "mycli": ("-e", "--execute"), "litecli": ("-e",), "usql": ("-c", "--command"),
                "snowsql": ("-q", "--query"), "bq": ("query",)}
    flags = flag_map.get(tool, ("-c", "-e"))
    valued = {"-h", "-U", "-d", "-u", "-P", "-D", "-S", "-f", "-o", "-v", "--host", "--port", "--user",
              "--username", "--dbname", "--database", "-F", "-R", "-T", "-L", "-i", "--file", "--set"}
    if tool not in ("mysql", "mysqlsh", "mycli"):
        valued.add("-p")  # psql -p PORT; mysql -p prompts (or -pSECRET, attached)
    while i < len(args):
        a = args[i]
        if a in flags:
            if i + 1 < len(args):
                texts.append(args[i + 1])
            i += 2
            continue
        hit = next((f for f in flags if f.startswith("--") and a.startswith(f + "=")), None)
        if hit:
            texts.append(a.split("=", 1)[1])
            i += 1
            continue
        if len(a) > 2 and a[:2] in flags and not a.startswith("--"):
            texts.append(a[2:])
            i += 1
            continue
        if a in valued:
            i += 2
            continue
        if a.startswith("-"):
            i += 1
            continue
        positional.append(a)
        i += 1
    if tool in ("sqlite3", "duckdb") and len(positional) > 1:
        texts.extend(positional[1:])
    if not texts and stdin is not None and stdin.text:
        texts.append(stdin.text)
    if not texts:
        return "exec", None
    typ = "read"
    if tool in _SQLITE_LIKE and _file_effects(self, tool, texts, cwd, effects):
        typ = "write"
    for t in texts:
        kind = sql_kind(t)
        if kind == "destructive":
            self.report(destructive(tool, _short(t), segment=self.at))
            typ = "dangerous"
        elif kind == "write" and RANK[typ] < RANK["write"]:
            typ = "write"
        elif kind == "exec" and RANK[typ] < RANK["exec"]:
            typ = "exec"
    return typ, None


#: clients with the sqlite3 shell's dot-commands and file functions
_SQLITE_LIKE = frozenset({"sqlite3", "duckdb", "litecli"})
#: dot-commands that write the file they name (the last word: ``.backup main FILE``) and that read it
_DOT_WRITES = frozenset({".output", ".once", ".backup", ".save", ".log", ".clone", ".excel"})
_DOT_READS = frozenset({".read", ".import", ".open", ".restore", ".load", ".cd"})
_DOT_SHELL = frozenset({".shell", ".system"})
#: SQL that writes (``writefile(NAME, …)``, ``VACUUM INTO NAME``, ``ATTACH NAME``) or reads (``readfile(NAME)``)
#: a file
_SQL_WRITES = LazyRe(r"\b(?:writefile\s*\(|vacuum\s+(?:\w+\s+)?into|attach(?:\s+database)?)\s*'((?:[^']|'')*)'", re.I)
_SQL_READS = LazyRe(r"\b(?:readfile|read_text|read_blob|read_csv\w*|read_json\w*|read_parquet)\s*\(\s*"
                    r"'((?:[^']|'')*)'", re.I)


def _file_effects(self, tool, texts, cwd, effects) -> bool:
    """The files a sqlite3-style client's dot-commands and SQL functions read and write, and the commands its
    ``.shell``/``.system``/``.output |cmd`` run: the same effects as a shell command would have (a write is judged
    by the invariant that owns the path, a read of the key is denied). True when something is written."""
    import shlex

    wrote = False
    self.cwd_hint = cwd
    for text in texts:
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("."):
                try:
                    words = shlex.split(line)
                except ValueError:
                    words = line.split()
                if not words:
                    continue
                cmd, rest = words[0].lower(), [w for w in words[1:] if not w.startswith("-")]
                if cmd in _DOT_SHELL:
                    self.run_text(line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else "", cwd,
                                  f"{tool} {cmd}", ";")
                elif cmd in _DOT_WRITES and rest:
                    if rest[0].startswith("|"):
                        self.run_text(" ".join(rest)[1:], cwd, f"{tool} {cmd} |", ";")
                    else:
                        effects.append(self.write_effect(self.env.norm(rest[-1], cwd), f"{tool} {cmd}"))
                        wrote = True
                elif cmd in _DOT_READS and rest:
                    target = rest[-1] if cmd == ".restore" else rest[0]
                    ref = self.env.norm(target, cwd)
                    effects.append(Effect("read", ref.display, "path"))
                    self.check_state_secret(ref, target, f"{tool} {cmd}")
                continue
            for m in _SQL_WRITES.finditer(line):
                effects.append(self.write_effect(self.env.norm(m.group(1).replace("''", "'"), cwd), f"{tool} SQL"))
                wrote = True
            for m in _SQL_READS.finditer(line):
                name = m.group(1).replace("''", "'")
                ref = self.env.norm(name, cwd)
                effects.append(Effect("read", ref.display, "path"))
                self.check_state_secret(ref, name, f"{tool} SQL")
    return wrote
