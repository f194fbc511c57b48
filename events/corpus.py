"""The corpus file (``.corpus``): many game logs in one append-only file, with an index.

Layout (corpus format version 1)::

    MAGIC  frame(corpus header)  append  append ...
    append  = { frame(part) | frame(game) } ...  frame(index)  trailer

    frame   = uvarint(len(payload))  payload  CRC-32 of the payload (4 bytes, big-endian)
    corpus header = msgpack ["tribes-corpus", 1, {}]
    part    = msgpack [1, number, header data without the seed]       (shared header parts)
    game    = msgpack [2, part number, seed, [[tag, fields...], ...], digest (12 bytes)]
    index   = msgpack [3, games before this append, offset of the previous index (0: none),
                       [[part number, offset], ...], offset of the append's first record,
                       [offset of each game, as a delta from the one before (the first from
                       the append's first record)]]
    trailer = "TRCI"  offset of the index (8 bytes)  games in the corpus (4 bytes)
              CRC-32 of those 16 bytes (4 bytes)                        (20 bytes, big-endian)

- **Shared header parts.** What the headers of many games have in common (game, rules version,
  seats, options, position, metadata such as which bot played which seat, schema versions) is a
  *part*, stored once; a game names its part and adds its own seed.
- **A game** is its events in the log format's wire form (tag, then fields) and a digest: BLAKE2b
  over its whole header (part and seed), its events and the state hash after the last of them
  (:func:`game_digest`). So each game is checked on its own: its CRC finds a flipped bit, the
  digest a changed header or event, and replaying it proves it still reaches the same state.
- **Appends and commits.** An append writes records, then an index of what it added, then the
  trailer; the trailer is the commit. A corpus is what it holds up to its last trailer; bytes
  after it are an interrupted append (the *tail*), found and named by byte offset, never part of
  the corpus; earlier bytes are never rewritten.
- **Random access.** The last trailer gives the last index; each index names the one before: the
  offsets of every game are known without reading any game, and game ``k`` is one read.

Everything read is untrusted: lengths are bounded, offsets checked against the file, chains of
indexes must go strictly backwards; every problem is a :class:`CorruptCorpus` naming the game
(or record) and its byte offset.
"""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from array import array
from collections.abc import Iterator
from typing import Any

import attrs

from tribes.core.errors import CorruptLog
from tribes.core.header import Header
from tribes.events import codec, logfile
from tribes.events.framing import uvarint

MAGIC = b"\x89TRC"
FORMAT_NAME = "tribes-corpus"
FORMAT_VERSION = 1
READABLE_VERSIONS = (1,)
SUFFIX = ".corpus"

PART, GAME, INDEX = 1, 2, 3
TRAILER_MARK = b"TRCI"
TRAILER = struct.Struct(">4sQII")
TRAILER_BYTES = TRAILER.size
DIGEST_BYTES = 12
MAX_RECORD_BYTES = 1 << 20
MAX_INDEX_BYTES = 64 << 20
MAX_GAMES = (1 << 32) - 1
MAX_EVENTS = 20_000
MAX_PARTS = 1 << 16
MAX_TAIL_SEARCH = 256 << 20
"""How far back from the end a reader looks for the last commit (a whole interrupted append)."""


class CorruptCorpus(CorruptLog):
    """A damaged corpus: ``game`` (from 1) or ``record`` names what, ``offset`` the byte."""

    def __init__(
        self,
        reason: str,
        *,
        path: str | None = None,
        game: int | None = None,
        record: str | None = None,
        offset: int | None = None,
    ) -> None:
        where = record or (f"game {game}" if game is not None else "")
        if offset is not None:
            where = f"{where} (byte {offset})" if where else f"byte {offset}"
        super().__init__(f"{where}: {reason}" if where else reason, path=path)
        self.reason = reason
        self.game = game
        self.offset = offset
        self.corpus_record = where


# --- frames ---------------------------------------------------------------------------------------


def frame(payload: bytes) -> bytes:
    return uvarint(len(payload)) + payload + zlib.crc32(payload).to_bytes(4, "big")


class Bad(Exception):
    """A damaged frame, placed by the caller (which knows which game or record it is)."""


