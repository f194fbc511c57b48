"""Writing a corpus: games encoded as records (repeated parts and events remembered), appended
and committed (every COMMIT_EVERY games and at close) with each append's chained digest, under
the lock of :mod:`tribes.replay.corpus.locking`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar, Self

import attrs

from tribes.core.engine import play
from tribes.core.errors import LogError
from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.events import codec, files
from tribes.events import corpus as fmt
from tribes.events.corpus import CorruptCorpus
from tribes.events.logfile import Checkpoint, GameLog
from tribes.replay.consistency import checkpoint_of
from tribes.replay.corpus import locking
from tribes.replay.corpus.annex import annex_of, default_checkpoints, read_annex, shareable
from tribes.replay.corpus.reader import COMMIT_EVERY


@attrs.frozen
class Encoded:
    """A game ready for a corpus: its header part, seed, packed events, digest, annex and
    packed checkpoints. It unpacks as ``(part, seed, events, digest)``."""

    part: bytes
    seed: int
    events: bytes
    digest: bytes
    annex: bytes = b""
    marks: bytes = b""

    def __iter__(self) -> Any:
        return iter((self.part, self.seed, self.events, self.digest))


MEMO_ENTRIES = 16_384
"""Distinct events whose wire form an encoder process keeps (the first seen): about 5 MB at most.
Hunters plays ~2.4 new placements a game for ever, so a memo without a small cap grew with
the run (100,000 entries, ~30 MB a worker of ``simulate --save``, with a cap that large); the
moves that repeat are seen early, and the hits stay above 90%."""


class Encoder:
    """Games to corpus records, remembering what repeats: each distinct event's wire form, the
    shared part of headers that differ only by their seed."""

    wires: ClassVar[dict[Event, list[Any]]] = {}
    """Shared by the encoders of a process: a worker's shards play the same moves."""
    by_identity: ClassVar[dict[int, tuple[Event, list[Any]]]] = {}
    """The same by the event object itself (no hashing of its fields), for the games whose
    legal moves are prebuilt objects (Clans, Iwari): an entry holds its event, so no other
    object can take its id while the entry lives. Only the object a wire form was first made
    for gets one: an event made afresh each game (Hunters' placements, Clans' orders of
    villages) is found by its value, and kept no longer than its game (an entry for each of
    them held 100,000 dead events in every worker after ~1,250 Hunters games)."""

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
            return self.wires[event]
        except KeyError:
            wire = codec.event_to_wire(event)
            if len(self.wires) < MEMO_ENTRIES:
                self.wires[event] = wire
                self.by_identity[id(event)] = (event, wire)  # it keeps the event: its id stays its
            return wire
        except TypeError:  # an event that cannot be hashed
            return codec.event_to_wire(event)

    def encode(self, game: Game[Any], log: GameLog, state: Any = None) -> Encoded:
        """A game for a corpus, with its tags, notes and checkpoints: those of a log of format
        version 3 as it recorded them (bytes: a game is never re-recorded on its way into a
        corpus), else recorded now under the running rules where the log had them (where a
        new log has them when it had none); ``state`` is the state after its last event
        (replayed when needed and not given)."""
        if len(log.events) > fmt.MAX_EVENTS:
            raise LogError(f"a game of a corpus holds at most {fmt.MAX_EVENTS} events")
        part, seed = self.part_of(log.header), log.header.seed
        events = fmt.pack_events([self.wire(e) for e in log.events])
        annex = annex_of(log, places=False)
        try:  # what a reader will accept, or nothing is written
            read_annex(annex, len(log.events))
        except ValueError as exc:
            raise LogError(f"its tags and notes cannot go in a corpus: {exc}") from None
        marks = recorded_marks(game, log, state)
        digest = fmt.game_digest_v3(part, seed, events, annex, marks)
        return Encoded(part, seed, events, digest, annex, fmt.pack_marks(marks))


def recorded_marks(game: Game[Any], log: GameLog, state: Any = None) -> tuple[Checkpoint, ...]:
    """The checkpoints a game takes into a corpus of version 3: a log's of version 3 as
    recorded, else recorded under the running rules (at the log's checkpoints, or where a new
    log has them), one after its last event always."""
    count = len(log.events)
    if log.version >= 3 and log.checkpoints and log.checkpoints[-1].events == count:
        return log.checkpoints
    commits = [(c.events, c.annotations) for c in log.commits]
    places = [c.events for c in log.checkpoints if c.events <= count] or default_checkpoints(
        count, set(commits) or {(count, len(log.annotations))}
    )
    places = sorted({*places, count})
    if places == [count] and state is not None:
        return (checkpoint_of(game, count, state),)
    walk = game.setup(log.header)
    out = []
    for index in range(count + 1):
        if index:
            walk = play(game, walk, log.events[index - 1], index).state
        if index in places:
            out.append(checkpoint_of(game, index, walk))
    return tuple(out)


def encode_game(game: Game[Any], log: GameLog, state: Any = None) -> Encoded:
    """One game for a corpus (:meth:`Encoder.encode`)."""
    return Encoder().encode(game, log, state)


