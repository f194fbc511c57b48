"""A game's data files: those shipped with it (:func:`packaged`) and those a user names.

A file an option names (``board=PATH``) is read by the library when a log is made and carried in
the log's header (``header.files``); a game's setup reads its text from there and names it in its
states by :func:`key` (by content), never by a path: reading a log opens no file it names, and
nothing here keeps a log's files (a game may keep a bounded memo of what it built from a text)."""

from __future__ import annotations

import functools
import json
import pkgutil
from typing import Any

from tribes.core.blake2 import blake2b
from tribes.core.errors import BadData

MEMO = "tribes.memo"
"""attrs field metadata: the field is a memo of a pure function of its object's other, immutable
fields (a tile's piece options by occupancy), filled in as it is read and bounded by the keys that
function takes. Filling it changes nothing the object is or says, so it is the one thing a check
that states are never written (tests/conformance/test_states_are_values.py) leaves out."""


@functools.cache
def packaged(package: str, name: str) -> Any:
    """The JSON of data file ``name`` shipped in ``package``'s ``data/`` folder, read once.

    Read by the package's own loader (``pkgutil.get_data``: a folder or a zip alike), not
    through ``importlib.resources``, whose import (``tempfile``, ``shutil``, ``zipfile`` and
    more) cost every command that opens a log ~24 M instructions, a twentieth of ``show``."""
    data = pkgutil.get_data(package, f"data/{name}")
    if data is None:  # a loader that cannot read files: no installed tribes has one
        raise BadData(f"{package} cannot read its data file {name}")
    return json.loads(data.decode("utf-8"))


def key(text: str) -> str:
    """The name a state gives the file of ``text`` carried in a log: the same for the same text,
    whatever the file was called (it is part of what a state hashes to)."""
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    return f"file:{digest}"


def parse(text: str, label: str, what: str) -> Any:
    """The JSON of a carried file; BadData naming it by ``label`` (the path given at ``new``)."""
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError) as exc:
        raise BadData(f"{what} '{label}' cannot be read as JSON: {exc}") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose every key is there once (the codec's rule; core cannot import it)."""
    out = dict(pairs)
    if len(out) < len(pairs):
        keys = [k for k, _ in pairs]
        twice = next(k for i, k in enumerate(keys) if k in keys[:i])
        raise ValueError(f"key '{twice[:60]}' appears twice in one object")
    return out


def carried_text(source: str, text: str | None, what: str) -> str | None:
    """The text of the file an option names: ``text`` (from ``header.files``), or None for the
    packaged ``"standard"`` one; BadData for any other ``source`` without its text (a state or a
    header naming a file its log does not carry: a path is never opened)."""
    if text is None and source != "standard":
        raise BadData(f"{what} '{source}' is not carried in the log (a path is never opened)")
    return text


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")
