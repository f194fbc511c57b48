"""Text rendering of a Hunters and Gatherers state: the play area, then the drawn tile, the
stacks, supplies and scores.

Each tile is a block of 7 columns and 4 lines::

     ..~..      north side: ^ forest, . meadow, ~ river between its banks
    ~41*ah.     west side, tile id, * for the last tile placed, a piece (seat letter a-e and
    .$o d .     g gatherer, f fisher, h hunter, u hut), east side; then its contents:
     ^^^^^      $ gold, o lake, * mushrooms, d deer, m mammoth, a aurochs, t tiger, ! fire, + shrine

Rows are labelled with y, columns with x. When the play area is wider than ``width`` the
columns around the last tile placed are shown (H23: the whole state is public, so every viewer
sees the same).
"""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.game import Viewer
from tribes.core.views import count
from tribes.games.hunters.board import ANIMALS, Tile
from tribes.games.hunters.state import HuntersState

LETTERS = "abcde"
BLOCK = 7
MARGIN = 4
_SIDE = {"F": "^^^^^", "M": ".....", "R": "..~.."}
_MIDDLE = {"F": "^", "M": ".", "R": "~"}
_BANK = {"F": "^", "M": ".", "R": "."}
_KIND = {"gatherer": "g", "fisher": "f", "hunter": "h", "hut": "u"}


def render(state: HuntersState, seats: Sequence[str], viewer: Viewer, width: int = 100) -> str:
    return "\n".join([*_area(state, width), "", *_status(state, seats)])


def contents(tile: Tile) -> str:
    """The glyphs of what a tile holds: gold, lakes, mushrooms, animals, fire, shrine."""
    out = []
    for f in tile.features.values():
        out.append("$" * f.gold + "o" * (f.type == "lake") + "*" * f.mushrooms)
        deer, mammoth, aurochs, tiger = f.animals
        out.append("d" * deer + "m" * mammoth + "a" * aurochs + "t" * tiger)
        out.append("!" * f.fire + "+" * f.shrine)
    return "".join(out)


DIRECTIONS = "NESW"


def feature_words(tile: Tile, fid: int) -> str:
    """``forest E S, gold``: feature ``fid`` of a tile as drawn (its data's north up): its
    type, the sides it touches, what it holds. The moves name features by these ids
    (``0,-1N+g1``)."""
    f = tile.features[fid]
    sides = sorted({d for d, _ in tile.turned[0].touches.get(fid, ())})
    words = f.type + "".join(f" {DIRECTIONS[d]}" for d in sides)
    held = ["gold"] if f.gold else []
    if f.mushrooms:
        held.append(f"{f.mushrooms} mushroom{'s' if f.mushrooms > 1 else ''}")
    held += [f"{n} {name}" for name, n in zip(ANIMALS, f.animals, strict=True) if n]
    held += [f"{f.fish} fish"] if f.fish else []
    held += ["fire"] if f.fire else []
    held += ["shrine"] if f.shrine else []
    if f.type == "river" and f.lake is not None:
        held.append(f"into lake {f.lake}")
    return words + (", " + ", ".join(held) if held else "")


def _area(state: HuntersState, width: int) -> list[str]:
    board, tiles = state.board, state.tiles
    cells = board.cells
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    left, right = min(xs), max(xs)
    columns = max(1, (width - MARGIN) // BLOCK)
    note = ""
    if right - left + 1 > columns:
        last_x = state.placed[-1][0]
        left = max(left, min(last_x - columns // 2, right - columns + 1))
        note = f"(columns x = {left} to {left + columns - 1} of {min(xs)} to {right})"
        right = left + columns - 1
    pieces = {(p.x, p.y): p for p in state.pieces}
    last = state.placed[-1][:2] if state.placed else None
    lines = [" " * MARGIN + "".join(f"x={x}".center(BLOCK) for x in range(left, right + 1))]
    for y in range(min(ys), max(ys) + 1):
        rows = [[" " * MARGIN], [f"{y:>3} "], [" " * MARGIN], [" " * MARGIN]]
        for x in range(left, right + 1):
            here = cells.get((x, y))
            if here is None:
                for row in rows:
                    row.append(" " * BLOCK)
                continue
            tile_id, _, turned = here[:3]
            n, e, s, w = tuple(turned.edges)
            piece = pieces.get((x, y))
            mark = "*" if (x, y) == last else " "
            who = f"{LETTERS[piece.seat]}{_KIND[piece.kind]}" if piece else "  "
            glyphs = contents(tiles.tiles[tile_id])[:5].ljust(5)
            rows[0].append(f" {_SIDE[n]} ")
            rows[1].append(f"{_MIDDLE[w]}{tile_id:>2}{mark}{who}{_MIDDLE[e]}")
            rows[2].append(f"{_BANK[w]}{glyphs}{_BANK[e]}")
            rows[3].append(f" {_SIDE[s][::-1]} ")
        lines.extend("".join(row).rstrip() for row in rows)
    if note:
        lines.append(note)
    return lines


def _status(state: HuntersState, seats: Sequence[str]) -> list[str]:
    tiles = state.tiles
    lines = []
    if state.over:
        lines.append("game over")
    elif state.drawn is not None:
        tile = tiles.tiles[state.drawn]
        kind = "bonus tile" if state.bonus else "tile"
        lines.append(
            f"drawn: {kind} {state.drawn} (edges N E S W: {' '.join(tile.edges)}; "
            f"holds {contents(tile) or 'nothing'}) for {seats[state.to_move]}"
        )
        lines.append(
            "  feature ids (as drawn, N up): "
            + "; ".join(f"{fid} {feature_words(tile, fid)}" for fid in sorted(tile.features))
        )
    removed = " ".join(map(str, state.removed)) or "none"
    lines.append(
        f"stack: {len(state.stack)} land, {len(state.bonus_stack)} bonus; removed: {removed}"
    )
    for i, name in enumerate(seats):
        members, huts = state.supply[i]
        turn = "  <- to move" if not state.over and i == state.to_move else ""
        lines.append(
            f"{LETTERS[i]} {name}: {count(state.scores[i], 'point')}, {count(members, 'member')}, "
            f"{count(huts, 'hut')}{turn}"
        )
    return lines
