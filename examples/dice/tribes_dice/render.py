"""A Bonus Dice state as text: a line for each seat, then the turn."""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.game import Viewer
from tribes_dice.state import DiceState
from tribes_dice.views import sees_card


def render(state: DiceState, seats: Sequence[str], viewer: Viewer, width: int = 100) -> str:
    lines = []
    for i, name in enumerate(seats):
        card = state.bonus[i] if sees_card(state, viewer, i) else "?"
        mark = ">" if i == state.to_move and not state.over else " "
        lines.append(
            f"{mark} {name[: max(1, width - 30)]:<12} banked {state.scores[i]:>3}  bonus {card}"
        )
    die = "-" if state.last is None else state.last
    lines.append(f"round {state.round}   die {die}   turn points {state.turn_points}")
    return "\n".join(lines)
