"""What a sweep's coordinator holds of a corpus does not grow with its games (issue 31 §4): it
opens the corpus, cuts it into units and checks every byte of it, and the games' offsets are
read from the corpus's indexes as they are asked for (held whole they were 8 bytes a game: 8 MB
at a million games, in the coordinator and in every worker forked from it)."""

from __future__ import annotations

import gc
import tracemalloc
import weakref
from pathlib import Path

import pytest

from tribes import games
from tribes.events import codec
from tribes.games.clans.events import HutsMoved as ClansMove
from tribes.replay import batch, corpus, simulate
from tribes.replay.corpus import writer


def copies(path: Path, count: int) -> Path:
    """A corpus of ``count`` copies of one Clans game (written in a moment)."""
    game = games.get("clans")
    encoded = corpus.encode_game(game, simulate.play_game(game, 1, 3).log)
    with corpus.Writer(path, new=True) as writer:
        for _ in range(count):
            writer.add_encoded(encoded)
    return path


def peak_of_units(path: Path) -> int:
    """The most memory allocated at once while the corpus is cut into units and checked whole,
    as every sweep's coordinator does (the units dropped as they come)."""
    gc.collect()
    tracemalloc.start()
    try:
        for _number, unit in batch.units([path], 2):
            del unit
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_coordinator_holds_nothing_a_game_of_a_corpus(tmp_path: Path) -> None:
    small = peak_of_units(copies(tmp_path / "small.corpus", 4_000))
    large = peak_of_units(copies(tmp_path / "large.corpus", 24_000))
    with corpus.Corpus(tmp_path / "large.corpus") as read:
        assert len(read) == 24_000
        assert read.log(23_999)[1] == read.log(0)[1]
    # 20,000 games more: 160 KB of offsets held whole; a window of the whole-corpus check
    # as large as the corpus up to 4 MB
    assert large - small < 64_000, (small, large)


@pytest.fixture
def fresh_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The encoders' memo of this process emptied for the test (and restored after it)."""
    monkeypatch.setattr(writer.Encoder, "wires", {})
    monkeypatch.setattr(writer.Encoder, "by_identity", {})


def test_an_event_made_afresh_is_not_kept_by_the_encoders_memo(fresh_memo: None) -> None:
    """Hunters makes its placements afresh every game: the memo finds one by its value and
    keeps no entry for it (it held 100,000 dead events a worker after ~1,250 games)."""
    encoder = writer.Encoder()
    first = ClansMove(source=3, target=4)
    again = ClansMove(source=3, target=4)
    assert encoder.wire(first) == codec.event_to_wire(first)
    assert encoder.wire(again) is encoder.wire(first)
    watched = weakref.ref(again)
    del again
    gc.collect()
    assert watched() is None
    assert [entry for entry, _ in writer.Encoder.by_identity.values()] == [first]


def test_the_encoders_memo_stops_growing_at_its_cap(
    fresh_memo: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "MEMO_ENTRIES", 5)
    encoder = writer.Encoder()
    moves = [ClansMove(source=s, target=s + 1) for s in range(20)]
    for move in moves * 2:
        assert encoder.wire(move) == codec.event_to_wire(move)
    assert len(writer.Encoder.wires) == 5 and len(writer.Encoder.by_identity) == 5


def test_a_worker_saving_hunters_games_holds_a_bounded_memo(fresh_memo: None) -> None:
    game = games.get("hunters")
    how = simulate.match(game, ("random",), seats=2)
    simulate.play_shard(simulate.Plan("hunters", how, 7, 0, 150, None, encode=True))
    wires, by_identity = writer.Encoder.wires, writer.Encoder.by_identity
    assert 0 < len(wires) <= writer.MEMO_ENTRIES
    assert len(by_identity) <= len(wires)  # an entry only for the event a form was made for
    keys = {id(event) for event in wires}
    assert all(key in keys for key in by_identity)