def read_frame(data: bytes | memoryview, pos: int, limit: int, most: int) -> tuple[bytes, int]:
    """The payload of the frame at ``pos`` (which must end by ``limit``) and where it ends."""
    value = shift = 0
    start = pos
    while True:
        if pos >= limit:
            raise Bad("is truncated: the data ends in its length")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            break
        shift += 7
        if shift > 35:
            raise Bad("is corrupt: its length is not a valid number")
    if value > most:
        raise Bad(f"is corrupt: a length of {value} bytes (at most {most})")
    end = pos + value + 4
    if end > limit:
        raise Bad(f"is truncated: it needs {end - start} bytes, there are {limit - start}")
    payload = bytes(data[pos : pos + value])
    if zlib.crc32(payload).to_bytes(4, "big") != bytes(data[end - 4 : end]):
        raise Bad("is corrupt: its check (CRC-32) does not match")
    return payload, end


def values(payload: bytes, most: int = 4096) -> list[Any]:
    try:
        items = codec.unpack_all(payload, max_items=most)
    except Exception as exc:  # msgpack raises many kinds on bad bytes
        raise Bad(f"is corrupt: {type(exc).__name__}") from None
    if len(items) != 1 or not isinstance(items[0], list) or not items[0]:
        raise Bad("is malformed: not one msgpack list")
    return items[0]


# --- records --------------------------------------------------------------------------------------


def corpus_header() -> bytes:
    return frame(codec.pack([FORMAT_NAME, FORMAT_VERSION, {}]))


def part_bytes(header: Header) -> bytes:
    """The shared part of a header: all of it but the seed, as canonical msgpack."""
    data = logfile.header_data(header)
    del data["seed"]
    return codec.pack(codec.canonical(data))


def part_record(number: int, part: bytes) -> bytes:
    return frame(b"\x93" + codec.pack(PART) + codec.pack(number) + part)


def game_record(part: int, seed: int, events: bytes, digest: bytes) -> bytes:
    """A game's frame; ``events`` is the packed list of its events' wire values."""
    body = b"\x95" + codec.pack(GAME) + codec.pack(part) + codec.pack(seed) + events
    return frame(body + codec.pack(digest))


def pack_events(wires: list[list[Any]]) -> bytes:
    return codec.pack(wires)


def game_digest(part: bytes, seed: int, events: bytes, state_hash: str) -> bytes:
    """What a game's digest covers: its whole header (its shared part as :func:`part_bytes`
    gives it, and its seed), its packed events and the state hash after the last one, each
    prefixed by its length."""
    h = hashlib.blake2b(digest_size=DIGEST_BYTES, person=b"tribes-corpus")
    for piece in (part, seed.to_bytes(8, "big"), events, bytes.fromhex(state_hash)):
        h.update(uvarint(len(piece)))
        h.update(piece)
    return h.digest()


def index_record(
    games_before: int,
    previous: int,
    parts: list[tuple[int, int]],
    start: int,
    offsets: list[int],
) -> bytes:
    deltas = [b - a for a, b in zip([start, *offsets], offsets, strict=False)]
    return frame(
        codec.pack([INDEX, games_before, previous, [list(p) for p in parts], start, deltas])
    )


def trailer(index_offset: int, games: int) -> bytes:
    head = TRAILER_MARK + index_offset.to_bytes(8, "big") + games.to_bytes(4, "big")
    return head + zlib.crc32(head).to_bytes(4, "big")


# --- reading the layout ---------------------------------------------------------------------------


@attrs.frozen
class Tail:
    """Bytes after the last commit: an append that never finished."""

    offset: int
    size: int

    def describe(self) -> str:
        return (
            f"{self.size} bytes after the last commit, at byte {self.offset}: an interrupted "
            "append (they are not part of the corpus)"
        )


@attrs.frozen
class Layout:
    """Where everything of a corpus is: each part's and each game's offset, the committed end."""

    parts: dict[int, int]
    offsets: array  # type: ignore[type-arg]
    end: int
    """The committed size: the end of the last trailer."""
    index: int
    """The offset of the last index (where an append chains on)."""
    tail: Tail | None

    def game_end(self, k: int) -> int:
        """The byte after game ``k`` (from 0) at the latest: the next record's offset."""
        return self.offsets[k + 1] if k + 1 < len(self.offsets) else self.index


