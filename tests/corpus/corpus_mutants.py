"""Mutated corpora, seeded: what the fuzz test of the suite and ``bench/corpus_fuzz.py`` feed to
``verify``.

A corpus is taken apart into its header and appends (each a list of records, its index's digest)
and put together again with every index, offset, CRC and trailer rebuilt to match, so that a
mutant is what a careful hostile editor makes: games swapped, duplicated, dropped or moved,
appends dropped or swapped, bytes hidden between records, digests forged, index and trailer
values changed with their CRCs recomputed. Besides those: a cut at every offset, a flipped bit in
every byte, bytes inserted and deleted.

:func:`judge` says what ``verify`` made of a mutant: ``refused`` (a non-zero exit), ``same`` (ok,
and every game reads back exactly as in the original), ``silent`` (ok, and something differs:
the failure this hunts), ``crash`` (an exception that is no TribesError).
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from tribes import games
from tribes.core.errors import TribesError
from tribes.events import codec
from tribes.events import corpus as fmt
from tribes.events.logfile import Annotation, GameLog
from tribes.replay import batch, corpus, logs
from tribes.replay.parallel import Where

GAME = games.get("clans")


def small_log(seed: int, moves: int, notes: bool) -> GameLog:
    """A Clans game of ``moves`` moves (short: verify stays fast), with a tag at the start and,
    with ``notes``, a note on an event and a tag set at the end."""
    head = logs.header(GAME, seats=["ann", "bob"], seed=seed, meta={"by": "fuzz"})
    state = GAME.setup(head)
    events = []
    for i in range(moves):
        legal = GAME.legal_moves(state)
        if not legal:
            break
        move = legal[(seed * 7 + i) % len(legal)]
        state, _ = GAME.apply(state, move)
        events.append(move)
    marks = [Annotation(0, "event", "fuzz cup")]
    if notes and events:
        marks += [Annotation(1, 1, "a first move\nto note"), Annotation(len(events), "result", "?")]
    return GameLog(header=head, events=tuple(events), annotations=tuple(marks))


def commits_of(groups: tuple[int, ...]) -> tuple[int, ...]:
    """The games a corpus of appends of ``groups`` games held at each commit."""
    return tuple(sum(groups[:i]) for i in range(len(groups) + 1))


def original(path: Path, groups: tuple[int, ...] = (2, 3, 1)) -> list[GameLog]:
    """A corpus of small games in ``len(groups)`` appends of that many games each; its games
    as ``corpus get`` gives them back."""
    seed = 1
    with corpus.Writer(path, new=True, force=True) as writer:
        for size in groups:
            for _ in range(size):
                writer.add_encoded(
                    corpus.encode_game(GAME, small_log(seed, 3 + seed % 5, notes=seed % 2 == 0))
                )
                seed += 1
            writer.commit()
    return content(path)


def content(path: Path) -> list[GameLog]:
    with corpus.Corpus(path) as read:
        return [read.file_log(k)[1] for k in range(len(read))]


# --- taking a corpus apart and putting it together ----------------------------------------------


@attrs.define
class Record:
    kind: int
    """fmt.PART or fmt.GAME."""
    payload: bytes
    number: int = -1
    """A part's number."""
    gap: bytes = b""
    """Bytes hidden after the record (the offsets made to skip them)."""


@attrs.define
class Piece:
    """One append: its records and the digest its index holds."""

    records: list[Record]
    digest: bytes


def parse(data: bytes, path: Path) -> tuple[bytes, list[Piece]]:
    """The bytes before the first append, and the appends."""
    path.write_bytes(data)
    with corpus.Corpus(path) as read:
        layout = read.layout
        pieces = []
        for append in layout.appends:
            starts = sorted(
                [layout.offsets[k] for k in range(append.games, append.games + append.count)]
                + [layout.parts[n] for n in append.parts]
            )
            parts = {layout.parts[n]: n for n in append.parts}
            records = []
            for at in starts:
                payload, _ = fmt.read_frame(data, at, len(data), fmt.MAX_RECORD_BYTES)
                kind = fmt.PART if at in parts else fmt.GAME
                records.append(Record(kind, payload, parts.get(at, -1)))
            pieces.append(Piece(records, append.digest))
        return data[: layout.first], pieces


def build(head: bytes, pieces: list[Piece], index_hook: Any = None) -> bytes:
    """A corpus of these appends, every index and trailer made to match them (their digests as
    the pieces hold them); ``index_hook(i, fields)`` may change the fields of index ``i``."""
    out = bytearray(head)
    games = 0
    previous = 0
    for i, piece in enumerate(pieces):
        start = len(out)
        parts, offsets = [], []
        for record in piece.records:
            if record.kind == fmt.PART:
                parts.append((record.number, len(out)))
            else:
                offsets.append(len(out))
            out += fmt.frame(record.payload) + record.gap
        deltas = [b - a for a, b in zip([start, *offsets], offsets, strict=False)]
        fields: list[Any] = [fmt.INDEX, games, previous, [list(p) for p in parts], start, deltas]
        fields.append(piece.digest)
        if index_hook is not None:
            index_hook(i, fields)
        index_at = len(out)
        out += fmt.frame(codec.pack(fields))
        games += len(offsets)
        out += fmt.trailer(index_at, games)
        previous = index_at
    return bytes(out)


def _games(piece: Piece) -> list[int]:
    return [i for i, r in enumerate(piece.records) if r.kind == fmt.GAME]


# --- mutants --------------------------------------------------------------------------------------

