"""The records of a corpus: frames, the corpus header, header parts, games, indexes, trailers,
and the two digests (a game's, and the chained digest of an append).

See :mod:`tribes.events.corpus` for the layout. Everything here is pure: bytes in, bytes or
values out; a damaged frame raises :class:`Bad`, which the caller places (it knows which game or
record, at which byte).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from typing import Any

import attrs

from tribes.core.blake2 import blake2b
from tribes.core.errors import CorruptLog
from tribes.core.header import Header
from tribes.events import codec, logfile
from tribes.events.digest import checkpoint_bytes
from tribes.events.framing import uvarint
from tribes.events.model import CORPUS_MAGIC, Checkpoint, checkpoint_rest

MAGIC = CORPUS_MAGIC
FORMAT_NAME = "tribes-corpus"
FORMAT_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
SUFFIX = ".corpus"

PART, GAME, INDEX = 1, 2, 3
TRAILER_MARK = b"TRCI"
TRAILER = struct.Struct(">4sQII")
TRAILER_BYTES = TRAILER.size
DIGEST_BYTES = 12
"""Bytes of a game's digest."""
APPEND_DIGEST_BYTES = 16
"""Bytes of an append's chained digest (format version 2)."""
NO_DIGEST = bytes(APPEND_DIGEST_BYTES)
"""What the first append's digest chains on."""
MAX_RECORD_BYTES = 1 << 20
MAX_INDEX_BYTES = 4 << 20
"""An index lists an append's games (a writer commits every thousand): 4 MiB is ample, and what
a reader holds of an index at once stays small."""
MAX_INDEX_ITEMS = 1 << 20
MAX_GAMES = (1 << 32) - 1
MAX_EVENTS = 20_000
MAX_PARTS = 1 << 16
MAX_TAIL_SEARCH = 256 << 20
"""How far back from the end a reader looks for the last commit (a whole interrupted append)."""
SEARCH_BLOCK = 1 << 20
"""The bytes a backward search for the last commit reads at once."""


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


def read_exact_frame(data: bytes | memoryview, pos: int, limit: int, most: int) -> bytes:
    """The payload of the frame at ``pos``, which must end exactly at ``limit`` (where the next
    record starts): no byte between two records goes unchecked."""
    payload, end = read_frame(data, pos, limit, most)
    if end != limit:
        raise Bad(
            f"is followed by {limit - end} bytes that belong to no record (it ends {limit - end} "
            "bytes before the next record starts)"
        )
    return payload


def values(payload: bytes, most: int = 4096) -> list[Any]:
    try:
        items = codec.unpack_all(payload, max_items=most)
    except Exception as exc:  # noqa: BLE001  msgpack raises many kinds on bad bytes
        said = str(exc).splitlines()[0][:80] if str(exc) else ""
        raise Bad(f"is corrupt: {type(exc).__name__}" + (f" ({said})" if said else "")) from None
    if len(items) != 1 or not isinstance(items[0], list) or not items[0]:
        raise Bad("is malformed: not one msgpack list")
    return items[0]


# --- records --------------------------------------------------------------------------------------


def corpus_header(version: int = FORMAT_VERSION) -> bytes:
    return frame(codec.pack([FORMAT_NAME, version, {}]))


def starts_a_corpus(data: bytes) -> bool:
    """Whether ``data`` begins as a corpus does: the corpus mark and a whole corpus header (a
    log with a flipped bit in its own mark is a damaged log, not a corpus)."""
    if not data.startswith(MAGIC):
        return False
    try:
        items = values(read_frame(data, len(MAGIC), min(len(data), 64 + len(MAGIC)), 64)[0])
    except Bad:
        return False
    return len(items) == 3 and items[0] == FORMAT_NAME


def part_bytes(header: Header) -> bytes:
    """The shared part of a header: all of it but the seed, as canonical msgpack."""
    data = logfile.header_data(header)
    del data["seed"]
    return codec.pack(codec.canonical(data))


