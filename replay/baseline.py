"""``tribes baseline`` and ``tribes regress``: what many games come to today, and which of them a
change to the code altered, where first, and how their outcomes moved.

A *baseline* records per game (named as commands name it: ``path``, ``path#K``; each input's
path is written once, before its games) its outcome
(over or not, winners, scores), the identity of its log (8 bytes of its digest: what ``regress``
matches a game by, so that files moved or named otherwise still meet their records), the rules version of the tribes that recorded it, and a digest of
the state after every event: the first :data:`WIDTH` bytes of the state's hash
(:func:`tribes.events.codec.state_hash`: its identity, so a field added at its default changes
none), the start's first. ``regress`` replays the games with
the code installed now, computes the same and compares: the first step whose digest differs is
the first event whose state changed (a 2-byte digest misses a change with odds of 1 in 65,536,
and then names a later event; the outcome and every later digest still show it).

The file (:data:`FORMAT`, version 2; version 1, whose digests are of the states' full form,
:func:`tribes.events.codec.legacy_state_hash`, is read and compared as it was written) is a
msgpack stream — a header map, one array per game, an
end record with the game count — and then 16 bytes: the BLAKE2b digest of every byte before them,
so that a file cut short or altered is refused in one line. It is untrusted input like a log: every field is
checked for its type and size.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import attrs
import msgpack

from tribes.core.blake2 import blake2b
from tribes.core.errors import IllegalMove, TribesError, UsageError
from tribes.core.game import Game
from tribes.events import codec, logfile
from tribes.events.logfile import GameLog
from tribes.replay import sweep
from tribes.replay.parallel import Where

FORMAT = "tribes-baseline"
VERSION = 2
READABLE = (1, 2)
"""Version 1 digests the states' full form (``codec.legacy_state_hash``), version 2 their
identity (``codec.state_hash``)."""
WIDTH = 2
"""Bytes of digest per state."""
MAX_GAMES = 10_000_000
MAX_EVENTS = 100_000
"""Steps of one game a baseline holds at most."""
MAX_NAME = 4096
MAX_SEATS = 16
READ_CHUNK = 1 << 20
DIGEST = 16


@attrs.frozen
class Baseline:
    """A baseline read: its games by log identity (what a game is matched by: a file moved or
    named otherwise is the same game) and by name (to tell a log replaced under its name)."""

    by_id: dict[bytes, Record]
    by_name: dict[str, Record]
    version: int = VERSION
    """The version it was written in: its digests are compared with a replay's of the same
    kind (:attr:`Recorder.full`)."""

    def __len__(self) -> int:
        return len(self.by_id)


class BadBaseline(TribesError):
    """A baseline file that is not one, or is damaged: one line naming the file and where."""


@attrs.frozen
class Record:
    """One game as a baseline holds it (or as it replays now)."""

    name: str
    game: str
    rules_version: int
    log_id: bytes
    over: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    digests: bytes
    """WIDTH bytes per step, the start first: ``len(digests) // WIDTH - 1`` events replayed."""
    illegal: tuple[int, str] | None = None
    """Now only: the first event the rules refuse (its number, why), where the replay stopped."""
    moves: tuple[str, ...] = ()
    """Now only: every event in notation (to name the first one that differs)."""
    header_rules: int = 0
    """Now only: the rules version the log's header names."""
    seats: tuple[str, ...] = ()
    """Now only: the seat names, to word outcomes."""

    @property
    def steps(self) -> int:
        return len(self.digests) // WIDTH

    def wire(self, number: int) -> list[Any]:
        """The record in the file: ``number`` is K of a corpus's game (its input named
        before it), 0 for a log."""
        return [
            number,
            self.game,
            self.rules_version,
            self.log_id,
            self.over,
            list(self.winners),
            list(self.scores),
            self.digests,
        ]


