"""The tool vocabulary: which programs are shells, interpreters, fetchers, network, SQL, read, write, wiper and
escalation tools, and the smaller sets the walker's data-flow tests use.
"""

from __future__ import annotations

from tiers.lazy import LazyRe

from ..invariants._targets import FIXES

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ash", "ksh", "mksh", "fish", "csh", "tcsh", "yash", "posh"})
INTERPRETERS = frozenset({"python", "node", "perl", "ruby", "php", "deno", "bun", "lua", "luajit", "rscript",
                          "pwsh", "powershell", "osascript", "tclsh", "jshell", "irb", "julia"})
FETCHERS = frozenset({"curl", "wget", "fetch", "http", "https", "xh", "xhs", "aria2c", "lwp-request", "get",
                      "lynx", "w3m", "links", "httpie", "curlie"})
NET_TOOLS = FETCHERS | frozenset({"ssh", "scp", "sftp", "ftp", "nc", "socat", "telnet", "gh", "rsync", "ping",
                                  "dig", "nslookup", "host", "whois", "mosh", "tftp", "rclone", "s3cmd"})
SQL_CLIENTS = frozenset({"psql", "mysql", "sqlite3", "duckdb", "sqlcmd", "clickhouse-client", "cockroach",
                         "mysqlsh", "pgcli", "mycli", "litecli", "usql", "snowsql", "bq"})
READ_TOOLS = frozenset({"read", "grep", "find", "ls", "wc", "diff", "cmp", "file", "stat", "du", "df", "pwd",
                        "which", "whereis", "type", "realpath", "readlink", "basename", "dirname", "uniq", "cut",
                        "tr", "jq", "column", "nl", "od", "hexdump", "strings", "md5sum", "sha1sum", "sha256sum",
                        "sha512sum", "cksum", "test", "[", "[[", "true", "false", ":", "date", "printenv", "id",
                        "whoami", "uname", "hostname", "ps", "free", "uptime", "cd", "pushd", "popd", "tac", "rev",
                        "fold", "fmt", "paste", "join", "comm", "expand", "unexpand", "look", "zcat", "zgrep",
                        "zless", "xzcat", "bzcat", "lsof", "env", "set", "locale", "tput", "seq", "yes", "sleep",
                        "wait", "history", "alias", "hash", "command", "getent", "groups", "nproc", "lscpu",
                        "tokei", "cloc", "awk", "sed", "sort", "base64", "xxd", "iconv", "shasum", "((…))", "let",
                        "local", "declare", "typeset", "readonly", "shift", "return", "exit", "break", "continue",
                        "trap", "umask", "ulimit", "jobs", "fg", "bg", "disown", "times", "help", "man", "info",
                        "tldr", "apropos", "whatis", "printf", "echo", "export", "unset", "shopt", "setopt",
                        "unalias"})
WRITE_TOOLS = frozenset({"vi", "nano", "emacs", "ex", "pico", "micro", "joe", "ssh-keygen", "tee", "cp", "mv", "ln", "install", "touch", "mkdir", "rmdir", "rm", "unlink", "truncate",
                         "chmod", "chown", "chgrp", "dd", "patch", "split", "csplit", "shred", "sponge", "ed",
                         "mktemp", "link", "chattr", "setfacl", "rename", "mkfifo", "mknod"})
DEVICE_WIPERS = frozenset({"mkfs", "fdisk", "sfdisk", "parted", "wipefs", "mkswap", "blkdiscard", "sgdisk",
                           "cfdisk", "format", "diskutil"})
ESCALATORS = frozenset({"sudo", "doas", "su", "pkexec", "runuser", "run0", "sudo-rs", "gosu", "setpriv",
                        "visudo", "setcap", "usermod", "chpasswd", "passwd", "newgrp", "sg"})
DECODE_FLAGS = frozenset({"-d", "--decode", "-D"})


#: commands that look at names and metadata only (a stat, a test, a listing): never a read of the content
_META_TOOLS = frozenset({"ls", "stat", "test", "[", "[[", "du", "df", "realpath", "readlink", "basename", "dirname",
                         "file", "lsof", "exa", "eza", "tree", "pwd", "which", "type", "command"})
#: commands that may name the state directory without reading its files (deleting or moving it is a write)
_STATE_DIR_OK = frozenset({"rm", "rmdir", "mv", "chmod", "chown", "chgrp", "touch", "mkdir", "cd", "pushd", "find",
                           "git", "cuticle"})
_POSITIONAL = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*", "#")
_CWD_OR_VARS = frozenset({"cd", "pushd", "export", "declare", "local", "readonly", "typeset"})


#: tools whose output carries a credential file's contents when they read one
_SECRET_CARRIERS = frozenset({"read", "base64", "xxd", "gzip", "tar", "zip", "openssl", "gpg"})
_FILTERS = frozenset({"cat", "read", "tee", "tr", "sed", "awk", "head", "tail", "gunzip", "zcat", "xz", "unxz",
                      "bunzip2", "bzcat", "gzip", "sort", "uniq", "grep", "cut", "rev", "dos2unix", "iconv",
                      "base64", "xxd", "openssl", "gpg", "jq"})

#: what a denial tells the agent to do instead, per invariant (each text lives in its invariant's module)
_SELF_FIX = FIXES


_DECODER_TOOLS = frozenset({"base64", "base32", "basenc", "xxd", "uudecode", "unbase64", "openssl", "python"})
#: every tool the end of ``Walker.final`` does something for (the others skip it)
_TAIL_TOOLS = FETCHERS | _DECODER_TOOLS | _FILTERS | _CWD_OR_VARS | _SECRET_CARRIERS | {"echo", "printf"}

#: web servers that serve a directory operand (or option), else the working directory
SERVER_DIR_OPTS = {"httpd": ("-h",), "http-server": (), "live-server": (), "serve": (), "darkhttpd": (),
                   "miniserve": (), "caddy": ("--root", "-r")}

#: the bundled-letters first operand of tar (``tar xzf``), which a reader and the archive handler both recognise
_TAR_LETTERS = LazyRe(r"[a-zA-Z]+")
