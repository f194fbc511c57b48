"""Clans players for simulations: random, and greedy (best immediate gain for its own colour)."""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.prng import Stream
from tribes.games.clans.rules import apply, legal_moves
from tribes.games.clans.state import ClansState, c_index


class GreedyBot:
    """Plays the move that gains its own colour the most right now (track points plus chips),
    picking at random among equals. A move that leaves an order to choose is worth its best
    order, since the same player chooses it next."""

    def __init__(self, game: Game, seed: int, seat: int) -> None:
        self.stream = Stream(seed, f"bot-greedy-{seat}")
        self.seat = seat

    def choose(self, state: ClansState, moves: Sequence[Event]) -> Event:
        colour = c_index(state.clans[self.seat])
        before = state.track[colour] + state.chips[self.seat]
        best: list[Event] = []
        best_gain = -1
        for move in moves:
            gain = self._worth(state, move, colour) - before
            if gain > best_gain:
                best, best_gain = [move], gain
            elif gain == best_gain:
                best.append(move)
        return best[self.stream.below(len(best))]

    def _worth(self, state: ClansState, move: Event, colour: int) -> int:
        after, _ = apply(state, move)
        if after.pending is not None:
            return max(self._worth(after, order, colour) for order in legal_moves(after))
        return after.track[colour] + after.chips[self.seat]
