"""A Bonus Dice state drawn: the die, then a row for each seat (banked score, bonus card)."""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.events import Event
from tribes.core.game import Viewer
from tribes.core.pictures import HIGHLIGHT, OKABE_ITO, PAPER, Picture, data, esc, group, text
from tribes_dice.state import DiceState
from tribes_dice.views import sees_card

ROW = 28


def picture(state: DiceState, seats: Sequence[str], viewer: Viewer, last: Event | None) -> Picture:
    die = "-" if state.last is None else str(state.last)
    outline = f' stroke="{HIGHLIGHT}" stroke-width="3" stroke-dasharray="4 2"' if last else ""
    parts = [
        (
            "die",
            group(
                f'class="die" {data(face=die)}',
                f'<rect x="10" y="10" width="40" height="40" rx="6" fill="{PAPER}"{outline}/>',
                text(30, 37, die, size=20, anchor="middle", weight="bold"),
                text(60, 28, f"round {state.round}"),
                text(60, 44, f"turn points {state.turn_points}"),
            ),
        )
    ]
    for i, name in enumerate(seats):
        y = 70 + i * ROW
        card = str(state.bonus[i]) if sees_card(state, viewer, i) else "?"
        fill = OKABE_ITO["sky blue"] if i == state.to_move and not state.over else PAPER
        parts.append(
            (
                f"seat-{i}",
                group(
                    f'class="seat" {data(seat=name, banked=state.scores[i], bonus=card)}',
                    f'<rect x="10" y="{y}" width="220" height="{ROW - 4}" fill="{fill}"/>',
                    text(16, y + 17, f"{esc(name)[:16]}"),
                    text(150, y + 17, f"{state.scores[i]} · {card}"),
                ),
            )
        )
    return Picture(240, 80 + len(seats) * ROW, tuple(parts), title="Bonus Dice")
