"""Interpreter one-liners and nested shells: python/node/perl/ruby/php code that shells out, fetches, decodes,
executes, reads, writes or deletes; ``sh -c`` and scripts this command line wrote or downloaded.
"""

from __future__ import annotations

import re

from tiers.lazy import LazyRe

from ..paths import PathRef, is_pattern
from .archives import _extract
from .cuticle import code_imports_gate, cuticle_args, package_args
from .model import RANK
from ..invariants import no_gate_control, no_governance_self_modification, no_network_egress, no_secret_write
from ..invariants import script_execution_tracking as _sx
from ..invariants._targets import protected_write
from ..invariants.no_destructive_sql import destructive, sql_kind
from .tools import SHELLS
from .words import _short

def check_exec_of_download(self, path: str, cwd, lang: str = "sh", op: str = ";") -> None:
    if self.downloads or self.written:
        ref = self.env.norm(path, cwd)
        if ref.abs and ref.abs in self.downloads:
            self.report(_sx.downloaded_run(ref.display, segment=self.at))
        elif ref.abs and ref.abs in self.written:
            text = self.written.pop(ref.abs)  # pop: a script that runs itself is inspected once
            if lang in SHELLS or lang == "sh":
                self.run_text(text, cwd, f"script {ref.display}", op)
            else:
                self.scan_code(lang, text, cwd, op)


