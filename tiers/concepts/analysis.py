"""The per-line concept analysis: clauses, their signs and force, and the line's values."""

from __future__ import annotations

import functools
from operator import itemgetter
TYPE_CHECKING = False  # typing costs start-up time on the hook path; annotations are postponed

from ..line import Line, prepare
from .clauses import _split_lists
from .flags import (
    _F_ANY, _F_CONT, _F_DATES, _F_MONTH_DAY, _F_MONTH_ID, _F_NEEDED, _F_OPEN, _F_WORKS, _having, _line_tokens,
    _token_roles,
)
from .keyed import _keyed
from .memos import _line_memos
from .names import _names, name_words
from .patterns import _lazy
from .records import Analysis, _new_analysis, _new_clause
from .reports import _reports
from .scan import _cid_info, _scan_entry, _scan_starts
from .tables import lexicon
from .values import _Line, _NO_MONTHS, _values_for
from .words import _COORD, _HAS_VALUE_KINDS, _cyrillic_first, _stem

if TYPE_CHECKING:
    from .records import Clause


def analyze(line: str | Line) -> Analysis:
    """Analyse one memory line, given as text or prepared (``tiers.line.prepare``): its trailing stamp and its
    Markdown markup are not read."""
    return _analyze_cached(line.text if line.__class__ is Line else line)


#: Analyses made by other processes of this same code (see seed_analyses), taken on first use.
_SEEDED: dict[str, Analysis] = {}


def seed_analyses(pairs) -> None:
    """Hand over (text, Analysis) pairs that ``analyze(text)`` computed in another process running this same
    code (a parallel lint analyses a workspace's constraints in several processes): the first analyze() of such a
    text here takes the given result instead of analysing again (a text already in the memo keeps its own).
    A hand-over replaces the previous one: ``seed_analyses(())`` drops what was not taken."""
    _SEEDED.clear()
    for text, a in pairs:
        if isinstance(text, str) and isinstance(a, Analysis):
            _SEEDED[text] = a


@functools.lru_cache(maxsize=32768)
def _analyze_cached(text: str) -> Analysis:
    if _SEEDED:
        seeded = _SEEDED.pop(text, None)
        if seeded is not None:
            return seeded
    return _analyze(prepare(text))


#: prepositions of place or occasion: what follows them is where a rule applies, not what it rules out
_SETTING_PREPS = frozenset({"in", "at", "for", "during", "on", "inside", "within", "в", "во", "на", "для", "при"})
#: prepositions of a target: a setting only after an act that puts something there ("commit keys *to the repo*";
#: not "allergic to nuts")
_TARGET_PREPS = frozenset({"to", "into", "onto"})
_CORE_KINDS = frozenset({"object", "action", "lexical", "tool", "value"})


def _setting(texts: list[str], concept_at: list, s: int, e: int, cinfo) -> frozenset[str]:
    """The setting of a prohibiting clause over tokens ``s..e``: the concepts named after its first preposition of
    place or occasion that follows a thing or act of the clause's own ("no alcohol at team events": team events;
    «никакого алкоголя на корпоративе»: the corporate party), less those also named before it. Empty when no such
    preposition follows the thing ruled out ("in prod, never …" names the setting first)."""
    before: set[str] = set()
    after: set[str] = set()
    cut = None
    acted = False  # an act named before the preposition
    at = 0
    for k in range(s, e):
        if cut is None and before and (texts[k] in _SETTING_PREPS or (acted and texts[k] in _TARGET_PREPS)):
            cut = k
            continue
        while at < len(concept_at) and concept_at[at][0] < k:
            at += 1
        if at < len(concept_at) and concept_at[at][0] == k:
            for cid in concept_at[at][1]:
                info = cinfo(cid)
                ids = {info[5][1], *(can for _, can, _ in info[6])}
                if cut is None:
                    acted = acted or info[0] == "action"
                    if info[4] in _CORE_KINDS:
                        before.update(ids)
                    elif before:
                        before.update(ids)
                else:
                    after.update(ids)
    return frozenset(after - before) if cut is not None else frozenset()


