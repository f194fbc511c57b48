"""The Hunters and Gatherers state and how a game starts: from the seed (H2, H3) or from a
position (H4).

What is stored is what cannot be derived: the tiles in placement order, the pieces, supplies,
scores, the stacks and the drawn tile. The board with its joined features and the places the
drawn tile fits are caches (``CACHE``), rebuilt from the placed tiles when a state is read back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from tribes.core.errors import BadPosition
from tribes.core.positions import check_keys, same_seats, seat_of
from tribes.core.prng import Stream
from tribes.events.codec import CACHE
from tribes.games.hunters import features as feats
from tribes.games.hunters.board import PIECE_TYPES, STANDARD, TileSet, load
from tribes.games.hunters.features import Board
from tribes.games.hunters.placement import Placement, draw, misfit, placements, wrong_kind

MEMBERS = 5
HUTS = 2
PIECE_NAMES = tuple(PIECE_TYPES)


@attrs.frozen
class Piece:
    """A piece on the board: on feature ``feature`` of the tile at (x, y)."""

    x: int
    y: int
    feature: int
    kind: str
    seat: int


@attrs.frozen(kw_only=True)
class HuntersState:
    """Everything about a Hunters and Gatherers game at one point."""

    tiles_source: str = STANDARD
    players: int
    placed: tuple[tuple[int, int, int, int], ...]
    """(x, y, tile, rotation) in placement order."""
    pieces: tuple[Piece, ...] = ()
    supply: tuple[tuple[int, int], ...]
    """By seat: (tribe members, huts) in supply (H2)."""
    scores: tuple[int, ...]
    stack: tuple[int, ...]
    """The land tiles still to draw, top first (the drawn one is not in it)."""
    bonus_stack: tuple[int, ...]
    removed: tuple[int, ...] = ()
    """Tiles that fitted nowhere, in order (H5, H13)."""
    drawn: int | None
    """The tile to place now; None at the end."""
    bonus: bool = False
    """The drawn tile is a bonus tile earned by gold: the active player's pending decision."""
    to_move: int
    over: bool = False
    tiles: TileSet = attrs.field(default=None, eq=False, repr=False, metadata={CACHE: True})  # type: ignore[assignment]
    board: Board = attrs.field(default=None, eq=False, repr=False, metadata={CACHE: True})  # type: ignore[assignment]
    where: tuple[Placement, ...] | None = attrs.field(
        default=None,
        eq=False,
        repr=False,
        metadata={CACHE: True},
    )
    """Where the drawn tile fits: None until :meth:`places` is asked."""
    listed: object = attrs.field(
        init=False, default=None, eq=False, repr=False, metadata={CACHE: True}
    )
    """The move last read from this state's legal moves (``rules.Moves``): legal as built, so
    the reducer need not check it again (the identity of the very object, never an equal one;
    not an argument, so ``attrs.evolve`` never carries it to another state)."""

    def __attrs_post_init__(self) -> None:
        if self.tiles is None:
            object.__setattr__(self, "tiles", load(self.tiles_source))
        if self.board is None:
            object.__setattr__(self, "board", rebuild(self))

    def places(self) -> tuple[Placement, ...]:
        """Where the drawn tile fits, computed when first asked for and kept (a cache: the
        legal moves ask for it, a replay never does)."""
        where = self.where
        if where is None:
            where = () if self.drawn is None else placements(self.tiles, self.board, self.drawn)
            object.__setattr__(self, "where", where)
        return where

    @classmethod
    def from_fields(cls, **fields: Any) -> HuntersState:
        """A state from its serialized fields (the codec calls this); the caches are rebuilt."""
        return cls(**fields)


def rebuild(state: HuntersState) -> Board:
    """The board of a state's placed tiles and pieces, joined tile by tile as in play."""
    board = feats.EMPTY
    for x, y, tile, rotation in state.placed:
        board, _ = feats.place(board, state.tiles, x, y, tile, rotation, state.players)
    for p in state.pieces:
        board = feats.add_piece(board, (p.x, p.y, p.feature), p.kind, p.seat)
    return board


