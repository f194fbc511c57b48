"""The digest of every state of a replay, step after step: the bytes of
:func:`tribes.events.codec.state_hash` (with ``full``, of ``legacy_state_hash``) for each, made
faster by what the state before shares with it.

States are frozen and a reducer hands on every field it does not change (``evolve``), so a field
of the new state that is the very object the state before held packs to the same bytes: only the
fields that changed are walked and packed again, and the document is their bytes put together
(msgpack packs a map as its header, then each key and value, one after the other). ``baseline``
and ``regress`` hash every state of every game: on Clans this is a fifth of the time of the walk
(docs/performance.md). Tests hold it to the codec's digest at every step of every game.
"""

from __future__ import annotations

from typing import Any

import attrs
import msgpack

from tribes.core.blake2 import blake2b
from tribes.events import codec
from tribes.events.forms import FACTORY, NO_DEFAULT, form

DIGEST_BYTES = 16
"""The bytes of a state's digest (``codec.state_hash``'s 32 hex digits)."""

_SCALARS = frozenset({int, str, bool, float, bytes, type(None)})


class Steps:
    """The digests of the states of one replay, in order (a new one for each replay: it holds
    the fields of the state before)."""

    def __init__(self, *, full: bool = False) -> None:
        self.elide = not full
        self.packer = msgpack.Packer(use_bin_type=True)
        self.kind: type | None = None
        self.keys: tuple[bytes, ...] = ()
        self.before: list[tuple[Any, bytes] | None] = []
        """Per field (sorted order): the value the state before held and its bytes."""
        self.rows: list[list[bytes]] = []
        """Per field that is a list or tuple: the bytes of each of its elements."""

    def digest(self, state: Any) -> bytes:
        """The state's digest (16 bytes): ``bytes.fromhex(codec.state_hash(state))``, or of
        ``codec.legacy_state_hash`` for a :class:`Steps` made with ``full``."""
        kind = type(state)
        if kind is not self.kind:
            if not attrs.has(kind):
                return self._whole(state)
            self.kind = kind
            self.keys = tuple(self.packer.pack(name) for name in form(kind).sorted_names)
            self.before = [None] * len(self.keys)
            self.rows = [[] for _ in self.keys]
        walk = form(kind)
        values = walk.sorted_values(state)
        defaults = walk.defaults if self.elide else ()
        pack = self.packer.pack
        before = self.before
        parts: list[bytes] = []
        for i, value in enumerate(values):
            if defaults:
                default = defaults[i]
                if default is not NO_DEFAULT and value == (
                    default.factory(state) if type(default) is FACTORY else default
                ):
                    continue
            if type(value) in _SCALARS:
                packed = pack(value)
            else:
                kept = before[i]
                if kept is not None and kept[0] is value:
                    packed = kept[1]
                else:
                    packed = self._changed(i, value, kept)
            parts.append(self.keys[i])
            parts.append(packed)
        document: bytes = self.packer.pack_map_header(len(parts) // 2) + b"".join(parts)
        return blake2b(document, digest_size=DIGEST_BYTES).digest()

    def _changed(self, i: int, value: Any, kept: tuple[Any, bytes] | None) -> bytes:
        """The bytes of a field that changed: a list or tuple element by element, an element
        that is the very object the field held before taken as it was packed then."""
        pack = self.packer.pack
        kind = type(value)
        packed: bytes
        if kind is not list and kind is not tuple:
            packed = pack(codec.canonical_plain(value, elide=self.elide))
            self.before[i] = (value, packed)
            return packed
        was: Any = ()
        old: list[bytes] = []
        if kept is not None and type(kept[0]) in (list, tuple):
            was, old = kept[0], self.rows[i]
        rows: list[bytes] = []
        for j, item in enumerate(value):
            if type(item) in _SCALARS:
                rows.append(pack(item))
            elif j < len(was) and was[j] is item:
                rows.append(old[j])
            else:
                rows.append(pack(codec.canonical_plain(item, elide=self.elide)))
        packed = self.packer.pack_array_header(len(rows)) + b"".join(rows)
        self.before[i] = (value, packed)
        self.rows[i] = rows
        return packed

    def _whole(self, state: Any) -> bytes:
        hashed = codec.state_hash(state) if self.elide else codec.legacy_state_hash(state)
        return bytes.fromhex(hashed)
