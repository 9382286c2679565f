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


# -- the walk: straight to final() == through dispatch() ---------------------------------------------------------
class _ReferenceWalker(A.Walker):
    """The former literal_words / simple_words: always through dispatch(), with fresh lists."""

    def literal_words(self, argv, cwd, op, stdin):
        if stdin is not None and stdin.text is not None and argv[0] == "tee":
            for t in [a for a in argv[1:] if not a.startswith("-")]:
                self.written[self.env.abs_of(self.env.norm(t, cwd).display)] = stdin.text
        if self.ide_possible and A._IDE.search(" ".join(argv)):
            self.violate("no-ide-socket-access", "reaches an IDE/editor socket; agents may not drive the editor")
        n = len(argv)
        return self.dispatch(argv, [False] * n, [None] * n, cwd, "", op, stdin, [])

    def simple(self, cmd, cwd, via, op, stdin):
        words = cmd.words
        if not cmd.assigns and all(w.literal for w in words):
            argv = [w.text for w in words]
            return self.simple_words(cmd, cwd, via, op, stdin, argv, [False] * len(argv), [None] * len(argv))
        return super().simple(cmd, cwd, via, op, stdin)

    def simple_words(self, cmd, cwd, via, op, stdin, argv, dyn_flags, word_taint):
        redirects = cmd.redirects
        effects = []
        if redirects:
            stdin = self.redirections(redirects, cwd, via, stdin, effects)
        if stdin is not None and stdin.text is not None and argv and argv[0] in ("cat", "tee", "dd"):
            targets = [e.target for e in effects if e.type == "write" and e.kind == "path"]
            if argv[0] == "tee":
                targets += [a for a in argv[1:] if not a.startswith("-")]
            for t in targets:
                self.written[self.env.abs_of(self.env.norm(t, cwd).display)] = stdin.text
        if not argv:
            if effects:
                self.emit([">"], op, via, "write", effects)
            return cwd, A._NO_FLOW
        if self.ide_possible and A._IDE.search(" ".join(argv)):
            self.violate("no-ide-socket-access", "reaches an IDE/editor socket; agents may not drive the editor")
        return self.dispatch(argv, dyn_flags, word_taint, cwd, via, op, stdin, effects, cmd)


def _walk(cls, command: str):
    from rules.governance.shell import fast_items, parse
    env = Env.build("/ws")
    w = cls(env, starter_policy().options(), git_branch=lambda repo: "main")
    w.ide_possible = A._may_mention_ide(command)
    fast = fast_items(command)
    if fast is not None:
        w.flat(fast[0], env.root, "'" in command or '"' in command)
    else:
        w.script(parse(command), env.root)
    segs = [(s.op, s.argv, s.sudo, s.type, s.effects, s.via, s.wrappers) for s in w.out.segments]
    return segs, w.out.violations, w.out.volatile, w.vars, w.tainted, w.downloads, w.written, w.branch


_WALK_TOKENS = ["sudo ", "rm ", "-rf ", "/ ", "build ", "git ", "push ", "origin ", "main ", "+main ", "commit ",
                "cd ", "sub ", "tee ", "MEMORY.md ", "echo ", "'x y' ", "curl ", "http://e.com/s.sh ", "-o ", "s.sh ",
                "sh ", "bash ", "-c ", "'rm -rf /' ", "\"git push -f\" ", "xargs ", "cat ", ".env ", "base64 ", "-d ",
                "python3 ", "chmod ", "777 ", "find ", ". ", "-delete ", "env ", "A=1 ", "timeout ", "5 ", "ls ",
                "vscode-ipc-1.sock ", "&& ", "| ", "; ", "|| ", "& ", "-exec ", "{} ", "+ ", "\\; ", "-name ",
                "'*.md' ", "$X ", "\"$HOME\" ", "$(echo rm) ", "`id` ", "> ", "out.txt ", "< ", "<<< ", "export ",
                "X=vscode ", "eval ", "psql ", "'DROP TABLE x' ", "nohup ", "exec ", "command ", "x=$(curl e.com) ",
                "$x ", "/usr/bin/$x ", "\n"]


@settings(max_examples=700, deadline=None)
@given(st.lists(st.sampled_from(_WALK_TOKENS), min_size=1, max_size=12).map("".join))
def test_walk_straight_to_final_agrees_with_dispatch(command):
    assert _walk(A.Walker, command) == _walk(_ReferenceWalker, command)


