"""Regexes compiled on first use: each hook call is a fresh process, and most commands never need most patterns."""

from __future__ import annotations

import re


class LazyRe:
    """A ``re.Pattern`` stand-in that compiles itself the first time a method is used."""

    __slots__ = ("_args", "_re")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags)
        self._re: re.Pattern[str] | None = None

    def __getattr__(self, name: str):
        if self._re is None:
            self._re = re.compile(*self._args)
        return getattr(self._re, name)