_NAMED_KINDS = frozenset({"object", "action"})


def _unnamed(spans: list, texts: list[str], nfc: str, lx, entry_memo: dict) -> list:
    """``spans`` without the things and acts a one-word span names when its word is part of a proper name
    (``name_words``): "Meat Loaf" is no meat, «Мясников» no meat, "Sugar Ray" no sugar. The word stays as a
    lexical id, so a line about the name still meets it."""
    def known(w: str) -> bool:
        entry = entry_memo.get(w, 0)
        if entry == 0:
            entry = entry_memo[w] = _scan_entry(w, lx.content, lx.content_prefix)
        return entry is not None and bool(entry[0] or entry[2])

    names = name_words(nfc, known)
    if not names:
        return spans
    out = []
    for s, e, ids in spans:
        if e == s + 1 and texts[s] in names and any(lx.kind.get(c) in _NAMED_KINDS for c in ids):
            ids = {c for c in ids if lx.kind.get(c) not in _NAMED_KINDS} or {"w:" + _stem(texts[s])}
        out.append((s, e, ids))
    return out


def _analyze(prepared: Line) -> Analysis:
    """The analysis of a prepared line (its normalized form for the tokens, its NFC body for names)."""
    text = prepared.text
    lx = lexicon()
    memos = _line_memos(lx)
    _, tmemo, cmemo, wmemo, _, content_memo, _, _, _ = memos
    nfc = prepared.nfc
    norm = prepared.normalized
    if " on" in norm or " off" in norm:
        norm = _particles(norm)
    if _CLOCK_NEEDS.search(norm):
        norm = clock_hours(norm)
    if "-free" in norm:  # "meat- and fish-free", "gluten-free": without them
        norm = _FREE_OF.sub(lambda m: "free of " + " and ".join(x for x in m.groups() if x), norm)
    if "без" in norm:  # «безглютеновый», «безлактозное»: without it, as "gluten-free" is
        norm = _RU_FREE_OF.sub("без ", norm)
    if not norm.isascii() and _PICTOGRAPH.search(norm):
        norm = _PICTOGRAPH.sub(" emoji ", norm)  # "end with a ✅", «ставить 👍»: a pictograph is an emoji
    texts, kinds, codes, infos, flags, line_flags = _line_tokens(norm, memos, lx)
    n_tok = len(texts)
    marker_starts, content_starts, lexical_toks, split_cands, value_toks = _token_roles(flags)
    # (most lines have no token for the second and third value passes: the line's flags tell without a call)
    date_toks = _having(range(n_tok), flags, _F_DATES, line_flags) if line_flags & _F_DATES else []
    month_day_toks = _having(range(n_tok), flags, _F_MONTH_DAY, line_flags) if line_flags & _F_MONTH_DAY else []

    def cinfo(cid: str) -> tuple:
        got = cmemo.get(cid)
        if got is None:
            got = cmemo[cid] = _cid_info(lx, cid)
        return got

    marker_spans = _scan_starts(texts, kinds, codes, infos, 4, marker_starts, "`" in norm)  # else no code span
    content_spans = _scan_starts(texts, kinds, codes, infos, 5, content_starts, False)
    marker_list: list[tuple[int, set[str]]] = []  # (start token, markers) of each marker span (never changed)
    marker_tokens: set[int] = set()
    label: set[int] = set()  # the tokens of a provenance label ("The user asked:"): who said it, not what
    for s, e, ids in marker_spans:
        if "USER_MARKER" in ids:
            label.update(range(s, e))
        if "MENTION" in ids and e == s + 1 and texts[s].startswith(_REMINDER_WORDS) and not _labels(texts, kinds, e):
            # «Напоминания шлём в 9:30», "reminders go out at 8": reminders as the subject, not a label
            ids = ids - {"MENTION"}
            if not ids:
                continue
        marker_list.append((s, ids))
        if e == s + 1:
            marker_tokens.add(s)
        else:
            marker_tokens.update(range(s, e))
    covered_by_content = set()
    concept_at: list[tuple[int, set[str]]] = []
    span_end: dict[int, int] = {}  # a concept's end token where it is not the next one (looked up with a default)
    if nfc[1:] != nfc[1:].lower():  # a capital after the first character: maybe a name ("Meat Loaf", «Мясников»)
        content_spans = _unnamed(content_spans, texts, nfc, lx, content_memo)
    if label:
        # (the user it names stays: the constraints' weights are measured with it)
        content_spans = [sp if sp[0] not in label else (sp[0], sp[1], sp[2] & _LABEL_KEEPS) for sp in content_spans]
        content_spans = [sp for sp in content_spans if sp[2]]
    for s, e, ids in content_spans:
        concept_at.append((s, ids))
        span_end[s] = e
        if e == s + 1:
            covered_by_content.add(s)
        else:
            covered_by_content.update(range(s, e))
    # Lexical fallback: unknown content words still carry meaning (names, projects, folders).
    ext_memo = content_memo
    ext_month = False  # an extension's concepts name MONTH
    negated_words: set[int] = set()  # words with a negative prefix ("unsigned", «незашифрованный»)
    for i in lexical_toks:  # not punctuation, numbers, times, stop words
        if i in covered_by_content:
            continue
        kind = kinds[i]
        if kind == "word" and i in marker_tokens:
            continue
        t = texts[i]
        key = t.strip("/*").rstrip("/") if kind == "path" else t
        if not key:
            continue
        neg_word = _NEG_PREFIXED.match(key) if kind == "word" and key.startswith(("un", "не")) else None
        if neg_word:
            # "unsalted", "unsigned", «неподписанный»: the word it negates, denied like "without" would deny it
            key = neg_word.group(1) or neg_word.group(2)
            entry = ext_memo.get(key, 0)
            if entry == 0:
                entry = ext_memo[key] = _scan_entry(key, lx.content, lx.content_prefix)
            if entry is not None and entry[0]:
                concept_at.append((i, entry[1]))
                negated_words.add(i)
                continue
            negated_words.add(i)
        ids = wmemo.get(key)
        if ids is None:
            ids = wmemo[key] = {"w:" + _stem(key)}  # shared by the lines holding the word: never changed
        concept_at.append((i, ids))
        if kind in {"word", "path"} and t.find(".", 1) > 0:
            # a dotted name whose first part is a known tool ("unittest.testcase", "react.component"): the tool
            head = t.split(".", 1)[0]
            entry = ext_memo.get(head, 0)
            if entry == 0:
                entry = ext_memo[head] = _scan_entry(head, lx.content, lx.content_prefix)
            if entry is not None and entry[0] and any(lx.slot_of.get(c) for c in entry[1]):
                concept_at.append((i, entry[1]))
        ext = _EXT.search(t) if kind in {"word", "path"} and t.find(".", 1) > 0 else None  # "." in t[1:]
        if ext:
            # a file extension alone: what _match_at finds for a one-token list, the best one-token pattern
            e_text = ext.group(1)
            entry = ext_memo.get(e_text, 0)
            if entry == 0:
                entry = ext_memo[e_text] = _scan_entry(e_text, lx.content, lx.content_prefix)
            if entry is not None and entry[0]:
                concept_at.append((i, entry[1]))
                ext_month = ext_month or "MONTH" in entry[1]
    if "`" in norm:
        # a word in a code span names a thing exactly, even a stop word (`any`, `all`): it is a lexical id too
        lexical_set = set(lexical_toks)
        for i in range(n_tok):
            if codes[i] and kinds[i] == "word" and i not in lexical_set and i not in covered_by_content:
                ids = wmemo.get(texts[i])
                if ids is None:
                    ids = wmemo[texts[i]] = {"w:" + _stem(texts[i])}
                concept_at.append((i, ids))
    concept_at.sort(key=_first)

    # Clauses; merge clauses with no content into the previous one, qualifier-only ones into the next.
    raw_bounds = _split_lists(texts, kinds, codes, split_cands)
    merged: list[list] = []
    pending_front: list = []
    if len(raw_bounds) == 1:
        merged.append(list(raw_bounds[0]))  # a lone clause stays as it is, whatever it holds
        raw_bounds = ()
    for s, e, exc in raw_bounds:
        named, full = False, False  # the bounds name a concept; one that is not a qualifier or generic
        for i, cs in concept_at:  # sorted
            if i < s:
                continue
            if i >= e:
                break
            for c in cs:
                named = True
                if cinfo(c)[4] not in ("qualifier", "generic"):
                    full = True
                    break
            if full:
                break
        if named:
            hc = "full" if full else "qual"
        else:  # values alone count as qualifiers (an empty set of kinds is within any)
            hc = "qual" if any(kinds[k] in _HAS_VALUE_KINDS for k in range(s, e)) else "none"
        if merged and s < n_tok and flags[s] & _F_CONT:
            merged[-1][1] = e  # "…, even for the vendor demo" extends the clause before it
            continue
        if hc == "none" and merged:
            merged[-1][1] = e
            continue
        if hc != "full" and not merged:
            pending_front.append((s, e, exc))
            continue
        if hc == "qual" and merged and not merged[-1][2] and not any(
                s <= k < e and ("NEG" in ms or "RELAX" in ms) for k, ms in marker_list):
            # A trailing qualifier ("on Fridays", «по выходным») belongs to the clause before it.
            merged[-1][1] = e
            continue
        if pending_front:
            s = pending_front[0][0]
            exc = exc or pending_front[0][2]
            pending_front = []
        merged.append([s, e, exc])
    if pending_front:
        if merged:
            merged[0][0] = pending_front[0][0]
        else:
            merged.append([pending_front[0][0], pending_front[-1][1], pending_front[0][2]])

    line = _Line(texts, kinds, codes, infos, line_flags, concept_at, span_end, nfc, value_toks, date_toks,
                 month_day_toks, flags)
    if not (line_flags & _F_MONTH_ID or ext_month):
        line.months = _NO_MONTHS  # no concept of the line names MONTH
    local_ctx = None  # what "without X" needs to find X's extent, built on the first NEG_LOCAL
    weight_memo = memos[8]
    clauses: list[Clause] = []
    all_concepts: set[str] = set()
    line_markers: set[str] = set()
    values: list[tuple[str, str, int]] = []
    for s, e, exc in merged:
        cl = _new_clause(s, e, exc)
        neg = 0
        local: set[int] = set()
        first_neg: int | None = None
        ru_neg = False
        only_pos: list[int] = []
        markers = cl.markers
        relaxed = False  # "optional, not required": one relaxation said twice denies once
        reinforced = False
        for k, ms in marker_list:
            if k < s:
                continue
            if k >= e:
                break
            for m in ms:
                markers.add(m)
                if m == "RELAX":
                    if relaxed:
                        continue
                    relaxed = True
                if m == "NEG" or m == "RELAX":
                    if m == "NEG" and texts[k].startswith(_REINFORCING):
                        reinforced = True  # "I don't fly anymore": a second word of one denial
                    elif m == "NEG" and _cyrillic_first(texts[k]):
                        ru_neg = True  # negative concord: «никогда не», «ничего не» deny once
                    else:
                        neg += 1
                    if m == "NEG" and first_neg is None and _cyrillic_first(texts[k]):
                        first_neg = k
                elif m == "NEG_LOCAL":
                    if local_ctx is None:
                        local_ctx = (
                            {k2 for k2, _ in concept_at},
                            {k2 for k2, ids in concept_at if all(cinfo(c)[0] == "generic" for c in ids)},
                            {k2: all(c.startswith("w:") for c in ids) for k2, ids in concept_at},
                            {k2 for k2, ids in concept_at if all(cinfo(c)[0] in ("qualifier", "generic") for c in ids)},
                        )
                    starts, generic_at, weak_at, qual_at = local_ctx
                    # "without X" / «без X» denies only the next noun phrase: up to the first concept after it.
                    j = k + 1
                    while j < min(e, k + 6):
                        local.add(j)
                        if j in starts:
                            local.update(range(j, span_end.get(j, j + 1)))
                            end_j = span_end.get(j, j + 1)
                            # a possessor is not the head: "without Anna's review", «без его проверки»
                            if ((weak_at.get(j) or j in qual_at) and end_j < e and end_j in starts) or j in generic_at:
                                j = end_j
                                continue
                            j = end_j
                            # coordinated phrases stay denied: "without X or Y", «без X и Y»
                            if j + 1 < e and texts[j] in _COORD and (j + 1) in starts:
                                local.add(j)
                                j += 1
                                continue
                            break
                        j += 1
                elif m == "ONLY":
                    only_pos.append(k)
        neg += 1 if ru_neg or (reinforced and not neg) else 0
        if neg and only_pos and any(texts[p] == "other" for p in only_pos):
            neg -= 1  # "no Python versions other than 3.11": the denial and "other than" say "only" together
        base = -1 if neg % 2 else 1
        line_markers |= markers

        pre: set[str] = set()
        post: set[str] = set()
        even_at = next((k for k in range(s + 1, e) if flags[k] & _F_CONT), None) if line_flags & _F_CONT else None
        aside: set[int] = set()
        if line_flags & _F_OPEN:  # an aside needs a "("
            depth = 0
            for k in range(s, e):  # "(guessed from commit timestamps)": an aside is context, not the claim
                if kinds[k] == "punct" and texts[k] == "(":
                    depth += 1
                elif kinds[k] == "punct" and texts[k] == ")":
                    depth = max(0, depth - 1)
                elif depth:
                    aside.add(k)
        signs = cl.signs
        direct = cl.direct
        raw, antonymic, negated_direct, local_neg = cl.raw, cl.antonymic, cl.negated_direct, cl.local_neg
        add_concept = all_concepts.add
        # Concepts go to ``pre`` (context) or ``post``; soft = pre - post. With no Russian negation, "even" or
        # aside every one would go to ``post``: soft is empty, and neither set is kept.
        some_pre = first_neg is not None or even_at is not None or bool(aside)
        into = post
        for k, ids in concept_at:
            if k < s:
                continue
            if k >= e:
                break  # concept_at is sorted
            in_local = k in local or (negated_words and k in negated_words)
            sg = -base if in_local else base
            if some_pre:
                into = pre if ((first_neg is not None and k < first_neg) or (even_at is not None and k > even_at)
                               or k in aside) else post
            for cid in ids:
                info = cmemo.get(cid) or cinfo(cid)
                # the concept itself (its first link), then its parents: each set gets its ids in the same order
                c, can, flip = info[5]
                val = sg * flip
                prev = signs.get(can)
                signs[can] = val if prev is None or prev == val else 0
                if some_pre:
                    into.add(can)
                direct.add(can)
                raw.add(c)
                if flip < 0:
                    antonymic.add(can)
                if sg < 0:
                    negated_direct.add(c)
                if in_local:
                    local_neg.add(can)
                add_concept(can)
                for c, can, flip in info[6]:
                    val = sg * flip
                    prev = signs.get(can)
                    signs[can] = val if prev is None or prev == val else 0
                    if some_pre:
                        into.add(can)
                    add_concept(can)
                slot = info[2]
                if slot:
                    all_concepts.add(slot)
                    cl.values.append((slot, cid, sg))
                    signs.setdefault(slot, sg)
                if info[3]:
                    cl.values.append(("DAY", cid, sg))
        cl.soft = pre - post if some_pre else set()
        cl.has_only = bool(only_pos)
        if only_pos:
            # "only X": X follows; "X only": X precedes (the last content before ONLY at clause end).
            for p in only_pos:
                after = [ids for k, ids in concept_at if p < k < e]
                before = [ids for k, ids in concept_at if s <= k < p]
                if after:
                    for ids in after[:3]:
                        cl.only_targets |= {c for c in ids if lx.kind.get(c) not in {"generic"}}
                elif before:
                    for ids in reversed(before):
                        got = {c for c in ids if lx.kind.get(c) not in {"generic"}}
                        if got:
                            cl.only_targets |= got
                            break
        # Force of the clause.
        mk = markers
        if "NEG" in mk and line_flags & _F_NEEDED and any(flags[k] & _F_NEEDED for k in range(s, e)):
            mk.add("RELAX")  # "no notice needed", «проверка не нужна»: an obligation dropped
        if line_flags & _F_ANY:
            if "PERMIT" in mk and any(flags[k] & _F_ANY for k in range(s, e)):
                mk.add("INDIFF")  # "can be in any style", «можно в любом виде»: the rule is waved away
            if "NEG" not in mk and any(flags[k] & _F_ANY for k in range(s, e)) and any(
                    flags[k] & _F_WORKS for k in range(s, e)):
                mk.add("INDIFF")  # "any messenger works", «подойдёт любой»
        if "RELAX" in mk:
            cl.force = "relax"
        elif "INDIFF" in mk:
            cl.force = "indiff"
        elif "PERMIT" in mk and not neg:
            cl.force = "permit"
        elif neg:
            cl.force = "prohibit"
        elif mk & {"OBLIGE", "ONLY"}:
            cl.force = "oblige"
        line_markers |= mk  # markers inferred above (RELAX from "not needed", INDIFF from "any … works")
        if cl.force == "prohibit":
            cl.setting = _setting(texts, concept_at, s, e, cinfo)
        _values_for(cl, line, s, e, local, base)
        values.extend(cl.values)
        cl.finish(weight_memo)
        clauses.append(cl)

    if len(clauses) >= 2:
        last = clauses[-1]
        if last.force in {"permit", "relax", "indiff"} and not any(lx.kind.get(c) == "action" for c in last.direct):
            for cl in clauses[:-1]:
                if cl.force == "assert" and not cl.exception:
                    cl.force = last.force  # "Leaving the heating on while away is fine": the verdict is the line's
    names = _names(nfc)
    if names and clauses:
        clauses[0].values.extend(names)
        values.extend(names)
        all_concepts.add("NAME")
    keyed = _keyed(norm)
    if keyed and clauses:
        clauses[0].values.append(keyed)
        values.append(keyed)
    for slot, _, _ in values:
        all_concepts.add(slot if not slot.startswith("NUM:") else "NUM")
    if "DATE" in all_concepts:
        all_concepts.add("DAY")  # a date falls on a weekday: a line naming one is offered the rules of weekdays

    report = _reports(texts, kinds, flags, line_flags, line_markers, concept_at, cinfo)
    return _new_analysis(text, clauses, frozenset(all_concepts), frozenset(line_markers), values,
                         "HEDGE" in line_markers, report, "MENTION" in line_markers, "UNIVERSAL" in line_markers,
                         "INDIFF" in line_markers)


