"""The write path: compute the file a tool call would produce, diff it against disk, tier only the new lines.

For each file operation: resolve the path inside the workspace (``..`` and symlinks deliberately), refuse guarded
files, compute the resulting text (whole-file write, edits, apply_patch), align it with the file on disk, and for
lines that are new: strip a stamp the agent invented, classify with provenance, security-scan (rules engine),
arbitrate against the active constraints, apply the USER.md guard, and stamp. Existing lines keep their text and
stamp even when the agent rewrote the stamp. Returns a plan; the caller answers the host and writes files.
"""

from __future__ import annotations

import os
from pathlib import Path

from tiers.errors import CuticleError, ParseError, WorkspaceError
from tiers.record import dataclass, field

from .payload import FileOp
from .statements import align, plain_texts, standings, statement_groups, statement_text

TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed
if TYPE_CHECKING:
    from typing import Any

KIND = "cuticle.block/v1"
#: the most problems one file's refusal lists; the rest are counted (a block reason is read by the model, and every
#: listed problem is secret-masked and logged: unbounded, a line of 8,192 hidden characters took seconds)
MAX_ERRORS = 20


@dataclass(slots=True)
class NewLine:
    number: int  # 1-based, in the resulting file
    content: str
    tier: str | None = None
    verified: bool = False
    forged: bool = False
    structural: bool = False  # a heading, table, code, HTML or front-matter line: checked, never stamped


@dataclass(slots=True)
class FilePlan:
    """What the gate decided for one file: pass (not memory), allow (maybe with new bytes) or block."""

    path: str  # as the tool named it
    rel: str | None = None
    action: str = "pass"  # pass | allow | block
    op_kind: str = ""
    old: bytes | None = None
    proposed: str | None = None
    stamped: bytes | None = None
    new_lines: list[NewLine] = field(default_factory=list)
    removed: int = 0
    restored: int = 0
    forged: int = 0
    errors: list[dict] = field(default_factory=list)
    supersede: list[dict] = field(default_factory=list)
    note: str = ""
    #: problems found beyond MAX_ERRORS, counted in a last error instead of listed
    unlisted: int = 0

    def refuse(self, error: dict) -> None:
        """Add one problem of this file (listed up to MAX_ERRORS, counted beyond)."""
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(error)
        else:
            self.unlisted += 1

    def close_errors(self) -> None:
        """End the list of problems with a count of those not listed."""
        if self.unlisted:
            self.errors.append(_err("more-problems", self.rel or self.path,
                                    f"{self.rel or self.path}: {self.unlisted} more problems in this write, not listed",
                                    count=self.unlisted))
            self.unlisted = 0

    def to_json(self) -> dict:
        return {
            "path": self.rel or self.path,
            "action": self.action,
            "op": self.op_kind,
            "new_lines": [{"line": n.number, "tier": n.tier, "verified": n.verified,
                           **({"structural": True} if n.structural else {})} for n in self.new_lines],
            "removed_lines": self.removed,
            "restored_stamps": self.restored,
            "forged_stamps": self.forged,
            "errors": self.errors,
            "note": self.note,
        }


# -- paths ---------------------------------------------------------------------------------------------


def resolve(ws, path: str, base: str | None) -> tuple[str | None, str | None]:
    """(workspace-relative real path, problem). Relative paths resolve against the tool's cwd (else the root).

    - lexically outside the workspace (an absolute path elsewhere, ``../x``): (None, None) -> not ours, pass;
    - lexically inside but resolving outside (a symlink out, ``memory/../../x`` through a link): (None, problem)
      when the lexical path names a memory or guarded file, so the write is refused rather than followed;
    - otherwise the real relative path (symlinks inside the workspace followed to their target);
    - a hard link to a memory or guarded file, wherever it is, is that file (``_hard_link_of``).
    """
    p = Path(os.path.expanduser(path))
    if not p.is_absolute():
        p = Path(base or ws.root) / p
    lexical = Path(os.path.normpath(p))
    try:
        lex_rel = lexical.relative_to(ws.root).as_posix()
    except ValueError:
        try:  # the cwd may be spelled through a symlink to the workspace
            lex_rel = Path(os.path.realpath(lexical.parent)).joinpath(lexical.name).relative_to(ws.root).as_posix()
        except ValueError:
            return _hard_link_of(ws, lexical), None
    try:
        rel = ws.relpath(lexical)
    except WorkspaceError:
        alias = _hard_link_of(ws, lexical)
        if alias is not None:
            return alias, None
        if ws.is_memory_file(lex_rel) or ws.is_guarded_file(lex_rel):
            return None, f"{lex_rel} resolves outside the workspace (symlink or '..'); cuticle will not follow it"
        return None, None
    if ws.is_memory_file(rel) or ws.is_guarded_file(rel):
        return rel, None
    return _hard_link_of(ws, lexical) or rel, None