def part_record(
    number: int,
    part: bytes,
    annex: bytes = b"",
    version: int = FORMAT_VERSION,
    names: tuple[str, ...] | None = None,
) -> bytes:
    """A header part's frame; from version 2 it also holds the annex its games share (or nil),
    in version 3 the parts' names of its games' first checkpoints (or nil)."""
    if version == 1:
        return frame(b"\x93" + codec.pack(PART) + codec.pack(number) + part)
    shared = annex or codec.pack(None)
    if version == 2:
        return frame(b"\x94" + codec.pack(PART) + codec.pack(number) + part + shared)
    listed = codec.pack(list(names) if names else None)
    return frame(b"\x95" + codec.pack(PART) + codec.pack(number) + part + shared + listed)


def game_record(
    part: int,
    seed: int,
    events: bytes,
    digest: bytes,
    annex: bytes = b"",
    version: int = FORMAT_VERSION,
    marks: bytes = b"",
) -> bytes:
    """A game's frame; ``events`` is the packed list of its events' wire values, ``annex`` its
    own packed annex (version 2 on; empty: none, or its part's), ``marks`` its packed
    checkpoints as recorded (version 3: :func:`pack_marks`)."""
    body = codec.pack(GAME) + codec.pack(part) + codec.pack(seed) + events + codec.pack(digest)
    if version == 1:
        return frame(b"\x95" + body)
    if version == 2:
        return frame(b"\x96" + body + (annex or codec.pack(None)))
    return frame(b"\x97" + body + (annex or codec.pack(None)) + (marks or codec.pack([])))


def pack_marks(
    checkpoints: Sequence[Checkpoint], names_before: tuple[str, ...] | None = None
) -> bytes:
    """A game's checkpoints as a corpus of version 3 records them: as a log of version 3 does
    (``[events, rules version, state digest, parts' digests, names or nil, outcome]``, the
    names nil when they are those of the checkpoint before (for the first: ``names_before``,
    its part's), the last two left out when nil)."""
    out: list[list[Any]] = []
    names = names_before
    for mark in checkpoints:
        item: list[Any] = [mark.events, mark.rules, mark.digest, mark.parts]
        if mark.names != names or mark.outcome is not None:
            item.append(list(mark.names) if mark.names != names else None)
        if mark.outcome is not None:
            item.append([list(mark.outcome[0]), list(mark.outcome[1])])
        names = mark.names
        out.append(item)
    return codec.pack(out)


def first_names(marks: bytes) -> tuple[bytes, tuple[str, ...] | None]:
    """Packed checkpoints (:func:`pack_marks`, the first with its names) without the first
    one's names, and those names: what a game's header part holds for it in version 3."""
    items = codec.unpack_all(marks)[0]
    first = items[0]
    if len(first) < 5 or first[4] is None:
        return marks, None
    names = tuple(first[4])
    if len(first) == 5:
        first.pop()
    else:
        first[4] = None
    return codec.pack(items), names


def read_marks(
    items: Any, events: int, names_before: tuple[str, ...] | None = None
) -> tuple[Checkpoint, ...]:
    """A game's checkpoints from their packed values (:func:`pack_marks`; ``names_before``
    its part's names); Bad unless they are well formed, in strictly increasing order of
    events, the last after the game's last event."""
    if not isinstance(items, list) or not items:
        raise Bad("is malformed: it records no checkpoint")
    out: list[Checkpoint] = []
    names = names_before
    for item in items:
        if not (
            isinstance(item, list)
            and len(item) >= 4
            and type(item[0]) is int
            and type(item[1]) is int
            and 0 < item[1] < 1 << 31
            and type(item[2]) is bytes
            and len(item[2]) == logfile.DIGEST_BYTES
        ):
            raise Bad("is malformed: a checkpoint is not [events, rules, digest, parts, ...]")
        rest = checkpoint_rest(item[3:], names)
        if rest is None or (out and item[0] <= out[-1].events) or not 0 <= item[0] <= events:
            raise Bad(f"is malformed: its checkpoint after event {item[0]} is malformed")
        names = rest[0]
        out.append(Checkpoint(item[0], item[2], rest[0], rest[1], item[1], rest[2]))
    if out[-1].events != events:
        raise Bad("is malformed: it records no checkpoint after its last event")
    return tuple(out)


