"""A Hunters and Gatherers state as SVG: every placed tile drawn from the tile data in its
rotation — each side a wedge in its feature's colour (forest, meadow; a river side is bank, river,
bank), rivers stopping at the tile's edge, lakes as blue discs with their fish, and the contents
as marks: gold, mushrooms, animals, fire, shrine; the pieces by seat (a colour and a letter: g
gatherer, f fisher, h hunter, u hut), completed forests and rivers ticked, the last tile
outlined, each tile's id dark on a light chip. Where a feature's marks, piece and tick go is the
tile's layout (:mod:`tribes.games.hunters.spots`): nothing that can be on a tile at once overlaps.

The play area keeps each tile at (x, y) × S, whatever the area's size (the picture's origin
moves as it grows): a page stepping through a game keeps its view. Beside it, in a picture of
its own (``Picture.panel``, which a page shows out of the board's zoom): the drawn tile, large,
with each feature's id as the moves name it (``0,-1N+g1``) and a line per feature saying what
it is, the stacks, the seats and the legend. ``legible`` is the scale at which a tile reads.

Written against the game's public state (``HuntersState``: ``placed``, ``pieces``, ``board``
with its groups, ``tiles``); the game's ``__init__`` names it with ``pictures = pictures``.
Parts are keyed so that ``tribes html`` sends a page only what a move changes: a tile is drawn
once (``tile:x,y``), its pieces and ticks are their own parts (``on:x,y``).
"""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.events import Effect, Event
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
from tribes.games.hunters import spots
from tribes.games.hunters.board import Tile, Turned
from tribes.games.hunters.events import FeatureScored
from tribes.games.hunters.render import feature_words
from tribes.games.hunters.scoring import winners_of
from tribes.games.hunters.state import HuntersState

