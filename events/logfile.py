"""The log file format, in one import: both forms of a log and how they are read and written.

Each concern has its module; this one names what the rest of tribes uses:

- :mod:`~tribes.events.model`: the data model (GameLog, Checkpoint, Commit, Tail) and the limits;
- :mod:`~tribes.events.annotation`: tags and notes (annotations) checked, as records;
- :mod:`~tribes.events.framing`: frames and their chained CRC-8 check bytes;
- :mod:`~tribes.events.headers`: the header checked field by field;
- :mod:`~tribes.events.digest`: the log digest and the commit digests (BLAKE2b);
- :mod:`~tribes.events.binary`: the ``.tribes`` form (versions 1 and 2);
- :mod:`~tribes.events.jsonform`: the ``.json`` form (loaded when a JSON log is read or written:
  reading a ``.tribes`` log does without it and its class);
- :mod:`~tribes.events.files`: bounded reads, atomic writes, appends, the writers' lock.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tribes.events import digest as _digest
from tribes.events import files
from tribes.events.binary import CHECKPOINT_TAG, COMMIT_TAG, TableLookup, decode, encode
from tribes.events.framing import crc8, frame
from tribes.events.headers import check_version, header_data, header_from_data, json_problem
from tribes.events.model import (
    CHECKPOINT_EVERY,
    COMMIT_BYTES,
    DIGEST_BYTES,
    FORMAT_NAME,
    FORMAT_VERSION,
    MAGIC,
    MAX_ANNOTATIONS,
    MAX_EVENTS,
    MAX_FILE_BYTES,
    MAX_LOG_BYTES,
    MAX_NOTE,
    MAX_RECORD_BYTES,
    MAX_SEED,
    MAX_TAG_KEY,
    MAX_TAG_VALUE,
    READABLE_VERSIONS,
    Annotation,
    Checkpoint,
    Commit,
    FileEnd,
    GameLog,
    Tail,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tribes.events.jsonform import JsonLog

__all__ = [
    "CHECKPOINT_EVERY",
    "CHECKPOINT_TAG",
    "COMMIT_BYTES",
    "COMMIT_TAG",
    "DIGEST_BYTES",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAGIC",
    "MAX_ANNOTATIONS",
    "MAX_EVENTS",
    "MAX_FILE_BYTES",
    "MAX_LOG_BYTES",
    "MAX_NOTE",
    "MAX_RECORD_BYTES",
    "MAX_SEED",
    "MAX_TAG_KEY",
    "MAX_TAG_VALUE",
    "READABLE_VERSIONS",
    "Annotation",
    "Checkpoint",
    "Commit",
    "FileEnd",
    "GameLog",
    "TableLookup",
    "Tail",
    "check_version",
    "checkpoint_points",
    "crc8",
    "decode",
    "encode",
    "header_data",
    "header_from_data",
    "json_problem",
    "log_digest",
    "read_bytes",
    "read_json_text",
    "to_json_text",
]

_frame = frame  # the name tests of version 1 build files with


def log_digest(log: GameLog) -> bytes:
    """The digest of what the log is: its header and its events (the same for both forms)."""
    return _digest.log_digest(log.header, log.events, log.annotations)


def to_json_text(log: GameLog) -> str:
    """The JSON form of a log, with its digest; a log read in format version 1 is written as
    version 1 wrote it (``seal`` it first to write the current version)."""
    from tribes.events import jsonform  # noqa: PLC0415  start-up: the JSON form only when a log is written as JSON

    if log.version == 1:
        return jsonform.to_json_text_v1(log)
    return jsonform.to_json_text(log, log_digest(log))


def read_json_text(text: str, path: str | None = None) -> JsonLog:
    """A log's JSON form read and checked (:func:`tribes.events.jsonform.read_json_text`)."""
    from tribes.events import jsonform  # noqa: PLC0415  start-up: the JSON form only when a log is written as JSON

    return jsonform.read_json_text(text, path)


def read_bytes(path: Path) -> bytes:
    """A log's bytes: a regular file of at most MAX_LOG_BYTES (never a device or a FIFO)."""
    return files.read_regular(path, MAX_LOG_BYTES)


def checkpoint_points(count: int, appended_from: Iterable[int] = ()) -> list[int]:
    """Where checkpoints go in a log of ``count`` events: every CHECKPOINT_EVERY and at the end
    of each append (``appended_from`` lists the earlier ends)."""
    points = set(range(CHECKPOINT_EVERY, count + 1, CHECKPOINT_EVERY))
    points.update(n for n in appended_from if 0 < n <= count)
    if count:
        points.add(count)
    return sorted(points)
