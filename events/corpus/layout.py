"""Where everything of a corpus is, read from its indexes and trailers alone (no game is read):
each append's span and digest, each part's and each game's offset, the committed end.

Reading the layout checks everything but the records themselves: every index and every trailer
(each append's trailer follows its index, names it and counts the games so far), appends that
follow one another with no byte between them, offsets that strictly increase within an append.
The records are checked by whoever reads them (:mod:`tribes.events.corpus.sealing` checks them
all, and each append's digest).
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, overload

import attrs

from tribes.core.errors import UnsupportedVersion
from tribes.events.corpus.records import (
    APPEND_DIGEST_BYTES,
    FORMAT_NAME,
    INDEX,
    MAGIC,
    MAX_INDEX_BYTES,
    MAX_INDEX_ITEMS,
    MAX_PARTS,
    MAX_TAIL_SEARCH,
    READABLE_VERSIONS,
    SEARCH_BLOCK,
    TRAILER_BYTES,
    TRAILER_MARK,
    Bad,
    CorruptCorpus,
    read_frame,
    trailer_at,
    values,
)


@attrs.frozen
class Tail:
    """Bytes after the last commit: an append that never finished, or a damaged last commit."""

    offset: int
    size: int

    def describe(self) -> str:
        return (
            f"{self.size} bytes after the last commit, at byte {self.offset}: an interrupted "
            "append or a damaged last commit (they are not part of the corpus)"
        )


@attrs.frozen
class Append:
    """One append: its records from ``start`` to its index at ``index``, its trailer ending at
    ``end``; ``games`` before it, ``count`` it adds; ``digest`` its chained digest (empty in
    format version 1)."""

    start: int
    index: int
    end: int
    games: int
    count: int
    parts: tuple[int, ...]
    digest: bytes


class Appends(Sequence[Append]):
    """Every append of a corpus, held compactly (a few arrays: a corpus may have as many appends
    as games), each read as an :class:`Append`."""

    def __init__(self) -> None:
        self._numbers = {name: array("Q") for name in ("start", "index", "end", "games", "count")}
        self._digests = bytearray()
        self._width = 0
        self._parts: dict[int, tuple[int, ...]] = {}

    def add(self, append: Append) -> None:
        """Add an append (the appends are added from the last to the first)."""
        for name, column in self._numbers.items():
            column.append(getattr(append, name))
        self._width = len(append.digest)
        self._digests += append.digest
        if append.parts:
            self._parts[len(self._numbers["start"]) - 1] = append.parts

    def finish(self) -> Appends:
        """The appends in file order (they were added last first)."""
        for column in self._numbers.values():
            column.reverse()
        n, w = len(self), self._width
        for i in range(n // 2):  # in place: a corpus may have as many appends as games
            a, b = slice(i * w, (i + 1) * w), slice((n - 1 - i) * w, (n - i) * w)
            self._digests[a], self._digests[b] = self._digests[b], self._digests[a]
        self._parts = {n - 1 - i: parts for i, parts in self._parts.items()}
        return self

    def __len__(self) -> int:
        return len(self._numbers["start"])

    @overload
    def __getitem__(self, i: int) -> Append: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Append]: ...

    def __getitem__(self, i: int | slice) -> Append | Sequence[Append]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        n = self._numbers
        w = self._width
        return Append(
            n["start"][i],
            n["index"][i],
            n["end"][i],
            n["games"][i],
            n["count"][i],
            self._parts.get(i, ()),
            bytes(self._digests[i * w : (i + 1) * w]),
        )

    @property
    def indexes(self) -> array[int]:
        """The offset of each append's index, in order."""
        return self._numbers["index"]

    @property
    def starts(self) -> array[int]:
        """Where each append starts, in order."""
        return self._numbers["start"]

    @property
    def firsts(self) -> array[int]:
        """The games before each append, in order."""
        return self._numbers["games"]

    @property
    def games(self) -> int:
        """The games of every append."""
        return self._numbers["games"][-1] + self._numbers["count"][-1] if len(self) else 0


