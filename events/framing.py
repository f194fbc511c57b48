"""Framing of ``.tribes`` records: ``uvarint(len(payload)) payload check``.

``check`` is CRC-8 (poly 0x07) over the previous frame's check, the length and the payload (the
first frame's previous check is 0): chained, so a record moved or dropped is found too. Reading
stops at the first damaged frame; the number of frames read is bounded by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from tribes.core.errors import CorruptLog
from tribes.core.reprs import fields_repr


def crc8_of_byte(byte: int) -> int:
    """The CRC-8 of one byte, bit by bit: what :data:`_CRC8` holds for it."""
    crc = byte
    for _ in range(8):
        crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def _crc8_table() -> tuple[int, ...]:
    """:func:`crc8_of_byte` of every byte, from its linearity (the CRC of ``a ^ b`` is the
    CRC of ``a`` XOR that of ``b``): the CRC of each power of two, and of each other byte that
    of its top bit XOR that of the rest: 255 XORs, not 2,048 steps of a loop (~1.7 M
    instructions of every command that reads a log; ``tests/logs`` compares the two)."""
    table = [0] * 256
    bit = 1
    while bit < 256:
        top = crc8_of_byte(bit)
        table[bit : 2 * bit] = [top ^ rest for rest in table[:bit]]
        bit <<= 1
    return tuple(table)


_CRC8 = _crc8_table()


def crc8(data: bytes, crc: int = 0) -> int:
    table = _CRC8
    for byte in data:
        crc = table[crc ^ byte]
    return crc


def uvarint(n: int) -> bytes:
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def frame(payload: bytes, previous: int) -> tuple[bytes, int]:
    """The framed payload and its check byte (the ``previous`` of the next frame)."""
    head = uvarint(len(payload)) + payload
    check = crc8(head, crc8(bytes([previous])))
    return head + bytes([check]), check


@attrs.frozen
class Frame:
    start: int
    body: int
    end: int
    """The payload is ``data[body:end]``; the check byte is at ``end``."""
    check: int

    __repr__ = fields_repr


@attrs.frozen
class Torn:
    """The file ends inside a frame starting at ``start`` (an interrupted write)."""

    start: int
    why: str

    __repr__ = fields_repr


def read_uvarint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data):
            raise EOFError
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7
        if shift > 35:
            raise ValueError("record length is not a valid number")


def frames(data: bytes, start: int, max_record: int, where: list[str]) -> Iterator[Frame | Torn]:
    """The frames of ``data`` from ``start``, each checked; a torn last frame is yielded as
    :class:`Torn`. ``where[0]`` names the record being read, for errors (the caller keeps it)."""
    pos = start
    check = 0
    while pos < len(data):
        begin = pos
        try:
            length, body = read_uvarint(data, pos)
        except EOFError:
            yield Torn(begin, "is truncated: the file ends in its length")
            return
        except ValueError as exc:
            raise CorruptLog(f"is corrupt: {exc}", record=where[0], offset=begin) from None
        if length > max_record:
            raise CorruptLog(
                f"is corrupt: a length of {length} bytes", record=where[0], offset=begin
            )
        end = body + length
        if end + 1 > len(data):
            yield Torn(
                begin,
                f"is truncated: it needs {end + 1 - begin} bytes, the file has {len(data) - begin}",
            )
            return
        expected = crc8(data[begin:end], crc8(bytes([check])))
        if data[end] != expected:
            raise CorruptLog(
                "is corrupt: its check byte does not match", record=where[0], offset=begin
            )
        check = expected
        yield Frame(begin, body, end, check)
        pos = end + 1