def from_seed(tiles: TileSet, seed: int, players: int) -> HuntersState:
    """H3: the start tile at (0, 0), both stacks shuffled, a random start seat; then the first
    land tile is drawn for it."""
    land = Stream(seed, "land").shuffled(tiles.land)
    bonus = Stream(seed, "bonus").shuffled(tiles.bonus)
    start = Stream(seed, "start").below(players)
    board, _ = feats.place(feats.EMPTY, tiles, 0, 0, tiles.start, 0, players)
    return _started(tiles, board, players, ((0, 0, tiles.start, 0),), (), land, bonus, start)


def _started(
    tiles: TileSet,
    board: Board,
    players: int,
    placed: tuple[tuple[int, int, int, int], ...],
    pieces: tuple[Piece, ...],
    land: Sequence[int],
    bonus: Sequence[int],
    to_move: int,
    scores: Sequence[int] | None = None,
    removed: Sequence[int] = (),
) -> HuntersState:
    drawn, where, rest, unfit = draw(tiles, board, tuple(land))
    supply = [[MEMBERS, HUTS] for _ in range(players)]
    for p in pieces:
        supply[p.seat][1 if p.kind == "hut" else 0] -= 1
    state = HuntersState(
        tiles_source=tiles.source,
        players=players,
        placed=placed,
        pieces=pieces,
        supply=tuple((m, h) for m, h in supply),
        scores=tuple(scores or (0,) * players),
        stack=rest,
        bonus_stack=tuple(bonus),
        removed=tuple(removed) + unfit,
        drawn=drawn,
        to_move=to_move,
        tiles=tiles,
        board=board,
        where=where,
    )
    if drawn is None:
        from tribes.games.hunters.scoring import finish

        state, _ = finish(state)
    return state


# --- positions (H4) -------------------------------------------------------------------------------

_KEYS = {"seats", "to_move", "tiles", "pieces", "scores", "stack", "bonus_stack", "removed"}


def from_position(tiles: TileSet, position: Any, seats: Sequence[str], seed: int) -> HuntersState:
    """A state from a position document (see the README), or BadPosition naming the field."""
    check_keys(position, "Hunters and Gatherers", _KEYS, ("seats", "tiles"))
    names = same_seats(position, seats)
    players = len(names)
    to_move = position.get("to_move", names[0])
    seat_of(to_move, names, "to_move")
    claim = _Claims(tiles)

    board, placed = _tiles(tiles, position.get("tiles"), players, claim)
    pieces, board = _pieces(tiles, board, position.get("pieces", []), names)
    removed = [claim(t, f"removed[{i}]") for i, t in enumerate(_list(position, "removed"))]
    land = _stack(position, "stack", "land", tiles, claim, seed, tiles.land)
    bonus = _stack(position, "bonus_stack", "bonus", tiles, claim, seed, tiles.bonus)
    scores = position.get("scores", {})
    if not isinstance(scores, dict) or set(scores) - set(names):
        raise BadPosition("position scores: an object of seat name -> points")
    for name, points in scores.items():
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise BadPosition(f"position scores.{name}: points are a whole number 0 or more")
    return _started(
        tiles,
        board,
        players,
        placed,
        pieces,
        land,
        bonus,
        names.index(to_move),
        [scores.get(n, 0) for n in names],
        removed,
    )


class _Claims:
    """Each tile id once at most across the placed tiles, stacks and removed ones (H4)."""

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        self.used: dict[int, str] = {}

    def __call__(self, tile: Any, where: str) -> int:
        if not isinstance(tile, int) or isinstance(tile, bool) or tile not in self.tiles.tiles:
            raise BadPosition(f"position {where}: {tile!r} is not a tile of the tile set")
        if tile in self.used:
            raise BadPosition(f"position {where}: tile {tile} is already in {self.used[tile]}")
        self.used[tile] = where
        return tile


def _list(position: dict[str, Any], key: str) -> list[Any]:
    value = position.get(key, [])
    if not isinstance(value, list):
        raise BadPosition(f"position {key}: a list of tile ids")
    return value


