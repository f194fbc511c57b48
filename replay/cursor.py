"""A cursor over a log: seek, step forward and back, see any state as any viewer.

States are immutable and share structure, so the cursor keeps every state it has computed:
stepping back or jumping to a visited point costs nothing, and going forward past the furthest
point replays only the events not yet replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from tribes.core import views
from tribes.core.engine import Step, play, start
from tribes.core.errors import UsageError
from tribes.core.game import EVERYTHING, Game, Viewer
from tribes.events.logfile import GameLog
from tribes.replay import logs
from tribes.replay.consistency import Answer, MoveRefused

if TYPE_CHECKING:
    from tribes.replay.notebook import Board


class Cursor:
    """Step through ``log``. Index 0 is the start; index N the state after event N.

    >>> r = Cursor.open(Path("out/demo.tribes"))   # doctest: +SKIP
    >>> r.seek(12); r.back(); r.step.event          # doctest: +SKIP
    """

    def __init__(self, game: Game[Any], log: GameLog, *, path: str | None = None) -> None:
        self.game = game
        self.log = log
        self.path = path
        self._steps: list[Step[Any]] = [start(game, log.header)]
        self.index = 0
        self.rules: Answer | None = None
        """What the running rules say of the intact log (:mod:`tribes.replay.consistency`):
        None when they give every state it recorded."""

    @classmethod
    def open(cls, path: Path, warn: Callable[[str], None] | None = None) -> Cursor:
        """A cursor over a log file; the whole log is checked (commits, legality, checkpoints)
        first. An intact log written under other rules is stepped through under the running
        ones (up to an event they refuse), ``rules`` saying how they differ (and ``warn``
        given it in one line)."""
        opened = logs.open_log(path)
        replay = cls(opened.game, opened.log, path=str(path))
        steps = logs.shown(opened.game, opened.log, str(path), warn)
        replay._steps = steps
        replay.rules = steps.rules
        return replay

    def __len__(self) -> int:
        """The number of events (the last index): up to the one the running rules refuse."""
        if isinstance(self.rules, MoveRefused):
            return self.rules.event - 1
        return len(self.log.events)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.log.header.seats

    @property
    def step(self) -> Step[Any]:
        """The current step: its state, and the event and effects that led to it."""
        return self._reach(self.index)

    @property
    def state(self) -> Any:
        return self.step.state

    def at(self, index: int) -> Step[Any]:
        """The step at ``index`` without moving the cursor."""
        self._check(index)
        return self._reach(index)

    def seek(self, index: int) -> Step[Any]:
        self._check(index)
        self.index = index
        return self.step

    def forward(self) -> Step[Any]:
        """One event on (stays at the end)."""
        return self.seek(min(self.index + 1, len(self)))

    def back(self) -> Step[Any]:
        """One event back (stays at the start)."""
        return self.seek(max(self.index - 1, 0))

    def first(self) -> Step[Any]:
        return self.seek(0)

    def last(self) -> Step[Any]:
        return self.seek(len(self))

    def document(self, viewer: Viewer = EVERYTHING, index: int | None = None) -> dict[str, Any]:
        """The ``show --json`` document of a step (default: the current one)."""
        at = self.index if index is None else index
        return views.step_document(self.game, self.log.header, at, self.at(at).state, viewer)

    def render(self, viewer: Viewer = EVERYTHING) -> str:
        return self.game.render(self.state, self.seats, viewer)

    def notation(self, index: int) -> str:
        """The event ``index`` in notation ("start" for 0)."""
        return views.notation(self.game, self.at(index))

    def describe(self, index: int, viewer: Viewer = EVERYTHING) -> str:
        """Event ``index`` as one line: seat, notation, effects (as ``viewer`` may see them)."""
        return views.describe(self.game, self.seats, self.at(index), viewer)

    def find(self, text: str, start: int | None = None) -> int | None:
        """The next event after ``start`` (default: the current one) whose notation or effects
        contain ``text`` (case-insensitive), wrapping around; None if none does."""
        needle = text.lower()
        begin = self.index if start is None else start
        for offset in range(1, len(self) + 1):
            index = (begin + offset) % (len(self) + 1)
            if index and needle in self.describe(index).lower():
                return index
        return None

    def board(self, viewer: Viewer = EVERYTHING, index: int | None = None) -> Board:
        """The step (default: the current one) drawn as ``viewer`` may see it, its event and
        move in its caption: what a notebook shows for the cursor (:mod:`.notebook`)."""
        from tribes.replay.notebook import board  # noqa: PLC0415  start-up: a notebook's alone: not on the CLI's paths

        at = self.index if index is None else index
        step = self.at(at)
        where = f"event {at} of {len(self)}" if at else f"the start (of {len(self)} events)"
        move = f": {views.seat_name(self.seats, step)} {views.notation(self.game, step)}"
        drawn = board(self.game, step, self.seats, viewer)
        return attrs.evolve(drawn, caption=where + (move if at else ""))

    def __repr__(self) -> str:
        return f"<Cursor {self.path or self.game.name} at {self.index} of {len(self)}>"

    def _repr_svg_(self) -> str:
        return self.board().svg()

    def _repr_html_(self) -> str:
        return self.board()._repr_html_()

    def _check(self, index: int) -> None:
        check_point(index, len(self), option="event")

    def _reach(self, index: int) -> Step[Any]:
        while len(self._steps) <= index:
            n = len(self._steps)
            self._steps.append(play(self.game, self._steps[-1].state, self.log.events[n - 1], n))
        return self._steps[index]


def check_point(
    value: int, count: int, *, option: str = "--at", events: bool = False, beyond: bool = False
) -> int:
    """``value`` as a point of a log of ``count`` events, or UsageError in one form for every
    command: a state (0, the start, to ``count``) or, with ``events``, an event (1 to ``count``;
    with ``beyond`` also ``count + 1``, the event yet to be played)."""
    first = 1 if events else 0
    last = count + 1 if beyond else count
    if not first <= value <= last:
        held = f"events 1 to {count}" if count > 1 else "event 1" if count else "no event yet"
        lowest = "1" if events else "0 (the start)"
        if last < first:
            choice = ""  # an event of a log of none: there is nothing to choose
        elif last == first:
            choice = f"; the only choice is {lowest}"
        else:
            choice = f"; choose {lowest} to {last}"
        raise UsageError(f"{option} {value} is out of range: the log has {held}{choice}")
    return value
