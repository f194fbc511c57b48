"""Hunters and Gatherers players for simulations: greedy (the random one is core's RandomBot)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from tribes.core.events import Event
from tribes.core.game import Game
from tribes.core.prng import Stream
from tribes.games.hunters.board import STEP, Tile
from tribes.games.hunters.events import TilePlaced
from tribes.games.hunters.features import Board, Node
from tribes.games.hunters.placement import Placement, decode, encode
from tribes.games.hunters.rules import Moves, apply, legal_moves, place_and_score
from tribes.games.hunters.state import HuntersState


class GreedyBot:
    """Plays the move with the best immediate score gain for itself (its points minus the best
    rival's, from what the move completes); at random among equals, from its own stream.

    A placement that surely completes nothing (:func:`completes_nothing`) while the game surely
    goes on (:func:`goes_on`) gains nobody anything, with any piece: its moves are worth 0
    without being built or weighed. While the game surely goes on, what a move completes is
    scored without the rest of the turn (``rules.place_and_score``); a move that may end the
    game is played out with the reducer. The choice is the one playing out every move would
    make (corpora of its games compared byte for byte), at a fraction of the cost."""

    def __init__(self, game: Game, seed: int, seat: int) -> None:
        self.stream = Stream(seed, f"bot-greedy-{seat}")
        self.seat = seat

    def choose(self, state: HuntersState, moves: Sequence[Event]) -> Event:
        listed = moves if isinstance(moves, Moves) else legal_moves(state)  # the same, in order
        best: list[int] = []
        best_value = None
        tile = state.tiles.tiles[state.drawn]  # type: ignore[index]
        fits = next_fits(state)
        index = 0
        for p, count in listed.by_placement():
            x, y, rotation = decode(p)
            on = goes_on(fits, x, y)
            if on and completes_nothing(state.board, tile, x, y, rotation):
                values = [0] * count
            else:
                values = self.placement_worth(state, listed, index, count, on)
            for value in values:
                if best_value is None or value > best_value:
                    best, best_value = [index], value
                elif value == best_value:
                    best.append(index)
                index += 1
        return listed[best[self.stream.below(len(best))]]

    def placement_worth(
        self, state: HuntersState, moves: Moves, first: int, count: int, on: bool
    ) -> list[int]:
        """The worth of the ``count`` moves of one placement from index ``first`` (without a
        piece, then with each option). While the game surely goes on (``on``) a move is worth
        what it completes (``rules.place_and_score``), else it is played out (the end's scoring counts
        the pieces, H14-H17); a piece changes the worth only on a forest or river the move
        completes (its majority, H11) or when the move ends the game."""
        board, over, worth = self.worth(state, moves[first], on)
        values = [worth]
        for i in range(first + 1, first + count):
            move = moves[i]
            assert isinstance(move, TilePlaced) and move.feature is not None
            if over or (
                move.piece in MEMBERS_ON_SCORED and _complete(board, (move.x, move.y, move.feature))
            ):
                values.append(self.worth(state, move, on)[2])
            else:
                values.append(worth)
        return values

    def worth(self, state: HuntersState, move: Event, on: bool) -> tuple[Board, bool, int]:
        """The board after ``move``, whether it ends the game, and its gain for this seat less
        the best rival's."""
        assert isinstance(move, TilePlaced)
        if on:
            board, _, _, _, points = place_and_score(state, move)
            return board, False, self.value(points or [0] * state.players)
        after, _ = apply(state, move)
        gained = [a - b for a, b in zip(after.scores, state.scores, strict=True)]
        return after.board, after.over, self.value(gained)

    def value(self, gains: list[int]) -> int:
        """This seat's points less the best rival's."""
        rival = max((g for i, g in enumerate(gains) if i != self.seat), default=0)
        return gains[self.seat] - rival


MEMBERS_ON_SCORED = ("gatherer", "fisher")
"""The pieces that stand on forests and rivers, the features a move completes (H7)."""


def _complete(board: Board, node: Node) -> bool:
    group = board.groups[board.root[node]]
    return group.type != "meadow" and not group.open


def completes_nothing(board: Board, tile: Tile, x: int, y: int, rotation: int) -> bool:
    """Whether placing ``tile`` so surely completes no forest or river (H7): each of its forests
    and rivers has a part facing an empty cell, or joins a group that keeps an open part besides
    the ones this tile closes (a group's open parts only ever close by being joined)."""
    turned = tile.turned[rotation]
    cells, root, groups = board.cells, board.root, board.groups
    closed: dict[Node, int] = {}
    """Per neighbouring group's root, how many of its open parts this tile joins."""
    joins: dict[int, list[Node]] = {}
    """Per feature of the tile, the roots of the groups it joins."""
    loose: set[int] = set()
    """The tile's features with a part facing an empty cell."""
    for d, (dx, dy) in enumerate(STEP):
        mine = turned.parts[d]
        there = cells.get((x + dx, y + dy))
        if there is None:
            loose.update(mine)
            continue
        theirs = there[2].parts[(d + 2) & 3]
        last = len(mine) - 1
        for k, fid in enumerate(mine):
            r = root[x + dx, y + dy, theirs[last - k]]
            closed[r] = closed.get(r, 0) + 1
            joins.setdefault(fid, []).append(r)
    for fid in tile.scorable:
        if fid not in loose and not any(groups[r].open > closed[r] for r in joins[fid]):
            return False
    return True


def next_fits(state: HuntersState) -> list[Placement]:
    """The empty cells (as placements of rotation 0) that the next land tile fits now."""
    if not state.stack:
        return []
    fitting = state.tiles.tiles[state.stack[0]].fitting
    frontier = state.board.frontier
    return list(compress(frontier, map(fitting.__contains__, frontier.values())))


def goes_on(fits: list[Placement], x: int, y: int) -> bool:
    """Whether the game surely goes on after a move on (x, y) that completes nothing (so earns
    no bonus tile): the next land tile fits a cell ``fits`` whose need the move leaves alone
    (it changes its own cell's and the 4 beside it) (H5, H14)."""
    if len(fits) > 5:
        return True
    touched = {encode(x + dx, y + dy, 0) for dx, dy in ((0, 0), *STEP)}
    return any(at not in touched for at in fits)
