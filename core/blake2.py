"""BLAKE2b, the hash of every key, stream, digest and state hash of tribes: hashlib's own
``blake2b``, taken from ``_blake2``, the module hashlib itself takes it from (the same type:
``tests/core/test_blake2.py``). Importing hashlib sets up OpenSSL for the hashes it offers
from there, ~9 M instructions of every command's start (2% of ``tribes show``), for hashes
tribes never uses. A Python without ``_blake2`` takes hashlib's."""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover  (every CPython has it; hashlib's is the same)
    from hashlib import blake2b

__all__ = ["blake2b"]
