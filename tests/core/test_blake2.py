"""``tribes.core.blake2.blake2b`` is hashlib's ``blake2b`` itself, so every key, digest and
state hash is what hashlib computes."""

from __future__ import annotations

import hashlib

from tribes.core.blake2 import blake2b


def test_it_is_hashlibs_blake2b() -> None:
    assert blake2b is hashlib.blake2b
    assert (
        blake2b(b"tribes", digest_size=16).hexdigest()
        == hashlib.blake2b(b"tribes", digest_size=16).hexdigest()
    )
