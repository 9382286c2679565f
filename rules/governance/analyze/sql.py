"""SQL clients: the statements a command sends, their kind, and destructive ones (decides no-destructive-sql).
"""

from __future__ import annotations

import re

from .._lazy import LazyRe
from .model import RANK
from .words import _short

# SQL -------------------------------------------------------------------------------------------------
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
            self.violate("no-destructive-sql", f"{tool} runs destructive SQL ({_short(t)}); DROP, TRUNCATE "
                         "and DELETE/UPDATE without WHERE lose data. Add a WHERE clause or ask the user")
            typ = "dangerous"
        elif kind == "write" and RANK[typ] < RANK["write"]:
            typ = "write"
        elif kind == "exec" and RANK[typ] < RANK["exec"]:
            typ = "exec"
    return typ, None
_SQL_WHERE = LazyRe(r"\bWHERE\b")
_SQL_ALTER_DROP = LazyRe(r"\bDROP\s+(COLUMN|TABLE|CONSTRAINT|SCHEMA|DATABASE)\b")
_SQL_WITH_WRITE = LazyRe(r"\)\s*(DELETE|UPDATE)\b")


_SQL_STMT = LazyRe(r"^\s*(?:--[^\n]*\n\s*)*([A-Za-z\\]+)", re.S)


def sql_kind(text: str) -> str | None:
    """``destructive``, ``write``, ``read``, ``exec`` or None (not SQL) for a piece of SQL text."""
    if not text or len(text) > 100_000:
        return None
    result = None
    order = {"read": 0, "exec": 1, "write": 2, "destructive": 3}
    for stmt in _split_sql(text):
        m = _SQL_STMT.match(stmt)
        if not m:
            continue
        kw = m.group(1).upper()
        s = " ".join(stmt.upper().split())
        kind = None
        if kw in ("DROP", "TRUNCATE"):
            kind = "destructive"
        elif kw == "DELETE":
            kind = "write" if _SQL_WHERE.search(s) else "destructive"
        elif kw == "UPDATE":
            kind = "write" if _SQL_WHERE.search(s) or " SET " not in f" {s} " else "destructive"
            if " SET " not in f" {s} ":
                kind = None
        elif kw == "ALTER":
            kind = "destructive" if _SQL_ALTER_DROP.search(s) else "write"
        elif kw in ("INSERT", "CREATE", "REPLACE", "UPSERT", "MERGE", "GRANT", "REVOKE", "COPY", "VACUUM", "REINDEX",
                    "RENAME", "ATTACH", "DETACH", "LOAD", "IMPORT", "COMMENT"):
            kind = "write"
        elif kw in ("SELECT", "WITH", "EXPLAIN", "SHOW", "DESCRIBE", "DESC", "PRAGMA", "VALUES", "TABLE", "\\D",
                    "\\DT", "\\L", "\\DN", "\\DF", "\\DI", "\\DU", "\\CONNINFO", ".TABLES", ".SCHEMA"):
            kind = "read"
            if kw == "WITH" and _SQL_WITH_WRITE.search(s):
                kind = "write" if "WHERE" in s else "destructive"
        elif kw.startswith("\\") or kw in ("BEGIN", "COMMIT", "ROLLBACK", "SET", "USE", "START", "END", "SAVEPOINT"):
            kind = "read"
        if kind and (result is None or order[kind] > order[result]):
            result = kind
    return result


_SQL_RUN = LazyRe(r"[^'\";]+")


def _split_sql(text: str) -> list[str]:
    """Statements split at ``;`` outside quotes (runs of other characters taken whole, not one by one)."""
    out: list[str] = []
    buf: list[str] = []
    quote = ""
    i, n = 0, len(text)
    run = _SQL_RUN.match
    while i < n:
        if quote:  # inside a quote: up to and including its closing quote
            j = text.find(quote, i)
            if j < 0:
                buf.append(text[i:])
                break
            buf.append(text[i:j + 1])
            quote = ""
            i = j + 1
            continue
        m = run(text, i)
        if m is not None:
            buf.append(m.group())
            i = m.end()
            continue
        ch = text[i]
        i += 1
        if ch == ";":
            out.append("".join(buf))
            buf = []
        else:  # ' or "
            quote = ch
            buf.append(ch)
    if "".join(buf).strip():
        out.append("".join(buf))
    return out