def _hard_link_of(ws, path: Path) -> str | None:
    """The memory or guarded file that ``path`` is another name of (a hard link: the same device and inode), as
    a workspace-relative path, else None. A write through the second name changes the memory file itself, so it
    is judged as a write of that file. Only a file with more than one link can be one (one ``stat`` otherwise)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if st.st_nlink < 2:
        return None
    import stat as _stat

    if not _stat.S_ISREG(st.st_mode):
        return None
    import itertools

    guarded = (p for glob in ws.guarded_globs for p in sorted(ws.root.glob(glob)))
    for target in itertools.chain(ws.memory_files(), guarded):
        try:
            other = os.stat(target)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return target.relative_to(ws.root).as_posix()
    return None


def is_memory(ws, rel: str) -> bool:
    return ws.is_memory_file(rel)


# -- the plan ------------------------------------------------------------------------------------------


def _in_file(finding: dict, number: int) -> dict:
    """A scan finding counts lines within the scanned lines; the answer names the line of the file."""
    return {**finding, "line": number} if isinstance(finding, dict) and "line" in finding else finding


class Planner:
    """Plans every file op of one tool call against one workspace, sharing the constraint index."""

    def __init__(self, ws, session_id: str, *, cwd: str | None, host: str, stage: str = "pre") -> None:
        self.ws = ws
        self.session_id = session_id
        self.cwd = cwd
        self.host = host
        self.stage = stage  # "pre" (before the tool ran) or "post" (stamping what was written)
        self.cfg = ws.section("gate")
        self._index = None
        self._session: int | None = None
        self._turn: tuple[str] | None = None  # (the prompt of this turn or ""), once read
        #: after the tool ran: the lines (stamp-free text -> count) the call brought in; other new lines are not
        #: this call's and are left as they are
        self.restrict: dict[str, int] | None = None
        #: steps that failed open (reported on stderr and in the log, the decision goes on without them)
        self.diagnostics: list[str] = []

    # configuration
    def user_guard_globs(self) -> tuple[str, ...]:
        g = self.cfg.get("user_guard", ["USER.md"])
        if g is False:
            return ()
        if isinstance(g, str):
            g = [g]
        return tuple(x for x in g if isinstance(x, str))

    def plan(self, op: FileOp, *, base_text: bytes | None = None, current: bytes | None = None) -> list[FilePlan]:
        """Plans for one op (a patch move yields two: the source delete and the target write)."""
        plans: list[FilePlan] = []
        if op.kind == "patch":
            return self._plan_patch(op)
        plans.append(self._plan_file(op.path, op.kind, op, base_text=base_text, current=current))
        return plans

    def _plan_patch(self, op: FileOp) -> list[FilePlan]:
        from .patch import added_text, apply_hunks

        pop = op.patch
        if pop.kind == "delete":
            return [self._plan_file(pop.path, "delete", op)]
        if pop.kind == "add":
            return [self._plan_file(pop.path, "write", op, content=added_text(pop))]
        # update (maybe with a move): the new text comes from the source file
        src_plan = FilePlan(path=pop.path, op_kind="patch")
        rel, problem = resolve(self.ws, pop.path, self.cwd)
        if problem:
            src_plan.action, src_plan.errors = "block", [_err("path-outside-workspace", pop.path, problem)]
            return [src_plan]
        try:
            old = self._read(rel, pop.path) if rel is not None else _read_outside(pop.path, self.cwd)
        except WorkspaceError as exc:
            if rel and self.ws.is_guarded_file(rel):
                return [self._plan_file(pop.path, "write", op, content="")]  # refused as a guarded file
            src_plan.rel = rel
            if rel and self.ws.is_memory_file(rel):  # a patch of what cannot be read cannot be checked
                src_plan.action = "block"
                src_plan.errors = [_err("unreadable-memory-file", rel, str(exc),
                                        resolve="rewrite the whole file, or ask the user to repair it")]
            return [src_plan]
        try:
            new_text = apply_hunks(_decode(old), pop.hunks, path=rel or pop.path) if pop.hunks else _decode(old)
        except ParseError as exc:
            if rel and self._tracked(rel):
                src_plan.rel, src_plan.action = rel, "block"
                src_plan.errors = [_err("patch-does-not-apply", rel, str(exc))]
            return [src_plan]
        if pop.move_to:
            plans = [self._plan_file(pop.path, "delete", op, moving=True)]
            plans.append(self._plan_file(pop.move_to, "write", op, content=new_text))
            return plans
        return [self._plan_file(pop.path, "write", op, content=new_text, old_override=old)]

    def _unreadable(self, rel: str, exc: Exception) -> str:
        """A memory file on disk cuticle cannot read (permissions, binary, huge): it is not tiered and the call
        proceeds (fail-open, reported); `cuticle lint` flags the file itself."""
        msg = f"{rel}: {exc}; not tiered, the tool call proceeds (fail-open)"
        self.diagnostics.append(msg)
        return msg

    def _tracked(self, rel: str) -> bool:
        return self.ws.is_memory_file(rel) or self.ws.is_guarded_file(rel)

    def _read(self, rel: str, shown: str) -> bytes | None:
        from tiers.fsutil import read_bytes_checked

        path = self.ws.root / rel
        if not path.exists():
            return None
        return read_bytes_checked(path)

    def _plan_file(
        self,
        path: str,
        kind: str,
        op: FileOp,
        *,
        content: str | None = None,
        moving: bool = False,
        old_override: bytes | None = None,
        base_text: bytes | None = None,
        current: bytes | None = None,
    ) -> FilePlan:
        plan = FilePlan(path=path, op_kind=op.kind if op.kind != "patch" else f"patch-{kind}")
        rel, problem = resolve(self.ws, path, self.cwd)
        if problem:
            plan.action = "block"
            plan.errors = [_err("path-outside-workspace", path, problem, resolve="write to the file inside the workspace")]
            return plan
        if rel is None:
            return plan  # not this workspace's file
        plan.rel = rel
        if self.ws.is_guarded_file(rel):
            if self.stage == "post":
                plan.action, plan.note = "allow", "guarded file changed by a tool (logged)"
                return plan
            plan.action = "block"
            plan.errors = [_err(
                "guarded-file", rel,
                f"{rel} is generated by cuticle and may not be written by an agent",
                resolve="use `cuticle contribute` for insights; PERSONALITY.md is rendered at session start",
            )]
            return plan
        if not self.ws.is_memory_file(rel):
            return plan
        plan.action = "allow"
        if kind == "delete":
            return self._plan_delete(plan, moving)
        try:
            old = old_override if old_override is not None else (base_text if base_text is not None else self._read(rel, path))
        except WorkspaceError as exc:
            if kind != "write" or content is not None or op.content is None:
                # an edit of a file cuticle cannot read cannot be checked: refused, not waved through
                plan.action = "block"
                plan.errors = [_err("unreadable-memory-file", rel, str(exc),
                                    resolve="rewrite the whole file, or ask the user to repair it")]
                return plan
            # a whole-file write replaces what cannot be read: every line of it is new and checked
            self.diagnostics.append(f"{rel}: {exc}; every line of the new content is checked as new")
            old = None
        plan.old = old
        if kind == "edit":
            try:
                from .edits import apply_edits

                new_text = apply_edits(_decode(old), op.edits, path=rel) if op.edits else _decode(old)
            except ParseError as exc:
                plan.action = "block"
                plan.errors = [_err("edit-does-not-apply", rel, str(exc), resolve="re-read the file and retry the edit")]
                return plan
        elif current is not None:
            new_text = _decode(current)
        else:
            new_text = content if content is not None else (op.content or "")
        if len(new_text.encode("utf-8", "surrogatepass")) > _limit() or "\x00" in new_text:
            plan.action = "block"
            plan.errors = [_err("not-a-memory-text", rel, f"{rel}: the new content is binary or over the size limit; refused")]
            return plan
        plan.proposed = new_text
        self._tier(plan)
        return plan

    def _plan_delete(self, plan: FilePlan, moving: bool) -> FilePlan:
        if self.stage == "post":
            return plan
        if self.cfg.get("allow_memory_delete", False):
            plan.note = "memory file deleted (allowed by [gate] allow_memory_delete)"
            return plan
        path = self.ws.root / plan.rel
        if not path.exists():
            return plan
        plan.action = "block"
        what = "moving" if moving else "deleting"
        plan.errors = [_err(
            "memory-delete", plan.rel,
            f"{what} memory file {plan.rel} would drop its memory lines",
            resolve="edit the lines instead; expired lines are removed by `cuticle gc` (recoverable), "
                    "or ask the user to delete the file",
        )]
        return plan

    # -- tiering --------------------------------------------------------------------------------------
    def _tier(self, plan: FilePlan) -> None:
        from tiers import markdown, stamps
        from tiers.text import strip_markup

        rel = plan.rel
        # as bytes, so that a BOM the edit kept is the document's BOM, not a character of its first line
        new_doc = markdown.parse_document((plan.proposed or "").encode("utf-8", "surrogateescape"))
        old_texts = plain_texts(plan.old, markdown) if plan.old else []
        new_lines = new_doc.lines
        keep, fresh = align(old_texts, [ln.text for ln in new_lines])
        changes: dict[int, str] = {}
        # existing lines keep their text and stamp exactly as on disk
        for j, i in keep.items():
            if new_lines[j].text != old_texts[i]:
                changes[new_lines[j].number] = old_texts[i]
                plan.restored += 1
        plan.removed = len(old_texts) - len(keep)
        candidates: list[tuple[Any, str, bool, bool]] = []
        # every new non-blank line is checked, structure too: an instruction or a rule hidden in a heading, a
        # table, a code block, an HTML comment or the front matter reaches the model as surely as a list item
        # does. Structure is security-scanned as written and as prose, arbitrated and guarded, but not stamped.
        scanned: list[tuple[Any, str]] = []
        # ... scanned apart as list items: joined with the raw lines, a `---` or a fence around it would frame it
        # as front matter or code, which the scan reads differently
        prosed: list[tuple[Any, str]] = []
        # a line is judged as the statement it belongs to (a list item with its continuation lines, a sentence of
        # a paragraph over several lines): a statement this call added to, cut or joined changed as a whole
        fresh_set = set(fresh)
        # where a statement may have changed: a new line, or a kept line that no longer follows its old neighbour
        points = fresh_set | {j for j in range(1, len(new_lines))
                              if j in keep and j - 1 in keep and keep[j] != keep[j - 1] + 1}
        changed = [g for g in statement_groups(new_lines, points) if any(j in fresh_set for j in g)
                   or any(keep[b] != keep[a] + 1 for a, b in zip(g, g[1:]))]
        touched = {keep[j] for g in changed for j in g if j in keep}
        if self.restrict is not None:
            fresh = self._own(fresh, new_lines)
        for j in fresh:
            line = new_lines[j]
            if not line.is_memory:
                if line.text.strip():
                    scanned.append((line, line.text.rstrip()))
                    prose = markdown.rendered_text(markdown.prose_text(line))  # as the reader sees it
                    if prose:
                        prosed.append((line, "- " + prose))
                        candidates.append((line, prose, False, True))
                continue
            content, stamp, _err_text = stamps.split_stamp(line.text)
            forged = stamp is not None
            if forged and self.stage == "post" and self._valid_stamp(stamps, stamp, content):
                continue  # cuticle's own stamp from the pre-tool rewrite
            inner = stamps.strip_inner_stamps(content)
            if inner != content:
                # text appended after a stamp (an edit that kept the old stamp mid-line): the line changed; it is
                # checked and stamped as a whole, its old stamp dropped, none of its text
                content, forged = inner, True
            if forged:
                plan.forged += 1
                changes[line.number] = content.rstrip()
            if not content.strip():
                continue
            candidates.append((line, content.rstrip(), forged, False))
            scanned.append((line, content.rstrip()))
            body = strip_markup(content)
            shown = markdown.rendered_text(body)
            if shown != body and shown:  # spelled with markup (references, escapes, split by code or emphasis)
                prosed.append((line, "- " + shown))
        wholes = [(g, statement_text(new_lines, g, stamps)) for g in changed if len(g) > 1 and self.stage == "pre"]
        wholes = [(g, text) for g, text in wholes if text]
        prosed.extend((new_lines[g[-1]], "- " + strip_markup(text)) for g, text in wholes)
        scanned.sort(key=lambda pair: pair[0].number)
        self._scan(plan, scanned)
        if prosed:
            self._scan(plan, prosed)
        if candidates:
            self._check(plan, candidates, changes, stamps)
        structure = any(not new_lines[j].is_memory and new_lines[j].text.strip() for j in fresh)
        binding: set[int] = set()
        # kept lines that are nested or quoted, up to the next line at column 0 after a change: a parent item
        # above them changed, or one was put over them
        nested: list[int] = []
        covered = 0
        for p in sorted(points) if self.stage == "pre" else ():
            k = max(p, covered)
            while k < len(new_lines) and (k == p or new_lines[k].text[:1] in " \t>" or not new_lines[k].text):
                if k in keep and new_lines[k].is_memory and new_lines[k].text[:1] in " \t>":
                    nested.append(k)
                k += 1
            covered = max(covered, k)
        if self.stage == "pre" and (plan.removed or structure or touched or nested):
            where_new = standings(new_lines, [*nested, *(j for j in fresh if new_lines[j].is_memory)])
            kept_where = {keep[j]: where_new[j] for j in nested}
            gone = set(range(len(old_texts))) - set(keep.values())
            # a kept line that is no longer a memory line (fenced, commented out, made a heading) is hidden
            gone |= {i for j, i in keep.items() if new_lines[j].kind != "memory" and new_lines[j].text.strip()}
            # a rewording that keeps the rule counts only as a memory line: the same words as code, a heading or HTML
            # (an indented code block included) are the rule hidden, not kept
            binding = self._guard_binding(plan, sorted(gone), touched,
                                          [(new_lines[j].text, where_new[j])
                                           for j in fresh if new_lines[j].is_memory], kept_where)
        # a statement that holds a binding line was judged above (its change needs the user's words); any other
        # changed statement of several lines is arbitrated as the whole it reads as
        self._check_wholes(plan, [(new_lines[g[-1]], text) for g, text in wholes
                                  if not any(keep.get(j) in binding for j in g)])
        if plan.errors:
            plan.close_errors()
            plan.action = "block"
            return
        plan.stamped = _render(new_doc, changes) if changes else None

    def _guard_binding(self, plan: FilePlan, gone: list[int], touched: set[int],
                       fresh_texts: list[tuple[str, tuple]], kept_where: dict[int, tuple]) -> set[int]:
        """Removing, rewriting, extending or hiding (in code, HTML, a heading) an active DIRECTIVE or DECISION needs
        the user's words of this turn: a prompt that asks to drop or change it ("forget the Friday rule") and names
        it, or a new line of this call verified against the prompt that takes its place. Else the write is refused
        (``binding-line-removed``). ``gone``: old lines no longer there (or hidden); ``touched``: old lines kept
        whose statement changed (words added to their list item, a continuation cut off); ``fresh_texts``: the new
        memory lines of this call with their :func:`standings`; ``kept_where``: old line -> its new standing, for
        the kept lines near a change that are nested or quoted (a parent item reworded or put over them). A gone line written again in the same words keeps
        its place only with the same standing: nested under another item or quoted, the same words say something
        else (\"- Wrong:\" over a rule retracts it). Returns the old lines found binding among them."""
        from tiers import markdown
        from tiers.stamps import canonical_content

        from .authority import rewrite_refusal

        old_doc = markdown.parse_document(plan.old or b"")
        reworded = {(canonical_content(t), where) for t, where in fresh_texts}
        rewritten = {canonical_content(t) for t, _where in fresh_texts}
        gone_set = set(gone)
        # the statement of a line that is gone changed: its other lines (the first half of a two-line rule) too
        mates = {i for g in statement_groups(old_doc.lines, gone_set) if gone_set.intersection(g) for i in g}
        old_where = standings(old_doc.lines, [*gone_set, *kept_where])
        # a kept line whose parent item changed or that was nested under a new one: its words say something else
        restood = {i for i, where in kept_where.items() if old_where.get(i) != where}
        binding: set[int] = set()
        for i in sorted(gone_set | touched | mates | restood):
            if i >= len(old_doc.lines) or not old_doc.lines[i].is_memory:
                continue
            line = old_doc.lines[i]
            tier = self._binding_tier(line)
            if tier is None:
                continue
            binding.add(i)
            moved = i in restood
            if i in gone_set and canonical_content(line.text) in rewritten:
                if (canonical_content(line.text), old_where[i]) in reworded:
                    continue  # only its formatting changed (a ticked box, spacing)
                moved = True  # the same words, quoted or nested under another item: what they mean changed
            if _authorizes(self._prompt(), line.content):
                why = rewrite_refusal(self._prompt(), line.content, i not in gone_set, plan.new_lines)
                if why is None:
                    continue
                plan.refuse(_err("binding-rewrite-not-asked", plan.rel,
                                 f"{plan.rel}:{line.number}: the user's {tier.lower()} "
                                 f"{_clip(line.content.strip(), 120)!r}: {why}; refused",
                                 line=line.number, text=_clip(line.content.strip()), tier=tier,
                                 resolve="write the rule as the user asked it (their words this turn), or only "
                                         "remove it if that is all they asked; ask them if unsure"))
                continue
            if any(n.verified and not n.structural and _shares_words(n.content, line.content)
                   for n in plan.new_lines):
                continue
            how = ("changing the standing of (quoting, or nesting under another item)" if moved
                   else "removing, rewriting, extending or hiding")
            plan.refuse(_err(
                "binding-line-removed", plan.rel,
                f"{plan.rel}:{line.number}: {how} the user's {tier.lower()} "
                f"{_clip(line.content.strip(), 120)!r} needs the user's own words this turn "
                f"(e.g. \"forget the … rule\"); refused",
                line=line.number, text=_clip(line.content.strip()), tier=tier,
                resolve="keep the line as it is (words added on its line or its list item's continuation lines "
                        "change it too; a note of your own goes in a new list item); if the user wants it changed "
                        "or gone, ask them to say so (their prompt is checked), or they edit the file themselves",
            ))
        return binding

    def _binding_tier(self, line) -> str | None:
        """DIRECTIVE/DECISION when ``line`` is an active binding line: a verified cuticle stamp of that tier with no
        GC state and not recorded as unverified, or an unstamped line that reads as one; a DECISION only while its
        scope lasts (a date or session bound that passed binds nothing: GC collects it, anyone may remove it)."""
        from tiers.stamps import verify_stamp

        stamp = line.stamp
        if stamp is not None and verify_stamp(stamp, line.content.rstrip(), self.ws.key):
            if stamp.state is not None or stamp.verified is False:
                return None  # retired already, or an agent's own unverified "User said: …"
            tier, scope, session = stamp.tier.name, stamp.scope, stamp.session
        else:
            from tiers.classify import classify

            cls = classify(line.content)
            tier = cls.tier.name if cls is not None and cls.tier is not None else None
            scope, session = (cls.scope if cls is not None else None), None
        if tier == "DECISION":
            from tiers.expiry import decision_ended
            from tiers.session import current_session

            if decision_ended(f"{scope or ''} {line.content}", session, None, current_session(self.ws)):
                return None
        return tier if tier in ("DIRECTIVE", "DECISION") else None

    def _prompt(self) -> str | None:
        """The user's prompt of this turn, read once per call (a write of many lines classifies each against it)."""
        if self._turn is None:
            self._turn = ("",)
            if self.session_id:
                from tiers.provenance import current_prompt

                try:
                    self._turn = (current_prompt(self.ws, self.session_id) or "",)
                except Exception:  # noqa: BLE001 - an unreadable prompt record verifies nothing
                    pass
        return self._turn[0] or None

    def _own(self, fresh: list[int], new_lines) -> list[int]:
        from tiers.stamps import strip_stamp

        budget = self.restrict or {}
        out = []
        for j in fresh:
            k = strip_stamp(new_lines[j].text).rstrip()
            if budget.get(k, 0) > 0:
                budget[k] -= 1
                out.append(j)
        return out

    def _valid_stamp(self, stamps, stamp, content: str) -> bool:
        try:
            return bool(stamps.verify_stamp(stamp, content.rstrip(), self.ws.key))
        except Exception:  # noqa: BLE001 - an unverifiable stamp is treated as forged
            return False

    def _classify(self, text: str):
        from tiers.provenance import classify_with_prompt

        return classify_with_prompt(text, self._prompt())

    def session(self) -> int:
        if self._session is None:
            from tiers.session import current_session

            self._session = int(current_session(self.ws))
        return self._session

    def index(self):
        if self._index is None:
            from tiers.arbitrate import ConstraintIndex

            self._index = ConstraintIndex.from_workspace(self.ws)
        return self._index

    def _scan(self, plan: FilePlan, scanned: list[tuple[Any, str]]) -> None:
        """The error-severity security rules on exactly the lines about to be written."""
        if not scanned:
            return
        rel = plan.rel
        try:
            from rules.engine import scan_new_lines

            findings = scan_new_lines(self.ws, rel, [text for _, text in scanned])
        except Exception as exc:  # noqa: BLE001 - a broken rule must not disable tiering and arbitration
            from tiers.secrets import mask_json

            message = mask_json(f"security scan failed ({type(exc).__name__}: {exc})")
            self.diagnostics.append(f"{message}; lines not scanned")
            plan.errors.append(_err(  # lines that could not be scanned are not let through unscanned
                "check-failed", rel, f"{rel}: {message}; the new lines could not be checked and are refused",
                resolve="retry; if it fails again, report the bug"))
            findings = ()
        seen: set[tuple[int, str]] = set()
        for f in findings or ():
            from tiers.secrets import mask_json

            n = getattr(f, "line", None) or 1
            line, text = scanned[min(max(n, 1), len(scanned)) - 1]
            # one error per line and rule: a line of 8,192 zero-width characters is one problem, not 8,192 (each
            # masked and logged, they took seconds and would flood the model's context)
            if (line.number, getattr(f, "code", "")) in seen:
                continue
            seen.add((line.number, getattr(f, "code", "")))
            plan.refuse(mask_json(_err(
                "security", rel, f"{rel}:{line.number}: {getattr(f, 'code', '')} {getattr(f, 'message', f)}",
                line=line.number, text=_clip(text),
                resolve="do not store secrets, instructions to the agent or invisible characters in memory",
                finding=_in_file(f.to_json(), line.number) if hasattr(f, "to_json") else str(f),
            )))

    def _check(self, plan: FilePlan, candidates: list, changes: dict[int, str], stamps) -> None:
        rel = plan.rel
        guard = _glob(rel, self.user_guard_globs())
        from tiers import arbitrate as arb
        from tiers import markdown

        index = self.index() if self.stage == "pre" else None
        ttl = self._ttl()
        for line, content, forged, structural in candidates:
            cls = self._classify(content)
            tier = cls.tier if cls is not None else None
            nl = NewLine(line.number, content, tier.name if tier else None, bool(cls and cls.verified), forged,
                         structural)
            plan.new_lines.append(nl)
            if guard and not nl.verified and self.stage == "pre":
                plan.refuse(_err(
                    "user-guard", rel,
                    f"{rel}:{line.number}: only lines in the user's own words (verified provenance) may enter {rel}",
                    line=line.number, text=_clip(content), tier=nl.tier,
                    resolve="write this line to MEMORY.md (durable facts, decisions) or to today's daily note "
                            "memory/YYYY-MM-DD.md (observations, hypotheses) instead",
                ))
                continue
            if index is not None and tier is not None:
                result = arb.arbitrate(index, content, tier, file=rel, scope=cls.scope, verified=nl.verified)
                shown = markdown.rendered_text(content)
                if result.decision != "block" and shown != content:  # as the reader sees it, too
                    seen = arb.arbitrate(index, shown, tier, file=rel, scope=cls.scope, verified=nl.verified)
                    if seen.decision == "block":
                        result = seen
                if result.tier.rank < tier.rank:  # the optional judge demoted the line (it never promotes)
                    tier = result.tier
                if result.decision == "block":
                    err = dict(result.error or {})
                    where = err.get("attempted") if isinstance(err.get("attempted"), dict) else err
                    where = dict(where)
                    where.setdefault("file", rel)
                    where.setdefault("line", line.number)
                    if isinstance(err.get("attempted"), dict):
                        err["attempted"] = where
                    else:
                        err.update(where)
                    plan.refuse(err)
                    continue
                for s in getattr(result, "supersedes", None) or ():
                    plan.supersede.append(_constraint_json(s))
                for r in getattr(result, "retires", None) or ():  # lower tiers it retires (the tier lifecycle)
                    plan.supersede.append(dict(_constraint_json(r.line), state=r.state))
            if tier is not None and not structural:
                binding = tier.name in ("DIRECTIVE", "DECISION")
                stamp = stamps.make_stamp(content, tier, self.session(), self.ws.key, scope=cls.scope,
                                          ttl=ttl if tier.name == "HYPOTHESIS" else None,
                                          verified=nl.verified if binding else None)
                changes[line.number] = stamps.apply_stamp(content, stamp)
        if plan.errors:
            plan.action = "block"

    def _check_wholes(self, plan: FilePlan, wholes: list) -> None:
        """Arbitrate each changed statement of several lines as one text ("- Deploying\\n  on Fridays is fine." reads
        as one claim): checked, never stamped; the lines themselves were classified and stamped one by one."""
        if not wholes or self.stage != "pre":
            return
        from tiers import arbitrate as arb

        index = self.index()
        for line, text in wholes:
            cls = self._classify(text)
            if cls is None or cls.tier is None:
                continue
            result = arb.arbitrate(index, text, cls.tier, file=plan.rel, scope=cls.scope, verified=bool(cls.verified))
            if result.decision == "block":
                err = dict(result.error or {})
                where = dict(err["attempted"]) if isinstance(err.get("attempted"), dict) else {}
                where.setdefault("file", plan.rel)
                where.setdefault("line", line.number)
                if "attempted" in err:
                    err["attempted"] = where
                else:
                    err.update(where)
                plan.refuse(err)
        if plan.errors:
            plan.action = "block"

    def _ttl(self) -> int | None:
        from tiers.gc import hypothesis_ttl

        return hypothesis_ttl(self.ws)


from .authority import authorizes as _authorizes  # noqa: E402 - the user's words over a binding line
from .authority import shares_words as _shares_words  # noqa: E402


def _render(doc, changes: dict[int, str]) -> bytes:
    """``doc`` with some line texts replaced, as bytes. The gate only swaps stamps (never adds, removes or
    re-kinds lines), so this is ``doc.with_texts(changes).render()`` without re-parsing the whole file."""
    if not all(hasattr(doc, a) for a in ("bom", "lines")):
        return doc.with_texts(changes).render()
    if changes:
        text = "".join([changes.get(ln.number, ln.text) + ln.eol for ln in doc.lines])
    else:
        text = "".join([ln.text + ln.eol for ln in doc.lines])
    data = text.encode("utf-8", "surrogateescape")
    return b"\xef\xbb\xbf" + data if doc.bom else data


def _glob(rel: str, globs: tuple[str, ...]) -> bool:
    from tiers.workspace import glob_match

    return bool(globs) and glob_match(rel, globs)


def _constraint_json(s: Any) -> dict:
    if isinstance(s, dict):
        return s
    if hasattr(s, "to_json"):
        return s.to_json()
    return {k: getattr(s, k) for k in ("id", "file", "line", "text", "tier") if hasattr(s, k)}


def _err(reason: str, file: str, message: str, **extra: Any) -> dict:
    out = {"kind": KIND, "reason": reason, "file": file, "message": message}
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def _clip(s: str, n: int = 200) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _decode(data: bytes | None) -> str:
    if not data:
        return ""
    return data.decode("utf-8", errors="surrogateescape")


def _read_outside(path: str, cwd: str | None) -> bytes:
    p = Path(path)
    if not p.is_absolute():
        p = Path(cwd or ".") / p
    from tiers.fsutil import read_bytes_checked

    return read_bytes_checked(p)


def _limit() -> int:
    from tiers.fsutil import MAX_FILE_BYTES

    return MAX_FILE_BYTES


__all__ = ["CuticleError", "FilePlan", "KIND", "NewLine", "Planner", "is_memory", "resolve"]
