"""Text rendering of a Clans state: the hex board at the board file's (q, r), then the chart,
the track and the seats. Fits 100 columns. Reads the state and the view, never rules' internals.

Each territory is two lines: ``12f*`` (number, terrain initial, ``*`` for a village) above its huts
by colour initial (``r2b1``; ``k`` is black); ``·`` marks an empty territory, ``~~`` a lake.
"""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.game import Viewer
from tribes.games.clans.board import COLOUR_NAMES, VILLAGES
from tribes.games.clans.state import ClansState
from tribes.games.clans.views import visible_clans

CELL = 11
LETTERS = ("r", "y", "g", "b", "k")


def render(state: ClansState, seats: Sequence[str], viewer: Viewer) -> str:
    return "\n".join([*_board(state), "", *_status(state, seats, viewer)])


def _board(state: ClansState) -> list[str]:
    board = state.board
    villages = {
        t
        for t in range(1, len(state.totals))
        if state.totals[t] and not state.occupied & board.neighbour_mask[t]
    }
    cells = {(t.q, t.r): t for t in board.territories}
    qs = [t.q for t in board.territories]
    rs = [t.r for t in board.territories]
    # Twice the x of a cell's centre, in half cells: 2q + r.
    xs = [2 * t.q + t.r for t in board.territories]
    left = min(xs)
    lines: list[str] = []
    for r in range(min(rs), max(rs) + 1):
        top = [" "] * (CELL * (max(xs) - left + 2) // 2 + CELL)
        bottom = list(top)
        for q in range(min(qs), max(qs) + 1):
            x = (2 * q + r - left) * CELL // 2
            t = cells.get((q, r))
            if t is None:
                inside = any((q + d, r) in cells for d in range(-9, 0)) and any(
                    (q + d, r) in cells for d in range(1, 10)
                )
                if inside:
                    _put(top, x, "  ~~")
                continue
            mark = "*" if t.id in villages else ""
            _put(top, x, f"{t.id:>3}{t.terrain[0]}{mark}")
            _put(bottom, x, "   " + (_huts(state.huts[t.id]) or "·"))
        lines.append("".join(top).rstrip())
        lines.append("".join(bottom).rstrip())
    return lines


def _put(row: list[str], x: int, text: str) -> None:
    for i, ch in enumerate(text):
        if 0 <= x + i < len(row):
            row[x + i] = ch


def _huts(huts: Sequence[int]) -> str:
    return "".join(f"{LETTERS[i]}{n}" for i, n in enumerate(huts) if n)


def _status(state: ClansState, seats: Sequence[str], viewer: Viewer) -> list[str]:
    board = state.board
    chart = board.epoch(state.epoch)
    left = max(0, VILLAGES - state.founded)
    fav = ", ".join(sorted(chart.favourable)) or "none"
    unfav = ", ".join(sorted(chart.unfavourable)) or "none"
    lines = [
        f"epoch {state.epoch} (bonus {chart.bonus}; favourable {fav}; unfavourable {unfav})  "
        f"villages {state.founded}/{VILLAGES}  chips left {left}",
        "track  "
        + "  ".join(f"{name} {pts}" for name, pts in zip(COLOUR_NAMES, state.track, strict=True)),
    ]
    clans = visible_clans(state, viewer)
    scores = state.scores()
    seat_parts = []
    for i, name in enumerate(seats):
        colour = clans[i] or "?"
        score = f" = {scores[i]}" if clans[i] else ""
        seat_parts.append(f"{name} [{colour}] chips {state.chips[i]}{score}")
    lines.append("seats  " + "  ".join(seat_parts))
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
