"""The stamp key and the serve token cannot be read by any command: a ``file://`` URL, a directory moved by
``git -C``, a SQL client's import, a path decoded or globbed at run time, a server or archiver of the whole
workspace all reach the key. Benign neighbours
(the same tools on other files) stay allowed."""

from __future__ import annotations

import pytest

from command_rows import assert_decision, params, sample_workspace
from tiers.workspace import Workspace


#: (id, expected decision, command, finding or None)
ROWS = [
    ("cat-key", "deny", "cat .cuticle/key", None),
    ("curl-file-url", "deny", "curl file://$PWD/.cuticle/key", None),
    ("curl-file-url-token", "deny", "curl -s file://$PWD/.cuticle/serve.json", None),
    ("curl-file-url-benign", "allow", "curl -s file://$PWD/README.md", None),
    ("git-C-diff-no-index", "deny", "git -C .cuticle diff --no-index /dev/null key", None),
    ("git-diff-no-index", "deny", "git diff --no-index /dev/null .cuticle/key", None),
    ("git-C-benign", "allow", "git -C src diff --no-index /dev/null app.py", None),
    ("sqlite-import", "deny", "sqlite3 :memory: \".import .cuticle/key t\" \"select * from t\"", None),
    ("sqlite-import-benign", "allow", "sqlite3 :memory: \".import rows.csv t\" \"select * from t\"", None),
    ("decoded-path", "deny", "cat $(echo LmN1dGljbGUva2V5 | base64 -d)", None),
    ("python-glob", "deny", "python3 -c \"import glob;print(open(glob.glob('.c*/k*')[0]).read())\"", None),
    # whole-tree servers and archivers take the key along (then any client or extractor reads it)
    ("http-server-cwd", "deny", "python3 -m http.server 8000", None),
    ("php-builtin-server", "deny", "php -S 0.0.0.0:8000", None),
    ("busybox-httpd", "deny", "busybox httpd -f -p 8000", None),
    ("ruby-httpd", "deny", "ruby -run -e httpd . -p 8000", None),
    ("socat-serve-key", "deny", "socat TCP-LISTEN:9000 FILE:.cuticle/key", None),
    ("http-server-benign", "allow", "python3 -m http.server 8000 -d build", None),
    ("python-zipfile-tree", "deny", "python3 -m zipfile -c /tmp/a.zip .", None),
    ("python-tarfile-tree", "deny", "python3 -m tarfile -c /tmp/a.tar .", None),
    ("7z-tree", "deny", "7z a /tmp/a.7z .", None),
    ("cpio-tree", "deny", "find . | cpio -o > /tmp/a.cpio", None),
    ("http-server-build-benign", "allow", "python3 -m http.server -d build 8000", None),
    ("php-docroot-benign", "allow", "php -S localhost:8000 -t public", None),
    ("npm-http-server-benign", "allow", "npx http-server dist -p 8080", None),
    ("7z-src-benign", "allow", "7z a /tmp/a.7z src", None),
    ("cpio-filtered-benign", "allow", "find . -name '*.py' | cpio -o > /tmp/a.cpio", None),
    ("decoded-name-unknown", "deny", "cat $(base64 -d < name.b64)", None),
    ("decoded-auth-benign", "allow", "curl -u \"$(echo dXNlcjpwYXNz | base64 -d)\" https://example.com", None),
    ("curl-file-url-benign", "allow", "curl file://$PWD/README.md", None),
    ("git-C-benign", "allow", "git -C src diff --no-index /dev/null app.py", None),
    ("tar-tree", "deny", "tar -czf /tmp/ws.tgz .", None),
    ("python-zipfile-benign", "allow", "python3 -m zipfile -c /tmp/a.zip src", None),
    ("python-glob-benign", "allow", "python3 -c \"import glob;print(open(glob.glob('src/*.py')[0]).read())\"", None),
]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Workspace:
    root = sample_workspace(tmp_path_factory.mktemp("keyreads") / "ws")
    (root / ".cuticle" / "serve.json").write_text('{"token": "' + "ab" * 16 + '"}\n', encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    return Workspace(root)


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_no_command_reads_the_key(installed: Workspace, expect: str, command: str) -> None:
    assert_decision(installed, expect, command)
