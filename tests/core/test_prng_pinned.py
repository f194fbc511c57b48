"""The PRNG's outputs are part of the log format: old logs replay only while they stay the same."""

from __future__ import annotations

import hashlib

import pytest

from tribes.core.header import Header
from tribes.core.prng import Chance, Stream, stream_key, word


def test_words_are_pinned() -> None:
    stream = Stream(42, "setup")
    assert [stream.next_word() for _ in range(3)] == PINNED_WORDS


def test_words_follow_the_documented_algorithm() -> None:
    """Written from the module's docstring, not its code: key, blocks of 64 bytes, 8 words each."""
    key = hashlib.blake2b(
        b"tribes-prng-1\x00" + b"42" + b"\x00" + b"setup", digest_size=32
    ).digest()
    block1 = hashlib.blake2b((1).to_bytes(8, "big"), key=key, digest_size=64).digest()
    stream = Stream(42, "setup")
    words = [stream.next_word() for _ in range(10)]
    assert words[9] == int.from_bytes(block1[8:16], "big")


def test_a_draw_depends_only_on_seed_stream_and_index() -> None:
    key = stream_key(42, "setup")
    stream = Stream(42, "setup")
    words = [stream.next_word() for _ in range(20)]
    assert [word(key, i) for i in reversed(range(20))] == list(reversed(words))
    assert Stream(42, "setup", start=17).next_word() == words[17]
    assert Stream(43, "setup").next_word() != words[0]
    assert Stream(42, "other").next_word() != words[0]


def test_shuffle_is_pinned_and_a_permutation() -> None:
    shuffled = Stream(7, "deck").shuffled(range(10))
    assert shuffled == PINNED_SHUFFLE
    assert sorted(shuffled) == list(range(10))


def test_below_stays_in_range_and_refuses_nothing_to_draw() -> None:
    stream = Stream(1, "x")
    assert {stream.below(3) for _ in range(200)} == {0, 1, 2}
    with pytest.raises(ValueError):
        stream.below(0)


def test_chance_draws_what_the_streams_of_its_seed_draw() -> None:
    """A game draws through a header's chance: the same numbers as a stream of the seed named
    for the draw, so moving a game onto it moved no draw of an old log."""
    chance = Header(game="clans", rules_version=1, seed=7, seats=("a", "b")).chance
    assert chance == Chance(7)
    assert chance.shuffled("deck", range(10)) == PINNED_SHUFFLE
    assert Chance(42).stream("setup").next_word() == PINNED_WORDS[0]
    assert Chance(42).stream("setup", start=2).next_word() == PINNED_WORDS[2]
    assert [Chance(seed).below("start", 5) for seed in range(8)] == [
        Stream(seed, "start").below(5) for seed in range(8)
    ]


PINNED_WORDS = [15125026873187404403, 2162916294861670046, 9580634043819130492]
PINNED_SHUFFLE = (2, 0, 8, 4, 6, 9, 7, 5, 3, 1)
