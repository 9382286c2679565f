"""HMAC-SHA256 keyed by the workspace key: stamps and the derived config cache, without importing OpenSSL.

RFC 2104 over the interpreter's built-in SHA-256, the same bytes as ``hmac.new(key, msg, hashlib.sha256)``: the
``hashlib``/``hmac`` imports load OpenSSL, a few milliseconds of every hook process that stamps one line.
"""

from __future__ import annotations

import functools


@functools.cache
def _hash_tools():
    try:
        from _sha2 import sha256  # Python 3.12+
    except ImportError:
        try:
            from _sha256 import sha256
        except ImportError:  # pragma: no cover - a build without the built-in hashes
            from hashlib import sha256
    return sha256, bytes(x ^ 0x36 for x in range(256)), bytes(x ^ 0x5C for x in range(256))


def hmac_sha256(key: bytes, msg: bytes) -> bytes:
    if not isinstance(key, (bytes, bytearray)):  # as hmac.new
        raise TypeError(f"key: expected bytes or bytearray, but got {type(key).__name__!r}")
    sha256, inner_pad, outer_pad = _hash_tools()
    key = bytes(key)
    if len(key) > 64:
        key = sha256(key).digest()
    key = key.ljust(64, b"\x00")
    inner = sha256(key.translate(inner_pad))
    inner.update(msg)
    return sha256(key.translate(outer_pad) + inner.digest()).digest()


try:
    from _operator import _compare_digest as compare_digest
except ImportError:  # pragma: no cover - other interpreters
    from hmac import compare_digest
