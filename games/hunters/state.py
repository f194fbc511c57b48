"""The Hunters and Gatherers state and how a game starts: from the seed (H2, H3); a start from a
position (H4) is read in ``positions``. A start whose first draw fits nowhere is over before a
move: its end is scored by the caller (``scoring.finish``, H14), since scoring reads this module.

What is stored is what cannot be derived: the tiles in placement order, the pieces, supplies,
scores, the stacks and the drawn tile. The tile set and the board with its joined features
are caches (``CACHE``), rebuilt from the placed tiles when a state is read back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from tribes.core.builders import evolver
from tribes.core.prng import Chance
from tribes.core.reprs import fields_repr
from tribes.events.codec import CACHE
from tribes.games.hunters import features as feats
from tribes.games.hunters.board import PIECE_TYPES, STANDARD, TileSet, load
from tribes.games.hunters.features import Board
from tribes.games.hunters.placement import draw

MEMBERS = 5
HUTS = 2
PIECE_NAMES = tuple(PIECE_TYPES)


@attrs.frozen(kw_only=True)
class Piece:
    """A piece on the board: on feature ``feature`` of the tile at (x, y)."""

    x: int
    y: int
    feature: int
    kind: str
    seat: int

    __repr__ = fields_repr


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
    tiles: TileSet = attrs.field(
        default=attrs.Factory(lambda self: load(self.tiles_source), takes_self=True),
        eq=False,
        repr=False,
        metadata={CACHE: True},
    )
    """The tile set of ``tiles_source``, with its tables."""
    board: Board = attrs.field(
        default=attrs.Factory(lambda self: rebuild(self), takes_self=True),  # noqa: PLW0108  rebuild comes below
        eq=False,
        repr=False,
        metadata={CACHE: True},
    )
    """The placed tiles with their joined features, rebuilt from ``placed`` and ``pieces`` when
    not given (a state read back)."""

    __repr__ = fields_repr

    @classmethod
    def from_fields(cls, **fields: Any) -> HuntersState:
        """A state from its serialized fields (the codec calls this); the caches are rebuilt."""
        return cls(**fields)


evolve = evolver(HuntersState)
"""``evolve(state, to_move=1, ...)``: the state with these fields changed, every other one carried
(``attrs.evolve``, made fast by ``core.builders``): how the reducer makes each new state."""


def rebuild(state: HuntersState) -> Board:
    """The board of a state's placed tiles and pieces, joined tile by tile as in play."""
    board = feats.EMPTY
    for x, y, tile, rotation in state.placed:
        board, _ = feats.place(board, state.tiles, x, y, tile, rotation, state.players)
    for p in state.pieces:
        board = feats.add_piece(board, (p.x, p.y, p.feature), p.kind, p.seat)
    return board


def from_seed(tiles: TileSet, chance: Chance, players: int) -> HuntersState:
    """H3: the start tile at (0, 0), both stacks shuffled, a random start seat; then the first
    land tile is drawn for it (none fits: ``drawn`` is None, the end still to score)."""
    land = chance.shuffled("land", tiles.land)
    bonus = chance.shuffled("bonus", tiles.bonus)
    start = chance.below("start", players)
    board, _ = feats.place(feats.EMPTY, tiles, 0, 0, tiles.start, 0, players)
    return started(tiles, board, players, ((0, 0, tiles.start, 0),), (), land, bonus, start)


def started(
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
    """The state with the next land tile drawn (H5: those that fit nowhere removed); when none
    fits, ``drawn`` is None and ``scoring.finish`` is to score the end (H14)."""
    drawn, rest, unfit = draw(tiles, board, tuple(land))
    supply = [[MEMBERS, HUTS] for _ in range(players)]
    for p in pieces:
        supply[p.seat][1 if p.kind == "hut" else 0] -= 1
    return HuntersState(
        tiles_source=tiles.source,
        tiles=tiles,
        board=board,
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
    )
