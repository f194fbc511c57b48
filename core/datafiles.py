"""A game's data files: those shipped with it (:func:`packaged`) and those a user names.

A file an option names (``board=PATH``) is read by the library when a log is made and carried in
the log's header; the game gets it through :func:`carry` (a key naming the text, by its content)
and :func:`carried`, never through a path: reading a log opens no file it names."""

from __future__ import annotations

import functools
import hashlib
import json
from importlib import resources
from typing import Any

from tribes.core.errors import BadData


@functools.cache
def packaged(package: str, name: str) -> Any:
    """The JSON of data file ``name`` shipped in ``package``'s ``data/`` folder, read once."""
    return json.loads((resources.files(package) / "data" / name).read_text())


_CARRIED: dict[str, tuple[str, str]] = {}


def carry(text: str, label: str) -> str:
    """A key for the text of a file carried in a log (the same for the same text, whatever the
    file was called); ``label`` (the path given at ``new``) names it in errors."""
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    key = f"file:{digest}"
    _CARRIED.setdefault(key, (text, label))
    return key


def carried(key: str, what: str) -> tuple[Any, str]:
    """The JSON of the carried file ``key`` and its label; BadData if none was carried."""
    found = _CARRIED.get(key)
    if found is None:
        raise BadData(f"{what} '{key}' is not carried in the log (a path is never opened)")
    text, label = found
    try:
        return json.loads(text, parse_constant=_no_constant), label
    except (ValueError, RecursionError) as exc:
        raise BadData(f"{what} '{label}' cannot be read as JSON: {exc}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")
