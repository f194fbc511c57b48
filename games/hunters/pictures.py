"""A Hunters and Gatherers state as SVG: every placed tile drawn from the tile data in its
rotation — each side a wedge in its feature's colour (forest, meadow; a river side is bank, river,
bank), lakes as blue discs with their fish, and the contents as marks: gold, mushrooms, animals,
fire, shrine; the pieces by seat (a colour and a letter: g gatherer, f fisher, h hunter, u hut),
completed forests and rivers ticked, the last tile outlined; beside the play area the drawn tile,
the stacks and the seats.

Written against the game's public state (``HuntersState``: ``placed``, ``pieces``, ``board``
with its groups, ``tiles``); the game's ``__init__`` names it with ``pictures = pictures``, as
Clans and Iwari do, and the pictures conformance test then covers it.

Parts are keyed so that ``tribes html`` sends a page only what a move changes: a tile is drawn
once (``tile:x,y``), its pieces and ticks are their own parts (``on:x,y``); the play area is one
group (``area<`` … ``area>``) whose offset changes when the area grows, so the tiles keep theirs.
"""

from __future__ import annotations

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
    text,
)
from tribes.core.views import count
from tribes.games.hunters.board import ANIMALS, Feature, Tile, Turned
from tribes.games.hunters.state import HuntersState

