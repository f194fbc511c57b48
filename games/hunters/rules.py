"""The Hunters and Gatherers rules: legal moves, the check of a move, the reducer (H5–H14) and
the outcome. Placement lookups live in ``placement``, the unions in ``features``, points in
``scoring``."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import accumulate, compress

from tribes.core.builders import maker
from tribes.core.errors import GameOver, IllegalMove, TribesError
from tribes.core.events import Effect, Event
from tribes.core.game import GameBase, Outcome, Pending
from tribes.core.header import Header
from tribes.core.movelist import MoveList
from tribes.games.hunters import features as feats
from tribes.games.hunters import notation as own_notation
from tribes.games.hunters.board import SUPPLY_BITS, Tile, load
from tribes.games.hunters.events import (
    PIECES,
    BonusEarned,
    FeatureScored,
    PlacedTile,
    TilePlaced,
    TileRemoved,
)
from tribes.games.hunters.features import Board
from tribes.games.hunters.keys import Placement, cell_key, decode, turned
from tribes.games.hunters.placement import (
    OCCUPYING,
    blocked,
    draw,
    misfit,
    wrong_kind,
)
from tribes.games.hunters.positions import from_position
from tribes.games.hunters.scoring import complete, final_gains, finish, winners_of
from tribes.games.hunters.state import HuntersState, Piece, evolve, from_seed

Options = tuple[tuple[str, int], ...]
"""The (piece, feature) options of one placement."""


_placed_move = maker(TilePlaced)
_placed_tile = maker(PlacedTile)
"""A move's event and its first effect, made as calling their class makes them (``core.builders``):
each move makes one of each."""


def _move(p: Placement, option: tuple[str, int] | None) -> TilePlaced:
    """The move of placement ``p`` with ``option`` (piece, feature id) or none."""
    x, y, r = decode(p)
    if option is None:
        return _placed_move(x=x, y=y, rotation=r)
    return _placed_move(x=x, y=y, rotation=r, piece=option[0], feature=option[1])


class Moves(MoveList):
    """Every legal move of a state, in order: each placement without a piece, then with each
    piece it allows. Held as the board's open cells, their needs and where each cell's moves
    end, and turned into events when read, since a turn lists some fifty moves and plays one:
    building them all (or even the placements) would cost more than the rest of the turn."""

    __slots__ = ("_cells", "_count", "_ends", "_key", "_keys", "_needs", "_tile")

    def __init__(
        self,
        tile: Tile | None = None,
        cells: tuple[Placement, ...] = (),
        needs: bytes = b"",
        ends: list[int] | None = None,
        key: int | None = None,
        keys: dict[int, int] | None = None,
    ) -> None:
        super().__init__(ends[-1] if ends else 0)
        self._tile = tile
        self._cells = cells
        """The open cells, as placements of rotation 0, in order (``Board.open_cells``)."""
        self._needs = needs
        """Per cell, its need code."""
        self._ends = ends or []
        """Per cell, the index after its last move (a cell the tile fits nowhere makes none)."""
        self._key = key
        """The :func:`board.allow_key` of the mover's supply; None when it has no piece."""
        self._keys = keys
        """By cell index, its allow key with its occupied places, where any is occupied."""

    def _at(self, index: int) -> Event:
        ends = self._ends
        j = bisect_right(ends, index)  # the first cell whose moves end after ``index``
        k = index - ends[j - 1] if j else index
        at = self._cells[j]
        tile = self._tile
        assert tile is not None  # no cell without a tile
        rotations = tile.by_need[self._needs[j]]
        if self._key is None:
            return _move(turned(at, rotations[k]), None)
        key = self._key if self._keys is None else self._keys.get(j, self._key)
        allowed = tile.allowed
        for r in rotations:
            found = allowed.get(key | r)
            if found is None:
                found = tile.allow(key | r)
            if k <= len(found):
                return _move(turned(at, r), found[k - 1] if k else None)
            k -= 1 + len(found)
        raise AssertionError("a cell's moves end where its count says")

    def _placements(self) -> Iterator[tuple[Placement, Options]]:
        """Each placement, in order, with its piece options."""
        tile = self._tile
        if tile is None:
            return
        for j, (at, need) in enumerate(zip(self._cells, self._needs, strict=True)):
            key = self._key if self._keys is None else self._keys.get(j, self._key)
            for r in tile.by_need[need]:
                yield turned(at, r), () if key is None else tile.allow(key | r)

    def by_placement(self) -> Iterator[tuple[Placement, int]]:
        """Each placement, in order, with how many moves it makes (itself without a piece, then
        one per piece option): what a bot that weighs placements reads without building moves."""
        for p, options in self._placements():
            yield p, 1 + len(options)

    def __iter__(self) -> Iterator[Event]:
        for p, options in self._placements():
            yield _move(p, None)
            for option in options:
                yield _move(p, option)

    def notation(self, write: Callable[[Event], str]) -> list[str]:
        """``write`` of each move, the text of a move (a placement, a piece option) listed
        before taken again (:data:`_TEXTS`): an open cell stays open from turn to turn, and
        a turn's fifty moves are mostly those of the turns before. The walk of
        :meth:`_placements`, inline (a generator resumed at every placement costs more)."""
        texts = _TEXTS.get(write)
        if texts is None or len(texts) >= TEXTS_KEPT:
            texts = _TEXTS[write] = {}
        direct = _writes_own_notation(write)
        out: list[str] = []
        tile = self._tile
        if tile is None:
            return out
        by_need, allowed, key = tile.by_need, tile.allowed, self._key
        for j, (at, need) in enumerate(zip(self._cells, self._needs, strict=True)):
            if self._keys is not None:
                key = self._keys.get(j, self._key)
            for r in by_need[need]:
                p = at | r  # turned(at, r), without a call a placement
                text = texts.get(p)
                if text is None:
                    text = texts[p] = (
                        own_notation.placement_text(*decode(p)) if direct else write(_move(p, None))
                    )
                out.append(text)
                if key is None:
                    continue
                options = allowed.get(key | r)
                for option in tile.allow(key | r) if options is None else options:
                    text = texts.get((p, option))
                    if text is None:
                        text = texts[p, option] = (
                            texts[p] + own_notation.option_text(*option)
                            if direct
                            else write(_move(p, option))
                        )
                    out.append(text)
        return out


