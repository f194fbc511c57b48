"""Corpora as users handle them: write, append, read game k, stream, check, split.

The format is :mod:`tribes.events.corpus`; this is the library under ``tribes corpus`` and
``simulate --save NAME.corpus``. A game of a corpus is named ``CORPUS#K`` (K from 1) wherever a
log is read (:func:`split_ref`, used by :func:`tribes.replay.logs.open_log`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs

from tribes import games
from tribes.core import views
from tribes.core.engine import play
from tribes.core.errors import (
    CorruptLog,
    IllegalMove,
    LogError,
    TribesError,
    UnsupportedVersion,
    UsageError,
)
from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.events import codec, logfile
from tribes.events import corpus as fmt
from tribes.events.corpus import CorruptCorpus
from tribes.events.logfile import GameLog
from tribes.replay import stats as stats_
from tribes.replay.stats import Row

SUFFIX = fmt.SUFFIX
COMMIT_EVERY = 1000
"""Games a writer buffers before it commits them (an append): what a crash may lose."""


def is_corpus(path: Path) -> bool:
    return path.suffix == SUFFIX


def split_ref(path: Path) -> tuple[Path, int] | None:
    """``(corpus, k)`` for ``CORPUS#K`` (game K, from 1), else None."""
    name, sep, number = str(path).rpartition("#")
    if not sep or not name.endswith(SUFFIX) or path.exists():
        return None
    if not number.isdigit() or int(number) < 1:
        raise UsageError(f"'{path}': a game of a corpus is CORPUS#K, K a game number from 1")
    return Path(name), int(number)


def open_game(ref: Path, path: Path, number: int) -> Any:
    """Game ``number`` (from 1) of the corpus at ``path`` as an opened log named ``ref``."""
    from tribes.replay import logs

    with Corpus(path) as read:
        read.check_number(number - 1)
        game, log = read.log(number - 1)
    return logs.Opened(ref, log, game, None)


def refuse_append(path: Path) -> None:
    if split_ref(path) is not None:
        raise UsageError(
            f"{path} is a game of a corpus, which never changes; 'tribes corpus get {path} "
            "-o NEW.tribes' writes it as a log to play on"
        )


# --- reading --------------------------------------------------------------------------------------


@attrs.frozen
class Chunk:
    """Games ``first`` to ``first + len(offsets) - 1`` (from 0) of a corpus as bytes, with the
    header parts they name: a shard that travels to a worker and needs no disk there."""

    path: str
    first: int
    data: bytes
    base: int
    """The file offset of ``data[0]``."""
    offsets: tuple[int, ...]
    limits: tuple[int, ...]
    parts: dict[int, dict[str, Any]]


class Decoder:
    """Game records to GameLogs: headers from parts, events decoded once per distinct wire form
    (events are frozen values, so a decoded one is shared)."""

    def __init__(self, path: str, parts: dict[int, dict[str, Any]]) -> None:
        self.path = path
        self.parts = parts
        self.headers: dict[int, Header] = {}
        self.events: dict[Any, Event] = {}
        self.packed: dict[int, bytes] = {}

    def part_bytes(self, number: int) -> bytes:
        """Part ``number`` as the digest covers it (canonical msgpack)."""
        packed = self.packed.get(number)
        if packed is None:
            packed = self.packed[number] = codec.pack(codec.canonical(self.parts[number]))
        return packed

    def header(self, number: int, seed: int, k: int, offset: int) -> Header:
        template = self.headers.get(number)
        if template is None:
            if number not in self.parts:
                raise CorruptCorpus(
                    f"names header part {number}, which the corpus lacks",
                    path=self.path,
                    game=k + 1,
                    offset=offset,
                )
            try:
                template = logfile.header_from_data({**self.parts[number], "seed": 0}, None)
            except CorruptLog as exc:
                raise CorruptCorpus(
                    f"header part {number}: {exc.message}",
                    path=self.path,
                    game=k + 1,
                    offset=offset,
                ) from None
            self.headers[number] = template
        return attrs.evolve(template, seed=seed)

    def log(self, raw: fmt.RawGame, k: int, offset: int) -> tuple[Game, GameLog]:
        head = self.header(raw.part, raw.seed, k, offset)
        try:
            game = games.get_for_log(head.game, None)
            events = tuple(self._event(game, head, w) for w in raw.wires)
        except (CorruptLog, UnsupportedVersion) as exc:
            raise CorruptCorpus(exc.message, path=self.path, game=k + 1, offset=offset) from None
        return game, GameLog(header=head, events=events)

    def _event(self, game: Game, head: Header, wire: list[Any]) -> Event:
        try:
            key: Any = (head.game, id(head.schema), *wire)
            hash(key)
        except TypeError:
            return codec.event_from_wire(game.events, wire, head.schema)
        event = self.events.get(key)
        if event is None:
            event = codec.event_from_wire(game.events, wire, head.schema)
            if len(self.events) < 100_000:
                self.events[key] = event
        return event


