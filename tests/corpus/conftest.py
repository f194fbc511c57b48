"""Corpora made once per test: a small Clans run, the same games as logs."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_helpers import make_corpus

from tribes import games
from tribes.replay import corpus, simulate


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """Six Clans games, two seats (greedy against random), in one append."""
    return make_corpus(tmp_path / "small.corpus")


@pytest.fixture
def two_appends(tmp_path: Path) -> Path:
    """Three games, then two more added in a second append."""
    path = make_corpus(tmp_path / "two.corpus", count=3)
    game = games.get("clans")
    how = simulate.match(game, ("random",), seats=3)
    with corpus.Writer(path, new=False) as writer:
        for seed in (11, 12):
            writer.add_encoded(corpus.encode_game(game, simulate.play_game(game, seed, how).log))
    return path
