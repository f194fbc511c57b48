"""Hunters and Gatherers players for simulations: greedy (the random one is core's RandomBot)."""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.prng import Stream
from tribes.games.hunters.rules import apply
from tribes.games.hunters.state import HuntersState


class GreedyBot:
    """Plays the move with the best immediate score gain for itself (its points minus the best
    rival's, from what the move completes); at random among equals, from its own stream."""

    def __init__(self, game: Game, seed: int, seat: int) -> None:
        self.stream = Stream(seed, f"bot-greedy-{seat}")
        self.seat = seat

    def choose(self, state: HuntersState, moves: Sequence[Event]) -> Event:
        best: list[Event] = []
        best_value = None
        for move in moves:
            after, _ = apply(state, move)
            gains = [a - b for a, b in zip(after.scores, state.scores, strict=True)]
            rival = max((g for i, g in enumerate(gains) if i != self.seat), default=0)
            value = gains[self.seat] - rival
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.stream.below(len(best))]