class Corpus:
    """A corpus open for reading: ``len``, game ``k`` (from 0) in one read, streams of games."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = str(path)
        try:  # never blocks: a FIFO opens at once and is refused below
            self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except FileNotFoundError:
            ref = split_ref(path)
            if ref is not None and ref[0].exists():
                raise UsageError(
                    f"'{path}' is game {ref[1]} of a corpus; this command takes the corpus "
                    f"file itself ('{ref[0]}'); show, log, moves, diff, verify and corpus get take "
                    "a game as CORPUS#K"
                ) from None
            raise LogError("no such file", path=self.name) from None
        except IsADirectoryError:
            raise LogError("is a directory, not a corpus", path=self.name) from None
        except OSError as exc:
            raise LogError(f"cannot read: {exc.strerror or exc}", path=self.name) from None
        try:
            info = os.fstat(self.fd)
            if stat.S_ISDIR(info.st_mode):
                raise LogError("is a directory, not a corpus", path=self.name)
            if not stat.S_ISREG(info.st_mode):
                raise LogError("is not a regular file, so not a corpus", path=self.name)
            size = info.st_size
            self.layout = fmt.read_layout(self.fd, size, self.name)
            self.parts = {n: self._part(n, at) for n, at in self.layout.parts.items()}
        except BaseException:
            os.close(self.fd)
            raise
        self.decoder = Decoder(self.name, self.parts)

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __len__(self) -> int:
        return len(self.layout.offsets)

    def _part(self, number: int, at: int) -> dict[str, Any]:
        try:
            payload, _ = fmt.frame_at(self.fd, at, self.layout.index, fmt.MAX_RECORD_BYTES)
            data = fmt.read_part(fmt.frame(payload), 0, len(payload) + 9, number)
        except fmt.Bad as exc:
            raise CorruptCorpus(
                str(exc), path=self.name, record=f"header part {number}", offset=at
            ) from None
        return data

    def check_number(self, k: int) -> None:
        if not 0 <= k < len(self):
            raise UsageError(
                f"{self.name} holds {len(self)} game{'s' if len(self) != 1 else ''}; "
                f"there is no game {k + 1}"
            )

    def raw(self, k: int) -> fmt.RawGame:
        self.check_number(k)
        at, limit = self.layout.offsets[k], self.layout.game_end(k)
        try:
            payload, _ = fmt.frame_at(self.fd, at, limit, fmt.MAX_RECORD_BYTES)
            return fmt.read_game(fmt.frame(payload), 0, len(payload) + 9)
        except fmt.Bad as exc:
            raise CorruptCorpus(str(exc), path=self.name, game=k + 1, offset=at) from None

    def log(self, k: int) -> tuple[Game, GameLog]:
        """Game ``k`` (from 0), read on its own: one read of the file."""
        return self.decoder.log(self.raw(k), k, self.layout.offsets[k])

    def chunk(self, start: int, stop: int) -> Chunk:
        """Games ``start`` to ``stop - 1`` as one read of bytes."""
        offsets = tuple(self.layout.offsets[start:stop])
        limits = tuple(self.layout.game_end(k) for k in range(start, stop))
        base = offsets[0] if offsets else 0
        data = os.pread(self.fd, (limits[-1] - base) if offsets else 0, base)
        return Chunk(self.name, start, data, base, offsets, limits, self.parts)

    def chunks(self, size: int = COMMIT_EVERY) -> Iterator[Chunk]:
        for start, stop in fmt.iter_ranges(len(self), size):
            yield self.chunk(start, stop)

    def stream(self) -> Iterator[tuple[int, Game, GameLog]]:
        """Every game in order, read a chunk at a time (memory stays bounded)."""
        for chunk in self.chunks():
            for k, (game, log, _raw) in chunk_games(chunk, self.decoder):
                yield k, game, log


def chunk_games(
    chunk: Chunk, decoder: Decoder | None = None
) -> Iterator[tuple[int, tuple[Game, GameLog, fmt.RawGame]]]:
    """Each game of a chunk, decoded (a damaged one raises CorruptCorpus naming it)."""
    decoder = decoder or Decoder(chunk.path, chunk.parts)
    for i, (at, limit) in enumerate(zip(chunk.offsets, chunk.limits, strict=True)):
        k = chunk.first + i
        try:
            raw = fmt.read_game(chunk.data, at - chunk.base, limit - chunk.base)
        except fmt.Bad as exc:
            raise CorruptCorpus(str(exc), path=chunk.path, game=k + 1, offset=at) from None
        game, log = decoder.log(raw, k, at)
        yield k, (game, log, raw)


# --- checking -------------------------------------------------------------------------------------


@attrs.frozen
class Checked:
    """What replaying one game of a corpus found: ``error`` is None when it verified."""

    number: int
    """From 1."""
    game: str
    events: int
    over: bool
    state: str
    row: Row | None
    error: str | None = None

    def line(self, path: str) -> str:
        if self.error is not None:
            return f"FAIL  {self.error}"
        over = "over" if self.over else "in progress"
        return (
            f"ok    {path}#{self.number}: {self.game}, {views.count(self.events, 'event')}, {over}, "
            f"state {self.state[:16]}"
        )


def check(game: Game, log: GameLog, raw: fmt.RawGame, path: str, k: int, part: bytes) -> Checked:
    """Replay one game: every event legal, the digest matching its header, events and the state
    reached. Raises a TribesError naming the game."""
    head = log.header
    state = game.setup(head)
    first = game.to_move(state)
    apply = game.apply  # the reducer itself: a corpus needs no step records, only the end
    for index, event in enumerate(log.events, start=1):
        try:
            state, _ = apply(state, event)
        except IllegalMove as exc:
            moved = exc.at(game.format_move(event), index)
            raise moved.within(f"{path}#{k + 1}") from None
    final = codec.state_hash(state)
    if fmt.game_digest(part, raw.seed, raw.events, final) != raw.digest:
        raise CorruptCorpus(
            "its digest does not match its header, events and replayed state (the game was "
            "altered, or the rules changed since it was written)",
            path=path,
            game=k + 1,
        )
    outcome = game.outcome(state)
    over = game.is_over(state)
    row = (
        Row(
            seats=head.seats,
            bots=stats_.bots_of(head.seats, head.meta),
            scores=outcome.scores,
            winners=outcome.winners,
            events=len(log.events),
            first=first if first is not None else 0,
        )
        if over
        else None
    )
    return Checked(k + 1, game.name, len(log.events), over, final, row)


def check_chunk(chunk: Chunk) -> list[Checked]:
    """Every game of a chunk checked (the task of ``verify`` and ``stats`` on a corpus); a
    damaged game is a failed entry, and the rest are still checked."""
    out: list[Checked] = []
    decoder = Decoder(chunk.path, chunk.parts)
    for i, (at, limit) in enumerate(zip(chunk.offsets, chunk.limits, strict=True)):
        k = chunk.first + i
        try:
            try:
                raw = fmt.read_game(chunk.data, at - chunk.base, limit - chunk.base)
            except fmt.Bad as exc:
                raise CorruptCorpus(str(exc), path=chunk.path, game=k + 1, offset=at) from None
            game, log = decoder.log(raw, k, at)
            out.append(check(game, log, raw, chunk.path, k, decoder.part_bytes(raw.part)))
        except TribesError as exc:
            message = exc.message if chunk.path in exc.message else f"{chunk.path}: {exc.message}"
            out.append(Checked(k + 1, "?", 0, False, "", None, message))
    return out


# --- writing --------------------------------------------------------------------------------------


class Encoder:
    """Games to corpus records, remembering what repeats: each distinct event's wire form, the
    shared part of headers that differ only by their seed."""

    wires: ClassVar[dict[Event, list[Any]]] = {}
    """Shared by the encoders of a process: a worker's shards play the same moves."""
    by_identity: ClassVar[dict[int, tuple[Event, list[Any]]]] = {}
    """The same by the event object itself (no hashing of its fields), for the games whose
    legal moves are prebuilt objects (Clans): an entry holds its event, so no other object can
    take its id while the entry lives."""

    def __init__(self) -> None:
        self.part: tuple[Header, bytes] | None = None

    def part_of(self, header: Header) -> bytes:
        if self.part is not None and attrs.evolve(self.part[0], seed=header.seed) == header:
            return self.part[1]
        part = fmt.part_bytes(header)
        self.part = (header, part)
        return part

    def wire(self, event: Event) -> list[Any]:
        seen = self.by_identity.get(id(event))
        if seen is not None and seen[0] is event:  # games that list prebuilt move objects
            return seen[1]
        try:
            wire = self.wires[event]
        except KeyError:
            wire = codec.event_to_wire(event)
            if len(self.wires) < 100_000:
                self.wires[event] = wire
        except TypeError:  # an event that cannot be hashed
            return codec.event_to_wire(event)
        if len(self.by_identity) < 100_000:  # the entry keeps the event alive: its id stays its
            self.by_identity[id(event)] = (event, wire)
        return wire

    def encode(
        self, game: Game, log: GameLog, state: Any = None
    ) -> tuple[bytes, int, bytes, bytes]:
        """``(part, seed, events, digest)`` of a game for a corpus; ``state`` is the state after
        its last event (replayed when not given)."""
        if len(log.events) > fmt.MAX_EVENTS:
            raise LogError(f"a game of a corpus holds at most {fmt.MAX_EVENTS} events")
        if state is None:
            state = game.setup(log.header)
            for index, event in enumerate(log.events, start=1):
                state = play(game, state, event, index).state
        part, seed = self.part_of(log.header), log.header.seed
        events = fmt.pack_events([self.wire(e) for e in log.events])
        digest = fmt.game_digest(part, seed, events, codec.state_hash(state))
        return part, seed, events, digest