@attrs.frozen
class Recorder:
    """The visit of ``baseline`` and ``regress``: a game's record as it replays now (with
    ``moves``, its events in notation too)."""

    moves: bool = False
    full: bool = False
    """Digest each state's full form, as baselines of version 1 did, not its identity."""

    def __call__(self, name: str, game: Game, log: GameLog) -> Record:
        header = log.header
        if len(log.events) >= MAX_EVENTS:
            raise UsageError(f"{name}: more than {MAX_EVENTS - 1} events: too long for a baseline")
        state = game.setup(header)
        hashed = codec.legacy_state_hash if self.full else codec.state_hash
        digests = [_digest(hashed(state))]
        illegal = None
        for index, event in enumerate(log.events, start=1):
            try:
                state, _ = game.apply(state, event)
            except IllegalMove as exc:
                illegal = (index, exc.reason + (f" ({exc.rule})" if exc.rule else ""))
                break
            digests.append(_digest(hashed(state)))
        outcome = game.outcome(state)
        return Record(
            name=name,
            game=game.name,
            rules_version=game.rules_version,
            log_id=logfile.log_digest(log)[:8],
            over=game.is_over(state) and illegal is None,
            winners=outcome.winners if illegal is None else (),
            scores=outcome.scores if illegal is None else (),
            digests=b"".join(digests),
            illegal=illegal,
            moves=tuple(game.format_move(e) for e in log.events) if self.moves else (),
            header_rules=header.rules_version,
            seats=header.seats,
        )


_GAME_OF_CORPUS = re.compile(r"(.+\.corpus)#([1-9][0-9]*)", re.S)


def split_name(name: str) -> tuple[str, int]:
    """A game's name as its input and K (``runs.corpus#12``: ``runs.corpus``, 12; a log: its
    path and 0), so that a baseline names each input once."""
    match = _GAME_OF_CORPUS.fullmatch(name)
    return (match[1], int(match[2])) if match else (name, 0)


def _digest(state_hash: str) -> bytes:
    return bytes.fromhex(state_hash[: 2 * WIDTH])


# --- the file ------------------------------------------------------------------------------------


def write(out: BinaryIO, records: Iterable[Record]) -> int:
    """Write a baseline of ``records``; how many games it holds."""
    summing = blake2b(digest_size=16)

    def put(data: Any) -> None:
        packed = msgpack.packb(data, use_bin_type=True)
        summing.update(packed)
        out.write(packed)

    put({"format": FORMAT, "version": VERSION, "width": WIDTH})
    count = 0
    last = None
    for record in records:
        source, number = split_name(record.name)
        if source != last:
            put(["input", source])
            last = source
        put(record.wire(number))
        count += 1
    put(["end", count])
    out.write(summing.digest())
    return count


def read(path: Path) -> Baseline:
    """Every game of the baseline at ``path``, by name; BadBaseline in one line if the file
    is no baseline, of another version, cut short or damaged."""
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
        return _Reader(path, handle, size - DIGEST).games()