def pack_events(wires: list[list[Any]]) -> bytes:
    return codec.pack(wires)


def game_digest(
    part: bytes, seed: int, events: bytes, state_hash: str, annex: bytes = b""
) -> bytes:
    """What a game's digest covers: its whole header (its shared part as :func:`part_bytes`
    gives it, and its seed), its packed events, the state hash after the last one and, when it
    has one, its annex (tags, notes, where its appends ended), each prefixed by its length. A
    game without an annex has the digest version 1 gave it."""
    h = blake2b(digest_size=DIGEST_BYTES, person=b"tribes-corpus")
    pieces = [part, seed.to_bytes(8, "big"), events, bytes.fromhex(state_hash)]
    for piece in pieces + ([annex] if annex else []):
        h.update(uvarint(len(piece)))
        h.update(piece)
    return h.digest()


def game_digest_v3(
    part: bytes, seed: int, events: bytes, annex: bytes, marks: Sequence[Checkpoint]
) -> bytes:
    """What a game's digest covers in version 3: bytes only, nothing the running rules
    compute. Its whole header (its part and seed), its packed events, its annex (empty: none)
    and each checkpoint as recorded (the log format's :func:`checkpoint_bytes`), each prefixed
    by its length. Whether a game is intact never depends on the rules reading it."""
    h = blake2b(digest_size=DIGEST_BYTES, person=b"tribes-corpus-3")
    pieces = [part, seed.to_bytes(8, "big"), events, annex]
    for piece in pieces + [checkpoint_bytes(m) for m in marks]:
        h.update(uvarint(len(piece)))
        h.update(piece)
    return h.digest()


class AppendDigest:
    """The chained digest of an append (version 2): the digest of the append before it (zeros
    for the first), every record of the append in order (header parts and games, each payload
    prefixed by its length), then the games before it and the games it adds. So a game swapped,
    dropped, duplicated or moved, an append dropped or two swapped, changes it."""

    def __init__(self, previous: bytes) -> None:
        self._hash = blake2b(digest_size=APPEND_DIGEST_BYTES, person=b"tribes-append")
        self._hash.update(previous)

    def add(self, payload: bytes) -> None:
        self._hash.update(uvarint(len(payload)))
        self._hash.update(payload)

    def finish(self, games_before: int, count: int) -> bytes:
        self._hash.update(games_before.to_bytes(8, "big") + count.to_bytes(8, "big"))
        return self._hash.digest()


def index_record(
    games_before: int,
    previous: int,
    parts: list[tuple[int, int]],
    start: int,
    offsets: list[int],
    digest: bytes | None = None,
) -> bytes:
    """An append's index; ``digest`` its chained digest (version 2), None in version 1."""
    deltas = [b - a for a, b in zip([start, *offsets], offsets, strict=False)]
    fields: list[Any] = [INDEX, games_before, previous, [list(p) for p in parts], start, deltas]
    if digest is not None:
        fields.append(digest)
    return frame(codec.pack(fields))


def trailer(index_offset: int, games: int) -> bytes:
    head = TRAILER_MARK + index_offset.to_bytes(8, "big") + games.to_bytes(4, "big")
    return head + zlib.crc32(head).to_bytes(4, "big")


def trailer_at(data: bytes, pos: int) -> tuple[int, int] | None:
    """``(index offset, games)`` of a valid trailer at ``pos`` of ``data``, else None."""
    if pos < 0 or pos + TRAILER_BYTES > len(data):
        return None
    mark, offset, games, check = TRAILER.unpack_from(data, pos)
    if mark != TRAILER_MARK or zlib.crc32(data[pos : pos + 16]) != check:
        return None
    return offset, games


