"""Hunters and Gatherers positions (H4): a state read from a position document, and the position
of any state.

Pieces are checked as play places them: each comes with its tile, so a piece is refused only if
the feature it joins already held a piece of its kind *when its tile was placed* (H6); features
joined later may hold members of several seats and several huts, as in play. A position written
by :func:`position` gives its state back: the tile drawn (a bonus tile drawn is the pending bonus
decision, H13), the stacks in order, the removed tiles, and the end with its final scoring done.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from tribes.core.errors import BadPosition
from tribes.core.positions import check_keys, drop_items, lowered, runs, same_seats, seat_of
from tribes.core.prng import Chance
from tribes.games.hunters import features as feats
from tribes.games.hunters.board import TileSet
from tribes.games.hunters.features import Board
from tribes.games.hunters.placement import fits_somewhere, misfit, wrong_kind
from tribes.games.hunters.scoring import finish
from tribes.games.hunters.state import HUTS, MEMBERS, PIECE_NAMES, HuntersState, Piece, started

_KEYS = {
    "seats",
    "to_move",
    "tiles",
    "pieces",
    "scores",
    "stack",
    "bonus_stack",
    "removed",
    "drawn",
    "over",
}
_GO_HOME = ("gatherer", "fisher")
"""Members that go home at the end (H15): a finished game holds hunters and huts only."""


def from_position(
    tiles: TileSet, position: Any, seats: Sequence[str], chance: Chance, *, finished: bool = True
) -> HuntersState:
    """A state from a position document (see docs/games/hunters.md), or BadPosition naming the
    field. One whose first draw finds nothing that fits is over, scored (unless ``finished`` is
    false: the state before the end's scoring, whose effects ``rules.setup_effects`` tells)."""
    check_keys(position, "Hunters and Gatherers", _KEYS, ("seats", "tiles"))
    names = same_seats(position, seats)
    players = len(names)
    to_move = position.get("to_move", names[0])
    seat_of(to_move, names, "to_move")
    claim = _Claims(tiles)

    placed = _tiles(position.get("tiles"), claim)
    pieces, board = _pieces(tiles, placed, position.get("pieces", []), names)
    removed = [claim(t, f"removed[{i}]") for i, t in enumerate(_list(position, "removed"))]
    drawn = _drawn(position, claim)
    land = _stack(position, "stack", "land", tiles, claim, chance, tiles.land)
    bonus = _stack(position, "bonus_stack", "bonus", tiles, claim, chance, tiles.bonus)
    scores = position.get("scores", {})
    if not isinstance(scores, dict) or set(scores) - set(names):
        raise BadPosition("position scores: an object of seat name -> points")
    for name, points in scores.items():
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise BadPosition(f"position scores.{name}: points are a whole number 0 or more")
    over = position.get("over", False)
    if not isinstance(over, bool):
        raise BadPosition("position over: true or false")
    if not over and drawn is None and "drawn" not in position:
        state = started(
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
        return finish(state)[0] if finished and state.drawn is None else state
    if over:
        if drawn is not None or land:
            raise BadPosition(
                "position over: a finished game has no tile drawn and its stack is empty (H14)"
            )
        home = next((p for p in pieces if p.kind in _GO_HOME), None)
        if home is not None:
            raise BadPosition(
                f"position over: the {home.kind} at ({home.x}, {home.y}) went home at the end (H15)"
            )
    elif drawn is None:
        raise BadPosition("position drawn: null only when the game is over ('over': true)")
    elif not fits_somewhere(tiles.tiles[drawn], board):
        raise BadPosition(
            f"position drawn: tile {drawn} fits nowhere: it is removed, never drawn (H5)"
        )
    return _drawn_state(
        tiles, board, placed, pieces, names.index(to_move), [scores.get(n, 0) for n in names],
        land, bonus, removed, drawn, over,
    )  # fmt: skip


def position(state: HuntersState, seats: Sequence[str]) -> dict[str, Any]:
    """The position document of ``state``: :func:`from_position` of it is ``state``."""
    return {
        "seats": list(seats),
        "to_move": seats[state.to_move],
        "tiles": [{"x": x, "y": y, "tile": t, "rotation": r} for x, y, t, r in state.placed],
        "pieces": [
            {"x": p.x, "y": p.y, "feature": p.feature, "kind": p.kind, "seat": seats[p.seat]}
            for p in state.pieces
        ],
        "scores": dict(zip(seats, state.scores, strict=True)),
        "stack": list(state.stack),
        "bonus_stack": list(state.bonus_stack),
        "removed": list(state.removed),
        "drawn": state.drawn,
        "over": state.over,
    }


def simpler(position: Any) -> Iterator[Any]:
    """Positions one step simpler (for ``tribes shrink``): pieces gone, tiles gone (the last
    placed first, with their pieces), shorter stacks, fewer removed tiles, fewer points."""
    pieces = position.get("pieces") or []
    for run in runs(len(pieces)):
        yield drop_items(position, ("pieces",), run)
    placed = position.get("tiles") or []
    for run in runs(len(placed) - 1):
        run = range(run.start + 1, run.stop + 1)  # the first tile stays: tiles join it
        cells = {_cell(placed[i]) for i in run}
        on_them = [i for i, p in enumerate(pieces) if _cell(p) in cells]
        yield drop_items(drop_items(position, ("tiles",), run), ("pieces",), on_them)
    for key in ("stack", "bonus_stack", "removed"):
        for run in runs(len(position.get(key) or [])):
            yield drop_items(position, (key,), run)
    yield from lowered(position, ("scores",))


def _cell(item: Any) -> tuple[Any, Any]:
    return (item.get("x"), item.get("y")) if isinstance(item, dict) else (None, None)


def _drawn_state(
    tiles: TileSet,
    board: Board,
    placed: tuple[tuple[int, int, int, int], ...],
    pieces: tuple[Piece, ...],
    to_move: int,
    scores: list[int],
    land: tuple[int, ...],
    bonus: tuple[int, ...],
    removed: list[int],
    drawn: int | None,
    over: bool,
) -> HuntersState:
    """A state whose drawn tile is given (or none: the end, scored), drawing nothing."""
    supply = [[MEMBERS, HUTS] for _ in scores]
    for p in pieces:
        supply[p.seat][1 if p.kind == "hut" else 0] -= 1
    return HuntersState(
        tiles_source=tiles.source,
        players=len(scores),
        placed=placed,
        pieces=pieces,
        supply=tuple((m, h) for m, h in supply),
        scores=tuple(scores),
        stack=land,
        bonus_stack=bonus,
        removed=tuple(removed),
        drawn=drawn,
        bonus=drawn is not None and tiles.tiles[drawn].kind == "bonus",
        to_move=to_move,
        over=over,
        tiles=tiles,
        board=board,
    )


def _drawn(position: dict[str, Any], claim: _Claims) -> int | None:
    """The tile drawn to place now: a land tile, or a bonus tile earned by gold (H13)."""
    value = position.get("drawn")
    return None if value is None else claim(value, "drawn")


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


def _tiles(data: Any, claim: _Claims) -> tuple[tuple[int, int, int, int], ...]:
    """The placed tiles as data: (x, y, tile, rotation) in placement order."""
    if not isinstance(data, list) or not data:
        raise BadPosition("position tiles: a non-empty list of {x, y, tile, rotation}")
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
        placed.append((x, y, claim(item["tile"], where), rotation))
    return tuple(placed)


def _pieces(
    tiles: TileSet, placed: tuple[tuple[int, int, int, int], ...], data: Any, names: list[str]
) -> tuple[tuple[Piece, ...], Board]:
    """The pieces on the tiles, all placed as play would have: each tile touching an earlier
    one with every touching side matching (H5), each piece with its tile, on a feature of its
    kind that held no piece of its kind then (H6), within the supply (H2); and no member on a
    forest or river complete now (it went home, H12). Returns the pieces and the board."""
    if not isinstance(data, list):
        raise BadPosition("position pieces: a list of {x, y, feature, kind, seat}")
    order = {(x, y): i for i, (x, y, _, _) in enumerate(placed)}
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
        at = order.get((x, y)) if type(x) is int and type(y) is int else None
        if at is None:
            raise BadPosition(f"{where}: no tile at ({x}, {y})")
        why = wrong_kind(tiles, placed[at][2], kind, fid) if type(fid) is int else "a feature id"
        if why is not None:
            raise BadPosition(f"{where}: {why} (H6)")
        s = names.index(seat)
        counts[s][1 if kind == "hut" else 0] += 1
        if counts[s][0] > MEMBERS or counts[s][1] > HUTS:
            raise BadPosition(
                f"{where}: {seat} has {MEMBERS} tribe members and {HUTS} huts in all (H2)"
            )
        pieces.append(Piece(x=x, y=y, feature=fid, kind=kind, seat=s))
    by_tile: dict[int, list[int]] = {}
    for i, p in enumerate(pieces):
        by_tile.setdefault(order[p.x, p.y], []).append(i)
    board = feats.EMPTY
    for at, (x, y, tile, rotation) in enumerate(placed):
        if at:
            why = misfit(board, tiles.tiles[tile].turned[rotation], x, y)
            if why is not None:
                raise BadPosition(f"position tiles[{at}]: {why} (H5)")
        board, _ = feats.place(board, tiles, x, y, tile, rotation, len(names))
        for i in by_tile.get(at, ()):
            board = _join(board, pieces[i], f"position pieces[{i}]")
    for i, p in enumerate(pieces):
        if p.kind == "hut":
            continue
        group = board.group((p.x, p.y, p.feature))
        if group.type != "meadow" and group.open == 0:
            raise BadPosition(
                f"position pieces[{i}]: that {group.type} is complete: its member went home (H12)"
            )
    return tuple(pieces), board


def _join(board: Board, piece: Piece, where: str) -> Board:
    """The board with ``piece`` on it, placed with its tile (the last one on ``board``)."""
    node = (piece.x, piece.y, piece.feature)
    later = "; a piece comes with its tile, in the order of 'tiles'"
    if piece.kind == "hut" and any(board.system(node).huts):
        raise BadPosition(f"{where}: that river system holds a hut already (H6){later}")
    if piece.kind != "hut":
        group = board.group(node)
        if any(group.members):
            raise BadPosition(
                f"{where}: that {group.type} holds a tribe member already (H6){later}"
            )
    return feats.add_piece(board, node, piece.kind, piece.seat)


def _stack(
    position: dict[str, Any],
    key: str,
    kind: str,
    tiles: TileSet,
    claim: _Claims,
    chance: Chance,
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
    return chance.shuffled(kind, [t for t in every if t not in claim.used])
