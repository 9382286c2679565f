"""git runs commands named by its options and settings, and writes files named by its options: each is judged as
what git does with it. A command-valued option (``clone -u``, ``fetch --upload-pack``, ``difftool -x``, ``grep -O``,
``filter-branch --tree-filter``) or setting (``mergetool.X.cmd``, ``tar.X.command``, ``hook.X.command``,
``submodule.X.update=!…``…), and an ``ext::`` remote URL, are walked as the command lines they are; an output
option (``--output``, ``archive -o``, ``bundle create F``, ``format-patch -o DIR``) is a write of its file; hooks
copied from a template, programs from an exec path and a setting whose value is only known when git runs are
programs cuticle cannot see. Ordinary values stay allowed."""

from __future__ import annotations

import pytest

from command_rows import assert_decision, params, sample_workspace
from tiers.workspace import Workspace

W = "echo x >> MEMORY.md"
#: (id, expected decision, command, finding or None)
ROWS = [
    ("clone-upload-pack", "deny", f"git clone -u 'sh -c \"{W}\"' /srv/r.git /srv/out", None),
    ("clone-upload-pack-equals", "deny", f"git clone --upload-pack='{W}' /srv/r.git /srv/out", None),
    ("fetch-upload-pack", "deny", f"git fetch --upload-pack='{W}' /srv/r.git", None),
    ("ls-remote-upload-pack", "deny", f"git ls-remote --upload-pack '{W}' /srv/r.git", None),
    ("push-receive-pack", "deny", f"git push --receive-pack='{W}' /srv/r.git feat", None),
    ("clone-ext-url", "deny", "git -c protocol.ext.allow=always clone 'ext::sh -c echo% x% >>% MEMORY.md' /srv/o",
     None),
    ("archive-remote-ext-url", "deny", "git archive --remote='ext::sh -c echo% x% >>% MEMORY.md' HEAD", None),
    ("push-repo-ext-url", "deny", "git push --repo='ext::sh -c echo% x% >>% MEMORY.md'", None),
    ("insteadof-ext-url", "deny", "git config url.'ext::sh -c echo% x% >>% MEMORY.md'.insteadOf https://x/", None),
    ("insteadof-benign", "allow", "git config --global url.ssh://git@github.com/.insteadOf https://github.com/", None),
    ("remote-add-ext-url", "deny", "git remote add evil 'ext::sh -c echo% x% >>% USER.md'", None),
    ("config-remote-url-ext", "deny", "git config remote.evil.url 'ext::sh -c echo% x% >>% USER.md'", None),
    ("clone-config-fsmonitor", "deny", f"git clone -c core.fsmonitor='{W}' https://example.com/x.git /srv/o", None),
    ("clone-template", "deny", "git clone --template=/srv/tpl https://example.com/x.git /srv/o", None),
    ("init-template", "deny", "git init --template=/srv/tpl", None),
    ("config-template-dir", "deny", "git config --global init.templateDir /srv/tpl", None),
    ("exec-path", "deny", "git --exec-path=/srv/bin merge src", None),
    ("config-env-unknown", "deny", "git --config-env=core.fsmonitor=HOOK status", None),
    ("config-env-known", "deny", f"export HOOK='{W}'; git --config-env=core.fsmonitor=HOOK status", None),
    ("config-env-benign", "allow", "git --config-env=user.name=NAME commit -m x", None),
    ("difftool-extcmd", "deny", f"git difftool -y -x 'sh -c \"{W}\"' HEAD", None),
    # short options bundled into one word, as git's option parser reads them
    ("difftool-extcmd-bundled", "deny", f"git difftool -yx 'sh -c \"{W}\"' HEAD", None),
    ("difftool-extcmd-bundled-glued", "deny", f"git difftool -yx'sh -c \"{W}\"' HEAD", None),
    ("clone-upload-pack-bundled", "deny", f"git clone -qu 'sh -c \"{W}\"' /srv/r.git /srv/out", None),
    ("difftool-bundled-benign", "allow", "git difftool -yd HEAD~1", None),
    ("difftool-extcmd-equals", "deny", f"git difftool --extcmd='{W}' HEAD", None),
    ("grep-pager", "deny", f"git grep -O'sh -c \"{W}\"' foo", None),
    ("grep-pager-long", "deny", f"git grep --open-files-in-pager='{W}' foo", None),
    ("grep-pattern-benign", "allow", "git grep -O foo", None),
    ("filter-branch-tree-filter", "deny", f"git filter-branch --tree-filter '{W}' HEAD", None),
    ("send-email-to-cmd", "deny", f"git send-email --to-cmd='{W}' 0001.patch", None),
    ("mergetool-cmd", "deny", f"git config mergetool.x.cmd '{W}'", None),
    ("difftool-cmd", "deny", f"git config difftool.x.cmd '{W}'", None),
    ("diff-filter", "deny", f"git config interactive.diffFilter '{W}'", None),
    ("tar-command", "deny", f"git config tar.tgz.command '{W}'", None),
    ("trailer-command", "deny", f"git config trailer.x.cmd '{W}'", None),
    ("hook-command", "deny", f"git config hook.pre-commit.command '{W}'", None),
    ("submodule-update-command", "deny", f"git config submodule.x.update '!{W}'", None),
    ("submodule-update-mode-benign", "allow", "git config submodule.x.update rebase", None),
    ("alternate-refs-command", "deny", f"git config core.alternateRefsCommand '{W}'", None),
    ("ssh-key-command", "deny", f"git config gpg.ssh.defaultKeyCommand '{W}'", None),
    ("man-viewer-command", "deny", f"git config man.x.cmd '{W}'", None),
    ("upload-pack-setting", "deny", f"git config remote.origin.uploadpack '{W}'", None),
    ("config-file-option-before-key", "deny", f"git config --file .git/config core.pager '{W}'", None),
    ("config-file-is-policy", "deny", "git config -f chitin.yaml a.b c", None),
    ("config-file-other-benign", "allow", "git config -f build/x.ini a.b c", None),
    ("config-get-benign", "allow", "git config --get core.pager", None),
    ("config-set-benign", "allow", "git config set user.name x", None),
    ("config-worktree-workspace", "deny", "git -C /srv/repo config core.worktree \"$PWD\"", None),
    ("diff-output", "deny", "git diff --output=MEMORY.md HEAD", None),
    ("log-output-separate", "deny", "git log -p --output USER.md", None),
    ("show-output-policy", "deny", "git show --output=chitin.yaml HEAD", None),
    ("archive-output", "deny", "git archive -o MEMORY.md HEAD", None),
    ("archive-output-glued", "deny", "git archive -oMEMORY.md HEAD", None),
    ("bundle-into-state", "deny", "git bundle create .cuticle/x.bundle HEAD", None),
    ("format-patch-into-state", "deny", "git format-patch -o .cuticle HEAD~1", None),
    ("format-patch-md-into-memory", "deny", "git format-patch --suffix=.md -o memory HEAD~1", None),
    ("format-patch-benign", "allow", "git format-patch -o /srv/patches HEAD~1", None),
    ("format-patch-into-memory-dir-benign", "allow", "git format-patch -o memory HEAD~1", None),
    ("diff-output-benign", "allow", "git diff --output=/srv/x.diff HEAD", None),
    ("archive-benign", "allow", "git archive -o build/src.tar HEAD", None),
    ("log-benign", "allow", "git log --oneline -5", None),
    ("diff-benign", "allow", "git diff --stat", None),
]


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    return Workspace(sample_workspace(tmp_path_factory.mktemp("gitopts") / "ws"))


@pytest.mark.parametrize(("expect", "command"), params(ROWS))
def test_what_git_runs_or_writes_through_options_and_settings_is_judged(ws: Workspace, expect: str,
                                                                         command: str) -> None:
    assert_decision(ws, expect, command)