S = 72
"""A tile's side."""
MARGIN = 16
PANEL_W = 250
SEAT_COLOURS = (
    OKABE_ITO["orange"],
    OKABE_ITO["sky blue"],
    OKABE_ITO["bluish green"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["black"],
)
LETTERS = "abcde"
KIND = {"gatherer": "g", "fisher": "f", "hunter": "h", "hut": "u"}
FILLS = {"forest": "#4F8F4A", "meadow": "#CFE3A0", "river": "#4F9ED8", "lake": "#2C7FB8"}
ANIMAL_MARKS = {"deer": "D", "mammoth": "M", "aurochs": "A", "tiger": "T"}
BANKS = (0.36, 0.64)
"""Where a river side's three parts meet, along the side."""


def picture(
    state: HuntersState, seats: Sequence[str], viewer: Viewer, last: Event | None
) -> Picture:
    """H23: everything is public but the order of the stacks, so every viewer sees the same."""
    cells = state.board.cells
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    left, top = min(xs) - 1, min(ys) - 1  # a free cell round the area
    width = (max(xs) - left + 2) * S + 2 * MARGIN
    height = (max(ys) - top + 2) * S + 2 * MARGIN
    scale = max(1.0, min(2.0, height / 420))  # the panel grows with the area, to stay legible
    total_w = width + round(PANEL_W * scale)
    total_h = max(height, round((230 + 26 * len(seats)) * scale))
    parts: list[Part] = [
        ("paper", f'<rect width="100%" height="100%" fill="{PAPER}"/>'),
        ("area<", f'<g transform="translate({MARGIN - left * S},{MARGIN - top * S})">'),
    ]
    for x, y, tile_id, rotation in state.placed:
        tile = state.tiles.tiles[tile_id]
        parts.append((f"tile:{x},{y}", _tile(tile, tile.turned[rotation], x, y, rotation)))
    done = _completed(state)
    by_cell: dict[tuple[int, int], list[str]] = {}
    for p in state.pieces:
        by_cell.setdefault((p.x, p.y), []).append(
            _piece(state, p.x, p.y, p.feature, p.kind, p.seat)
        )
    for x, y, fid in done:
        by_cell.setdefault((x, y), []).append(_tick(state, x, y, fid))
    for cell in sorted(by_cell):
        parts.append((f"on:{cell[0]},{cell[1]}", "".join(by_cell[cell])))
    if state.placed:
        x, y, _, _ = state.placed[-1]
        parts.append(
            (
                "last",
                group(
                    f'class="last" {data(x=x, y=y)}',
                    f'<rect x="{x * S - 2}" y="{y * S - 2}" width="{S + 4}" height="{S + 4}" '
                    f'fill="none" stroke="{HIGHLIGHT}" stroke-width="4"/>',
                ),
            )
        )
    parts.append(("area>", "</g>"))
    parts.append(
        (
            "panel",
            f'<g transform="translate({width},0) scale({scale:.2f})">{_panel(state, seats, 0)}</g>',
        )
    )
    return Picture(
        total_w, total_h, tuple(parts), title=f"Hunters and Gatherers: {', '.join(seats)}"
    )


# --- a tile ---------------------------------------------------------------------------------------


def _corners(x: int, y: int) -> tuple[tuple[float, float], ...]:
    """Top left, top right, bottom right, bottom left: side d runs from corner d to d + 1."""
    x0, y0 = x * S, y * S
    return ((x0, y0), (x0 + S, y0), (x0 + S, y0 + S), (x0, y0 + S))


def _wedges(turned: Turned, x: int, y: int) -> list[tuple[int, list[tuple[float, float]]]]:
    """(feature id, triangle) of the land of every side, rotated as placed: a side of one part
    is one triangle to the centre; a river side's two banks share its triangle, half each (the
    river itself is drawn over them, see :func:`_rivers`)."""
    corners = _corners(x, y)
    centre = (x * S + S / 2, y * S + S / 2)
    out = []
    for d, side in enumerate(turned.parts):
        (ax, ay), (bx, by) = corners[d], corners[(d + 1) % 4]
        halves = (
            [(side[0], 0.0, 1.0)] if len(side) == 1 else [(side[0], 0.0, 0.5), (side[2], 0.5, 1.0)]
        )
        for fid, t0, t1 in halves:
            p0 = (ax + (bx - ax) * t0, ay + (by - ay) * t0)
            p1 = (ax + (bx - ax) * t1, ay + (by - ay) * t1)
            out.append((fid, [p0, p1, centre]))
    return out


def _rivers(turned: Turned, x: int, y: int) -> list[tuple[int, tuple[float, float]]]:
    """(river feature id, the middle of the side it crosses) for every river side."""
    corners = _corners(x, y)
    out = []
    for d, side in enumerate(turned.parts):
        if len(side) == 3:
            (ax, ay), (bx, by) = corners[d], corners[(d + 1) % 4]
            out.append((side[1], ((ax + bx) / 2, (ay + by) / 2)))
    return out


def where(turned: Turned, x: int, y: int, fid: int) -> tuple[float, float]:
    """A feature's mark: on a river a third of the way in from its side; on land the mean of
    its triangles' centroids (the centre for a lake)."""
    centre = (x * S + S / 2, y * S + S / 2)
    for f, (mx, my) in _rivers(turned, x, y):
        if f == fid:
            return mx + (centre[0] - mx) * 0.4, my + (centre[1] - my) * 0.4
    found = [
        (sum(px for px, _ in tri) / 3, sum(py for _, py in tri) / 3)
        for f, tri in _wedges(turned, x, y)
        if f == fid
    ]
    if not found:
        return centre
    cx = sum(px for px, _ in found) / len(found)
    cy = sum(py for _, py in found) / len(found)
    if abs(cx - centre[0]) < 6 and abs(cy - centre[1]) < 6:
        cx, cy = found[0]  # a feature all round the tile: mark it on its first side
    return cx, cy


def _tile(tile: Tile, turned: Turned, x: int, y: int, rotation: int, cls: str = "tile") -> str:
    out = []
    for fid, tri in _wedges(turned, x, y):
        fill = FILLS[tile.features[fid].type]
        out.append(
            f'<polygon points="{points(tri)}" fill="{fill}" stroke="{fill}" stroke-width="0.6"/>'
        )
    centre = (x * S + S / 2, y * S + S / 2)
    for fid, (mx, my) in _rivers(turned, x, y):
        out.append(
            f'<line x1="{num(mx)}" y1="{num(my)}" x2="{num(centre[0])}" y2="{num(centre[1])}" '
            f'stroke="{FILLS["river"]}" stroke-width="{S * 0.16:.1f}" stroke-linecap="round"/>'
        )
        feature = tile.features[fid]
        if feature.lake is None and len(turned.touches[fid]) == 1:  # a spring
            out.append(
                f'<circle cx="{num(centre[0])}" cy="{num(centre[1])}" r="5" fill="#FFFFFF" stroke="{FILLS["river"]}" stroke-width="2"/>'
            )
    lakes = [f for f in tile.features.values() if f.type == "lake"]
    for k, lake in enumerate(lakes):
        cx, cy = x * S + S / 2 + 14 * (k - (len(lakes) - 1) / 2), y * S + S / 2
        out.append(
            f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{S * 0.17:.1f}" fill="{FILLS["lake"]}" '
            f'stroke="#1B5E8C" stroke-width="1"/>'
        )
        if lake.fish:
            out.append(
                text(
                    cx,
                    cy + 4,
                    f"{lake.fish}",
                    size=11,
                    anchor="middle",
                    fill="#FFFFFF",
                    weight="bold",
                )
            )
    for f in tile.features.values():
        marks = _marks(f)
        if marks and f.type != "lake":
            mx, my = where(turned, x, y, f.id)
            out.append(_badge(mx, my, marks, gold=f.gold))
    out.append(
        f'<rect x="{x * S}" y="{y * S}" width="{S}" height="{S}" fill="none" stroke="#5A554C" stroke-width="0.8"/>'
    )
    out.append(
        text(x * S + 3, y * S + 10, tile.id, size=8, fill="#FFFFFF", extra=' opacity="0.85"')
    )
    if tile.kind == "bonus":
        out.append(text(x * S + S - 3, y * S + 10, "bonus", size=7, anchor="end", fill="#FFFFFF"))
    return group(f'class="{cls}" {data(x=x, y=y, tile=tile.id, rotation=rotation)}', *out)


def _marks(f: Feature) -> str:
    """What a feature holds, as letters: $ gold, * mushrooms, D M A T animals, ! fire, + shrine."""
    out = "$" * f.gold + "*" * f.mushrooms
    out += "".join(ANIMAL_MARKS[name] * n for name, n in zip(ANIMALS, f.animals, strict=True))
    return out + "!" * f.fire + "+" * f.shrine


def _badge(x: float, y: float, marks: str, *, gold: bool) -> str:
    w = 7 * len(marks) + 6
    fill = "#F0E442" if gold else "#FFFFFF"
    return (
        f'<rect x="{num(x - w / 2)}" y="{num(y - 7)}" width="{w}" height="13" rx="6" fill="{fill}" '
        f'fill-opacity="0.9" stroke="{INK}" stroke-width="0.6"/>'
        + text(x, y + 3.5, marks, size=9, anchor="middle", weight="bold")
    )


# --- on the tiles ---------------------------------------------------------------------------------


def _piece(state: HuntersState, x: int, y: int, fid: int, kind: str, seat: int) -> str:
    tile_id, _, turned = state.board.cells[(x, y)]
    px, py = where(turned, x, y, fid)
    if state.tiles.tiles[tile_id].features[fid].type == "lake":
        px, py = px + 12, py - 12
    fill = SEAT_COLOURS[seat]
    shape = (
        f'<rect x="{num(px - 9)}" y="{num(py - 9)}" width="18" height="18" rx="2" fill="{fill}" stroke="{INK}"/>'
        if kind == "hut"
        else f'<circle cx="{num(px)}" cy="{num(py)}" r="9" fill="{fill}" stroke="{INK}" stroke-width="1.2"/>'
    )
    return group(
        f'class="piece" {data(x=x, y=y, feature=fid, kind=kind, seat=LETTERS[seat])}',
        shape,
        text(
            px,
            py + 3.5,
            f"{LETTERS[seat]}{KIND[kind]}",
            size=9,
            anchor="middle",
            fill=ink_on(fill),
            weight="bold",
        ),
    )


def _completed(state: HuntersState) -> list[tuple[int, int, int]]:
    """One node per completed forest or river (no open side left): where its tick goes."""
    out = []
    for g in state.board.groups.values():
        if g.type != "meadow" and g.open == 0:
            out.append(min(g.nodes))
    return sorted(out)


def _tick(state: HuntersState, x: int, y: int, fid: int) -> str:
    _, _, turned = state.board.cells[(x, y)]
    px, py = where(turned, x, y, fid)
    px, py = px - 14, py + 10
    return group(
        f'class="complete" {data(x=x, y=y, feature=fid)}',
        f'<circle cx="{num(px)}" cy="{num(py)}" r="7" fill="#FFFFFF" stroke="{INK}"/>',
        f'<polyline points="{points([(px - 4, py), (px - 1, py + 3), (px + 4, py - 3)])}" fill="none" '
        f'stroke="{INK}" stroke-width="2"/>',
    )


# --- the panel ------------------------------------------------------------------------------------


def _panel(state: HuntersState, seats: Sequence[str], x0: int) -> str:
    x0 += 10
    out = [text(x0, 24, "Drawn tile", size=13, weight="bold")]
    if state.drawn is not None and not state.over:
        tile = state.tiles.tiles[state.drawn]
        # drawn in rotation 0 in a cell of its own, moved next to the title
        out.append(
            f'<g transform="translate({x0 - 0},{34}) scale(0.8)">'
            + _tile(tile, tile.turned[0], 0, 0, 0, "drawn")
            + "</g>"
        )
        kind = "bonus tile" if state.bonus else "tile"
        out.append(text(x0 + 66, 60, f"{kind} {state.drawn}", size=11))
    else:
        out.append(text(x0, 50, "none", size=11))
    out.append(
        text(x0, 112, f"stacks: {len(state.stack)} land, {len(state.bonus_stack)} bonus", size=11)
    )
    if state.removed:
        out.append(text(x0, 128, f"removed: {' '.join(map(str, state.removed))}", size=10))
    out.append(text(x0, 152, "Seats", size=13, weight="bold"))
    for i, name in enumerate(seats):
        y = 162 + 26 * i
        fill = SEAT_COLOURS[i]
        if i == state.to_move and not state.over:
            out.append(
                f'<polygon points="{points([(x0, y + 5), (x0 + 8, y + 10), (x0, y + 15)])}"/>'
            )
        out.append(f'<circle cx="{x0 + 20}" cy="{y + 10}" r="8" fill="{fill}" stroke="{INK}"/>')
        out.append(
            text(
                x0 + 20,
                y + 13.5,
                LETTERS[i],
                size=9,
                anchor="middle",
                fill=ink_on(fill),
                weight="bold",
            )
        )
        members, huts = state.supply[i]
        out.append(
            text(
                x0 + 34,
                y + 14,
                f"{name}  {state.scores[i]} points · {count(members, 'member')}, {count(huts, 'hut')}",
                size=11,
                extra=f" {data(seat=name, score=state.scores[i])}",
            )
        )
    y = 170 + 26 * len(seats)
    status = "game over" if state.over else f"{seats[state.to_move]} to place the tile"
    out.append(text(x0, y + 8, status, size=12, weight="bold"))
    out.append(text(x0, y + 28, "$ gold  * mushrooms  D M A T animals", size=9, fill="#5A554C"))
    out.append(
        text(x0, y + 40, "! fire  + shrine  ✓ complete  g f h u pieces", size=9, fill="#5A554C")
    )
    return group('class="panel"', *out)
