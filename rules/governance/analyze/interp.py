"""Interpreter one-liners and nested shells: python/node/perl/ruby/php code that shells out, fetches, decodes,
executes, reads, writes or deletes; ``sh -c`` and scripts this command line wrote or downloaded.
"""

from __future__ import annotations

import re

from .._lazy import LazyRe
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


# build tools whose program file holds shell recipes or file commands ------------------------------------------
def _program_file(w, argv, k, stdin, cwd) -> str | None:
    """The text of the program file ``argv[k]`` (a stream, or a regular file on disk; None: unknown)."""
    from ..content import read_text

    text = w.stream_text(argv, k, stdin)
    if text is None:
        ref = w.env.norm(argv[k], cwd)
        text = read_text(ref.abs) if ref.abs and ref.scope != "unknown" else None
    return None if text == "\x00unknown" else text


def _h_make(w, tool, argv, cwd, stdin, effects, taints):
    """``make -f FILE``: each recipe line (a tab-indented line) is a shell command line, walked as one."""
    k = 1
    while k < len(argv):
        a = argv[k]
        if a in ("-f", "--file", "--makefile") and k + 1 < len(argv):
            text = _program_file(w, argv, k + 1, stdin, cwd)
            for line in (text or "").splitlines():
                if line.startswith("\t"):
                    w.run_text(line.strip().lstrip("@-+").replace("$$", "$"), cwd, f"{tool} recipe", ";")
            k += 2
            continue
        k += 1
    return "exec", None


_CMAKE_FILE = LazyRe(r"\bfile\s*\(\s*(WRITE|APPEND|TOUCH|TOUCH_NOCREATE|REMOVE|REMOVE_RECURSE|RENAME|COPY_FILE|"
                     r"CREATE_LINK|CONFIGURE\s+OUTPUT|DOWNLOAD\s+\S+)\s+(\"[^\"]*\"|[^\s)]+)(?:\s+(\"[^\"]*\"|[^\s)]+))?",
                     re.I)
_CMAKE_EXEC = LazyRe(r"\bexecute_process\s*\(\s*COMMAND\s+([^)]*)\)", re.I)


def _h_cmake(w, tool, argv, cwd, stdin, effects, taints):
    """``cmake -P SCRIPT``: the script's ``file(WRITE|APPEND|RENAME|…)`` targets are written (a rename or link:
    both names), ``execute_process(COMMAND …)`` runs as a command."""
    if "-P" not in argv or argv.index("-P") + 1 >= len(argv):
        return "exec", None
    text = _program_file(w, argv, argv.index("-P") + 1, stdin, cwd)
    if text is None:
        return "exec", None
    typ = "exec"
    for m in _CMAKE_FILE.finditer(text):
        op = m.group(1).upper()
        names = [m.group(2)] + ([m.group(3)] if m.group(3) and op.startswith(("RENAME", "COPY", "CREATE")) else [])
        for name in names:
            effects.append(w.write_effect(w.env.norm(name.strip('"'), cwd), f"{tool} -P file({op.split()[0]})"))
        typ = "write"
    for m in _CMAKE_EXEC.finditer(text):
        w.run_text(" ".join(x.strip('"') for x in m.group(1).split()), cwd, f"{tool} execute_process", ";")
    return typ, None


def _h_script(w, tool, argv, cwd, stdin, effects, taints):
    """``script [-c CMD] [FILE]``: CMD runs, the typescript (default ``typescript``) and ``-O``/``-B``/``-T``/
    ``-I`` logs are written."""
    k = 1
    ops: list[str] = []
    while k < len(argv):
        a = argv[k]
        if a in ("-c", "--command") and k + 1 < len(argv):
            w.run_text(argv[k + 1], cwd, f"{tool} -c", ";")
            k += 2
            continue
        if a in ("-O", "--log-out", "-B", "--log-io", "-I", "--log-in", "-T", "--log-timing", "-t", "--timing",
                 "-E", "--echo", "-m", "--logging-format") and k + 1 < len(argv):
            if a not in ("-E", "--echo", "-m", "--logging-format"):
                effects.append(w.write_effect(w.env.norm(argv[k + 1], cwd), f"{tool} {a}"))
            k += 2
            continue
        if not a.startswith("-"):
            ops.append(a)
        k += 1
    effects.append(w.write_effect(w.env.norm(ops[0] if ops else "typescript", cwd), tool))
    return "write", None


