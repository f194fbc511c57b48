"""A placement as one int: a cell (x, y) and a rotation (0 to 3), the one place that knows how.

``encode(x, y, rotation) == ((y + OFFSET) << 13 | (x + OFFSET)) << 2 | rotation``: such ints sort
by row, then column, then rotation (the order of the legal moves), hash and compare in C and cost
the garbage collector nothing. The board keeps its open cells as the placements of rotation 0
(``Board.open_cells``, :func:`cell_key`); a tile's tables hold the :func:`step` to each side, so
that a cell's neighbour is one addition away. Every other module builds and reads placements
with these names (a test round-trips them), never with the shifts themselves.
"""

from __future__ import annotations

from typing import Final

Placement = int
"""A cell and a rotation in one int (:func:`encode`)."""

OFFSET: Final = 1 << 12
"""Added to x and y so that both are non-negative: coordinates run from -4096 to 4095."""
ROTATION: Final = 3
"""The bits of a placement that hold its rotation: ``p & ROTATION`` is :func:`rotation_of`."""
CELL: Final = ~3
"""The bits of a placement that hold its cell: ``p & CELL`` is :func:`cell_of`, the placement of
its cell with rotation 0."""


def encode(x: int, y: int, rotation: int) -> Placement:
    """The placement of a tile on (x, y) turned ``rotation`` quarter turns (:func:`decode`)."""
    return ((y + OFFSET) << 13 | (x + OFFSET)) << 2 | rotation


def decode(p: Placement) -> tuple[int, int, int]:
    """(x, y, rotation) of placement ``p`` (:func:`encode`)."""
    return ((p >> 2) & 0x1FFF) - OFFSET, (p >> 15) - OFFSET, p & 3


def cell_key(x: int, y: int) -> Placement:
    """The placement of (x, y) with rotation 0: the cell's key, as ``Board.open_cells`` holds
    it (``encode(x, y, 0)``; :func:`cell_xy` gives x, y back)."""
    return ((y + OFFSET) << 13 | (x + OFFSET)) << 2


def cell_xy(p: Placement) -> tuple[int, int]:
    """(x, y) of placement ``p``, whatever its rotation (:func:`cell_key`)."""
    return ((p >> 2) & 0x1FFF) - OFFSET, (p >> 15) - OFFSET


def cell_of(p: Placement) -> Placement:
    """The placement of ``p``'s cell with rotation 0 (``p & CELL``)."""
    return p & CELL


def rotation_of(p: Placement) -> int:
    """The rotation of placement ``p`` (``p & ROTATION``)."""
    return p & ROTATION


def turned(cell: Placement, rotation: int) -> Placement:
    """The placement of ``cell`` (a placement of rotation 0) turned ``rotation``."""
    return cell | rotation


def step(dx: int, dy: int) -> int:
    """What moving a placement by (dx, dy) adds to it:
    ``encode(x + dx, y + dy, r) == encode(x, y, r) + step(dx, dy)``."""
    return (dy << 15) + (dx << 2)
