"""Stamps compute HMAC-SHA256 over the interpreter's built-in SHA-256: the same bytes as the ``hmac`` module."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tiers.stamps import _hmac_sha256


@given(st.binary(max_size=200), st.binary(max_size=500))
def test_hmac_equals_the_standard_library(key, msg):
    assert _hmac_sha256(key, msg) == hmac.new(key, msg, hashlib.sha256).digest()


@pytest.mark.parametrize("size", [0, 1, 63, 64, 65, 128, 1000], ids=lambda n: f"key-{n}")
def test_keys_of_every_length_around_the_block_size(size):
    key = bytes(range(256)) * 4
    assert _hmac_sha256(bytearray(key[:size]), b"payload") == hmac.new(key[:size], b"payload", hashlib.sha256).digest()


@pytest.mark.parametrize("key", ["text", 5, memoryview(b"k")], ids=["str", "int", "memoryview"])
def test_a_key_that_is_not_bytes_is_refused_like_hmac_new(key):
    with pytest.raises(TypeError):
        hmac.new(key, b"x", hashlib.sha256)
    with pytest.raises(TypeError):
        _hmac_sha256(key, b"x")