#: "X-free", "X- and Y-free": free of X (and Y)
_FREE_OF = _lazy(r"\b(?:([a-z]+)-\s+(?:and|or)\s+)?([a-z]+)-free\b")
#: «безглютеновый», «безлактозное», «безалкогольное»: a Russian "X-free" adjective of a food family, split into «без»
#: and the family's adjective (only these stems: «безопасный», «бесплатный» are words of their own)
_RU_FREE_OF = _lazy(r"(?<![\w-])без(?=(?:глютен|лактоз|орех|алкогол|сахар|мясн|молоч|кофеин|яичн)[а-я]*(?![\w-]))")
#: emoji pictographs (the emoji blocks, the dingbats and miscellaneous symbols, with their variation selector and
#: skin-tone modifiers): the lexicon knows them only as the word "emoji"
_PICTOGRAPH = _lazy(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2300-\u23FF][\uFE0F\U0001F3FB-\U0001F3FF]*")
#: words that only reinforce a denial ("not … anymore", "no dairy — lactose intolerant"): one denial with another,
#: a denial alone ("I'm lactose intolerant"); Russian ones deny once by negative concord already
_REINFORCING = ("anymore", "allergic", "allergy", "allergies", "intoleran")
#: reminder words: a mention when they label the line ("Reminder:", «Напоминание —», "reminder that …")
_REMINDER_WORDS = ("reminder", "напоминани")
_LABEL_NEXT = frozenset({":", "—", "–", "-", "(", "that", "что"})


