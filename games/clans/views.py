"""What a viewer may see of a Clans state (C23) and the ``show --json`` document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tribes.core.game import EVERYTHING, Viewer
from tribes.games.clans import notation
from tribes.games.clans.board import COLOUR_NAMES, TERRITORIES
from tribes.games.clans.rules import legal_moves, winners
from tribes.games.clans.state import ClansState


def visible_clans(state: ClansState, viewer: Viewer) -> list[str | None]:
    """C23: a player sees their own colour; a spectator none; after the end, all."""
    if state.over or viewer == EVERYTHING:
        return [c.value for c in state.clans]
    return [c.value if seat == viewer else None for seat, c in enumerate(state.clans)]


def document(state: ClansState, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
    clans = visible_clans(state, viewer)
    scores = state.scores()
    pending = None
    if state.pending is not None and not state.over:
        pending = {
            "seat": seats[state.to_move],
            "decision": "order",
            "villages": list(state.pending.villages),
            "options": [notation.format(m) for m in legal_moves(state)],
        }
    return {
        "over": state.over,
        "to_move": None if state.over else seats[state.to_move],
        "pending": pending,
        "scores": {name: scores[i] if clans[i] else None for i, name in enumerate(seats)},
        "winners": [seats[i] for i in winners(state)],
        "track": dict(zip(COLOUR_NAMES, state.track, strict=True)),
        "chips": dict(zip(seats, state.chips, strict=True)),
        "chips_left": max(0, 12 - state.founded),
        "epoch": state.epoch,
        "villages": [
            {
                "territory": v.territory,
                "number": v.number,
                "epoch": v.epoch,
                "huts": sum(v.huts),
                "value": v.value,
                "colours": {COLOUR_NAMES[i]: n for i, n in enumerate(v.huts) if n},
            }
            for v in state.villages
        ],
        "huts": {
            str(t): {COLOUR_NAMES[i]: n for i, n in enumerate(state.huts[t]) if n}
            for t in range(1, TERRITORIES + 1)
            if state.totals[t]
        },
        "clans": {name: clans[i] for i, name in enumerate(seats) if clans[i]},
    }
