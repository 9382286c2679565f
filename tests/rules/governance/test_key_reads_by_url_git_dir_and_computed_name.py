"""The stamp key and the serve token cannot be read by any command: a ``file://`` URL, a directory moved by
``git -C``, a SQL client's import, or a path decoded or globbed at run time all name the key. Benign neighbours
(the same tools on other files) stay allowed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules.governance import evaluate_command
from tiers.workspace import Workspace

ROOT = Path(__file__).resolve().parents[3]

#: (id, expected decision, command, finding or None)
ROWS = [
    ("cat-key", "deny", "cat .cuticle/key", None),
    ("curl-file-url", "deny", "curl file://$PWD/.cuticle/key", "R12-09"),
    ("curl-file-url-token", "deny", "curl -s file://$PWD/.cuticle/serve.json", "R12-09"),
    ("curl-file-url-benign", "allow", "curl -s file://$PWD/README.md", None),
    ("git-C-diff-no-index", "deny", "git -C .cuticle diff --no-index /dev/null key", "R12-09"),
    ("git-diff-no-index", "deny", "git diff --no-index /dev/null .cuticle/key", None),
    ("git-C-benign", "allow", "git -C src diff --no-index /dev/null app.py", None),
    ("sqlite-import", "deny", "sqlite3 :memory: \".import .cuticle/key t\" \"select * from t\"", "R12-09"),
    ("sqlite-import-benign", "allow", "sqlite3 :memory: \".import rows.csv t\" \"select * from t\"", None),
    ("decoded-path", "deny", "cat $(echo LmN1dGljbGUva2V5 | base64 -d)", "R12-10"),
    ("python-glob", "deny", "python3 -c \"import glob;print(open(glob.glob('.c*/k*')[0]).read())\"", "R12-10"),
    ("python-glob-benign", "allow", "python3 -c \"import glob;print(open(glob.glob('src/*.py')[0]).read())\"", None),
]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Workspace:
    from rules.governance.policy import STARTER_POLICY
    root = tmp_path_factory.mktemp("keyreads") / "ws"
    shutil.copytree(ROOT / "sample-workspace", root)
    (root / ".cuticle").mkdir()
    (root / ".cuticle" / "key").write_text("3f" * 32 + "\n", encoding="ascii")
    (root / ".cuticle" / "serve.json").write_text('{"token": "' + "ab" * 16 + '"}\n', encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    shutil.copyfile(STARTER_POLICY, root / "chitin.yaml")
    return Workspace(root)


def _params():
    for rid, expect, cmd, finding in ROWS:
        marks = [pytest.mark.xfail(strict=True, reason=f"finding {finding}")] if finding else []
        yield pytest.param(expect, cmd, id=f"{rid}-{expect}", marks=marks)


@pytest.mark.parametrize(("expect", "command"), list(_params()))
def test_no_command_reads_the_key(installed: Workspace, expect: str, command: str) -> None:
    ev = evaluate_command(command, installed)
    assert ev.decision == expect, (ev.rule, ev.reason)
    if expect == "deny":
        assert ev.reason and ev.rule not in ("default-deny", "internal-error")
