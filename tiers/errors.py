"""The one exception tree of cuticle: every error a user can meet, each also a fitting builtin."""

from __future__ import annotations


class CuticleError(Exception):
    """Base of every error cuticle raises on purpose. Findings and blocks are results, not errors."""

    exit_code = 2


class UsageError(CuticleError, ValueError):
    """The command line or an API call was given arguments that do not fit."""


class ConfigError(CuticleError, ValueError):
    """A configuration or policy file is invalid; the message names the file and the line."""


class ParseError(CuticleError, ValueError):
    """Input (Markdown, JSON, a patch, a hook payload) could not be parsed."""


class StampError(ParseError):
    """An inline stamp is malformed."""


class PluginError(CuticleError, RuntimeError):
    """A plugin could not be loaded or misbehaved."""


class WorkspaceError(CuticleError, OSError):
    """A path is outside the workspace, unreadable, binary or too large to handle safely."""