#: socat address types that open a file by path (reads and writes through it)
_SOCAT_FILES = ("FILE:", "OPEN:", "GOPEN:", "CREATE:", "CREAT:", "PIPE:", "UNIX-CONNECT:", "UNIX-LISTEN:")
_SOCAT_EXEC = ("EXEC:", "SYSTEM:")


def _h_socat(w, tool, argv, cwd, stdin, effects, taints):
    """``socat ADDR ADDR``: data flows both ways, so a file address is read and written, ``EXEC:``/``SYSTEM:``
    addresses run their command; the network addresses go to the network checks."""
    for a in argv[1:]:
        if a.startswith("-"):
            continue
        up = a.upper()
        if up.startswith(_SOCAT_FILES):
            path = a.split(":", 1)[1].split(",", 1)[0]
            if path:
                ref = w.env.norm(path, cwd)
                w.check_state_secret(ref, path, tool)
                effects.append(w.write_effect(ref, tool))
        elif up.startswith(_SOCAT_EXEC):
            w.run_text(a.split(":", 1)[1].split(",", 1)[0].replace("\\,", ","), cwd, f"{tool} {up.split(':')[0]}", ";")
    return w.run_net(tool, argv, cwd, stdin, effects)


def _h_xmlstarlet(w, tool, argv, cwd, stdin, effects, taints):
    """``xmlstarlet ed -L|--inplace … FILE…``: the files (the trailing operands that are files on disk or protected
    paths) are rewritten in place."""
    import os

    args = argv[1:]
    if not args or args[0] not in ("ed", "edit") or not ({"-L", "--inplace"} & set(args)):
        return "read", None
    for a in reversed(args[1:]):
        if a.startswith("-"):
            break
        ref = w.env.norm(a, cwd)
        if not (w.env.protected(ref) or (ref.abs and os.path.isfile(ref.abs))):
            break
        effects.append(w.write_effect(ref, f"{tool} ed -L"))
    return "write", None


#: web servers that serve a directory operand (or option), else the working directory
_SERVER_DIR_OPTS = {"httpd": ("-h",), "http-server": (), "live-server": (), "serve": (), "darkhttpd": (),
                    "miniserve": (), "caddy": ("--root", "-r")}


def _h_static_server(w, tool, argv, cwd, stdin, effects, taints):
    """A static web server (``busybox httpd``, ``http-server``, ``serve``…) hands every file under its directory
    to whoever connects: a read of that tree."""
    if tool == "caddy" and argv[1:2] != ["file-server"]:
        return "exec", None
    opts = _SERVER_DIR_OPTS.get(tool, ())
    d = next((argv[k + 1] for k, x in enumerate(argv[:-1]) if x in opts), None)
    if d is None:
        valued = {"-p", "--port", "-a", "--address", "-c", "-l", "--listen", "-P", "--proxy"}
        ops, k = [], 1
        while k < len(argv):
            x = argv[k]
            if x in valued:
                k += 2
                continue
            if not x.startswith("-") and tool not in ("httpd", "caddy"):
                ops.append(x)
            k += 1
        d = ops[0] if ops else "."
    w.dir_read(tool, [d], cwd)
    return "net", None


def _h_cpio(w, tool, argv, cwd, stdin, effects, taints):
    """``cpio -o``: archives the names it reads from stdin (``find . | cpio -o``): each listed name is read."""
    if not any(a in ("-o", "--create") or (a.startswith("-") and not a.startswith("--") and "o" in a)
               for a in argv[1:]):
        return "write", None
    names = stdin.names if stdin is not None and stdin.names else ()
    for n in names:
        base = n[:-len("/$(find)")] if n.endswith("/$(find)") else None  # every file under base
        if base is not None and w.dir_read("cpio -o", [base], cwd):
            break
        if w.check_state_secret(w.env.norm(n, cwd), n, "cpio -o"):
            break
    return "read", None


