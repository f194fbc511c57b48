"""Baseline files taken apart, changed and sealed again (their digest recomputed, so that what
is checked is each field, not the digest): for the tests of hostile baselines and for
``bench/baseline_fuzz.py``."""

from __future__ import annotations

import bz2
import copy
import random
from typing import Any

import msgpack

from tribes.core.blake2 import blake2b
from tribes.replay.baseline import DIGEST, GAMES, UNIT


def values(data: bytes) -> list[Any]:
    """Every msgpack value of a baseline file (its digest left off)."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=len(data) + 1)
    unpacker.feed(data[:-DIGEST])
    return list(unpacker)


def seal(items: list[Any]) -> bytes:
    """A baseline file of ``items``, with its digest."""
    body = b"".join(msgpack.packb(v, use_bin_type=True) for v in items)
    return body + blake2b(body, digest_size=DIGEST).digest()


def records(items: list[Any]) -> list[int]:
    """Where the game records are among ``items``."""
    return [i for i, v in enumerate(items) if isinstance(v, list) and v and isinstance(v[0], int)]


def blocks(items: list[Any]) -> list[int]:
    return [i for i, v in enumerate(items) if isinstance(v, list) and v[:1] == ["effects"]]


def without_words(data: bytes) -> bytes:
    """The same baseline in format version 2 (no words; its digests of the states' identity, as
    version 3's: version 1 digested their full form)."""
    items = values(data)
    items[0] = {**items[0], "version": 2}
    return seal([v for i, v in enumerate(items) if i not in blocks(items)])


def words(block: list[Any]) -> list[list[list[Any]]]:
    """The words of an effects block: per game, per event [number after the last, texts...]."""
    data = block[2]
    games = (bz2.decompress(data) if data.startswith(b"BZh") else data).decode().split(GAMES)
    return [
        [[int(line.split("\t")[0]), *line.split("\t")[1].split(UNIT)] for line in g.split("\n")]
        if g
        else []
        for g in games
    ]


def with_words(block: list[Any], games: list[list[list[Any]]]) -> list[Any]:
    text = GAMES.join("\n".join(f"{e[0]}\t{UNIT.join(map(str, e[1:]))}" for e in g) for g in games)
    return [block[0], block[1], bz2.compress(text.encode())]


FIELDS = ("k", "game", "rules", "log_id", "over", "winners", "scores", "digests")

HOSTILE: dict[str, list[Any]] = {
    "k": [-1, 0, 2**40, "1", None, True, 1.5],
    "game": ["iwari", "hunters", "zzz", "__class__", "", "dice", 5, None, "clans\n", "x" * 5000],
    "rules": [-1, 2**40, "1", None, True, 1.0],
    "log_id": [b"", b"\x00" * 7, b"\x00" * 9, "abcdefgh", None, b"\xff" * 8],
    "over": [None, 0, 1, "true", []],
    "winners": [[-20], [-1], [99], [0, 0], [1, 0], ["x"], [True], None, [2**40], [0] * 40],
    "scores": [[], [1], [0] * 17, ["1", 2, 3], None, [2**40, 0, 0], [1.5, 0, 0], [0] * 9],
    "digests": [b"", b"\x00", b"\x00" * 3, "ab", None, b"\x00" * 400_000],
}
"""Values a field of a record should never take (or takes to tell another game)."""

KINDS = (
    "field",
    "digest byte",
    "digest cut",
    "score",
    "winner",
    "header",
    "words text",
    "words event",
    "words damaged",
    "drop record",
    "swap records",
    "duplicate record",
    "drop block",
    "end count",
    "raw flip",
    "raw cut",
    "raw insert",
)


_BOMBS: list[bytes] = []


def _bomb() -> bytes:
    """Words that unpack to more than a reader takes (64 MB of zeros, 50 bytes bz2)."""
    if not _BOMBS:
        _BOMBS.append(bz2.compress(b"\x00" * (1 << 26)))
    return _BOMBS[0]


def mutate(data: bytes, kind: str, rng: random.Random) -> bytes:
    """A mutant of ``kind``: raw kinds change bytes (the digest then refuses the file); the
    others change one value and seal the file again."""
    if kind == "raw flip":
        out = bytearray(data)
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return bytes(out)
    if kind == "raw cut":
        return data[: rng.randrange(len(data))]
    if kind == "raw insert":
        at = rng.randrange(len(data) + 1)
        return data[:at] + bytes([rng.randrange(256)]) + data[at:]
    items = copy.deepcopy(values(data))
    games = records(items)
    at = rng.choice(games)
    record = items[at]
    if kind == "field":
        field = rng.randrange(len(FIELDS))
        record[field] = rng.choice(HOSTILE[FIELDS[field]])
    elif kind == "digest byte":
        digests = bytearray(record[7])
        digests[rng.randrange(len(digests))] ^= 1 << rng.randrange(8)
        record[7] = bytes(digests)
    elif kind == "digest cut":
        record[7] = record[7][: -2 * rng.randint(1, 3)] or record[7] + b"\x00\x00"
    elif kind == "score":
        seat = rng.randrange(len(record[6]))
        record[6][seat] += rng.choice([-1, 1, 100])
    elif kind == "winner":
        seats = len(record[6])
        record[5] = sorted(rng.sample(range(seats), rng.randint(0, seats)))
        record[4] = bool(record[5]) or rng.random() < 0.5
    elif kind == "header":
        head = items[0]
        key = rng.choice(["format", "version", "width", "extra"])
        head[key] = rng.choice([None, 0, 1, 3, True, "2", "tribes-log", [], 2.0])
    elif kind.startswith("words"):
        block_at = rng.choice(blocks(items))
        said = words(items[block_at])
        if kind == "words damaged":
            options: list[Any] = [
                [block_at, b"not bz2"],
                [block_at, bz2.compress(b"\xc1")],
                [block_at, _bomb()],
                [block_at, with_words(items[block_at], said[:-1])[2]],
                [block_at, with_words(items[block_at], [*said, []])[2]],
                [block_at, bz2.compress(b"1\tx\xff")],
                [block_at, b"1\tx\xff"],
                [block_at, b"BZh9"],
                [block_at, bz2.compress(b"1\tx\n\x1e\x1e")],
            ]
            _, blob = rng.choice(options)
            items[block_at] = [items[block_at][0], items[block_at][1], blob]
        else:
            game = rng.choice([g for g in said if g] or said)
            if not game:
                game.append([1, "a village"])
            else:
                entry = rng.choice(game)
                if kind == "words text":
                    entry[rng.randrange(1, len(entry))] = rng.choice(
                        ["", "x", 5, None, "é" * 5000, "a\tb", "a\nb", "\x1e", "\u202e"]
                    )
                else:
                    entry[0] = rng.choice([0, -1, entry[0] + 1, 100_000, "1", None, "²", "١", "+1"])
            items[block_at] = with_words(items[block_at], said)
    elif kind == "drop record":
        del items[at]
    elif kind == "swap records":
        other = rng.choice(games)
        items[at], items[other] = items[other], items[at]
    elif kind == "duplicate record":
        items.insert(at, copy.deepcopy(record))
    elif kind == "drop block":
        del items[rng.choice(blocks(items))]
    elif kind == "end count":
        items[-1] = ["end", items[-1][1] + rng.choice([-1, 1])]
    else:
        raise ValueError(kind)
    return seal(items)