def pread(fd: int, size: int, offset: int) -> bytes:
    return os.pread(fd, size, offset)


def read_layout(fd: int, size: int, path: str) -> Layout:
    """The layout of the corpus open as ``fd`` (``size`` bytes)."""
    head = pread(fd, min(size, 64 + len(MAGIC)), 0)
    if not head:
        raise CorruptCorpus("is empty, not a corpus", path=path)
    if not head.startswith(MAGIC):
        raise CorruptCorpus(
            "not a tribes corpus (it does not start with the corpus mark)", path=path
        )
    try:
        payload, first = read_frame(head, len(MAGIC), len(head), 64)
        items = values(payload)
    except Bad as exc:
        raise CorruptCorpus(str(exc), path=path, record="the corpus header", offset=4) from None
    if len(items) != 3 or items[0] != FORMAT_NAME:
        raise CorruptCorpus("is not a corpus header", path=path, record="the corpus header")
    if type(items[1]) is not int or items[1] not in READABLE_VERSIONS:
        from tribes.core.errors import UnsupportedVersion

        raise UnsupportedVersion(
            f"corpus format version {ascii(items[1])[:20]} cannot be read; this tribes reads "
            f"version {', '.join(map(str, READABLE_VERSIONS))}",
            path=path,
        )
    end, index_offset, games = _last_commit(fd, size, first, path)
    parts, offsets = _walk_indexes(fd, index_offset, games, first, path)
    tail = Tail(end, size - end) if end < size else None
    return Layout(parts=parts, offsets=offsets, end=end, index=index_offset, tail=tail)


def _trailer_at(data: bytes, pos: int) -> tuple[int, int] | None:
    mark, offset, games, check = TRAILER.unpack_from(data, pos)
    if mark != TRAILER_MARK or zlib.crc32(data[pos : pos + 16]) != check:
        return None
    return offset, games


def _last_commit(fd: int, size: int, first: int, path: str) -> tuple[int, int, int]:
    """(committed end, offset of the last index, games) from the last valid trailer."""
    if size - first >= TRAILER_BYTES:
        found = _trailer_at(pread(fd, TRAILER_BYTES, size - TRAILER_BYTES), 0)
        if found is not None and _index_ends_at(fd, found[0], size - TRAILER_BYTES, first):
            return size, found[0], found[1]
    # a torn tail: look back for the last whole commit
    low = max(first, size - MAX_TAIL_SEARCH)
    data = pread(fd, size - low, low)
    pos = len(data) - TRAILER_BYTES
    while pos >= 0:
        pos = data.rfind(TRAILER_MARK, 0, pos + len(TRAILER_MARK))
        if pos < 0:
            break
        if pos + TRAILER_BYTES <= len(data):
            found = _trailer_at(data, pos)
            if found is not None and _index_ends_at(fd, found[0], low + pos, first):
                return low + pos + TRAILER_BYTES, found[0], found[1]
        pos -= 1
    raise CorruptCorpus(
        "has no commit: it was never completely written (an interrupted create?)",
        path=path,
        offset=first,
    )


def _index_ends_at(fd: int, offset: int, end: int, first: int) -> bool:
    if not first <= offset < end or end - offset > MAX_INDEX_BYTES:
        return False
    try:
        _, stop = frame_at(fd, offset, end, MAX_INDEX_BYTES)
    except Bad:
        return False
    return stop == end


def frame_at(fd: int, offset: int, limit: int, most: int) -> tuple[bytes, int]:
    """The payload of the frame at ``offset`` of the file (which must end by ``limit``) and
    where it ends: two reads, its length and then the rest."""
    head = pread(fd, min(8, max(0, limit - offset)), offset)
    try:
        length, body = _uvarint_in(head)
    except Bad:
        read_frame(head, 0, len(head), most)  # names the problem
        raise
    if length > most:
        raise Bad(f"is corrupt: a length of {length} bytes (at most {most})")
    size = min(body + length + 4, max(0, limit - offset))
    data = pread(fd, size, offset)
    payload, stop = read_frame(data, 0, len(data), most)
    return payload, offset + stop


def _uvarint_in(data: bytes) -> tuple[int, int]:
    value = shift = 0
    for pos, byte in enumerate(data):
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos + 1
        shift += 7
        if shift > 35:
            break
    raise Bad("is corrupt: its length is not a valid number")


