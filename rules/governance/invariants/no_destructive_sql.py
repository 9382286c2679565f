"""no-destructive-sql: DROP, TRUNCATE, DELETE or UPDATE without WHERE.

## What it denies
Reads the SQL a client runs (`psql -c`, `mysql -e`, `sqlite3 DB 'SQL'`, stdin, interpreter strings) and denies
`DROP`, `TRUNCATE` and `DELETE`/`UPDATE` with no `WHERE`.

## Why
Those statements lose data in one step; a `WHERE` clause shows the agent meant a subset.

## Example
```sh
sqlite3 data/app.db 'DELETE FROM sessions;'                          # denied
sqlite3 data/app.db "DELETE FROM sessions WHERE expires_at < 1700000000"  # allowed
```

## How it is checked
`sql_kind` below decides a piece of SQL text on its own. Finding the text is the walker's part, because it needs
the walking state: a SQL client's arguments, `-c`/`-e`/`--command` values, the files it reads and the literal text
piped into it (`rules/governance/analyze/sql.py`), and SQL strings in interpreter code
(`rules/governance/analyze/interp.py`).
"""

from __future__ import annotations

import re

from tiers.lazy import LazyRe

from . import Invariant, Violation

INVARIANT = Invariant("no-destructive-sql", "DROP, TRUNCATE, DELETE or UPDATE without WHERE", __doc__)


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


def destructive_reason(who: str, statement: str) -> str:
    """The deny reason for ``who`` (``psql``, ``python code``…) running a destructive ``statement`` (shortened)."""
    return (f"{who} runs destructive SQL ({statement}); DROP, TRUNCATE and DELETE/UPDATE without WHERE lose data. "
            "Add a WHERE clause or ask the user")


def destructive(who: str, statement: str, segment: int = -1) -> Violation:
    """``who`` runs ``statement`` (shortened), which ``sql_kind`` finds destructive."""
    return Violation(INVARIANT.id, destructive_reason(who, statement), segment)


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
