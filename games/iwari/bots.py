"""Iwari players for simulations: random, and greedy (best immediate score change for itself)."""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.prng import Stream
from tribes.games.iwari import scoring
from tribes.games.iwari.events import CardsPlayed
from tribes.games.iwari.rules import apply
from tribes.games.iwari.state import IwariState


class GreedyBot:
    """Plays what would most raise its own tent scoring if the game were scored now (its
    tents' points minus the best rival's), preferring plays to exchanges; at random among equals.
    Draws, feats and the third tribe's play are random."""

    def __init__(self, game: Game, seed: int, seat: int) -> None:
        self.stream = Stream(seed, f"bot-greedy-{seat}")
        self.seat = seat

    def choose(self, state: IwariState, moves: Sequence[Event]) -> Event:
        plays = [m for m in moves if isinstance(m, CardsPlayed)]
        if not plays:
            return moves[self.stream.below(len(moves))]
        best: list[Event] = []
        best_value = None
        for move in plays:
            after, _ = apply(state, move)
            gains, _ = scoring.score_tents(after)
            rival = max((g for i, g in enumerate(gains) if i != self.seat), default=0)
            value = (gains[self.seat] - rival, -len(move.cards))
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.stream.below(len(best))]
