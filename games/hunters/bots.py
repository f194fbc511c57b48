"""Hunters and Gatherers players for simulations: greedy (the random one is core's RandomBot)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Any

from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.prng import Stream
from tribes.games.hunters.board import STEP, need_text
from tribes.games.hunters.events import TilePlaced
from tribes.games.hunters.features import Board
from tribes.games.hunters.keys import CELL, ROTATION, Placement, cell_key, cell_xy, decode
from tribes.games.hunters.placement import occupied
from tribes.games.hunters.rules import Moves, legal_moves, next_tile, place_and_score
from tribes.games.hunters.scoring import final_gains
from tribes.games.hunters.state import HuntersState

Run = tuple[int, int, int]
"""Moves ``first`` to ``first + count - 1`` of a turn, all worth ``value``: (first, count, value)."""


class GreedyBot:
    """Plays the move with the best immediate score gain for itself (its points minus the best
    rival's, from what the move completes); at random among equals, from its own stream.

    A placement that surely completes nothing (:func:`completes_nothing`) while the game surely
    goes on (:func:`goes_on`) gains nobody anything, with any piece: its moves are worth 0
    without being built or weighed. While the game surely goes on, what a move completes is
    scored without the rest of the turn (``rules.place_and_score``), and only when it joins a
    forest or river that holds a member or brings its own (else nobody scores it); a move that
    may end the game is played out with the reducer's parts (``rules.place_and_score``, then
    ``rules.next_tile``: whether a tile is drawn; if none, ``scoring.final_gains``, the end's
    points without its new state), but for the last land tile's placements that complete
    nothing and join no piece's feature: those end the game as it stands (``final_gains`` of
    the state, once a turn). The choice is the one playing out every
    move would make (corpora of its games compared byte for byte), at a fraction of the cost."""

    def __init__(self, game: Game[Any], seed: int, seat: int) -> None:
        self.stream = Stream(seed, f"bot-greedy-{seat}")
        self.seat = seat

    def choose(self, state: HuntersState, moves: Sequence[Event]) -> Event:
        listed = moves if isinstance(moves, Moves) else legal_moves(state)  # the same, in order
        runs = self.weigh(state, listed)
        top = max([value for _, _, value in runs])
        best = [(first, count) for first, count, value in runs if value == top]
        k = self.stream.below(sum([count for _, count in best]))  # the k-th best move, in order
        for first, count in best:
            if k < count:
                return listed[first + k]
            k -= count
        raise AssertionError("below() draws less than the count of best moves")

    def weigh(self, state: HuntersState, moves: Moves) -> list[Run]:
        """The worth of every move of the turn, in order, as runs of moves worth the same. What
        a cell's placements share (whether the game surely goes on, which of its places face a
        feature that stays open, whether the features across hold members) is found once for
        all its rotations. While the game surely goes on, a placement that joins no member's
        forest or river gains nobody anything without a piece, whatever it completes (H11)."""
        board = state.board
        tile = state.tiles.tiles[state.drawn]  # type: ignore[index]  # drawn: the game goes on
        turned = tile.turned
        scorable_masks = [tuple([t.masks[fid] for fid in tile.scorable]) for t in turned]
        """By rotation, the place bits of the tile's forests and rivers."""
        fits = next_fits(state)
        surely_on = len(fits) > 5  # goes_on() for every cell
        last = not state.stack
        """The last land tile: a move that earns no bonus tile ends the game (H13, H14)."""
        ended: int | None = None
        """The worth of the game ending as it stands, found at most once a turn."""
        runs: list[Run] = []
        start = index = pending = 0
        """Moves ``start`` to ``index - 1`` are worth ``pending``, their run not yet written."""
        cell = need = -1
        on = alone = False
        places = 0
        seen = manned = False
        for p, count in moves.by_placement():
            if cell != p & CELL:
                cell = p & CELL  # keys.cell_of(p)
                on = surely_on or goes_on(fits, *cell_xy(cell))
                found = board.need(cell)
                assert found is not None  # a move's cell is an open one
                need = found
                places = _LOOSE[need]
                seen = False  # the sides across not looked at yet: ``places`` are the loose ones
                alone = last and not on and not occupied(board, cell, need)
            rotation = p & ROTATION  # keys.rotation_of(p)
            masks = scorable_masks[rotation]
            zero = True  # completes_nothing(masks, places), inline: the hottest test of a turn
            for mask in masks:
                if not mask & places:
                    zero = False
                    break
            if not (zero or seen):
                places, manned = across(board, cell, need)
                seen = True
                zero = completes_nothing(masks, places)
            if on and zero:  # the commonest: worth 0 with any piece
                if pending:
                    runs.append((start, index - start, pending))
                    start, pending = index, 0
                index += count
                continue
            if on:
                if manned:
                    x, y, _ = decode(p)
                    over, value = self.worth(state, TilePlaced(x=x, y=y, rotation=rotation), on)
                else:
                    over, value = False, 0
            elif alone and zero:
                if ended is None:
                    ended = self.value(final_gains(state.tiles, board, state.pieces, state.players))
                over, value = True, ended
            else:
                x, y, _ = decode(p)
                over, value = self.worth(state, TilePlaced(x=x, y=y, rotation=rotation), on)
            features = turned[rotation].masks
            values = self.placement_worth(
                state, moves, index, count, on, over, value, features, places
            )
            for value in values:
                if value != pending:
                    if start < index:
                        runs.append((start, index - start, pending))
                    start, pending = index, value
                index += 1
        if start < index:
            runs.append((start, index - start, pending))
        return runs

    def placement_worth(
        self,
        state: HuntersState,
        moves: Moves,
        first: int,
        count: int,
        on: bool,
        over: bool,
        value: int,
        masks: dict[int, int],
        places: int,
    ) -> list[int]:
        """The worth of the ``count`` moves of one placement from index ``first`` (without a
        piece, then with each option), given whether the move without a piece ends the game and
        its worth (``over``, ``value``), and the place bits of the tile's features so turned
        (``masks``) and of its cell that stay open (``places``, :func:`across`). A gatherer
        or fisher changes the worth only on a forest or river the move completes (its majority,
        H11): on any other it goes home unscored (H12, H15). A hunter or a hut scores only at
        the end (H16, H17): it changes the worth only of a move that ends the game. So without
        tribe members in supply, only a move that ends the game has options worth weighing."""
        if not (over or state.supply[state.to_move][0]):  # no option can change the worth
            return [value] * count
        values = [value]
        for i in range(first + 1, first + count):
            move = moves[i]
            assert isinstance(move, TilePlaced)
            assert move.feature is not None
            scored_now = move.piece in MEMBERS_ON_SCORED
            changes = not masks[move.feature] & places if scored_now else over
            values.append(self.worth(state, move, on)[1] if changes else value)
        return values

    def worth(self, state: HuntersState, move: TilePlaced, on: bool) -> tuple[bool, int]:
        """Whether ``move`` ends the game, and its gain for this seat less the best rival's."""
        board, pieces, _, gold, points = place_and_score(state, move)
        gains = points or [0] * state.players
        if on or next_tile(state, board, gold, [])[0] is not None:
            return False, self.value(gains)
        final = final_gains(state.tiles, board, pieces, state.players)
        return True, self.value([a + b for a, b in zip(gains, final, strict=True)])

    def value(self, gains: list[int]) -> int:
        """This seat's points less the best rival's."""
        rival = max((g for i, g in enumerate(gains) if i != self.seat), default=0)
        return gains[self.seat] - rival


