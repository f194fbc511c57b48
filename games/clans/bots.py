"""Clans' greedy player (the random one is core's): best immediate gain for its own colour."""

from __future__ import annotations

from tribes.core import bots
from tribes.core.events import Event
from tribes.games.clans.rules import apply, legal_moves
from tribes.games.clans.state import ClansState, c_index


class GreedyBot(bots.GreedyBot):
    """Plays the move that gains its own colour the most right now (track points plus chips),
    picking at random among equals. A move that leaves an order to choose is worth its best
    order, since the same player chooses it next."""

    def worth(self, state: ClansState, move: Event) -> int:
        after, _ = apply(state, move)
        if after.pending is not None:
            return max(self.worth(after, order) for order in legal_moves(after))
        return after.track[c_index(after.clans[self.seat])] + after.chips[self.seat]
