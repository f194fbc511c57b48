"""What a sweep's coordinator holds of a corpus does not grow with its games (issue 31 §4): it
opens the corpus, cuts it into units and checks every byte of it, and the games' offsets are
read from the corpus's indexes as they are asked for (held whole they were 8 bytes a game: 8 MB
at a million games, in the coordinator and in every worker forked from it)."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

from tribes import games
from tribes.replay import batch, corpus, simulate


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
