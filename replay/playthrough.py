"""A log as one readable transcript of every step, for golden tests and bug reports.

Each step (0: the start) is one block::

    event 12: ann 15-16
      effect: village 3 founded at 16 ...
      digest: 5d41402abc4b2a76b9719d911017c592
      legal moves (3):
        1-2, 1-6, 2-3
      board:
        <the rendered board, as the viewer sees it>

- the event line: its number, the seat that made it and its notation;
- one ``effect:`` line per effect, in order;
- ``digest:`` the state's hash (:func:`tribes.events.codec.state_hash`): any change to the state
  changes it, hidden parts included;
- ``legal moves (N):`` every legal move in notation, in the game's order, wrapped (``none`` when
  the game is over); left out when ``moves`` is false;
- ``board:`` the rendered state, at every step or only at the steps ``boards`` names.

Pinning a log (:mod:`tribes.replay.pytest_plugin`) takes either the whole board at every step, for
an edge case that one reads step by step, or a compact transcript, for a full game or a corpus:
digests and effects at every step, the board at a few steps (by default the start, a quarter,
half-way, three quarters and the end, see :func:`milestones`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from tribes.core import views
from tribes.core.engine import Step
from tribes.core.game import EVERYTHING, Game, Viewer
from tribes.events import codec
from tribes.replay import logs

Boards = Iterable[int] | Mapping[int, str] | Callable[[int], Mapping[int, str]] | None
"""Which steps show the board: every step (None), the steps listed (negative ones count from the
end: -1 is the last), the steps of a mapping, each with the name that the transcript gives it,
or a function of the number of steps that gives such a mapping (:func:`milestones`)."""

WIDTH = 100
"""Columns of a transcript's wrapped lines (the legal moves)."""


def milestones(steps: int) -> dict[int, str]:
    """The named steps of a game of ``steps`` steps (events + 1): the start, a quarter, half-way,
    three quarters and the end (fewer, when some coincide)."""
    last = steps - 1
    named = {0: "start"}
    for num, den, name in ((1, 4, "a quarter"), (1, 2, "half-way"), (3, 4, "three quarters")):
        step = last * num // den
        if 0 < step < last:
            named.setdefault(step, name)
    if last > 0:
        named[last] = "end"
    return named


def _named_boards(boards: Boards, steps: int) -> dict[int, str] | None:
    if boards is None:
        return None
    if callable(boards):
        boards = boards(steps)
    items = boards.items() if isinstance(boards, Mapping) else ((n, "") for n in boards)
    named: dict[int, str] = {}
    for step, name in items:
        index = step + steps if step < 0 else step
        if not 0 <= index < steps:
            raise ValueError(f"step {step} is out of range: the log has steps 0 to {steps - 1}")
        named[index] = name
    return named


def wrap(items: Sequence[str], indent: int, width: int = WIDTH) -> list[str]:
    """``items`` joined by ", " into lines of at most ``width`` columns (an item is never cut)."""
    lines: list[str] = []
    line = ""
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if line and indent + len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    if line:
        lines.append(line)
    return lines


def transcript(
    path: Path | str,
    viewer: Viewer = EVERYTHING,
    *,
    boards: Boards = None,
    moves: bool = True,
) -> list[str]:
    """One text block per step (0: the start), as ``viewer`` sees the board; raises the log's
    TribesError (CorruptLog, IllegalMove, ...) if it cannot be replayed."""
    path = Path(path)
    opened = logs.open_log(path)
    steps = logs.steps_of(opened.game, opened.log, path=str(path))
    named = _named_boards(boards, len(steps))
    seats = opened.log.header.seats
    return [
        block(
            opened.game,
            seats,
            step,
            viewer,
            board=named is None or step.index in named,
            name=(named or {}).get(step.index, ""),
            moves=moves,
        )
        for step in steps
    ]


def block(
    game: Game,
    seats: Sequence[str],
    step: Step,
    viewer: Viewer = EVERYTHING,
    *,
    board: bool = True,
    name: str = "",
    moves: bool = True,
) -> str:
    """The transcript's block of one step (see the module's documentation)."""
    lines = [f"event {step.index}: {views.seat_name(seats, step)} {views.notation(game, step)}"]
    lines += [f"  effect: {e.describe(seats)}" for e in step.effects]
    lines.append(f"  digest: {codec.state_hash(step.state)}")
    if moves:
        legal = [game.format_move(m) for m in game.legal_moves(step.state)]
        if legal:
            lines.append(f"  legal moves ({len(legal)}):")
            lines += [f"    {line}" for line in wrap(legal, 4)]
        else:
            lines.append("  legal moves: none")
    if board:
        lines.append(f"  board ({name}):" if name else "  board:")
        rendered = game.render(step.state, seats, viewer)
        lines += [f"    {line}" if line else "" for line in rendered.splitlines()]
    return "\n".join(lines)


def text(blocks: Sequence[str]) -> str:
    """The transcript as one text, as a snapshot file holds it: blocks apart by a blank line."""
    return "\n\n".join(blocks) + "\n"