#: the writer as the one reminded ("Reminder to self:", «Напоминание себе:», «для себя»): still a label
_TO_SELF = frozenset({"to", "for", "self", "myself", "me", "себе", "для", "себя", "самому", "самой"})


def _labels(texts: list, kinds: list, at: int) -> bool:
    """The token at ``at`` (after a reminder word) makes that word a label: a colon or dash, "that", «о»; or the
    line ends there. Up to two words naming the writer as the one reminded ("to self", «себе») come first."""
    for _ in range(2):
        if at < len(texts) and texts[at] in _TO_SELF:
            at += 1
    return at >= len(texts) or texts[at] in _LABEL_NEXT or kinds[at] == "punct" and texts[at] not in {",", "."}


#: What a provenance label's words mean in the claim: only the user it names ("asked" in "The user asked:" is no
#: request for approval).
_LABEL_KEEPS = frozenset({"USER_G"})
#: The first item of a tuple (a sort key called in C).
_first = itemgetter(0)


_EXT = _lazy(r"(\.[a-z]{1,4})$")
#: a verb and its particle around the object ("turning protection off", "keep the VPN on"): the particle moved
#: next to the verb, or for a verb of keeping turned into the state it keeps, so the lexicon's phrases meet it
_PARTICLE = _lazy(r"\b(turn|turns|turning|turned|switch|switches|switching|switched|shut|shuts|shutting)\s+"
                  r"((?:(?!(?:down|up|off|on|in|at|for)\b)[\w'-]+\s+){1,3}?)(off|on)"
                  r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:at|while|during|when|for|until|overnight|permanently|by default|"
                  r"to|so|because|if|in|on|after|before)\b)")
