"""The Hunters and Gatherers rules: legal moves, the check of a move, the reducer (H5–H14) and
the outcome. Placement lookups live in ``placement``, the unions in ``features``, points in
``scoring``."""

from __future__ import annotations

import attrs

from tribes.core.errors import GameOver, IllegalMove
from tribes.core.events import Effect, Event
from tribes.games.hunters import features as feats
from tribes.games.hunters.board import STEP
from tribes.games.hunters.events import PIECES, BonusEarned, PlacedTile, TilePlaced, TileRemoved
from tribes.games.hunters.placement import blocked, draw, misfit, wrong_kind
from tribes.games.hunters.scoring import complete, finish, winners_of
from tribes.games.hunters.state import HuntersState, Piece

_EVENTS: dict[tuple[int, int, int, str | None, int | None], TilePlaced] = {}
"""Move events by their fields, shared by every game: the same moves come up turn after turn,
and looking one up is cheaper than building it."""
_EVENTS_MAX = 1 << 18


def _event(x: int, y: int, r: int, piece: str | None, fid: int | None) -> TilePlaced:
    key = (x, y, r, piece, fid)
    found = _EVENTS.get(key)
    if found is None:
        if len(_EVENTS) >= _EVENTS_MAX:
            _EVENTS.clear()
        found = _EVENTS[key] = TilePlaced(x=x, y=y, rotation=r, piece=piece, feature=fid)
    return found


def legal_moves(state: HuntersState) -> list[Event]:
    """H5, H6: every cell and rotation where the drawn tile fits, each without a piece and with
    every piece the supply and the joined features allow."""
    if state.over or state.drawn is None:
        return []
    tiles, board = state.tiles, state.board
    tile = tiles.tiles[state.drawn]
    members, huts = state.supply[state.to_move]
    options = [(p, f) for p, f in tile.options if (huts if p == "hut" else members)]
    out: list[Event] = []
    if not options:
        for x, y, r in state.where:
            out.append(_event(x, y, r, None, None))
        return out
    cells, root, groups = board.cells, board.root, board.groups
    sroot, systems = board.sroot, board.systems
    system = tile.system
    for x, y, r in state.where:
        out.append(_event(x, y, r, None, None))
        turned = tile.turned[r]
        touches = turned.touches
        # The nodes of neighbours each feature of the tile would join (H6 occupancy).
        joined: dict[int, list[tuple[int, int, int]]] = {}
        for fid, places in touches.items():
            nodes = []
            for d, k in places:
                dx, dy = STEP[d]
                there = cells.get((x + dx, y + dy))
                if there is not None:
                    theirs = there[2].parts[(d + 2) & 3]
                    nodes.append((x + dx, y + dy, theirs[len(theirs) - 1 - k]))
            joined[fid] = nodes
        for piece, fid in options:
            if piece == "hut":
                if any(
                    any(systems[sroot[n]].huts)
                    for f in system[fid]
                    if f in joined
                    for n in joined[f]
                ):
                    continue
            elif any(any(groups[root[n]].members) for n in joined[fid]):
                continue
            out.append(_event(x, y, r, piece, fid))
    return out


def check(state: HuntersState, event: Event) -> None:
    """Raises IllegalMove naming the rule unless ``event`` is legal now."""
    if state.over or state.drawn is None:
        raise GameOver("the game is over: no tile is left to place", rule="H14")
    if not isinstance(event, TilePlaced):
        raise IllegalMove(f"'{type(event).__name__}' is not a Hunters and Gatherers move")
    tiles = state.tiles
    tile = state.drawn
    rule = "H13" if state.bonus else "H5"
    lead = f"bonus tile {tile} is to be placed now: " if state.bonus else ""
    if event.rotation not in range(4):
        raise IllegalMove(f"{lead}rotation is 0 to 3, not {event.rotation}", rule=rule)
    why = misfit(state.board, tiles.tiles[tile].turned[event.rotation], event.x, event.y)
    if why is not None:
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
    board, roots = feats.place(state.board, tiles, x, y, tile, r, players)
    effects: list[Effect] = [PlacedTile(tile=tile, x=x, y=y, rotation=r)]
    pieces = state.pieces
    supply = list(state.supply)
    if event.piece is not None:
        assert event.feature is not None
        board = feats.add_piece(board, (x, y, event.feature), event.piece, seat)
        pieces = (*pieces, Piece(x, y, event.feature, event.piece, seat))
        members, huts = supply[seat]
        supply[seat] = (members, huts - 1) if event.piece == "hut" else (members - 1, huts)
    board, pieces, scored, gold, gains = complete(tiles, board, roots, pieces, players)
    scores = state.scores
    if scored:
        effects.extend(scored)
        scores = tuple(s + g for s, g in zip(scores, gains, strict=True))
        for effect in scored:
            for s in effect.returned:
                members, huts = supply[s]
                supply[s] = (members + 1, huts)
    placed = (*state.placed, (x, y, tile, r))
    removed = state.removed
    bonus_stack = state.bonus_stack
    if gold and not state.bonus and bonus_stack:
        drawn, where, bonus_stack, unfit = draw(tiles, board, bonus_stack)
        effects.extend(TileRemoved(tile=t, bonus=True) for t in unfit)
        removed = removed + unfit
        if drawn is not None:
            effects.append(BonusEarned(seat=seat, tile=drawn))
            after = attrs.evolve(
                state,
                placed=placed,
                pieces=pieces,
                supply=tuple(supply),
                scores=scores,
                bonus_stack=bonus_stack,
                removed=removed,
                drawn=drawn,
                bonus=True,
                board=board,
                where=where,
            )
            return after, tuple(effects)
    drawn, where, stack, unfit = draw(tiles, board, state.stack)
    effects.extend(TileRemoved(tile=t) for t in unfit)
    after = attrs.evolve(
        state,
        placed=placed,
        pieces=pieces,
        supply=tuple(supply),
        scores=scores,
        stack=stack,
        bonus_stack=bonus_stack,
        removed=removed + unfit,
        drawn=drawn,
        bonus=False,
        to_move=(seat + 1) % players,
        board=board,
        where=where,
    )
    if drawn is None:
        after, final = finish(after)
        effects.extend(final)
    return after, tuple(effects)


def outcome(state: HuntersState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The scores by seat and the winners (H18; none before the end)."""
    return state.scores, winners_of(state)
