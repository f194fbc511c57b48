"""Text rendering of a Clans state: the hex board at the board file's (q, r), then the chart,
the track and the seats. Fits 100 columns. Reads the state and the view, never rules' internals.

Each territory is two lines: ``12f V3`` (number, terrain initial and, for a village, its number
as the SVG labels it: ``V3`` the third village founded) above its huts by colour initial
(``r2b1``; ``k`` is black; too many to fit, their total and initials: ``8:rgbk``); ``·`` marks an
empty territory, ``~~`` a lake.
Under the board: ``epoch 1 (+1 on forest; mountain doomed)`` — the epoch's bonus and terrains.
"""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.game import Viewer
from tribes.core.views import count
from tribes.games.clans.board import COLOUR_NAMES, VILLAGES
from tribes.games.clans.state import ClansState
from tribes.games.clans.views import visible_clans

CELL = 11
NARROW_CELL = 8
LETTERS = ("r", "y", "g", "b", "k")


def render(state: ClansState, seats: Sequence[str], viewer: Viewer, width: int = 100) -> str:
    """The board and status; under 100 columns, a narrower board (huts that do not fit show as
    their total and colour initials: ``8:rgbk``)."""
    cell = CELL if width >= 100 else NARROW_CELL
    return "\n".join([*_board(state, cell), "", *_status(state, seats, viewer)])


def _board(state: ClansState, cell: int = CELL) -> list[str]:
    board = state.board
    numbers = {v.territory: v.number for v in state.villages}
    villages = {
        t
        for t in range(1, len(state.totals))
        if state.totals[t] and not state.occupied & board.neighbour_mask[t]
    }  # a village a position holds without its number is marked ``*``
    cells = {(t.q, t.r): t for t in board.territories}
    qs = [t.q for t in board.territories]
    rs = [t.r for t in board.territories]
    # Twice the x of a cell's centre, in half cells: 2q + r.
    xs = [2 * t.q + t.r for t in board.territories]
    left = min(xs)
    lines: list[str] = []
    for r in range(min(rs), max(rs) + 1):
        top = [" "] * (cell * (max(xs) - left + 2) // 2 + cell)
        bottom = list(top)
        for q in range(min(qs), max(qs) + 1):
            x = (2 * q + r - left) * cell // 2
            t = cells.get((q, r))
            if t is None:
                inside = any((q + d, r) in cells for d in range(-9, 0)) and any(
                    (q + d, r) in cells for d in range(1, 10)
                )
                if inside:
                    _put(top, x, "  ~~")
                continue
            number = numbers.get(t.id)
            mark = f" V{number}" if number is not None else "*" if t.id in villages else ""
            _put(top, x, f"{t.id:>3}{t.terrain[0]}{mark}")
            indent = 3 if cell == CELL else 1
            _put(bottom, x, " " * indent + (_huts(state.huts[t.id], cell - indent - 1) or "·"))
        lines.append("".join(top).rstrip())
        lines.append("".join(bottom).rstrip())
    return lines


def _put(row: list[str], x: int, text: str) -> None:
    for i, ch in enumerate(text):
        if 0 <= x + i < len(row):
            row[x + i] = ch


def _huts(huts: Sequence[int], room: int) -> str:
    full = "".join(f"{LETTERS[i]}{n}" for i, n in enumerate(huts) if n)
    if len(full) <= room:
        return full
    return f"{sum(huts)}:" + "".join(LETTERS[i] for i, n in enumerate(huts) if n)


def _status(state: ClansState, seats: Sequence[str], viewer: Viewer) -> list[str]:
    board = state.board
    chart = board.epoch(state.epoch)
    left = max(0, VILLAGES - state.founded)
    every = chart.favourable >= board.terrains
    fav = "every terrain" if every else ", ".join(sorted(chart.favourable)) or "no terrain"
    doomed = "; " + ", ".join(sorted(chart.unfavourable)) + " doomed" if chart.unfavourable else ""
    lines = [
        (
            f"epoch {state.epoch} (+{chart.bonus} on {fav}{doomed})  "
            f"villages {min(state.founded, VILLAGES)}/{VILLAGES}  chips left {left}"
        ),
        "track  "
        + "  ".join(f"{name} {pts}" for name, pts in zip(COLOUR_NAMES, state.track, strict=True)),
    ]
    clans = visible_clans(state, viewer)
    scores = state.scores()
    seat_parts = []
    for i, name in enumerate(seats):
        colour = clans[i] or "?"
        score = f" = {scores[i]}" if clans[i] else ""
        seat_parts.append(f"{name} [{colour}] {count(state.chips[i], 'chip')}{score}")
    lines.append("   ".join(seat_parts))
    if state.over:
        best = max(scores)
        won = [seats[i] for i, s in enumerate(scores) if s == best]
        lines.append(
            f"game over: {' and '.join(won)} {'win' if len(won) > 1 else 'wins'} with {best}"
        )
    elif state.pending is not None:
        listed = " ".join(map(str, state.pending.villages))
        lines.append(f"{seats[state.to_move]} must choose the order of villages {listed}")
    else:
        lines.append(f"{seats[state.to_move]} to move")
    return lines