KINDS = (
    "swap games",
    "duplicate game",
    "drop game",
    "move game",
    "drop append",
    "swap appends",
    "hidden bytes",
    "forged digest",
    "index value",
    "trailer value",
    "insert bytes",
    "delete bytes",
)


def edited(data: bytes, kind: str, rng: random.Random, scratch: Path) -> bytes:
    """One mutant of ``kind`` (one of KINDS)."""
    head, pieces = parse(data, scratch)
    games = [(p, g) for p, piece in enumerate(pieces) for g in _games(piece)]
    if kind == "swap games":
        (p1, g1), (p2, g2) = rng.sample(games, 2)
        a, b = pieces[p1].records[g1], pieces[p2].records[g2]
        pieces[p1].records[g1], pieces[p2].records[g2] = b, a
    elif kind == "duplicate game":
        p, g = rng.choice(games)
        q = rng.randrange(len(pieces))
        pieces[q].records.insert(rng.randrange(len(pieces[q].records) + 1), pieces[p].records[g])
    elif kind == "drop game":
        p, g = rng.choice(games)
        del pieces[p].records[g]
    elif kind == "move game":
        p, g = rng.choice(games)
        record = pieces[p].records.pop(g)
        q = rng.randrange(len(pieces))
        pieces[q].records.insert(rng.randrange(len(pieces[q].records) + 1), record)
    elif kind == "drop append":
        del pieces[rng.randrange(len(pieces))]
    elif kind == "swap appends":
        i, j = rng.sample(range(len(pieces)), 2)
        pieces[i], pieces[j] = pieces[j], pieces[i]
    elif kind == "hidden bytes":
        piece = rng.choice([p for p in pieces if p.records])
        record = rng.choice(piece.records)
        record.gap = bytes(rng.randrange(256) for _ in range(rng.choice((1, 4, 48))))
    elif kind == "forged digest":
        i = rng.randrange(len(pieces))
        choice = rng.randrange(3)
        if choice == 0:
            pieces[i].digest = bytes(rng.randrange(256) for _ in range(16))
        elif choice == 1:
            pieces[i].digest = fmt.NO_DIGEST
        else:
            pieces[i].digest = pieces[(i + 1) % len(pieces)].digest
    elif kind == "index value":
        target = rng.randrange(len(pieces))
        slot = rng.choice((1, 2, 4, 5, 3))
        change = rng.choice((-1, 1, 2, -5, 40, 1 << 20, 1 << 40))

        def hook(i: int, fields: list[Any]) -> None:
            if i != target:
                return
            if slot == 5:
                deltas = fields[5]
                if deltas:
                    k = rng.randrange(len(deltas))
                    deltas[k] = max(0, deltas[k] + change) if rng.random() < 0.7 else 0
                else:
                    deltas.append(max(0, change))
            elif slot == 3:
                if fields[3]:
                    fields[3][0][rng.randrange(2)] = max(0, fields[3][0][1] + change)
                else:
                    fields[3].append([0, max(0, change)])
            else:
                fields[slot] = max(0, fields[slot] + change)

        return build(head, pieces, hook)
    elif kind == "trailer value":
        out = bytearray(build(head, pieces))
        at = rng.choice([m.start() for m in re.finditer(re.escape(fmt.TRAILER_MARK), out)])
        mark, offset, count, _ = fmt.TRAILER.unpack_from(out, at)
        if rng.random() < 0.5:
            offset = max(0, offset + rng.choice((-1, 1, -7, 1 << 30)))
        else:
            count = max(0, count + rng.choice((-1, 1, 1000)))
        fmt.TRAILER.pack_into(out, at, mark, offset, count, 0)
        out[at + 16 : at + 20] = zlib.crc32(bytes(out[at : at + 16])).to_bytes(4, "big")
        return bytes(out)
    elif kind == "insert bytes":
        at = rng.randrange(len(data) + 1)
        return data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 30))) + data[at:]
    elif kind == "delete bytes":
        at = rng.randrange(len(data))
        return data[:at] + data[at + rng.randint(1, 30) :]
    return build(head, pieces)


def every_cut(data: bytes) -> Iterator[tuple[str, bytes]]:
    for size in range(len(data)):
        yield "cut", data[:size]


def every_flip(data: bytes, rng: random.Random) -> Iterator[tuple[str, bytes]]:
    for at in range(len(data)):
        flipped = bytearray(data)
        flipped[at] ^= 1 << rng.randrange(8)
        yield "bit flip", bytes(flipped)


def judge(path: Path, expected: list[GameLog], commits: tuple[int, ...] = ()) -> str:
    """What verify made of the corpus at ``path``: refused, same, prefix (ok, and it holds the
    games of the original at one of its earlier ``commits``, game counts: a corpus cut cleanly
    at a commit is that earlier corpus, its digest the one verify printed then), silent or
    crash."""
    lines: list[str] = []
    try:
        totals = batch.verify([path], Where(), lines.append)
    except TribesError:
        return "refused"
    except Exception as exc:  # a traceback the CLI would print
        return f"crash: {type(exc).__name__}: {exc}"
    if totals.failed or totals.failed_inputs:
        if not any(line.startswith("FAIL") and str(path) in line for line in lines):
            return "crash: a failure without a FAIL line naming the corpus"
        return "refused"
    try:
        found = content(path)
    except TribesError as exc:
        return f"silent: verify ok, reading fails: {exc.message}"
    if found == expected:
        return "same"
    if len(found) in commits and found == expected[: len(found)]:
        return "prefix"
    return "silent"
