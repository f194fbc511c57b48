"""The ``.tribes`` form: msgpack records, framed (:mod:`tribes.events.framing`).

Layout (format version 3)::

    MAGIC  frame(header)  frame(checkpoint 0)  frame(commit 0)
           { frame(event) [frame(checkpoint)] ...  frame(checkpoint)  frame(commit) }

    header     = msgpack values: "tribes-log", 3, header map
    event      = msgpack values: wire tag (> 0), then its fields
    checkpoint = 0, events so far, rules version, 8 bytes of the state hash, the parts'
                 digests [, the parts' names or nil [, [scores, winners]]]
                                               (every 64 events, and before every commit)
    commit     = -1, events so far, 12-byte commit digest           (the end of every append)
    annotation = -2, events so far, tag name or event index, text or nil   (then a commit)

A checkpoint of version 3 holds PART_BYTES of the digest of each top-level part of the state's
document, in the order of their names; the names are written when they differ from those of
the checkpoint before (the first checkpoint of a log always has them); the outcome once the
game is over there. Version 2 had
checkpoints of ``0, events, 8 bytes`` every 64 events and none where a commit was (its commit
covered the state).

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
from tribes.events import annotation, codec
from tribes.events.framing import Frame, Torn, frame, frames
from tribes.events.headers import check_version, header_data, header_from_data
from tribes.events.model import (
    COMMIT_BYTES,
    DIGEST_BYTES,
    FORMAT_NAME,
    FORMAT_VERSION,
    MAGIC,
    MAX_ANNOTATIONS,
    MAX_EVENTS,
    MAX_LOG_BYTES,
    MAX_RECORD_BYTES,
    Annotation,
    Checkpoint,
    Commit,
    FileEnd,
    GameLog,
    Tail,
    checkpoint_rest,
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
    marks and annotations, unless ``marks_at_start`` is false). After each event come the
    annotations and commits that follow it, in their order (a commit after the annotations it
    counts), or its checkpoint."""
    checkpoints = {c.events: c for c in log.checkpoints}
    v3 = log.version >= 3
    names: tuple[str, ...] | None = None
    for mark in log.checkpoints:
        if mark.events < start or (mark.events == start and not marks_at_start):
            names = mark.names  # the names as the file has them already
    after: dict[int, list[tuple[int, int, bytes]]] = {}
    for i, note in enumerate(log.annotations):
        after.setdefault(note.at, []).append((i, 1, annotation.record(note)))
    for c in log.commits:
        after.setdefault(c.events, []).append(
            (c.annotations, 0, _mark(COMMIT_TAG, c.events, c.digest))
        )
    for index in range(start, len(log.events) + 1):
        if index == start and not marks_at_start:
            continue  # its marks are in the file already
        if index > 0:
            yield b"".join(codec.pack(v) for v in codec.event_to_wire(log.events[index - 1]))
        here = sorted(after.get(index, ()))
        if index in checkpoints and v3:
            mark = checkpoints[index]
            yield checkpoint_record(mark, names)
            names = mark.names
        elif index in checkpoints and not any(kind == 0 for _, kind, _ in here):
            yield _mark(CHECKPOINT_TAG, index, checkpoints[index].digest)
        for _, _, payload in here:
            yield payload


def framed(payloads: list[bytes], previous: int) -> bytes:
    """Payloads framed and chained onto a file whose last check byte is ``previous``."""
    parts = []
    for payload in payloads:
        out, previous = frame(payload, previous)
        parts.append(out)
    return b"".join(parts)


def checkpoint_record(mark: Checkpoint, names_before: tuple[str, ...] | None) -> bytes:
    """A checkpoint of version 3; its parts' names when they differ from ``names_before``
    (those of the checkpoint before it in the file, None for the first)."""
    values: list[Any] = [CHECKPOINT_TAG, mark.events, mark.rules, mark.digest, mark.parts]
    if mark.names != names_before or mark.outcome is not None:
        values.append(list(mark.names) if mark.names != names_before else None)
    if mark.outcome is not None:
        values.append([list(mark.outcome[0]), list(mark.outcome[1])])
    return b"".join(codec.pack(v) for v in values)


