"""``.tribes`` files built by hand, byte by byte, to test the log format itself (a reader must
name what is wrong with any file): frames made here from the format's description, not by the
code under test.

::

    from tribes.testing.logbytes import frames, standard_header

    data = frames([[1, standard_header(seed=3)], ...])  # the first record is the header
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tribes.events import codec, logfile


def uvarint(n: int) -> bytes:
    """``n`` as the format's unsigned varint: 7 bits a byte, low first, the high bit "more"."""
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def frames(values_per_record: Sequence[Sequence[Any]]) -> bytes:
    """A .tribes file from msgpack values per record (the first record is the header), framed
    and chained as the format says: uvarint length, payload, CRC-8 over previous check + both."""
    out = [logfile.MAGIC]
    previous = 0
    for values in values_per_record:
        payload = b"".join(codec.pack(v) for v in values)
        head = uvarint(len(payload)) + payload
        previous = logfile.crc8(head, logfile.crc8(bytes([previous])))
        out.append(head + bytes([previous]))
    return b"".join(out)


def standard_header(**changes: Any) -> dict[str, Any]:
    """A valid header document of a two-seat Clans game, with ``changes``."""
    header: dict[str, Any] = {
        "game": "clans",
        "rules_version": 1,
        "seed": 7,
        "seats": ["ann", "bob"],
        "schema": {"move": 1, "order": 1},
    }
    header.update(changes)
    return header


class Binary:
    """The helpers as one object (the ``binary`` fixture of the project's tests)."""

    frames = staticmethod(frames)
    header = staticmethod(standard_header)
    uvarint = staticmethod(uvarint)