# commands handed to another runner: they run later or elsewhere, outside every hook ----------------------------
def _script_of(w, argv, stdin, cwd, file_opts=("-f",)) -> str | None:
    """The script a runner reads: ``-f FILE`` (a stream or a file on disk), else its stdin."""
    for k, a in enumerate(argv[:-1]):
        if a in file_opts:
            return _program_file(w, argv, k + 1, stdin, cwd)
    return stdin.text if stdin is not None else None


def _h_at(w, tool, argv, cwd, stdin, effects, taints):
    """``at TIME`` / ``batch``: the job (stdin or ``-f FILE``) is a shell script run later in this directory."""
    text = _script_of(w, argv, stdin, cwd)
    if text:
        w.run_text(text, cwd, f"{tool} job", ";")
    return "exec", None


_CRON_TIME = re.compile(r"\s*(?:@\w+|(?:\S+\s+){4}\S+)\s+(.*)")


def _h_crontab(w, tool, argv, cwd, stdin, effects, taints):
    """``crontab FILE|-``: each entry's command is a shell command line run later, in a directory and environment
    not known now."""
    ops = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
    if any(a in ("-l", "-r", "-e") for a in argv[1:]) and not ops:
        return "exec", None
    text = None
    if not ops or ops[0] == "-":
        text = stdin.text if stdin is not None else None
    else:
        text = _program_file(w, [*ops], 0, stdin, cwd)
    for line in (text or "").splitlines():
        s = line.strip()
        if not s or s.startswith("#") or re.match(r"[A-Za-z_]\w*\s*=", s):
            continue
        m = _CRON_TIME.match(s)
        if m:
            w.run_text(m.group(1), None, f"{tool} entry", ";")  # later, from a directory not known now
    return "exec", None


#: tmux key names send-keys turns into keystrokes rather than text
_TMUX_KEYS = re.compile(r"(?:Enter|C-[a-zA-Z]|M-[a-zA-Z]|Escape|Tab|Space|BSpace|KPEnter|Up|Down|Left|Right)")


def _h_tmux(w, tool, argv, cwd, stdin, effects, taints):
    """``tmux send-keys TEXT…`` types TEXT into a shell; ``new-session``/``new-window``/``split-window``/
    ``respawn-pane``/``run-shell CMD`` run CMD: each is a shell command line (in an unknown directory)."""
    args = argv[1:]
    k = 0
    while k < len(args) and args[k].startswith("-"):
        k += 2 if args[k] in ("-L", "-S", "-f") else 1
    if k >= len(args):
        return "exec", None
    sub, rest = args[k], args[k + 1:]
    valued = {"-t", "-s", "-n", "-c", "-x", "-y", "-F", "-e", "-N", "-l"}
    ops, j = [], 0
    while j < len(rest):
        a = rest[j]
        if a in valued:
            j += 2
            continue
        if not a.startswith("-") or a == "-":
            ops.append(a)
        j += 1
    if sub in ("send-keys", "send", "send-key"):
        text = " ".join(o for o in ops if not _TMUX_KEYS.fullmatch(o))
    elif sub in ("new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane",
                 "respawnp", "respawn-window", "run-shell", "run", "if-shell", "display-popup", "popup"):
        text = " ".join(ops)
    else:
        return "exec", None
    if text.strip():
        w.run_text(text, None, f"{tool} {sub}", ";")
    return "exec", None


def _h_screen(w, tool, argv, cwd, stdin, effects, taints):
    """``screen -X stuff TEXT`` types TEXT into a shell; ``screen [-dm] CMD…`` runs CMD."""
    args = argv[1:]
    if "-X" in args:
        rest = args[args.index("-X") + 1:]
        if rest[:1] == ["stuff"] and len(rest) > 1:
            w.run_text(rest[1].replace("\\n", "\n").replace("\\r", "\n").replace("^M", "\n"), None,
                       f"{tool} stuff", ";")
        return "exec", None
    k = 0
    while k < len(args) and args[k].startswith("-"):
        k += 2 if args[k] in ("-S", "-c", "-t", "-p", "-e", "-h", "-L", "-Logfile") else 1
    if k < len(args):
        w.dispatch(args[k:], [False] * (len(args) - k), [None] * (len(args) - k), cwd, f"{tool}", ";", None, [])
    return "exec", None


