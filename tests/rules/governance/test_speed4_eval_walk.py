"""The analysis-side speed-ups keep behaviour: each fast path is compared with the code it replaced.

- ``_ide_hit`` (a word precheck before the IDE-socket regex) answers exactly as ``_IDE.search``;
- the tool category table answers exactly as ``_category``;
- a command whose head is no wrapper goes straight to ``Walker.final`` with shared all-False / all-None sequences:
  the walk equals the former one through ``Walker.dispatch`` with fresh lists;
- ``decide`` (inlined plan lookup, lazy de-duplication set) equals the former ``decide``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.governance import analyze as A
from rules.governance.evaluate import _effects_of, _finding, decide
from rules.governance.paths import Env
from rules.governance.policy import Policy, Rule, _plan, starter_policy

# -- _ide_hit ------------------------------------------------------------------------------------------------
_IDE_TOKENS = ["vscode", "VSCode", "-ipc-", "-git-", "ipc", ".sock", "sock", "SOCK", ".vscode-server/", "cursor",
               "CURSOR", "-server/", "cursor-ipc", "VSCODE_IPC_HOOK", "vscode_git_ipc", "JETBRAINS_", "jetbrains",
               "_SOCK", "/", "/.", "code", "-", "server", "codeserver", "code-server", "windsurf", "zed", "ZED", " ",
               "\t", "a", "x", "1", "=", "$", "~", "K", "\u212a", "\u017f", "\u0130", "\u0131", "é", "ß", "ﬅ"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_IDE_TOKENS), max_size=10).map("".join))
def test_ide_hit_agrees_with_the_regex(text):
    assert A._ide_hit(text) == (A._IDE.search(text) is not None)


@pytest.mark.parametrize("text", ["", "git status", "cat /tmp/vscode-ipc-1.sock", "ls ~/.vscode-server/x",
                                  "VSCODE_IPC_HOOK=x", "echo $JETBRAINS_IDE_SOCK", "/run/code-server-1.sock",
                                  "/x/.codeserver.sock", "nc -U windsurf.sock", "zed-1.sock", "Zed.SOCK",
                                  "vscode-\u212a.sock", "vſcode-1.sock", "cursor-ipc", "\u0130 cursor-ipc"], ids=repr)
def test_ide_hit_table(text):
    assert A._ide_hit(text) == (A._IDE.search(text) is not None)


# -- the category table ------------------------------------------------------------------------------------------
def _table_category(tool: str) -> int:
    cat = A._CATEGORIES.get(tool)
    return A._category_missing(tool) if cat is None else cat


def test_category_table_agrees_with_category():
    names = set(A._FINAL) | A.SHELLS | A.INTERPRETERS | A.SQL_CLIENTS | A.DEVICE_WIPERS | A.ESCALATORS | \
        A.NET_TOOLS | A.WRITE_TOOLS | A.READ_TOOLS | A._TAIL_TOOLS | set(A._WRAPPERS)
    names |= {"mkfs", "mkfs.ext4", "mkfsx", "mkfifo", "npm", "make", "pytest", "", "-", "clawta", "Git", "RM"}
    for tool in sorted(names):
        assert _table_category(tool) == A._category.__wrapped__(tool), tool


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="mkfsabcdeirtgo.-_", max_size=8))
def test_category_table_agrees_on_any_name(tool):
    assert _table_category(tool) == A._category.__wrapped__(tool)


@given(st.text(max_size=40))
def test_url_matches_need_the_scheme_separator(text):
    """run_net and analyze_call scan an argument for URLs only when it holds '://'."""
    if "://" not in text:
        assert A._URL.search(text) is None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["-", "--", "-n", "--all", "a", "a.txt", "dir/", "/etc/x", "-x.y", "~/.ssh/k",
                                 "-/", ".", ""]), max_size=8))
def test_read_tool_effects_equal_the_operands_walk(args):
    """final() reads the operands of a read tool inline; the effects are those of _operands() with '/' or '.'."""
    env = Env.build("/ws")
    w = A.Walker(env)
    effects = []
    assert A._category("wc") == A._C_READ
    w.final(["wc", *args], (False,) * (len(args) + 1), (None,) * (len(args) + 1), env.root, "", "", None, effects,
            False, (), "wc")
    expect = [("read", env.norm(a, env.root).display, "path") for a in A._operands(args) if "/" in a or "." in a]
    assert [(e.type, e.target, e.kind) for e in w.out.segments[0].effects if e.target] == expect
