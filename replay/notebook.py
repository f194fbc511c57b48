"""Games in a notebook (Jupyter, IPython): a state with its game and seats, a step, a cursor
display as the board, as python-chess boards do — IPython asks an object for ``_repr_svg_`` or
``_repr_html_`` and shows what it gets.

>>> board(game, steps[12], seats)      # doctest: +SKIP
>>> cursor                             # doctest: +SKIP

A :class:`Board` is the drawing of one state as one viewer may see it (everything by default:
a notebook is for studying a game), with a step's event outlined and what its effects were about
marked (``Game.marks``); its HTML form adds a caption: the event, who made it and what it did.
Nothing here runs unless a notebook asks: the CLI never imports this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from tribes.core import views
from tribes.core.engine import Step
from tribes.core.game import EVERYTHING, Game, Viewer
from tribes.core.pictures import esc


@attrs.frozen
class Board:
    """A state with its game and seats (and, for a step, its event and effects): what a
    notebook draws. ``caption`` heads its HTML form."""

    game: Game[Any]
    state: Any
    seats: tuple[str, ...]
    viewer: Viewer = EVERYTHING
    step: Step[Any] | None = None
    caption: str = ""

    def svg(self) -> str:
        """The board as a standalone SVG document (what ``tribes show --svg`` writes)."""
        step = self.step
        if step is None:
            return self.game.svg(self.state, self.seats, self.viewer)
        return self.game.svg(self.state, self.seats, self.viewer, step.event, step.effects)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        lines = []
        if self.caption:
            lines.append(f"<p><b>{esc(self.caption)}</b></p>")
        step = self.step
        if step is not None and step.effects:
            said = views.effects_text(self.seats, step, "\n", self.viewer).splitlines()
            lines.append("<ul>" + "".join(f"<li>{esc(s)}</li>" for s in said) + "</ul>")
        return f"<div>{''.join(lines)}{self.svg()}</div>"


def board(game: Game[Any], what: Any, seats: Sequence[str], viewer: Viewer = EVERYTHING) -> Board:
    """``what`` — a state, or a step (``logs.steps_of``, ``Cursor.step``) — drawn with its
    game and seats as ``viewer`` may see it: a notebook shows the result as the board; a step's
    caption names its event and move (``12: ann 14-21``)."""
    if isinstance(what, Step):
        return Board(game, what.state, tuple(seats), viewer, what, _caption(game, seats, what))
    return Board(game, what, tuple(seats), viewer)


def _caption(game: Game[Any], seats: Sequence[str], step: Step[Any]) -> str:
    if step.index == 0:
        return "the start"
    return f"event {step.index}: {views.seat_name(seats, step)} {views.notation(game, step)}"
