"""The invariants' decision logic called directly from their modules: checks of a segment's words and judgments of
one resolved effect."""

from __future__ import annotations

import pytest

from rules.governance.invariants import _targets
from rules.governance.invariants.no_destructive_sql import sql_kind
from rules.governance.invariants.no_force_push import force_push
from rules.governance.invariants.no_governance_self_modification import state_secret_read
from rules.governance.invariants.no_infra_destroy import infra_violation
from rules.governance.invariants.no_network_egress import upload
from rules.governance.invariants.no_permission_escalation import account_file_write, mode_danger, owner_danger
from rules.governance.invariants.no_protected_branch import branch_in, push_to
from rules.governance.invariants.no_recursive_delete import recursive_delete
from rules.governance.invariants.no_secret_write import credential_write
from rules.governance.paths import Env

SQL = [
    ("DROP TABLE users", "destructive"),
    ("DELETE FROM users", "destructive"),
    ("DELETE FROM users WHERE id = 1", "write"),
    ("UPDATE users SET a = 1", "destructive"),
    ("update users set a = 1 where id = 2", "write"),
    ("SELECT 1; TRUNCATE t", "destructive"),
    ("SELECT 'a;DROP TABLE t'", "read"),
    ("INSERT INTO t VALUES (1)", "write"),
    ("", None),
    ("hello world", None),
]


@pytest.mark.parametrize(("text", "kind"), SQL, ids=[t or "empty" for t, _ in SQL])
def test_sql_kind_ranks_the_worst_statement_of_the_text(text, kind):
    assert sql_kind(text) == kind


INFRA = [
    (["terraform", "destroy", "-auto-approve"], "terraform destroy"),
    (["tofu", "apply", "-destroy"], "tofu destroy"),
    (["kubectl", "delete", "namespace", "prod"], "kubectl delete namespace prod"),
    (["kubectl", "delete", "pod", "x", "--all"], "kubectl delete pod x"),
    (["helm", "uninstall", "web"], "helm uninstall"),
    (["terraform", "plan"], None),
    (["kubectl", "delete", "pod", "x"], None),
    (["kubectl", "get", "ns"], None),
    (["helm"], None),
]


@pytest.mark.parametrize(("argv", "what"), INFRA, ids=[" ".join(a) for a, _ in INFRA])
def test_infra_violation_names_what_the_command_destroys(argv, what):
    v = infra_violation(argv[0], argv)
    if what is None:
        assert v is None
    else:
        assert (v.invariant, v.segment) == ("no-infra-destroy", -1)
        assert v.reason == f"{what} destroys infrastructure; ask the user to run it"


MODES = [("777", "makes files world-writable"), ("4755", "sets setuid/setgid"), ("o+w", "makes files world-writable"),
         ("u+s", "sets setuid/setgid"), ("a=rwx", "makes files world-writable"), ("755", None), ("+x", None),
         ("o-w", None), ("", None), ("bogus", None)]


@pytest.mark.parametrize(("mode", "danger"), MODES, ids=[m or "empty" for m, _ in MODES])
def test_mode_danger_reads_octal_and_symbolic_modes(mode, danger):
    assert mode_danger(mode) == danger


OWNERS = [("chown", "root", "gives root ownership"), ("chown", "me:wheel", "gives me:wheel ownership"),
          ("chown", "0.0", "gives 0.0 ownership"), ("chgrp", "sudo", "gives sudo ownership"),
          ("chgrp", "root:x", None), ("chown", "me:staff", None), ("chown", "", None)]


@pytest.mark.parametrize(("tool", "owner", "danger"), OWNERS, ids=[f"{t} {o}" for t, o, _ in OWNERS])
def test_owner_danger_flags_root_and_admin_groups(tool, owner, danger):
    assert owner_danger(tool, owner) == danger


BRANCHES = [("main", ("main", "master"), True), ("refs/heads/main", ("main",), True),
            ("release/1.2", ("release/*",), True), ("feature/x", ("main", "release/*"), False),
            ("mainline", ("main",), False), ("main", (), False)]


@pytest.mark.parametrize(("branch", "protected", "hit"), BRANCHES, ids=[f"{b} in {p}" for b, p, _ in BRANCHES])
def test_branch_in_matches_protected_globs(branch, protected, hit):
    assert branch_in(branch, protected) is hit


# -- judgments of effects: each invariant module decides one resolved effect ------------------------------------


@pytest.fixture
def env(tmp_path):
    (tmp_path / "MEMORY.md").write_text("# Memory\n", encoding="utf-8")
    return Env.build(str(tmp_path))


DELETES = [("build/x", None), ("tmp", None), ("src", "inside the workspace but outside the allowed dirs"),
           (".", "inside the workspace but outside the allowed dirs"), ("/var/log", "outside the workspace"),
           ("$DIR/", "at a path that is only known at run time")]


@pytest.mark.parametrize(("path", "where"), DELETES, ids=[p for p, _ in DELETES])
def test_recursive_delete_is_allowed_only_inside_the_allowed_dirs(env, path, where):
    v = recursive_delete(env.norm(path, env.root), "rm", ("build", "dist", "out", "tmp"))
    if where is None:
        assert v is None
    else:
        assert v.invariant == "no-recursive-delete" and f"({where})" in v.reason
        assert "allowed only under build/, dist/, out/, tmp/" in v.reason


