"""A Clans state as SVG: the hex board at the board file's (q, r) in terrain colours, the lake and
the lake borders (thick blue: territories on either side are *not* adjacent), rivers (thin blue:
adjacent), region borders, huts as coloured shapes with their counts, villages and doomed ones;
beside it, in a panel of its own (``Picture.panel``: a page stacks it under the board in a narrow
window), the epoch chart with the chips left, the score track, the seats, whose turn it is and
the legend.

Parts are keyed so that ``tribes html`` sends a page only what a move changes: ``board`` (drawn
once), ``t12`` (the huts of territory 12), ``last``; in the panel ``chart``, ``track``,
``seat0``…, ``turn``, ``status``, ``legend``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tribes.core.events import Event
from tribes.core.game import Viewer
from tribes.core.pictures import (
    HIGHLIGHT,
    INK,
    OKABE_ITO,
    PAPER,
    Part,
    Picture,
    data,
    group,
    ink_on,
    num,
    points,
    shape,
    text,
)
from tribes.games.clans.board import COLOUR_NAMES, VILLAGES, Board
from tribes.games.clans.events import HutsMoved, OrderChosen
from tribes.games.clans.state import ClansState
from tribes.games.clans.views import visible_clans

R = 32
"""A hex's radius (centre to corner)."""
BOARD_W = 500
HEIGHT = 470
WIDTH = 510
"""The board's picture; the panel is a picture of its own (``Picture.panel``), which a page
shows beside the board or, in a narrow window, under it, and ``svg()`` draws to its right."""
PANEL_W = 292
PANEL_X = 6
"""The left of the panel's text, in the panel's own units."""
LABEL_DY = 22
"""A village's label (``V12``): its baseline under the centre, inside the hex and its ring (the
walk-through saw ``V12`` at 26 cross the hex's lower edges and the last move's outline)."""

HUT_COLOURS = {
    "red": OKABE_ITO["vermillion"],
    "yellow": OKABE_ITO["yellow"],
    "green": OKABE_ITO["bluish green"],
    "blue": OKABE_ITO["blue"],
    "black": OKABE_ITO["black"],
}
"""The five clans in the Okabe–Ito palette; each has its own shape too."""
HUT_SHAPES = {
    "red": "circle",
    "yellow": "diamond",
    "green": "square",
    "blue": "hexagon",
    "black": "triangle",
}
TERRAIN_FILLS = {
    "forest": "#9CC59A",
    "mountain": "#C4BBB0",
    "steppe": "#EAD9A2",
    "grassland": "#D8EBB0",
}
WATER = "#7DB7DE"
RIVER = "#2C7FB8"


def picture(state: ClansState, seats: Sequence[str], viewer: Viewer, last: Event | None) -> Picture:
    board = state.board
    parts: list[Part] = [("board", _board(board))]
    villages = {v.territory: v for v in state.villages}
    for t in board.territories:
        parts.append((f"t{t.id}", _territory(state, t.id, villages.get(t.id))))
    parts.append(("last", _last(board, last)))
    parts.append(("pending", _pending(state)))
    beside: list[Part] = [("chart", _chart(state)), ("track", _track(state))]
    beside.extend(_seats(state, seats, viewer))
    beside.append(("legend", _legend()))
    panel = Picture(PANEL_W, HEIGHT, tuple(beside))
    return Picture(WIDTH, HEIGHT, tuple(parts), title=f"Clans: {', '.join(seats)}", panel=panel)


# --- geometry -------------------------------------------------------------------------------------


def centre(board: Board, tid: int) -> tuple[float, float]:
    t = board.territory(tid)
    return _xy(t.q, t.r)


def _xy(q: int, r: int) -> tuple[float, float]:
    return (BOARD_W / 2 + R * math.sqrt(3) * (q + r / 2), HEIGHT / 2 + 1.5 * R * r)


def _corners(x: float, y: float, radius: float = R) -> list[tuple[float, float]]:
    return [
        (
            x + radius * math.cos(math.radians(60 * k - 30)),
            y + radius * math.sin(math.radians(60 * k - 30)),
        )
        for k in range(6)
    ]


