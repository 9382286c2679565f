"""The memory model: Markdown lines, stamps, lexicon, classification, provenance, arbitration, GC, sessions.

Public names are resolved lazily (PEP 562) so that importing ``tiers`` costs almost nothing on the hook path;
each entry of ``_EXPORTS`` maps a public name to the submodule that defines it.
"""

from __future__ import annotations

from .lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "Arbitration": "arbitrate",
    "Classification": "model",
    "ConfigError": "errors",
    "Conflict": "arbitrate",
    "Constraint": "arbitrate",
    "ConstraintIndex": "arbitrate",
    "CuticleError": "errors",
    "Document": "markdown",
    "GcReport": "gc",
    "Line": "markdown",
    "ParseError": "errors",
    "PluginError": "errors",
    "Secret": "secrets",
    "Stamp": "stamps",
    "StampError": "errors",
    "Tier": "model",
    "UsageError": "errors",
    "Workspace": "workspace",
    "WorkspaceError": "errors",
    "analyze": "concepts",
    "append_jsonl": "fsutil",
    "apply_stamp": "stamps",
    "atomic_write": "fsutil",
    "classify_with_provenance": "provenance",
    "collect": "gc",
    "conflict_error": "arbitrate",
    "current_prompt": "provenance",
    "current_session": "session",
    "end_session": "session",
    "file_lock": "fsutil",
    "find_secrets": "secrets",
    "find_workspace": "workspace",
    "glob_match": "workspace",
    "hypothesis_ttl": "gc",
    "load_judge": "judge",
    "make_stamp": "stamps",
    "mark_state": "gc",
    "mask_json": "secrets",
    "mask_secrets": "secrets",
    "memory_lines": "markdown",
    "needs_mask": "secrets",
    "normalize": "text",
    "parse_document": "markdown",
    "parse_stamp": "stamps",
    "read_bytes_checked": "fsutil",
    "read_jsonl": "fsutil",
    "record_prompt": "provenance",
    "render_stamp": "stamps",
    "restore": "gc",
    "secret_values": "secrets",
    "split_stamp": "stamps",
    "start_session": "session",
    "strip_markup": "text",
    "verify_stamp": "stamps",
    "words": "text",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