def test_recursive_delete_with_no_allowed_dirs_says_none(env):
    v = recursive_delete(env.norm("build", env.root), "rm", ())
    assert v is not None and "allowed only under none." in v.reason


WRITES = [("MEMORY.md", "no-memory-write-via-shell"), ("chitin.yaml", "no-governance-self-modification"),
          (".cuticle/key", "no-governance-self-modification"), (".claude/settings.json",
                                                                 "no-governance-self-modification"),
          ("notes.txt", None), ("docs/MEMORY.md.bak", None)]


@pytest.mark.parametrize(("path", "invariant"), WRITES, ids=[p for p, _ in WRITES])
def test_protected_write_names_the_invariant_that_owns_the_path(env, path, invariant):
    v = _targets.protected_write(env, env.norm(path, env.root), "tee")
    if invariant is None:
        assert v is None
    else:
        assert v.invariant == invariant and v.reason.startswith("tee writes ")
        assert v.reason.endswith(_targets.FIXES[invariant])


CREDENTIALS = [(".env", True), ("config/secrets.yml", True), ("id_rsa", True), (".env.example", False),
               ("docs/secrets-handling.md", False), ("notes.txt", False)]


@pytest.mark.parametrize(("path", "denied"), CREDENTIALS, ids=[p for p, _ in CREDENTIALS])
def test_credential_write_denies_credential_files_but_not_templates(env, path, denied):
    v = credential_write(env, env.norm(path, env.root), "redirect")
    assert (v is not None) is denied
    if denied:
        assert v.invariant == "no-secret-write" and f"redirect writes {path}, a credential file" in v.reason


@pytest.mark.parametrize(("path", "denied"), [("/etc/sudoers.d/x", True), ("/etc/passwd", True),
                                              ("/etc/hosts", False), ("passwd", False)])
def test_account_file_write_denies_sudo_and_account_files(env, path, denied):
    assert (account_file_write(env.norm(path, env.root), "tee") is not None) is denied


PUSHES = [(["f"], ["main"], "--force"), (["force-with-lease"], ["x"], "--force-with-lease"),
          ([], ["+feat:feat"], "a '+' refspec"), (["u"], ["feat"], None), ([], [], None)]


@pytest.mark.parametrize(("flags", "refspecs", "how"), PUSHES, ids=[str(p[:2]) for p in PUSHES])
def test_force_push_says_which_flag_or_refspec_forces(flags, refspecs, how):
    v = force_push("origin x", flags, refspecs)
    if how is None:
        assert v is None
    else:
        assert v.invariant == "no-force-push" and f"force push ({how})" in v.reason


@pytest.mark.parametrize(("dst", "deleting", "what"), [
    ("main", False, "pushes to the protected branch main"), ("main", True, "deletes the remote protected branch main"),
    ("feat/x", False, None), ("", False, None)])
def test_push_to_denies_updates_and_deletions_of_protected_branches(dst, deleting, what):
    v = push_to("origin " + dst, dst, deleting, ("main", "master"))
    assert (v is None) if what is None else (v.invariant == "no-protected-branch" and what in v.reason)


UPLOADS = [(".env", "a credential or cuticle's own secret"), (".cuticle/key", "a credential or cuticle's own secret"),
           ("MEMORY.md", "memory, the policy and cuticle's state never leave"),
           ("$F", "only known when it runs"), ("report.pdf", None)]


@pytest.mark.parametrize(("path", "why"), UPLOADS, ids=[p for p, _ in UPLOADS])
def test_upload_denies_protected_files_and_unknown_ones_that_may_be(env, path, why):
    v = upload(env, env.norm(path, env.root), "curl", env.root)
    assert (v is None) if why is None else (v.invariant == "no-network-egress" and why in v.reason)


@pytest.mark.parametrize(("text", "denied"), [(".cuticle/key", True), (".cuticle/serve.json", True),
                                              (".cu*/ke?", True), ("*", False), (".cuticle/config.toml", False),
                                              ("notes.txt", False)])
def test_state_secret_read_denies_the_key_and_patterns_that_name_only_it(env, text, denied):
    v = state_secret_read(env, env.norm(text, env.root), text, "cat", env.root)
    assert (v is not None) is denied
    if denied:
        assert v.invariant == "no-governance-self-modification" and v.reason.startswith("cat reads ")


def test_unknown_target_counts_as_every_protected_path_in_reach(env):
    v = _targets.unknown_target(env, env.norm("$OUT", env.root), "tee", "writes", env.root)
    assert v is not None and "only known when it runs" in v.reason
    assert _targets.unknown_target(env, env.norm("$(date).log", env.root), "tee", "writes", env.root) is None


def test_link_to_denies_a_second_name_for_a_protected_or_credential_file(env):
    mem = _targets.link_to(env, "ln", [env.norm("MEMORY.md", env.root)])
    assert mem.invariant == "no-memory-write-via-shell" and "ln links to MEMORY.md" in mem.reason
    cred = _targets.link_to(env, "ln", [env.norm(".env", env.root)])
    assert cred.invariant == "no-secret-write" and "credential file .env" in cred.reason
    assert _targets.link_to(env, "ln", [env.norm("notes.txt", env.root)]) is None
    assert _targets.link_to(env, "ln", []) is None