def _writes_own_notation(write: Callable[[Event], str]) -> bool:
    """Whether ``write`` is a game's ``format_move`` over this game's notation, not overridden:
    its texts are then made from the placement's and the option's parts (``notation``'s own
    functions, the texts ``format`` gives), without making each move's event first: a turn
    lists some fifty moves, and ``log --json --states`` writes them at every step."""
    return (
        getattr(write, "__func__", None) is GameBase.format_move
        and getattr(getattr(write, "__self__", None), "notation", None) is own_notation
    )


_TEXTS: dict[Callable[[Event], str], dict[Placement | tuple[Placement, tuple[str, int]], str]] = {}
"""By the notation that wrote them (a game's ``format_move``), the texts of the moves it wrote:
by placement (without a piece) or placement and option; a bounded memo (:data:`TEXTS_KEPT` a
notation) of a pure function of immutable values."""
TEXTS_KEPT = 1 << 14


def legal_moves(state: HuntersState) -> Moves:
    """H5, H6: every cell and rotation where the drawn tile fits, each without a piece and with
    every piece the supply and the joined features allow. Only how many moves each open cell
    makes is found here, by its need in C (``bytes.translate`` of the tile's table), and in
    Python only for the cells with an occupied place around them; a move is built when read."""
    if state.over or state.drawn is None:
        return Moves()
    board = state.board
    tile = state.tiles.tiles[state.drawn]
    cells, needs = board.open_cells, board.needs
    if not any(state.supply[state.to_move]):
        return Moves(tile, cells, needs, list(accumulate(needs.translate(tile.fit_counts))))
    key, kept = _supply_key(state)
    table = tile.moves_by_need(key)
    counts: Iterable[int] = (
        needs.translate(table) if isinstance(table, bytes) else map(table.__getitem__, needs)
    )
    keys = None
    if kept:  # else no place counts
        counts = list(counts)
        keys = {}
        around = board.around
        for j in compress(range(len(cells)), counts):  # the cells the tile fits
            occupied_places = around.get(cells[j], 0) & kept
            if occupied_places:
                keys[j] = key | occupied_places
                counts[j] = tile.cell_moves(key | occupied_places, needs[j])
    return Moves(tile, cells, needs, list(accumulate(counts)), key, keys)


