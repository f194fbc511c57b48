"""The corpus file (``.corpus``): many game logs in one append-only file, with an index.

Layout (corpus format version 3)::

    MAGIC  frame(corpus header)  append  append ...
    append  = { frame(part) | frame(game) } ...  frame(index)  trailer

    frame   = uvarint(len(payload))  payload  CRC-32 of the payload (4 bytes, big-endian)
    corpus header = msgpack ["tribes-corpus", 3, {}]
    part    = msgpack [1, number, header data without the seed, shared annex or nil,
                       parts' names of its games' first checkpoints or nil]
    game    = msgpack [2, part number, seed, [[tag, fields...], ...], digest (12 bytes),
                       annex or nil, [checkpoint, ...]]
    checkpoint = [events, rules version, state digest (8 bytes), parts' digests,
                  parts' names or nil (those of the one before; the first's: its part's),
                  [scores, winners]]
                                                   (the last two left out when nil)
    annex   = [[[at, tag name or event index, text or nil], ...],    (its tags and notes)
               [[events, annotations], ...] or nil,                  (where its appends ended)
               nil]                        (version 2: where its checkpoints were, or nil)
    index   = msgpack [3, games before this append, offset of the previous index (0: none),
                       [[part number, offset], ...], offset of the append's first record,
                       [offset of each game, as a delta from the one before (the first from
                       the append's first record)], append digest (16 bytes)]
    trailer = "TRCI"  offset of the index (8 bytes)  games in the corpus (4 bytes)
              CRC-32 of those 16 bytes (4 bytes)                        (20 bytes, big-endian)

Version 2 (still read) recorded no checkpoints: its parts were 4 values, its games 6, their
digest covered
the state hash after the last event (so an altered game and one written under other rules
could not be told apart), their annex named where their log's checkpoints were. Version 1
(still read) had no annexes and no append digest either: its parts were 3 values, its games
5, its indexes 6.

- **Shared header parts.** What the headers of many games have in common (game, rules version,
  seats, options, position, metadata such as which bot played which seat, schema versions) is a
  *part*, stored once; a game names its part and adds its own seed. Tags set at the start that
  many games share (``simulate --save DIR`` tags its logs with their bots) live in the part too.
- **A game** is its events in the log format's wire form (tag, then fields), its annex (its
  tags and notes, and where its log's appends and checkpoints were when they are not where a new
  log has them: nil when it has none of these), its checkpoints as its log recorded them (the
  log format's version 3: rules version, state digest, each part's digest, outcome) and a
  digest: BLAKE2b over its whole header (part and seed), its events, its annex and its
  checkpoints as recorded (:func:`game_digest_v3`): bytes only, so whether a game is intact
  never depends on the rules reading it. Its CRC finds a flipped bit, the digest a changed
  header, event or checkpoint; replaying it and comparing its checkpoints says whether the
  running rules give the states it recorded (a separate question).
- **Appends and commits.** An append writes records, then an index of what it added, then the
  trailer; the trailer is the commit. The index holds the append's digest, chained: over the
  digest of the append before, every record of this one in order, and the game counts
  (:class:`AppendDigest`). So a game swapped, dropped or duplicated, an append dropped, even
  with every index and CRC rebuilt, changes a digest. A corpus is what it holds up to its last
  trailer; bytes after it are the *tail* (an interrupted append, or a damaged last commit),
  named by byte offset, never part of the corpus; earlier bytes are never rewritten.
- **No byte unchecked.** Appends follow one another with no byte between them (each starts
  where the trailer before it ends); records follow one another with no byte between them (each
  ends exactly where the next starts, the last where its index starts); offsets strictly
  increase; every index is followed by its own trailer.
- **Random access.** The last trailer gives the last index; each index names the one before: the
  offsets of every game are known without reading any game, and game ``k`` is one read.

Everything read is untrusted: lengths are bounded, offsets checked against the file, chains of
indexes must go strictly backwards; every problem is a :class:`CorruptCorpus` naming the game
(or record) and its byte offset.
"""

from __future__ import annotations

from collections.abc import Iterator

from tribes.events.corpus.layout import Append, Layout, Tail, frame_at, pread, read_layout
from tribes.events.corpus.records import (
    APPEND_DIGEST_BYTES,
    DIGEST_BYTES,
    FORMAT_NAME,
    FORMAT_VERSION,
    GAME,
    INDEX,
    MAGIC,
    MAX_EVENTS,
    MAX_GAMES,
    MAX_INDEX_BYTES,
    MAX_PARTS,
    MAX_RECORD_BYTES,
    MAX_TAIL_SEARCH,
    NO_DIGEST,
    PART,
    READABLE_VERSIONS,
    SUFFIX,
    TRAILER,
    TRAILER_BYTES,
    TRAILER_MARK,
    AppendDigest,
    Bad,
    CorruptCorpus,
    RawGame,
    annex_problem,
    corpus_header,
    first_names,
    frame,
    game_digest,
    game_digest_v3,
    game_record,
    index_record,
    pack_events,
    pack_marks,
    part_bytes,
    part_record,
    read_exact_frame,
    read_frame,
    read_game,
    read_marks,
    read_part,
    starts_a_corpus,
    trailer,
    trailer_at,
    values,
)
from tribes.events.corpus.sealing import check_records

__all__ = [
    "APPEND_DIGEST_BYTES",
    "DIGEST_BYTES",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "GAME",
    "INDEX",
    "MAGIC",
    "MAX_EVENTS",
    "MAX_GAMES",
    "MAX_INDEX_BYTES",
    "MAX_PARTS",
    "MAX_RECORD_BYTES",
    "MAX_TAIL_SEARCH",
    "NO_DIGEST",
    "PART",
    "READABLE_VERSIONS",
    "SUFFIX",
    "TRAILER",
    "TRAILER_BYTES",
    "TRAILER_MARK",
    "Append",
    "AppendDigest",
    "Bad",
    "CorruptCorpus",
    "Layout",
    "RawGame",
    "Tail",
    "annex_problem",
    "check_records",
    "corpus_header",
    "first_names",
    "frame",
    "frame_at",
    "game_digest",
    "game_digest_v3",
    "game_record",
    "index_record",
    "iter_ranges",
    "pack_events",
    "pack_marks",
    "part_bytes",
    "part_record",
    "pread",
    "read_exact_frame",
    "read_frame",
    "read_game",
    "read_layout",
    "read_marks",
    "read_part",
    "starts_a_corpus",
    "trailer",
    "trailer_at",
    "values",
]


def iter_ranges(count: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, count, size):
        yield start, min(count, start + size)
