"""SQL text given to a client is split into statements at semicolons outside quotes."""

from __future__ import annotations

import pytest

from rules.governance.invariants.no_destructive_sql import _split_sql

SQL = [
    ('', []),
    ('a', ['a']),
    ('a;b', ['a', 'b']),
    ('DELETE FROM t; SELECT 1', ['DELETE FROM t', ' SELECT 1']),
    ("x'y;z'; w", ["x'y;z'", ' w']),
    ('"a;b";c', ['"a;b"', 'c']),
    ('a;;b', ['a', '', 'b']),
    ('a; ', ['a']),
    (';', ['']),
    ('--c\n; x', ['--c\n', ' x']),
    ("'unclosed;", ["'unclosed;"]),
]


@pytest.mark.parametrize("text, statements", SQL, ids=[repr(t) for t, _ in SQL])
def test_sql_splits_at_semicolons_outside_quotes(text, statements):
    assert _split_sql(text) == statements
