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
"""

from __future__ import annotations

from . import Invariant

INVARIANT = Invariant("no-destructive-sql", "DROP, TRUNCATE, DELETE or UPDATE without WHERE", __doc__)
