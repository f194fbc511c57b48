"""C23 re-dealt: the clan colours a viewer cannot see, drawn afresh among the colours that are
not theirs (the conformance kit's hidden-information check)."""

from __future__ import annotations

import attrs

from tribes.core.game import Viewer
from tribes.core.hiding import unseen_seats
from tribes.core.prng import Stream
from tribes.games.clans.board import COLOURS
from tribes.games.clans.state import ClansState


def redeal(state: ClansState, viewer: Viewer, draws: Stream) -> ClansState:
    """Every colour the viewer does not see, from the colours no seen seat holds: an ownerless
    colour may become a seat's (nothing shows which colours are held)."""
    if state.over:
        return state  # C23: the end shows every colour
    unseen = unseen_seats(viewer, len(state.clans))
    seen = {c for seat, c in enumerate(state.clans) if seat not in unseen}
    free = draws.shuffled([c for c in COLOURS if c not in seen])
    clans = list(state.clans)
    for seat, colour in zip(unseen, free, strict=False):
        clans[seat] = colour
    return attrs.evolve(state, clans=tuple(clans))