def commit_record(commit: Commit) -> bytes:
    return _mark(COMMIT_TAG, commit.events, commit.digest)


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
    except Exception as exc:  # noqa: BLE001  msgpack raises many kinds on bad bytes
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
        self.annotations: list[Annotation] = []
        self.last_mark: tuple[int, int, int] = (-1, 0, 0)
        self.committed: tuple[int, int, int, int, int] | None = None
        """After the last commit: (bytes, check, events, checkpoints, annotations)."""
        self.pending = 0
        self.pending_start = 0
        self.torn = False
        self.last_check = 0
        self.torn_error: CorruptLog | None = None
        self.names: tuple[str, ...] | None = None
        """The parts' names of the last checkpoint (version 3)."""

    def add(self, item: Frame, values: list[Any], table: EventTable) -> None:
        self.last_check = item.check
        tag = values[0]
        if (
            type(tag) is int
            and tag in (CHECKPOINT_TAG, COMMIT_TAG)
            and not (tag == COMMIT_TAG and self.version == 1)
        ):
            self._mark(item, values)
        elif type(tag) is int and tag == annotation.ANNOTATION_TAG and self.version >= 2:
            self._annotation(item, values)
        else:
            self._event(item, values, table)
        if tag == COMMIT_TAG and self.version >= 2:
            self.committed = (
                item.end + 1,
                item.check,
                len(self.events),
                len(self.checkpoints),
                len(self.annotations),
            )
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
        extra: tuple[Any, ...] | None = None
        if tag == CHECKPOINT_TAG and self.version >= 3:
            rules = values[2] if len(values) > 2 else None
            if type(rules) is not int or not 0 < rules < 1 << 31:
                raise CorruptLog(
                    "is malformed", record=f"the checkpoint after event {count}", offset=item.start
                )
            names, parts, outcome = self._parts(item, values[4:], count)
            extra = (names, parts, rules, outcome)
            values = values[:2] + values[3:4]
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
        noted = len(self.annotations)
        place = (count, noted, 1 if tag == COMMIT_TAG else 0)
        if place <= self.last_mark or (
            tag == CHECKPOINT_TAG and noted and self.annotations[-1].at == count
        ):
            raise CorruptLog(
                f"repeats the {kind} of event {count}",
                record=f"the {kind} after event {count}",
                offset=item.start,
            )
        self.last_mark = place
        if tag == COMMIT_TAG:
            if self.version >= 3 and (not self.checkpoints or self.checkpoints[-1].events != count):
                raise CorruptLog(
                    "has no checkpoint before it",
                    record=f"the commit after event {count}",
                    offset=item.start,
                )
            self.commits.append(Commit(count, values[2], noted))
        elif extra is not None:
            self.checkpoints.append(Checkpoint(count, values[2], *extra))
        else:
            self.checkpoints.append(Checkpoint(count, values[2]))

    def _parts(self, item: Frame, rest: list[Any], count: int) -> tuple[Any, ...]:
        """The parts' names and digests of a checkpoint of version 3, and its outcome."""
        read = checkpoint_rest(rest, self.names)
        if read is None:
            raise CorruptLog(
                "is malformed", record=f"the checkpoint after event {count}", offset=item.start
            )
        self.names = read[0]
        return read

    def _annotation(self, item: Frame, values: list[Any]) -> None:
        count = len(self.events)
        index = len(self.annotations) + 1
        where = f"annotation {index} (after event {count})"
        if index > MAX_ANNOTATIONS:
            raise CorruptLog(
                f"is one too many: a log holds at most {MAX_ANNOTATIONS} annotations",
                record=where,
                offset=item.start,
            )
        why = (
            "is malformed"
            if len(values) != 4
            else annotation.annotation_problem(values[1], values[2], values[3], count)
        )
        if why is None and values[1] != count:
            why = f"says it follows event {values[1]}"
        if why is not None:
            raise CorruptLog(
                why if why.startswith(("is ", "says")) else f"is refused: {why}",
                record=where,
                offset=item.start,
            )
        self.annotations.append(Annotation(values[1], values[2], values[3]))

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
        end, check, events, checkpoints, noted = self.committed
        tail = None
        if self.pending or self.torn:
            start = self.pending_start if self.pending else end
            tail = Tail(offset=start, records=self.pending, torn=self.torn, size=size - end)
        log = GameLog(
            header=self.header,
            events=tuple(self.events[:events]),
            checkpoints=tuple(self.checkpoints[:checkpoints]),
            commits=tuple(self.commits),
            annotations=tuple(self.annotations[:noted]),
            format=self.version,
        )
        return log, FileEnd(size=end, check=check, tail=tail)
