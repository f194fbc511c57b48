"""Helpers for the Hunters and Gatherers rule tests.

Written from ``games/hunters/rules.md``, the tile data and the contract (``hunters-spec.md``) only, never
from the engine's code. This module is the only one that touches the library API (the game
object, the header, effects' attributes), so that the tests can be rewired in one place.

Geometry (contract): x grows east, y grows south; directions N=0, E=1, S=2, W=3; ``rotation`` r
turns the tile clockwise, so data side i faces direction (i + r) mod 4 and the side showing toward
direction d is data side (d - r) mod 4. Rotation letters N E S W are 0 1 2 3.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import tribes.games
from tribes.core.errors import IllegalMove
from tribes.replay import logs

ROOT = Path(__file__).parents[3]
_PACKAGED = ROOT / "games" / "hunters" / "data" / "tiles.json"
_SHARED = Path("/work/shared/data/hunters/tiles.json")
TILES_FILE = _PACKAGED if _PACKAGED.exists() else _SHARED
TILE_DATA: dict[str, Any] = json.loads(TILES_FILE.read_text())
TILES: dict[int, dict[str, Any]] = {t["id"]: t for t in TILE_DATA["tiles"]}

SEATS = ("ann", "bob")
LETTERS = "NESW"
DX = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
KINDS = {"gatherer": "g", "fisher": "f", "hunter": "h", "hut": "hut"}


def game() -> Any:
    return tribes.games.get("hunters")


# --- tile data ------------------------------------------------------------------------------------


def feature(tile: int, fid: int) -> dict[str, Any]:
    for f in TILES[tile]["features"]:
        if f["id"] == fid:
            return f
    raise KeyError(f"tile {tile} has no feature {fid}")


def edge(tile: int, rotation: int, direction: int) -> str:
    """The kind of side (F, M, R) that ``tile`` turned by ``rotation`` shows toward ``direction``."""
    return TILES[tile]["edges"][(direction - rotation) % 4]


def shows(tile: int, rotation: int) -> str:
    """The four sides N E S W of a tile as placed."""
    return "".join(edge(tile, rotation, d) for d in range(4))


def rotation_for(tile: int, wanted: str) -> list[int]:
    """The rotations under which ``tile`` shows ``wanted`` (N E S W letters, ``.`` any)."""
    return [
        r
        for r in range(4)
        if all(w in (".", s) for w, s in zip(wanted, shows(tile, r), strict=True))
    ]


def find(edges: str, *, kind: str = "land", where: Any = None) -> list[int]:
    """Tile ids whose data sides N E S W are ``edges`` (``.`` any side), of ``kind``, for which
    ``where(tile)`` holds: the tests pick their tiles by shape with this."""
    out = []
    for t in TILE_DATA["tiles"]:
        if t["kind"] != kind:
            continue
        if not all(e in (".", s) for e, s in zip(edges, t["edges"], strict=True)):
            continue
        if where is None or where(t):
            out.append(t["id"])
    return out


def animals(tile: int, fid: int) -> dict[str, int]:
    return dict(feature(tile, fid).get("animals", {}))


def has(tile: int, fid: int, flag: str) -> bool:
    return bool(feature(tile, fid).get(flag))


def check_layout(tiles: Sequence[tuple[int, int, int, int]]) -> None:
    """The tests' own check of a layout (x, y, tile, rotation) in placement order: every tile
    after the first touches an earlier one along a side and every touching side matches (H5).
    It guards the scenarios against a slip of the test writer, not the engine."""
    placed: dict[tuple[int, int], tuple[int, int]] = {}
    for i, (x, y, tile, r) in enumerate(tiles):
        assert (x, y) not in placed, f"cell {(x, y)} twice"
        touching = 0
        for d in range(4):
            dx, dy = DX[d]
            other = placed.get((x + dx, y + dy))
            if other is None:
                continue
            touching += 1
            mine, theirs = edge(tile, r, d), edge(other[0], other[1], (d + 2) % 4)
            assert mine == theirs, f"tile {tile} at {(x, y)}: {LETTERS[d]} side {mine} vs {theirs}"
        assert i == 0 or touching, f"tile {tile} at {(x, y)} touches nothing"
        placed[(x, y)] = (tile, r)


def fits(tiles: Sequence[tuple[int, int, int, int]], tile: int, x: int, y: int, r: int) -> bool:
    try:
        check_layout([*tiles, (x, y, tile, r)])
    except AssertionError:
        return False
    return True


def placements(tiles: Sequence[tuple[int, int, int, int]], tile: int) -> set[str]:
    """Every placement (without a piece) of ``tile`` next to ``tiles``, in notation."""
    cells = {(x, y) for x, y, _, _ in tiles}
    frontier = {
        (x + dx, y + dy)
        for x, y in cells
        for dx, dy in DX.values()
        if (x + dx, y + dy) not in cells
    }
    return {move(x, y, r) for x, y in frontier for r in range(4) if fits(tiles, tile, x, y, r)}


# --- notation and positions -----------------------------------------------------------------------


def move(x: int, y: int, r: int, kind: str | None = None, fid: int | None = None) -> str:
    """The canonical notation of a placement: ``X,YR`` or ``X,YR+KF``."""
    text = f"{x},{y}{LETTERS[r]}"
    if kind is not None:
        text += f"+{KINDS[kind]}{fid}"
    return text


def position(
    tiles: Sequence[tuple[int, int, int, int]],
    *,
    pieces: Iterable[tuple[int, int, int, str, str]] = (),
    stack: Sequence[int] | None = None,
    bonus: Sequence[int] | None = None,
    seats: Sequence[str] = SEATS,
    to_move: str | None = None,
    scores: dict[str, int] | None = None,
    removed: Sequence[int] | None = None,
    check: bool = True,
) -> dict[str, Any]:
    """A position document; ``tiles`` are (x, y, tile, rotation), ``pieces`` (x, y, feature,
    kind, seat). The layout is checked by :func:`check_layout` first (``check=False`` to build a
    deliberately bad one)."""
    if check:
        check_layout(tiles)
    doc: dict[str, Any] = {
        "seats": list(seats),
        "to_move": to_move or seats[0],
        "tiles": [{"x": x, "y": y, "tile": t, "rotation": r} for x, y, t, r in tiles],
        "pieces": [
            {"x": x, "y": y, "feature": f, "kind": k, "seat": s} for x, y, f, k, s in pieces
        ],
    }
    if stack is not None:
        doc["stack"] = list(stack)
    if bonus is not None:
        doc["bonus_stack"] = list(bonus)
    if scores is not None:
        doc["scores"] = dict(scores)
    if removed is not None:
        doc["removed"] = list(removed)
    return doc


# --- the library ------------------------------------------------------------------------------------


def header(
    pos: dict[str, Any] | None = None,
    *,
    seats: Sequence[str] = SEATS,
    seed: int = 1,
    options: dict[str, str] | None = None,
) -> Any:
    names = tuple(pos["seats"]) if pos is not None else tuple(seats)
    return logs.header(game(), seats=names, seed=seed, options=options, position=pos)


def start(
    pos: dict[str, Any] | None = None,
    *,
    seats: Sequence[str] = SEATS,
    seed: int = 1,
    options: dict[str, str] | None = None,
) -> Any:
    """The state of a position (or of a seed, without one)."""
    return game().setup(header(pos, seats=seats, seed=seed, options=options))


def play(state: Any, *moves: str) -> tuple[Any, tuple[Any, ...]]:
    """Apply ``moves`` (notation), each checked first; the last state and all the effects."""
    g = game()
    effects: list[Any] = []
    for text in moves:
        ev = g.parse_move(state, text)
        g.check(state, ev)
        state, more = g.apply(state, ev)
        effects.extend(more)
    return state, tuple(effects)


def refused(state: Any, text: str) -> IllegalMove:
    """The IllegalMove that ``check`` and ``apply`` raise for ``text``; not a legal move either."""
    g = game()
    ev = g.parse_move(state, text)
    try:
        g.check(state, ev)
    except IllegalMove as exc:
        checked = exc
    else:
        raise AssertionError(f"check accepted {text}")
    try:
        g.apply(state, ev)
    except IllegalMove as exc:
        assert exc.rule == checked.rule
    else:
        raise AssertionError(f"apply accepted {text}")
    assert text not in legal(state)
    return checked


def legal(state: Any) -> list[str]:
    g = game()
    return [g.format_move(e) for e in g.legal_moves(state)]


def make_bot(name: str, seed: int, seat: int) -> Any:
    g = game()
    return g.bots[name](g, seed, seat)


def bot_move(bot: Any, state: Any) -> str:
    """The move a bot of the game chooses now, in notation."""
    g = game()
    return g.format_move(bot.choose(state, g.legal_moves(state)))


def doc(state: Any, seats: Sequence[str] = SEATS, viewer: Any = "all") -> dict[str, Any]:
    """The ``show --json`` document (the common keys and the game's own)."""
    return {"game": "hunters", **game().document(state, tuple(seats), viewer)}


def parse(state: Any, text: str) -> Any:
    return game().parse_move(state, text)


def fmt(event: Any) -> str:
    return game().format_move(event)


# --- effects ----------------------------------------------------------------------------------------


def named(effects: Iterable[Any], name: str) -> list[Any]:
    """The effects of one kind (by class name: TileRemoved, FeatureScored, BonusEarned,
    GameEnded)."""
    return [e for e in effects if type(e).__name__ == name]


def _seat_name(seat: Any, seats: Sequence[str]) -> str:
    return seats[seat] if isinstance(seat, int) else str(seat)


def scorings(
    effects: Iterable[Any], seats: Sequence[str] = SEATS
) -> list[tuple[str, int, tuple[str, ...]]]:
    """The FeatureScored effects as (type, points, sorted winner names)."""
    out = []
    for e in named(effects, "FeatureScored"):
        kind = next(getattr(e, a) for a in ("type", "kind", "feature") if hasattr(e, a))
        kind = getattr(kind, "value", kind)
        winners = tuple(sorted(_seat_name(s, seats) for s in e.winners))
        out.append((str(kind), e.points, winners))
    return sorted(out)


def returned(effects: Iterable[Any], seats: Sequence[str] = SEATS) -> list[tuple[str, ...]]:
    """For each FeatureScored effect (in order), the owners of the members that went home."""
    return [
        tuple(sorted(_seat_name(s, seats) for s in e.returned))
        for e in named(effects, "FeatureScored")
    ]


def scored_cells(effects: Iterable[Any]) -> list[list[tuple[int, int]]]:
    return [sorted(tuple(c) for c in e.tiles) for e in named(effects, "FeatureScored")]


def removed_tiles(effects: Iterable[Any]) -> list[tuple[int, bool]]:
    return [(e.tile, bool(e.bonus)) for e in named(effects, "TileRemoved")]


def bonus_earned(effects: Iterable[Any], seats: Sequence[str] = SEATS) -> list[tuple[str, int]]:
    return [(_seat_name(e.seat, seats), e.tile) for e in named(effects, "BonusEarned")]


def describe_all(effects: Iterable[Any], seats: Sequence[str] = SEATS) -> list[str]:
    return [e.describe(tuple(seats)) for e in effects]


# --- views of a document ------------------------------------------------------------------------


def pieces(d: dict[str, Any]) -> list[tuple[int, int, int, str, str]]:
    """The ``pieces`` of a document as sorted (x, y, feature, kind, seat)."""
    return sorted((p["x"], p["y"], p["feature"], p["kind"], p["seat"]) for p in d["pieces"])


def supply(d: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """seat -> (members, huts)."""
    return {s: (v["members"], v["huts"]) for s, v in d["supply"].items()}


def features(d: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [f for f in d["features"] if f["type"] == kind]


def feature_at(d: dict[str, Any], kind: str, cells: Iterable[tuple[int, int]]) -> dict[str, Any]:
    """The one joined feature of ``kind`` whose tiles are exactly ``cells``."""
    want = sorted(tuple(c) for c in cells)
    found = [f for f in features(d, kind) if sorted(tuple(c) for c in f["tiles"]) == want]
    assert len(found) == 1, (kind, want, features(d, kind))
    return found[0]


def cells_of(f: dict[str, Any]) -> list[tuple[int, int]]:
    return sorted(tuple(c) for c in f["tiles"])


# --- the CLI ------------------------------------------------------------------------------------------


def cli_log(cli: Any, pos: dict[str, Any], name: str = "g.tribes", seed: int = 1) -> Path:
    """A log started from ``pos`` through ``tribes new hunters --position``."""
    file = cli.path(f"{name}.position.json")
    file.write_text(json.dumps(pos))
    path = cli.path(name)
    cli.ok("new", "hunters", "--position", file, "--seed", seed, "-o", path)
    return path
