"""D2 re-dealt: the bonus cards a viewer does not see, with the ones set aside, shuffled and
dealt back (the conformance kit's hidden-information check)."""

from __future__ import annotations

import attrs

from tribes.core.game import EVERYTHING, Viewer
from tribes.core.hiding import redealt, unseen_seats
from tribes.core.prng import Stream
from tribes_dice.state import DiceState


def redeal(state: DiceState, viewer: Viewer, draws: Stream) -> DiceState:
    if state.over or viewer == EVERYTHING:
        return state  # D6: the end shows every card
    unseen = unseen_seats(viewer, len(state.bonus))
    pool = [state.bonus[seat] for seat in unseen] + list(state.aside)
    *cards, aside = redealt(pool, [1] * len(unseen), draws)
    bonus = list(state.bonus)
    for seat, (card,) in zip(unseen, cards, strict=True):
        bonus[seat] = card
    return attrs.evolve(state, bonus=tuple(bonus), aside=aside)