def _supply_key(state: HuntersState) -> tuple[int, int]:
    """What H6 allows the mover, as the tables read it: the allow key of its supply (members
    and huts left: ``board.allow_key`` without a rotation or places) and the bits of
    ``Board.around`` that can block one of its pieces (0 when none can: no feature or river
    system its pieces could join holds one). The legal moves and the reducer's check both
    take them from here."""
    members, huts = state.supply[state.to_move]
    key = SUPPLY_BITS[members > 0, huts > 0]
    board = state.board
    if (members and board.manned) or (huts and board.hutted):
        return key, OCCUPYING[members > 0, huts > 0]
    return key, 0


def check(state: HuntersState, event: Event) -> None:
    """Raises IllegalMove naming the rule unless ``event`` is legal now: unless the legal moves
    list it (the one source of truth, :func:`_listed`); :func:`_broken_rule` then says which
    rule it breaks."""
    if state.over or state.drawn is None:
        raise GameOver("the game is over: no tile is left to place", rule="H14")
    if isinstance(event, TilePlaced) and _listed(state, event):
        return
    error = _broken_rule(state, event)
    if error is None:  # a bug: the tables and the rules disagree
        raise AssertionError(f"the legal moves do not list {event!r}, yet no rule refuses it")
    raise error


def _listed(state: HuntersState, event: TilePlaced) -> bool:
    """Whether the legal moves list ``event``: the lookups :func:`legal_moves` makes, for its
    one cell (the reducer checks every move, so this is on the hot path)."""
    board = state.board
    at = cell_key(event.x, event.y)
    need = board.need(at)
    tile = state.tiles.tiles[state.drawn]  # type: ignore[index]  # drawn: the game goes on
    if need is None or event.rotation not in tile.by_need[need]:
        return False
    piece = event.piece
    if piece is None:
        return event.feature is None
    key, kept = _supply_key(state)
    key |= event.rotation | (board.around.get(at, 0) & kept)  # placement.occupied's places
    found = tile.allowed.get(key)
    if found is None:
        found = tile.allow(key)
    return (piece, event.feature) in found


