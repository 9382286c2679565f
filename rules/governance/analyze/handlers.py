"""The tool -> handler table and each tool's category, in the priority order ``Walker.final`` tests them.
"""

from __future__ import annotations

from .archives import _h_7z, _h_cloud_copy, _h_patch, _h_tar, _h_unzip
from .awk import _h_awk
from .cuticle import _h_cuticle, _h_package
from .files import (
    _h_base64, _h_chmod, _h_compress, _h_copy, _h_dd, _h_infra, _h_mount, _h_recode, _h_rm, _h_sed, _h_sort,
    _h_source, _h_tee, _h_truncate_like, _h_unison,
    _h_uniq, _h_yq,
)
from .find import _h_find
from .runners import (
    _SERVER_DIR_OPTS, _h_at, _h_cmake, _h_container, _h_cpio, _h_crontab, _h_make, _h_remote, _h_screen, _h_script,
    _h_socat, _h_static_server, _h_tmux, _h_xmlstarlet,
)
from .git import _h_git
from .tools import DEVICE_WIPERS, ESCALATORS, INTERPRETERS, NET_TOOLS, READ_TOOLS, SHELLS, SQL_CLIENTS, WRITE_TOOLS

_FINAL = {
    "rm": _h_rm, "unlink": _h_truncate_like, "shred": _h_truncate_like, "truncate": _h_truncate_like,
    "touch": _h_truncate_like, "mkdir": _h_truncate_like, "rmdir": _h_truncate_like,
    "cp": _h_copy, "mv": _h_copy, "ln": _h_copy, "install": _h_copy,
    "tee": _h_tee, "sponge": _h_tee, "sed": _h_sed, "awk": _h_awk, "chmod": _h_chmod, "chown": _h_chmod,
    "chgrp": _h_chmod, "dd": _h_dd, "git": _h_git, "source": _h_source, ".": _h_source, "tar": _h_tar,
    "sort": _h_sort, "uniq": _h_uniq, "patch": _h_patch, "unzip": _h_unzip, "bsdtar": _h_tar, "7z": _h_7z,
    "7za": _h_7z, "7zz": _h_7z, "unrar": _h_7z, "aws": _h_cloud_copy, "gsutil": _h_cloud_copy, "yq": _h_yq, "base64": _h_base64, "find": _h_find,
    "terraform": _h_infra, "tofu": _h_infra, "pulumi": _h_infra, "kubectl": _h_infra, "helm": _h_infra,
    "cdk": _h_infra, "cdktf": _h_infra,
    "script": _h_script, "socat": _h_socat, "xmlstarlet": _h_xmlstarlet, "xml": _h_xmlstarlet,
    "at": _h_at, "batch": _h_at, "crontab": _h_crontab, "tmux": _h_tmux, "screen": _h_screen, "ssh": _h_remote,
    "docker": _h_container, "podman": _h_container, "nerdctl": _h_container,
    "mount": _h_mount, "cpio": _h_cpio, **{t: _h_static_server for t in _SERVER_DIR_OPTS},
    "make": _h_make, "gmake": _h_make, "cmake": _h_cmake,
    "cuticle": _h_cuticle, "pip": _h_package, "pipx": _h_package, "uv": _h_package,
    **{t: _h_compress for t in ("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "lz4",
                                "zstd", "unzstd", "pigz", "compress", "uncompress", "lzip", "brotli")},
    **{t: _h_recode for t in ("dos2unix", "unix2dos", "mac2unix", "unix2mac", "iconv", "recode")},
    "unison": _h_unison,
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
