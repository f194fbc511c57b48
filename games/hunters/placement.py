"""Where a tile may go (H5) and which pieces may go on it (H6): lookups in the tile set's tables
and the board's unions, no search."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tribes.games.hunters.board import (
    DIRECTIONS,
    EDGE_NAMES,
    HUTTED,
    MANNED,
    PIECE_TYPES,
    STEP,
    Tile,
    TileSet,
    Turned,
    need_text,
)
from tribes.games.hunters.features import Board

Placement = int
"""A cell and rotation in one int, ``((y + OFFSET) << 13 | (x + OFFSET)) << 2 | rotation``: ints
sort by row, then column, then rotation, and cost the garbage collector nothing."""
OFFSET = 1 << 12


def encode(x: int, y: int, rotation: int) -> Placement:
    return ((y + OFFSET) << 13 | (x + OFFSET)) << 2 | rotation


def decode(p: Placement) -> tuple[int, int, int]:
    """(x, y, rotation)."""
    return ((p >> 2) & 0x1FFF) - OFFSET, (p >> 15) - OFFSET, p & 3


def fits_somewhere(tile: Tile, board: Board) -> bool:
    """Whether ``tile`` fits some open cell in some rotation (H5): a need code it fits among the
    board's, one C loop."""
    return not tile.fitting.isdisjoint(board.needs)


_SIDES: tuple[tuple[tuple[int, int, int, int, bool], ...], ...] = tuple(
    tuple(
        (dx, dy, (d + 2) & 3, 3 * d, need[d] == "R")
        for d, (dx, dy) in enumerate(STEP)
        if need[d] != "."
    )
    for need in map(need_text, range(256))
)
"""By the need code of an empty cell: for each side with a tile across, (dx, dy, the side facing
back, the shift of its first place bit, whether it is a river side of three parts)."""


def occupied(
    board: Board, at: Placement, need: int, members: bool = True, huts: bool = True
) -> int:
    """The places around the empty cell of ``at`` (its placement of rotation 0, of need code
    ``need``) whose neighbouring feature holds a member (bits ``1 << (3 * direction + part)``,
    as the cell's own sides count them) and those whose river system holds a hut (H6), as one
    int the way :func:`allow_key` holds them. Without ``members`` (or ``huts``) in the mover's
    supply, their places are left 0: no option depends on them."""
    return occupied_at(board, (at,), (need,), (0,), members, huts).get(0, 0)


def occupied_at(
    board: Board,
    cells: Sequence[Placement],
    needs: Sequence[int],
    which: Iterable[int],
    members: bool = True,
    huts: bool = True,
) -> dict[int, int]:
    """:func:`occupied` of the empty cells ``cells[j]`` (of need ``needs[j]``) for each ``j`` of
    ``which``, by ``j``, where it is not 0: what the legal moves ask of every cell the drawn tile
    fits, in one call."""
    placed = board.cells
    manned_roots = board.manned if members else None
    hutted_roots = board.hutted if huts else None
    out = {}
    for j in which:
        at = cells[j]
        x, y = ((at >> 2) & 0x1FFF) - OFFSET, (at >> 15) - OFFSET  # decode(at)
        manned = hutted = 0
        for dx, dy, back, shift, river in _SIDES[needs[j]]:
            there = placed[x + dx, y + dy]
            theirs = there[2].parts[back]
            if not river:
                if manned_roots and there[3][theirs[0]] in manned_roots:
                    manned |= 1 << shift
                continue
            a, b, c = theirs  # their parts run the other way round: c faces our part 0
            if manned_roots:
                root = there[3]
                if root[c] in manned_roots:
                    manned |= 1 << shift
                if root[b] in manned_roots:
                    manned |= 2 << shift
                if root[a] in manned_roots:
                    manned |= 4 << shift
            if hutted_roots and there[4][b] in hutted_roots:
                hutted |= 2 << shift
        if manned or hutted:
            out[j] = manned << MANNED | hutted << HUTTED  # allow_key(False, False, 0, ...)
    return out


def draw(
    tiles: TileSet, board: Board, stack: tuple[int, ...]
) -> tuple[int | None, tuple[int, ...], tuple[int, ...]]:
    """H5, H13: the first tile of ``stack`` that fits somewhere, the rest of the stack, and the
    tiles before it that fit nowhere (removed). Where it fits is left to the legal moves: a
    replay never needs it."""
    removed: list[int] = []
    for i, tile in enumerate(stack):
        if fits_somewhere(tiles.tiles[tile], board):
            return tile, stack[i + 1 :], tuple(removed)
        removed.append(tile)
    return None, (), tuple(removed)


def misfit(board: Board, turned: Turned, x: int, y: int) -> str | None:
    """Why a tile turned so cannot go on (x, y) (H5), or None when it fits."""
    if (x, y) in board.cells:
        return f"the cell ({x}, {y}) holds a tile already"
    code = board.need(encode(x, y, 0))
    if code is None:
        return f"the cell ({x}, {y}) touches no placed tile along a side"
    for d, (want, have) in enumerate(zip(need_text(code), turned.edges, strict=True)):
        if want not in (".", have):
            dx, dy = STEP[d]
            return (
                f"the {DIRECTIONS[d]} side is {EDGE_NAMES[have]}, the tile at "
                f"({x + dx}, {y + dy}) shows {EDGE_NAMES[want]} there"
            )
    return None


def blocked(
    board: Board, tiles: TileSet, tile: int, rotation: int, x: int, y: int, piece: str, fid: int
) -> str | None:
    """Why ``piece`` cannot go on feature ``fid`` of the tile placed so (H6, the occupancy part),
    or None: a member needs a joined feature without members, a hut a river system without huts."""
    t = tiles.tiles[tile]
    turned = t.turned[rotation]
    if piece == "hut":
        for f in t.system[fid]:
            if f in turned.touches:
                for node in board.neighbour_nodes(turned, x, y, f):
                    if any(board.system(node).huts):
                        return "that river system holds a hut already"
        return None
    for node in board.neighbour_nodes(turned, x, y, fid):
        if any(board.group(node).members):
            return f"that {t.features[fid].type} holds a tribe member already"
    return None


def wrong_kind(tiles: TileSet, tile: int, piece: str, fid: int) -> str | None:
    """Why ``piece`` can never stand on feature ``fid`` of ``tile`` (H6), or None."""
    feature = tiles.tiles[tile].features.get(fid)
    if feature is None:
        ids = ", ".join(map(str, sorted(tiles.tiles[tile].features)))
        return f"tile {tile} has no feature {fid} (its features: {ids})"
    if feature.type not in PIECE_TYPES[piece]:
        if feature.type == "lake":
            return f"a tribe member never stands on a lake; feature {fid} of tile {tile} is a lake"
        places = " or a ".join(PIECE_TYPES[piece])
        return f"a {piece} stands on a {places}; feature {fid} of tile {tile} is a {feature.type}"
    return None
