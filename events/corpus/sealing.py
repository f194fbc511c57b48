"""Every byte of a corpus checked: each record of each append read in order, its CRC checked, its
frame ending exactly where the next record starts, and (format version 2) each append's chained
digest recomputed from its records and the digest before it.

This is what ``verify`` adds to checking each game: it finds what no game's own check can, a game
swapped, dropped, duplicated or moved with the index rebuilt to match, bytes hidden between
records, an earlier append dropped. It reads the corpus once, a window at a time (memory stays
bounded whatever its size).
"""

from __future__ import annotations

from collections.abc import Iterator

from tribes.events.corpus.layout import Append, Layout, pread
from tribes.events.corpus.records import (
    MAX_RECORD_BYTES,
    NO_DIGEST,
    AppendDigest,
    Bad,
    CorruptCorpus,
    read_exact_frame,
)

WINDOW = 4 << 20
"""The bytes read at once."""


def check_records(fd: int, layout: Layout, path: str) -> Iterator[CorruptCorpus]:
    """Every problem of the corpus's records and appends, in order: a damaged record (``game``
    set when it is a game's, which that game's own check names too), an append whose digest
    does not match. An append with a damaged record has its digest left unchecked (its damage is
    named already); the chain goes on from the digest it holds."""
    previous = NO_DIGEST
    for number, append in enumerate(layout.appends, start=1):
        running = AppendDigest(previous)
        damaged = False
        for found in _records(fd, layout, append, path):
            if isinstance(found, CorruptCorpus):
                damaged = True
                yield found
            else:
                running.add(found)
        chained = layout.version >= 2 and not damaged
        if chained and running.finish(append.games, append.count) != append.digest:
            yield CorruptCorpus(
                "its digest does not match the records before it (games or appends "
                "reordered, dropped, added or altered since it was written)",
                path=path,
                record=f"append {number}",
                offset=append.index,
            )
        previous = append.digest


def _records(fd: int, layout: Layout, append: Append, path: str) -> Iterator[bytes | CorruptCorpus]:
    """The payload of every record of ``append``, in order, or the problem of a damaged one;
    read a window at a time, with nothing held per game but what the layout holds."""
    spans = _spans(layout, append)
    window: list[tuple[int, int, str]] = []
    for span in spans:
        if window and span[1] - window[0][0] > WINDOW:
            yield from _window(fd, window, path)
            window = []
        window.append(span)
    if window:
        yield from _window(fd, window, path)


def _spans(layout: Layout, append: Append) -> Iterator[tuple[int, int, str]]:
    """``(start, end, what)`` of each record of the append, in order: its games and parts
    merged by offset, each ending where the next starts (the last where the index starts)."""
    parts = sorted((layout.parts[n], n) for n in append.parts)
    games = layout.offsets[append.games : append.games + append.count]
    i = j = 0
    previous: tuple[int, str] | None = None
    while i < len(games) or j < len(parts):
        if j < len(parts) and (i >= len(games) or parts[j][0] < games[i]):
            current = (parts[j][0], f"header part {parts[j][1]}")
            j += 1
        else:
            current = (games[i], f"game {append.games + i + 1}")
            i += 1
        if previous is not None:
            yield previous[0], current[0], previous[1]
        previous = current
    if previous is not None:
        yield previous[0], append.index, previous[1]


def _window(
    fd: int, spans: list[tuple[int, int, str]], path: str
) -> Iterator[bytes | CorruptCorpus]:
    base = spans[0][0]
    data = pread(fd, min(spans[-1][1] - base, WINDOW + MAX_RECORD_BYTES + 16), base)
    for at, end, what in spans:
        try:
            if end - at > MAX_RECORD_BYTES + 16:
                raise Bad(f"is corrupt: it spans {end - at} bytes")
            yield read_exact_frame(data, at - base, end - base, MAX_RECORD_BYTES)
        except Bad as exc:
            if what.startswith("game "):
                yield CorruptCorpus(str(exc), path=path, game=int(what[5:]), offset=at)
            else:
                yield CorruptCorpus(str(exc), path=path, record=what, offset=at)
