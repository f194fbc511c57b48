"""The Hunters and Gatherers rules: legal moves, the check of a move, the reducer (H5–H14) and
the outcome. Placement lookups live in ``placement``, the unions in ``features``, points in
``scoring``."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping

from tribes.core.errors import GameOver, IllegalMove
from tribes.core.events import Effect, Event
from tribes.core.game import Outcome, Pending
from tribes.core.header import Header
from tribes.core.movelist import MoveList
from tribes.games.hunters import features as feats
from tribes.games.hunters.board import SUPPLY_BITS, load
from tribes.games.hunters.events import (
    PIECES,
    BonusEarned,
    FeatureScored,
    PlacedTile,
    TilePlaced,
    TileRemoved,
)
from tribes.games.hunters.features import Board
from tribes.games.hunters.placement import (
    OFFSET,
    Placement,
    blocked,
    decode,
    draw,
    encode,
    misfit,
    occupied,
    placements,
    wrong_kind,
)
from tribes.games.hunters.positions import from_position
from tribes.games.hunters.scoring import complete, finish, winners_of
from tribes.games.hunters.state import HuntersState, Piece, from_seed

Options = tuple[tuple[str, int], ...]
"""The (piece, feature) options of one placement."""


def _move(p: Placement, option: tuple[str, int] | None) -> TilePlaced:
    """The move of placement ``p`` with ``option`` (piece, feature id) or none."""
    x, y, r = decode(p)
    if option is None:
        return TilePlaced(x=x, y=y, rotation=r)
    return TilePlaced(x=x, y=y, rotation=r, piece=option[0], feature=option[1])


class Moves(MoveList):
    """Every legal move of a state, in order: each placement without a piece, then with each
    piece it allows. Held as the placements and their options and turned into events when read,
    since a turn lists some fifty moves and plays one: building them all would cost more than
    the rest of the turn."""

    __slots__ = ("_options", "_starts", "_where")

    def __init__(
        self,
        where: tuple[Placement, ...],
        options: list[Options] | None = None,
        starts: list[int] | None = None,
        count: int | None = None,
    ) -> None:
        super().__init__(len(where) if count is None else count)
        self._where = where
        self._options = options
        """Per placement, or None when no placement allows a piece."""
        self._starts = starts
        """Per placement, the index of its move without a piece."""

    def _at(self, index: int) -> Event:
        if self._options is None or self._starts is None:
            return _move(self._where[index], None)
        at = bisect_right(self._starts, index) - 1
        k = index - self._starts[at]
        return _move(self._where[at], self._options[at][k - 1] if k else None)

    def by_placement(self) -> Iterator[tuple[Placement, int]]:
        """Each placement, in order, with how many moves it makes (itself without a piece, then
        one per piece option): what a bot that weighs placements reads without building moves."""
        if self._options is None:
            for p in self._where:
                yield p, 1
            return
        for p, found in zip(self._where, self._options, strict=True):
            yield p, 1 + len(found)

    def __iter__(self) -> Iterator[Event]:
        for i, p in enumerate(self._where):
            yield _move(p, None)
            if self._options is not None:
                for option in self._options[i]:
                    yield _move(p, option)


def legal_moves(state: HuntersState) -> Moves:
    """H5, H6: every cell and rotation where the drawn tile fits, each without a piece and with
    every piece the supply and the joined features allow."""
    if state.over or state.drawn is None:
        return Moves(())
    board = state.board
    tile = state.tiles.tiles[state.drawn]
    where = placements(tile, board)
    members, huts = state.supply[state.to_move]
    if not (members or huts):
        return Moves(where)
    cache, allow = tile.allowed, tile.allow
    flags = SUPPLY_BITS[members > 0, huts > 0]
    options: list[Options] = []
    starts: list[int] = []
    count = 0
    cell = -1
    occupied_bits = 0
    anyone = bool((members and board.manned) or (huts and board.hutted))  # else no place counts
    for p in where:
        if anyone and cell != p >> 2:
            cell = p >> 2
            occupied_bits = occupied(board, p & ~3, members > 0, huts > 0)
        key = occupied_bits | flags | (p & 3)
        found = cache.get(key)
        if found is None:
            found = allow(key)
        starts.append(count)
        options.append(found)
        count += 1 + len(found)
    return Moves(where, options, starts, count)


def check(state: HuntersState, event: Event) -> None:
    """Raises IllegalMove naming the rule unless ``event`` is legal now."""
    if state.over or state.drawn is None:
        raise GameOver("the game is over: no tile is left to place", rule="H14")
    if not (isinstance(event, TilePlaced) and _listed(state, event)):
        _refuse(state, event)


def _listed(state: HuntersState, event: TilePlaced) -> bool:
    """Whether the legal moves list ``event``, from the same tables they are built from (one
    cell's lookups: the reducer checks every move, so this is on the hot path)."""
    board = state.board
    at = ((event.y + OFFSET) << 13 | (event.x + OFFSET)) << 2  # encode(x, y, 0)
    need = board.frontier.get(at)
    tile = state.tiles.tiles[state.drawn]  # type: ignore[index]
    if need is None or event.rotation not in tile.by_need[need]:
        return False
    piece = event.piece
    if piece is None:
        return event.feature is None
    members, huts = state.supply[state.to_move]
    key = SUPPLY_BITS[members > 0, huts > 0] | event.rotation
    if (members and board.manned) or (huts and board.hutted):
        key |= occupied(board, at, members > 0, huts > 0)
    found = tile.allowed.get(key)
    if found is None:
        found = tile.allow(key)
    return (piece, event.feature) in found


def _refuse(state: HuntersState, event: Event) -> None:
    """Raises IllegalMove saying which rule ``event`` breaks (the detailed check, for a move the
    legal moves do not list)."""
    if not isinstance(event, TilePlaced):
        raise IllegalMove(f"'{type(event).__name__}' is not a Hunters and Gatherers move")
    tiles = state.tiles
    tile = state.drawn
    if tile is None:  # check() said so first; the type does not know it
        raise GameOver("the game is over: no tile is left to place", rule="H14")
    rule = "H13" if state.bonus else "H5"
    lead = f"bonus tile {tile} is to be placed now: " if state.bonus else ""
    if event.rotation not in range(4):
        raise IllegalMove(f"{lead}rotation is 0 to 3, not {event.rotation}", rule=rule)
    need = state.board.frontier.get(encode(event.x, event.y, 0))
    if need is None or event.rotation not in tiles.tiles[tile].by_need[need]:
        why = misfit(state.board, tiles.tiles[tile].turned[event.rotation], event.x, event.y)
        raise IllegalMove(f"{lead}{why}", rule=rule)
    piece, fid = event.piece, event.feature
    if piece is None:
        if fid is not None:
            raise IllegalMove(f"feature {fid} is named without a piece to put on it", rule="H6")
        return
    if piece not in PIECES:
        raise IllegalMove(f"'{piece}' is not a piece; pieces: {', '.join(PIECES)}", rule="H6")
    if fid is None:
        raise IllegalMove(f"a {piece} needs a feature to stand on", rule="H6")
    why = wrong_kind(tiles, tile, piece, fid)
    if why is not None:
        raise IllegalMove(why, rule="H6")
    members, huts = state.supply[state.to_move]
    if not (huts if piece == "hut" else members):
        what = "huts" if piece == "hut" else "tribe members"
        raise IllegalMove(f"no {what} left in supply for a {piece}", rule="H6")
    why = blocked(state.board, tiles, tile, event.rotation, event.x, event.y, piece, fid)
    if why is not None:
        raise IllegalMove(why, rule="H6")


def apply(state: HuntersState, event: Event) -> tuple[HuntersState, tuple[Effect, ...]]:
    """The reducer: place the tile and the piece, score what it completed, then the bonus
    tile (H13) or the next player's land tile, or the end (H14)."""
    check(state, event)
    assert isinstance(event, TilePlaced)
    tiles, players, seat = state.tiles, state.players, state.to_move
    tile = state.drawn
    assert tile is not None
    x, y, r = event.x, event.y, event.rotation
    kind = event.piece
    effects: list[Effect] = [PlacedTile(tile=tile, x=x, y=y, rotation=r)]
    supply = state.supply
    if kind is not None:
        members, huts = supply[seat]
        had = (members, huts - 1) if kind == "hut" else (members - 1, huts)
        supply = (*supply[:seat], had, *supply[seat + 1 :])
    board, pieces, scored, gold, gains = place_and_score(state, event)
    scores = state.scores
    if scored:
        effects.extend(scored)
        scores = tuple(s + g for s, g in zip(scores, gains, strict=True))
        back = [list(seat_supply) for seat_supply in supply]
        for effect in scored:
            for s in effect.returned:
                back[s][0] += 1
        supply = tuple((m, h) for m, h in back)
    placed = (*state.placed, (x, y, tile, r))
    removed = state.removed
    bonus_stack = state.bonus_stack
    stack = state.stack
    drawn = None
    if gold and not state.bonus and bonus_stack:  # H13: one bonus tile, never a chain
        drawn, bonus_stack, unfit = draw(tiles, board, bonus_stack)
        if unfit:
            effects.extend(TileRemoved(tile=t, bonus=True) for t in unfit)
            removed = removed + unfit
        if drawn is not None:
            effects.append(BonusEarned(seat=seat, tile=drawn))
    bonus = drawn is not None
    if not bonus:
        drawn, stack, unfit = draw(tiles, board, stack)
        if unfit:
            effects.extend(TileRemoved(tile=t) for t in unfit)
            removed = removed + unfit
    after = HuntersState(  # not attrs.evolve: this is the hot path, and evolve is slow
        tiles_source=state.tiles_source,
        players=players,
        placed=placed,
        pieces=pieces,
        supply=supply,
        scores=scores,
        stack=stack,
        bonus_stack=bonus_stack,
        removed=removed,
        drawn=drawn,
        bonus=bonus,
        to_move=seat if bonus else (seat + 1) % players,
        tiles=tiles,
        board=board,
    )
    if drawn is None:
        after, final = finish(after)
        effects.extend(final)
    return after, tuple(effects)


def place_and_score(
    state: HuntersState, event: TilePlaced
) -> tuple[Board, tuple[Piece, ...], list[FeatureScored], bool, list[int]]:
    """The tile and piece of a legal ``event`` placed and what they completed scored (H5-H12):
    the board and pieces after, the effects, whether gold was completed, the points by seat
    (empty when nothing scored). The reducer's first half; a bot weighing many moves asks this
    alone while the game surely goes on."""
    tiles, seat = state.tiles, state.to_move
    x, y, kind, fid = event.x, event.y, event.piece, event.feature
    piece = None if kind is None or fid is None else (kind, fid, seat)
    board, roots = feats.place(
        state.board,
        tiles,
        x,
        y,
        state.drawn,  # type: ignore[arg-type]  # a legal event: a tile is drawn
        event.rotation,
        state.players,
        piece,  # type: ignore[arg-type]
    )
    pieces = state.pieces
    if piece is not None:
        pieces = (*pieces, Piece(x, y, fid, kind, seat))  # type: ignore[arg-type]
    return complete(tiles, board, roots, pieces, state.players)


def outcome(state: HuntersState) -> Outcome:
    """The scores by seat and the winners (H18; none before the end)."""
    return Outcome(state.scores, winners_of(state))


def pending(state: HuntersState) -> Pending | None:
    """H13: a bonus tile to place is the placing player's pending decision; an ordinary turn's
    land tile is not."""
    if state.over or not state.bonus:
        return None
    return Pending(state.to_move, "bonus", {"tile": state.drawn})


def setup_effects(header: Header, state: HuntersState) -> tuple[Effect, ...]:
    """What the start caused, told at event 0: the land tiles drawn first that fit nowhere
    (H5: removed) and, for a position in which nothing fits, the end's scoring (H14)."""
    position = header.position
    given = len(position.get("removed", ())) if position is not None else 0
    effects: list[Effect] = [TileRemoved(tile=t) for t in state.removed[given:]]
    drew = position is None or not ("drawn" in position or position.get("over"))
    if state.over and position is not None and drew:  # not a game that was over already
        before = from_position(
            state.tiles, header.position, header.seats, header.chance, finished=False
        )
        effects.extend(finish(before)[1])
    return tuple(effects)


def setup(header: Header, options: Mapping[str, str]) -> HuntersState:
    """The start: from the seed (H3) or a position (H4), with the option's tile set."""
    tiles = load(options["tiles"], header.files.get("tiles"))
    if header.position is not None:
        return from_position(tiles, header.position, header.seats, header.chance)
    state = from_seed(tiles, header.chance, len(header.seats))
    return finish(state)[0] if state.drawn is None else state