_KEPT_STATE = _lazy(r"\b(keep|keeps|keeping|kept|leave|leaves|leaving|left|stay|stays|staying|stayed)\s+"
                    r"((?:[\w'-]+\s+){0,3}?)(on|off)(?=\s*(?:[,.;:!?)]|$)|\s+(?:at all times|all the time|while|during|"
                    r"when|for|until|overnight|permanently|by default|24/7)\b)")


def _particles(norm: str) -> str:
    """"turning protection off" -> "turning off protection"; "keep the VPN on" -> "keep the VPN enabled"."""
    norm = _PARTICLE.sub(lambda m: f"{m.group(1)} {m.group(3)} {m.group(2)}".rstrip() + " ", norm)
    return _KEPT_STATE.sub(lambda m: f"{m.group(1)} {m.group(2)}{'enabled' if m.group(3) == 'on' else 'disabled'}",
                           norm)
#: A participle or adjective with a negative prefix: English "un" + a word ending in -ed/-able/-ible (not "under…",
#: "uni…"), Russian «не» + a participle in -нн- («неподписанный», «незашифрованные»). Group 1: the word negated.
_NEG_PREFIXED = _lazy(r"^un(?!der|i|til|less)([a-z]{3,}(?:ed|able|ible))$|^не(?!до)([а-я]{3,}нн[а-я]{1,4})$")


