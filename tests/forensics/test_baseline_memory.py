"""Writing a baseline holds a block of games at a time and compresses its words with a bz2 block
no larger than they are (issue 31 §4): a level 9 compressor takes 7.6 MB whatever its input, and
was the peak of ``baseline``'s main process."""

from __future__ import annotations

import bz2
import gc
import io
import tracemalloc

from tribes import games
from tribes.replay import baseline, simulate


def test_a_baseline_is_written_in_little_memory() -> None:
    game = games.get("clans")
    how = simulate.match(game, ("random",), seats=3)
    records = [
        baseline.Recorder()(f"runs.corpus#{k}", game, simulate.play_game(game, k, how).log)
        for k in range(1, 21)
    ]
    out = io.BytesIO()
    gc.collect()
    tracemalloc.start()
    try:
        count = baseline.write(out.write, records * 15)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 300
    assert peak - len(out.getvalue()) < 4_000_000, peak  # level 9: 7.6 MB and more
    assert out.getvalue().count(b"BZh") == 3  # a block of 100 games' words, compressed
    assert out.getvalue().count(b"BZh9") == 0


def test_words_beyond_one_level_take_the_level_that_holds_them() -> None:
    for size, level in ((0, 1), (99_999, 1), (100_001, 2), (850_000, 9), (4 << 20, 9)):
        assert baseline._level(size) == level
    words = bytes(range(256)) * 1000
    assert bz2.decompress(bz2.compress(words, baseline._level(len(words)))) == words
