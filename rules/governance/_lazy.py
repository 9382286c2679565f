"""Regexes compiled on first use: each hook call is a fresh process, and most commands never need most patterns."""

from __future__ import annotations

import re


#: the pattern's methods a LazyRe keeps in its own slots once compiled (read without a __getattr__ call)
_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyRe:
    """A ``re.Pattern`` stand-in that compiles itself the first time a method is used."""

    __slots__ = ("_args", "_re", *_METHODS)

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags)
        self._re: re.Pattern[str] | None = None

    def __getattr__(self, name: str):
        # called only for a name without a value: before the first use, or an attribute the slots do not hold
        if self._re is None:
            self._re = re.compile(*self._args)
            for method in _METHODS:
                setattr(self, method, getattr(self._re, method))
        return getattr(self._re, name)
