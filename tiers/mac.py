"""HMAC-SHA256 keyed by the workspace key: the one place stamps and the derived config cache compute their MACs."""

from __future__ import annotations

import hashlib
import hmac
from hmac import compare_digest  # noqa: F401 - re-exported for the callers that check a MAC


def hmac_sha256(key: bytes, msg: bytes) -> bytes:
    if not isinstance(key, (bytes, bytearray)):
        raise TypeError(f"key: expected bytes or bytearray, but got {type(key).__name__!r}")
    return hmac.new(bytes(key), msg, hashlib.sha256).digest()

