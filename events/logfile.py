"""The log file: ``.tribes`` (msgpack, framed, append-only) and its lossless ``.json`` form.

Binary layout (format version 1)::

    MAGIC  frame(header)  frame(record) ...

    frame   = uvarint(len(payload))  payload  check
    check   = CRC-8 (poly 0x07) over [previous check] + uvarint + payload   (first: previous = 0)
    header  = msgpack values: "tribes-log", format version, header map
    record  = msgpack values: wire tag, then fields   (tag 0: checkpoint — events so far, digest)

A frame's length finds a torn tail; its check byte finds a flipped bit and, being chained, a record
moved or dropped; checkpoints (the first 8 bytes of the state hash after event N, every
:data:`CHECKPOINT_EVERY` events and at the end of each append) prove the log still replays to the
same states. Appends only ever add bytes after the last frame.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs
import cattrs

from tribes.core.errors import CorruptLog, LogError, UnsupportedVersion
from tribes.core.events import RESERVED_TAG, Event, EventTable
from tribes.core.header import Header
from tribes.events import codec

FORMAT_NAME = "tribes-log"
FORMAT_VERSION = 1
READABLE_VERSIONS = (1,)
MAGIC = b"\x89TRB"
CHECKPOINT_EVERY = 64
DIGEST_BYTES = 8
MAX_LOG_BYTES = 16 << 20
MAX_RECORD_BYTES = 1 << 20

CHECKPOINT_TAG = RESERVED_TAG
"""The wire tag of a checkpoint record."""

TableLookup = Callable[[str], EventTable]


@attrs.frozen
class Checkpoint:
    """The first bytes of the state hash after ``events`` events."""

    events: int
    digest: bytes


@attrs.frozen(kw_only=True)
class GameLog:
    header: Header
    events: tuple[Event, ...] = ()
    checkpoints: tuple[Checkpoint, ...] = ()


@attrs.frozen
class FileEnd:
    """Where a file read from disk ends: its size and the last check byte, for appending."""

    size: int
    check: int


# --- CRC-8 ----------------------------------------------------------------------------------------


def _crc8_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table.append(crc)
    return tuple(table)


_CRC8 = _crc8_table()


def crc8(data: bytes, crc: int = 0) -> int:
    for byte in data:
        crc = _CRC8[crc ^ byte]
    return crc


def _uvarint(n: int) -> bytes:
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


# --- writing --------------------------------------------------------------------------------------


def _frame(payload: bytes, previous: int) -> tuple[bytes, int]:
    head = _uvarint(len(payload)) + payload
    check = crc8(head, crc8(bytes([previous])))
    return head + bytes([check]), check


def header_data(header: Header) -> dict[str, Any]:
    """The header as plain data; the position and metadata with sorted keys, so that both forms
    of a log write them alike."""
    data = codec.unstructure(header)
    data["position"] = codec.canonical(data["position"])
    data["meta"] = codec.canonical(data["meta"])
    for optional in ("options", "position", "meta"):
        if not data[optional]:
            del data[optional]
    return data


def _records(log: GameLog) -> Iterator[bytes]:
    checkpoints = {c.events: c for c in log.checkpoints}
    for index, event in enumerate(log.events, start=1):
        yield b"".join(codec.pack(v) for v in codec.event_to_wire(event))
        if index in checkpoints:
            c = checkpoints[index]
            yield b"".join(codec.pack(v) for v in (CHECKPOINT_TAG, c.events, c.digest))


def encode(log: GameLog) -> bytes:
    """The whole ``.tribes`` file of a log."""
    head_payload = b"".join(
        codec.pack(v) for v in (FORMAT_NAME, FORMAT_VERSION, header_data(log.header))
    )
    out, check = _frame(head_payload, 0)
    parts = [MAGIC, out]
    for payload in _records(log):
        framed, check = _frame(payload, check)
        parts.append(framed)
    return b"".join(parts)


def write_new(path: Path, log: GameLog) -> None:
    """Write a new log file atomically: a temporary file, fsync, then rename over ``path``."""
    data = encode(log)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise LogError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None


def append(path: Path, before: GameLog, end: FileEnd, after: GameLog) -> None:
    """Add the records by which ``after`` extends ``before`` to the file, never touching earlier
    bytes. On any failure the file is cut back to its old size: byte-identical to before."""
    whole = encode(after)
    old = encode(before)
    if whole[: len(old)] != old:
        raise LogError("the new log does not extend the old one", path=str(path))
    suffix = _reframe(whole[len(old) :], end.check)
    try:
        with open(path, "r+b") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() != end.size:
                raise LogError("the file changed while it was being appended to", path=str(path))
            try:
                f.write(suffix)
                f.flush()
                os.fsync(f.fileno())
            except BaseException:
                f.truncate(end.size)
                f.flush()
                os.fsync(f.fileno())
                raise
    except OSError as exc:
        raise LogError(f"cannot append: {exc.strerror or exc}", path=str(path)) from None


def _reframe(frames: bytes, previous: int) -> bytes:
    """Re-chain already framed records onto a file whose last check byte is ``previous``."""
    out = bytearray()
    pos = 0
    while pos < len(frames):
        length, body = _read_uvarint(frames, pos)
        payload = frames[body : body + length]
        framed, previous = _frame(payload, previous)
        out += framed
        pos = body + length + 1
    return bytes(out)


# --- reading --------------------------------------------------------------------------------------


def _read_uvarint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data):
            raise EOFError
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7
        if shift > 35:
            raise ValueError("record length is not a valid number")


def read_bytes(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_LOG_BYTES:
            raise LogError(
                f"is {size} bytes; logs are read up to {MAX_LOG_BYTES} bytes", path=str(path)
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise LogError("no such file", path=str(path)) from None
    except IsADirectoryError:
        raise LogError("is a directory, not a log", path=str(path)) from None
    except OSError as exc:
        raise LogError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None


def decode(data: bytes, tables: TableLookup, path: str | None = None) -> tuple[GameLog, FileEnd]:
    """A log from the bytes of a ``.tribes`` file. Every damaged record is named: which event it
    follows, at which byte, and what is wrong."""
    if not data:
        raise CorruptLog("is empty, not a log", path=path)
    if not data.startswith(MAGIC):
        raise CorruptLog("not a tribes log (it does not start with the tribes mark)", path=path)
    pos = len(MAGIC)
    check = 0
    frames: list[tuple[int, list[Any]]] = []
    events = 0
    while pos < len(data):
        start = pos
        where = "the header" if not frames else f"the record after event {events}"
        try:
            length, body = _read_uvarint(data, pos)
        except EOFError:
            raise CorruptLog(
                f"{where} (byte {start}) is truncated: the file ends in its length", path=path
            ) from None
        except ValueError as exc:
            raise CorruptLog(f"{where} (byte {start}) is corrupt: {exc}", path=path) from None
        if length > MAX_RECORD_BYTES:
            raise CorruptLog(
                f"{where} (byte {start}) is corrupt: a length of {length} bytes", path=path
            )
        end = body + length
        if end + 1 > len(data):
            raise CorruptLog(
                f"{where} (byte {start}) is truncated: it needs {end + 1 - start} bytes, "
                f"the file has {len(data) - start} (an interrupted append?)",
                path=path,
            )
        expected = crc8(data[start:end], crc8(bytes([check])))
        if data[end] != expected:
            raise CorruptLog(
                f"{where} (byte {start}) is corrupt: its check byte does not match", path=path
            )
        check = expected
        try:
            values = codec.unpack_all(data[body:end])
        except Exception as exc:  # msgpack raises many kinds on bad bytes
            raise CorruptLog(f"{where} (byte {start}) is corrupt: {exc}", path=path) from None
        if not values:
            raise CorruptLog(f"{where} (byte {start}) is corrupt: it is empty", path=path)
        if frames and values[0] != CHECKPOINT_TAG:
            events += 1
        frames.append((start, values))
        pos = end + 1
    if not frames:
        raise CorruptLog("the header is missing", path=path)
    header = _header_from(frames[0][1], path)
    log = _log_from(header, frames[1:], tables(header.game), path)
    return log, FileEnd(size=len(data), check=check)


def _header_from(values: list[Any], path: str | None) -> Header:
    if len(values) != 3 or values[0] != FORMAT_NAME or not isinstance(values[1], int):
        raise CorruptLog("the header is not a tribes log header", path=path)
    check_version(values[1], path)
    return header_from_data(values[2], path)


def check_version(version: Any, path: str | None) -> None:
    if version not in READABLE_VERSIONS:
        readable = ", ".join(map(str, READABLE_VERSIONS))
        raise UnsupportedVersion(
            f"log format version {version!r} cannot be read; this tribes reads version {readable}",
            path=path,
        )


_REQUIRED = ("game", "rules_version", "seed", "seats")
_OPTIONAL = ("options", "position", "meta", "schema")
MAX_SEED = (1 << 64) - 1


def header_from_data(data: Any, path: str | None) -> Header:
    """A Header from untrusted data: every field checked for its kind and range first, so that
    a bad one is named ("the header's 'seed' must be ...")."""

    def bad(why: str) -> CorruptLog:
        return CorruptLog(f"the header is malformed: {why}", path=path)

    if not isinstance(data, dict):
        raise bad("it is not a map")
    for key in data:
        if not isinstance(key, str) or key not in (*_REQUIRED, *_OPTIONAL):
            raise bad(f"unknown field {key!r}")
    for key in _REQUIRED:
        if key not in data:
            raise bad(f"'{key}' is missing")
    if not isinstance(data["game"], str) or not data["game"]:
        raise bad("'game' must be a name")
    if not _whole(data["rules_version"]) or data["rules_version"] < 1:
        raise bad("'rules_version' must be a whole number from 1")
    if not _whole(data["seed"]) or not 0 <= data["seed"] <= MAX_SEED:
        raise bad(f"'seed' must be a whole number from 0 to {MAX_SEED}")
    seats = data["seats"]
    if (
        not isinstance(seats, list)
        or not 1 <= len(seats) <= 16
        or not all(isinstance(n, str) and 0 < len(n) <= 64 for n in seats)
    ):
        raise bad("'seats' must list 1 to 16 seat names")
    options = data.get("options", {})
    if not _string_map(options, str):
        wrong = (
            next((k for k, v in options.items() if not isinstance(v, str)), None)
            if isinstance(options, dict)
            else None
        )
        raise bad(
            "'options' must map names to text"
            + (f" (option {wrong!r} is not)" if wrong is not None else "")
        )
    if not _string_map(data.get("schema", {}), int):
        raise bad("'schema' must map event names to versions")
    if not isinstance(data.get("meta", {}), dict):
        raise bad("'meta' must be a map")
    for key in ("position", "meta"):
        why = json_problem(data.get(key), 0)
        if why:
            raise bad(f"'{key}' {why}")
    try:
        return codec.structure(data, Header)
    except (cattrs.BaseValidationError, TypeError, ValueError, KeyError, AttributeError) as exc:
        raise bad(codec.why(exc)) from None


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _string_map(value: Any, kind: type) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, kind) and not isinstance(v, bool)
        for k, v in value.items()
    )


def json_problem(value: Any, depth: int = 0, where: str = "") -> str | None:
    """Why ``value`` is not plain JSON that both forms of a log can hold, or None."""
    at = f" at {where}" if where else ""
    if depth > 32:
        return f"nests too deeply{at}"
    if value is None or isinstance(value, bool | str | float):
        return None
    if isinstance(value, int):
        return None if -(1 << 63) <= value <= MAX_SEED else f"holds a number beyond 64 bits{at}"
    if isinstance(value, list):
        items = enumerate(value)
        return next(
            (w for i, v in items if (w := json_problem(v, depth + 1, f"{where}[{i}]"))), None
        )
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            return f"has a key that is not text{at}"
        return next(
            (
                w
                for k, v in value.items()
                if (w := json_problem(v, depth + 1, f"{where}.{k}" if where else k))
            ),
            None,
        )
    return f"holds a {type(value).__name__}, which JSON cannot{at}"


def _log_from(
    header: Header, frames: list[tuple[int, list[Any]]], table: EventTable, path: str | None
) -> GameLog:
    events: list[Event] = []
    checkpoints: list[Checkpoint] = []
    for start, values in frames:
        if values and values[0] == CHECKPOINT_TAG:
            if len(values) != 3 or values[1] != len(events) or not isinstance(values[2], bytes):
                raise CorruptLog(
                    f"the checkpoint after event {len(events)} (byte {start}) is malformed",
                    path=path,
                )
            checkpoints.append(Checkpoint(values[1], values[2]))
            continue
        try:
            events.append(codec.event_from_wire(table, values, header.schema))
        except (CorruptLog, UnsupportedVersion) as exc:
            raise type(exc)(
                f"event {len(events) + 1} (byte {start}): {exc.message}", path=path
            ) from None
    return GameLog(header=header, events=tuple(events), checkpoints=tuple(checkpoints))


def read(path: Path, tables: TableLookup) -> tuple[GameLog, FileEnd]:
    return decode(read_bytes(path), tables, str(path))


# --- JSON form ------------------------------------------------------------------------------------


def to_json_text(log: GameLog) -> str:
    """The stable, diffable JSON form: sorted keys, one event per line."""
    head = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "header": header_data(log.header),
    }
    lines = codec.to_json(head).rstrip().removesuffix("}").rstrip()
    marks = ", ".join(f'[{c.events}, "{c.digest.hex()}"]' for c in log.checkpoints)
    lines += f',\n  "checkpoints": [{marks}]'
    events = ",\n".join("    " + codec.event_json_line(e) for e in log.events)
    body = f',\n  "events": [\n{events}\n  ]\n}}\n' if events else ',\n  "events": []\n}\n'
    return lines + body


@attrs.frozen
class JsonLog:
    """A JSON log as read, before its events are resolved: an event may be a dict or, in a
    hand-written scenario, a move in notation."""

    header: Header
    items: tuple[Any, ...]
    checkpoints: tuple[Checkpoint, ...] | None


def read_json_text(text: str, path: str | None = None) -> JsonLog:
    try:
        data = codec.from_json(text)
    except (ValueError, RecursionError) as exc:
        raise CorruptLog(f"is not valid JSON: {exc}", path=path) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise CorruptLog(f'is not a tribes log in JSON (no "format": "{FORMAT_NAME}")', path=path)
    check_version(data.get("version"), path)
    header = header_from_data(data.get("header"), path)
    items = data.get("events", [])
    if not isinstance(items, list):
        raise CorruptLog('"events" must be a list', path=path)
    raw = data.get("checkpoints")
    if raw is not None and not isinstance(raw, list):
        raise CorruptLog('"checkpoints" must be a list of [events, hex digest]', path=path)
    checkpoints = None if raw is None else tuple(_checkpoint_from_json(c, path) for c in raw)
    return JsonLog(header=header, items=tuple(items), checkpoints=checkpoints)


def _checkpoint_from_json(item: Any, path: str | None) -> Checkpoint:
    try:
        events, digest = item
        if not _whole(events) or not isinstance(digest, str):
            raise TypeError
        return Checkpoint(events, bytes.fromhex(digest))
    except (TypeError, ValueError):
        raise CorruptLog(
            f"a checkpoint must be [events, hex digest]; got {item!r:.60}", path=path
        ) from None


def checkpoint_points(count: int, appended_from: Iterable[int] = ()) -> list[int]:
    """Where checkpoints go in a log of ``count`` events: every CHECKPOINT_EVERY and at the end
    of each append (``appended_from`` lists the earlier ends)."""
    points = set(range(CHECKPOINT_EVERY, count + 1, CHECKPOINT_EVERY))
    points.update(n for n in appended_from if 0 < n <= count)
    if count:
        points.add(count)
    return sorted(points)
