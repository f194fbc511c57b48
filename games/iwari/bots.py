"""Iwari's greedy player (the random one is core's): best immediate score change for itself."""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core import bots
from tribes.core.events import Event
from tribes.games.iwari import scoring
from tribes.games.iwari.events import CardsPlayed
from tribes.games.iwari.rules import apply
from tribes.games.iwari.state import IwariState


class GreedyBot(bots.GreedyBot):
    """Plays what would most raise its own tent scoring if the game were scored now (its
    tents' points minus the best rival's), preferring plays to exchanges; at random among equals.
    Draws, feats and the third tribe's play are random."""

    def candidates(self, state: IwariState, moves: Sequence[Event]) -> Sequence[Event]:
        return [m for m in moves if isinstance(m, CardsPlayed)]

    def worth(self, state: IwariState, move: Event) -> tuple[int, int]:
        assert isinstance(move, CardsPlayed)
        after, _ = apply(state, move)
        gains, _ = scoring.score_tents(after)
        rival = max((g for i, g in enumerate(gains) if i != self.seat), default=0)
        return (gains[self.seat] - rival, -len(move.cards))
