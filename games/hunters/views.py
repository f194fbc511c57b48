"""The ``show --json`` document of a Hunters and Gatherers state and its diff phrasing.

H23: everything is public but the order of the stacks, so every viewer gets the same document:
the stacks are counts.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any, TypeVar

from tribes.core.game import Viewer
from tribes.core.views import count
from tribes.games.hunters.board import ANIMALS, TileSet
from tribes.games.hunters.events import DIRECTION_NAMES
from tribes.games.hunters.features import Board, Group, System
from tribes.games.hunters.scoring import meadow_animals, meadow_points, system_fish
from tribes.games.hunters.state import HuntersState, Piece

T = TypeVar("T")
R = TypeVar("R")


def fields(state: HuntersState, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
    """The Hunters and Gatherers fields of ``show --json`` (the common ones come from
    tribes.core.views); the same for every viewer (H23). Rows of what a move left as it was
    (a placed tile, a piece, a feature: the same object in the next state) are taken from
    :data:`_ROWS`."""
    tiles, board, named = state.tiles, state.board, tuple(seats)
    return {
        "drawn": state.drawn,
        "stack": len(state.stack),
        "bonus_stack": len(state.bonus_stack),
        "removed": list(state.removed),
        "tiles": _rows("tiles", tiles, board, state.placed, named, _tile_row),
        "pieces": _rows("pieces", tiles, board, state.pieces, named, _piece_row),
        "supply": {
            name: {"members": members, "huts": huts}
            for name, (members, huts) in zip(seats, state.supply, strict=True)
        },
        "features": features(state, seats),
    }


def _tile_row(
    tiles: TileSet, board: Board, placed: tuple[int, int, int, int], seats: tuple[str, ...]
) -> dict[str, Any]:
    x, y, tile, rotation = placed
    return {"x": x, "y": y, "tile": tile, "rotation": rotation}


def _piece_row(tiles: TileSet, board: Board, p: Piece, seats: tuple[str, ...]) -> dict[str, Any]:
    return {"x": p.x, "y": p.y, "feature": p.feature, "kind": p.kind, "seat": seats[p.seat]}


_Row = tuple[tuple[int, int, int, int], dict[str, Any]]
"""A feature's place in the list (:func:`_key`) and its row."""


def features(state: HuntersState, seats: Sequence[str]) -> list[dict[str, Any]]:
    """Every joined forest, river and meadow, then every river system, each by its first tile.
    A feature a move left as it was is the same object in the next state's board (a Group or
    System: an immutable tuple), so its row is taken from :data:`_ROWS` (``log --json
    --states`` documents every step: most features stay as they were)."""
    tiles, board, named = state.tiles, state.board, tuple(seats)
    parts: list[Any] = [*board.groups.values()]
    n = len(parts)
    parts += board.systems.values()
    out: list[Any] = _kept_rows(tiles, named, parts)
    for i in compress(
        range(len(out)), map(operator.not_, out)
    ):  # a feature the move made or changed
        out[i] = _row(tiles, board, parts[i], named, _group_row if i < n else _system_row)
    _FEATURES[:] = [tiles, named, parts, out]
    by_place = sorted(out, key=_FIRST)
    return list(map(_SECOND, by_place))  # by place: a feature's place is its own (a node is in one)


_FEATURES: list[Any] = []
"""The features of the last document made: its tile set, seats, parts (each Group, then each
System) and their rows, in that order (a memo of one, which holds the parts so that their
ids stay their own). A move changes a few features; the rows of the others are taken by the
identity of the part, in C, rather than each looked up in :data:`_ROWS`."""


def _kept_rows(tiles: TileSet, seats: tuple[str, ...], parts: list[Any]) -> list[_Row | None]:
    """The rows of the features of :data:`_FEATURES` among ``parts``; None for the others."""
    if not _FEATURES or _FEATURES[0] is not tiles or _FEATURES[1] != seats:
        return [None] * len(parts)
    by_id = dict(zip(map(id, _FEATURES[2]), _FEATURES[3], strict=True))
    return list(map(by_id.get, map(id, parts)))


