"""Inline stamps: the compact, tamper-evident trailing HTML comment that records a memory line's tier.

Grammar (one line, no spaces needed; every character is loaded into the model's context each session)::

    stamp   = "<!--" [ws] "cu:" tier id "@" session [ "~" expires ] [ "!" state ] [ "+" proof ] [ "|" scope ]
              "#" mac [ws] "-->"
    tier    = "D" | "O" | "C" | "H"                      ; DIRECTIVE OBSERVATION DECISION HYPOTHESIS
    id      = 4*12 ( a-z / 2-7 )                         ; base32 of a keyed hash of the line
    session = 1*DIGIT                                    ; the session the line was stamped in
    expires = 1*DIGIT                                    ; last session a HYPOTHESIS is live in
    state   = "s" | "x"                                  ; superseded | contradicted (a GC candidate)
    proof   = "v" | "u"                                  ; DIRECTIVE/DECISION: verified against the user's prompt
                                                         ; of that turn, or not (absent: not recorded, older stamps)
    scope   = *( any char; "%", "-", ">", "#" and controls escaped as %XX where needed )
    mac     = 4*16 ( a-z / 2-7 )                         ; truncated HMAC-SHA256 under the workspace key

Example: ``- Decided with the user: Redis for staging until Q1. <!--cu:Cq3z7k@4|for staging until Q1#m2x4pa-->``.

The id and the MAC bind the line's content (markup stripped, NFC, whitespace collapsed, so ticking a checkbox does
not break a stamp), the tier, session, scope, expiry and state. A stamp whose tier an agent edited, or one an agent
wrote itself without the key, fails ``verify_stamp``.
"""

from __future__ import annotations

import base64
import functools
import re
import unicodedata
from .record import dataclass

from .errors import StampError
from .lazy import LazyRe
from .model import Tier

__all__ = [
    "MAC_LEN",
    "STATES",
    "Stamp",
    "apply_stamp",
    "canonical_content",
    "make_stamp",
    "parse_stamp",
    "render_stamp",
    "split_stamp",
    "stamp_payload",
    "strip_inner_stamps",
    "strip_stamp",
    "verify_stamp",
]

ID_LEN = 5
MAC_LEN = 6
#: state name -> its one-letter code in a stamp.
STATES: dict[str, str] = {"superseded": "s", "contradicted": "x"}
_STATE_NAMES = {v: k for k, v in STATES.items()}
_B32 = "abcdefghijklmnopqrstuvwxyz234567"


@dataclass(frozen=True, slots=True)
class Stamp:
    """One parsed stamp. ``expires`` is the last session a HYPOTHESIS is live in; ``state`` marks GC candidates."""

    tier: Tier
    id: str
    session: int
    scope: str | None = None
    expires: int | None = None
    state: str | None = None
    mac: str | None = None
    #: DIRECTIVE/DECISION stamps: True when the line was verified against the user's own prompt, False when it was
    #: not (an agent's "User said: ..."), None when not recorded (stamps made before cuticle recorded it)
    verified: bool | None = None


# -- escaping ---------------------------------------------------------------------------------------------------
def _escape(scope: str) -> str:
    out = []
    prev = ""
    for i, ch in enumerate(scope):
        if ch == "%" or ch == ">" or ord(ch) < 0x20 or ch == "\x7f" or ch in "\u2028\u2029\x85" or (
            ch == "-" and (prev == "-" or i == len(scope) - 1 or (i + 1 < len(scope) and scope[i + 1] == "-"))
        ) or (ch == "<" and scope[i + 1:i + 2] == "!"):
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
            prev = ""
        else:
            out.append(ch)
            prev = ch
    return "".join(out)


_PCT = LazyRe(r"(?:%[0-9A-Fa-f]{2})+")


def _unescape(text: str) -> str:
    def repl(m: re.Match) -> str:
        raw = bytes.fromhex(m.group().replace("%", ""))
        return raw.decode("utf-8", errors="strict")

    try:
        return _PCT.sub(repl, text)
    except UnicodeDecodeError as exc:
        raise StampError(f"bad %-escape in stamp scope ({exc.reason})") from None


# -- render / parse ---------------------------------------------------------------------------------------------
def render_stamp(stamp: Stamp) -> str:
    """The canonical comment text of ``stamp`` (no leading space)."""
    if not isinstance(stamp.tier, Tier):
        raise StampError(f"stamp tier must be a Tier, not {stamp.tier!r}")
    if not _ID.fullmatch(stamp.id or ""):
        raise StampError(f"stamp id {stamp.id!r} must be 4-12 characters of a-z and 2-7")
    if isinstance(stamp.session, bool) or not isinstance(stamp.session, int) or stamp.session < 0:
        raise StampError(f"stamp session must be a non-negative integer, not {stamp.session!r}")
    parts = ["<!--cu:", stamp.tier.value, stamp.id, "@", str(stamp.session)]
    if stamp.expires is not None:
        if isinstance(stamp.expires, bool) or not isinstance(stamp.expires, int) or stamp.expires < 0:
            raise StampError(f"stamp expiry must be a non-negative integer, not {stamp.expires!r}")
        parts += ["~", str(stamp.expires)]
    if stamp.state is not None:
        if stamp.state not in STATES:
            raise StampError(f"stamp state {stamp.state!r} must be one of {', '.join(STATES)} or None")
        parts += ["!", STATES[stamp.state]]
    if stamp.verified is not None:
        parts += ["+", "v" if stamp.verified else "u"]
    if stamp.scope is not None:
        parts += ["|", _escape(stamp.scope)]
    mac = stamp.mac or ""
    if not _MAC.fullmatch(mac):
        raise StampError(f"stamp mac {stamp.mac!r} must be 4-16 characters of a-z and 2-7")
    parts += ["#", mac, "-->"]
    return "".join(parts)


