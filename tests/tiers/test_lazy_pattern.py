"""LazyRe, the one lazy-pattern type: a module-level pattern costs nothing until a line needs it, then behaves as
the ``re.Pattern`` it compiles to."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tiers.lazy import LazyRe

ROOT = Path(__file__).resolve().parents[2]


def test_a_pattern_is_not_compiled_until_it_is_first_used():
    broken = LazyRe("(unclosed")  # compiling it would raise: making it must not
    with pytest.raises(re.error):
        broken.search("text")


@pytest.mark.parametrize(("method", "args"), [
    ("search", ("a b42 c7",)), ("match", ("b42",)), ("fullmatch", ("b42",)), ("findall", ("a b42 c7",)),
    ("sub", ("#", "a b42 c7")), ("subn", ("#", "a b42 c7")), ("split", ("a b42 c7",)),
], ids=lambda x: x if isinstance(x, str) else None)
def test_every_method_answers_as_the_compiled_pattern_does(method, args):
    lazy, real = LazyRe(r"([a-z])(\d+)", re.I), re.compile(r"([a-z])(\d+)", re.I)
    got, want = getattr(lazy, method)(*args), getattr(real, method)(*args)
    if isinstance(want, re.Match):
        assert got.group(0, 1, 2) == want.group(0, 1, 2)
    else:
        assert got == want
    assert [m.span() for m in lazy.finditer("x1 y22")] == [m.span() for m in real.finditer("x1 y22")]


def test_the_pattern_attributes_are_those_of_the_compiled_pattern():
    lazy = LazyRe(r"(?P<word>\w+)-(\d)")
    assert (lazy.pattern, lazy.groups, lazy.groupindex["word"]) == (r"(?P<word>\w+)-(\d)", 2, 1)
    assert lazy.on() is lazy.on()  # compiled once
    with pytest.raises(AttributeError):
        lazy.no_such_attribute  # noqa: B018


def test_expand_rewrites_the_source_only_when_it_is_compiled():
    seen: list[str] = []

    def expand(source: str) -> str:
        seen.append(source)
        return source.replace("LETTER", "[a-z]")

    lazy = LazyRe("LETTER+", expand=expand)
    assert seen == []
    assert lazy.fullmatch("abc") is not None and lazy.fullmatch("ab1") is None
    assert seen == ["LETTER+"]


def test_bytes_patterns_work_too():
    assert LazyRe(rb"cu:[A-Z]").search(b"<!--cu:H-->").group() == b"cu:H"


def test_importing_the_lazy_module_does_not_import_re():
    """``tiers`` is imported by the hook's forwarding client, which must not pay for the regex engine."""
    code = f"import sys\nsys.path.append({str(ROOT)!r})\nimport tiers.lazy\nprint('re' in sys.modules)\n"
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "False"