_FIRST = operator.itemgetter(0)
_SECOND = operator.itemgetter(1)


_ROWS: dict[int, tuple[Any, TileSet, tuple[str, ...], Any]] = {}
"""Rows of the document by the identity of the immutable part of a state they show (a placed
tile, a Piece, a Group, a System), each with that part (so the identity stays its own), the
tile set and the seats it was made for: a bounded memo (:data:`ROWS_KEPT`) of a pure function
of immutable values (a feature's nodes lie on cells whose tiles never change once placed).
``log --json --states`` documents every step, and a move leaves most of them as they were."""
ROWS_KEPT = 4096


def _row(
    tiles: TileSet,
    board: Board,
    part: T,
    seats: tuple[str, ...],
    make: Callable[[TileSet, Board, T, tuple[str, ...]], R],
) -> R:
    kept = _ROWS.get(id(part))
    if kept is not None and kept[0] is part and kept[1] is tiles and kept[2] == seats:
        return kept[3]  # type: ignore[no-any-return]  # made by make for this very part
    row = make(tiles, board, part, seats)
    if len(_ROWS) >= ROWS_KEPT:
        _ROWS.clear()
    _ROWS[id(part)] = (part, tiles, seats, row)
    return row


_LISTS: dict[str, tuple[tuple[Any, ...], TileSet, tuple[str, ...], list[Any]]] = {}
"""The last list of rows made of each kind (``tiles``, ``pieces``), with the parts, tile set
and seats it was made of: a memo of one entry a kind. A move adds a tile at the end of the
placed tiles and leaves the pieces as they were or adds one: the next state's list is this
one's, what was added made after it."""


def _rows(
    kind: str,
    tiles: TileSet,
    board: Board,
    parts: tuple[T, ...],
    seats: tuple[str, ...],
    make: Callable[[TileSet, Board, T, tuple[str, ...]], R],
) -> list[R]:
    """The rows of ``parts``: the list made last for them, or for a tuple they begin with
    (:data:`_LISTS`) and the rows of the rest, or each row as :func:`_row` has it."""
    kept = _LISTS.get(kind)
    if kept is not None and kept[1] is tiles and kept[2] == seats:
        before, rows = kept[0], kept[3]
        if parts is before:
            return rows
        n = len(before)
        if len(parts) >= n and parts[:n] == before:
            rows = rows + [_row(tiles, board, part, seats, make) for part in parts[n:]]
            _LISTS[kind] = (parts, tiles, seats, rows)
            return rows
    rows = [_row(tiles, board, part, seats, make) for part in parts]
    _LISTS[kind] = (parts, tiles, seats, rows)
    return rows


def _group_row(tiles: TileSet, board: Board, group: Group, seats: tuple[str, ...]) -> _Row:
    row: dict[str, Any] = {
        "type": group.type,
        "tiles": _cells(group.nodes),
        "complete": None if group.type == "meadow" else group.open == 0,
        "pieces": {seats[i]: n for i, n in enumerate(group.members) if n},
    }
    if group.type == "meadow":
        _, scoring, fire, shrine = meadow_points(tiles, board, group)
        row["animals"] = {  # what scores (deer left after tigers), and what the tiles show
            **dict(zip(ANIMALS, scoring, strict=True)),
            "on_tiles": dict(zip(ANIMALS, meadow_animals(tiles, board, group), strict=True)),
        }
        row["fire"] = fire
        row["shrine"] = shrine
    return _key(group.type, group.nodes), row


def _system_row(tiles: TileSet, board: Board, system: System, seats: tuple[str, ...]) -> _Row:
    row = {
        "type": "system",
        "tiles": _cells(system.nodes),
        "complete": None,
        "pieces": {seats[i]: n for i, n in enumerate(system.huts) if n},
        "fish": system_fish(tiles, board, system),
    }
    return _key("system", system.nodes), row


