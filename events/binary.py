"""The ``.tribes`` form: msgpack records, framed (:mod:`tribes.events.framing`).

Layout (format version 2)::

    MAGIC  frame(header)  frame(commit 0)  { frame(event) [frame(checkpoint)] ...  frame(commit) }

    header     = msgpack values: "tribes-log", 2, header map
    event      = msgpack values: wire tag (> 0), then its fields
    checkpoint = 0, events so far, 8 bytes of the state hash       (every 64 events in an append)
    commit     = -1, events so far, 12-byte commit digest           (the end of every append)

A log is what it holds up to its last commit; records after it are an interrupted append, the
*tail*, reported in :attr:`FileEnd.tail` and never part of the game. Version 1 had no commits:
it is read as it was (a cut between records was a shorter log).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from tribes.core.errors import CorruptLog, LogError, UnsupportedVersion
from tribes.core.events import RESERVED_TAG, Event, EventTable
from tribes.core.header import Header
from tribes.events import codec
from tribes.events.framing import Frame, Torn, frame, frames
from tribes.events.headers import check_version, header_data, header_from_data
from tribes.events.model import (
    COMMIT_BYTES,
    DIGEST_BYTES,
    FORMAT_NAME,
    FORMAT_VERSION,
    MAGIC,
    MAX_EVENTS,
    MAX_LOG_BYTES,
    MAX_RECORD_BYTES,
    Checkpoint,
    Commit,
    FileEnd,
    GameLog,
    Tail,
)

CHECKPOINT_TAG = RESERVED_TAG
COMMIT_TAG = -1
TableLookup = Callable[[str], EventTable]


# --- writing --------------------------------------------------------------------------------------


def header_record(header: Header, version: int = FORMAT_VERSION) -> bytes:
    payload = b"".join(codec.pack(v) for v in (FORMAT_NAME, version, header_data(header)))
    if len(payload) > MAX_RECORD_BYTES:
        raise LogError(
            f"the header is {len(payload)} bytes; a .tribes record holds at most "
            f"{MAX_RECORD_BYTES} (a smaller position, metadata or option file?)"
        )
    return payload


def records(log: GameLog, start: int = 0, marks_at_start: bool = True) -> Iterator[bytes]:
    """The payloads of the records after the header and the first ``start`` events (and their
    marks, unless ``marks_at_start`` is false)."""
    checkpoints = {c.events: c for c in log.checkpoints}
    commits = {c.events: c for c in log.commits}
    for index in range(start, len(log.events) + 1):
        if index == start and not marks_at_start:
            continue  # its marks are in the file already
        if index > 0:
            yield b"".join(codec.pack(v) for v in codec.event_to_wire(log.events[index - 1]))
        if index in commits:
            yield _mark(COMMIT_TAG, index, commits[index].digest)
        elif index in checkpoints:
            yield _mark(CHECKPOINT_TAG, index, checkpoints[index].digest)


def _mark(tag: int, events: int, digest: bytes) -> bytes:
    return b"".join(codec.pack(v) for v in (tag, events, digest))


def encode(log: GameLog) -> bytes:
    """The whole ``.tribes`` file of a log: in the current format version if it is sealed with
    commits, else as version 1 wrote it."""
    if len(log.events) > MAX_EVENTS:
        raise LogError(f"a log holds at most {MAX_EVENTS} events, not {len(log.events)}")
    out, check = frame(header_record(log.header, log.version), 0)
    parts = [MAGIC, out]
    for payload in records(log):
        framed, check = frame(payload, check)
        parts.append(framed)
    data = b"".join(parts)
    if len(data) > MAX_LOG_BYTES:
        raise LogError(f"the log would be {len(data)} bytes; logs hold at most {MAX_LOG_BYTES}")
    return data


def suffix(log: GameLog, start: int, previous: int) -> bytes:
    """The framed records by which ``log`` extends its first ``start`` events, chained onto a
    file whose last check byte is ``previous``."""
    parts = []
    for payload in records(log, start, marks_at_start=False):
        framed, previous = frame(payload, previous)
        parts.append(framed)
    return b"".join(parts)


# --- reading --------------------------------------------------------------------------------------


def decode(data: bytes, tables: TableLookup, path: str | None = None) -> tuple[GameLog, FileEnd]:
    """A log from the bytes of a ``.tribes`` file. Every damaged record is named: which event it
    follows, at which byte, and what is wrong. Work and memory are bounded by the number of
    events a log may hold, whatever the bytes."""
    if not data:
        raise CorruptLog("is empty, not a log", path=path)
    if not data.startswith(MAGIC):
        raise CorruptLog("not a tribes log (it does not start with the tribes mark)", path=path)
    try:
        return _decode(data, tables, path)
    except LogError as exc:
        raise exc.placed(path=path) from None


def _decode(data: bytes, tables: TableLookup, path: str | None) -> tuple[GameLog, FileEnd]:
    where = ["the header"]
    reader = frames(data, len(MAGIC), MAX_RECORD_BYTES, where)
    first = next(reader, None)
    if first is None:
        raise CorruptLog("the header is missing")
    if isinstance(first, Torn):
        raise CorruptLog(first.why, record="the header", offset=first.start)
    version, header = _header_from(_values(data, first, "the header"), path)
    table = tables(header.game)
    state = _Reading(version, header)
    state.last_check = first.check
    for item in reader:
        where[0] = f"the record after event {len(state.events)}"
        if isinstance(item, Torn):
            if version == 1:
                raise CorruptLog(
                    f"{item.why} (an interrupted append?)", record=where[0], offset=item.start
                )
            state.torn = True
            state.torn_error = CorruptLog(item.why, record=where[0], offset=item.start)
            break
        state.add(item, _values(data, item, where[0]), table)
    return state.result(len(data))


def _values(data: bytes, item: Frame, where: str) -> list[Any]:
    try:
        values = codec.unpack_all(data[item.body : item.end])
    except Exception as exc:  # msgpack raises many kinds on bad bytes
        reason = codec.why(exc).splitlines()[0][:80] if str(exc) else type(exc).__name__
        raise CorruptLog(f"is corrupt: {reason}", record=where, offset=item.start) from None
    if not values:
        raise CorruptLog("is corrupt: it is empty", record=where, offset=item.start)
    return values


def _header_from(values: list[Any], path: str | None) -> tuple[int, Header]:
    if len(values) != 3 or values[0] != FORMAT_NAME or type(values[1]) is not int:
        raise CorruptLog("the header is not a tribes log header")
    version = check_version(values[1], path)
    return version, header_from_data(values[2], None, version)


class _Reading:
    """The records read so far, and where the last commit ended."""

    def __init__(self, version: int, header: Header) -> None:
        self.version = version
        self.header = header
        self.events: list[Event] = []
        self.checkpoints: list[Checkpoint] = []
        self.commits: list[Commit] = []
        self.last_mark = -1
        self.committed: tuple[int, int, int, int] | None = None
        """After the last commit: (bytes, check, events, checkpoints)."""
        self.pending = 0
        self.pending_start = 0
        self.torn = False
        self.last_check = 0
        self.torn_error: CorruptLog | None = None

    def add(self, item: Frame, values: list[Any], table: EventTable) -> None:
        self.last_check = item.check
        tag = values[0]
        if (
            type(tag) is int
            and tag in (CHECKPOINT_TAG, COMMIT_TAG)
            and not (tag == COMMIT_TAG and self.version == 1)
        ):
            self._mark(item, values)
        else:
            self._event(item, values, table)
        if tag == COMMIT_TAG and self.version >= 2:
            self.committed = (item.end + 1, item.check, len(self.events), len(self.checkpoints))
            self.pending = 0
        else:
            if not self.pending:
                self.pending_start = item.start
            self.pending += 1

    def _mark(self, item: Frame, values: list[Any]) -> None:
        tag = values[0]
        kind = "commit" if tag == COMMIT_TAG else "checkpoint"
        size = COMMIT_BYTES if tag == COMMIT_TAG else DIGEST_BYTES
        count = len(self.events)
        if (
            len(values) != 3
            or type(values[1]) is not int
            or values[1] != count
            or type(values[2]) is not bytes
            or len(values[2]) != size
        ):
            raise CorruptLog(
                "is malformed", record=f"the {kind} after event {count}", offset=item.start
            )
        if count <= self.last_mark:
            raise CorruptLog(
                f"repeats the {kind} of event {count}",
                record=f"the {kind} after event {count}",
                offset=item.start,
            )
        self.last_mark = count
        if tag == COMMIT_TAG:
            self.commits.append(Commit(count, values[2]))
        else:
            self.checkpoints.append(Checkpoint(count, values[2]))

    def _event(self, item: Frame, values: list[Any], table: EventTable) -> None:
        index = len(self.events) + 1
        if index > MAX_EVENTS:
            raise CorruptLog(
                f"is one too many: a log holds at most {MAX_EVENTS} events",
                record=f"event {index}",
                offset=item.start,
            )
        try:
            self.events.append(codec.event_from_wire(table, values, self.header.schema))
        except (CorruptLog, UnsupportedVersion) as exc:
            raise exc.placed(record=f"event {index}", offset=item.start, index=index) from None

    def result(self, size: int) -> tuple[GameLog, FileEnd]:
        if self.version == 1:
            log = GameLog(
                header=self.header, events=tuple(self.events), checkpoints=tuple(self.checkpoints)
            )
            return log, FileEnd(size=size, check=self.last_check)
        if self.committed is None:
            if self.torn_error is not None:
                raise self.torn_error
            raise CorruptLog(
                "has no commit: the log was never completely written (an interrupted new?)"
            )
        end, check, events, checkpoints = self.committed
        tail = None
        if self.pending or self.torn:
            start = self.pending_start if self.pending else end
            tail = Tail(offset=start, records=self.pending, torn=self.torn, size=size - end)
        log = GameLog(
            header=self.header,
            events=tuple(self.events[:events]),
            checkpoints=tuple(self.checkpoints[:checkpoints]),
            commits=tuple(self.commits),
        )
        return log, FileEnd(size=end, check=check, tail=tail)
