"""The concept analysis as first written (before the session-4 speed work), kept as the reference the fast path
in ``tiers.concepts`` must equal: ``analyze_reference(line)`` builds the same ``Analysis`` field for field (set
orders, dict orders and float sums included) from Token objects, per-token loops and the generic pattern scan.

This module holds only the reference code; the comparisons are in test_concepts_speed_equivalence.py.
"""

from __future__ import annotations

import unicodedata

from tiers.concepts import (
    _ANY, _AIRPORT, _BOUNDARY_FIRST, _BOUNDARY_WORDS, _CITY_TIME, _CITY_TZ, _CONTINUE, _COORD,
    _DATE_DM, _DATE_FORMAT, _DATE_MD, _DOM, _EXCEPTION_WORDS, _EXT, _ISO_OFFSET, _MONTH_HEADS, _MONTH_NUM,
    _MONTH_WORD, _MONTHS, _NEEDED, _NOT_SUBJECT, _NUM_WORDS, _OFFSET, _PRESENT_AUX, _RU_PAST_NOT, _STOP, _TZ,
    _TZ_ABBR, _VIA, _WORKS, BROADER_FACTOR, DAY_GROUPS, Analysis, Clause, Token, _cyrillic_first, _en_past,
    _keyed, _match_at, _may_have_digit, _names, _near_month, _proper_words, _ru_participle, _ru_past, _scan,
    _stem, lexicon, normalize, strip_markup, tokenize,
)

#: The guard of _CITY_TIME as first written (tiers.concepts now has a tighter one).
_CITY_TIME_NEEDS = ("time", "времен", "по", "msk", "мск")


def finish_reference(self: Clause) -> None:
    """``Clause.finish`` as first written."""
    lx = lexicon()
    for c in self.signs:
        w = lx.weight(c)
        if c not in self.direct:
            w *= BROADER_FACTOR
        if c in self.soft:
            w *= 0.5
        self.wmap[c] = w
    self.content = tuple(c for c in self.signs if lx.kind.get(c) not in ("generic", "slot"))
    # For coverage, one of a pair of opposites is the evaluative core of the clause and weighs more.
    self.cov_w = {c: self.wmap[c] * (1.5 if c in self.antonymic else 1.0) for c in self.content}
    self.content_total = sum(self.cov_w.values())


def _split_clauses(tokens: list[Token]) -> list[tuple[int, int, bool]]:
    bounds: list[tuple[int, int, bool]] = []
    start = 0
    exception = False
    i = 0
    n = len(tokens)
    while i < n:
        t = tokens[i]
        if t.kind == "punct" and t.text in {";", ",", ".", "!", "?", "-", ":"}:
            if t.text == ":" and i <= 3:
                i += 1
                continue
            if t.text == "-":
                j = i + 1
                while j < n and not (tokens[j].kind == "punct" and tokens[j].text in {";", ",", ".", "!", "?", "-"}):
                    j += 1
                if j - i - 1 <= 3:
                    i += 1  # "X — Y" with a short Y is a copula («Кэш — Redis»), not a new clause
                    continue
            bounds.append((start, i, exception))
            start, exception = i + 1, False
            i += 1
            continue
        if t.kind == "word" and not t.code and t.text in _BOUNDARY_FIRST:
            hit = None
            for L in (3, 2, 1):
                key = tuple(x.text for x in tokens[i:i + L])
                if len(key) == L and key in _BOUNDARY_WORDS:
                    hit = key
                    break
            if hit and i > start:
                bounds.append((start, i, exception))
                start, exception = i, hit in _EXCEPTION_WORDS
                i += len(hit)
                continue
            if hit and i == start and hit in _EXCEPTION_WORDS:
                exception = True
        i += 1
    bounds.append((start, n, exception))
    return [b for b in bounds if b[1] > b[0]]


