"""A baseline file read (:mod:`tribes.replay.baseline` writes it): untrusted input, every value
checked — the header's fields, each record's game (one this tribes knows), its seats (as many
scores as the game has seats), types, winners (seats of the game, each once), digests and words —
and refused in one line naming the file, the game and the field.

Nothing is held: :func:`read` checks the whole file in one pass (its digest too) and keeps only
its count; :meth:`Baseline.records` reads it again as a stream, and a :class:`Matcher` meets each
game replayed now with its record — the next one of the stream when the inputs come in the
baseline's order (the usual case: memory stays flat at a million games), else through an index on
disk (SQLite, in a temporary folder) made at the first game that comes out of order.
"""

from __future__ import annotations

import bz2
import contextlib
import sqlite3
import tempfile
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any, BinaryIO, Self

import attrs
import msgpack

from tribes import games as registry
from tribes.core.blake2 import blake2b
from tribes.core.errors import TribesError, UsageError
from tribes.replay.baseline import (
    DIGEST,
    FORMAT,
    GAMES,
    MAX_EVENTS,
    MAX_TEXT,
    READS,
    UNIT,
    WIDTH,
    Record,
    Words,
    split_name,
)

MAX_NAME = 4096
MAX_SEATS = 16
MAX_WORDS = 1 << 24
"""Bytes of one effects block once decompressed (a writer starts a new block at a quarter)."""
MAX_BLOCK = 10_000
"""Games of one effects block."""
READ_CHUNK = 1 << 16
"""Bytes read at once (the reader's buffer holds a chunk and the value being read)."""


class BadBaseline(TribesError):
    """A baseline file that is not one, or is damaged: one line naming the file and where."""


@attrs.frozen
class Entry:
    """A record and where it is: the byte its value starts at, its effects block's and its
    place in that block (-1: none, a file of version 1 or 2)."""

    record: Record
    start: int
    block: int
    slot: int


@attrs.frozen
class Baseline:
    """A baseline file checked whole: its path, format version and how many games it holds
    (none of them held)."""

    path: Path
    version: int
    games: int

    def __len__(self) -> int:
        return self.games

    def entries(self) -> Generator[Entry, None, None]:
        """Every record, in the file's order, read and checked again as a stream."""
        with _open(self.path) as (handle, size):
            yield from _Reader(self.path, handle, size - DIGEST).entries()


def read(path: Path, told: Callable[[int], None] = lambda n: None) -> Baseline:
    """The baseline at ``path``, checked whole (every field, the digest); BadBaseline in one
    line if the file is no baseline, of another version, cut short or damaged. ``told`` how
    many more bytes are read as the check goes (a million games' baseline takes a minute)."""
    with _open(path) as (handle, size):
        reader = _Reader(path, handle, size - DIGEST, told)
        count = sum(1 for _ in reader.entries())
        return Baseline(path, reader.version, count)


@contextlib.contextmanager
def _open(path: Path) -> Iterator[tuple[BinaryIO, int]]:
    """The file at ``path`` open, and its size; one line when it cannot be a baseline."""
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise UsageError(f"baseline {path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"baseline {path}: is a directory, not a baseline file") from None
    except OSError as exc:
        raise BadBaseline(f"baseline {path}: cannot read: {exc.strerror or exc}") from None
    with handle:
        if not path.is_file():
            raise BadBaseline(f"baseline {path}: not a regular file")
        size = path.stat().st_size
        if size < DIGEST:
            raise BadBaseline(f"baseline {path}: not a baseline file (tribes baseline writes one)")
        yield handle, size


def _unpacker() -> msgpack.Unpacker:
    return msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        max_buffer_size=4 * READ_CHUNK + MAX_WORDS,
        read_size=READ_CHUNK,
        max_array_len=MAX_BLOCK,
        max_map_len=16,
        max_str_len=MAX_NAME,
        max_bin_len=max(WIDTH * MAX_EVENTS, MAX_WORDS),
        max_ext_len=0,
    )


