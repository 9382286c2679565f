"""Network tools: the hosts a fetcher or remote tool talks to, curl's upload/output files and what a download
becomes (decides no-network-egress for shell commands).
"""

from __future__ import annotations

from tiers.lazy import LazyRe

from ..invariants import no_network_egress
from ..paths import DEVICES, is_pattern
from .model import Effect
from .tools import NET_TOOLS
from .words import _operands

_URL = LazyRe(r"(?i)\b(?:https?|ftp|wss?|s3|gs)://([^/\s:'\"@]+@)?([^/\s:'\"?#]+)")


# network ---------------------------------------------------------------------------------------------
def run_net(self, tool, argv, cwd, stdin, effects):
    args = argv[1:]
    hosts: list[str] = []
    for a in args:
        if "://" in a:  # every match holds it: most arguments need no regex scanner
            for m in _URL.finditer(a):
                hosts.append(m.group(2).lower())
    uploads: list[str] = []
    outputs: list[str] = []
    if tool in ("ssh", "scp", "sftp", "rsync", "mosh"):
        for a in _operands(args):
            if "@" in a or (":" in a and not a.startswith("/") and "://" not in a):
                host = a.split(":", 1)[0].split("@")[-1]
                if host:
                    hosts.append(host.lower())
        if tool in ("scp", "rsync"):
            ops = _operands(args)
            if len(ops) >= 2 and (":" in ops[-1] and "://" not in ops[-1]):
                uploads.extend(o for o in ops[:-1] if ":" not in o)
            elif ops:
                outputs.append(ops[-1])
                if len(ops) >= 2 and any(o.endswith("/") or o.endswith("/.") for o in ops[:-1]):
                    self.cwd_hint = cwd
                    self.reach_check(self.env.norm(ops[-1].rstrip("/") + "/$(…)", cwd), tool,
                                     "copies a directory whose content is not checked over")
        if tool == "ssh":
            ops = _operands(args)
            if not hosts and ops:
                hosts.append(ops[0].split("@")[-1].lower())
    if tool == "gh":
        hosts.append("github.com")
        # gh gist create FILES, gh release upload TAG FILES, --body-file/-F FILE: the files leave the machine
        ops = _operands(args)
        if ops[:2] == ["gist", "create"]:
            uploads.extend(ops[2:])
        elif ops[:2] == ["release", "upload"]:
            uploads.extend(ops[3:])
        for k, a in enumerate(args):
            if a in ("--body-file", "-F") and k + 1 < len(args):
                uploads.append(args[k + 1])
            elif a.startswith("--body-file="):
                uploads.append(a.split("=", 1)[1])
    if tool in ("rclone", "s3cmd"):
        ops = _operands(args)
        if len(ops) >= 3 and ":" in ops[-1]:
            uploads.extend(o for o in ops[1:-1] if ":" not in o)
    if tool in ("nc", "socat", "telnet"):
        ops = _operands(args)
        if ops:
            hosts.append(ops[0].lower())
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if tool in ("curl", "curlie"):
            pass  # parsed as a whole below (short-option clusters take their value from the rest)
        elif tool in ("wget", "wget2"):
            if a in ("-O", "--output-document"):
                outputs.append(nxt)
            elif a.startswith("--output-document="):
                outputs.append(a.split("=", 1)[1])
            elif a.startswith("-") and not a.startswith("--") and a.endswith("O") and nxt:
                outputs.append(nxt)
            elif a.startswith("--post-file=") or a.startswith("--body-file="):
                uploads.append(a.split("=", 1)[1])
            elif a in ("--post-file", "--body-file"):
                uploads.append(nxt)
        i += 1
    if tool in ("curl", "curlie"):
        _curl_files(args, uploads, outputs)
    if tool in ("wget", "wget2") and not outputs:
        outputs.extend(_url_basename(x) for x in args if "://" in x)
    if self.sub_secret:
        self.report(no_network_egress.secret_in_argument(tool, segment=self.at))
    if stdin is not None and stdin.secret and tool in NET_TOOLS:
        self.report(no_network_egress.secret_piped(tool, segment=self.at))
    for up in uploads:
        if up in ("-", ""):
            continue
        self.report(no_network_egress.upload(self.env, self.env.norm(up, cwd), tool, cwd, segment=self.at))
    for host in hosts:
        effects.append(Effect("net", host, "host"))
        if self.opts.allowed_hosts is not None:
            self.report(no_network_egress.host_violation(tool, host, self.opts.allowed_hosts, segment=self.at))
    for out in outputs:
        if out and out != "-" and out not in DEVICES:
            ref = self.env.norm(out, cwd)
            effects.append(self.write_effect(ref, f"{tool} output"))
            if ref.abs:
                self.downloads.add(ref.abs)
    if not hosts and tool in ("rsync", "scp"):
        return "write", None  # both ends on this machine: a copy, not a transfer
    return "net", None