# shells ---------------------------------------------------------------------------------------------
def run_shell(self, tool, argv, cwd, via, op, stdin, effects, taints):
    script_idx = None
    i = 1
    reads_stdin = False
    while i < len(argv):
        a = argv[i]
        if a == "--" or a == "-":
            i += 1
            break
        if a.startswith("--"):
            if a in ("--rcfile", "--init-file"):
                i += 1
            i += 1
            continue
        if a.startswith("-") or a.startswith("+"):
            body = a[1:]
            if "c" in body:
                script_idx = i + 1
                break
            if "s" in body:
                reads_stdin = True
            if "o" in body or "O" in body:
                i += 1
            i += 1
            continue
        break
    if script_idx is not None:
        if script_idx < len(argv):
            self.shell_script(argv[script_idx], cwd, f"{tool} -c", op,
                              taints[script_idx] if script_idx < len(taints) else None)
        return "exec", None
    rest = argv[i:]
    if rest and not reads_stdin:
        target = rest[0]
        text = self.stream_text(argv, i, stdin)
        if text is not None:  # the script is a stream: stdin or a process substitution
            taint = taints[i] if i < len(taints) else None
            if taint or (stdin and stdin.taint and target in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")):
                self.report(_sx.script_from_stream(tool, segment=self.at))
                return "dangerous", None
            if text != "\x00unknown":
                self.run_text(text, cwd, f"{tool} {target}", op)
            return "exec", None
        self.check_exec_of_download(target, cwd, tool, op)
        if self.out.violations and self.out.violations[-1].invariant == "script-execution-tracking" \
                and self.out.violations[-1].segment == len(self.out.segments):
            return "dangerous", None
        return "exec", None
    # the shell reads its script from stdin
    if stdin is not None:
        if stdin.taint:
            self.report(_sx.piped_into(tool, stdin.taint, segment=self.at))
            return "dangerous", None
        if stdin.text:
            self.run_text(stdin.text, cwd, f"{tool} stdin", op)
    return "exec", None


# interpreters ---------------------------------------------------------------------------------------
def run_interpreter(self, tool, argv, cwd, via, op, stdin, effects, taints):
    code = None
    code_idx = None
    files: list[str] = []
    inplace = False
    i = 1
    code_flags = {"python": ("-c",), "node": ("-e", "--eval", "-p", "--print"), "perl": ("-e", "-E"),
                  "ruby": ("-e",), "php": ("-r",), "deno": ("eval",), "bun": ("-e", "--eval"),
                  "lua": ("-e",), "pwsh": ("-c", "-command", "-Command"),
                  "powershell": ("-c", "-command", "-Command"), "osascript": ("-e",), "rscript": ("-e",)}
    flags = code_flags.get(tool, ("-c", "-e"))
    script_given = False
    reads_stdin = False
    while i < len(argv):
        a = argv[i]
        if a in flags:
            code_idx = i + 1
            code = argv[i + 1] if i + 1 < len(argv) else ""
            i += 2
            continue
        if a.startswith("--") and "=" in a and a.split("=", 1)[0] in flags:
            code = a.split("=", 1)[1]
            code_idx = i
            i += 1
            continue
        if tool in ("perl", "ruby") and a.startswith("-") and not a.startswith("--") and a != "-":
            # an option cluster: -i takes the rest as its backup suffix (-i.bak), -e the rest as code (-pe1)
            # or else the next word, -M/-I/-l/-0/-x/-C/-r the rest as their value
            body = a[1:]
            taken = False
            for k, ch in enumerate(body):
                if ch == "i":
                    inplace = True
                    break
                if ch in "eE":
                    glued = body[k + 1:]
                    code_idx = i if glued else i + 1
                    code = glued if glued else (argv[i + 1] if i + 1 < len(argv) else "")
                    taken = not glued
                    break
                if ch in "MmIlx0Cdr":
                    break
            i += 2 if taken else 1
            continue
        if tool == "python" and a.startswith("-") and len(a) > 2 and not a.startswith("--") and "c" in a[1:]:
            # -Sc 'code', -uc 'code'
            if a[-1] == "c":
                code_idx = i + 1
                code = argv[i + 1] if i + 1 < len(argv) else ""
                i += 2
                continue
        if a == "-":
            reads_stdin = True
            i += 1
            break
        if a.startswith("-"):
            if tool == "python" and a in ("-m", "-W", "-X"):
                if a == "-m":
                    script_given = True
                    mod = argv[i + 1:i + 2]
                    rest = argv[i + 2:]
                    if mod == ["http.server"] or mod == ["SimpleHTTPServer"]:
                        # serves its directory (-d/--directory, else the working directory) to the network
                        d = next((rest[k + 1] for k, x in enumerate(rest[:-1]) if x in ("-d", "--directory")),
                                 next((x.split("=", 1)[1] for x in rest if x.startswith("--directory=")), "."))
                        self.dir_read(f"{tool} -m {mod[0]}", [d], cwd)
                    elif mod in (["zipfile"], ["tarfile"]) and rest[:1] and rest[0] in ("-c", "--create"):
                        self.dir_read(f"{tool} -m {mod[0]} -c", [x for x in rest[2:] if not x.startswith("-")],
                                      cwd)
                    if mod and (mod[0] == "gate" or mod[0].startswith("gate.")):
                        cuticle_args(self, f"{tool} -m {mod[0]}", rest)
                    elif mod == ["pip"]:
                        package_args(self, f"{tool} -m pip", rest)
                    if mod in (["zipfile"], ["tarfile"]) and rest[:1] and rest[0] in ("-e", "--extract"):
                        ops = [x for x in rest[1:] if not x.startswith("-")]
                        if ops:
                            _extract(self, f"python -m {mod[0]} -e", ops[0], [],
                                     ops[1] if len(ops) > 1 else ".", cwd, effects)
                            return "write", None
                    break
                i += 1
            i += 1
            continue
        if code is None:
            script_given = True
            self.check_exec_of_download(a, cwd, tool, op)
            text = self.stream_text(argv, i, stdin)
            if text is not None:  # the program is a stream: stdin or a process substitution
                taint = taints[i] if i < len(taints) else None
                if taint or (stdin is not None and stdin.taint and not a.startswith("<(…)")):
                    self.report(_sx.code_from_network(tool, segment=self.at))
                    return "dangerous", None
                if text != "\x00unknown":
                    return self.scan_code(tool, text, cwd, op, tuple(argv[i + 1:])), None
            break
        files.append(a)
        i += 1
    if tool == "php" and "-S" in argv:  # the built-in web server: its document root (-t DIR, else the cwd)
        self.dir_read("php -S", [argv[argv.index("-t") + 1] if "-t" in argv[:-1] else "."], cwd)
    if tool == "ruby" and code == "httpd" and any(x in ("-run", "-r") or x == "-run" for x in argv):
        ops = [x for x in [*files, *argv[i:]] if not x.startswith("-") and not x.isdigit()]  # -e httpd DIR
        self.dir_read("ruby -run -e httpd", ops[:1] or ["."], cwd)
    if code is not None:
        taint = taints[code_idx] if code_idx is not None and code_idx < len(taints) else None
        if taint:
            self.report(_sx.tainted_code(tool, taint, segment=self.at))
            return "dangerous", None
        typ = self.scan_code(tool, code, cwd, op, tuple(files) + tuple(argv[i:]))
        if inplace:
            files = files or argv[i:]
            for ref in self.paths([f for f in files if not f.startswith("-")], cwd):
                effects.append(self.write_effect(ref, f"{tool} -i"))
            typ = max(typ, "write", key=RANK.__getitem__)
        return typ, None
    if not script_given or reads_stdin:
        if stdin is not None and stdin.taint:
            self.report(_sx.piped_into(tool, stdin.taint, segment=self.at))
            return "dangerous", None
        if stdin is not None and stdin.text:
            return self.scan_code(tool, stdin.text, cwd, op), None
    return "exec", None


def scan_code(self, lang: str, code: str, cwd, op, args: tuple[str, ...] = ()) -> str:
    """Type inline interpreter code by what it shells out to, reads, writes and deletes.

    String literals joined with ``+``/``.``/``..`` count as one (``'MEM'+'ORY.md'``); a write whose target
    is not a literal (``open(sys.argv[1], 'a')``, a loop over ``glob('*.md')``) targets the script's
    arguments when the code reads its argv, else every protected path in reach; decoded code that is
    executed is dangerous."""
    typ = "exec"
    if lang == "python" and "gate" in code and code_imports_gate(code):
        self.report(no_gate_control.gate_import(lang, segment=self.at))
        typ = "dangerous"
    code = _join_literals(code)
    strings = [_strip_mode(x) for x in _string_literals(code)]
    self.cwd_hint = cwd
    for x in strings:
        if ("key" in x or "serve" in x or "cuti" in x or is_pattern(x)) and _pathish(x):
            # a glob in code (glob.glob('.c*/k*')) is matched as the shell would match it
            if self.check_state_secret(self.env.norm(x, cwd), x, f"{lang} code"):
                break
    else:
        if any(x.rstrip("/").endswith(".cuticle") for x in strings) and \
                any(x in ("key", "serve.json", "/key", "/serve.json") for x in strings):
            self.report(no_governance_self_modification.key_path_built(lang, segment=self.at))
    if _FETCH_API.search(code):
        for x in strings:
            if _pathish(x) and self.carries_protected(x, cwd):
                self.report(no_network_egress.code_sends(lang, x, segment=self.at))
                break
    if _FETCH_API.search(code) and _EXEC_API.search(code):
        self.report(_sx.code_fetches_and_runs(lang, segment=self.at))
        typ = "dangerous"
    if _DECODE_API.search(code) and _EXEC_API.search(code):
        self.report(_sx.code_decodes_and_runs(lang, segment=self.at))
        typ = "dangerous"
    for m in _SHELL_CALL.finditer(code):
        arg = _call_args(code, m.end())
        lits = _string_literals(arg)
        if not lits:
            continue
        text = " ".join(lits) if arg.lstrip().startswith(("[", "(", "%w", "qw")) or len(lits) > 1 and \
            "," in arg.split(lits[1])[0] else lits[0]
        start = len(self.out.segments)
        self.run_text(text, cwd, f"{lang} code", op)
        for seg in self.out.segments[start:]:
            if RANK[seg.type] > RANK[typ]:
                typ = seg.type
    for m in _BACKTICK.finditer(code) if lang in ("perl", "ruby", "php") else ():
        self.run_text(m.group(1), cwd, f"{lang} code", op)
    if _RMTREE_API.search(code):
        for s in strings:
            if _pathish(s):
                self.delete_effect(self.env.norm(s, cwd), f"{lang} code", recursive=True)
                typ = "dangerous"
    if _WRITE_API.search(code) or _RMTREE_API.search(code) or _OS_OPEN_WRITE.search(code):
        found = False
        for s in strings:
            if _pathish(s):
                ref = self.env.norm(s, cwd)
                if self.report(protected_write(self.env, ref, f"{lang} code", segment=self.at)):
                    found = True
                elif is_pattern(s):
                    found = self.reach_check(ref, f"{lang} code", "writes") or found
                elif self.report(no_secret_write.credential_write(self.env, ref, f"{lang} code", segment=self.at)):
                    found = True
        if not found and _computed_write(code):
            if _ARGV_API.search(code) and args:
                for a in args:
                    if not a.startswith("-"):
                        self.write_effect(self.env.norm(a, cwd), f"{lang} code (its argument)")
            else:
                self.reach_check(PathRef("unknown", "$(…)"), f"{lang} code", "writes")
        if RANK[typ] < RANK["write"]:
            typ = "write"
    for s in strings:
        kind = sql_kind(s)
        if kind == "destructive":
            self.report(destructive(f"{lang} code", _short(s), segment=self.at))
            typ = "dangerous"
    return typ
_FETCH_API = LazyRe(r"urlopen|urllib|requests\.(get|post)|http\.client|httpx|\bfetch\s*\(|https?\.get|"
                    r"Net::HTTP|open-uri|URI\.open|LWP|HTTP::Tiny|file_get_contents\s*\(\s*['\"]https?:|"
                    r"Invoke-WebRequest|iwr |DownloadString|curl_exec")
_EXEC_API = LazyRe(r"\bexec\s*\(|\beval\s*\(|\beval\s+(?=[\w$\"'])|\bcompile\s*\(|new\s+Function|\bFunction\s*\(|vm\.run|"
                   r"\bsystem\s*\(|popen|subprocess|child_process|Invoke-Expression|\biex\b|instance_eval|"
                   r"\bload\s*\(")
_DECODE_API = LazyRe(r"b64decode|base64\.decode|atob\s*\(|Buffer\.from\([^)]*(?:base64|hex)|decode_base64|"
                     r"unpack\s*\(\s*['\"][mH]|Base64\.decode|FromBase64String|codecs\.decode|fromhex|"
                     r"unhexlify|a2b_hex|a2b_base64|b32decode|b85decode|\bpack\s*\(\s*['\"]H|decompress|"
                     r"\bhex2bin|base64_decode|gzinflate|str_rot13|\\x[0-9a-fA-F]{2}.*\\x[0-9a-fA-F]{2}")
_SHELL_CALL = LazyRe(r"os\.system|os\.popen|os\.exec[lv]p?e?|subprocess\.(?:run|call|Popen|check_output|"
                     r"check_call|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn|"
                     r"(?:child_process\.|\b)(?:execSync|exec|spawnSync|spawn|execFileSync|execFile)|"
                     r"\bsystem|\bIO\.popen|Open3\.\w+|shell_exec|passthru|proc_open|\bqx|%x|Kernel\.exec|"
                     r"Deno\.(?:run|Command)|Bun\.(?:spawn|spawnSync|\$)")
_BACKTICK = LazyRe(r"`([^`]+)`")
_WRITE_API = LazyRe(r"open\s*\([^)]*['\"](?:[wax+][bt+]?|r\+[bt]?|rb\+)['\"]|inplace\s*=\s*(?:True|1)|"
                    r"\.open\s*\(\s*['\"][wax]|\.write_(?:text|bytes)|os\.(?:rename|replace|"
                    r"remove|unlink|symlink|link|truncate|chmod)|shutil\.(?:copy\w*|move)|writeFile|appendFile|"
                    r"createWriteStream|renameSync|rename\(|copyFile|unlinkSync|rmSync|fs\.rm\b|File\.(?:write|"
                    r"binwrite|delete|rename|open\([^)]*['\"][wa])|FileUtils\.|IO\.write|open\s*\(\s*\w+\s*,"
                    r"\s*['\"]?[>+]|\bunlink\b|file_put_contents|fopen\([^)]*['\"][wa]|Set-Content|Out-File|"
                    r"Add-Content|Remove-Item|Path\([^)]*\)\.(?:unlink|rename|replace|touch|write)|"
                    r"open\s*\(\s*(?:my\s+)?\$?\w+\s*,\s*['\"][>+]|"
                    # any language's link/copy/rename/truncate call on literal names (perl `link "a", "b"`,
                    # File::Copy `copy(…)`, node `fs.linkSync`, ruby `File.symlink`, php `copy(…)`)
                    r"(?:(?<![.\w$])|(?<=fs\.)|(?<=fsp\.)|(?<=promises\.)|(?<=\)\.)|(?<=File\.)|(?<=Copy::))"
                    r"(?:link|symlink|copy|copyfile|copy_file|rename|move|truncate|ftruncate|cp|mv)"
                    r"(?:Sync)?\s*[(\"']")
#: os.open with a flag that writes
_OS_OPEN_WRITE = LazyRe(r"os\.open\s*\([^)]*O_(?:WRONLY|RDWR|APPEND|CREAT|TRUNC)")
#: the script reads its own arguments (a path handed on the command line)
_ARGV_API = LazyRe(r"sys\.argv|process\.argv|\bARGV\b|\$ARGV|\$argv|@ARGV|\bargv\[")
#: calls that write the file named by their first argument (``open`` only with a write mode)
_WRITE_CALL = LazyRe(r"\b(open|os\.open|writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|"
                     r"File\.write|File\.open|IO\.write|file_put_contents|fopen|Path|shutil\.copy\w*|"
                     r"shutil\.move|os\.rename|os\.replace|os\.remove|os\.unlink|unlinkSync|rmSync)\s*\(")
_LITERAL_ARG = LazyRe(r"\s*(?:[rbuf]{0,2}'[^'\\]*'|[rbuf]{0,2}\"[^\"\\]*\")\s*")
_WRITE_MODE = LazyRe(r"['\"](?:[rbt]*[wax+][bt+]*|r\+|>>?|\+<|w\+?|a\+?)['\"]|O_(?:WRONLY|RDWR|APPEND|CREAT)|"
                     r"flags\s*:\s*['\"][wa]")


def _split_args(text: str) -> list[str]:
    """The top-level, comma-separated arguments of a call whose text starts after its ``(``."""
    out, depth, cur, quote = [], 0, [], ""
    for c in text:
        if quote:
            cur.append(c)
            if c == quote:
                quote = ""
            continue
        if c in "'\"`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(c)
    out.append("".join(cur))
    return out


_ASSIGNED_LITERAL = LazyRe(r"(?:^|[;\n(\s])(?:my\s+|const\s+|let\s+|var\s+|local\s+)?\$?([A-Za-z_]\w*)\s*=\s*"
                           r"(?:'[^'\\\n]*'|\"[^\"\\\n]*\")\s*(?=[;\n)]|$)")


def _computed_write(code: str) -> bool:
    """Some write call's target is not a string literal (a variable, argv, a joined or computed name). A
    variable assigned one literal in the code (``p = 'out.txt'``) counts as that literal (it is checked with the
    other literals); one assigned more than once, or anything else, is computed."""
    names: dict[str, int] = {}
    for m in _ASSIGNED_LITERAL.finditer(code):
        names[m.group(1)] = names.get(m.group(1), 0) + 1
    assigned = {n for n, k in names.items() if k == 1 and len(re.findall(r"\b%s\s*[+\-*/|&]?=" % re.escape(n), code)) == 1}
    for m in _WRITE_CALL.finditer(code):
        args = _split_args(code[m.end():m.end() + 400])
        name = m.group(1)
        if name in ("open", "File.open", "fopen", "Path", "os.open"):
            if name == "Path":
                tail = code[m.end():m.end() + 200]
                if not re.search(r"\)\.(?:write_text|write_bytes|open\s*\(\s*['\"][wa]|touch|unlink|rename)", tail):
                    continue
            elif not any(_WRITE_MODE.search(a) for a in args[1:3]):
                # perl: open(FH, ">>file") / open(my $fh, '>>', $file): the handle comes first
                if len(args) >= 2 and re.match(r"\s*(?:my\s+)?[\$\w]+\s*$", args[0]) and \
                        re.match(r"\s*['\"][+<>]", args[1]):
                    target = args[2] if len(args) > 2 else args[1]
                    if not _LITERAL_ARG.fullmatch(target):
                        return True
                continue
            if name in ("shutil.copy", "shutil.copyfile", "shutil.copy2", "shutil.move", "os.rename", "os.replace"):
                pass
        if name.startswith(("shutil.", "os.rename", "os.replace")):
            target = args[1] if len(args) > 1 else ""
        else:
            target = args[0] if args else ""
        bare = target.strip().lstrip("$")
        if target.strip() and not _LITERAL_ARG.fullmatch(target) and bare not in assigned:
            return True
    return False


_CONCAT = LazyRe(r"(['\"])([^'\"\\\n]*)\1\s*(?:\+|\.\.|\.(?=\s*['\"]))\s*(['\"])([^'\"\\\n]*)\3")


def _join_literals(code: str) -> str:
    """``'MEM' + 'ORY.md'`` (Python, JS, Ruby), ``"MEM" . "ORY.md"`` (Perl, PHP), ``'a'..'b'`` (Lua) as one
    literal, so a name built from pieces is still seen."""
    if "+" not in code and "." not in code:
        return code
    for _ in range(8):
        new = _CONCAT.sub(lambda m: m.group(1) + m.group(2) + m.group(4) + m.group(1), code)
        if new == code:
            break
        code = new
    return code


def _strip_mode(s: str) -> str:
    """A Perl ``open`` argument without its mode (``>>MEMORY.md`` -> ``MEMORY.md``)."""
    return s.lstrip("+<>|& ") if s[:1] in "<>+|" else s


_RMTREE_API = LazyRe(r"shutil\.rmtree|rm_rf|rm_r\b|remove_dir_all|rmSync\([^)]*recursive|fs\.rm\([^)]*"
                     r"recursive|rimraf|Remove-Item[^;]*-Recurse|rmtree")
_STRING = LazyRe(r"'''(.*?)'''|\"\"\"(.*?)\"\"\"|'((?:[^'\\\n]|\\.)*)'|\"((?:[^\"\\\n]|\\.)*)\"|"
                 r"`((?:[^`\\]|\\.)*)`", re.S)


def _string_literals(code: str) -> list[str]:
    out = []
    for m in _STRING.finditer(code):
        s = next((g for g in m.groups() if g is not None), "")
        out.append(s.replace("\\'", "'").replace('\\"', '"').replace("\\n", "\n"))
    return out


def _call_args(code: str, pos: int) -> str:
    """The argument text of a call whose name ends at ``pos`` (balanced parentheses, or to end of statement)."""
    j = pos
    while j < len(code) and code[j] in " \t":
        j += 1
    if j < len(code) and code[j] in "([{":
        depth = 0
        k = j
        while k < len(code):
            c = code[k]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    return code[j + 1:k]
            k += 1
        return code[j + 1:]
    end = min([x for x in (code.find(";", j), code.find("\n", j)) if x >= 0] or [len(code)])
    return code[j:end]


def _pathish(s: str) -> bool:
    if not s or len(s) > 300 or "\n" in s:
        return False
    if s.startswith(("http://", "https://")):
        return False
    return "/" in s or "." in s or s.lower() in ("memory.md", "user.md", "chitin.yaml")

