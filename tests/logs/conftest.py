"""Helpers of the log tests: ``binary`` builds .tribes files by hand (as tests/cli does)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tribes.events import codec, logfile
from tribes.events.framing import frame


def frames(values_per_record: Sequence[Sequence[Any]]) -> bytes:
    out = [logfile.MAGIC]
    check = 0
    for values in values_per_record:
        framed, check = frame(b"".join(codec.pack(v) for v in values), check)
        out.append(framed)
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


@pytest.fixture
def binary() -> type[Binary]:
    return Binary
