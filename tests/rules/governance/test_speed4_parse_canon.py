"""Session-4 speed-ups of canonicalization and masking keep behaviour: ``canonicalize`` agrees with the version it
replaced (kept here as the reference), and the masking pre-checks agree with the tests they replaced."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.governance import canon
from rules.governance.canon import (_CanonicalBuilder, _alias, _mask_value, _new, _post_process, _short_flag,
                                    _valued, canonicalize, tool_name)
from rules.governance.masking import _has_keyword, mask, needs_mask


def reference_canonicalize(argv: list[str], *, sudo: bool = False) -> canon.Canonical:
    """``canonicalize`` before session 4: one ``_short_flag`` lookup per clustered flag, one ``needs_mask`` of the
    whole argv."""
    if not argv:
        return canon.Canonical("unknown", "", (), (), sudo)
    a0 = argv[0]
    raw0 = (a0.rsplit("/", 1)[-1] if "/" in a0 else a0).lower()
    tool = tool_name(a0)
    rest = argv[1:]
    action = ""
    flags: list[tuple[str, str]] = []
    args: list[str] = []
    i = 0
    multi = tool in canon.MULTI_LEVEL
    end_opts = False
    n = len(rest)
    plain = tool == "echo" or tool == "printf"
    no_cluster = tool in canon._NO_CLUSTER
    while i < n:
        tok = rest[i]
        i += 1
        if end_opts or tok == "-" or tok[:1] != "-" or plain:
            if multi and not action and not end_opts:
                action = tok
                continue
            args.append(tok)
            continue
        if tok == "--":
            end_opts = True
            continue
        if tok.startswith("--="):
            args.append(tok)
            continue
        if tok.startswith("--"):
            name, eq, value = tok[2:].partition("=")
            name = _alias(tool, action, name)
            if not eq and _valued(tool, action, name, raw0) and i < n and not rest[i].startswith("-"):
                value = rest[i]
                i += 1
            flags.append((name, value))
            continue
        body = tok[1:]
        if body.startswith("="):
            args.append(tok)
            continue
        if no_cluster:
            name, eq, value = body.partition("=")
            if not eq and i < n and not rest[i].startswith("-") and tool == "find" and name not in (
                    "delete", "print", "print0", "ls", "prune", "quit", "empty", "depth", "daystart", "follow",
                    "mount", "xdev", "true", "false", "readable", "writable", "executable", "nouser", "nogroup"):
                if name in ("exec", "execdir", "ok", "okdir"):
                    cmd: list[str] = []
                    while i < n and rest[i] not in (";", "+"):
                        cmd.append(rest[i])
                        i += 1
                    i += 1
                    value = " ".join(cmd)
                else:
                    value = rest[i]
                    i += 1
            flags.append((name, value))
            continue
        if body[:1].isdigit() or (len(body) > 1 and body[1].isdigit() and not _valued(tool, action, body[0], raw0)):
            name, _, value = body.partition("=")
            if len(name) == 1:
                name = _alias(tool, action, name)
            flags.append((name, value))
            continue
        j = 0
        while j < len(body):
            ch = body[j]
            j += 1
            if ch == "=":
                break
            valued, alias = _short_flag(tool, action, ch, raw0)
            if valued:
                value = body[j:]
                if value.startswith("="):
                    value = value[1:]
                if not value and i < n and not rest[i].startswith("-"):
                    value = rest[i]
                    i += 1
                flags.append((alias, value))
                break
            flags.append((alias, ""))
    if flags and (tool == "read" or tool == "grep" or tool == "git"):
        flags = _post_process(tool, raw0, action, flags)
    if needs_mask(" ".join(argv)):
        flags_t = tuple(sorted([(k, _mask_value(k, v)) for k, v in flags]))
        args_t = tuple([_mask_value("", a) for a in args])
    else:
        flags_t = tuple(sorted(flags)) if flags else ()
        args_t = tuple(args)
    c = _new(_CanonicalBuilder)
    c.tool, c.action, c.flags, c.args, c.sudo, c._digest = tool, action, flags_t, args_t, sudo, ""
    c.__class__ = canon.Canonical
    return c


def _same(argv: list[str], sudo: bool = False) -> None:
    got, want = canonicalize(argv, sudo=sudo), reference_canonicalize(argv, sudo=sudo)
    assert got == want, argv
    assert (got.tool, got.action, got.flags, got.args, got.sudo) == (want.tool, want.action, want.flags, want.args,
                                                                     want.sudo), argv
    assert got.digest == want.digest and got.text == want.text, argv


_TOOLS = ["git", "ls", "rm", "cat", "head", "tail", "less", "/bin/rm", "grep", "rg", "find", "curl", "wget", "docker",
          "kubectl", "python3", "node", "sed", "tar", "mysql", "psql", "echo", "printf", "gh", "go", "xargs", "tee",
          "chmod", "cp", "ssh", "sort", "pytest", "make", "foo", "RM", "", "git.exe", "sudo", "npm", "cargo", "awk"]
_WORDS = ["-", "--", "--=x", "-=x", "-rf", "-fr", "-la", "-n", "-n5", "-5", "-20", "-C5", "-C", "-c", "-e", "-f", "-x",
          "-m", "-o", "-p", "-pSECRET", "-pHunter22", "-u", "-4", "-i", "-name", "-exec", "-delete", "-type", ";", "+",
          "--force", "--rec", "--recursive", "--force-with-lease", "--oneline", "--pretty=oneline", "--format", "-p",
          "--abbrev-commit", "--password", "--password=hunter22", "--token", "--lines=3", "--output", "--=", "-b",
          "push", "log", "status", "commit", "pr", "origin", "main", "+main", "build", "src/", "README.md", "x",
          "{}", "", "a b", "OPENAI_API_KEY=sk-test", "sk-ant-api03-longtoken12345678901234567890", "x=1",
          "TestTokenizerVsAST_BypassCoverage", "https://user:pw@host/x", "Bearer abcdefghijklmnopqrstuvwxyz",
          "password is hunter2", "token:", "-Hauthorization", "ghp_" + "a" * 36, "héllo", "KEY=val", "\u212aey=abc",
          "ſecret=abcdef", "123456789012345678901234", "eyJabc", "mysql", "-pxx", "ps", "auth=x"]


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(_TOOLS), st.lists(st.sampled_from(_WORDS), max_size=8), st.booleans())
def test_canonicalize_agrees_with_the_version_it_replaced(tool, words, sudo):
    _same([tool, *words], sudo)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=0, max_size=6))
def test_canonicalize_agrees_on_arbitrary_words(words):
    _same(words)


def test_canonicalize_agrees_on_a_table_of_commands():
    table = [["ls"], ["git", "status"], ["ls", "-la"], ["git", "push", "origin", "main"], ["rm", "-rf", "build"],
             ["head", "-n", "5", "f"], ["head", "-20", "f"], ["cat", "-n", "f"], ["git", "log", "-5", "--oneline"],
             ["find", ".", "-name", "*.py", "-exec", "rm", "{}", ";"], ["mysql", "-pSECRET", "db"],
             ["curl", "-H", "Authorization: Bearer sk-ant-api03-longtoken12345678901234567890", "http://x"],
             ["go", "test", "-v", "-run", "TestTokenizerVsAST_BypassCoverage"], ["echo", "OPENAI_API_KEY=sk-test"],
             ["git", "-C", "sub", "push", "-f"], ["grep", "-rn", "TODO", "src/", "--include=*.py"],
             ["head", "-123456789012345678901234", "f"], ["git", "log", "-123456789012345678901234567"],
             ["sed", "-i", "s/^DB_PASSWORD=.*/DB_PASSWORD=changeme/", ".env.production"]]
    for argv in table:
        _same(argv)


def test_short_tables_agree_with_short_flag():
    for tool in _TOOLS:
        t = tool_name(tool)
        for action in ("", "push", "log", "commit", "pr", "ps", "zzz"):
            for raw0 in ("head", "tail", "", "cat", "less", t):
                table = canon._short_table(t, action, raw0)
                for ch in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#-_é":
                    assert (table.get(ch) or (False, ch)) == _short_flag(t, action, ch, raw0), (t, action, raw0, ch)


def _reference_has_keyword(low: str) -> bool:
    return ("key" in low or "token" in low or "secret" in low or "pass" in low or "pwd" in low or "auth" in low
            or "credential" in low or "private" in low or "bearer" in low or "eyj" in low or "hooks.slack" in low
            or "begin" in low)


_PIECES = ["key", "token", "secret", "pass", "pwd", "auth", "credential", "private", "bearer", "eyj", "hooks.slack",
           "begin", "k", "p", "c", "b", "ke", "tok", "au", "ey", " ", "x", "=", "-", ":", "é", "K", "hooks", ".slack"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join))
def test_has_keyword_agrees_with_the_full_disjunction(text):
    assert _has_keyword(text) == _reference_has_keyword(text)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + _PIECES), max_size=6).map(" ".join))
def test_needs_mask_is_a_sound_pre_check(text):
    """Whenever mask() changes a text, needs_mask allowed it (canonicalize's check over the values relies on it)."""
    if mask(text) != text:
        assert needs_mask(text)


_PARTS = st.lists(st.sampled_from(_WORDS + _PIECES), max_size=4).map(" ".join)


@settings(max_examples=2000, deadline=None)
@given(_PARTS, _PARTS, _PARTS, st.sampled_from(["", " ", "\u03a3", "x"]))
def test_needs_mask_of_a_text_holds_for_any_text_containing_it(before, value, after, sep):
    """canonicalize checks the joined values once, instead of each value: sound because needs_mask is monotone."""
    if needs_mask(value):
        assert needs_mask(before + sep + value + sep + after)


def _reference_entropy(s: str) -> float:
    import math

    counts: dict[str, int] = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _reference_looks_random(tok: str) -> bool:
    from rules.governance.masking import _HEX_ONLY

    if "/" in tok and not tok.endswith("=") and tok.count("/") >= 1 and not any(c.isdigit() for c in tok[:8]):
        return False
    core = tok.strip("=")
    if len(core) < 24:
        return False
    if _HEX_ONLY.fullmatch(core) and len(core) in (40, 64):
        return False
    if core.isalpha() or core.isdigit():
        return False
    classes = sum((any(c.islower() for c in core), any(c.isupper() for c in core), any(c.isdigit() for c in core)))
    if classes < 2:
        return False
    if "-" in core and all(part.isalpha() or part == "" for part in core.split("-")):
        return False
    if "_" in core and all(part.isalpha() or part == "" for part in core.split("_")):
        return False
    return _reference_entropy(core) >= 3.6


_TOKEN_CHARS = "abcXYZ0189_-+/="


@settings(max_examples=4000, deadline=None)
@given(st.text(alphabet=st.sampled_from(_TOKEN_CHARS), min_size=20, max_size=70)
       | st.text(alphabet=st.sampled_from("abcdef0123456789"), min_size=38, max_size=66)
       | st.text(alphabet=st.sampled_from("ab-_="), min_size=22, max_size=40))
def test_looks_random_agrees_with_the_character_loops_it_replaced(tok):
    """_TOKEN matches are ASCII [A-Za-z0-9_-+/=] runs: the whole-string tests equal the per-character ones."""
    from rules.governance.masking import _TOKEN, _entropy, _looks_random

    for m in _TOKEN.finditer(tok):
        t = m.group(0)
        assert _looks_random(t) == _reference_looks_random(t), t
        assert _entropy(t) == _reference_entropy(t), t


def _reference_needs_mask(text: str) -> bool:
    from rules.governance.masking import _TOKEN_PROBE, _key_context

    if not text:
        return False
    if "://" in text and "@" in text:
        return True
    if _TOKEN_PROBE.search(text) is not None:
        return True
    low = text.lower()
    if "-p" in text and ("mysql" in low or "mariadb" in low):
        return True
    return _reference_has_keyword(low) and _key_context(text, low)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_WORDS + _PIECES + ["://", "@", "mysql", "MariaDB", "-p", "is", "\u212a"]),
                max_size=8).map(" ".join) | st.text(max_size=30))
def test_needs_mask_agrees_with_the_version_it_replaced(text):
    assert needs_mask(text) == _reference_needs_mask(text)
