"""The placement key (``games/hunters/keys.py``): a cell and a rotation in one int, built and
read back by one module's names."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tribes.games.hunters import keys
from tribes.games.hunters.board import STEP

COORDINATE = st.integers(-keys.OFFSET, keys.OFFSET - 1)
ROTATION = st.integers(0, 3)


@given(COORDINATE, COORDINATE, ROTATION)
def test_a_placement_gives_back_its_cell_and_rotation(x: int, y: int, rotation: int) -> None:
    p = keys.encode(x, y, rotation)
    assert keys.decode(p) == (x, y, rotation)
    assert keys.cell_xy(p) == (x, y)
    assert keys.rotation_of(p) == p & keys.ROTATION == rotation
    assert keys.cell_of(p) == p & keys.CELL == keys.cell_key(x, y) == keys.encode(x, y, 0)
    assert keys.turned(keys.cell_key(x, y), rotation) == p


@given(st.integers(-4000, 4000), st.integers(-4000, 4000), ROTATION)
def test_a_step_to_a_side_is_one_addition(x: int, y: int, rotation: int) -> None:
    for dx, dy in (*STEP, (2, -3)):
        moved = keys.encode(x, y, rotation) + keys.step(dx, dy)
        assert moved == keys.encode(x + dx, y + dy, rotation)


@given(st.tuples(COORDINATE, COORDINATE, ROTATION), st.tuples(COORDINATE, COORDINATE, ROTATION))
def test_placements_sort_by_row_then_column_then_rotation(
    a: tuple[int, int, int], b: tuple[int, int, int]
) -> None:
    by_row = (a[1], a[0], a[2]) < (b[1], b[0], b[2])
    assert (keys.encode(*a) < keys.encode(*b)) == by_row
