"""Where a tile may go (H5) and which pieces may go on it (H6): lookups in the tile set's tables
and the board's unions, no search."""

from __future__ import annotations

from tribes.games.hunters.board import (
    DIRECTIONS,
    EDGE_NAMES,
    HUTTED,
    MANNED,
    PIECE_TYPES,
    PLACES,
    STEP,
    Tile,
    TileSet,
    Turned,
    need_text,
)
from tribes.games.hunters.features import Board
from tribes.games.hunters.keys import Placement, cell_key


def fits_somewhere(tile: Tile, board: Board) -> bool:
    """Whether ``tile`` fits some open cell in some rotation (H5): a need code it fits among the
    board's, one C loop."""
    return not tile.fitting.isdisjoint(board.needs)


def occupied(
    board: Board, at: Placement, need: int, members: bool = True, huts: bool = True
) -> int:
    """The places around the empty cell of ``at`` (its placement of rotation 0, of need code
    ``need``) whose neighbouring feature holds a member (bits ``1 << (3 * direction + part)``,
    as the cell's own sides count them) and those whose river system holds a hut (H6), as one
    int the way :func:`allow_key` holds them (``Board.around``). Without ``members`` (or
    ``huts``) in the mover's supply, their places are left 0: no option depends on them."""
    return board.around.get(at, 0) & OCCUPYING[members, huts]


OCCUPYING = {
    (members, huts): (-1 << MANNED if members else 0) | (PLACES << HUTTED if huts else 0)
    for members in (False, True)
    for huts in (False, True)
}
"""By (members left, huts left): the bits of ``Board.around`` that count for the mover."""


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
    code = board.need(cell_key(x, y))
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
