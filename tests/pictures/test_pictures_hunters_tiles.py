"""Every Hunters and Gatherers tile, in every rotation, drawn without overlaps: the marks of
what a feature holds (gold, animals, ...) clear of each other and of the lakes, a river never
past its tile's edge, and on the drawn tile every feature id apart from the others."""

from __future__ import annotations

import itertools
import re

import pytest

from tribes.games.hunters import pictures
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
