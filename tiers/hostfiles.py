"""Hosts' agent, command and skill files: Markdown (or TOML) files a host loads as subagents, slash commands and
skills, whose frontmatter can also declare hooks, tool permissions and MCP servers, and whose body can hold shell
commands the host runs when it loads the file.

What the hosts honour there (docs/governance.md, "Agent, command and skill files"):

- Claude Code, ``.claude/agents/*.md`` (and ``~/.claude/agents/``): ``hooks`` (PreToolUse/PostToolUse/Stop for the
  subagent), ``permissionMode``, ``tools``/``disallowedTools``, ``mcpServers``; ``.claude/skills/*/SKILL.md`` and
  ``.claude/commands/*.md``: ``hooks``, ``allowed-tools`` (tools run without asking), and ``!`cmd``` lines run when
  the skill or command is loaded;
- GitHub Copilot, ``.github/agents/*.agent.md`` and ``.github/prompts/*.prompt.md``: ``tools``, ``mcp-servers``;
- Gemini CLI, ``.gemini/commands/*.toml``: ``!{cmd}`` in the prompt runs a shell command; ``.gemini/agents/`` and
  ``.gemini/skills/`` follow Claude Code's layout;
- Codex and other agents reading ``.agents/skills/*/SKILL.md`` (the shared skills layout).

An agent may write these files (instructions, descriptions, examples) but may not add, change or remove what they
declare to the host: :func:`controls` is that part, and a write must leave it as it was.
"""

from __future__ import annotations

import re

from .lazy import LazyRe

#: workspace-relative globs of the agent, command and skill files (lowercase, matched case-insensitively)
HOST_PACK_GLOBS: tuple[str, ...] = (
    ".claude/agents/**", ".claude/commands/**", ".claude/skills/**",
    ".gemini/agents/**", ".gemini/commands/**", ".gemini/skills/**",
    ".github/agents/**", ".github/prompts/**", ".github/skills/**",
    ".agents/skills/**",
)
#: the same under the user's home directory (display paths)
HOME_PACK_GLOBS: tuple[str, ...] = tuple("~/" + g for g in HOST_PACK_GLOBS if not g.startswith(".github/")) + (
    "~/.copilot/agents/**", "~/.copilot/skills/**",
)

#: frontmatter keys by which such a file changes what the host lets run (any spelling of case, '-', '_')
#: (a subagent's ``tools`` list only picks which tools it has; each call still goes through the hooks)
CONTROL_KEYS: tuple[str, ...] = ("hooks", "allowedtools", "permissionmode", "mcpservers", "permissions")

#: a YAML key at the start of a line: indented, a list item, a complex key (`? key`), quoted; a bare word counts too
_KEY = LazyRe(r"""^(?P<indent>[ \t]*)(?:-[ \t]+)?(?:\?[ \t]+)?["']?(?P<key>[A-Za-z][\w-]*)["']?[ \t]*(?::|$)""",
              re.M)
_FLOW_KEY = LazyRe(r"""[{,][ \t]*["']?(?P<key>[A-Za-z][\w-]*)["']?[ \t]*:""")
#: shell commands run when the file is loaded: Claude Code's !`cmd`, Gemini CLI's !{cmd}
_INLINE_SHELL = LazyRe(r"!`[^`\n]*`|!\{[^}]*\}")


def is_pack_path(rel: str) -> bool:
    """The workspace-relative POSIX path is an agent, command or skill file of a host."""
    from .workspace import glob_match

    return glob_match(rel.lower(), HOST_PACK_GLOBS)


def home_display(path: str) -> str | None:
    """``~/REL`` for an absolute path under the user's home directory (as written or with links resolved), else
    None: how the home globs (``HOME_PACK_GLOBS``) name it."""
    import os

    home = os.path.expanduser("~")
    if not home or home == "~" or home == "/":
        return None
    for base in dict.fromkeys((home, os.path.realpath(home))):
        rel = os.path.relpath(path, base).replace(os.sep, "/")
        if rel != "." and rel != ".." and not rel.startswith("../"):
            return "~/" + rel
    return None


def is_home_pack_path(display: str) -> bool:
    """``display`` (``~/…``) is an agent, command or skill file a host loads from the user's home directory."""
    from .workspace import glob_match

    return glob_match(display.lower(), HOME_PACK_GLOBS)


def _norm_key(key: str) -> str:
    return key.lower().replace("-", "").replace("_", "")


def _frontmatter(text: str) -> str | None:
    body = text.lstrip("\ufeff \t\r\n")  # leading blank lines: some hosts' parsers skip them
    lines = body.split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return "\n".join(lines[1:i])
    return "\n".join(lines[1:])  # an unterminated block: hosts differ, so all of it counts


def _continues(line: str, indent: int) -> bool:
    """``line`` belongs to the value of a key indented by ``indent``: blank, deeper, or a list item at its level."""
    stripped = line.lstrip()
    depth = len(line) - len(stripped)
    return not stripped or depth > indent or (depth == indent and stripped.startswith("- "))


def controls(text: str, rel: str) -> tuple[str, ...]:
    """What the file declares to the host: each control key's entry in the frontmatter (the key line and its
    indented continuation, whitespace-normalized), and each inline shell command. For a file that is data rather
    than Markdown (TOML, JSON, YAML), every line is looked at. Empty: the file declares nothing."""
    low = rel.lower()
    markdown = low.endswith((".md", ".mdc", ".markdown")) or "." not in low.rsplit("/", 1)[-1]
    head = _frontmatter(text) if markdown else text
    out: list[str] = []
    if head:
        lines = head.split("\n")
        i = 0
        while i < len(lines):
            m = _KEY.match(lines[i])
            flow = [f.group("key") for f in _FLOW_KEY.finditer(lines[i])]
            if (m and _norm_key(m.group("key")) in CONTROL_KEYS) or any(_norm_key(k) in CONTROL_KEYS for k in flow):
                indent = len(m.group("indent")) if m else 0
                block = [lines[i].strip()]
                i += 1
                while i < len(lines) and _continues(lines[i], indent):
                    if lines[i].strip():
                        block.append(lines[i].strip())
                    i += 1
                out.append(" ".join(block))
                continue
            i += 1
    out.extend(m.group(0) for m in _INLINE_SHELL.finditer(text))
    return tuple(sorted(out))


def changed_controls(old: str, new: str, rel: str) -> list[str]:
    """The declarations a write from ``old`` to ``new`` adds, changes or removes (empty: the write may go ahead)."""
    return sorted(set(controls(old, rel)) ^ set(controls(new, rel)))