S = spots.S
MARGIN = 16
PANEL_W = 280
LEGIBLE = 1.4
"""Pixels per unit at which a tile's ids and marks read (a tile of about 100 pixels)."""
DRAWN_SCALE = 1.6
"""The drawn tile in the panel, larger than on the board: its feature ids are on it."""
SEAT_COLOURS = (
    OKABE_ITO["orange"],
    OKABE_ITO["sky blue"],
    OKABE_ITO["bluish green"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["black"],
)
BONUS_EDGE = "#B89B00"
"""A bonus tile's dashed edge: the gold that earned it, darker so that it shows on meadows."""
LETTERS = "abcde"
KIND = {"gatherer": "g", "fisher": "f", "hunter": "h", "hut": "u"}
FILLS = {"forest": "#4F8F4A", "meadow": "#CFE3A0", "river": "#4F9ED8", "lake": "#2C7FB8"}
RIVER_W = S * 0.16
DIRECTIONS = "NESW"


def picture(
    state: HuntersState, seats: Sequence[str], viewer: Viewer, last: Event | None
) -> Picture:
    """H23: everything is public but the order of the stacks, so every viewer sees the same.
    Tiles keep their place ((x, y) × S) however the area grows: its origin moves instead."""
    cells = state.board.cells
    xs = [x for x, _ in cells] or [0]
    ys = [y for _, y in cells] or [0]
    left, top = (min(xs) - 1) * S - MARGIN, (min(ys) - 1) * S - MARGIN  # a free cell round
    width = (max(xs) - min(xs) + 3) * S + 2 * MARGIN
    height = (max(ys) - min(ys) + 3) * S + 2 * MARGIN
    parts: list[Part] = [
        (
            "paper",
            f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="{PAPER}"/>',
        ),
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
    occupant = {(p.x, p.y): p.feature for p in state.pieces}  # one piece a tile at most (H6)
    for x, y, fid in done:
        by_cell.setdefault((x, y), []).append(_tick(state, x, y, fid, occupant.get((x, y))))
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
    return Picture(
        width,
        height,
        tuple(parts),
        title=f"Carcassonne: Hunters and Gatherers: {', '.join(seats)}",
        left=left,
        top=top,
        panel=_panel(state, seats),
        legible=LEGIBLE,
    )


def mark(state: HuntersState, effect: Effect) -> str:
    """What a scoring effect counted, marked on the board: each of its feature's pieces on each
    tile (forest and meadow wedges, rivers, lakes) in reddish purple, and its points on a chip
    at its first tile (``+7``); "" for any other effect. A page shows it when the effect's line
    is chosen, ``show --svg`` for every effect of the event it shows."""
    if not isinstance(effect, FeatureScored) or not effect.features:
        return ""
    cells = state.board.cells
    out = []
    for x, y, fid in effect.features:
        placed = cells.get((x, y))
        if placed is None:
            continue
        tile = state.tiles.tiles[placed.tile]
        turned = placed.turned
        for f, tri in _wedges(turned, x, y):
            if f == fid:
                out.append(f'<polygon points="{points(tri)}"/>')
        for f, (mx, my) in _rivers(turned, x, y):
            if f == fid:
                cx, cy = x * S + S / 2, y * S + S / 2
                out.append(
                    f'<line x1="{num(mx)}" y1="{num(my)}" x2="{num(cx)}" y2="{num(cy)}" '
                    f'stroke="{HIGHLIGHT}" stroke-width="{RIVER_W + 6:.1f}"/>'
                )
        for f, (lx, ly), radius in spots.lakes(tile, turned):
            if f == fid:
                out.append(
                    f'<circle cx="{num(x * S + lx)}" cy="{num(y * S + ly)}" r="{radius + 3:.1f}"/>'
                )
    x, y = effect.tiles[0]
    words = f"+{effect.points}"
    chip = (
        f'<rect x="{x * S + S / 2 - 14}" y="{y * S + S / 2 - 10}" width="28" height="20" rx="10" '
        f'fill="{HIGHLIGHT}" stroke="{INK}" stroke-width="1"/>'
        + text(x * S + S / 2, y * S + S / 2 + 5, words, size=13, anchor="middle", weight="bold")
    )
    attributes = data(type=effect.type, points=effect.points, features=len(effect.features))
    return group(
        f'class="scored" {attributes}',
        f'<g fill="{HIGHLIGHT}" fill-opacity="0.45" stroke="{HIGHLIGHT}" stroke-opacity="0.9" '
        f'stroke-width="2">{"".join(out)}</g>',
        chip,
    )


# --- a tile ---------------------------------------------------------------------------------------


_wedges = spots.wedges
_rivers = spots.rivers
_spots = spots.preferred


def _tile(
    tile: Tile, turned: Turned, x: int, y: int, rotation: int, cls: str = "tile", ids: bool = False
) -> str:
    """A tile in its rotation at cell (x, y); with ``ids`` (the drawn tile) each feature's id,
    as the moves name it, on its spot."""
    out = []
    for fid, tri in _wedges(turned, x, y):
        fill = FILLS[tile.features[fid].type]
        out.append(
            f'<polygon points="{points(tri)}" fill="{fill}" stroke="{fill}" stroke-width="0.6"/>'
        )
    centre = (x * S + S / 2, y * S + S / 2)
    rivers = _rivers(turned, x, y)
    for _, (mx, my) in rivers:  # butt ends: the river stops at the tile's edge
        out.append(
            f'<line x1="{num(mx)}" y1="{num(my)}" x2="{num(centre[0])}" y2="{num(centre[1])}" '
            f'stroke="{FILLS["river"]}" stroke-width="{RIVER_W:.1f}"/>'
        )
    if rivers:  # the bend where they meet
        out.append(
            f'<circle cx="{num(centre[0])}" cy="{num(centre[1])}" r="{RIVER_W / 2:.1f}" '
            f'fill="{FILLS["river"]}"/>'
        )
    for fid, _ in rivers:
        feature = tile.features[fid]
        if feature.lake is None and len(turned.touches[fid]) == 1:  # a spring
            out.append(
                f'<circle cx="{num(centre[0])}" cy="{num(centre[1])}" r="5" fill="#FFFFFF" stroke="{FILLS["river"]}" stroke-width="2"/>'
            )
    for fid, (lx, ly), radius in spots.lakes(tile, turned):  # two apart: smaller
        lake, cx, cy = tile.features[fid], x * S + lx, y * S + ly
        out.append(
            f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{radius:.1f}" fill="{FILLS["lake"]}" '
            f'stroke="#1B5E8C" stroke-width="1"/>'
        )
        if lake.fish:
            out.append(
                text(cx, cy + 4, lake.fish, size=11, anchor="middle", fill="#FFFFFF", weight="bold")
            )
    if tile.kind == "bonus":  # an edge, not a word: under the marks and the id
        out.append(
            f'<rect class="bonus-edge" x="{x * S + 2.5}" y="{y * S + 2.5}" width="{S - 5}" '
            f'height="{S - 5}" fill="none" stroke="{BONUS_EDGE}" stroke-width="2.5" '
            'stroke-dasharray="5 3"/>'
        )
    placed = spots.layout(tile, rotation)
    for fid, (mx, my) in sorted(placed.marks.items()):
        out.append(
            _badge(x * S + mx, y * S + my, spots.marks_of(tile, fid), gold=tile.features[fid].gold)
        )
    out.append(
        f'<rect x="{x * S}" y="{y * S}" width="{S}" height="{S}" fill="none" stroke="#5A554C" stroke-width="0.8"/>'
    )
    if not ids:  # the drawn tile's heading names it: its corner is the feature ids'
        cx, cy = placed.id_corner
        out.append(_label(x * S + cx, y * S + cy, str(tile.id)))
    if ids:
        for fid, (px, py) in sorted(_id_spots(tile, turned, x, y).items()):
            out.append(_feature_id(px, py, fid))
    return group(f'class="{cls}" {data(x=x, y=y, tile=tile.id, rotation=rotation)}', *out)


def _id_spots(tile: Tile, turned: Turned, x: int, y: int) -> dict[int, tuple[float, float]]:
    """Where each feature's id goes on the drawn tile at cell (x, y): clear of its marks, its
    lakes and each other (:func:`spots.feature_ids`)."""
    return {fid: (x * S + px, y * S + py) for fid, (px, py) in spots.feature_ids(tile).items()}


def _label(x: float, y: float, words: str) -> str:
    """A tile's id in its corner (:func:`spots.chip`): dark on a light chip, readable on any
    land."""
    return (
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(spots.label_width(words))}" height="12" '
        f'rx="2" fill="#FFFFFF" fill-opacity="0.85"/>'
        + text(x + 2, y + 9.5, words, size=10, weight="bold")
    )


def _feature_id(x: float, y: float, fid: int) -> str:
    """A feature's id on the drawn tile: white on black, the shape of no piece."""
    return group(
        f'class="feature-id" {data(feature=fid)}',
        f'<rect x="{num(x - 7)}" y="{num(y - 7)}" width="14" height="14" rx="3" fill="{INK}" '
        f'stroke="#FFFFFF" stroke-width="1"/>',
        text(x, y + 4, fid, size=11, anchor="middle", fill="#FFFFFF", weight="bold"),
    )


def _badge(x: float, y: float, marks: str, *, gold: bool) -> str:
    w = 7 * len(marks) + 6
    fill = "#F0E442" if gold else "#FFFFFF"
    return (
        f'<rect x="{num(x - w / 2)}" y="{num(y - 7)}" width="{w}" height="14" rx="6" fill="{fill}" '
        f'fill-opacity="0.92" stroke="{INK}" stroke-width="0.6"/>'
        + text(x, y + 4, marks, size=10, anchor="middle", weight="bold")
    )


# --- on the tiles ---------------------------------------------------------------------------------


def _piece(state: HuntersState, x: int, y: int, fid: int, kind: str, seat: int) -> str:
    placed = state.board.cells[(x, y)]
    tile_id, rotation = placed.tile, placed.rotation
    sx, sy = spots.layout(state.tiles.tiles[tile_id], rotation).piece[fid]
    px, py = x * S + sx, y * S + sy
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


def _tick(state: HuntersState, x: int, y: int, fid: int, occupied: int | None) -> str:
    """A completed forest's or river's tick, on its spot of the tile's layout given the piece on
    the tile (on feature ``occupied``): clear of it, of the marks and of the chips."""
    placed = state.board.cells[(x, y)]
    tile_id, rotation = placed.tile, placed.rotation
    tx, ty = spots.ticks(state.tiles.tiles[tile_id], rotation, occupied)[fid]
    px, py = x * S + tx, y * S + ty
    return group(
        f'class="complete" {data(x=x, y=y, feature=fid)}',
        f'<circle cx="{num(px)}" cy="{num(py)}" r="7" fill="#FFFFFF" stroke="{INK}"/>',
        f'<polyline points="{points([(px - 4, py), (px - 1, py + 3), (px + 4, py - 3)])}" fill="none" '
        f'stroke="{INK}" stroke-width="2"/>',
    )


# --- the panel ------------------------------------------------------------------------------------


def _panel(state: HuntersState, seats: Sequence[str]) -> Picture:
    """Beside the area: the drawn tile with its feature ids and what each is, the stacks, the
    seats, whose turn it is and the legend; a page shows it out of the board's zoom."""
    x0 = 10
    parts: list[Part] = []
    y = 22.0
    if state.drawn is not None and not state.over:
        tile = state.tiles.tiles[state.drawn]
        kind = "bonus tile" if state.bonus else "tile"
        size = S * DRAWN_SCALE
        body = [
            text(x0, y, f"Drawn: {kind} {state.drawn}", size=13, weight="bold"),
            f'<g transform="translate({x0},{y + 10}) scale({DRAWN_SCALE})">'
            + _tile(tile, tile.turned[0], 0, 0, 0, "drawn", ids=True)
            + "</g>",
        ]
        fy = y + 26
        body.append(text(x0 + size + 10, fy, "feature ids", size=11, weight="bold"))
        for line in _feature_lines(tile):  # a continuation further in (SVG folds spaces)
            fy += 15
            inset = 12 if line.startswith(" ") else 0
            body.append(text(x0 + size + 10 + inset, fy, line.strip(), size=11))
        below = max(y + size + 26, fy + 18)  # under the tile, or under a long list of features
        body.append(text(x0, below, f"for {seats[state.to_move]}; as drawn (N up)", size=11))
        parts.append(("drawn", group(f'class="drawn-tile" {data(tile=tile.id)}', *body)))
        y = below + 18
    else:
        parts.append(("drawn", text(x0, y, "Drawn tile: none", size=13, weight="bold")))
        y += 22
    stacks = [
        text(x0, y, f"stacks: {len(state.stack)} land, {len(state.bonus_stack)} bonus", size=12)
    ]
    if state.removed:
        y += 16
        stacks.append(text(x0, y, f"removed: {' '.join(map(str, state.removed))}", size=11))
    parts.append(("stacks", "".join(stacks)))
    y += 28
    out = [text(x0, y, "Seats", size=13, weight="bold")]
    for i, name in enumerate(seats):
        sy = y + 10 + 26 * i
        fill = SEAT_COLOURS[i]
        if i == state.to_move and not state.over:
            out.append(
                f'<polygon points="{points([(x0, sy + 5), (x0 + 8, sy + 10), (x0, sy + 15)])}"/>'
            )
        out.append(f'<circle cx="{x0 + 20}" cy="{sy + 10}" r="8" fill="{fill}" stroke="{INK}"/>')
        out.append(
            text(
                x0 + 20,
                sy + 13.5,
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
                sy + 14,
                f"{name}  {state.scores[i]} points · {count(members, 'member')}, {count(huts, 'hut')}",
                size=11,
                extra=f" {data(seat=name, score=state.scores[i])}",
            )
        )
    y += 20 + 26 * len(seats)
    won = [seats[i] for i in winners_of(state)]
    status = (
        f"game over: {' and '.join(won)} {'win' if len(won) > 1 else 'wins'}"
        if state.over
        else f"{seats[state.to_move]} to place the tile"
    )
    out.append(text(x0, y + 4, status, size=12, weight="bold"))
    parts.append(("seats", group('class="panel"', *out)))
    legend = [
        "$ gold  * mushrooms  ! fire  + shrine",
        "D deer  M mammoth  A aurochs  T tiger",
        "ag: ann's gatherer (f fisher, h hunter,",
        "u hut)  ✓ complete  0 1 2: feature ids",
        "dashed gold edge: a bonus tile",
    ]
    parts.append(
        (
            "legend",
            "".join(
                text(x0, y + 28 + 15 * k, line, size=11, fill="#3D3A33")
                for k, line in enumerate(legend)
            ),
        )
    )
    height = round(y + 28 + 15 * len(legend))
    return Picture(PANEL_W, height, tuple(parts))


FEATURE_LINE = 21
"""Characters of a feature line that fit beside the drawn tile in the panel (11 px text)."""


def _feature_lines(tile: Tile) -> list[str]:
    """The drawn tile's features by id, as ``moves`` names them (:func:`feature_words`), each
    wrapped after a comma to fit beside the tile (its continuation indented)."""
    out = []
    for fid in sorted(tile.features):
        line = f"{fid}"
        for word in feature_words(tile, fid).split(", "):
            if len(line) + 2 + len(word) > FEATURE_LINE and line.strip() != str(fid):
                out.append(line + ",")
                line = "   " + word
            else:
                line = f"{line} {word}" if line == f"{fid}" else f"{line}, {word}"
        out.append(line)
    return out
