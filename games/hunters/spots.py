"""Where things go on a drawn Hunters and Gatherers tile: the wedges and rivers of a tile in its
rotation, and its *layout* — the corner of its id chip, and for every feature the spot of its marks (what it holds: gold, animals, ...), of a piece on it and,
for a forest or river, of the tick that says it is complete — chosen so that nothing that can be
on the tile at once overlaps: not the chips, nor a lake, nor another feature's marks, piece or
tick.

What can be there at once decides what must stay apart: a tile holds at most one piece (H6), so
two pieces never meet; a completed forest's gatherers have gone home, so its tick may take their
spot; a hut stays on a completed river (H12), so a river's tick keeps clear of its piece. The
ticks therefore depend on the piece on the tile too (:func:`ticks`).

Each spot starts where it always was (out from the tile's centre towards the feature's sides, see
:func:`preferred`) and moves, only when that spot is taken, to the nearest free one on its own
feature; the id chip stays in the top left corner unless that corner leaves no room. A layout
depends on the tile and its rotation alone: it is made once per tile and rotation of a tile set
and kept (tile sets are loaded once per source and never change).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Iterable, Sequence
from functools import partial

import attrs

from tribes.games.hunters.board import Tile, Turned

S = 72
"""A tile's side."""

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""x0, y0, x1, y1."""
Disc = tuple[float, float, float]
"""cx, cy, radius: a lake."""
Obstacle = Box | Disc

PIECE = 9.0
"""Half the side of what a piece covers (a disc of radius 9, a hut's square of 18)."""
TICK = 7.0
"""A completion tick's radius."""
EDGE = 1.0
"""How close to the tile's edge a mark, piece or tick may come."""


def corners(x: int, y: int) -> tuple[Point, ...]:
    """Top left, top right, bottom right, bottom left: side d runs from corner d to d + 1."""
    x0, y0 = x * S, y * S
    return ((x0, y0), (x0 + S, y0), (x0 + S, y0 + S), (x0, y0 + S))


def wedges(turned: Turned, x: int, y: int) -> list[tuple[int, list[Point]]]:
    """(feature id, triangle) of the land of every side, rotated as placed: a side of one part
    is one triangle to the centre; a river side's two banks share its triangle, half each (the
    river itself is drawn over them, see :func:`rivers`)."""
    cs = corners(x, y)
    centre = (x * S + S / 2, y * S + S / 2)
    out = []
    for d, side in enumerate(turned.parts):
        (ax, ay), (bx, by) = cs[d], cs[(d + 1) % 4]
        halves = (
            [(side[0], 0.0, 1.0)] if len(side) == 1 else [(side[0], 0.0, 0.5), (side[2], 0.5, 1.0)]
        )
        for fid, t0, t1 in halves:
            p0 = (ax + (bx - ax) * t0, ay + (by - ay) * t0)
            p1 = (ax + (bx - ax) * t1, ay + (by - ay) * t1)
            out.append((fid, [p0, p1, centre]))
    return out


def rivers(turned: Turned, x: int, y: int) -> list[tuple[int, Point]]:
    """(river feature id, the middle of the side it crosses) for every river side."""
    cs = corners(x, y)
    out = []
    for d, side in enumerate(turned.parts):
        if len(side) == 3:
            (ax, ay), (bx, by) = cs[d], cs[(d + 1) % 4]
            out.append((side[1], ((ax + bx) / 2, (ay + by) / 2)))
    return out


def preferred(turned: Turned, x: int, y: int, fid: int) -> tuple[Point, Point]:
    """A feature's two spots before anything is moved: the first for its piece, the second for
    its marks. On a river, on the river two fifths in from its side, the second beside it on a
    bank; on land, out from the centre towards its sides (clear of a lake in the middle), side by
    side across that line."""
    cx, cy = x * S + S / 2, y * S + S / 2
    for f, (mx, my) in rivers(turned, x, y):
        if f == fid:
            px, py = mx + (cx - mx) * 0.4, my + (cy - my) * 0.4
            ux, uy = (cx - mx) / (S / 2), (cy - my) / (S / 2)
            return (px, py), (px - uy * 15, py + ux * 15)
    found = [
        (sum(px for px, _ in tri) / 3, sum(py for _, py in tri) / 3)
        for f, tri in wedges(turned, x, y)
        if f == fid
    ]
    if not found:  # a lake: in the middle
        return (cx, cy), (cx, cy + S * 0.3)
    mx = sum(px for px, _ in found) / len(found) - cx
    my = sum(py for _, py in found) / len(found) - cy
    if abs(mx) < 4 and abs(my) < 4:  # all round the tile: by its first side
        mx, my = found[0][0] - cx, found[0][1] - cy
    length = (mx * mx + my * my) ** 0.5 or 1.0
    ux, uy = mx / length, my / length
    ox, oy = cx + ux * S * 0.33, cy + uy * S * 0.33
    return (ox - uy * 10, oy + ux * 10), (ox + uy * 11, oy - ux * 11)


def marks_of(tile: Tile, fid: int) -> str:
    """What a feature holds, as letters: $ gold, * mushrooms, D M A T animals, ! fire, + shrine
    (nothing for a lake: its fish are its number)."""
    f = tile.features[fid]
    if f.type == "lake":
        return ""
    out = "$" * f.gold + "*" * f.mushrooms
    out += "".join(mark * n for mark, n in zip("DMAT", f.animals, strict=True))
    return out + "!" * f.fire + "+" * f.shrine


def badge_width(marks: str) -> float:
    return 7.0 * len(marks) + 6


def label_width(words: str) -> float:
    """A tile's id chip: as wide as its text."""
    return 6.2 * len(words) + 4


def lakes(tile: Tile, turned: Turned) -> list[tuple[int, Point, float]]:
    """(lake id, centre, radius) at cell (0, 0) in the tile's rotation: one in the middle; two
    smaller, apart, side by side or one above the other, each on the side of the rivers that
    run into it."""
    found = sorted(fid for fid, f in tile.features.items() if f.type == "lake")
    if len(found) < 2:
        return [(fid, (S / 2, S / 2), S * 0.17) for fid in found]
    radius = S * 0.14
    step = (2 * radius + 3) / 2
    ends = {
        lake: [m for f, m in rivers(turned, 0, 0) if tile.features[f].lake == lake]
        for lake in found
    }
    ways = [
        [(S / 2 + dx * step * (2 * k - 1), S / 2 + dy * step * (2 * k - 1)) for k in (0, 1)]
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ]

    def reach(centres: list[Point]) -> float:
        return sum(
            math.hypot(c[0] - m[0], c[1] - m[1])
            for lake, c in zip(found[:2], centres, strict=True)
            for m in ends[lake]
        )

    best = min(ways, key=lambda way: (reach(way), ways.index(way)))
    return [(lake, c, radius) for lake, c in zip(found[:2], best, strict=True)]


def chip(corner: Point, words: str) -> Box:
    """The chip of ``words`` (a tile's id) whose top left corner is ``corner``."""
    return (corner[0], corner[1], corner[0] + label_width(words), corner[1] + 12)


def chip_corners(words: str) -> tuple[Point, ...]:
    """Where a chip may go, in order: top left, bottom right, top right, bottom left."""
    right = S - 2 - label_width(words)
    return ((2.0, 2.0), (right, S - 14), (right, 2.0), (2.0, S - 14))


@attrs.frozen(kw_only=True)
class Layout:
    """Spots at cell (0, 0) of one tile in one rotation: the corner of its id chip, and by
    feature id ``marks`` (of those that hold something) and ``piece`` (every feature). The
    ticks depend on the piece on the tile too: :func:`ticks`."""

    id_corner: Point
    marks: dict[int, Point]
    piece: dict[int, Point]
    ticks: dict[int | None, dict[int, Point]] = attrs.field(factory=dict, eq=False)
    """A cache of :func:`ticks` by the feature holding the tile's piece (None: no piece)."""
    spots: dict[tuple[int, str], list[Point]] = attrs.field(factory=dict, eq=False)
    """A cache of the candidate spots by feature and kind, for the ticks."""


_LAYOUTS: weakref.WeakKeyDictionary[Turned, Layout] = weakref.WeakKeyDictionary()
"""Layouts by the (tile, rotation) table they are of: a tile set's tables live as long as it."""


def layout(tile: Tile, rotation: int) -> Layout:
    """The tile's layout in ``rotation`` (see the module): made once, then kept."""
    turned = tile.turned[rotation]
    found = _LAYOUTS.get(turned)
    if found is None:
        found = _LAYOUTS[turned] = _make(tile, turned)
    return found


def ticks(tile: Tile, rotation: int, occupied: int | None) -> dict[int, Point]:
    """Where the tick of each forest and river of the tile goes when it is complete, the tile's
    piece (if any) standing on feature ``occupied``: clear of the chips, lakes, marks, that
    piece and each other, better off the rivers' courses. A forest's tick may take its own
    gatherer's spot (gone home); a river's keeps clear of its hut (which stays)."""
    placed = layout(tile, rotation)
    found = placed.ticks.get(occupied)
    if found is None:
        found = placed.ticks[occupied] = _ticks(tile, tile.turned[rotation], placed, occupied)
    return found


ID = 7.0
"""Half the side of a feature's id on the drawn tile (a chip of 14)."""


def feature_ids(tile: Tile) -> dict[int, Point]:
    """Where each feature's id goes on the drawn tile (as drawn: rotation 0, cell (0, 0)),
    clear of the marks (what the features hold: ``$``, ``D``, ...), of the lakes and of each
    other, each from its piece's spot (clear of the marks and lakes already; a lake's round its
    lake) to the nearest free one on its own feature. The land's first (those with fewest
    triangles first: a corner meadow beside its mark leaves least room), then the rivers', then
    the lakes'; where that leaves one without room, the rivers' first. The drawn tile shows no
    id chip."""
    turned = tile.turned[0]
    size = {fid: sum(1 for f, _ in wedges(turned, 0, 0) if f == fid) for fid in tile.features}
    tried: list[tuple[float, int, dict[int, Point]]] = []
    for rank in ({"river": 1, "lake": 2}, {"river": -1, "lake": 2}):
        order = sorted(
            tile.features, key=lambda f: (rank.get(tile.features[f].type, 0), size[f], f)
        )
        placing = _Placing()
        found = _ids(tile, order, placing)
        if placing.covered == 0.0:
            return found
        tried.append((placing.covered, len(tried), found))
    return min(tried)[2]


def _ids(tile: Tile, order: Sequence[int], placing: _Placing) -> dict[int, Point]:
    turned = tile.turned[0]
    placed = layout(tile, 0)
    discs = {fid: (c[0], c[1], r) for fid, c, r in lakes(tile, turned)}
    taken: list[Obstacle] = [
        _grown(_box(p, _mark_half(tile, f)), 1) for f, p in placed.marks.items()
    ]
    rivers_of: list[Obstacle] = [b for _, b in courses(turned)]  # better left to their ids
    out: dict[int, Point] = {}
    half = (ID, ID)
    for fid in order:
        hard = [*taken, *(_grown(_box(p, half), 1) for p in out.values())]
        soft: list[Obstacle] = [d for f, d in discs.items() if f != fid]
        if tile.features[fid].type != "river":
            soft += rivers_of
        where: Callable[[], Iterable[Point]]
        if fid in discs:
            cx, cy, r = discs[fid]
            where = partial(_round_lake, (cx, cy), r)
            first = (cx + r + 8, cy - r - 2)
        else:
            where = partial(_candidates, turned, fid, "piece", placed.spots)
            first = placed.piece[fid]
        out[fid] = placing.choose(first, where, half, hard, soft)
    return out


def courses(turned: Turned) -> list[tuple[int, Box]]:
    """(river id, the box of its course from its side to the centre, as wide as a piece on it)
    at cell (0, 0): where a land feature's marks and pieces had better not go (they would seem
    to be on the river, or leave no room for a piece on it)."""
    half = PIECE + 1  # room for a piece on the river
    out = []
    for fid, (mx, my) in rivers(turned, 0, 0):
        x0, x1 = sorted((mx, S / 2))
        y0, y1 = sorted((my, S / 2))
        out.append((fid, (x0 - half, y0 - half, x1 + half, y1 + half)))
    return out


PIECE_SHAPE = (PIECE + 1, PIECE + 1)
TICK_SHAPE = (TICK + 1, TICK + 1)
"""Half sizes, with a pixel to spare."""


def _box(p: Point, half: tuple[float, float]) -> Box:
    return (p[0] - half[0], p[1] - half[1], p[0] + half[0], p[1] + half[1])


def _grown(b: Box, by: float) -> Box:
    return (b[0] - by, b[1] - by, b[2] + by, b[3] + by)


def _in_tile(b: Box) -> bool:
    return b[0] >= EDGE and b[1] >= EDGE and b[2] <= S - EDGE and b[3] <= S - EDGE


def _cover(b: Box, t: Obstacle, round_: bool = False) -> float:
    """How much of ``t`` the box ``b`` covers: the area shared with a box; for a lake's disc,
    the square of how deep the box reaches into it (or, ``round_``, the disc inscribed in the
    box: a tick)."""
    if len(t) == 3:
        cx, cy, r = t
        if round_:
            depth = (
                r + (b[2] - b[0]) / 2 - math.hypot((b[0] + b[2]) / 2 - cx, (b[1] + b[3]) / 2 - cy)
            )
        else:
            nx, ny = min(max(cx, b[0]), b[2]), min(max(cy, b[1]), b[3])
            depth = r - math.hypot(nx - cx, ny - cy)
        return depth * depth if depth > 0 else 0.0
    w = min(b[2], t[2]) - max(b[0], t[0])
    h = min(b[3], t[3]) - max(b[1], t[1])
    return w * h if w > 0 and h > 0 else 0.0


def _candidates(
    turned: Turned, fid: int, kind: str, memo: dict[tuple[int, str], list[Point]]
) -> list[Point]:
    """Spots on the feature itself: on a river, along it two pixels apart (a tick beside it
    too, on a bank); on land, every point of a 3-pixel grid inside one of its triangles. Made
    once per feature and kind (``memo``)."""
    found = memo.get((fid, kind))
    if found is None:
        found = memo[(fid, kind)] = _spots_on(turned, fid, kind)
    return found


def _spots_on(turned: Turned, fid: int, kind: str) -> list[Point]:
    centre = (S / 2, S / 2)
    out: list[Point] = []
    for f, (mx, my) in rivers(turned, 0, 0):
        if f != fid:
            continue
        ux, uy = (centre[0] - mx) / (S / 2), (centre[1] - my) / (S / 2)
        sides = [0.0, 3.0, -3.0]  # on the river
        if kind == "tick":  # or beside it, on a bank
            sides += [float(o) for o in range(6, 28, 2) for o in (o, -o)]
        for along in range(2, 36, 2):
            px, py = mx + ux * along, my + uy * along
            out += [(px - uy * o, py + ux * o) for o in sides]
    for f, tri in wedges(turned, 0, 0):
        if f == fid:
            out += _grid_in(tri)
    return out


def _grid_in(tri: list[Point], step: int = 3) -> list[Point]:
    """The points of a ``step``-pixel grid inside a triangle, row by row: where the row meets
    the triangle's edges bounds it."""
    out: list[Point] = []
    ys = [y for _, y in tri]
    for gy in range(int(min(ys)) // step * step, int(max(ys)) + 1, step):
        xs = []
        for (ax, ay), (bx, by) in zip(tri, tri[1:] + tri[:1], strict=True):
            if ay != by and min(ay, by) <= gy <= max(ay, by):
                xs.append(ax + (bx - ax) * (gy - ay) / (by - ay))
            elif ay == by == gy:
                xs += [ax, bx]
        if xs:
            lo, hi = min(xs), max(xs)
            first = -(-math.ceil(lo) // step) * step
            out += [(float(gx), float(gy)) for gx in range(first, int(hi) + 1, step)]
    return out


def _round_lake(centre: Point, radius: float) -> list[Point]:
    """Spots for a lake's id: on the lake by its edge (its fish in the middle), or beside it."""
    return [p for d in (radius - 6, radius + 6) for p in _ring(centre, d)]


def _ring(centre: Point, radius: float) -> list[Point]:
    """Spots round a lake, on its edge and a little out: where a hut on it may stand."""
    return [
        (centre[0] + d * math.cos(k * math.pi / 8), centre[1] + d * math.sin(k * math.pi / 8))
        for d in (radius, radius + 4, radius + 8)
        for k in range(16)
    ]


class _Placing:
    """One attempt at a layout: what is placed so far, and how much of what must never be
    covered it had to cover (0 when everything found room)."""

    def __init__(self) -> None:
        self.covered = 0.0

    def choose(
        self,
        first: Point,
        candidates: Callable[[], Iterable[Point]],
        half: tuple[float, float],
        hard: Sequence[Obstacle],
        soft: Sequence[Obstacle] = (),
        round_: bool = False,
    ) -> Point:
        """``first`` if it keeps clear of ``hard`` (what must never be covered) and of ``soft``
        (what had better not be); else the spot that covers least of ``hard``, then of
        ``soft``, nearest to ``first``. ``candidates`` are made only if needed."""

        def cover(b: Box, things: Sequence[Obstacle], most: float) -> float:
            total = 0.0
            for t in things:
                total += _cover(b, t, round_)
                if total > most:  # no better than the best so far: stop counting
                    break
            return total

        inf = math.inf
        start = _box(first, half)
        best: tuple[float, float, float] = (inf, inf, inf)
        spot = first
        if _in_tile(start):
            best = (cover(start, hard, inf), cover(start, soft, inf), 0.0)
            if best[:2] == (0.0, 0.0):
                return first
        for p in sorted(candidates(), key=lambda q: (_far(q, first), q)):
            b = _box(p, half)
            if not _in_tile(b):
                continue
            h = cover(b, hard, best[0])
            if h > best[0]:
                continue
            s = cover(b, soft, best[1] if h == best[0] else inf)
            far = _far(p, first)
            if (h, s, far) < best:
                best, spot = (h, s, far), p
                if h == s == 0.0:
                    return p
        if best[0] != inf:
            self.covered += best[0]
        return spot


def _far(p: Point, q: Point) -> float:
    return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2


def _make(tile: Tile, turned: Turned) -> Layout:
    """The id chip in the first corner where everything finds room (else where the least is
    covered), the top left one first."""
    tried: list[tuple[float, int, Layout]] = []
    memo: dict[tuple[int, str], list[Point]] = {}
    for corner in chip_corners(str(tile.id)):
        placing = _Placing()
        made = _attempt(tile, turned, corner, placing, memo)
        if placing.covered == 0.0:
            return made
        tried.append((placing.covered, len(tried), made))
    return min(tried)[2]


def _attempt(
    tile: Tile,
    turned: Turned,
    corner: Point,
    placing: _Placing,
    memo: dict[tuple[int, str], list[Point]],
) -> Layout:
    """The most bound first: a river's piece (on its river, clear of the id chip and the
    lakes); then the marks (what a tile always shows), clear of those and better off the rivers'
    courses; then the land pieces and lake huts."""
    pools = {fid: (c, r) for fid, c, r in lakes(tile, turned)}
    discs: dict[int, Obstacle] = {fid: (c[0], c[1], r) for fid, (c, r) in pools.items()}
    course = courses(turned)
    rivers_of = [b for _, b in course]  # better not covered: it would seem to be on the river
    taken: list[Obstacle] = [_grown(chip(corner, str(tile.id)), 2), *discs.values()]
    pieces: dict[int, Point] = {}
    for fid, _ in course:  # at its lake's edge if the river is short (a fisher at the mouth)
        own = discs.get(tile.features[fid].lake or -1)
        hard = [t for t in taken if t is not own]
        where = partial(_candidates, turned, fid, "piece", memo)
        first = preferred(turned, 0, 0, fid)[0]
        pieces[fid] = placing.choose(first, where, PIECE_SHAPE, hard, [own] if own else [])
    on_rivers = [_box(p, PIECE_SHAPE) for p in pieces.values()]
    marks: dict[int, Point] = {}
    for fid in sorted(tile.features, key=lambda f: (-len(marks_of(tile, f)), f)):  # long first
        if marks_of(tile, fid):
            half = _mark_half(tile, fid)
            first = preferred(turned, 0, 0, fid)[1]
            where = partial(_candidates, turned, fid, "marks", memo)
            marks[fid] = placing.choose(first, where, half, [*taken, *on_rivers], rivers_of)
            taken.append(_box(marks[fid], half))
    for fid in sorted(tile.features):
        if fid in pieces:
            continue
        if fid in pools:  # a hut on a lake: on its edge, clear of the rest
            centre, radius = pools[fid]
            hard = [t for t in taken if t != discs[fid]]
            first = (centre[0] + 12, centre[1] - 12)
            pieces[fid] = placing.choose(first, partial(_ring, centre, radius), PIECE_SHAPE, hard)
            continue
        first = preferred(turned, 0, 0, fid)[0]
        where = partial(_candidates, turned, fid, "piece", memo)
        pieces[fid] = placing.choose(first, where, PIECE_SHAPE, taken, rivers_of)
    return Layout(id_corner=corner, marks=marks, piece=pieces, spots=memo)


def _ticks(tile: Tile, turned: Turned, placed: Layout, occupied: int | None) -> dict[int, Point]:
    taken: list[Obstacle] = [_grown(chip(placed.id_corner, str(tile.id)), 2)]
    discs = {fid: (c[0], c[1], r) for fid, c, r in lakes(tile, turned)}
    taken += [_box(p, _mark_half(tile, f)) for f, p in placed.marks.items()]
    course = courses(turned)
    placing = _Placing()
    out: dict[int, Point] = {}
    for fid in sorted(tile.features):
        kind = tile.features[fid].type
        if kind not in ("forest", "river"):
            continue
        own = tile.features[fid].lake  # a river's tick may touch the lake it runs into
        hard = [*taken, *(d for lake, d in discs.items() if lake != own)]
        hard += [_box(p, TICK_SHAPE) for p in out.values()]
        if occupied is not None and not (occupied == fid and kind == "forest"):
            hard.append(_box(placed.piece[occupied], PIECE_SHAPE))  # its gatherer went home
        where = partial(_candidates, turned, fid, "tick", placed.spots)
        others: list[Obstacle] = [b for f, b in course if f != fid]
        others += [d for lake, d in discs.items() if lake == own]
        first = _tick_first(turned, fid)
        out[fid] = placing.choose(first, where, TICK_SHAPE, hard, others, round_=True)
    return out


def _mark_half(tile: Tile, fid: int) -> tuple[float, float]:
    return (badge_width(marks_of(tile, fid)) / 2 + 1, 8.0)


def _tick_first(turned: Turned, fid: int) -> Point:
    """Where a tick went before anything moved: a forest's on its piece's spot (its gatherers
    have gone home), a river's by its side along the edge (a hut may stay on the river)."""
    for f, (mx, my) in rivers(turned, 0, 0):
        if f == fid:
            ux, uy = (S / 2 - mx) / (S / 2), (S / 2 - my) / (S / 2)
            return (mx + ux * 9 + uy * 19, my + uy * 9 - ux * 19)
    return preferred(turned, 0, 0, fid)[0]