_ORDER = {"forest": 0, "river": 1, "meadow": 2, "system": 3}


_YX = operator.itemgetter(1, 0)
"""A node's (y, x); a (y, x) turned back to (x, y)."""
_YXF = operator.itemgetter(1, 0, 2)


def _cells(nodes: tuple[tuple[int, int, int], ...]) -> list[list[int]]:
    """``[list(c) for c in features.cells_of(nodes)]`` (the distinct cells by row then column, as
    ``[x, y]``), in C: a feature the move grew is written again whole."""
    return list(map(list, map(_YX, sorted(set(map(_YX, nodes))))))


def _key(kind: str, nodes: tuple[tuple[int, int, int], ...]) -> tuple[int, int, int, int]:
    x, y, f = min(nodes, key=_YXF)  # the first node by row, column and feature
    return (_ORDER[kind], y, x, f)


def phrase(path: tuple[str | int, ...], old: Any, new: Any) -> str | None:
    """One change between two documents in the game's terms ("tile 41 placed at (2, -1) turned
    east", "hunter of bob on the meadow at (0, 1)")."""
    head, n = path[0], len(path)
    if head == "tiles" and n == 2 and isinstance(new, dict) and old is None:
        turned = f" turned {DIRECTION_NAMES[new['rotation']]}" if new["rotation"] else ""
        return f"tile {new['tile']} placed at ({new['x']}, {new['y']}){turned}"
    if head == "pieces" and n == 1:
        return _pieces(old or [], new or [])
    if head == "scores" and n == 2:
        return f"score {path[1]}: {old} → {new}"
    if head == "supply" and n == 3:
        return f"supply of {path[1]}: {path[2]} {old} → {new}"
    if head == "drawn":
        return f"drawn tile: {_tile(old)} → {_tile(new)}"
    if head in ("stack", "bonus_stack"):
        what = "draw stack" if head == "stack" else "bonus stack"
        return f"{what}: {old} → {count(new, 'tile')}"
    if head == "removed" and n == 2:
        return f"tile {new} removed: it fits nowhere" if new is not None else None
    if head == "features" and n == 1:
        return _features(old or [], new or [])
    if head == "pending" and n == 1:
        return f"pending: {_pending(old)} → {_pending(new)}"
    return None


_ON = {"gatherer": "forest", "fisher": "river", "hunter": "meadow", "hut": "river system"}


def _piece(piece: dict[str, Any], how: str) -> str:
    return f"{piece['kind']} of {piece['seat']} {how} the {_ON.get(piece['kind'], 'feature')} at ({piece['x']}, {piece['y']})"


def _pieces(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> str:
    added = [_piece(p, "on") for p in new if p not in old]
    gone = [_piece(p, "home from") for p in old if p not in new]
    return "; ".join(added + gone) or "pieces unchanged"


def _features(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> str:
    """The features completed; else those the tile placed made or grew, with their sizes (what
    a player weighs: how big the meadow is now), never the bare count of features."""
    done_before = [f["tiles"] for f in old if f["complete"]]
    done = [
        f"{f['type']} of {count(len(f['tiles']), 'tile')} completed"
        for f in new
        if f["complete"] and f["tiles"] not in done_before
    ]
    if done:
        return "; ".join(done)
    before = [f["tiles"] for f in old]
    grown = [
        f"{'river system' if f['type'] == 'system' else f['type']} of {count(len(f['tiles']), 'tile')}"
        for f in new
        if f["tiles"] not in before
    ]
    if grown:
        return "features the tile made or joined: " + ", ".join(grown)
    return f"features: {count(len(old), 'feature')} → {len(new)}"


def _tile(tile: Any) -> str:
    return "none" if tile is None else f"tile {tile}"


def _pending(pending: Any) -> str:
    if pending is None:
        return "none"
    return f"{pending['seat']} to place bonus tile {pending['tile']}"