#: curl options that take a value (short letters and long names); a short cluster's value starts after the letter
_CURL_VALUED_SHORT = frozenset("AbcCdDeEFhHKmoPQrtTuUwxXyYz")
_CURL_DATA = frozenset({"d", "data", "data-binary", "data-ascii", "data-urlencode", "json"})


def _curl_files(args: list[str], uploads: list[str], outputs: list[str]) -> None:
    """The files a curl command sends (``-d @f``, ``--data-binary @f``, ``--data-urlencode name@f``, form fields
    ``-F name=@f`` / ``name=<f``, ``-T f``) and writes (``-o f``, ``-O``, the cookie jar ``-c``, headers ``-D``,
    traces), in any option spelling: ``-sF f=@x``, ``-Fname=@x``, ``--form=…``, ``-sSLo out``."""
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            break
        pairs: list[tuple[str, str]] = []
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            if not eq and name in ("data", "data-binary", "data-ascii", "data-urlencode", "data-raw", "json", "form",
                                   "form-string", "upload-file", "output", "header", "user", "url", "request",
                                   "config", "cookie", "cookie-jar", "referer", "user-agent", "proxy", "write-out",
                                   "range", "max-time", "output-dir", "cacert", "cert", "key", "dump-header",
                                   "trace", "trace-ascii", "stderr", "libcurl", "etag-save"):
                value = args[i] if i < len(args) else ""
                i += 1
            pairs.append((name, value))
        elif a.startswith("-") and len(a) > 1:
            body = a[1:]
            for k, ch in enumerate(body):
                if ch in _CURL_VALUED_SHORT:
                    value = body[k + 1:]
                    if not value:
                        value = args[i] if i < len(args) else ""
                        i += 1
                    pairs.append((ch, value))
                    break
                pairs.append((ch, ""))
        for name, value in pairs:
            if name in _CURL_DATA:
                if value.startswith("@"):
                    uploads.append(value[1:])
                elif name == "data-urlencode" and "@" in value and "=" not in value.split("@", 1)[0]:
                    uploads.append(value.split("@", 1)[1])  # name@file: the file's content, encoded
            elif name in ("F", "form"):
                field_value = value.split("=", 1)[1] if "=" in value else ""
                if field_value[:1] in ("@", "<"):
                    uploads.append(field_value[1:].split(";", 1)[0].strip('"'))
            elif name in ("T", "upload-file"):
                uploads.append(value)
            elif name in ("o", "output", "c", "cookie-jar", "D", "dump-header", "trace", "trace-ascii", "stderr",
                          "libcurl", "etag-save"):
                outputs.append(value)  # the body, the cookie jar, the headers, a trace: each is a file written
            elif name in ("O", "remote-name"):
                outputs.extend(_url_basename(x) for x in args if "://" in x)


def _url_basename(url: str) -> str:
    path = url.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    base = path.rstrip("/").rsplit("/", 1)[-1] if "/" in path else "index.html"
    return base or "index.html"