# --- reading records ------------------------------------------------------------------------------


def read_part(
    payload: bytes, number: int, version: int
) -> tuple[dict[str, Any], bytes, tuple[str, ...] | None]:
    """The header data of part ``number`` (without a seed), the packed annex its games share
    (empty: none) and the parts' names of its games' first checkpoints (version 3; None:
    none), from its payload."""
    items = values(payload)
    size = {1: 3, 2: 4}.get(version, 5)
    if (
        len(items) != size
        or items[0] != PART
        or items[1] != number
        or not isinstance(items[2], dict)
    ):
        raise Bad("is malformed: not the part the index names")
    if "seed" in items[2]:
        raise Bad("is malformed: a shared part holds a seed")
    annex = b""
    if version >= 2 and items[3] is not None:
        annex = codec.pack(items[3])
        if annex_problem(items[3], shared=True) is not None:
            raise Bad(f"is malformed: its annex {annex_problem(items[3], shared=True)}")
    names = None
    if version >= 3 and items[4] is not None:
        given = items[4]
        if not (
            isinstance(given, list)
            and all(isinstance(n, str) and 0 < len(n) <= 64 and n.isidentifier() for n in given)
            and given == sorted(set(given))
        ):
            raise Bad("is malformed: its parts' names are not names in order")
        names = tuple(given)
    return items[2], annex, names


@attrs.frozen
class RawGame:
    """A game as stored: its part, its seed, its events' wire values, its digest."""

    part: int
    seed: int
    wires: list[list[Any]]
    digest: bytes
    events: bytes
    """The packed events (what the digest covers)."""
    annex: bytes = b""
    """Its own packed annex (empty: none; its part may hold one)."""
    marks: tuple[Checkpoint, ...] = ()
    """Its checkpoints as recorded (version 3; empty before)."""


def read_game(
    payload: bytes, version: int, names: dict[int, tuple[str, ...]] | None = None
) -> RawGame:
    """A game record; ``names``: the parts' names each header part holds (version 3)."""
    items = values(payload, MAX_EVENTS)
    size = {1: 5, 2: 6}.get(version, 7)
    if (
        len(items) != size
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
    annex = b""
    if version >= 2 and items[5] is not None:
        why = annex_problem(items[5], shared=False)
        if why is not None:
            raise Bad(f"is malformed: its annex {why}")
        annex = codec.pack(items[5])
    marks: tuple[Checkpoint, ...] = ()
    if version >= 3:
        marks = read_marks(items[6], len(items[3]), (names or {}).get(items[1]))
    return RawGame(items[1], items[2], items[3], items[4], pack_events(items[3]), annex, marks)


def annex_problem(annex: Any, *, shared: bool) -> str | None:
    """Why ``annex`` is not ``[annotations, commits or nil, checkpoints or nil]``, or None (the
    values of each annotation are checked when the game is read, as a log's are)."""
    if not isinstance(annex, list) or len(annex) != 3:
        return "is not [annotations, commits, checkpoints]"
    notes, commits, checkpoints = annex
    if not isinstance(notes, list) or not all(
        isinstance(n, list) and len(n) == 3 and type(n[0]) is int for n in notes
    ):
        return "has annotations that are not [at, key, value]"
    if len(notes) > logfile.MAX_ANNOTATIONS:
        return f"has more than {logfile.MAX_ANNOTATIONS} annotations"
    if commits is not None and not (
        isinstance(commits, list)
        and all(
            isinstance(c, list) and len(c) == 2 and all(type(x) is int and x >= 0 for x in c)
            for c in commits
        )
    ):
        return "has commits that are not [events, annotations]"
    if checkpoints is not None and not (
        isinstance(checkpoints, list) and all(type(c) is int and c >= 0 for c in checkpoints)
    ):
        return "has checkpoints that are not event counts"
    if shared and (commits is not None or checkpoints is not None):
        return "is shared but names where appends ended"
    return None