class Offsets(Sequence[int]):
    """Every game's offset, in order, read from the corpus's indexes as they are asked for: an
    append's at a time, the last few kept (a sweep asks for them in order). Held whole, they were
    8 bytes a game in every process of a sweep: 8 MB at a million games."""

    KEPT = 4
    """Appends whose offsets are kept."""

    def __init__(self, fd: int, appends: Appends, path: str, version: int) -> None:
        self.fd = fd
        self.appends = appends
        self.path = path
        self.version = version
        self.total = appends.games
        self.kept: dict[int, array[int]] = {}

    def __len__(self) -> int:
        return self.total

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...

    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.total))]
        if i < 0:
            i += self.total
        if not 0 <= i < self.total:
            raise IndexError(i)
        a = bisect_right(self.appends.firsts, i) - 1
        return self.of(a)[i - self.appends.firsts[a]]

    def after(self, at: int) -> int | None:
        """The first game offset after byte ``at`` within the append that holds ``at`` (None
        when none: the append's index comes next)."""
        a = bisect_right(self.appends.starts, at) - 1
        if a < 0:
            return self[0] if self.total else None
        found = self.of(a)
        i = bisect_right(found, at)
        return found[i] if i < len(found) else None

    def of(self, a: int) -> array[int]:
        """The offsets of append ``a``'s games."""
        found = self.kept.get(a)
        if found is None:
            found = self._read(a)
            if len(self.kept) >= self.KEPT:
                del self.kept[next(iter(self.kept))]
            self.kept[a] = found
        return found

    def _read(self, a: int) -> array[int]:
        append = self.appends[a]

        def bad(reason: str) -> CorruptCorpus:
            return CorruptCorpus(reason, path=self.path, record="an index", offset=append.index)

        try:
            payload, _ = frame_at(
                self.fd, append.index, append.index + MAX_INDEX_BYTES + 16, MAX_INDEX_BYTES
            )
            items = values(payload, MAX_INDEX_ITEMS)
        except Bad as exc:
            raise bad(str(exc)) from None
        _, _, _, start, deltas, _ = _index_fields(items, self.version, bad)
        found = _positions(start, deltas, bad)
        if start != append.start or len(found) != append.count:
            raise bad("changed since the corpus was opened")
        return found


@attrs.frozen
class Layout:
    """Where everything of a corpus is: each part's and each game's offset, the committed end."""

    version: int
    first: int
    """Where the first append starts (the end of the corpus header)."""
    parts: dict[int, int]
    offsets: Offsets
    appends: Appends
    end: int
    """The committed size: the end of the last trailer."""
    index: int
    """The offset of the last index (where an append chains on)."""
    tail: Tail | None
    part_starts: tuple[int, ...] = ()
    """The offsets of every header part, in order."""
    index_starts: Sequence[int] = ()
    """The offsets of every index, in order."""

    @property
    def digest(self) -> bytes:
        """The corpus's digest: its last append's (empty in format version 1)."""
        return self.appends[-1].digest if self.appends else b""

    def next_start(self, at: int) -> int:
        """Where the record after the one at ``at`` starts: a game, a part or its index."""
        found = [self.index_starts[bisect_right(self.index_starts, at)]]
        game = self.offsets.after(at)
        if game is not None:
            found.append(game)
        j = bisect_right(self.part_starts, at)
        if j < len(self.part_starts):
            found.append(self.part_starts[j])
        return min(found)

    def game_end(self, k: int) -> int:
        """The byte after game ``k`` (from 0): where the next record starts."""
        return self.next_start(self.offsets[k])


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
    if len(items) != 3 or items[0] != FORMAT_NAME or items[2] != {}:
        raise CorruptCorpus("is not a corpus header", path=path, record="the corpus header")
    if type(items[1]) is not int or items[1] not in READABLE_VERSIONS:
        raise UnsupportedVersion(
            f"corpus format version {ascii(items[1])[:20]} cannot be read; this tribes reads "
            f"versions {', '.join(map(str, READABLE_VERSIONS))}",
            path=path,
        )
    version = items[1]
    end, index_offset, games = _last_commit(fd, size, first, path)
    appends, parts = _walk_indexes(fd, index_offset, games, first, path, version)
    tail = Tail(end, size - end) if end < size else None
    return Layout(
        version=version,
        first=first,
        parts=parts,
        offsets=Offsets(fd, appends, path, version),
        appends=appends,
        end=end,
        index=index_offset,
        tail=tail,
        part_starts=tuple(sorted(parts.values())),
        index_starts=appends.indexes,
    )


def _last_commit(fd: int, size: int, first: int, path: str) -> tuple[int, int, int]:
    """(committed end, offset of the last index, games) from the last valid trailer: the one
    that ends the file, or else the last one found looking back a block at a time."""
    if size - first >= TRAILER_BYTES:
        found = trailer_at(pread(fd, TRAILER_BYTES, size - TRAILER_BYTES), 0)
        if found is not None and _index_ends_at(fd, found[0], size - TRAILER_BYTES, first):
            return size, found[0], found[1]
    low = max(first, size - MAX_TAIL_SEARCH)
    high = size
    while high > low:
        start = max(low, high - SEARCH_BLOCK)
        data = pread(fd, min(size, high + TRAILER_BYTES - 1) - start, start)
        stop = high - start + len(TRAILER_MARK) - 1  # a trailer that starts before ``high``
        while (pos := data.rfind(TRAILER_MARK, 0, stop)) >= 0:
            found = trailer_at(data, pos)
            if found is not None and _index_ends_at(fd, found[0], start + pos, first):
                return start + pos + TRAILER_BYTES, found[0], found[1]
            stop = pos + len(TRAILER_MARK) - 1
        high = start
    raise CorruptCorpus(
        "has no commit: it was never completely written (an interrupted create?)",
        path=path,
        offset=first,
    )


