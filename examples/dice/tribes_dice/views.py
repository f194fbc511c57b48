"""What a viewer may see of a Bonus Dice state: their own bonus card, every card at the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tribes.core.game import EVERYTHING, DocumentPath, Viewer
from tribes_dice.state import DiceState


def sees_card(state: DiceState, viewer: Viewer, seat: int) -> bool:
    """D2: a player sees their own bonus card only; at the end (D6) and for 'all', every one."""
    return state.over or viewer in (EVERYTHING, seat)


def fields(state: DiceState, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
    return {
        "round": state.round,
        "turn_points": state.turn_points,
        "last_roll": state.last,
        "banked": dict(zip(seats, state.scores, strict=True)),
        "bonus": {s: state.bonus[i] for i, s in enumerate(seats) if sees_card(state, viewer, i)},
    }


def phrase(path: DocumentPath, old: Any, new: Any) -> str | None:
    if path == ("last_roll",) and new is not None:
        return f"the die shows {new}"
    if len(path) == 2 and path[0] == "bonus":
        return f"bonus card of {path[1]}: {new}"
    return None
