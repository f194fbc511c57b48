"""H23 re-dealt: nobody sees the order of the land and bonus stacks, so both are shuffled
afresh (the conformance kit's hidden-information check); the drawn tile is seen by all."""

from __future__ import annotations

import attrs

from tribes.core.game import EVERYTHING, Viewer
from tribes.core.prng import Stream
from tribes.games.hunters.state import HuntersState


def redeal(state: HuntersState, viewer: Viewer, draws: Stream) -> HuntersState:
    if viewer == EVERYTHING:
        return state
    return attrs.evolve(
        state, stack=draws.shuffled(state.stack), bonus_stack=draws.shuffled(state.bonus_stack)
    )