def empty_corpus() -> bytes:
    """A corpus of no games, committed."""
    first = fmt.MAGIC + fmt.corpus_header()
    digest = fmt.AppendDigest(fmt.NO_DIGEST).finish(0, 0)
    index = fmt.index_record(0, 0, [], len(first), [], digest)
    return first + index + fmt.trailer(len(first), 0)


class Writer:
    """Appends games to a corpus: buffered, committed every COMMIT_EVERY games and at close.
    One writer at a time (an exclusive lock, waited for up to ``wait`` seconds, ``on_wait`` told
    when the wait begins); a failed append cuts the file back to its last commit, so the bytes
    before it are never touched. ``new`` makes the corpus (``force``: replacing one, under its
    lock)."""

    def __init__(
        self,
        path: Path,
        *,
        new: bool,
        force: bool = False,
        wait: float = locking.LOCK_WAIT,
        on_wait: locking.Notice | None = None,
    ) -> None:
        self.path = path
        self.name = str(path)
        if new:
            self.fd = locking.create(path, empty_corpus(), force=force, wait=wait, on_wait=on_wait)
        else:
            self.fd = locking.open_locked(path, wait, on_wait)
        try:
            self._load()
        except BaseException:
            os.close(self.fd)
            self.fd = -1
            raise

    def _load(self) -> None:
        size = os.fstat(self.fd).st_size
        layout = fmt.read_layout(self.fd, size, self.name)
        if layout.tail is not None:
            raise CorruptCorpus(
                f"{layout.tail.describe()}; 'tribes corpus repair {self.name}' cuts it",
                path=self.name,
            )
        if layout.version < fmt.FORMAT_VERSION:
            raise LogError(
                f"is a corpus of format version {layout.version}, which tribes no longer "
                f"appends to; 'tribes upgrade {self.name} -o NEW.corpus' writes it as version "
                f"{fmt.FORMAT_VERSION}",
                path=self.name,
            )
        self.end = layout.end
        self.index = layout.index
        self.games = len(layout.offsets)
        self.digest = layout.digest
        self.parts: dict[bytes, int] = {}
        for number, at in layout.parts.items():
            payload, _ = fmt.frame_at(self.fd, at, layout.index, fmt.MAX_RECORD_BYTES)
            data, annex, names = fmt.read_part(payload, number, layout.version)
            listed = codec.pack(list(names) if names else None)
            self.parts[codec.pack(codec.canonical(data)) + annex + listed] = number
        self.buffer: list[bytes] = []
        self.new_parts: list[tuple[int, int]] = []
        self.offsets: list[int] = []
        self.pos = self.end

    def add(
        self,
        part: bytes,
        seed: int,
        events: bytes,
        digest: bytes,
        annex: bytes = b"",
        marks: bytes = b"",
    ) -> None:
        """One game (as :func:`encode_game` gives it: ``marks`` its packed checkpoints),
        committed with the next :meth:`commit`. Tags at the start that many games share go in
        their header part, the rest in the game."""
        shared = annex if shareable(annex) and len(self.parts) < fmt.MAX_PARTS else b""
        marks, names = fmt.first_names(marks) if marks else (marks, None)
        key = part + shared + codec.pack(list(names) if names else None)
        number = self.parts.get(key)
        if number is None:
            if len(self.parts) >= fmt.MAX_PARTS:
                raise LogError(f"a corpus holds at most {fmt.MAX_PARTS} header parts")
            number = len(self.parts)
            self.parts[key] = number
            self.new_parts.append((number, self.pos))
            self._put(fmt.part_record(number, part, shared, names=names))
        own = b"" if shared else annex
        record = fmt.game_record(number, seed, events, digest, own, marks=marks)
        if len(record) > fmt.MAX_RECORD_BYTES:
            raise LogError(
                f"a game of a corpus is at most {fmt.MAX_RECORD_BYTES} bytes, not {len(record)}"
            )
        self.offsets.append(self.pos)
        self._put(record)
        if len(self.offsets) >= COMMIT_EVERY:
            self.commit()

    def add_encoded(self, encoded: Encoded) -> None:
        self.add(
            encoded.part, encoded.seed, encoded.events, encoded.digest, encoded.annex, encoded.marks
        )

    def _put(self, record: bytes) -> None:
        self.buffer.append(record)
        self.pos += len(record)

    def commit(self) -> None:
        """Write what was added, its index (with the append's digest) and the trailer; fsync.
        Nothing new: nothing written."""
        if not self.offsets and not self.new_parts:
            return
        if self.games + len(self.offsets) > fmt.MAX_GAMES:
            raise LogError(f"a corpus holds at most {fmt.MAX_GAMES} games", path=self.name)
        running = fmt.AppendDigest(self.digest)
        for record in self.buffer:
            running.add(fmt.read_frame(record, 0, len(record), len(record))[0])
        digest = running.finish(self.games, len(self.offsets))
        index_at = self.pos
        index = fmt.index_record(
            self.games, self.index, self.new_parts, self.end, self.offsets, digest
        )
        total = self.games + len(self.offsets)
        data = b"".join([*self.buffer, index, fmt.trailer(index_at, total)])
        files.append_at(self.fd, self.name, self.end, data)
        self.end += len(data)
        self.index = index_at
        self.games = total
        self.digest = digest
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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is None:
            self.close()
        else:
            self.abandon()
