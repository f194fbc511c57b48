"""Reading a game's data files (boards, maps) that a user names: untrusted, so size-limited, and
every failure one BadData line. A file an option names is read by the library when a log is made
and carried in the log's header; games parse its text (:func:`parse_json`) and key what they
build from it by :func:`content_key`, never by a path."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

from tribes.core.errors import BadData

MAX_BYTES = 1 << 20


def read_json(path: Path, what: str) -> Any:
    """The JSON in ``path``; ``what`` names it in errors ("board file", "map file")."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise BadData(f"{what} '{path}' is larger than 1 MiB")
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise BadData(f"{what} '{path}' does not exist") from None
    except (OSError, ValueError, RecursionError) as exc:
        raise BadData(f"{what} '{path}' cannot be read as JSON: {exc}") from None


def parse_json(text: str, what: str) -> Any:
    """The JSON in ``text`` (a file's content carried in a log); ``what`` names it in errors.
    Strict: no NaN or Infinity."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise BadData(f"{what} cannot be read as JSON: {exc}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def content_key(text: str) -> str:
    """A name for what is built from ``text``, the same wherever the file came from."""
    return (
        "file:" + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    )


__all__ = ["MAX_BYTES", "content_key", "math", "parse_json", "read_json"]
