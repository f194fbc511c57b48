"""``tribes baseline`` and ``tribes regress``: what many games come to today, and which of them a
change to the code altered, where first, and how their outcomes moved.

A *baseline* records per game (named as commands name it: ``path``, ``path#K``; each input's
path is written once, before its games) its outcome (over or not, winners, scores), the identity
of its log (8 bytes of its digest: what ``regress`` matches a game by, so that files moved or
named otherwise still meet their records), the rules version of the tribes that recorded it, a
digest of the state after every event — the first :data:`WIDTH` bytes of the state's hash
(:func:`tribes.events.codec.state_hash`: its identity, so a field added at its default changes
none), the start's first — and, from format version 3, the
*words* of the events that moved a score or decided the game: their effects as the game
describes them (``village 12 at 51 (...): red +6; chip to p1``), so that ``regress`` shows what
an event did before and what it does now without the old code. ``regress`` replays the games
with the code installed now and compares: the first step whose digest or recorded words differ
is the first event whose state changed (a 2-byte digest misses a change with odds of 1 in
65,536, and then names a later event; the outcome and every later digest still show it).

The file (:data:`FORMAT`, version 3) is a msgpack stream — a header map; the records, each input
named before its games; before every :data:`BLOCK` games an ``effects`` block holding their words,
a line an event, compressed with bz2 when that is shorter (the words repeat from game to game: about 80 bytes a Clans
game, 50 an Iwari or Hunters one); an end record with the game count — and then 16 bytes: the BLAKE2b digest of
every byte before them, so that a file cut short or altered is refused in one line. It is
written and read as a stream (a million games are never held) and is untrusted input like a log:
every field is checked (:mod:`tribes.replay.baseline_file`). Versions 2 (no words) and 1 (no
words; digests of the states' full form, compared as they were written) are still read.
"""

from __future__ import annotations

import bz2
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import msgpack

from tribes.core.blake2 import blake2b
from tribes.core.errors import IllegalMove, UsageError
from tribes.core.game import Game
from tribes.events import digest, statehash
from tribes.events.logfile import GameLog
from tribes.replay import sweep
from tribes.replay.parallel import Where

FORMAT = "tribes-baseline"
VERSION = 3
READS = (1, 2, 3)
"""The format versions this tribes reads: 1 digests the states' full form
(``codec.legacy_state_hash``), 2 and 3 their identity (``codec.state_hash``); 1 and 2 hold no
words."""
WIDTH = 2
"""Bytes of digest per state."""
BLOCK = 100
"""Games whose words one effects block holds at most (what a reader decompresses at once)."""
BLOCK_WORDS = 1 << 22
"""Bytes of words after which a block ends (a reader takes four times as many)."""
DIGEST = 16

Words = tuple[tuple[int, tuple[str, ...]], ...]
"""The words a record holds: (event number, the texts of its effects), by event."""


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
    words: Words | None = ()
    """The effects' texts of the events that moved a score or decided the game; None when the
    baseline (version 1 or 2) holds none."""
    illegal: tuple[int, str, str | None] | None = None
    """Now only: the first event the rules refuse (its number, why, the rule's id), where the
    replay stopped."""
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

    def words_text(self) -> str:
        """The words in an effects block: a line an event (its number after the previous
        one, a tab, its effects' texts between unit separators)."""
        out = []
        last = 0
        for event, texts in self.words or ():
            out.append(f"{event - last}\t{UNIT.join(texts)}")
            last = event
        return "\n".join(out)


GAMES = "\x1e"
"""Between the words of two games in an effects block."""
UNIT = "\x1f"
"""Between the texts of two effects of an event."""


def plain(text: str) -> str:
    """An effect's text as a baseline records it: printable (a tab, a line break, a separator
    or any other control character made a space)."""
    return text if text.isprintable() else "".join(c if c.isprintable() else " " for c in text)


@attrs.frozen
class Recorder:
    """The visit of ``baseline`` and ``regress``: a game's record as it replays now (what travels
    back from a worker: its digests, outcome and words, nothing a game long besides)."""

    full: bool = False
    """Digest each state's full form, as baselines of version 1 did, not its identity."""

    def __call__(self, name: str, game: Game[Any], log: GameLog) -> Record:
        header = log.header
        seats = header.seats
        if len(log.events) >= MAX_EVENTS:
            raise UsageError(f"{name}: more than {MAX_EVENTS - 1} events: too long for a baseline")
        state = game.setup(header)
        hashed = statehash.Steps(full=self.full)
        digests = [hashed.digest(state)[:WIDTH]]
        words: list[tuple[int, tuple[str, ...]]] = []
        illegal = None
        size = 0
        outcome = game.outcome(state)
        for index, event in enumerate(log.events, start=1):
            try:
                state, effects = game.apply(state, event)
            except IllegalMove as exc:
                illegal = (index, exc.reason, exc.rule)
                break
            digests.append(hashed.digest(state)[:WIDTH])
            said = tuple(plain(effect.describe(seats))[:MAX_TEXT] for effect in effects)
            now = game.outcome(state)
            if said and (now.scores != outcome.scores or now.winners != outcome.winners):
                words.append((index, said))
                size += sum(map(len, said))
                if size > BLOCK_WORDS:
                    raise UsageError(f"{name}: its events say too much for a baseline")
            outcome = now
        return Record(
            name=name,
            game=game.name,
            rules_version=game.rules_version,
            log_id=digest.log_digest(header, log.events, log.annotations, _EVENTS)[:8],
            over=game.is_over(state) and illegal is None,
            winners=outcome.winners if illegal is None else (),
            scores=outcome.scores if illegal is None else (),
            digests=b"".join(digests),
            words=tuple(words),
            illegal=illegal,
            header_rules=header.rules_version,
            seats=seats,
        )


