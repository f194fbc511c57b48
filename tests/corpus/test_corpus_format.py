"""The corpus file: what goes in comes out, game by game, by random access and streaming;
appends never touch earlier bytes; the size target holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_helpers import make_corpus

from tribes import games
from tribes.core.errors import UsageError
from tribes.events import corpus as fmt
from tribes.replay import corpus, simulate


def test_every_game_comes_back_as_it_was_played(small):
    game = games.get("clans")
    how = simulate.match(game, ("greedy", "random"))
    with corpus.Corpus(small) as read:
        assert len(read) == 6
        for k in range(6):
            expected = simulate.play_game(game, simulate.seed_of(5, k), how).log
            _, log = read.log(k)
            assert log.header == expected.header and log.events == expected.events
            assert log.header.meta["bots"] == {"p1": "greedy", "p2": "random"}


def test_random_access_and_streaming_agree(two_appends):
    with corpus.Corpus(two_appends) as read:
        streamed = [log for _, _, log in read.stream()]
        assert [read.log(k)[1] for k in (4, 0, 3, 1, 2)] == [streamed[k] for k in (4, 0, 3, 1, 2)]
        assert len(streamed) == 5
        assert streamed[3].header.seats == ("p1", "p2", "p3")
        assert len(read.layout.parts) == 2  # the two runs' shared header parts


def test_game_k_is_one_read_of_its_own_bytes(small):
    with corpus.Corpus(small) as read:
        last = read.layout.offsets[-1]
        data = bytearray(small.read_bytes())
    data[read.layout.offsets[1] + 3] ^= 0xFF  # damage game 2: game 6 still reads
    small.write_bytes(bytes(data))
    with corpus.Corpus(small) as read:
        assert read.layout.offsets[-1] == last
        assert read.log(5)[1].events
        with pytest.raises(fmt.CorruptCorpus, match=r"game 2 \(byte \d+\)"):
            read.log(1)


def test_an_append_keeps_every_earlier_byte(tmp_path):
    path = make_corpus(tmp_path / "a.corpus", count=3)
    before = path.read_bytes()
    game = games.get("clans")
    with corpus.Writer(path, new=False) as writer:
        writer.add_encoded(
            corpus.encode_game(game, simulate.play_game(game, 99, simulate.match(game)).log)
        )
    after = path.read_bytes()
    assert after.startswith(before) and len(after) > len(before)
    with corpus.Corpus(path) as read:
        assert len(read) == 4 and read.log(3)[1].header.seed == 99


def test_a_new_corpus_is_never_written_over_without_force(small):
    before = small.read_bytes()
    with pytest.raises(UsageError, match="exists"):
        corpus.Writer(small, new=True)
    assert small.read_bytes() == before
    corpus.Writer(small, new=True, force=True).close()
    with corpus.Corpus(small) as read:
        assert len(read) == 0


def test_clans_games_take_under_8_bytes_an_event(tmp_path):
    path = make_corpus(tmp_path / "size.corpus", count=300, seed=2)
    with corpus.Corpus(path) as read:
        events = sum(len(log.events) for _, _, log in read.stream())
    assert path.stat().st_size / events < 8  # header, index and trailers included


def test_split_keeps_every_game_in_order(tmp_path, two_appends):
    out = [tmp_path / f"s-{i}.corpus" for i in range(3)]
    assert corpus.split(two_appends, out) == [2, 2, 1]
    with corpus.Corpus(two_appends) as whole:
        original = [log for _, _, log in whole.stream()]
    shards = []
    for path in out:
        with corpus.Corpus(path) as read:
            shards += [log for _, _, log in read.stream()]
    assert shards == original


def test_a_reference_names_a_game_from_one(tmp_path):
    assert corpus.split_ref(Path("a.corpus#3")) == (Path("a.corpus"), 3)
    assert corpus.split_ref(Path("a.tribes#3")) is None
    with pytest.raises(UsageError, match="from 1"):
        corpus.split_ref(Path("a.corpus#0"))
    with pytest.raises(UsageError, match="from 1"):
        corpus.split_ref(Path("a.corpus#x"))