def analyze_reference(text: str) -> Analysis:
    lx = lexicon()
    from tiers.stamps import split_stamp

    content, _, _ = split_stamp(text)
    body = strip_markup(content)
    nfc = unicodedata.normalize("NFC", body)
    norm = normalize(body)
    tokens = tokenize(norm)

    marker_spans = _scan(tokens, lx.marker, lx.marker_prefix, skip_code=True)
    content_spans = _scan(tokens, lx.content, lx.content_prefix, skip_code=False)
    marker_at: dict[int, set[str]] = {}
    for s, e, ids in marker_spans:
        marker_at.setdefault(s, set()).update(ids)
        for k in range(s + 1, e):
            marker_at.setdefault(k, set()).add("_CONT")
    covered_by_content = set()
    concept_at: list[tuple[int, set[str]]] = []
    span_end: dict[int, int] = {}
    for s, e, ids in content_spans:
        concept_at.append((s, ids))
        span_end[s] = e
        covered_by_content.update(range(s, e))
    # Lexical fallback: unknown content words still carry meaning (names, projects, folders).
    marker_tokens = {k for s, e, _ in marker_spans for k in range(s, e)}
    for i, t in enumerate(tokens):
        if i in covered_by_content or t.kind in {"punct", "num", "time", "iso", "url", "mail", "phone"}:
            continue
        if t.kind == "word" and (i in marker_tokens or t.text in _STOP or len(t.text) < 3):
            continue
        key = t.text.strip("/*").rstrip("/") if t.kind == "path" else t.text
        if not key:
            continue
        concept_at.append((i, {"w:" + _stem(key)}))
        ext = _EXT.search(t.text) if t.kind in {"word", "path"} and "." in t.text[1:] else None
        if ext:
            n, ids = _match_at([Token(ext.group(1), "word", 0, 0)], 0, lx.content, lx.content_prefix, False)
            if ids:
                concept_at.append((i, ids))
    concept_at.sort(key=lambda x: x[0])

    # Clauses; merge clauses with no content into the previous one, qualifier-only ones into the next.
    raw_bounds = _split_clauses(tokens)
    has_content = []
    for s, e, _ in raw_bounds:
        ids = [c for i, cs in concept_at if s <= i < e for c in cs]
        kinds = {lx.kind.get(c, "lexical" if c.startswith("w:") else "object") for c in ids}
        vals = any(tokens[k].kind in {"time", "iso", "num", "url"} for k in range(s, e))
        if not ids and not vals:
            has_content.append("none")
        elif kinds <= {"qualifier", "generic"}:
            has_content.append("qual")
        else:
            has_content.append("full")
    merged: list[list] = []
    pending_front: list = []
    for (s, e, exc), hc in zip(raw_bounds, has_content):
        if merged and s < len(tokens) and tokens[s].text in _CONTINUE:
            merged[-1][1] = e  # "…, even for the vendor demo" extends the clause before it
            continue
        if hc == "none" and merged:
            merged[-1][1] = e
            continue
        if hc in {"none", "qual"} and not merged:
            pending_front.append((s, e, exc))
            continue
        neg_here = any(m in {"NEG", "RELAX"} for k in range(s, e) for m in marker_at.get(k, ()))
        if hc == "qual" and merged and not merged[-1][2] and not neg_here:
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

    starts = {k for k, _ in concept_at}
    generic_at = {k for k, ids in concept_at if all(lx.kind.get(c) == "generic" for c in ids)}
    weak_at = {k: all(c.startswith("w:") for c in ids) for k, ids in concept_at}
    qual_at = {k for k, ids in concept_at if all(lx.kind.get(c) in ("qualifier", "generic") for c in ids)}
    for k, _ in concept_at:
        span_end.setdefault(k, k + 1)
    clauses: list[Clause] = []
    all_concepts: set[str] = set()
    line_markers: set[str] = set()
    values: list[tuple[str, str, int]] = []
    for s, e, exc in merged:
        cl = Clause(s, e, exception=exc)
        neg = 0
        local_from: int | None = None
        local: set[int] = set()
        first_neg: int | None = None
        ru_neg = False
        only_pos: list[int] = []
        for k in range(s, e):
            for m in marker_at.get(k, ()):
                if m == "_CONT":
                    continue
                cl.markers.add(m)
                if m in {"NEG", "RELAX"}:
                    if m == "NEG" and _cyrillic_first(tokens[k].text):
                        ru_neg = True  # negative concord: «никогда не», «ничего не» deny once
                    else:
                        neg += 1
                    if m == "NEG" and first_neg is None and _cyrillic_first(tokens[k].text):
                        first_neg = k
                elif m == "NEG_LOCAL":
                    local_from = k
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
                            if j + 1 < e and tokens[j].text in _COORD and (j + 1) in starts:
                                local.add(j)
                                j += 1
                                continue
                            break
                        j += 1
                elif m == "ONLY":
                    only_pos.append(k)
        neg += 1 if ru_neg else 0
        base = -1 if neg % 2 else 1
        line_markers |= cl.markers

        def sign_at(k: int) -> int:
            return -base if k in local else base

        pre: set[str] = set()
        post: set[str] = set()
        even_at = next((k for k in range(s, e) if tokens[k].text in _CONTINUE and k > s), None)
        aside: set[int] = set()
        depth = 0
        for k in range(s, e):  # "(guessed from commit timestamps)": an aside is context, not the claim
            if tokens[k].kind == "punct" and tokens[k].text == "(":
                depth += 1
            elif tokens[k].kind == "punct" and tokens[k].text == ")":
                depth = max(0, depth - 1)
            elif depth:
                aside.add(k)
        for k, ids in concept_at:
            if not (s <= k < e):
                continue
            sg = sign_at(k)
            for cid in ids:
                for j, c in enumerate((cid, *lx.expand(cid))):
                    can, flip = lx.canon(c)
                    val = sg * flip
                    prev = cl.signs.get(can)
                    cl.signs[can] = val if prev is None or prev == val else 0
                    if (first_neg is not None and k < first_neg) or (even_at is not None and k > even_at) \
                            or k in aside:
                        pre.add(can)
                    else:
                        post.add(can)
                    if j == 0:
                        cl.direct.add(can)
                        cl.raw.add(c)
                        if flip < 0:
                            cl.antonymic.add(can)
                        if sg < 0:
                            cl.negated_direct.add(c)
                        if k in local:
                            cl.local_neg.add(can)
                    all_concepts.add(can)
                slot = lx.slot_of.get(cid)
                if slot:
                    all_concepts.add(slot)
                    cl.values.append((slot, cid, sg))
                    cl.signs.setdefault(slot, sg)
                day = cid if cid in DAY_GROUPS else None
                if day:
                    cl.values.append(("DAY", day, sg))
        cl.soft = pre - post
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
        mk = cl.markers
        if "NEG" in mk and any(tokens[k].text in _NEEDED for k in range(s, e)):
            mk.add("RELAX")  # "no notice needed", «проверка не нужна»: an obligation dropped
        if "PERMIT" in mk and any(tokens[k].text in _ANY for k in range(s, e)):
            mk.add("INDIFF")  # "can be in any style", «можно в любом виде»: the rule is waved away
        if "NEG" not in mk and any(tokens[k].text in _ANY for k in range(s, e)) and any(
                tokens[k].text in _WORKS for k in range(s, e)):
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
        _values_for(cl, tokens, concept_at, s, e, sign_at, nfc, span_end)
        values.extend(cl.values)
        finish_reference(cl)
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

    nominal = {k for k, ids in concept_at if any(lx.kind.get(c) in {"object", "qualifier", "value", "slot"}
                                                 for c in ids) and not any(lx.kind.get(c) == "action" for c in ids)}
    first_i = next((i for i, t in enumerate(tokens) if t.kind == "word"), -1)
    first = tokens[first_i].text if first_i >= 0 else ""
    past = "PAST" in line_markers or _en_past(first) or (
        _ru_past(first) and first not in _RU_PAST_NOT and first_i not in nominal  # «спортзал» is a noun
    )
    if not past:
        past = any(t.kind == "word" and _ru_past(t.text) and t.text not in _RU_PAST_NOT and i not in nominal
                   for i, t in enumerate(tokens[:4]))
    if not past:
        past = any(t.kind == "word" and _ru_participle(t.text) for t in tokens[:2])
    words_ = [t.text for t in tokens if t.kind == "word"]
    if past and _en_past(first) and any(w in _PRESENT_AUX for w in words_[1:5]):
        past = False  # "Scanned documents are named …": a participle used as an adjective, the verb is present
    if not past and len(words_) > 2 and not line_markers & {"PERMIT", "RELAX", "OBLIGE", "NEG", "FUTURE_PLAN"}:
        # "Friends ordered steaks …": a past verb in second or third place after a subject
        for i in (1, 2):
            if _en_past(words_[i]) and words_[i - 1] not in _PRESENT_AUX | _NOT_SUBJECT \
                    and (i == 1 or words_[0] not in _PRESENT_AUX | _NOT_SUBJECT) \
                    and not any(w in _PRESENT_AUX for w in words_[i + 1:i + 5]):
                past = True
                break
    modal = line_markers & {"PERMIT", "RELAX", "INDIFF", "OBLIGE", "FUTURE_PLAN"}
    return Analysis(
        text=text,
        clauses=clauses,
        concepts=frozenset(all_concepts),
        markers=frozenset(line_markers),
        values=values,
        hedged="HEDGE" in line_markers,
        report=past and not modal,
        mention="MENTION" in line_markers,
        universal="UNIVERSAL" in line_markers,
        indiff="INDIFF" in line_markers,
    )


