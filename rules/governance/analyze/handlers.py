"""The tool -> handler table and each tool's category, in the priority order ``Walker.final`` tests them.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from collections.abc import Callable

from .tools import (
    DEVICE_WIPERS, ESCALATORS, INTERPRETERS, NET_TOOLS, READ_TOOLS, SERVER_DIR_OPTS, SHELLS, SQL_CLIENTS, WRITE_TOOLS,
)

#: tool -> "module:handler" of this package; the module is imported the first time a command runs the tool
#: (:func:`final_handler`): a hook call pays only for the tools its command uses
_FINAL = {
    "rm": "files:_h_rm", "unlink": "files:_h_truncate_like", "shred": "files:_h_truncate_like",
    "truncate": "files:_h_truncate_like", "touch": "files:_h_truncate_like", "mkdir": "files:_h_truncate_like",
    "rmdir": "files:_h_truncate_like", "cp": "files:_h_copy", "mv": "files:_h_copy", "ln": "files:_h_copy",
    "install": "files:_h_copy", "tee": "files:_h_tee", "sponge": "files:_h_tee", "sed": "files:_h_sed",
    "awk": "awk:_h_awk", "chmod": "files:_h_chmod", "chown": "files:_h_chmod", "chgrp": "files:_h_chmod",
    "dd": "files:_h_dd", "git": "git:_h_git", "source": "files:_h_source", ".": "files:_h_source",
    "tar": "archives:_h_tar", "sort": "files:_h_sort", "uniq": "files:_h_uniq", "patch": "archives:_h_patch",
    "unzip": "archives:_h_unzip", "bsdtar": "archives:_h_tar", "7z": "archives:_h_7z", "7za": "archives:_h_7z",
    "7zz": "archives:_h_7z", "unrar": "archives:_h_7z", "aws": "archives:_h_cloud_copy",
    "gsutil": "archives:_h_cloud_copy", "yq": "files:_h_yq", "base64": "files:_h_base64", "find": "find:_h_find",
    "terraform": "files:_h_infra", "tofu": "files:_h_infra", "pulumi": "files:_h_infra", "kubectl": "files:_h_infra",
    "helm": "files:_h_infra", "cdk": "files:_h_infra", "cdktf": "files:_h_infra", "script": "runners:_h_script",
    "socat": "runners:_h_socat", "xmlstarlet": "runners:_h_xmlstarlet", "xml": "runners:_h_xmlstarlet",
    "at": "runners:_h_at", "batch": "runners:_h_at", "crontab": "runners:_h_crontab", "tmux": "runners:_h_tmux",
    "screen": "runners:_h_screen", "ssh": "runners:_h_remote", "docker": "runners:_h_container",
    "podman": "runners:_h_container", "nerdctl": "runners:_h_container", "mount": "files:_h_mount",
    "cpio": "runners:_h_cpio", **{t: "runners:_h_static_server" for t in SERVER_DIR_OPTS}, "make": "runners:_h_make",
    "gmake": "runners:_h_make", "cmake": "runners:_h_cmake", "cuticle": "cuticle:_h_cuticle",
    "pip": "cuticle:_h_package", "pipx": "cuticle:_h_package", "uv": "cuticle:_h_package",
    **{t: "files:_h_compress" for t in ("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "lz4",
                                        "zstd", "unzstd", "pigz", "compress", "uncompress", "lzip", "brotli")},
    **{t: "files:_h_recode" for t in ("dos2unix", "unix2dos", "mac2unix", "unix2mac", "iconv", "recode")},
    "unison": "files:_h_unison",
}

_C_HANDLER, _C_SHELL, _C_INTERP, _C_SQL, _C_WIPER, _C_ESCALATOR, _C_NET, _C_WRITE, _C_READ, _C_EXEC = range(10)


#: how ``Walker.final`` handles each tool some set names, filled on first use (one dict lookup per command): the
#: first of _FINAL (a handler), SHELLS, INTERPRETERS, SQL_CLIENTS, DEVICE_WIPERS (and ``mkfs*``), ESCALATORS,
#: NET_TOOLS, WRITE_TOOLS and READ_TOOLS that holds it; any other tool is run as an exec
_CATEGORIES: dict[str, int] = {}


def _category_missing(tool: str) -> int:
    """The category of a tool :data:`_CATEGORIES` lacks: the table is built on the first call; after that a
    missing tool is in none of the sets, so only the ``mkfs`` prefix test remains."""
    if not _CATEGORIES:
        # lowest priority first, so that a tool in two sets ends with the earlier set's category
        for members, cat in ((READ_TOOLS, _C_READ), (WRITE_TOOLS, _C_WRITE), (NET_TOOLS, _C_NET),
                             (ESCALATORS, _C_ESCALATOR), (DEVICE_WIPERS, _C_WIPER), (SQL_CLIENTS, _C_SQL),
                             (INTERPRETERS, _C_INTERP), (SHELLS, _C_SHELL), (_FINAL, _C_HANDLER)):
            for t in members:
                _CATEGORIES[t] = _C_WIPER if t.startswith("mkfs") and cat > _C_WIPER else cat
        hit = _CATEGORIES.get(tool)
        if hit is not None:
            return hit
    return _C_WIPER if tool.startswith("mkfs") else _C_EXEC


_HANDLERS: dict[str, Callable] = {}


def final_handler(tool: str) -> Callable:
    """The handler of a tool of :data:`_FINAL`, its module imported on first use."""
    fn = _HANDLERS.get(tool)
    if fn is None:
        module, name = _FINAL[tool].split(":")
        fn = _HANDLERS[tool] = getattr(__import__(f"{__package__}.{module}", fromlist=[name]), name)
    return fn