def _edge(a: tuple[float, float], b: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    """The two corners of hex ``a`` nearest the centre of its neighbour ``b``: their border."""
    corners = sorted(_corners(*a), key=lambda c: math.dist(c, b))
    return corners[0], corners[1]


_NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


# --- the board (drawn once) -----------------------------------------------------------------------


def _board(board: Board) -> str:
    cells = {(t.q, t.r): t for t in board.territories}
    out = [f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>']
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    for r in range(min(rs), max(rs) + 1):  # the lake: holes inside the map
        for q in range(min(qs), max(qs) + 1):
            if (q, r) in cells:
                continue
            inside = any((q + d, r) in cells for d in range(-9, 0)) and any(
                (q + d, r) in cells for d in range(1, 10)
            )
            if inside:
                out.append(f'<polygon points="{points(_corners(*_xy(q, r)))}" fill="{WATER}"/>')
    for t in board.territories:
        x, y = _xy(t.q, t.r)
        out.append(
            f'<polygon points="{points(_corners(x, y))}" fill="{TERRAIN_FILLS.get(t.terrain, "#DDDDDD")}" '
            f'stroke="#8A8478" stroke-width="0.8" {data(territory=t.id, terrain=t.terrain)}/>'
        )
        out.append(
            text(x, y - R * 0.5, f"{t.id} {t.terrain[0]}", size=10, anchor="middle", fill="#3D3A33")
        )
    for t in board.territories:  # region borders, drawn once per pair
        a = _xy(t.q, t.r)
        for dq, dr in _NEIGHBOURS:
            other = cells.get((t.q + dq, t.r + dr))
            if other is not None and other.id > t.id and other.region != t.region:
                (x1, y1), (x2, y2) = _edge(a, _xy(other.q, other.r))
                out.append(_line(x1, y1, x2, y2, "#5A554C", 2.2))
    for pair in sorted(tuple(sorted(p)) for p in board.lakes):
        (x1, y1), (x2, y2) = _edge(centre(board, pair[0]), centre(board, pair[1]))
        out.append(_line(x1, y1, x2, y2, WATER, 6, f" {data(lake='-'.join(map(str, pair)))}"))
    for pair in sorted(tuple(sorted(p)) for p in board.rivers):
        out.append(_river(board, pair))
    return "".join(out)


def _line(
    x1: float, y1: float, x2: float, y2: float, colour: str, width: float, extra: str = ""
) -> str:
    return (
        f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" stroke="{colour}" '
        f'stroke-width="{num(width)}" stroke-linecap="round"{extra}/>'
    )


def _river(board: Board, pair: tuple[int, ...]) -> str:
    """A river on a border: a wavy blue line along it (the territories stay adjacent)."""
    (x1, y1), (x2, y2) = _edge(centre(board, pair[0]), centre(board, pair[1]))
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    nx, ny = -(y2 - y1) / 4, (x2 - x1) / 4
    return (
        f'<path d="M{num(x1)},{num(y1)} Q{num((x1 + mx) / 2 + nx)},{num((y1 + my) / 2 + ny)} '
        f'{num(mx)},{num(my)} T{num(x2)},{num(y2)}" fill="none" stroke="{RIVER}" '
        f'stroke-width="2.5" stroke-linecap="round" {data(river="-".join(map(str, pair)))}/>'
    )


def _legend() -> str:
    """In the panel, under the seats: what the lines and letters mean."""
    x, y = PANEL_X, HEIGHT - 30
    items = [
        f'<rect x="{x}" y="{y - 6}" width="14" height="5" fill="{WATER}"/>',
        text(x + 18, y, "lake: no border", size=9),
        f'<path d="M{x + 96},{y - 3} q4,-4 8,0 t8,0" fill="none" stroke="{RIVER}" stroke-width="2.5"/>',
        text(x + 116, y, "river: adjacent", size=9),
        _line(x + 194, y - 3, x + 208, y - 3, "#5A554C", 2.2),
        text(x + 212, y, "region", size=9),
    ]
    terrains = "  ".join(f"{name[0]} {name}" for name in TERRAIN_FILLS)
    items.append(text(x, y + 14, terrains + "  · V3: village 3", size=9, fill="#3D3A33"))
    return "".join(items)


# --- what moves -----------------------------------------------------------------------------------


def _territory(state: ClansState, tid: int, village: object) -> str:
    board = state.board
    x, y = centre(board, tid)
    huts = state.huts[tid]
    present = [(COLOUR_NAMES[i], n) for i, n in enumerate(huts) if n]
    out: list[str] = []
    if village is not None:
        doomed = not state.totals[tid]
        ring = points(_corners(x, y, R - 3.5))
        if doomed:
            out.append(
                f'<polygon points="{ring}" fill="none" stroke="{INK}" stroke-width="1.5" stroke-dasharray="3 2"/>'
                + _line(x - 9, y - 3, x + 9, y + 15, INK, 2.5)
                + _line(x + 9, y - 3, x - 9, y + 15, INK, 2.5)
            )
        else:
            out.append(f'<polygon points="{ring}" fill="none" stroke="{INK}" stroke-width="2.5"/>')
        kind = "doomed" if doomed else "village"
    else:
        kind = "empty" if not present else "huts"
    rows = [present[:3], present[3:]] if len(present) > 3 else [present]
    for row_index, row in enumerate(rows):
        if village is None:
            cy = y + (1 if len(rows) == 2 else 6) + 16 * row_index
        else:  # higher, and closer: the village's label goes under them, inside the hex
            cy = y + (-7 if len(rows) == 2 else 0) + 13 * row_index
        for i, (colour, n) in enumerate(row):
            cx = x + (i - (len(row) - 1) / 2) * 17
            fill = HUT_COLOURS[colour]
            out.append(
                group(
                    f'class="huts" {data(territory=tid, colour=colour, count=n)}',
                    shape(HUT_SHAPES[colour], cx, cy, 7.5, fill),
                    text(
                        cx,
                        cy + (5.5 if HUT_SHAPES[colour] == "triangle" else 3.5),
                        n,
                        size=10 if n < 10 else 8,
                        anchor="middle",
                        fill=ink_on(fill),
                        weight="bold",
                    ),
                )
            )
    if village is not None:  # last, on a light halo: nothing covers it
        label = f"V{getattr(village, 'number', 0)}"
        out.append(  # its baseline where the hex is still wide enough for ``V12``
            text(
                x,
                y + LABEL_DY,
                label,
                size=9,
                anchor="middle",
                weight="bold",
                extra=' class="village-label" stroke="#FFFFFF" stroke-width="3" paint-order="stroke"',
            )
        )
    return group(f'class="territory" {data(territory=tid, state=kind)}', *out)


def _last(board: Board, last: Event | None) -> str:
    """The last move: a dashed outline on its source, a solid one on its target, an arrow."""
    if isinstance(last, HutsMoved):
        (x1, y1), (x2, y2) = centre(board, last.source), centre(board, last.target)
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        ux, uy = dx / length, dy / length
        # from the source's huts (gone now) to the border: the target's counts stay clear
        sx, sy = x1 + ux * R * 0.3, y1 + uy * R * 0.3
        ex, ey = x2 - ux * (R * 0.8 + 8), y2 - uy * (R * 0.8 + 8)  # the tip clear of them
        head = [(ex + ux * 8, ey + uy * 8), (ex - uy * 6, ey + ux * 6), (ex + uy * 6, ey - ux * 6)]
        return group(
            f'class="last" {data(source=last.source, target=last.target)}',
            f'<polygon points="{points(_corners(x1, y1, R - 1.5))}" fill="none" stroke="{HIGHLIGHT}" '
            'stroke-width="4" stroke-dasharray="6 3"/>',
            f'<polygon points="{points(_corners(x2, y2, R - 1.5))}" fill="none" stroke="{HIGHLIGHT}" stroke-width="4"/>',
            _line(sx, sy, ex, ey, "#FFFFFF", 6),
            _line(sx, sy, ex, ey, INK, 3),
            f'<polygon points="{points(head)}" fill="{INK}" stroke="#FFFFFF" stroke-width="1"/>',
        )
    if isinstance(last, OrderChosen):
        marks = []
        for i, tid in enumerate(last.villages, start=1):
            x, y = centre(board, tid)
            marks.append(
                f'<polygon points="{points(_corners(x, y, R - 1.5))}" fill="none" stroke="{HIGHLIGHT}" stroke-width="4"/>'
                f'<circle cx="{num(x + R * 0.55)}" cy="{num(y - R * 0.45)}" r="7" fill="{HIGHLIGHT}" stroke="{INK}"/>'
                + text(x + R * 0.55, y - R * 0.45 + 3.5, i, size=10, anchor="middle", weight="bold")
            )
        return group(f'class="last" {data(order=" ".join(map(str, last.villages)))}', *marks)
    return '<g class="last"></g>'


def _pending(state: ClansState) -> str:
    """Villages waiting for the active player's order (C18, C19): a dashed ring and a '?'."""
    if state.pending is None:
        return '<g class="pending"></g>'
    marks = []
    for tid in state.pending.villages:
        x, y = centre(state.board, tid)
        marks.append(
            f'<polygon points="{points(_corners(x, y, R - 6))}" fill="none" stroke="{INK}" '
            'stroke-width="2" stroke-dasharray="4 3"/>'
            f'<circle cx="{num(x - R * 0.55)}" cy="{num(y - R * 0.45)}" r="7" fill="#FFF" stroke="{INK}"/>'
            + text(x - R * 0.55, y - R * 0.45 + 3.5, "?", size=10, anchor="middle", weight="bold")
        )
    listed = " ".join(map(str, state.pending.villages))
    return group(f'class="pending" {data(villages=listed)}', *marks)


# --- the panel ------------------------------------------------------------------------------------


def _chart(state: ClansState) -> str:
    board = state.board
    x0, y0 = PANEL_X, 14
    out = [text(x0, y0 + 10, "Epochs", size=13, weight="bold")]
    taken = state.founded
    slot = 0
    for e in board.epochs:
        y = y0 + 18 + 22 * (e.number - 1)
        current = e.number == state.epoch and not state.over
        if current:
            out.append(
                f'<rect x="{x0 - 4}" y="{y}" width="284" height="20" rx="4" fill="none" '
                f'stroke="{HIGHLIGHT}" stroke-width="2.5"/>'
            )
        out.append(text(x0, y + 14, f"{e.number}", size=11, weight="bold"))
        for i in range(e.chips):
            cx = x0 + 18 + 13 * i
            left = slot >= taken
            out.append(
                f'<circle cx="{cx}" cy="{y + 10}" r="5" fill="{"#E2B93B" if left else "none"}" '
                f'stroke="{INK}" stroke-width="1" {data(chip=slot + 1, left=str(left).lower())}/>'
            )
            slot += 1
        good = (
            "every terrain" if e.favourable >= board.terrains else ", ".join(sorted(e.favourable))
        )
        bad = ", ".join(sorted(e.unfavourable))
        words = f"+{e.bonus} {good}" + (f"; {bad} doomed" if bad else "")
        out.append(text(x0 + 76, y + 14, words, size=10))
    chips = max(0, VILLAGES - taken)
    out.append(
        text(
            x0,
            y0 + 136,
            f"villages {min(taken, VILLAGES)}/{VILLAGES} · chips left {chips}",
            size=11,
        )
    )
    return group(f'class="chart" {data(epoch=state.epoch, chips_left=chips)}', *out)


def _track(state: ClansState) -> str:
    x0, y0 = PANEL_X, 170
    out = [text(x0, y0 + 10, "Track", size=13, weight="bold")]
    top = max(*state.track, 1)
    for i, name in enumerate(COLOUR_NAMES):
        y = y0 + 18 + 20 * i
        fill = HUT_COLOURS[name]
        points_ = state.track[i]
        out.append(shape(HUT_SHAPES[name], x0 + 8, y + 8, 6.5, fill))
        out.append(text(x0 + 20, y + 12, name, size=10))
        width = 170 * points_ / max(top, 40)
        out.append(
            f'<rect x="{x0 + 64}" y="{y + 3}" width="{num(max(width, 1))}" height="11" fill="{fill}" '
            f'stroke="{INK}" stroke-width="0.6" {data(track=name, points=points_)}/>'
        )
        out.append(text(x0 + 70 + max(width, 1), y + 12, points_, size=10, weight="bold"))
    return group('class="track"', *out)


def _seats(state: ClansState, seats: Sequence[str], viewer: Viewer) -> list[Part]:
    """A part per seat (a move changes one or two) and one for the status line."""
    x0, y0 = PANEL_X, 300
    clans = visible_clans(state, viewer)
    scores = state.scores()
    parts: list[Part] = [("seats", text(x0, y0 + 10, "Seats", size=13, weight="bold"))]
    for i, name in enumerate(seats):
        y = y0 + 18 + 22 * i
        colour = clans[i]
        out = []
        if colour is not None:
            out.append(shape(HUT_SHAPES[colour], x0 + 20, y + 9, 6.5, HUT_COLOURS[colour]))
        else:
            out.append(
                f'<circle cx="{x0 + 20}" cy="{y + 9}" r="6.5" fill="#FFF" stroke="{INK}" '
                'stroke-dasharray="2 1.5"/>'
                + text(x0 + 20, y + 12.5, "?", size=10, anchor="middle", weight="bold")
            )
        chips = state.chips[i]
        score = f" = {scores[i]}" if colour is not None else ""
        words = f"{name} · {colour or 'hidden'} · {chips} chip{'' if chips == 1 else 's'}{score}"
        out.append(text(x0 + 32, y + 13, words, size=11))
        attributes = data(seat=name, clan=colour or "hidden", chips=chips)
        parts.append((f"seat{i}", group(f'class="seat" {attributes}', *out)))
    if state.over:
        best = max(scores)
        won = [seats[i] for i, s in enumerate(scores) if s == best]
        status = f"game over: {' and '.join(won)} {'win' if len(won) > 1 else 'wins'} with {best}"
    elif state.pending is not None:
        listed = " ".join(map(str, state.pending.villages))
        status = f"{seats[state.to_move]} must order villages {listed}"
    else:
        status = f"{seats[state.to_move]} to move"
    turn = ""
    if not state.over:  # a mark before the seat to move: its own part, since it moves every turn
        y = y0 + 18 + 22 * state.to_move
        turn = f'<polygon points="{points([(x0, y + 3), (x0 + 9, y + 9), (x0, y + 15)])}"/>'
    parts.append(("turn", group(f'class="turn" {data(seat=seats[state.to_move])}', turn)))
    parts.append(("status", text(x0, y0 + 34 + 22 * len(seats), status, size=12, weight="bold")))
    return parts
