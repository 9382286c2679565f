"""Session-6 speed paths pinned against the general code they stand in for (same answers, bad inputs included)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.governance import canon, masking
from rules.governance.analyze import Effect
from rules.governance.masking import MASK, _TOKEN, _TOKEN_PROBE, _has_token_run, _hint_low, _looks_random, mask
from rules.governance.paths import SECRET_GLOBS, Env, PathRef, _match
from rules.governance.policy import _match_target, _plan, starter_policy
from test_speed_equivalence import reference_match  # deny-first as the rules read

#: the pattern _hint_low replaced (the lowercase twin of masking._HINT)
_HINT_LOW = re.compile(r"[a-z0-9_\-+=]{20,}|://[^\s/@]+:[^\s/@]+@|begin [a-z ]*private|bearer|password|passwd|"
                       r"secret|token|api.?key|eyj|hooks\.slack")

_PIECES = ["https://", "user:pw@host", "://a@", "bearer ", "Bearer", "password", "passwd", "passw", "secret",
           "token", "api_key", "apikey", "api\nkey", "eyJ", "hooks.slack", "BEGIN RSA PRIVATE", "begin  private",
           "a" * 19, "b" * 20, "abc-def_ghi+jkl=mno12345", "sk-abcdefghijklmnopqrstuv1234", "x/y/z" * 6, "é",
           "\u212a", " ", "\n", "/", "=", "-", "+", "_", "README.md", "", "[MASKED]", "AAAAC3NzaC1lZDI1NTE5AAAAIGq7"]
_texts = (st.lists(st.sampled_from(_PIECES), max_size=8).map("".join)
          | st.lists(st.sampled_from(_PIECES), max_size=8).map(" ".join) | st.text(max_size=60))


@settings(max_examples=3000, deadline=None)
@given(_texts)
def test_hint_low_finds_what_the_alternation_finds(text):
    if text.isascii():
        low = text.lower()
        assert _hint_low(low) == (_HINT_LOW.search(low) is not None)


@settings(max_examples=3000, deadline=None)
@given(_texts)
def test_token_run_test_agrees_with_the_probe_regex(text):
    assert _has_token_run(text) == (_TOKEN_PROBE.search(text) is not None)


def _reference_token_pass(text: str) -> str:
    return _TOKEN.sub(lambda m: MASK if _looks_random(m.group(0)) else m.group(0), text)


@settings(max_examples=2000, deadline=None)
@given(_texts)
def test_mask_skips_the_token_pass_only_when_it_changes_nothing(text):
    # the guard in mask(): no run of token characters means _TOKEN has no match to replace
    if not _has_token_run(text):
        assert _reference_token_pass(text) == text


def test_mask_still_masks_the_usual_secrets():
    assert mask("OPENAI_API_KEY=sk-test") == f"OPENAI_API_KEY={MASK}"
    assert mask("curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789'") != \
        "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789'"
    url = "https://api.github.com/repos/acme/shopfront/releases/latest"
    assert mask(url) == url


_PATHS = ["README.md", "", "~", "~/x", "~bob/x", "~bob", "$HOME/.ssh/id_rsa", "${HOME}", "$PWD/a", "${PWD}/b",
          "$OTHER/x", "a/../b", "../../..", "//x//y/", "/", "/etc/shadow", "build/", "./.env", "x/./y", "a\nb/.env",
          ".SSH/ID_RSA", "memory/*.md", "é/ü", "/tmp", "MEMORY.md", "."]


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(_PATHS) | st.text(max_size=20),
       st.sampled_from([None, "/ws", "/ws/sub", "/elsewhere", "/"]))
def test_norm_answers_as_the_resolution_it_caches(text, cwd):
    env = Env.build("/ws")
    first = env.norm(text, cwd)
    assert first == env._resolve(text, cwd)
    assert env.norm(text, cwd) == first  # the cached answer
    assert type(first) is PathRef


def test_norm_cache_is_bounded():
    env = Env.build("/ws")
    for k in range(5000):
        env.norm(f"f{k}", "/ws")
    assert len(env._norms) == 4096
    assert env.norm("f4999", "/ws") == env._resolve("f4999", "/ws")


def _reference_is_secret(ref: PathRef) -> bool:
    if ref.scope == "unknown":
        return False
    path = ref.display if ref.scope != "ws" else (ref.rel or "")
    low = path.lower()
    return _match(path, SECRET_GLOBS) or (low != path and _match(low, SECRET_GLOBS))


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(_PATHS) | st.text(max_size=20), st.sampled_from([None, "/ws", "/ws/.ssh", "/home/u"]))
def test_is_secret_agrees_with_the_uncached_glob_test(text, cwd):
    env = Env.build("/ws")
    ref = env.norm(text, cwd)
    assert env.is_secret(ref) == _reference_is_secret(ref)
    assert env.is_secret(ref) == _reference_is_secret(ref)


_TARGETS = [".env", ".env.example", "a/.env", "~/.ssh/id_rsa", "~/.ssh/id_rsa.pub", "/etc/passwd", "/usr/bin/x",
            "src/app.py", "", "key.pem", "main", "github.com", "x.pem/", "~/.aws/credentials", ".bashrc"]


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(["read", "write", "exec", "git", "net", "dangerous"]),
       st.sampled_from(_TARGETS) | st.text(max_size=12), st.sampled_from(["path", "host", "branch", ""]))
def test_policy_match_memo_gives_the_rules_answer(typ, target, kind):
    policy = starter_policy()
    eff = Effect(typ, target, kind)
    want = reference_match(policy, eff)
    assert policy.match(eff) == want
    assert policy.match(eff) == want  # from the memo
    if target and kind:
        plan = _plan(policy)
        assert _match_target(plan.get(typ) or plan["*"], kind, target) == want


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["cat", "/bin/rm", "HEAD", "python3.11", "git", "echo", "printf", "find", "rg", "Tail", "",
                        "/", "x/", "é"]) | st.text(max_size=10))
def test_tool_info_is_what_canonicalize_used_to_work_out(argv0):
    tool, raw0, multi, plain, no_cluster, post = canon._tool_info(argv0)
    assert tool == canon.tool_name(argv0)
    assert raw0 == (argv0.rsplit("/", 1)[-1] if "/" in argv0 else argv0).lower()
    assert multi == (tool in canon.MULTI_LEVEL)
    assert plain == (tool in ("echo", "printf"))
    assert no_cluster == (tool in canon._NO_CLUSTER)
    assert post == (tool in ("read", "grep", "git"))


def test_needs_mask_uses_the_token_run_on_long_text():
    assert masking.needs_mask("a" * 24)
    assert not masking.needs_mask("a b" * 12)
    assert masking.needs_mask("é" + "Z" * 24)
