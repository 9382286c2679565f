"""Canonical forms and digests: the vectors' equivalence classes, our own, idempotence, masking."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.governance.analyze import analyze_command
from rules.governance.canon import canonicalize
from rules.governance.paths import Env
from tests.conftest import DATA

ENV = Env.build("/nonexistent/ws")


def digests(command: str) -> list[str]:
    return [s.canonical.digest for s in analyze_command(command, ENV).segments]


def canonical_text(command: str) -> str:
    segs = analyze_command(command, ENV).segments
    return " ; ".join(s.canonical.text for s in segs)


EQUAL = [
    ("cat foo.txt", "head foo.txt"),
    ("cat foo.txt", "tail foo.txt"),
    ("grep -rn pattern .", "rg -n pattern ."),
    ("git log --oneline", "git log --pretty=oneline"),
    ("rm -rf x", "rm -r -f x"),
    ("rm -rf x", "rm --recursive --force x"),
    ("rm -rf x", "/bin/rm -fr x"),
    ("rm -rf x", "'r''m' -rf x"),
    ("rm -rf x", "rm --rec --force x"),
    ("rm -rf x", "sudo rm -rf x".replace("sudo ", "timeout 5 ")),
    ("head -n 20 f", "head -n20 f"),
    ("head -n 20 f", "head -20 f"),
    ("head -n 20 f", "head --lines=20 f"),
    ("ls -la", "ls -al"),
    ("ls -la", "ls --all -l"),
    ("grep -i x f", "grep --ignore-case x f"),
    ("python3 -c 'print(1)'", "python -c 'print(1)'"),
    ("git -C x status", "git -C x status"),
    ("curl -sS -o out https://x", "curl --silent --show-error --output out https://x"),
]
DIFFERENT = [
    ("head -n 20 foo.txt", "tail -n 20 foo.txt"),
    ("rm -rf x", "rm -rf y"),
    ("rm -rf x", "sudo rm -rf x"),
    ("rm -- -rf", "rm -rf"),
    ("cat -n f", "cat f"),
    ("git push origin main", "git push origin feat"),
]


@pytest.mark.parametrize(("a", "b"), EQUAL, ids=[f"{a} = {b}" for a, b in EQUAL])
def test_equivalent_commands_digest_equally(a, b):
    assert digests(a) == digests(b)


@pytest.mark.parametrize(("a", "b"), DIFFERENT, ids=[f"{a} != {b}" for a, b in DIFFERENT])
def test_different_commands_digest_differently(a, b):
    assert digests(a) != digests(b)


def test_vectors_digest_equality_rows_all_agree():
    path = DATA / "vectors" / "chitin-governance.jsonl"  # shipped in the repository: a missing file is a failure
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    rows = [r for r in rows if r["kind"] == "digest_equality"]
    assert rows
    for r in rows:
        assert (digests(r["a"]) == digests(r["b"])) == r["expect_equal"], r


def test_digest_is_full_sha256_and_display_is_its_prefix():
    c = canonicalize(["grep", "-rn", "pattern", "."])
    assert len(c.digest) == 64 and c.short == c.digest[:16]
    assert c.flags == (("line-number", ""),) and c.args == ("pattern", ".")


def test_rm_double_dash_is_a_file_named_dash_rf_not_a_flag():
    c = canonicalize(["rm", "--", "-rf"])
    assert c.flags == () and c.args == ("-rf",)
    assert canonical_text("rm -- -rf") == "rm -- -rf"


def test_cat_n_keeps_the_file_name():
    c = canonicalize(["cat", "-n", "foo.txt"])
    assert c.args == ("foo.txt",) and c.flags == (("number", ""),)


def test_secrets_are_masked_in_canonical_forms_but_commit_messages_are_not():
    text = canonical_text("curl -H 'Authorization: Bearer sk-live-abcdefghijklmnopqrstuvwx12' https://x")
    assert "sk-live-abcdefghij" not in text
    assert "fix auth bug" in canonical_text("git commit -m 'fix auth bug'")
    assert "feature-add-very-long-branch-name-xyz" in canonical_text(
        "git push origin feature-add-very-long-branch-name-xyz")
    masked = canonical_text("OPENAI_API_KEY=sk-test1234 python app.py")
    assert "sk-test1234" not in masked or "python" in masked


IDEMPOTENT = ["grep -rn pattern .", "cat foo.txt", "head -n 20 f", "rm -rf x", "git log --oneline -20 -- src",
              "git -C x push origin +main", "find . -name '*.go' -type f", "curl -sSL -o out https://x/y?a=b",
              "sudo rm -rf /", "ls -la && echo 'a b' | wc -l", "rm -- -rf", "docker ps -a --format '{{.Names}}'",
              "echo 'x y' > 'a file'", "python3 -c 'import os; os.system(\"ls\")'", "tar -xzf a.tgz -C out",
              "chmod -R 777 .", "make -j4", "xargs -n1 echo"]


@pytest.mark.parametrize("command", IDEMPOTENT, ids=IDEMPOTENT)
def test_canonicalization_is_idempotent(command):
    once = [s.canonical for s in analyze_command(command, ENV).segments]
    for c in once:
        again = [s.canonical for s in analyze_command(c.text, ENV).segments]
        assert again and again[0] == c, (c.text, again[0].text if again else None)


_WORD = st.text(alphabet="abcxyz0123456789._/-=", min_size=1, max_size=8)
_TOOL = st.sampled_from(["cat", "head", "tail", "grep", "rg", "rm", "ls", "git", "curl", "cp", "mv", "find", "sed",
                         "echo", "python3", "node", "make", "docker", "kubectl", "tee", "chmod", "foo"])
_FLAG = st.one_of(st.sampled_from(["-r", "-rf", "-n", "-la", "--force", "--lines=3", "-n20", "-C", "-i",
                                   "--output", "-o", "-e", "-x", "--", "-"]), _WORD.map(lambda w: "-" + w))


@settings(max_examples=300, deadline=None)
@given(_TOOL, st.lists(st.one_of(_WORD, _FLAG), max_size=6))
def test_canonical_form_is_a_fixed_point(tool, args):
    c = canonicalize([tool, *args])
    segs = analyze_command(c.text, ENV).segments
    assert segs, c.text
    assert canonicalize(list(segs[0].argv)) == c, c.text