#: an hour written without minutes: "9 am", "7pm", «9 утра», «7 вечера», «с 11 до 17», «после 19», "from 10 to 16"
_CLOCK_NEEDS = _lazy(r"\d\s?(?:am|pm|a\.m\.|p\.m\.|утра|вечера|дня|ночи)\b|(?:^|\s)(?:с|со|до|после|from|between)\s\d")
_DAYPART_HOUR = _lazy(r"(?<![\d:.,])(\d{1,2})\s?(am|pm|a\.m\.|p\.m\.|утра|вечера|дня|ночи)(?![\w])")
_HOUR_RANGE = _lazy(r"(?<![\w:.,])(с|со|from|between)\s(\d{1,2})\s(до|по|to|till|until|and|-|–)\s(\d{1,2})"
                    r"(?!\d|[:.,]\d|\s*(?:-?[а-яё]|[a-z]|%))")
_HOUR_BOUND = _lazy(r"(?<![\w:.,])(до|после)\s(\d{1,2})(?!\d|[:.,]\d|\s*(?:-?[а-яё]|[a-z]|%))")


#: words of a line about when people or things are reachable or happen (bare numbers in a range are hours there)
_HOURS_CONTEXT = _lazy(r"\b(?:call|calls|calling|meet\w*|hours?|window|available|work\w*|office|shifts?|standups?|"
                       r"slots?|online|contact\w*|quiet|notif\w*|messag\w*|emails?|ping\w*|deploy\w*|open\w*|"
                       r"звон\w*|созвон\w*|встреч\w*|час\w*|окн\w*|работ\w*|смен\w*|доступ\w*|связ\w*|пиш\w*|"
                       r"писать|уведом\w*|беспоко\w*|тревож\w*|депло\w*|выкат\w*|утр\w*|вечер\w*|стендап\w*)\b")
