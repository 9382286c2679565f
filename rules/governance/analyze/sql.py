"""SQL clients: the statements a command sends (arguments, ``-c``/``-e``, files, stdin), typed by their kind; the kind
and what counts as destructive are decided by ``invariants/no_destructive_sql.py``.
"""

from __future__ import annotations

from ..invariants.no_destructive_sql import destructive, sql_kind
from .model import RANK
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
