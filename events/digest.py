"""The digests of format versions 2 and 3 (BLAKE2b).

- The **log digest** covers what a log is: its header (all of it: seats, options, files,
  position, metadata) and its events, each as canonical msgpack bytes prefixed by their length.
  It is the same for both forms of a log; ``tribes verify`` prints it so that two people can
  compare what they hold (16 bytes, 32 hex digits).
- **Annotations** (tags, notes) are covered too, each after the events it follows: a log
  without annotations has the digest it always had.
- A **commit** ends each append. In version 3 its digest
  (:data:`~tribes.events.model.COMMIT_BYTES` bytes) covers the log digest of the header, the
  events and the annotations before it, and every checkpoint before it *as recorded*
  (:func:`checkpoint_bytes`): bytes only, nothing the running rules compute, so whether a log
  is intact never depends on the code reading it (:func:`commit_digest`). In version 2 it
  covered the state hash after them instead of the checkpoints (:func:`commit_digest_v2`), so
  there a changed rule and an altered byte look the same (that state hash is the
  hash of the state's full form, ``codec.legacy_state_hash``, as version 2 was written).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tribes.core.blake2 import blake2b
from tribes.core.events import Event
from tribes.core.header import Header
from tribes.events import annotation, codec
from tribes.events.framing import uvarint
from tribes.events.headers import header_data
from tribes.events.model import COMMIT_BYTES, Annotation, Checkpoint

LOG_DIGEST_BYTES = 16


def header_bytes(header: Header) -> bytes:
    return codec.pack(codec.canonical(header_data(header)))


def event_bytes(event: Event) -> bytes:
    return b"".join(codec.pack(v) for v in codec.event_to_wire(event))


def checkpoint_bytes(mark: Checkpoint) -> bytes:
    """What a commit of version 3 covers of a checkpoint: its values as recorded, the same
    for both forms of a log."""
    outcome = None if mark.outcome is None else [list(v) for v in mark.outcome]
    return codec.pack([mark.events, mark.rules, mark.digest, list(mark.names), mark.parts, outcome])


class Running:
    """The log digest as events are added: ``at()`` after each one is the digest so far;
    ``marks()`` the digest of the checkpoints added so far."""

    def __init__(self, header: Header) -> None:
        self._hash = blake2b(digest_size=LOG_DIGEST_BYTES, person=b"tribes-log")
        self._marks = blake2b(digest_size=LOG_DIGEST_BYTES, person=b"tribes-marks")
        self._add(header_bytes(header))

    def add_checkpoint(self, mark: Checkpoint) -> None:
        data = checkpoint_bytes(mark)
        self._marks.update(uvarint(len(data)))
        self._marks.update(data)

    def marks(self) -> bytes:
        return self._marks.digest()

    def _add(self, data: bytes) -> None:
        self._hash.update(uvarint(len(data)))
        self._hash.update(data)

    def add(self, event: Event) -> None:
        self._add(event_bytes(event))

    def add_bytes(self, data: bytes) -> None:
        """Add an event by its bytes (:func:`event_bytes`)."""
        self._add(data)

    def add_annotation(self, note: Annotation) -> None:
        self._add(annotation.record(note))

    def at(self) -> bytes:
        return self._hash.digest()


class EventBytes:
    """:func:`event_bytes` of events met again, by the event object (kept with its bytes, so
    that its id is never another's; at most ``most`` kept): a corpus's decoder hands on one
    object for every event of the same wire form, so most events of a game were met before
    (``baseline`` and ``regress`` take the log digest of every game)."""

    def __init__(self, most: int = 4096) -> None:
        self.most = most
        self.kept: dict[int, tuple[Event, bytes]] = {}

    def __call__(self, event: Event) -> bytes:
        kept = self.kept.get(id(event))
        if kept is not None and kept[0] is event:
            return kept[1]
        data = event_bytes(event)
        if len(self.kept) >= self.most:
            self.kept.clear()
        self.kept[id(event)] = (event, data)
        return data


def log_digest(
    header: Header,
    events: Iterable[Event],
    notes: Iterable[Annotation] = (),
    packed: Callable[[Event], bytes] = event_bytes,
) -> bytes:
    """The digest of the header, the events and the annotations, each annotation after the
    events it follows (a log without annotations has the digest it always had); ``packed``
    gives an event's bytes (:func:`event_bytes`, or an :class:`EventBytes`)."""
    running = Running(header)
    pending = list(notes)
    i = 0
    for count, event in enumerate(events, start=0):
        while i < len(pending) and pending[i].at <= count:
            running.add_annotation(pending[i])
            i += 1
        running.add_bytes(packed(event))
    for rest in pending[i:]:
        running.add_annotation(rest)
    return running.at()


def commit_digest(log_digest_so_far: bytes, marks_so_far: bytes) -> bytes:
    """The digest a commit of version 3 holds: the log digest so far and the digest of the
    checkpoints recorded so far (:meth:`Running.marks`): bytes, never a state."""
    h = blake2b(digest_size=COMMIT_BYTES, person=b"tribes-commit-3")
    h.update(log_digest_so_far)
    h.update(marks_so_far)
    return h.digest()


def commit_digest_v2(log_digest_so_far: bytes, state: Any) -> bytes:
    """The digest a commit of version 2 holds: the log digest so far and the state hash after
    it (computed by the running rules: a log of version 2 altered and one written under other
    rules cannot be told apart); the state hash of the full form
    (:func:`~tribes.events.codec.legacy_state_hash`), as version 2 was written."""
    state_hash = bytes.fromhex(codec.legacy_state_hash(state))
    h = blake2b(digest_size=COMMIT_BYTES, person=b"tribes-commit")
    h.update(log_digest_so_far)
    h.update(state_hash)
    return h.digest()
