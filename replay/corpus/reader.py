"""Reading a corpus: game ``k`` in one read, chunks of games as bytes (the shards that travel to
workers), streams of games, every game decoded into a GameLog with its tags and notes."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

import attrs

from tribes import games
from tribes.core.errors import CorruptLog, LogError, UnsupportedVersion, UsageError
from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.events import codec, logfile
from tribes.events import corpus as fmt
from tribes.events.corpus import CorruptCorpus
from tribes.events.logfile import GameLog
from tribes.replay.corpus.annex import Marks, read_annex
from tribes.replay.corpus.refs import split_ref

COMMIT_EVERY = 1000
"""Games a writer buffers before it commits them (an append): what a crash may lose; also the
games a reader reads at once."""


def older_digest_matches(part: bytes, raw: fmt.RawGame, annex: bytes, state: Any) -> bool:
    """Whether a game of a corpus of format version 1 or 2 has the digest it recorded, with
    ``state`` the state its last event reaches under the running rules (the digest covers it)."""
    full = codec.legacy_state_hash(state)
    return fmt.game_digest(part, raw.seed, raw.events, full, annex) == raw.digest


def older_digest_differs(path: str, k: int, *, upgrade: bool) -> CorruptCorpus:
    """Game ``k`` (from 0) of an older corpus whose digest does not match: altered, or written
    under other rules, which that version cannot tell apart; with ``upgrade``, the line names
    what carries it to a version that can (a command that reads this one game)."""
    how = (
        f"; 'tribes upgrade {path} -o NEW.corpus' run under the rules it was written with "
        "writes it as version 3, which can"
        if upgrade
        else ""
    )
    return CorruptCorpus(
        "its digest does not match its header, events, tags and notes and replayed state (the "
        "game was altered, or the rules changed since it was written: a corpus of format "
        f"version 2 or older cannot tell which{how})",
        path=path,
        game=k + 1,
    )


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
    """Where each game's record ends: exactly where the next record starts."""
    parts: dict[int, dict[str, Any]]
    annexes: dict[int, bytes] = attrs.field(factory=dict)
    """The annex each header part shares with its games (tags at the start), if any."""
    version: int = fmt.FORMAT_VERSION
    names: dict[int, tuple[str, ...]] = attrs.field(factory=dict)
    """The parts' names of the first checkpoint of each header part's games (version 3)."""


class Decoder:
    """Game records to GameLogs: headers from parts, events decoded once per distinct wire form
    (events are frozen values, so a decoded one is shared)."""

    def __init__(
        self, path: str, parts: dict[int, dict[str, Any]], annexes: dict[int, bytes] | None = None
    ) -> None:
        self.path = path
        self.parts = parts
        self.annexes = annexes or {}
        self.headers: dict[int, Header] = {}
        self.events: dict[Any, Event] = {}
        self.packed: dict[int, bytes] = {}

    def part_bytes(self, number: int) -> bytes:
        """Part ``number`` as the digest covers it (canonical msgpack)."""
        packed = self.packed.get(number)
        if packed is None:
            packed = self.packed[number] = codec.pack(codec.canonical(self.parts[number]))
        return packed

    def annex(self, raw: fmt.RawGame) -> bytes:
        """The game's annex: its own, or its part's."""
        return raw.annex or self.annexes.get(raw.part, b"")

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

    def log(self, raw: fmt.RawGame, k: int, offset: int) -> tuple[Game[Any], GameLog]:
        game, log, _ = self.log_and_marks(raw, k, offset)
        return game, log

    def log_and_marks(
        self, raw: fmt.RawGame, k: int, offset: int
    ) -> tuple[Game[Any], GameLog, Marks]:
        head = self.header(raw.part, raw.seed, k, offset)
        try:
            game = games.get_for_log(head.game, None)
            events = tuple(self._event(game, head, w) for w in raw.wires)
        except (CorruptLog, UnsupportedVersion) as exc:
            raise CorruptCorpus(exc.message, path=self.path, game=k + 1, offset=offset) from None
        try:
            notes, marks = read_annex(self.annex(raw), len(events))
        except ValueError as exc:
            raise CorruptCorpus(
                f"its annex is refused: {exc}", path=self.path, game=k + 1, offset=offset
            ) from None
        log = GameLog(header=head, events=events, annotations=notes, checkpoints=raw.marks)
        if raw.marks:
            self._intact(raw, k, offset, marks)
        return game, log, marks

    def _intact(self, raw: fmt.RawGame, k: int, offset: int, marks: Marks) -> None:
        """Raise CorruptCorpus unless a game of version 3 is the one written: its digest
        matches its header, events, annex and checkpoints as recorded (bytes only, so the
        answer never depends on the rules reading it), a checkpoint at each commit."""
        annex = self.annex(raw)
        if fmt.game_digest_v3(
            self.part_bytes(raw.part), raw.seed, raw.events, annex, raw.marks
        ) != (raw.digest):
            raise CorruptCorpus(
                "its digest does not match its header, events, tags and notes and recorded "
                "checkpoints: the game was altered or damaged",
                path=self.path,
                game=k + 1,
                offset=offset,
            )
        places = {c.events for c in raw.marks}
        missing = [n for n, _ in marks.commits or () if n not in places]
        if missing:
            raise CorruptCorpus(
                f"its append after event {missing[0]} has no checkpoint",
                path=self.path,
                game=k + 1,
                offset=offset,
            )

    def _event(self, game: Game[Any], head: Header, wire: list[Any]) -> Event:
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


