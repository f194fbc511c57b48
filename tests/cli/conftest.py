"""Shared helpers of the CLI contract tests.

The contract: exit 0 when all is well; 1 for a rule or file error, with exactly one line on
stderr starting ``tribes: ``; 2 for a usage error; never a traceback, never 70 (the internal-error
status). The helpers are :mod:`tribes.testing`'s; they reach the tests as fixtures: ``cli`` (an
in-process runner rooted in a fresh folder, from ``tests/conftest.py``), ``run_process`` (a real
process), ``position`` (a Clans position document builder) and ``binary`` (.tribes files built by
hand, byte by byte, to test the log format itself).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from tribes.events import codec, logfile
from tribes.testing import clans
from tribes.testing import cli as testing_cli


@pytest.fixture
def position() -> Callable[..., dict[str, Any]]:
    """The Clans position builder :func:`tribes.testing.clans.position`."""
    return clans.position


# --- the binary format, built by hand -----------------------------------------------------------


def uvarint(n: int) -> bytes:
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
    frames = staticmethod(frames)
    header = staticmethod(standard_header)
    uvarint = staticmethod(uvarint)


@pytest.fixture
def binary() -> type[Binary]:
    """Helpers to build .tribes files by hand."""
    return Binary


@pytest.fixture
def run_process(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Runs the installed ``tribes`` in a real process in ``tmp_path``; checks no crash."""

    def run(*args: Any, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return testing_cli.run_process(*args, cwd=tmp_path, timeout=timeout)

    return run