class _Reader:
    def __init__(
        self,
        path: Path,
        handle: BinaryIO,
        stream: int,
        told: Callable[[int], None] = lambda n: None,
    ) -> None:
        self.path = path
        self.told = told
        self.handle = handle
        self.stream = stream
        """The bytes before the digest."""
        self.summing = blake2b(digest_size=DIGEST)
        self.unpacker = _unpacker()
        self.fed = 0
        self.version = 0
        self.facts: dict[str, tuple[int, int]] = {}

    def bad(self, why: str) -> BadBaseline:
        return BadBaseline(f"baseline {self.path}: {why}")

    def values(self) -> Iterator[tuple[Any, int, int]]:
        """Each msgpack value with the bytes it starts and ends at; the digest fed as they
        come."""
        done = 0
        while True:
            try:
                for value in self.unpacker:
                    end = self.unpacker.tell()
                    yield value, done, end
                    done = end
            except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as e:
                raise self.bad(f"damaged at byte {done}: {e}") from None
            data = self.handle.read(min(READ_CHUNK, self.stream - self.fed))
            if not data:
                if self.fed != done:
                    raise self.bad(
                        f"cut short: {self.fed - done} bytes at byte {done} end mid-record"
                    )
                return
            self.fed += len(data)
            self.told(len(data))
            self.summing.update(data)
            self.unpacker.feed(data)

    def entries(self) -> Iterator[Entry]:
        values = self.values()
        first = next(values, None)
        if first is None:
            raise self.bad("empty: not a baseline file (tribes baseline writes one)")
        self.version = self._header(first[0])
        count = 0
        ended = False
        source: str | None = None
        last_k = -1
        words: list[Words] = []
        block, slot = -1, -1
        for value, start, _ in values:
            if ended:
                raise self.bad(f"bytes after the end record (at byte {start})")
            number = count + 1
            kind = value[0] if isinstance(value, list) and value else None
            if kind == "end":
                if words:
                    raise self.bad(f"its last effects block holds {len(words)} games too many")
                if len(value) != 2 or type(value[1]) is not int or value[1] != count:
                    raise self.bad(
                        f"damaged end record: it does not count the {count} games before it"
                    )
                ended = True
                continue
            if kind == "input":
                source = self._source(value, number)
                last_k = -1
                continue
            if kind == "effects":
                if self.version < 3:
                    raise self.bad(
                        f"an effects block before game {number} in a version {self.version} file"
                    )
                if words:
                    raise self.bad(f"the effects block before game {number} comes too early")
                words = self._block(value, number)
                block, slot = start, -1
                continue
            if source is None:
                raise self.bad(f"game {number} comes before any input is named")
            record = self._record(value, number, source, last_k)
            last_k = max(split_k(record.name), 0)
            if self.version >= 3:
                if not words:
                    raise self.bad(f"game {number} ({record.name}): no effects block holds it")
                slot += 1
                said = words.pop(0)
                self._check_words(said, record, number)
                record = attrs.evolve(record, words=said)
            count += 1
            yield Entry(record, start, block, slot)
        if not ended:
            raise self.bad(f"cut short: no end record after its {count} games")
        if self.handle.read(DIGEST + 1) != self.summing.digest():
            raise self.bad("damaged: its digest does not match its contents")

    def _header(self, head: Any) -> int:
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise self.bad("not a baseline file (tribes baseline writes one)")
        version = head.get("version")
        if type(version) is not int or version not in READS:
            raise self.bad(
                f"version {version!r} of the format; this tribes reads versions "
                f"{', '.join(map(str, READS))}"
            )
        if type(head.get("width")) is not int or head.get("width") != WIDTH:
            raise self.bad(f"its digests are {head.get('width')!r} bytes wide, not {WIDTH}")
        extra = sorted(map(str, set(head) - {"format", "version", "width"}))
        if extra:
            raise self.bad(f"its header holds unknown fields: {', '.join(map(repr, extra))}")
        assert isinstance(version, int)
        return version

    def _source(self, value: list[Any], number: int) -> str:
        # a path may hold any character but NUL (control characters too: shown escaped)
        if len(value) != 2 or not isinstance(value[1], str) or "\x00" in value[1]:
            raise self.bad(f"the input before game {number} is not named by a path")
        if not value[1] or len(value[1]) > MAX_NAME:
            raise self.bad(f"the input before game {number} has no name or a name too long")
        return str(value[1])

    def _block(self, value: list[Any], number: int) -> list[Words]:
        where = f"the effects block before game {number}"
        if len(value) != 3 or not _int(value[1]) or not 0 < value[1] <= MAX_BLOCK:
            raise self.bad(f"{where} is damaged")
        if not isinstance(value[2], bytes):
            raise self.bad(f"{where}: its words are not bytes")
        data = value[2]
        if data.startswith(b"BZh"):  # compressed (words themselves start with a digit)
            try:
                opener = bz2.BZ2Decompressor()
                data = opener.decompress(value[2], MAX_WORDS)
                whole = opener.eof and not opener.unused_data
            except (OSError, ValueError, EOFError):
                raise self.bad(f"{where}: its words are not bz2 data") from None
            if not whole:
                raise self.bad(f"{where}: its words are damaged or too long")
        try:
            text = data.decode()
        except UnicodeDecodeError:
            raise self.bad(f"{where}: its words are not UTF-8 text") from None
        games = text.split(GAMES)
        if len(games) != value[1]:
            raise self.bad(f"{where}: it does not hold the words of {value[1]} games")
        return [self._words(g, number + i) for i, g in enumerate(games)]

    def _words(self, text: str, number: int) -> Words:
        out = []
        event = 0
        for line in text.split("\n") if text else ():
            step, tab, said = line.partition("\t")
            texts = said.split(UNIT)
            if (
                not tab
                or not (step.isascii() and step.isdigit() and len(step) <= 6)
                or int(step) < 1
                or any(len(t) > MAX_TEXT or not t.isprintable() for t in texts)
            ):
                raise self.bad(f"game {number}: its words are damaged")
            event += int(step)
            out.append((event, tuple(texts)))
        return tuple(out)

    def _check_words(self, said: Words, record: Record, number: int) -> None:
        if said and said[-1][0] >= record.steps:
            raise self.bad(
                f"game {number} ({record.name}): words of event {said[-1][0]}, past its "
                f"{record.steps - 1} events"
            )

    def _record(self, value: Any, number: int, source: str, last_k: int) -> Record:
        where = f"game {number}"
        if not isinstance(value, list) or len(value) != 8:
            raise self.bad(f"{where}: not a game record")
        k, game, rules, log_id, over, winners, scores, digests = value
        if not _int(k) or (k and not source.endswith(".corpus")) or (k or 1) <= last_k:
            raise self.bad(f"{where}: its number in {source!r} is damaged")
        name = f"{source}#{k}" if k else source
        where = f"{where} ({name})"
        if not isinstance(game, str) or not isinstance(rules, int) or isinstance(rules, bool):
            raise self.bad(f"{where}: its game or rules version is damaged")
        seats = self._seats(game, where)
        if not _int(rules) or not isinstance(log_id, bytes) or len(log_id) != 8:
            raise self.bad(f"{where}: damaged rules version or log identity")
        if not isinstance(over, bool):
            raise self.bad(f"{where}: 'over' is not true or false")
        if not _ints(scores) or not seats[0] <= len(scores) <= seats[1]:
            raise self.bad(
                f"{where}: its scores are not a {game} game's ({seats[0]} to {seats[1]} seats, each a number)"
            )
        if (
            not _ints(winners)
            or any(not 0 <= w < len(scores) for w in winners)
            or list(winners) != sorted(set(winners))
            or (winners and not over)
        ):
            raise self.bad(
                f"{where}: its winners {winners!r} are not seats of its "
                f"{len(scores)} (each once, from 0, only once it is over)"
            )
        if not isinstance(digests, bytes) or not digests or len(digests) % WIDTH:
            raise self.bad(f"{where}: damaged state digests")
        return Record(
            name, game, rules, log_id, over, tuple(winners), tuple(scores), digests, words=None
        )

    def _seats(self, game: str, where: str) -> tuple[int, int]:
        if game not in self.facts:
            if game not in registry.names():
                shown = game if len(game) <= 40 else game[:40] + "…"
                raise self.bad(
                    f"{where}: its game {shown!r} is not one this tribes knows "
                    f"({', '.join(registry.names())})"
                )
            facts = registry.get(game).facts
            self.facts[game] = (facts.min_seats, facts.max_seats)
        return self.facts[game]