def _walk_indexes(
    fd: int, last: int, games: int, first: int, path: str
) -> tuple[dict[int, int], array]:  # type: ignore[type-arg]
    chunks: list[list[int]] = []
    parts: dict[int, int] = {}
    offset = last
    expected = games
    limit = last + MAX_INDEX_BYTES
    while True:
        where = "an index"
        try:
            payload, _ = frame_at(fd, offset, limit, MAX_INDEX_BYTES)
            items = values(payload, MAX_GAMES)
        except Bad as exc:
            raise CorruptCorpus(str(exc), path=path, record=where, offset=offset) from None
        before, previous, made, start, deltas = _index_fields(items, path, offset)
        if before + len(deltas) != expected:
            raise CorruptCorpus(
                f"counts {before} + {len(deltas)} games, the next one {expected}",
                path=path,
                record=where,
                offset=offset,
            )
        gamestarts = []
        pos = start
        for delta in deltas:
            pos += delta
            if not start <= pos < offset:
                raise CorruptCorpus(
                    "names a game outside its append", path=path, record=where, offset=offset
                )
            gamestarts.append(pos)
        chunks.append(gamestarts)
        for number, at in made:
            if not start <= at < offset or number in parts:
                raise CorruptCorpus("names a bad part", path=path, record=where, offset=offset)
            parts[number] = at
        expected = before
        if previous == 0:
            break
        if not first <= previous < start:
            raise CorruptCorpus(
                "names a previous index that is not before it",
                path=path,
                record=where,
                offset=offset,
            )
        offset = previous
    if expected != 0:
        raise CorruptCorpus(
            f"the first index counts {expected} games before it", path=path, offset=offset
        )
    offsets = array("Q")
    for chunk in reversed(chunks):
        offsets.extend(chunk)
    return parts, offsets


def _index_fields(
    items: list[Any], path: str, offset: int
) -> tuple[int, int, list[Any], int, list[int]]:
    ok = (
        len(items) == 6
        and items[0] == INDEX
        and all(type(items[i]) is int and items[i] >= 0 for i in (1, 2, 4))
        and isinstance(items[3], list)
        and all(
            isinstance(p, list) and len(p) == 2 and all(type(x) is int and x >= 0 for x in p)
            for p in items[3]
        )
        and isinstance(items[5], list)
        and all(type(d) is int and d >= 0 for d in items[5])
    )
    if not ok:
        raise CorruptCorpus("is malformed", path=path, record="an index", offset=offset)
    return items[1], items[2], items[3], items[4], items[5]


# --- reading records ------------------------------------------------------------------------------


def read_part(data: bytes | memoryview, pos: int, limit: int, number: int) -> dict[str, Any]:
    """The header data of part ``number`` (without a seed), from its frame at ``pos``."""
    items = values(read_frame(data, pos, limit, MAX_RECORD_BYTES)[0])
    if len(items) != 3 or items[0] != PART or items[1] != number or not isinstance(items[2], dict):
        raise Bad("is malformed: not the part the index names")
    if "seed" in items[2]:
        raise Bad("is malformed: a shared part holds a seed")
    return items[2]


@attrs.frozen
class RawGame:
    """A game as stored: its part, its seed, its events' wire values, its digest."""

    part: int
    seed: int
    wires: list[list[Any]]
    digest: bytes
    events: bytes
    """The packed events (what the digest covers)."""


def read_game(data: bytes | memoryview, pos: int, limit: int) -> RawGame:
    items = values(read_frame(data, pos, limit, MAX_RECORD_BYTES)[0], MAX_EVENTS)
    if (
        len(items) != 5
        or items[0] != GAME
        or type(items[1]) is not int
        or type(items[2]) is not int
        or not isinstance(items[3], list)
        or not all(isinstance(w, list) and w for w in items[3])
        or type(items[4]) is not bytes
        or len(items[4]) != DIGEST_BYTES
    ):
        raise Bad("is malformed: not a game record")
    if not 0 <= items[2] <= logfile.MAX_SEED:
        raise Bad("is malformed: its seed is out of range")
    return RawGame(items[1], items[2], items[3], items[4], pack_events(items[3]))


def iter_ranges(count: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, count, size):
        yield start, min(count, start + size)