MEMBERS_ON_SCORED = ("gatherer", "fisher")
"""The pieces that stand on forests and rivers, the features a move completes (H7)."""


_FACING = tuple(
    tuple(
        (dx, dy, (d + 2) & 3, 1 if need[d] == "R" else 0)
        for d, (dx, dy) in enumerate(STEP)
        if need[d] in "FR"
    )
    for need in map(need_text, range(256))
)
"""By the need code of an empty cell: for each forest side and river side, (dx, dy, the side of
the tile across facing back, the part of it there): where the forest or river of a tile placed
in the cell joins one across a side."""
_FACED = tuple(
    tuple((2 if need[d] == "R" else 1) << 3 * d for d in range(4) if need[d] in "FR")
    for need in map(need_text, range(256))
)
"""By the need code of an empty cell: the place bits ``1 << (3 * direction + part)`` of those
joins, in the order of ``_FACING``."""
_LOOSE = tuple(
    sum(7 << 3 * d for d in range(4) if need[d] == ".") for need in map(need_text, range(256))
)
"""By the need code of an empty cell: the place bits of its sides without a tile across."""


def across(board: Board, at: Placement, need: int) -> tuple[int, bool]:
    """What the sides of the empty cell of ``at`` (its placement of rotation 0, of need code
    ``need``) hold for a tile placed there, whatever its rotation: the places (bits ``1 << (3 *
    direction + part)``) where its forests and rivers stay open, and whether one of the forests
    or rivers they join holds a tribe member. A place stays open on a side without a tile
    across, or where it joins a group with an open part besides the ones a tile there closes (a
    group's open parts only ever close by being joined, and how many of them a tile there closes
    is the same for all its rotations); what a tile there completes holds a member only if one
    of those does, or it brings its own (H11)."""
    places = _LOOSE[need]
    facing = _FACING[need]
    if not facing:
        return places, False
    x, y = cell_xy(at)
    cells, groups = board.cells, board.groups
    roots = []
    for dx, dy, back, part in facing:
        there = cells[x + dx, y + dy]
        roots.append(there[3][there[2].parts[back][part]])
    for bit, r in zip(_FACED[need], roots, strict=True):
        if groups[r][2] > roots.count(r):  # its open parts: more than the cell closes
            places |= bit
    return places, not board.manned.isdisjoint(roots)


def completes_nothing(masks: tuple[int, ...], places: int) -> bool:
    """Whether a tile whose forests and rivers have the place bits ``masks`` (as turned) surely
    completes none of them (H7) in a cell whose open places (:func:`across`) are ``places``:
    each of them holds one."""
    return all(map(places.__and__, masks))


def next_fits(state: HuntersState) -> list[Placement]:
    """The empty cells (as placements of rotation 0) that the next land tile fits now."""
    if not state.stack:
        return []
    fitting = state.tiles.tiles[state.stack[0]].fitting
    board = state.board
    return list(compress(board.open_cells, map(fitting.__contains__, board.needs)))


def goes_on(fits: list[Placement], x: int, y: int) -> bool:
    """Whether the game surely goes on after a move on (x, y) that completes nothing (so earns
    no bonus tile): the next land tile fits a cell ``fits`` whose need the move leaves alone
    (it changes its own cell's and the 4 beside it) (H5, H14)."""
    if len(fits) > 5:
        return True
    touched = {cell_key(x + dx, y + dy) for dx, dy in ((0, 0), *STEP)}
    return any(at not in touched for at in fits)