def _values_for(cl: Clause, tokens: list[Token], concept_at, s: int, e: int, sign_at, nfc: str,
                span_end: dict[int, int]) -> None:
    lx = lexicon()
    has_branch = "BRANCH" in cl.signs
    for k in range(s, e):
        t = tokens[k]
        sg = sign_at(k)
        if t.kind == "time":
            hh, mm = t.text.split(":")
            cl.values.append(("TIME", f"{int(hh):02d}:{mm}", sg))
            h = int(hh)
            part = ("PART_MORNING" if 5 <= h < 12 else "PART_AFTERNOON" if 12 <= h < 17
                    else "PART_EVENING" if 17 <= h < 22 else "PART_NIGHT")
            if sg > 0:  # "not before 8:00" rules out a time, not the whole morning
                cl.values.append(("DAYPART", part, sg))
        elif t.kind == "flag" and len(t.text) > 2:
            cl.values.append(("FLAG", t.text, sg))
        elif t.kind == "time":
            pass
        elif t.kind == "url":
            cl.values.append(("URL", t.text.split("://", 1)[1].rstrip("/.").lower(), sg))
        elif t.kind == "path" and _TZ.match(t.text):
            cl.values.append(("TZ", t.text, sg))
        elif t.kind == "word" and t.text in _TZ_ABBR:
            cl.values.append(("TZ", t.text, sg))
        elif t.kind == "iso":
            cl.values.append(("DATE", t.text[5:10], sg))
            off = _ISO_OFFSET.search(t.text)
            if off:
                o = off.group(1)
                cl.values.append(("TZ", "utc" if o == "z" else "utc" + o.replace(":", "")[:3].replace("+0", "+").replace("-0", "-"), sg))
        elif (t.kind == "num" or (t.kind == "word" and t.text in _NUM_WORDS and not t.code)) \
                and not _near_month(k, concept_at, span_end):
            num = _NUM_WORDS.get(t.text, t.text)
            key = None
            for dist in (1, 2, 3):
                for j in (k - dist, k + dist):
                    if s <= j < e and key is None:
                        for kk, ids in concept_at:
                            if kk <= j < span_end.get(kk, kk + 1):
                                cands = [c for c in ids if lx.kind.get(c) not in {"generic", "qualifier"}]
                                if cands:
                                    key = sorted(cands)[0]
                                    break
                if key:
                    break
            if key:
                cl.values.append(("NUM:" + key, num.rstrip("+%"), sg))
        single_code = t.code and not (k > 0 and tokens[k - 1].code) and not (k + 1 < len(tokens) and tokens[k + 1].code)
        if single_code and has_branch and t.kind in {"word", "path"}:
            cl.values.append(("BRANCH", t.text, sg))
        elif has_branch and t.kind == "word" and t.text in {"main", "master", "trunk", "develop", "dev"}:
            cl.values.append(("BRANCH", "main" if t.text in {"master", "trunk"} else t.text, sg))
    for k in range(s, e):
        t = tokens[k]
        if t.kind in {"word", "path"}:
            fm = _DATE_FORMAT.match(t.text) if t.text[:1] in ("d", "m", "y") else None
            if fm:  # "DD.MM.YYYY", "MM/DD/YYYY", "yyyy-mm-dd": the order of day, month and year is the value
                cl.values.append(("DATE_FORMAT", "".join(g[0] for g in fm.groups()), sign_at(k)))
        if t.kind == "word" and t.text in _VIA and k + 1 < e:
            nxt = tokens[k + 1]
            if nxt.kind in {"word", "path"} and nxt.text not in _STOP and not any(
                    kk == k + 1 and any(lx.kind.get(c) not in (None,) and not c.startswith("w:") for c in ids)
                    for kk, ids in concept_at):
                # "через Тинькофф", "via Wise": a named channel or provider is a value of "how it is done"
                cl.values.append(("VIA", _stem(nxt.text), sign_at(k + 1)))
    proper = _proper_words(nfc)
    covered = {kk for kk, ids in concept_at if not all(c.startswith("w:") for c in ids)}
    for k in range(s, e):
        t = tokens[k]
        if t.kind == "word":
            mo = _MONTH_WORD.match(t.text) if t.text[:3] in _MONTH_HEADS else None
            if mo:
                cl.values.append(("MONTH_V", str(_MONTH_NUM[next(g for g in mo.groups() if g)]), sign_at(k)))
        if t.kind == "alnum":
            dm = _DOM.match(t.text) if t.text[-1:] in "tdhое" else None
            if dm and 1 <= int(dm.group(1)) <= 31:  # "on the 15th", «15-го»: a day of the month
                cl.values.append(("DOM", str(int(dm.group(1))), sign_at(k)))
        elif t.kind == "word" and not t.code and k not in covered and t.text in proper:
            # a place, shop or person named in the line ("Munich", «Ригла»): a value of where/who
            cl.values.append(("PROPER", _stem(t.text), sign_at(k)))
    seg = " ".join(tokens[k].text for k in range(s, e))
    if "AIRPORT" in cl.signs:
        for m in _AIRPORT.finditer(nfc):
            cl.values.append(("AIRPORT_CODE", m.group(1), 1))
    city_time = _CITY_TIME.finditer(seg) if any(w in seg for w in _CITY_TIME_NEEDS) else ()
    for m in city_time:
        city = next(g for g in m.groups() if g)
        tz = "europe/moscow" if city in {"msk", "мск"} else next(
            (v for k2, v in _CITY_TZ.items() if city.startswith(k2) or k2.startswith(city)), None)
        if tz:
            cl.values.append(("TZ", tz, 1))
    if not _may_have_digit(seg):
        return  # the date and offset patterns below all need a digit
    for m in _DATE_MD.finditer(seg):
        cl.values.append(("DATE", f"{_MONTHS[m.group(1)[:3]]:02d}-{int(m.group(2)):02d}", cl.signs and 1 or 1))
    for m in _DATE_DM.finditer(seg):
        cl.values.append(("DATE", f"{_MONTHS[m.group(2)[:3]]:02d}-{int(m.group(1)):02d}", 1))
    for m in _OFFSET.finditer(seg):
        if m.group(1):
            h = int(m.group(1).replace(" ", ""))
            cl.values.append(("TZ", f"utc{h:+d}" if h else "utc", 1))