# -- decide ------------------------------------------------------------------------------------------------------
def reference_decide(analysis, policy, effects=None):
    """The former decide()."""
    from rules.governance.analyze import RANK
    from rules.governance.policy import _TARGET_KINDS
    findings = []
    seen = set()
    if analysis.violations:
        modes, default = policy.invariant_modes, policy.mode
        for v in analysis.violations:
            mode = modes.get(v.invariant, default)
            key = (v.invariant, v.reason)
            if mode == "off" or key in seen:
                continue
            seen.add(key)
            findings.append(_finding(v.invariant, "invariant", mode, v.reason))
    allow_rule = None
    best = -1
    match = policy.match
    plan = _plan(policy) if type(policy) is Policy else None
    for eff in (_effects_of(analysis) if effects is None else effects):
        if plan is not None and (not eff.target or eff.kind not in _TARGET_KINDS):
            rule, effect = (plan.get(eff.type) or plan["*"])[2]
        else:
            rule, effect = match(eff)
        if effect == "deny":
            rid = rule.id if rule else "default-deny"
            reason = (rule.reason if rule and rule.reason else
                      f"{eff.type} of {eff.target} is denied by the policy" if rule else
                      f"no policy rule allows {eff.type}" + (f" of {eff.target}" if eff.target else "") +
                      "; add an allow rule to the policy or ask the user")
            if rule and eff.target:
                reason = f"{reason} ({eff.type} {eff.target})"
            if rule and rule.suggestion:
                reason = f"{reason} Try: {rule.suggestion}"
            if (rid, reason) not in seen:
                seen.add((rid, reason))
                findings.append(_finding(rid, "policy", policy.mode_for(rid), reason, eff.target))
        elif rule is not None and RANK[eff.type] > best:
            best = RANK[eff.type]
            allow_rule = rule
    if findings:
        for f in findings:
            if f.mode == "enforce":
                return "deny", f.rule, f.reason, "enforce", f.scope, findings
        f = findings[0]
        return "allow", f.rule, f"monitor: would deny: {f.reason}", "monitor", f.scope, findings
    if allow_rule is not None:
        reason = allow_rule.reason or f"allowed by rule {allow_rule.id}"
        return "allow", allow_rule.id, reason, policy.mode, "policy", findings
    return "allow", "empty", "nothing to run", policy.mode, "policy", findings


_RULES = st.builds(
    Rule, st.text("abc", min_size=1, max_size=3),
    st.lists(st.sampled_from([*A.TYPES, "*"]), min_size=1, max_size=3).map(tuple),
    st.sampled_from(["allow", "deny"]), st.sampled_from(["", "because"]),
    st.lists(st.sampled_from([".env", "!.env.example", "*.pem", "~/.ssh/**", "build/**", "*.com", "e.com",
                              "!build/**", "MEMORY.md"]), max_size=3).map(tuple),
    st.lists(st.sampled_from(["main", "release/*"]), max_size=2).map(tuple),
    st.sampled_from(["", "use x"]))
_MODES = st.dictionaries(st.sampled_from(sorted(A.INVARIANTS) + ["a", "b"]),
                         st.sampled_from(["enforce", "monitor", "off"]), max_size=4)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_WALK_TOKENS), min_size=1, max_size=10).map("".join),
       st.lists(_RULES, max_size=5), _MODES, st.sampled_from(["enforce", "monitor"]), st.booleans())
def test_decide_agrees_with_the_former_decide(command, rules, modes, mode, pass_effects):
    env = Env.build("/ws")
    analysis = A.analyze_command(command, env, git_branch=lambda repo: "main")
    for policy in (Policy("<test>", mode=mode, rules=tuple(rules), invariant_modes=modes), starter_policy()):
        effects = _effects_of(analysis) if pass_effects else None
        assert decide(analysis, policy, effects) == reference_decide(analysis, policy, effects)


# -- small prechecks -----------------------------------------------------------------------------------------------
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["http", "HTTPS", "s3", "ftp", "wss", ":", "/", "//", "://", "a.b", "@", "x", " ",
                                 "?", "#", "'", "é"]), max_size=10).map("".join))
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
