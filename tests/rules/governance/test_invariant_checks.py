"""The shell-command checks that stand on their own, called directly from their invariant modules."""

from __future__ import annotations

import pytest

from rules.governance.invariants.no_destructive_sql import sql_kind
from rules.governance.invariants.no_infra_destroy import infra_violation
from rules.governance.invariants.no_permission_escalation import mode_danger, owner_danger
from rules.governance.invariants.no_protected_branch import branch_in

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
