"""A keyed, counter-based pseudo-random generator, portable across machines and Python versions.

Why counter-based: a draw depends only on ``(seed, stream, index)``, never on how many draws were
made elsewhere. Fixing one rule, or adding a draw in one stream, leaves every other draw of an old
log where it was.

Algorithm (version 1), all integers big-endian:

- the stream key is ``BLAKE2b(b"tribes-prng-1" + 0x00 + str(seed) + 0x00 + stream, 32 bytes)``,
  where seed and stream are UTF-8 text;
- block ``b`` of the stream is ``BLAKE2b(b as 8 bytes, key=stream key, 64 bytes)``, and word ``i``
  is the 64-bit integer in bytes ``8 * (i mod 8)`` to ``8 * (i mod 8) + 8`` of block ``i div 8``
  (eight words per hash: the same numbers for any order of access, at an eighth of the cost);
- ``below(n)`` draws words in order and keeps the first ``w < n * floor(2**64 / n)``, returning
  ``w mod n`` (rejection sampling, so every value is exactly equally likely);
- ``shuffle`` is Fisher-Yates from the last position down, position ``i`` swapping with
  ``below(i + 1)``.

BLAKE2b comes with every Python (hashlib's, :mod:`tribes.core.blake2`), so the same numbers
come out everywhere.

Games draw through :class:`Chance` (a header's ``chance``), never from a seed by hand.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import TypeVar

from tribes.core.blake2 import blake2b

T = TypeVar("T")

_WORD_RANGE = 1 << 64
_EIGHT_WORDS = struct.Struct(">8Q")
"""A block as its eight words, big-endian."""


def stream_key(seed: int | str, stream: str) -> bytes:
    """The key of one named stream of one seed."""
    material = b"tribes-prng-1\x00" + str(seed).encode() + b"\x00" + stream.encode()
    return blake2b(material, digest_size=32).digest()


def block(key: bytes, number: int) -> bytes:
    """The 64-byte block ``number`` of the stream with ``key``: words ``8 * number`` onwards."""
    return blake2b(number.to_bytes(8, "big"), key=key, digest_size=64).digest()


def word(key: bytes, index: int) -> int:
    """The 64-bit word at ``index`` of the stream with ``key``."""
    offset = 8 * (index % 8)
    return int.from_bytes(block(key, index // 8)[offset : offset + 8], "big")


class Stream:
    """A cursor over one stream: successive draws take successive words.

    A ``Stream`` is a local helper: create it where the draws happen, from the seed and a name that
    says what it is for (``"setup"``, ``"reshuffle-2"``); never keep one in a game state.
    """

    __slots__ = ("_block_number", "_key", "_words", "index")

    def __init__(self, seed: int | str, name: str, start: int = 0) -> None:
        self._key = stream_key(seed, name)
        self.index = start
        self._block_number = -1
        self._words: tuple[int, ...] = ()

    def next_word(self) -> int:
        index = self.index
        number = index >> 3
        if number != self._block_number:
            self._words = _EIGHT_WORDS.unpack(block(self._key, number))
            self._block_number = number
        self.index = index + 1
        return self._words[index & 7]

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if not 0 < n <= _WORD_RANGE:
            raise ValueError(f"below() takes a bound from 1 to 2**64, got {n}")
        limit = _WORD_RANGE - _WORD_RANGE % n
        while True:
            value = self.next_word()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """A new tuple with the items in a uniformly random order (``below(i + 1)`` for each
        position ``i`` from the last down, inlined: a game's setup shuffles every stack)."""
        out = list(items)
        key, index, number, words = self._key, self.index, self._block_number, self._words
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            limit = _WORD_RANGE - _WORD_RANGE % n
            while True:
                if index >> 3 != number:
                    number = index >> 3
                    words = _EIGHT_WORDS.unpack(block(key, number))
                value = words[index & 7]
                index += 1
                if value < limit:
                    break
            j = value % n
            out[i], out[j] = out[j], out[i]
        self.index, self._block_number, self._words = index, number, words
        return tuple(out)


class Chance:
    """Chance as the contract hands it to a game: draws from named streams of one log's seed
    (``header.chance``). A game names what a draw is for (``"huts"``, ``"land"``,
    ``"reshuffle-1"``) and asks for it; it does not build streams from the seed itself, so every
    game's draws are made the same way, and a draw depends on its stream's name alone.

    A plain class, not attrs: this module is imported before attrs is needed (process start)."""

    __slots__ = ("_seed",)

    def __init__(self, seed: int) -> None:
        self._seed = seed

    @property
    def seed(self) -> int:
        return self._seed

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chance) and other._seed == self._seed

    def __hash__(self) -> int:
        return hash((Chance, self._seed))

    def __repr__(self) -> str:
        return f"Chance({self._seed!r})"

    def stream(self, name: str, start: int = 0) -> Stream:
        """A cursor over stream ``name`` from word ``start``: for draws one after another."""
        return Stream(self.seed, name, start)

    def below(self, name: str, n: int) -> int:
        """The first draw of stream ``name``: a uniform integer in ``[0, n)``."""
        return Stream(self.seed, name).below(n)

    def shuffled(self, name: str, items: Sequence[T]) -> tuple[T, ...]:
        """``items`` in the order stream ``name`` shuffles them."""
        return Stream(self.seed, name).shuffled(items)