_ID = re.compile(r"[a-z2-7]{4,12}")
_MAC = re.compile(r"[a-z2-7]{4,16}")
_OPEN = LazyRe(r"<!--[ \t]*cu:")
_FULL = LazyRe(
    r"""<!--[ \t]*cu:
        (?P<tier>[A-Z])
        (?P<id>[a-z2-7]{4,12})
        @(?P<session>\d{1,12})
        (?:~(?P<expires>\d{1,12}))?
        (?:!(?P<state>[a-z]))?
        (?:\+(?P<proof>[uv]))?
        (?:\|(?P<scope>[^\n]*?))?
        \#(?P<mac>[a-z2-7]{4,16})
        [ \t]*-->\Z""",
    re.VERBOSE,
)


def parse_stamp(comment: str) -> Stamp:
    """Parse one stamp comment exactly; raises StampError saying what is wrong (the caller adds file:line)."""
    if not isinstance(comment, str):
        raise StampError(f"stamp must be text, not {type(comment).__name__}")
    text = comment.strip()
    shown = text if len(text) <= 60 else text[:57] + "..."
    bad = f"malformed stamp '{shown}'; "
    head = _OPEN.match(text)
    if not head:
        raise StampError(bad + "expected it to start with '<!--cu:'")
    if not text.endswith("-->"):
        raise StampError(bad + "expected it to end with '-->'")
    rest = text[head.end():]
    if not rest[:1] or rest[:1] not in "DOCH":
        raise StampError(bad + "expected a tier letter D, O, C or H")
    m = _FULL.match(text)
    if not m:
        if not _ID.match(rest[1:]):
            raise StampError(bad + "expected a short id (4-12 of a-z, 2-7) after the tier letter")
        if not re.search(r"@\d", rest):
            raise StampError(bad + "expected '@SESSION' (a session number) after the id")
        if "#" not in rest:
            raise StampError(bad + "expected '#MAC' before '-->'; re-stamp the line with cuticle")
        raise StampError(bad + "expected TIER ID @SESSION [~EXPIRES] [!STATE] [+PROOF] [|SCOPE] #MAC")
    state = m.group("state")
    if state is not None and state not in _STATE_NAMES:
        raise StampError(bad + "expected state 's' (superseded) or 'x' (contradicted)")
    scope = m.group("scope")
    return Stamp(
        tier=Tier(m.group("tier")),
        id=m.group("id"),
        session=int(m.group("session")),
        scope=None if scope is None else _unescape(scope),
        expires=None if m.group("expires") is None else int(m.group("expires")),
        state=None if state is None else _STATE_NAMES[state],
        mac=m.group("mac"),
        verified=None if m.group("proof") is None else m.group("proof") == "v",
    )


# A stamp ends the line; an unterminated one ("<!--cu:D..." to the end) counts as a malformed stamp, but a closed
# stamp followed by more text ("- Tests fail. <!--cu:..--> Still failing.") is not trailing: the text after it
# is part of the line's content, never cut off with the stamp. Both patterns start only where a run of blanks
# starts ((?<![ \t])): a match inside the run would also match from its start, and trying every blank of a long
# run before a "<!--" that is no stamp costs the square of its length.
_TRAILING = LazyRe(r"(?<![ \t])[ \t]*(<!--[ \t]*cu:(?:(?!-->)[^\n])*-->|<!--[ \t]*cu:(?:(?!-->)[^\n])*)[ \t]*\Z")
_INNER = LazyRe(r"(?<![ \t])[ \t]*<!--[ \t]*cu:(?:(?!-->)[^\n])*-->")


def split_stamp(line_text: str) -> tuple[str, Stamp | None, str | None]:
    """``(content, stamp, error)`` for one line; never raises.

    A trailing ``<!--cu:…-->`` comment is the stamp; ``content`` is the line without it (and without the spaces
    before it). A malformed stamp gives ``(content, None, message)``. Other HTML comments are content.
    """
    if isinstance(line_text, str) and "<!--" not in line_text:
        return line_text, None, None
    if isinstance(line_text, str) and len(line_text) < 4096:
        return _split_cached(line_text)
    return _split(line_text)


def strip_inner_stamps(content: str) -> str:
    """``content`` without cuticle stamps inside it (a stamp an edit left mid-line, text appended after it).
    The stamps are cuticle's own; the text around them is kept."""
    if "<!--" not in content:
        return content
    return _INNER.sub("", content)