def _tiles(
    tiles: TileSet, data: Any, players: int, claim: _Claims
) -> tuple[Board, tuple[tuple[int, int, int, int], ...]]:
    if not isinstance(data, list) or not data:
        raise BadPosition("position tiles: a non-empty list of {x, y, tile, rotation}")
    board = feats.EMPTY
    placed = []
    for i, item in enumerate(data):
        where = f"tiles[{i}]"
        if not isinstance(item, dict) or set(item) != {"x", "y", "tile", "rotation"}:
            raise BadPosition(f"position {where}: an object of x, y, tile and rotation")
        x, y, rotation = item["x"], item["y"], item["rotation"]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, rotation)):
            raise BadPosition(f"position {where}: x, y and rotation are whole numbers")
        if rotation not in range(4):
            raise BadPosition(f"position {where}: rotation is 0 to 3, not {rotation}")
        tile = claim(item["tile"], where)
        if i:
            why = misfit(board, tiles.tiles[tile].turned[rotation], x, y)
            if why is not None:
                raise BadPosition(f"position {where}: {why} (H5)")
        board, _ = feats.place(board, tiles, x, y, tile, rotation, players)
        placed.append((x, y, tile, rotation))
    return board, tuple(placed)


def _pieces(
    tiles: TileSet, board: Board, data: Any, names: list[str]
) -> tuple[tuple[Piece, ...], Board]:
    if not isinstance(data, list):
        raise BadPosition("position pieces: a list of {x, y, feature, kind, seat}")
    pieces = []
    counts = [[0, 0] for _ in names]
    for i, item in enumerate(data):
        where = f"position pieces[{i}]"
        if not isinstance(item, dict) or set(item) != {"x", "y", "feature", "kind", "seat"}:
            raise BadPosition(f"{where}: an object of x, y, feature, kind and seat")
        x, y, fid, kind, seat = (item[k] for k in ("x", "y", "feature", "kind", "seat"))
        if seat not in names:
            raise BadPosition(f"{where}: seat '{seat}' is not a seat")
        if kind not in PIECE_NAMES:
            raise BadPosition(f"{where}: kind '{kind}' is not one of {', '.join(PIECE_NAMES)}")
        cell = board.cells.get((x, y)) if isinstance(x, int) and isinstance(y, int) else None
        if cell is None:
            raise BadPosition(f"{where}: no tile at ({x}, {y})")
        tile = cell[0]
        why = wrong_kind(tiles, tile, kind, fid) if isinstance(fid, int) else "a feature id"
        if why is not None:
            raise BadPosition(f"{where}: {why} (H6)")
        node = (x, y, fid)
        if kind == "hut" and any(board.system(node).huts):
            raise BadPosition(f"{where}: that river system holds a hut already (H6)")
        if kind != "hut":
            group = board.group(node)
            if any(group.members):
                raise BadPosition(f"{where}: that {group.type} holds a tribe member already (H6)")
            if group.type != "meadow" and group.open == 0:
                raise BadPosition(
                    f"{where}: that {group.type} is complete: its member went home (H12)"
                )
        s = names.index(seat)
        counts[s][1 if kind == "hut" else 0] += 1
        if counts[s][0] > MEMBERS or counts[s][1] > HUTS:
            raise BadPosition(
                f"{where}: {seat} has {MEMBERS} tribe members and {HUTS} huts in all (H2)"
            )
        board = feats.add_piece(board, node, kind, s)
        pieces.append(Piece(x, y, fid, kind, s))
    return tuple(pieces), board


def _stack(
    position: dict[str, Any],
    key: str,
    kind: str,
    tiles: TileSet,
    claim: _Claims,
    seed: int,
    every: tuple[int, ...],
) -> tuple[int, ...]:
    if key in position:
        out = []
        for i, t in enumerate(_list(position, key)):
            tile = claim(t, f"{key}[{i}]")
            if tiles.tiles[tile].kind != kind:
                raise BadPosition(f"position {key}[{i}]: tile {tile} is not a {kind} tile")
            out.append(tile)
        return tuple(out)
    # The stack is not given: every tile of its kind not used elsewhere, shuffled from the seed.
    return Stream(seed, kind).shuffled([t for t in every if t not in claim.used])