_VERSION_CONTEXT = _lazy(r"\b(?:v|version\w*|upgrad\w*|bump\w*|releases?|верси\w*|обнов\w*|подним\w*|релиз\w*)\b")


def _hh(h: str, part: str = "") -> str | None:
    n = int(h)
    if part in {"pm", "p.m.", "вечера", "дня"} and n < 12:
        n += 12
    elif part in {"am", "a.m.", "ночи"} and n == 12:
        n = 0
    return f"{n:02d}:00" if 0 <= n <= 24 else None


def clock_hours(norm: str) -> str:
    """Hours written without minutes read as clock times: "9 am" and «9 утра» are 09:00, "7pm" and «7 вечера»
    19:00; in a range or a bound of hours («с 11 до 17», "from 10 to 16", «после 19», «до 10») a bare number up to
    24 that no word follows ("from 3 to 5 replicas", «до 10 человек», «до 25-го») is an hour too."""
    def part(m):
        got = _hh(m.group(1), m.group(2))
        return got if got else m.group(0)

    def rng(m):
        a, b = _hh(m.group(2)), _hh(m.group(4))
        return f"{m.group(1)} {a} {m.group(3)} {b}" if a and b else m.group(0)

    def bound(m):
        got = _hh(m.group(2))
        return f"{m.group(1)} {got}" if got else m.group(0)

    norm = _DAYPART_HOUR.sub(part, norm)
    if not _HOURS_CONTEXT.search(norm) or _VERSION_CONTEXT.search(norm):
        return norm  # "bump Postgres from 14 to 16": numbers of something else
    norm = _HOUR_RANGE.sub(rng, norm)
    return _HOUR_BOUND.sub(bound, norm)
