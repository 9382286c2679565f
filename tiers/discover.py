"""Which installed workspace protects a path: the rule every entry point shares (the CLI, the hook, its client).

Only ``os``: the hook's forwarding client runs it before anything else is loaded.
"""

from __future__ import annotations

import os

STATE_DIR = ".cuticle"
KEY_NAME = "key"


CONFIG_NAME = "config.toml"


def is_installed(directory: str | os.PathLike[str]) -> bool:
    """Whether ``directory`` holds a `.cuticle/` as `cuticle init` leaves it: a real directory (not a symlink)
    with a non-empty stamp key and a `config.toml`. A bare or stray `.cuticle/` (made by hand, by an agent, or
    by a command that only needed a key) is not an installation."""
    state = os.path.join(directory, STATE_DIR)
    try:
        if os.path.islink(state):
            return False
        return (os.stat(os.path.join(state, KEY_NAME)).st_size > 0
                and os.path.isfile(os.path.join(state, CONFIG_NAME)))
    except (OSError, ValueError):
        return False


def installed_root(start: str | os.PathLike[str] | None, project: str | None = None) -> str | None:
    """The protected workspace of ``start`` (a directory or a path in one, existing or not), as a real path:

    - ``project``, when the host named it (CLAUDE_PROJECT_DIR, OpenClaw ``workspaceDir``…), it is installed, and
      ``start`` lies inside it: the host, not the agent, says where the project is;
    - else the *outermost* installed directory at or above ``start``, so that a `.cuticle/` made inside a
      protected workspace never takes over;
    - None when nothing at or above ``start`` is installed (docs/gate.md, "Which workspace protects a path")."""
    if start is None:
        return None
    try:
        here = os.path.abspath(os.fspath(start))
        if project:
            top = os.path.abspath(os.fspath(project))
            if (here == top or here.startswith(top.rstrip(os.sep) + os.sep)) and is_installed(top):
                return os.path.realpath(top)
    except (TypeError, ValueError):
        return None
    found = None
    while True:
        if is_installed(here):
            found = here
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    if found is None:
        return None
    return os.path.realpath(found)
