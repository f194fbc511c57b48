"""What a log is, whatever its form: the data model and the limits of the log format.

A log is a header, events, state checkpoints and commits. Each append ends with a commit: the
log is what it holds up to its last commit (see :mod:`tribes.events.digest`).
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

from tribes.core.events import Event
from tribes.core.header import Header
from tribes.core.reprs import fields_repr

_Key = TypeVar("_Key", str, int)
"""An annotation key: text (a tag) or an event index (a note)."""

FORMAT_NAME = "tribes-log"
FORMAT_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
MAGIC = b"\x89TRB"
CORPUS_MAGIC = b"\x89TRC"
"""A corpus's mark (``tribes.events.corpus``), here so that a reader of one log tells a corpus
from it without loading the corpus machinery."""
CHECKPOINT_EVERY = 64
DIGEST_BYTES = 8
"""Bytes of the state hash a checkpoint keeps."""
PART_BYTES = 2
"""Bytes of the digest of each top-level part of the state a checkpoint of version 3 keeps."""
COMMIT_BYTES = 12
"""Bytes of a commit's digest (version 3: over the header, the events, the annotations and the
checkpoints before it, as recorded; version 2: over the header, the events before it and the
state after them)."""
MAX_LOG_BYTES = 16 << 20
MAX_RECORD_BYTES = 1 << 20
MAX_EVENTS = 20_000
"""The most events a log holds (a long game has a few hundred): reading stays bounded."""
MAX_FILE_BYTES = 256 << 10
"""The largest file an option may name (a board, a map, a tile set)."""
MAX_SEED = (1 << 64) - 1
MAX_ANNOTATIONS = 1_000
"""The most annotations (tag changes and notes) a log holds."""
MAX_TAG_KEY = 64
MAX_TAG_VALUE = 1 << 10
"""The longest tag value, in characters (one line of text)."""
MAX_NOTE = 4 << 10
"""The longest note, in characters (lines of text)."""


@attrs.frozen
class Checkpoint:
    """The first bytes of the state hash after ``events`` events; in format version 3, also a
    short digest of each top-level part of the state's document: ``names`` (sorted) and their
    digests in that order, PART_BYTES each, in ``parts``; and the rules version it was recorded
    under."""

    events: int
    digest: bytes
    names: tuple[str, ...] = ()
    parts: bytes = b""
    rules: int = 0
    """The version of the game's rules it was recorded under (version 3; 0: not recorded)."""
    outcome: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    """The scores and the winners (seats), once the game is over there (version 3)."""

    def part_digests(self) -> dict[str, bytes]:
        """Each part's recorded digest, by name."""
        size = PART_BYTES
        return {n: self.parts[i * size : (i + 1) * size] for i, n in enumerate(self.names)}

    __repr__ = fields_repr


def checkpoint_rest(
    rest: list[Any], names_before: tuple[str, ...] | None
) -> tuple[tuple[str, ...], bytes, tuple[tuple[int, ...], tuple[int, ...]] | None] | None:
    """A checkpoint of version 3 after its state hash, as read (``[parts]``, ``[parts, names
    or nil]`` or ``[parts, names or nil, [scores, winners]]``; names nil or left out: those of
    the checkpoint before, ``names_before``): its names, parts and outcome, or None if it is
    malformed."""
    if not 1 <= len(rest) <= 3 or type(rest[0]) is not bytes:
        return None
    names = names_before
    if len(rest) >= 2 and rest[1] is not None:
        given = rest[1]
        if not (
            isinstance(given, list)
            and all(isinstance(n, str) and 0 < len(n) <= 64 and n.isidentifier() for n in given)
            and given == sorted(set(given))
        ):
            return None
        names = tuple(given)
    if names is None or len(rest[0]) != PART_BYTES * len(names):
        return None
    outcome = None
    if len(rest) == 3:
        given = rest[2]
        if not (
            isinstance(given, list)
            and len(given) == 2
            and all(isinstance(v, list) and len(v) <= 64 for v in given)
            and all(type(n) is int and abs(n) < 1 << 31 for v in given for n in v)
        ):
            return None
        outcome = (tuple(given[0]), tuple(given[1]))
    return names, rest[0], outcome


@attrs.frozen
class Commit:
    """The end of an append: a digest over the header, the first ``events`` events and the state
    after them (:func:`tribes.events.digest.commit_digest`)."""

    events: int
    digest: bytes
    annotations: int = 0
    """How many annotations come before it (0 in a log without any)."""

    __repr__ = fields_repr


@attrs.frozen
class Annotation:
    """A tag set (``key`` text, ``value`` its text) or a note on an event (``key`` the event's
    index, 0 for the start, ``value`` its text), appended after ``at`` events; ``value`` None
    removes it. Annotations never change a state."""

    at: int
    key: str | int
    value: str | None

    __repr__ = fields_repr

    def describe(self) -> str:
        if isinstance(self.key, int):
            what = "the start" if self.key == 0 else f"event {self.key}"
            return f"the note on {what}" + (" (removed)" if self.value is None else "")
        return f"the tag '{self.key}'" + (" (removed)" if self.value is None else "")


@attrs.frozen
class Tail:
    """Bytes after a log's last commit: an append that never finished. ``records`` whole records
    start at byte ``offset``; ``torn`` when the file ends inside one more."""

    offset: int
    records: int
    torn: bool
    size: int

    __repr__ = fields_repr

    def describe(self) -> str:
        parts = []
        if self.records:
            parts.append(f"{self.records} record{'s' if self.records != 1 else ''}")
        if self.torn:
            parts.append("a truncated one" if self.records else "a truncated record")
        what = " and ".join(parts)
        return f"{what} after the last commit, at byte {self.offset}: an interrupted append"


@attrs.frozen(kw_only=True)
class GameLog:
    header: Header
    events: tuple[Event, ...] = ()
    checkpoints: tuple[Checkpoint, ...] = ()
    commits: tuple[Commit, ...] = ()
    annotations: tuple[Annotation, ...] = ()
    format: int = FORMAT_VERSION
    """The format version its commits are of (2 or 3; a log without commits is of version 1)."""

    __repr__ = fields_repr

    @property
    def tags(self) -> dict[str, str]:
        """The tags now: every tag annotation applied in order (sorted by key)."""
        return self._latest(str)

    @property
    def notes(self) -> dict[int, str]:
        """The notes now, by event index (0: the start)."""
        return self._latest(int)

    def _latest(self, kind: type[_Key]) -> dict[_Key, str]:
        """The annotations whose key is of ``kind`` (text: tags; an event index: notes), each
        key's last value, those set to None removed."""
        out: dict[_Key, str] = {}
        for a in self.annotations:
            if isinstance(a.key, kind):
                if a.value is None:
                    out.pop(a.key, None)
                else:
                    out[a.key] = a.value
        return dict(sorted(out.items()))

    @property
    def version(self) -> int:
        """The format version: that of its commits (3 for every log tribes writes, 2 for one
        read in version 2), else 1 (a log of version 1 as read, or a log built in memory and
        not yet sealed)."""
        return self.format if self.commits else 1


@attrs.frozen
class FileEnd:
    """Where the committed part of a ``.tribes`` file ends: its size and last check byte, for
    appending; ``tail`` is what lies beyond, if anything."""

    size: int
    check: int
    tail: Tail | None = None

    __repr__ = fields_repr
