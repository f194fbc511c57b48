"""Players that every game can use as they are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.prng import Stream


class RandomBot:
    """Picks uniformly among the legal moves, from its own PRNG stream (``bot-random-SEAT``),
    so a simulation is reproducible from its seed."""

    def __init__(self, game: Game, seed: int, seat: int) -> None:
        self.stream = Stream(seed, f"bot-random-{seat}")

    def choose(self, state: Any, moves: Sequence[Event]) -> Event:
        return moves[self.stream.below(len(moves))]
