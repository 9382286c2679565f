"""Rendering lint results: text, JSON, SARIF 2.1.0 and GitHub Actions workflow commands.

Every format is built from ``Finding.to_json()`` and masks secrets again on the way out, so no output repeats
a secret even if a third-party rule put one in a message.
"""

from __future__ import annotations

import json
from typing import Any

FORMATS = ("text", "json", "sarif", "github")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def render(result: Any, fmt: str = "text", *, rules: Any = None, version: str = "0.1.0", summary: bool = True,
           color: bool = False) -> str:
    """The whole report for ``result`` (a LintResult) in one of FORMATS, ending with a newline (or empty).

    ``summary`` and ``color`` apply to the text format: the closing count line, and ANSI colours for a terminal."""
    if fmt == "text":
        return render_text(result, summary=summary, color=color)
    if fmt == "json":
        return json.dumps(result_json(result), ensure_ascii=False, indent=2) + "\n"
    if fmt == "sarif":
        return json.dumps(sarif(result, rules=rules, version=version), ensure_ascii=False, indent=2) + "\n"
    if fmt == "github":
        return render_github(result)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def result_json(result: Any) -> dict[str, Any]:
    from tiers.secrets import mask_secrets

    out = result.to_json()
    for f in out["findings"]:
        f["message"] = mask_secrets(f["message"])
    return out


_SEVERITY_COLOR = {"error": "31", "warning": "33", "info": "36"}


def render_text(result: Any, *, summary: bool = True, color: bool = False) -> str:
    from tiers.secrets import mask_secrets

    def sgr(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if color else text

    lines = []
    for f in result.findings:
        fix = " [*]" if f.fix is not None and f.fix.applicability.value == "safe" else (
            " [unsafe fix]" if f.fix is not None else "")
        # messages already start with "path:line:"; keep one location prefix
        message = f.message
        prefix = f"{f.path}:{f.line}:"
        if message.startswith(prefix):
            message = message[len(prefix):].lstrip()
            col_prefix = f"{f.column}:"
            if message.startswith(col_prefix):
                message = message[len(col_prefix):].lstrip()
        where = sgr(f"{f.path}:{f.line}:{f.column}:", "1")
        what = sgr(f"{f.code} [{f.severity.value}]", _SEVERITY_COLOR[f.severity.value])
        lines.append(f"{where} {what} {mask_secrets(message)} {sgr(f'({f.name})', '2')}{fix}")
    if not summary:
        return "".join(line + "\n" for line in lines)
    s = result.summary()
    if s["findings"]:
        fixable = sum(1 for f in result.findings if f.fix is not None and f.fix.applicability.value == "safe")
        tail = f"; {fixable} fixable with --fix" if fixable else ""
        fixed = f"; fixed {s['fixed']}" if s.get("fixed") else ""
        lines.append(f"Found {s['findings']} problem(s) in {s['files']} file(s): {s['errors']} error(s), "
                     f"{s['warnings']} warning(s), {s['info']} info{tail}{fixed}.")
    else:
        fixed = f" (fixed {s['fixed']})" if s.get("fixed") else ""
        lines.append(f"All checks passed: {s['files']} file(s){fixed}.")
    return "\n".join(lines) + "\n"


def _gh_escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_prop(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def render_github(result: Any) -> str:
    """GitHub Actions workflow commands (``::error file=…,line=…::message``), one per finding."""
    from tiers.secrets import mask_secrets

    cmd = {"error": "error", "warning": "warning", "info": "notice"}
    out = []
    for f in result.findings:
        props = (f"file={_gh_escape_prop(f.path)},line={f.line},col={f.column},"
                 f"title={_gh_escape_prop(f'{f.code} {f.name}')}")
        out.append(f"::{cmd[f.severity.value]} {props}::{_gh_escape_data(mask_secrets(f.message))}")
    return "\n".join(out) + ("\n" if out else "")


def _rule_descriptor(rule: Any) -> dict[str, Any]:
    from tiers.secrets import mask_secrets

    docs = mask_secrets(rule.docs or rule.summary)
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.summary},
        "help": {"text": docs, "markdown": docs},
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity.value]},
        "properties": {"tags": ["security"] if rule.security else [], "fix": rule.fix.value if rule.fix else "none"},
    }


def sarif(result: Any, *, rules: Any = None, version: str = "0.1.0") -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run; partial fingerprints come from normalized line content."""
    from tiers.secrets import mask_secrets

    from .model import INTERNAL_RULES

    known = {r.code: r for r in (rules if rules is not None else result.rules)}
    for r in INTERNAL_RULES:
        known.setdefault(r.code, r)
    used = sorted({f.code for f in result.findings} | set(known), key=str)
    descriptors = [_rule_descriptor(known[c]) for c in used if c in known]
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    results = []
    for f in result.findings:
        res: dict[str, Any] = {
            "ruleId": f.code,
            "level": _SARIF_LEVEL[f.severity.value],
            "message": {"text": mask_secrets(f.message)},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": f.path if not f.path.startswith("<") else "cuticle-plugins",
                                         "uriBaseId": "%SRCROOT%"},
                    "region": {"startLine": f.line, "startColumn": f.column},
                }
            }],
            "partialFingerprints": {"cuticleLineHash/v1": f.fingerprint},
        }
        if f.code in index:
            res["ruleIndex"] = index[f.code]
        if f.fix is not None:
            res["properties"] = {"fix": f.fix.to_json(mask_secrets)}
        results.append(res)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "cuticle", "version": version,
                                 "rules": descriptors}},
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "The workspace root."}}},
            "results": results,
        }],
    }
