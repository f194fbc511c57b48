"""I22 re-dealt: the hands a viewer cannot see and the deck, gathered, shuffled and dealt back
in the same sizes (the conformance kit's hidden-information check); the display, the discard
and the viewer's own hand stay."""

from __future__ import annotations

import attrs

from tribes.core.game import EVERYTHING, Viewer
from tribes.core.hiding import redealt, unseen_seats
from tribes.core.prng import Stream
from tribes.games.iwari.board import TERRAINS
from tribes.games.iwari.state import Hand, IwariState


def redeal(state: IwariState, viewer: Viewer, draws: Stream) -> IwariState:
    if viewer == EVERYTHING:
        return state
    unseen = [] if state.over else unseen_seats(viewer, state.players)  # I22: the end shows all
    cards = list(state.deck)
    for seat in unseen:
        cards += [t for t, n in zip(TERRAINS, state.hands[seat], strict=True) for _ in range(n)]
    *lots, deck = redealt(cards, [sum(state.hands[seat]) for seat in unseen], draws)
    hands: list[Hand] = list(state.hands)
    for seat, lot in zip(unseen, lots, strict=True):
        hands[seat] = tuple(lot.count(t) for t in TERRAINS)  # type: ignore[assignment]  # 5 counts
    return attrs.evolve(state, deck=deck, hands=tuple(hands))