def split_k(name: str) -> int:
    return split_name(name)[1]


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 31


def _ints(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) <= MAX_SEATS
        and all(
            isinstance(v, int) and not isinstance(v, bool) and -(1 << 31) < v < 1 << 31
            for v in value
        )
    )


# --- meeting games with their records ------------------------------------------------------------


class Matcher:
    """Each game replayed now met with its record: the next record of the stream when it is
    the same log (nothing held), else an index on disk made once (by log identity and by name).
    Use it as a context manager: the index's folder goes with it."""

    def __init__(self, baseline: Baseline) -> None:
        self.baseline = baseline
        self.stream = baseline.entries()
        self.ahead: Entry | None = next(self.stream, None)
        self.consumed = 0
        """Records of the stream passed (met, before any index)."""
        self.index: sqlite3.Connection | None = None
        self.folder: tempfile.TemporaryDirectory[str] | None = None
        self.met = 0

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.stream.close()
        if self.index is not None:
            self.index.close()
            self.index = None
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None

    def find(self, log_id: bytes, name: str) -> tuple[Record | None, bool]:
        """The record of the log ``log_id`` (None if the baseline has none) and whether the
        baseline has a record of another log under ``name``."""
        ahead = self.ahead
        if ahead is not None and ahead.record.log_id == log_id:
            self._advance()
            self._mark(self.consumed - 1)
            return ahead.record, False
        index = self._index()
        row = index.execute(
            "SELECT pos, name, start, block, slot FROM games WHERE id = ? ORDER BY met, pos"
            " LIMIT 1",
            (log_id,),
        ).fetchone()
        if row is None:
            other = index.execute("SELECT 1 FROM games WHERE name = ?", (name,)).fetchone()
            return None, other is not None
        pos, found, start, block, slot = row
        self._mark(pos)
        while self.ahead is not None and self.consumed <= pos:
            self._advance()
        return self._at(found, start, block, slot), False

    def missing(self) -> int:
        """Records no game met."""
        if self.index is None:
            return self.baseline.games - self.consumed
        met = self.index.execute("SELECT count(*) FROM games WHERE met = 1").fetchone()[0]
        return self.baseline.games - int(met)

    def _advance(self) -> None:
        self.consumed += 1
        self.ahead = next(self.stream, None)

    def _mark(self, pos: int) -> None:
        if self.index is not None:
            self.index.execute("UPDATE games SET met = 1 WHERE pos = ?", (pos,))

    def _index(self) -> sqlite3.Connection:
        if self.index is not None:
            return self.index
        self.folder = tempfile.TemporaryDirectory(prefix="tribes-regress-")
        index = sqlite3.connect(Path(self.folder.name) / "index.db")
        index.execute("PRAGMA journal_mode = OFF")
        index.execute("PRAGMA synchronous = OFF")
        index.execute(
            "CREATE TABLE games (pos INTEGER PRIMARY KEY, id BLOB, name TEXT, start INTEGER,"
            " block INTEGER, slot INTEGER, met INTEGER)"
        )
        rows = (
            (
                pos,
                e.record.log_id,
                e.record.name,
                e.start,
                e.block,
                e.slot,
                int(pos < self.consumed),
            )
            for pos, e in enumerate(self.baseline.entries())
        )
        index.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        index.execute("CREATE INDEX by_id ON games (id)")
        index.execute("CREATE INDEX by_name ON games (name)")
        self.index = index
        return index

    def _at(self, name: str, start: int, block: int, slot: int) -> Record:
        """The record of ``name`` whose value starts at byte ``start`` (its words from the
        block at ``block``, its ``slot``), checked again."""
        with _open(self.baseline.path) as (handle, _):
            reader = _Reader(self.baseline.path, handle, 0)
            reader.version = self.baseline.version
            record = reader._record(_value_at(reader, handle, start), 1, split_name(name)[0], -1)  # noqa: SLF001  this module's own reader
            if slot >= 0:
                said = reader._block(_value_at(reader, handle, block), 1)[slot]  # noqa: SLF001  this module's own reader
                reader._check_words(said, record, 1)  # noqa: SLF001  this module's own reader
                record = attrs.evolve(record, words=said)
        return record


def _value_at(reader: _Reader, handle: BinaryIO, start: int) -> Any:
    handle.seek(start)
    unpacker = _unpacker()
    while True:
        data = handle.read(READ_CHUNK)
        if not data:
            raise reader.bad(f"cut short at byte {start}")
        unpacker.feed(data)
        try:
            return unpacker.unpack()
        except msgpack.OutOfData:
            continue
        except (ValueError, msgpack.FormatError, msgpack.StackError):
            raise reader.bad(f"damaged at byte {start}") from None
