"""The CRC-8 of frames: its table, built from the CRC's linearity, is the bit-by-bit CRC of
every byte, and the CRC is the standard one (poly 0x07, ``CRC-8/SMBUS``)."""

from __future__ import annotations

from tribes.events import framing


def test_the_table_is_the_bitwise_crc_of_every_byte() -> None:
    assert tuple(framing.crc8_of_byte(byte) for byte in range(256)) == framing._CRC8


def test_the_check_value_of_the_standard_crc8() -> None:
    assert framing.crc8(b"123456789") == 0xF4