def _index_ends_at(fd: int, offset: int, end: int, first: int) -> bool:
    if not first <= offset < end or end - offset > MAX_INDEX_BYTES + 16:
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
    fd: int, last: int, games: int, first: int, path: str, version: int
) -> tuple[Appends, dict[int, int]]:
    """Every append, from the last index back to the first along each index's link to the one
    before; each checked against its trailer and against the append after it (its games'
    offsets are read again when asked for: :class:`Offsets`)."""
    appends = Appends()
    parts: dict[int, int] = {}
    offset = last
    expected = games
    later_start: int | None = None  # the start of the append after this one
    while True:
        where = "an index"

        def bad(reason: str, at: int = offset, what: str = where) -> CorruptCorpus:
            return CorruptCorpus(reason, path=path, record=what, offset=at)

        try:
            payload, stop = frame_at(fd, offset, offset + MAX_INDEX_BYTES + 16, MAX_INDEX_BYTES)
            items = values(payload, MAX_INDEX_ITEMS)
        except Bad as exc:
            raise bad(str(exc)) from None
        before, previous, made, start, deltas, digest = _index_fields(items, version, bad)
        count = len(deltas)
        if before + count != expected:
            raise bad(f"counts {before} + {count} games, the next one {expected}")
        mark = trailer_at(pread(fd, TRAILER_BYTES, stop), 0)
        if mark != (offset, before + count):
            raise bad(
                "is corrupt: the trailer after it does not name it and the games so far",
                stop,
                "a trailer",
            )
        end = stop + TRAILER_BYTES
        if later_start is not None and later_start != end:
            raise bad(
                f"the append after it starts at byte {later_start}, not where this one ends ({end})"
            )
        starts = _positions(start, deltas, bad)
        if starts and not start <= starts[-1] < offset:
            raise bad("names a game outside its append")
        mine = {at for _, at in made}
        for number, at in made:
            if not start <= at < offset or number in parts or at in parts.values():
                raise bad("names a bad part")
            parts[number] = at
        if len(mine) != len(made) or any(_has(starts, at) for at in mine):
            raise bad("names a part where a game is")
        lowest = min([*(starts[:1]), *mine], default=offset)
        if lowest != start:
            raise bad(
                f"says its append starts at byte {start}, but its first record is at {lowest}"
            )
        appends.add(Append(start, offset, end, before, count, tuple(n for n, _ in made), digest))
        expected = before
        later_start = start
        if previous == 0:
            break
        if not first <= previous < start:
            raise bad("names a previous index that is not before it")
        offset = previous
    if expected != 0:
        raise CorruptCorpus(
            f"the first index counts {expected} games before it",
            path=path,
            record="an index",
            offset=offset,
        )
    if later_start != first:
        raise CorruptCorpus(
            f"the first append starts at byte {later_start}, not after the corpus header ({first})",
            path=path,
            record="an index",
            offset=offset,
        )
    if sorted(parts) != list(range(len(parts))):
        raise CorruptCorpus("its header parts are not numbered from 0 in order", path=path)
    return appends.finish(), parts


def _positions(start: int, deltas: list[int], bad: Any) -> array[int]:
    """The offsets of an append's games from its index's start and deltas."""
    starts = array("Q")
    pos = start
    for i, delta in enumerate(deltas):
        if delta <= 0 and i:
            raise bad("names games whose offsets do not strictly increase")
        pos += delta
        starts.append(pos)
    return starts


def _has(starts: array[int], at: int) -> bool:
    i = bisect_right(starts, at)
    return i > 0 and starts[i - 1] == at


def _index_fields(
    items: list[Any], version: int, bad: Any
) -> tuple[int, int, list[Any], int, list[int], bytes]:
    size = 6 if version == 1 else 7
    ok = (
        len(items) == size
        and items[0] == INDEX
        and all(type(items[i]) is int and items[i] >= 0 for i in (1, 2, 4))
        and isinstance(items[3], list)
        and len(items[3]) <= MAX_PARTS
        and all(
            isinstance(p, list) and len(p) == 2 and all(type(x) is int and x >= 0 for x in p)
            for p in items[3]
        )
        and isinstance(items[5], list)
        and all(type(d) is int and d >= 0 for d in items[5])
        and (version == 1 or (type(items[6]) is bytes and len(items[6]) == APPEND_DIGEST_BYTES))
    )
    if not ok:
        raise bad("is malformed")
    digest = items[6] if version >= 2 else b""
    return items[1], items[2], items[3], items[4], items[5], digest
