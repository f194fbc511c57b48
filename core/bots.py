"""Players that every game can use: a random one, and the skeleton of a greedy one.

Each bot draws from its own PRNG stream (``bot-random-SEAT``, ``bot-greedy-SEAT``), so a
simulation is reproducible from its seed and one bot's draws never shift another's.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any

from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.prng import Stream


class RandomBot:
    """Picks uniformly among the legal moves."""

    def __init__(self, game: Game[Any], seed: int, seat: int) -> None:
        self.stream = Stream(seed, f"bot-random-{seat}")

    def choose(self, state: Any, moves: Sequence[Event]) -> Event:
        return moves[self.stream.below(len(moves))]  # as Stream.choice, a call less a move


class GreedyBot(abc.ABC):
    """Plays a move of the highest :meth:`worth`, at random among equals. A game subclasses it
    and says what a move is worth to the bot's seat (and, with :meth:`candidates`, which moves
    it weighs; the others are picked at random when no candidate is left)."""

    def __init__(self, game: Game[Any], seed: int, seat: int) -> None:
        self.game = game
        self.stream = Stream(seed, f"bot-greedy-{seat}")
        self.seat = seat

    def candidates(self, state: Any, moves: Sequence[Event]) -> Sequence[Event]:
        """The moves worth weighing (default: all of them)."""
        return moves

    @abc.abstractmethod
    def worth(self, state: Any, move: Event) -> Any:
        """What ``move`` is worth to this seat: anything comparable, higher is better."""

    def choose(self, state: Any, moves: Sequence[Event]) -> Event:
        weighed = self.candidates(state, moves)
        if not weighed:
            return self.stream.choice(moves)
        best: list[Event] = []
        best_value: Any = None
        for move in weighed:
            value = self.worth(state, move)
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return self.stream.choice(best)