def _broken_rule(state: HuntersState, event: Event) -> TribesError | None:
    """The error naming the rule ``event`` breaks, or None when it breaks none: the rules
    checked one by one, for a move the legal moves do not list, to say why (a test plays random
    games and checks that it refuses exactly the moves the legal moves do not list)."""
    if not isinstance(event, TilePlaced):
        return IllegalMove(f"'{type(event).__name__}' is not a Hunters and Gatherers move")
    tiles = state.tiles
    tile = state.drawn
    if tile is None:  # check() said so first; the type does not know it
        return GameOver("the game is over: no tile is left to place", rule="H14")
    rule = "H13" if state.bonus else "H5"
    lead = f"bonus tile {tile} is to be placed now: " if state.bonus else ""
    if event.rotation not in range(4):
        return IllegalMove(f"{lead}rotation is 0 to 3, not {event.rotation}", rule=rule)
    need = state.board.need(cell_key(event.x, event.y))
    if need is None or event.rotation not in tiles.tiles[tile].by_need[need]:
        why = misfit(state.board, tiles.tiles[tile].turned[event.rotation], event.x, event.y)
        return IllegalMove(f"{lead}{why}", rule=rule)
    piece, fid = event.piece, event.feature
    if piece is None:
        if fid is not None:
            return IllegalMove(f"feature {fid} is named without a piece to put on it", rule="H6")
        return None
    if piece not in PIECES:
        return IllegalMove(f"'{piece}' is not a piece; pieces: {', '.join(PIECES)}", rule="H6")
    if fid is None:
        return IllegalMove(f"a {piece} needs a feature to stand on", rule="H6")
    why = wrong_kind(tiles, tile, piece, fid)
    if why is not None:
        return IllegalMove(why, rule="H6")
    members, huts = state.supply[state.to_move]
    if not (huts if piece == "hut" else members):
        what = "huts" if piece == "hut" else "tribe members"
        return IllegalMove(f"no {what} left in supply for a {piece}", rule="H6")
    why = blocked(state.board, tiles, tile, event.rotation, event.x, event.y, piece, fid)
    if why is not None:
        return IllegalMove(why, rule="H6")
    return None


def apply(state: HuntersState, event: Event) -> tuple[HuntersState, tuple[Effect, ...]]:
    """The reducer: place the tile and the piece, score what it completed, then the bonus
    tile (H13) or the next player's land tile, or the end (H14)."""
    check(state, event)
    assert isinstance(event, TilePlaced)
    players, seat = state.players, state.to_move
    tile = state.drawn
    assert tile is not None
    x, y, r = event.x, event.y, event.rotation
    kind = event.piece
    effects: list[Effect] = [_placed_tile(tile=tile, x=x, y=y, rotation=r)]
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
    drawn, bonus, stack, bonus_stack, removed = next_tile(state, board, gold, effects)
    after = evolve(
        state,
        board=board,
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
    )
    if drawn is None:
        after, final = finish(after)
        effects.extend(final)
    return after, tuple(effects)


def next_tile(
    state: HuntersState, board: Board, gold: bool, effects: list[Effect]
) -> tuple[int | None, bool, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """H13, H5: after a placement on ``board`` that completed gold or not, the tile drawn next
    (None: the game ends, H14), whether it is a bonus tile, the stacks and the removed tiles
    after; what the draws caused is added to ``effects``."""
    tiles, removed, bonus_stack, stack = state.tiles, state.removed, state.bonus_stack, state.stack
    drawn = None
    if gold and not state.bonus and bonus_stack:  # H13: one bonus tile, never a chain
        drawn, bonus_stack, unfit = draw(tiles, board, bonus_stack)
        if unfit:
            effects.extend(TileRemoved(tile=t, bonus=True) for t in unfit)
            removed = removed + unfit
        if drawn is not None:
            effects.append(BonusEarned(seat=state.to_move, tile=drawn))
    bonus = drawn is not None
    if not bonus:
        drawn, stack, unfit = draw(tiles, board, stack)
        if unfit:
            effects.extend(TileRemoved(tile=t) for t in unfit)
            removed = removed + unfit
    return drawn, bonus, stack, bonus_stack, removed


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
        piece,
    )
    pieces = state.pieces
    if piece is not None:
        pieces = (*pieces, Piece(x=x, y=y, feature=fid, kind=kind, seat=seat))  # type: ignore[arg-type]  # set with piece
    return complete(tiles, board, roots, pieces, state.players)


def outcome(state: HuntersState) -> Outcome:
    """The scores by seat and the winners (H18; none before the end)."""
    return Outcome(state.scores, winners_of(state))


def provisional(state: HuntersState) -> Outcome:
    """The scores if the game ended now: the end's river systems and meadows (H16, H17,
    H19-H22) added to the scores so far (what ``hunt`` steers by)."""
    gains = final_gains(state.tiles, state.board, state.pieces, state.players)
    return Outcome(tuple(s + g for s, g in zip(state.scores, gains, strict=True)))


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
