"""Programs that replace the files they are given: a compressor deletes each file and creates its compressed copy
(a decompressor creates the file with the suffix dropped), so ``gzip MEMORY.md`` and ``gunzip memory/old.md.gz``
write memory; a program not otherwise known that is given an option naming an in-place rewrite (``--write``, ``-w``,
``--fix``, ``--in-place``…) writes each path it is handed, and any file below a directory it is handed. Keeping the
input, writing to standard output, listing and testing write nothing; so do the same programs on other files.
Converters of a file's text (``dos2unix``, ``recode``) rewrite it in place; ``iconv -o F`` writes F; ``unison``
writes below both roots it syncs."""

from __future__ import annotations

import pytest

from command_rows import assert_decision, params, sample_workspace
from tiers.workspace import Workspace

ROWS = [  # (id, expect, command, finding)
    ("gzip-memory", "deny", "gzip MEMORY.md", None),
    ("bzip2-user", "deny", "bzip2 USER.md", None),
    ("xz-bundled-flags", "deny", "xz -9v memory/2026-11-28.md", None),
    ("gunzip-into-memory", "deny", "gunzip memory/old.md.gz", None),
    ("gunzip-keep-still-creates", "deny", "gunzip -k memory/old.md.gz", None),
    ("gzip-d-into-user", "deny", "gzip -d USER.md.gz", None),
    ("zstd-rm", "deny", "zstd --rm MEMORY.md", None),
    ("zstd-decompress-into-memory", "deny", "zstd -d memory/x.md.zst", None),
    ("gzip-keep", "allow", "gzip -k MEMORY.md", None),
    ("gzip-keep-bundled", "allow", "gzip -kv MEMORY.md", None),
    ("gzip-stdout", "allow", "gzip -c MEMORY.md > /tmp/memory.md.gz", None),
    ("gunzip-stdout", "allow", "gunzip -c memory/old.md.gz", None),
    ("gzip-list", "allow", "gzip -l memory/old.md.gz", None),
    ("zstd-keeps-by-default", "allow", "zstd MEMORY.md", None),
    ("gzip-other-file", "allow", "gzip notes.txt", None),
    ("gunzip-elsewhere", "allow", "gunzip /tmp/x.gz", None),
    ("prettier-write-memory", "deny", "npx prettier --write MEMORY.md", None),
    ("formatter-w-user", "deny", "mdfmt -w USER.md", None),
    ("fixer-fix-memory", "deny", "markdownlint-cli2 --fix memory/2026-11-28.md", None),
    ("prettier-check-memory", "allow", "npx prettier --check MEMORY.md", None),
    ("gofmt-w-source", "allow", "gofmt -w main.go", None),
    ("eslint-fix-source", "allow", "npx eslint --fix src/app.js", None),
    ("prettier-write-workspace", "deny", "npx prettier --write .", None),
    ("prettier-write-memory-dir", "deny", "npx prettier --write memory/", None),
    ("eslint-fix-source-dir", "allow", "npx eslint --fix src", None),
    # converters of a file's text rewrite it in place, or write their -o file
    ("dos2unix-memory", "deny", "dos2unix MEMORY.md", None),
    ("dos2unix-new-file-into-memory", "deny", "dos2unix -n /tmp/a.md memory/a.md", None),
    ("iconv-output-memory", "deny", "iconv -f utf8 -t ascii MEMORY.md -o MEMORY.md", None),
    ("iconv-output-equals-user", "deny", "iconv --output=USER.md -t ascii /tmp/x", None),
    ("recode-user", "deny", "recode latin1..utf8 USER.md", None),
    ("iconv-reads-memory", "allow", "iconv -f utf8 -t ascii MEMORY.md", None),
    ("iconv-output-elsewhere", "allow", "iconv -f latin1 -t utf8 -o/tmp/o.txt MEMORY.md", None),
    ("unix2dos-other-file", "allow", "unix2dos notes.txt", None),
    # a two-way sync writes below both of its local roots; a profile alone names roots nobody can see
    ("unison-into-workspace", "deny", "unison /tmp/a . -batch", None),
    ("unison-profile", "deny", "unison myprofile", None),
    ("unison-elsewhere", "allow", "unison /tmp/a /tmp/b -batch", None),
]


@pytest.fixture
def ws(tmp_path) -> Workspace:
    return Workspace(sample_workspace(tmp_path / "ws"))


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_programs_that_replace_their_files(ws: Workspace, expect: str, command: str):
    assert_decision(ws, expect, command)
