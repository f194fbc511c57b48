"""Every Hunters and Gatherers tile, in every rotation, drawn without overlaps: the marks of
what a feature holds (gold, animals, ...) clear of each other and of the lakes, a river never
past its tile's edge, and on the drawn tile every feature id apart from the others."""

from __future__ import annotations

import itertools
import re

import pytest

from tribes.games.hunters import pictures, spots
from tribes.games.hunters.board import STANDARD, load

S = pictures.S
TILES = load(STANDARD)
CASES = [(t, r) for t in sorted(TILES.tiles) for r in range(4)]


def _boxes(markup: str) -> dict[str, list[tuple[float, float, float, float]]]:
    """The marks' chips (rounded rects of rx 6) and the lakes (circles in the lake's blue) as
    (x0, y0, x1, y1)."""
    badges = [
        (float(x), float(y), float(x) + float(w), float(y) + float(h))
        for x, y, w, h in re.findall(
            r'<rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)" rx="6"', markup
        )
    ]
    lakes = [
        (float(x) - float(r), float(y) - float(r), float(x) + float(r), float(y) + float(r))
        for x, y, r in re.findall(
            r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)" fill="#2C7FB8"', markup
        )
    ]
    return {"badges": badges, "lakes": lakes}


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize(("tile_id", "rotation"), CASES[:: max(1, len(CASES) // 400)])
def test_marks_stay_clear_of_each_other_and_of_lakes(tile_id, rotation):
    tile = TILES.tiles[tile_id]
    markup = pictures._tile(tile, tile.turned[rotation], 0, 0, rotation)
    found = _boxes(markup)
    for a, b in itertools.combinations(found["badges"], 2):
        assert not _overlap(a, b), (tile_id, rotation, a, b)
    for badge in found["badges"]:
        for lake in found["lakes"]:  # a circle: the chip's nearest point is outside it
            cx, cy, r = (lake[0] + lake[2]) / 2, (lake[1] + lake[3]) / 2, (lake[2] - lake[0]) / 2
            nx, ny = min(max(cx, badge[0]), badge[2]), min(max(cy, badge[1]), badge[3])
            assert (nx - cx) ** 2 + (ny - cy) ** 2 >= (r - 0.5) ** 2, (
                tile_id,
                rotation,
                badge,
                lake,
            )


@pytest.mark.parametrize(("tile_id", "rotation"), CASES)
def test_a_river_stops_at_its_tile_s_edge(tile_id, rotation):
    tile = TILES.tiles[tile_id]
    markup = pictures._tile(tile, tile.turned[rotation], 2, -1, rotation)
    for line in re.findall(r'<line [^>]*stroke="#4F9ED8"[^>]*/>', markup):
        assert "stroke-linecap" not in line, line  # a butt end: nothing past the edge
        xs = [float(v) for v in re.findall(r' x[12]="([-\d.]+)"', line)]
        ys = [float(v) for v in re.findall(r' y[12]="([-\d.]+)"', line)]
        assert all(2 * S <= x <= 3 * S for x in xs) and all(-S <= y <= 0 for y in ys), line


@pytest.mark.parametrize("tile_id", sorted(TILES.tiles))
def test_the_drawn_tile_s_feature_ids_are_apart(tile_id):
    tile = TILES.tiles[tile_id]
    spots = pictures._id_spots(tile, tile.turned[0], 0, 0)
    assert sorted(spots) == sorted(tile.features)
    for (fa, a), (fb, b) in itertools.combinations(spots.items(), 2):
        assert abs(a[0] - b[0]) >= 14 or abs(a[1] - b[1]) >= 14, (tile_id, fa, fb, a, b)


@pytest.mark.parametrize("tile_id", sorted(TILES.tiles))
def test_the_drawn_tile_s_feature_ids_leave_its_marks_in_view(tile_id):
    """The walk-through saw the drawn tile's feature ids over its deer and gold (75 of the 91
    tiles): as drawn in the panel, no id chip covers a mark's chip."""
    tile = TILES.tiles[tile_id]
    markup = pictures._tile(tile, tile.turned[0], 0, 0, 0, "drawn", ids=True)
    ids = [
        (float(x), float(y), float(x) + 14, float(y) + 14)
        for x, y in re.findall(
            r'<rect x="([-\d.]+)" y="([-\d.]+)" width="14" height="14" rx="3"', markup
        )
    ]
    assert len(ids) == len(tile.features)
    for mark in _boxes(markup)["badges"]:
        for chip in ids:
            assert not _overlap(mark, chip), (tile_id, mark, chip)


# --- marks, pieces, ticks and chips apart ---------------------------------------------------------

Box = tuple[float, float, float, float]


def _drawn(tile_id: int, rotation: int) -> list[tuple[str, int | None, Box]]:
    """What a tile always shows, read from its drawing: its marks, its id and "bonus" chips and
    its lakes, as ``(what, None, box)``."""
    tile = TILES.tiles[tile_id]
    markup = pictures._tile(tile, tile.turned[rotation], 0, 0, rotation)
    found = _boxes(markup)
    out: list[tuple[str, int | None, Box]] = [("mark", None, b) for b in found["badges"]]
    out += [("lake", None, b) for b in found["lakes"]]
    out += [
        ("chip", None, (float(x), float(y), float(x) + float(w), float(y) + 12))
        for x, y, w in re.findall(
            r'<rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="12" rx="2"', markup
        )
    ]
    return out


def _on_it(tile_id: int, rotation: int, occupied: int | None) -> list[tuple[str, int | None, Box]]:
    """The piece on feature ``occupied`` (one piece a tile, H6) and the tick of every forest and
    river as if all were complete, as drawn (a piece 18 across, a tick 14)."""
    tile = TILES.tiles[tile_id]
    out: list[tuple[str, int | None, Box]] = []
    if occupied is not None:
        x, y = spots.layout(tile, rotation).piece[occupied]
        out.append(("piece", occupied, (x - 9, y - 9, x + 9, y + 9)))
    for fid, (x, y) in spots.ticks(tile, rotation, occupied).items():
        out.append(("tick", fid, (x - 7, y - 7, x + 7, y + 7)))
    return out


@pytest.mark.parametrize(("tile_id", "rotation"), CASES)
def test_marks_pieces_ticks_and_chips_of_a_tile_never_overlap(tile_id, rotation):
    """The walk-through saw a completed river's tick over a mammoth, "bonus" over an aurochs and
    pieces over tile ids: whatever piece a tile holds and whichever of its forests and rivers
    are complete, nothing on it overlaps anything else."""
    tile = TILES.tiles[tile_id]
    always = _drawn(tile_id, rotation)
    for occupied in [None, *sorted(tile.features)]:
        shown = always + _on_it(tile_id, rotation, occupied)
        for a, b in itertools.combinations(shown, 2):
            kinds = {a[0], b[0]}
            if kinds == {"piece", "lake"} and tile.features[occupied].type == "lake":
                continue  # a hut on a lake stands on its edge
            if "lake" in kinds and kinds & {"piece", "tick"}:
                lake, other = (a, b) if a[0] == "lake" else (b, a)
                river = tile.features[other[1]] if other[1] is not None else None
                if river and river.lake == _lake_at(tile, rotation, lake[2]):
                    continue  # a river too short for it: at the mouth of its own lake
            gone = kinds == {"piece", "tick"} and a[1] == b[1] == occupied
            if gone and tile.features[occupied].type == "forest":
                continue  # a complete forest's gatherers have gone home: its tick is there
            if "lake" in kinds:  # a disc: the other's nearest point is outside it
                lake, other = (a, b) if a[0] == "lake" else (b, a)
                inside = _in_disc(other[2], lake[2], round_=other[0] == "tick")
                assert not inside, (tile_id, rotation, occupied, a, b)
            elif "tick" in kinds:  # a disc too, against a box (a piece as a hut's square)
                tick, other = (a, b) if a[0] == "tick" else (b, a)
                if other[0] == "tick":
                    assert not _in_disc(tick[2], other[2], round_=True), (tile_id, occupied, a, b)
                else:
                    assert not _in_disc(other[2], tick[2]), (tile_id, rotation, occupied, a, b)
            else:
                assert not _overlap(a[2], b[2]), (tile_id, rotation, occupied, a, b)
        for what, _, box in shown:
            if what != "lake":
                assert box[0] >= 0 and box[2] <= S and box[1] >= 0 and box[3] <= S, (tile_id, what)


def _lake_at(tile, rotation: int, box: Box) -> int:
    """The id of the lake drawn in ``box``."""
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return next(
        fid
        for fid, c, _ in spots.lakes(tile, tile.turned[rotation])
        if abs(c[0] - centre[0]) < 0.5 and abs(c[1] - centre[1]) < 0.5
    )


def _in_disc(box: Box, disc: Box, *, round_: bool = False) -> bool:
    """Whether a box (or, ``round_``, the disc inscribed in it: a tick) reaches into a disc."""
    cx, cy, r = (disc[0] + disc[2]) / 2, (disc[1] + disc[3]) / 2, (disc[2] - disc[0]) / 2
    if round_:
        ox, oy, q = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, (box[2] - box[0]) / 2
        return (ox - cx) ** 2 + (oy - cy) ** 2 < (r + q - 0.5) ** 2
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return (nx - cx) ** 2 + (ny - cy) ** 2 < (r - 0.5) ** 2


@pytest.mark.parametrize("tile_id", sorted(TILES.tiles))
def test_a_spot_moved_to_make_room_stays_on_its_feature(tile_id):
    """A mark or piece that had to leave its first spot lands on its own feature: a land
    feature's inside one of its triangles, a river's piece on the river (a few pixels off its
    line at most)."""
    tile = TILES.tiles[tile_id]
    for rotation in range(4):
        turned = tile.turned[rotation]
        placed = spots.layout(tile, rotation)
        triangles = spots.wedges(turned, 0, 0)
        moved = [
            (fid, point, kind)
            for kind, found in (("piece", placed.piece), ("marks", placed.marks))
            for fid, point in found.items()
            if point != spots.preferred(turned, 0, 0, fid)[0 if kind == "piece" else 1]
            and tile.features[fid].type != "lake"
        ]
        for fid, point, kind in moved:
            if tile.features[fid].type == "river":
                ends = [m for f, m in spots.rivers(turned, 0, 0) if f == fid]
                assert any(_near_segment(point, m, (S / 2, S / 2), 3.5) for m in ends), (
                    tile_id,
                    rotation,
                    fid,
                )
            else:
                inside = any(f == fid and _in_triangle(point, tri) for f, tri in triangles)
                assert inside, (tile_id, rotation, kind, fid, point)


def _in_triangle(p, tri) -> bool:
    (ax, ay), (bx, by), (cx, cy) = tri
    d1 = (p[0] - bx) * (ay - by) - (ax - bx) * (p[1] - by)
    d2 = (p[0] - cx) * (by - cy) - (bx - cx) * (p[1] - cy)
    d3 = (p[0] - ax) * (cy - ay) - (cx - ax) * (p[1] - ay)
    return not ((d1 < 0 or d2 < 0 or d3 < 0) and (d1 > 0 or d2 > 0 or d3 > 0))


def _near_segment(p, a, b, most: float) -> bool:
    (ax, ay), (bx, by) = a, b
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    t = max(0.0, min(1.0, ((p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay)) / length**2))
    nx, ny = ax + (bx - ax) * t, ay + (by - ay) * t
    return ((p[0] - nx) ** 2 + (p[1] - ny) ** 2) ** 0.5 <= most


@pytest.mark.parametrize("rotation", range(4))
def test_two_lakes_of_a_tile_stand_apart(rotation):
    for tile in TILES.tiles.values():
        pools = spots.lakes(tile, tile.turned[rotation])
        for (_, a, r), (_, b, q) in itertools.combinations(pools, 2):
            assert ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 >= r + q + 1, tile.id