def strip_stamp(line_text: str) -> str:
    """``split_stamp(line_text)[0]`` without parsing the stamp: the content is all a diff of two files needs,
    and parsing every stamp of a large memory file is most of a cold write's alignment."""
    if "<!--" not in line_text:
        return line_text
    m = _TRAILING.search(line_text)
    return line_text[: m.start()] if m else line_text


@functools.lru_cache(maxsize=8192)
def _split_cached(line_text: str) -> tuple[str, Stamp | None, str | None]:
    return _split(line_text)


def _split(line_text: str) -> tuple[str, Stamp | None, str | None]:
    try:
        m = _TRAILING.search(line_text)
        if not m:
            return line_text, None, None
        content = line_text[: m.start()]
        try:
            return content, parse_stamp(m.group(1)), None
        except StampError as exc:
            return content, None, str(exc)
    except Exception as exc:  # noqa: BLE001 - contract: never raises
        return str(line_text) if line_text is not None else "", None, f"unreadable stamp ({type(exc).__name__})"


# -- keyed id and mac -------------------------------------------------------------------------------------------
_WS = re.compile(r"\s+")


def _canonical_content(content: str) -> str:
    from .text import strip_markup

    body = strip_markup(split_stamp(content)[0])
    return _WS.sub(" ", unicodedata.normalize("NFC", body)).strip()


def canonical_content(text: str) -> str:
    """The part of a line a stamp binds: stamp-free, markup stripped, NFC, whitespace collapsed (a ticked box or
    re-spacing leaves it the same)."""
    return _canonical_content(strip_inner_stamps(text))


def stamp_payload(content: str, tier: Tier, session: int, scope: str | None, expires: int | None,
                  state: str | None, ident: str = "", verified: bool | None = None) -> bytes:
    """The bytes a stamp's MAC covers (exposed so tests and other tools can reason about it). The proof rides in
    the state field only when recorded, so a stamp made before it existed keeps its MAC."""
    proof = "" if verified is None else ("+v" if verified else "+u")
    fields = [
        "cu1",
        tier.value,
        ident,
        str(session),
        "" if expires is None else str(expires),
        ("" if state is None else STATES.get(state, state)) + proof,
        "\x00" if scope is None else "\x01" + scope,
        _canonical_content(content),
    ]
    return "\x1f".join(fields).encode("utf-8", "surrogatepass")


# HMAC-SHA256 lives in tiers.mac (shared with the workspace's config cache), under its old name here
from .mac import compare_digest as _compare_digest  # noqa: E402
from .mac import hmac_sha256 as _hmac_sha256  # noqa: E402


def _b32(digest: bytes, n: int) -> str:
    return base64.b32encode(digest).decode("ascii").lower()[:n]


def make_stamp(content: str, tier: Tier, session: int, key: bytes, *, scope: str | None = None,
               ttl: int | None = None, state: str | None = None, verified: bool | None = None) -> Stamp:
    """A fresh stamp for ``content``; a HYPOTHESIS with a ``ttl`` lives up to session ``session + ttl - 1``;
    ``verified`` records whether a DIRECTIVE/DECISION was verified against the user's prompt (None: not said)."""
    if isinstance(tier, str):
        tier = Tier.from_code(tier)
    expires = None
    if ttl is not None:
        if ttl < 1:
            raise StampError(f"ttl must be at least 1 session, not {ttl}")
        expires = session + ttl - 1
    if state is not None and state not in STATES:
        raise StampError(f"stamp state {state!r} must be one of {', '.join(STATES)} or None")
    id_digest = _hmac_sha256(key, b"id\x1f" + stamp_payload(content, tier, session, scope, None, None))
    ident = _b32(id_digest, ID_LEN)
    mac = _mac(key, content, tier, session, scope, expires, state, ident, verified=verified)
    return Stamp(tier, ident, session, scope, expires, state, mac, verified)


def _mac(key: bytes, content: str, tier: Tier, session: int, scope: str | None, expires: int | None,
         state: str | None, ident: str, length: int = MAC_LEN, *, verified: bool | None = None) -> str:
    payload = stamp_payload(content, tier, session, scope, expires, state, ident, verified)
    return _b32(_hmac_sha256(key, payload), length)


def verify_stamp(stamp: Stamp, content: str, key: bytes) -> bool:
    """True when ``stamp`` was made with ``key`` for exactly this content, tier, session, scope, expiry and state."""
    if stamp.mac is None or not key:
        return False
    try:
        expected = _mac(key, content, stamp.tier, stamp.session, stamp.scope, stamp.expires, stamp.state,
                        stamp.id, len(stamp.mac), verified=stamp.verified)
    except Exception:  # noqa: BLE001 - a stamp that cannot be recomputed is not verified
        return False
    return len(stamp.mac) >= 4 and _compare_digest(expected, stamp.mac)


def apply_stamp(line_text: str, stamp: Stamp) -> str:
    """``content + " " + stamp`` (an existing stamp, valid or malformed, is replaced)."""
    content, _old, _err = split_stamp(line_text)
    content = content.rstrip(" \t")
    rendered = render_stamp(stamp)
    return f"{content} {rendered}" if content else rendered