def _h_remote(w, tool, argv, cwd, stdin, effects, taints):
    """``ssh HOST CMD…``: CMD is a shell command line run on HOST, from the remote home directory (HOST may be
    this machine: an absolute path into the workspace reaches it). The network checks follow."""
    valued = set("bcDEeFIiJLlmOoPpQRSWw")
    args = argv[1:]
    k, host = 0, None
    while k < len(args):
        a = args[k]
        if a.startswith("-") and len(a) > 1:
            k += 2 if (len(a) == 2 and a[1] in valued) else 1
            continue
        host = a
        break
    if host is not None and k + 1 < len(args):
        w.run_text(" ".join(args[k + 1:]), None, f"{tool} {host}", ";")
    return w.run_net(tool, argv, cwd, stdin, effects)


#: container runner options that take a value
_CONTAINER_VALUED = frozenset({"-e", "--env", "--env-file", "--name", "-p", "--publish", "-w", "--workdir", "-u",
                               "--user", "--network", "--net", "--entrypoint", "-l", "--label", "-h", "--hostname",
                               "--platform", "--pull", "--cpus", "-m", "--memory", "--add-host", "--dns",
                               "--device", "--cap-add", "--cap-drop", "--security-opt", "--ulimit", "--log-driver",
                               "--restart", "--shm-size", "--tmpfs", "--ipc", "--pid", "--gpus", "--runtime"})


def _h_container(w, tool, argv, cwd, stdin, effects, taints):
    """``docker|podman run|create|exec … -v SRC:DST IMAGE CMD…``: CMD runs with SRC mounted at DST, so a path
    under DST in CMD is that path under SRC (``-v $PWD:/w … sh -c 'echo x >> /w/MEMORY.md'`` writes the
    workspace's MEMORY.md)."""
    args = argv[1:]
    if not args or args[0] not in ("run", "create", "exec", "container"):
        return "exec", None
    if args[0] == "container":
        args = args[1:]
        if not args or args[0] not in ("run", "create", "exec"):
            return "exec", None
    mounts: list[tuple[str, str]] = []
    k = 1
    while k < len(args):
        a = args[k]
        val = None
        if a in ("-v", "--volume", "--mount") and k + 1 < len(args):
            val, k = args[k + 1], k + 2
        elif a.startswith(("--volume=", "--mount=")):
            val, k = a.split("=", 1)[1], k + 1
        elif a in _CONTAINER_VALUED:
            k += 2
            continue
        elif a.startswith("-"):
            k += 1
            continue
        else:
            break
        if val is None:
            continue
        if "=" in val:  # --mount type=bind,source=SRC,target=DST
            parts = dict(p.split("=", 1) for p in val.split(",") if "=" in p)
            src, dst = parts.get("source") or parts.get("src"), parts.get("target") or parts.get("dst") \
                or parts.get("destination")
        else:
            bits = val.split(":")
            src, dst = (bits[0], bits[1]) if len(bits) >= 2 else (None, None)
        if src and dst and src.startswith((".", "/", "~", "$")):
            ref = w.env.norm(src, cwd)
            if ref.abs:
                mounts.append((dst.rstrip("/") or "/", ref.abs))
    cmd = args[k + (1 if args[0] != "exec" else 1):] if k < len(args) else []
    if not mounts or not cmd:
        return "exec", None

    def host(word: str) -> str:
        for dst, src in sorted(mounts, key=lambda m: -len(m[0])):
            word = re.sub(r"(?<![\w.-])" + re.escape(dst) + r"(?=/|$|[\s'\"])", lambda _m: src, word)
        return word

    mapped = [host(a) for a in cmd]
    w.dispatch(mapped, [False] * len(mapped), [None] * len(mapped), None, f"{tool} {args[0]}", ";", None, [])
    return "exec", None