def open_regular(path: Path, flags: int, what: str = "a corpus", *, follow: bool = True) -> int:
    """A descriptor of the regular file at ``path``, never blocking (a FIFO opens at once and is
    refused); not through a symbolic link unless ``follow`` (a writer never follows one)."""
    nofollow = 0 if follow else getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags | os.O_NONBLOCK | nofollow | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise LogError("no such file", path=str(path)) from None
    except IsADirectoryError:
        raise LogError(f"is a directory, not {what}", path=str(path)) from None
    except OSError as exc:
        if not follow and path.is_symlink():
            raise LogError(
                f"is a symbolic link; {what} is opened only as a regular file (name the file "
                "it leads to)",
                path=str(path),
            ) from None
        raise LogError(f"cannot open: {exc.strerror or exc}", path=str(path)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise LogError(f"is a directory, not {what}", path=str(path))
        if not stat.S_ISREG(info.st_mode):
            raise LogError(f"is not a regular file, so not {what}", path=str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd


class Corpus:
    """A corpus open for reading: ``len``, game ``k`` (from 0) in one read, streams of games."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = str(path)
        try:
            self.fd = open_regular(path, os.O_RDONLY)
        except LogError as exc:
            ref = split_ref(path)
            if "no such file" in exc.message and ref is not None and ref[0].exists():
                raise UsageError(
                    f"'{path}' is game {ref[1]} of a corpus; this command takes the corpus "
                    f"file itself ('{ref[0]}'); show, log, moves, diff, verify and corpus get take "
                    "a game as CORPUS#K"
                ) from None
            raise
        try:
            size = os.fstat(self.fd).st_size
            self.layout = fmt.read_layout(self.fd, size, self.name)
            self.parts: dict[int, dict[str, Any]] = {}
            self.annexes: dict[int, bytes] = {}
            self.names: dict[int, tuple[str, ...]] = {}
            for number, at in self.layout.parts.items():
                self.parts[number], annex, names = self._part(number, at)
                if annex:
                    self.annexes[number] = annex
                if names:
                    self.names[number] = names
        except BaseException:
            os.close(self.fd)
            raise
        self.decoder = Decoder(self.name, self.parts, self.annexes)

    @property
    def version(self) -> int:
        return self.layout.version

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __len__(self) -> int:
        return len(self.layout.offsets)

    def _part(self, number: int, at: int) -> tuple[dict[str, Any], bytes, tuple[str, ...] | None]:
        limit = self.layout.next_start(at)
        try:
            data = fmt.pread(self.fd, min(limit - at, fmt.MAX_RECORD_BYTES + 16), at)
            payload = fmt.read_exact_frame(data, 0, limit - at, fmt.MAX_RECORD_BYTES)
            return fmt.read_part(payload, number, self.version)
        except fmt.Bad as exc:
            raise CorruptCorpus(
                str(exc), path=self.name, record=f"header part {number}", offset=at
            ) from None

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
            if limit - at > fmt.MAX_RECORD_BYTES + 16:
                raise fmt.Bad(f"is corrupt: it spans {limit - at} bytes")
            data = fmt.pread(self.fd, limit - at, at)
            payload = fmt.read_exact_frame(data, 0, limit - at, fmt.MAX_RECORD_BYTES)
            return fmt.read_game(payload, self.version, self.names)
        except fmt.Bad as exc:
            raise CorruptCorpus(str(exc), path=self.name, game=k + 1, offset=at) from None

    def log(self, k: int) -> tuple[Game[Any], GameLog]:
        """Game ``k`` (from 0), read on its own: one read of the file."""
        return self.decoder.log(self.raw(k), k, self.layout.offsets[k])

    def file_log(self, k: int) -> tuple[Game[Any], GameLog]:
        """Game ``k`` as the log file it was added from: its tags and notes, commits where its
        appends ended, checkpoints where it had them (every digest recomputed)."""
        from tribes.replay.corpus.annex import file_log  # noqa: PLC0415  start-up: the annex only when a log is rebuilt

        raw = self.raw(k)
        game, log, marks = self.decoder.log_and_marks(raw, k, self.layout.offsets[k])
        if self.version >= 3:
            return game, file_log(game, log, marks)
        part, annex = self.decoder.part_bytes(raw.part), self.decoder.annex(raw)

        def reached(state: Any) -> None:
            if not older_digest_matches(part, raw, annex, state):
                raise older_digest_differs(self.name, k, upgrade=True)

        return game, file_log(game, log, marks, reached)

    def chunk(self, start: int, stop: int) -> Chunk:
        """Games ``start`` to ``stop - 1`` as one read of bytes."""
        offsets = tuple(self.layout.offsets[start:stop])
        limits = tuple(self.layout.game_end(k) for k in range(start, stop))
        base = offsets[0] if offsets else 0
        data = os.pread(self.fd, (limits[-1] - base) if offsets else 0, base)
        return Chunk(
            self.name,
            start,
            data,
            base,
            offsets,
            limits,
            self.parts,
            self.annexes,
            self.version,
            self.names,
        )

    def chunks(self, size: int = COMMIT_EVERY) -> Iterator[Chunk]:
        for start, stop in fmt.iter_ranges(len(self), size):
            yield self.chunk(start, stop)

    def stream(self) -> Iterator[tuple[int, Game[Any], GameLog]]:
        """Every game in order, read a chunk at a time (memory stays bounded)."""
        for chunk in self.chunks():
            for k, (game, log, _raw) in chunk_games(chunk, self.decoder):
                yield k, game, log

    def problems(self) -> Iterator[CorruptCorpus]:
        """Every problem found reading every record and every append's digest, in order."""
        return fmt.check_records(self.fd, self.layout, self.name)

    def whole_problem(self) -> CorruptCorpus | None:
        """The first problem of the corpus as a whole that no game's own check names: a damaged
        header part, an append whose digest does not match."""
        return next((p for p in self.problems() if p.game is None), None)


def raw_of(chunk: Chunk, i: int) -> fmt.RawGame:
    """Game ``i`` of a chunk as stored (a damaged one raises CorruptCorpus naming it)."""
    at, limit = chunk.offsets[i], chunk.limits[i]
    try:
        if limit - at > fmt.MAX_RECORD_BYTES + 16:
            raise fmt.Bad(f"is corrupt: it spans {limit - at} bytes")
        payload = fmt.read_exact_frame(
            chunk.data, at - chunk.base, limit - chunk.base, fmt.MAX_RECORD_BYTES
        )
        return fmt.read_game(payload, chunk.version, chunk.names)
    except fmt.Bad as exc:
        raise CorruptCorpus(
            str(exc), path=chunk.path, game=chunk.first + i + 1, offset=at
        ) from None


def chunk_games(
    chunk: Chunk, decoder: Decoder | None = None
) -> Iterator[tuple[int, tuple[Game[Any], GameLog, fmt.RawGame]]]:
    """Each game of a chunk, decoded (a damaged one raises CorruptCorpus naming it)."""
    decoder = decoder or Decoder(chunk.path, chunk.parts, chunk.annexes)
    for i, at in enumerate(chunk.offsets):
        raw = raw_of(chunk, i)
        game, log = decoder.log(raw, chunk.first + i, at)
        yield chunk.first + i, (game, log, raw)