_EVENTS = digest.EventBytes()
"""The bytes of the events a process met last (the log identity of each game hashes them)."""
MAX_EVENTS = 100_000
"""Steps of one game a baseline holds at most."""
MAX_TEXT = 512
"""Characters of one effect's words a baseline keeps (the rest is left off, now as before)."""


_GAME_OF_CORPUS = re.compile(r"(.+\.corpus)#([1-9][0-9]*)", re.DOTALL | re.ASCII)


def split_name(name: str) -> tuple[str, int]:
    """A game's name as its input and K (``runs.corpus#12``: ``runs.corpus``, 12; a log: its
    path and 0), so that a baseline names each input once."""
    match = _GAME_OF_CORPUS.fullmatch(name)
    return (match[1], int(match[2])) if match else (name, 0)


# --- the file ------------------------------------------------------------------------------------


class _Writer:
    """The file as it is written: every value packed, summed and passed on to ``out``."""

    def __init__(self, out: Callable[[bytes], object]) -> None:
        self.out = out
        self.summing = blake2b(digest_size=DIGEST)
        self.packer = msgpack.Packer(use_bin_type=True)

    def put(self, data: Any) -> None:
        packed: bytes = self.packer.pack(data)
        self.summing.update(packed)
        self.out(packed)


def write(out: Callable[[bytes], object], records: Iterable[Record]) -> int:
    """Write a baseline of ``records`` through ``out`` as they come (a block of :data:`BLOCK`
    games held at once); how many games it holds."""
    writer = _Writer(out)
    writer.put({"format": FORMAT, "version": VERSION, "width": WIDTH})
    count = 0
    last: list[str | None] = [None]
    block: list[Record] = []
    texts: list[str] = []  # the block's words, each made once

    def flush() -> None:
        if not block:
            return
        if VERSION >= 3:  # (a test writes the versions before as they were)
            words = GAMES.join(texts).encode()
            packed = bz2.compress(words, _level(len(words)))  # a few games: too little to gain
            writer.put(["effects", len(block), packed if len(packed) < len(words) else words])
        for record in block:
            source, number = split_name(record.name)
            if source != last[0]:
                writer.put(["input", source])
                last[0] = source
            writer.put(record.wire(number))
        block.clear()
        texts.clear()

    size = 0
    for record in records:
        block.append(record)
        texts.append(record.words_text())
        count += 1
        size += len(texts[-1])
        if len(block) == BLOCK or size >= BLOCK_WORDS:
            flush()
            size = 0
    flush()
    writer.put(["end", count])
    out(writer.summing.digest())
    return count


def _level(size: int) -> int:
    """The bz2 level whose block (100 KB a level) holds ``size`` bytes: the same compression as
    level 9 for a block of words (they fit in one block), but a level 9 compressor takes 7.6 MB
    whatever its input, the peak of ``baseline``'s main process (level 1: 1.1 MB)."""
    return max(1, min(9, -(-size // 100_000)))


# --- many games ---------------------------------------------------------------------------------


@attrs.frozen
class Made:
    """A baseline made: how many bytes, games and events it holds, and the games that could
    not be replayed (each ``{"path", "error"}``: left out of it)."""

    size: int
    games: int
    events: int
    failed: tuple[dict[str, str], ...]


def make(
    paths: Sequence[Path],
    where: Where,
    out: Callable[[bytes], object],
    progress: Callable[[int], None] = lambda n: None,
    failure: Callable[[str, str], None] = lambda name, error: None,
) -> Made:
    """The baseline of every game of the inputs, written through ``out`` as the games come;
    ``failure`` told each game left out (its name, why)."""
    failed: list[dict[str, str]] = []
    events = size = 0

    def records() -> Iterator[Record]:
        nonlocal events
        for visited in sweep.sweep(paths, Recorder(), where, progress):
            error, record = visited.error, visited.result
            if record is not None and record.illegal is not None:
                index, reason, rule = record.illegal
                because = reason + (f" ({rule})" if rule else "")
                error = f"{visited.name}: event {index} is illegal: {because}"
            if error is not None:
                failed.append({"path": visited.name, "error": error})
                failure(visited.name, error)
                continue
            assert record is not None
            events += record.steps - 1
            yield record

    def counted(data: bytes) -> None:
        nonlocal size
        size += len(data)
        out(data)

    count = write(counted, records())
    return Made(size, count, events, tuple(failed))


def fd_writer(fd: int) -> Callable[[bytes], None]:
    """Write whole byte strings to a file descriptor (for :func:`make`)."""

    def out(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]

    return out
