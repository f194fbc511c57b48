"""The Hunters and Gatherers state and how a game starts: from the seed (H2, H3); a start from a
position (H4) is read in ``positions``.

What is stored is what cannot be derived: the tiles in placement order, the pieces, supplies,
scores, the stacks and the drawn tile. The board with its joined features and the places the
drawn tile fits are caches (``CACHE``), rebuilt from the placed tiles when a state is read back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from tribes.core.prng import Stream
from tribes.events.codec import CACHE
from tribes.games.hunters import features as feats
from tribes.games.hunters.board import PIECE_TYPES, STANDARD, TileSet, load
from tribes.games.hunters.features import Board
from tribes.games.hunters.placement import Placement, draw, placements

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
    finished: bool = True,
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
    if drawn is None and finished:
        from tribes.games.hunters.scoring import finish

        state, _ = finish(state)
    return state