class _Reader:
    def __init__(self, path: Path, handle: BinaryIO, stream: int) -> None:
        self.path = path
        self.handle = handle
        self.stream = stream
        """The bytes before the digest."""
        self.summing = blake2b(digest_size=16)
        self.unpacker = msgpack.Unpacker(
            raw=False,
            strict_map_key=True,
            max_buffer_size=4 * READ_CHUNK + WIDTH * MAX_EVENTS,
            max_array_len=64,
            max_map_len=16,
            max_str_len=MAX_NAME,
            max_bin_len=WIDTH * MAX_EVENTS,
            max_ext_len=0,
        )
        self.fed = 0

    def bad(self, why: str) -> BadBaseline:
        return BadBaseline(f"baseline {self.path}: {why}")

    def values(self) -> Iterator[tuple[Any, int]]:
        """Each msgpack value with the byte it ends at; the digest fed as they come."""
        done = 0
        while True:
            try:
                for value in self.unpacker:
                    end = self.unpacker.tell()
                    yield value, end
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
            self.summing.update(data)
            self.unpacker.feed(data)

    def games(self) -> Baseline:
        values = self.values()
        out: dict[str, Record] = {}
        by_id: dict[bytes, Record] = {}
        first = next(values, None)
        if first is None:
            raise self.bad("empty: not a baseline file (tribes baseline writes one)")
        head, _ = first
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise self.bad("not a baseline file (tribes baseline writes one)")
        version = head.get("version")
        if type(version) is not int or version not in READABLE or head.get("width") != WIDTH:
            raise self.bad(
                f"version {version!r} of the format; this tribes reads versions "
                + ", ".join(map(str, READABLE))
            )
        ended = False
        source: str | None = None
        for value, end in values:
            if ended:
                raise self.bad(f"bytes after the end record (at byte {end})")
            if isinstance(value, list) and value[:1] == ["end"]:
                self._end(value, len(out))
                ended = True
                continue
            if isinstance(value, list) and value[:1] == ["input"]:
                source = self._source(value, len(out) + 1)
                continue
            if source is None:
                raise self.bad(f"game {len(out) + 1} comes before any input is named")
            record = self._record(value, len(out) + 1, source)
            if record.name in out:
                raise self.bad(f"game {len(out) + 1} ({record.name!r}) is in it twice")
            out[record.name] = record
            by_id.setdefault(record.log_id, record)  # the same log twice: one record
        if not ended:
            raise self.bad(f"cut short: no end record after its {len(out)} games")
        if self.handle.read(DIGEST + 1) != self.summing.digest():
            raise self.bad("damaged: its digest does not match its contents")
        return Baseline(by_id, out, version)

    def _end(self, value: list[Any], count: int) -> None:
        if len(value) != 2 or value[1] != count:
            raise self.bad(f"damaged end record: it does not count the {count} games before it")

    def _source(self, value: list[Any], number: int) -> str:
        if len(value) != 2 or not isinstance(value[1], str) or not value[1].isprintable():
            raise self.bad(f"the input before game {number} is not named by a line of text")
        if not value[1] or len(value[1]) > MAX_NAME:
            raise self.bad(f"the input before game {number} has no name or a name too long")
        return str(value[1])

    def _record(self, value: Any, number: int, source: str) -> Record:
        where = f"game {number}"
        if not isinstance(value, list) or len(value) != 8:
            raise self.bad(f"{where}: not a game record")
        k, game, rules, log_id, over, winners, scores, digests = value
        if not _int(k) or (k and not source.endswith(".corpus")):
            raise self.bad(f"{where}: its number in {source!r} is damaged")
        name = f"{source}#{k}" if k else source
        if not isinstance(game, str) or not game.isidentifier():
            raise self.bad(f"{where} ({name}): its game is not a name")
        if not _int(rules) or not isinstance(log_id, bytes) or len(log_id) != 8:
            raise self.bad(f"{where} ({name}): damaged rules version or log identity")
        if not isinstance(over, bool):
            raise self.bad(f"{where} ({name}): 'over' is not true or false")
        if not _ints(scores) or not _ints(winners) or any(w >= len(scores) for w in winners):
            raise self.bad(f"{where} ({name}): damaged outcome")
        if not isinstance(digests, bytes) or not digests or len(digests) % WIDTH:
            raise self.bad(f"{where} ({name}): damaged state digests")
        return Record(name, game, rules, log_id, over, tuple(winners), tuple(scores), digests)


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


# --- many games ---------------------------------------------------------------------------------


@attrs.frozen
class Made:
    """A baseline made: its bytes, how many games and events it holds, and the games that could
    not be replayed (each ``{"path", "error"}``: left out of it)."""

    data: bytes
    games: int
    events: int
    failed: tuple[dict[str, str], ...]


def make(
    paths: Sequence[Path],
    where: Where,
    progress: Callable[[int], None] = lambda n: None,
    failure: Callable[[str, str], None] = lambda name, error: None,
) -> Made:
    """The baseline of every game of the inputs; ``failure`` told each game left out (its
    name, why)."""
    failed: list[dict[str, str]] = []
    events = 0

    def records() -> Iterator[Record]:
        nonlocal events
        for visited in sweep.sweep(paths, Recorder(), where, progress):
            error, record = visited.error, visited.result
            if record is not None and record.illegal is not None:
                error = f"{visited.name}: event {record.illegal[0]} is illegal: {record.illegal[1]}"
            if error is not None:
                failed.append({"path": visited.name, "error": error})
                failure(visited.name, error)
                continue
            assert record is not None
            events += record.steps - 1
            yield record

    buffer = io.BytesIO()
    count = write(buffer, records())
    return Made(buffer.getvalue(), count, events, tuple(failed))