def encode_game(game: Game, log: GameLog, state: Any = None) -> tuple[bytes, int, bytes, bytes]:
    """``(part, seed, events, digest)`` of one game (:meth:`Encoder.encode`)."""
    return Encoder().encode(game, log, state)


class Writer:
    """Appends games to a corpus: buffered, committed every COMMIT_EVERY games and at close.
    One writer at a time (an exclusive lock); a failed append cuts the file back to its last
    commit, so the bytes before it are never touched."""

    def __init__(self, path: Path, *, new: bool, force: bool = False) -> None:
        self.path = path
        self.name = str(path)
        if new:
            if (path.exists() or path.is_symlink()) and not force:
                raise UsageError(
                    f"{path} exists; choose another name, pass --force to replace it, or add "
                    "to it with 'tribes corpus add'"
                )
            _write_empty(path)
        try:
            self.fd = os.open(path, os.O_RDWR)
        except OSError as exc:
            raise LogError(f"cannot open: {exc.strerror or exc}", path=self.name) from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.fd)
            raise LogError(
                "another writer holds the corpus; try again later", path=self.name
            ) from None
        try:
            self._load()
        except BaseException:
            os.close(self.fd)
            raise

    def _load(self) -> None:
        size = os.fstat(self.fd).st_size
        layout = fmt.read_layout(self.fd, size, self.name)
        if layout.tail is not None:
            raise CorruptCorpus(
                f"{layout.tail.describe()}; 'tribes corpus repair {self.name}' cuts it",
                path=self.name,
            )
        self.end = layout.end
        self.index = layout.index
        self.games = len(layout.offsets)
        reader_parts = {}
        for number, at in layout.parts.items():
            payload, _ = fmt.frame_at(self.fd, at, layout.index, fmt.MAX_RECORD_BYTES)
            data = fmt.read_part(fmt.frame(payload), 0, len(payload) + 9, number)
            reader_parts[codec.pack(codec.canonical(data))] = number
        self.parts: dict[bytes, int] = reader_parts
        self.buffer: list[bytes] = []
        self.new_parts: list[tuple[int, int]] = []
        self.offsets: list[int] = []
        self.pos = self.end

    def add(self, part: bytes, seed: int, events: bytes, digest: bytes) -> None:
        """One game (as :func:`encode_game` gives it), committed with the next :meth:`commit`."""
        number = self.parts.get(part)
        if number is None:
            if len(self.parts) >= fmt.MAX_PARTS:
                raise LogError(f"a corpus holds at most {fmt.MAX_PARTS} header parts")
            number = len(self.parts)
            self.parts[part] = number
            self._put(fmt.part_record(number, part))
            self.new_parts.append((number, self.pos - len(self.buffer[-1])))
        self.offsets.append(self.pos)
        self._put(fmt.game_record(number, seed, events, digest))
        if len(self.offsets) >= COMMIT_EVERY:
            self.commit()

    def add_log(self, game: Game, log: GameLog) -> None:
        if log.annotations:  # a corpus holds a header part, a seed and events: nothing more
            raise UsageError(
                f"the log has {len(log.tags)} tags and {len(log.notes)} notes, which a corpus "
                "does not hold; nothing was added"
            )
        self.add(*encode_game(game, log))

    def _put(self, record: bytes) -> None:
        self.buffer.append(record)
        self.pos += len(record)

    def commit(self) -> None:
        """Write what was added, its index and the trailer; fsync. Nothing new: nothing written."""
        if not self.offsets and not self.new_parts:
            return
        if self.games + len(self.offsets) > fmt.MAX_GAMES:
            raise LogError(f"a corpus holds at most {fmt.MAX_GAMES} games", path=self.name)
        index_at = self.pos
        index = fmt.index_record(self.games, self.index, self.new_parts, self.end, self.offsets)
        total = self.games + len(self.offsets)
        data = b"".join([*self.buffer, index, fmt.trailer(index_at, total)])
        _append_at(self.fd, self.name, self.end, data)
        self.end += len(data)
        self.index = index_at
        self.games = total
        self.buffer, self.new_parts, self.offsets = [], [], []
        self.pos = self.end

    def close(self) -> None:
        if self.fd >= 0:
            try:
                self.commit()
            finally:
                os.close(self.fd)
                self.fd = -1

    def abandon(self) -> None:
        """Close without committing what is buffered."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is None:
            self.close()
        else:
            self.abandon()


def _append_at(fd: int, name: str, end: int, data: bytes) -> None:
    try:
        written = 0
        while written < len(data):
            written += os.pwrite(fd, data[written:], end + written)
        os.fsync(fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, end)
        raise LogError(f"cannot write: {exc.strerror or exc}", path=name) from None


def _write_empty(path: Path) -> None:
    """A new corpus of no games, committed, written atomically (a temporary file renamed)."""
    first = fmt.MAGIC + fmt.corpus_header()
    index = fmt.index_record(0, 0, [], len(first), [])
    data = first + index + fmt.trailer(len(first), 0)
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


def repair(path: Path) -> int:
    """Cut an interrupted append (bytes after the last commit); the bytes cut."""
    with Corpus(path) as read:
        tail = read.layout.tail
        end = read.layout.end
    if tail is None:
        return 0
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.ftruncate(fd, end)
        os.fsync(fd)
    except OSError as exc:
        raise LogError(f"cannot repair: {exc.strerror or exc}", path=str(path)) from None
    finally:
        os.close(fd)
    return tail.size


def split(path: Path, out: Sequence[Path], *, force: bool = False) -> list[int]:
    """The games of ``path`` in ``len(out)`` corpora of (nearly) equal size, in order; copies the
    records as they are (no replay). The games in each."""
    with Corpus(path) as source:
        total = len(source)
        count = len(out)
        sizes = [total // count + (i < total % count) for i in range(count)]
        start = 0
        for target, size in zip(out, sizes, strict=True):
            with Writer(target, new=True, force=force) as writer:
                for k in range(start, start + size):
                    raw = source.raw(k)
                    part = codec.pack(codec.canonical(source.parts[raw.part]))
                    writer.add(part, raw.seed, raw.events, raw.digest)
            start += size
    return sizes
