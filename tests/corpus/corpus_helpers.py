"""Helpers of the corpus tests."""

from __future__ import annotations

from pathlib import Path

from tribes import games
from tribes.replay import simulate


def make_corpus(path: Path, count: int = 6, seed: int = 5, game: str = "clans") -> Path:
    played = games.get(game)
    how = simulate.match(played, ("greedy", "random"))
    simulate.simulate(played, games=count, seed=seed, how=how, save=path)
    return path
