"""The play area and its joined features, kept incrementally as tiles join (H5, H8, H10, H16, H17).

A *node* is one feature of one placed tile, ``(x, y, feature id)``. Forests, rivers and meadows
join across sides into *groups*; rivers and lakes join (rivers across sides, lakes with the rivers
of their tile that run into them) into *river systems* (H16). Each union maps a node to its root,
with one record per root; a merge relabels the nodes of the smaller group only: placing a tile
never rescans the board. The roots are kept by cell (each placed cell holds its features' roots
as a small tuple by feature id), so that a placement copies one map of cells rather than one of
every node: a few features are relabelled in a game, and a move would otherwise copy some
hundred and fifty roots.

A :class:`Board` is never changed once a state holds it: :func:`place` and :func:`add_piece`
return a new one whose dicts are copies (copy-on-write), sharing the records that did not change.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import NamedTuple

from tribes.games.hunters.board import HUTTED, MANNED, STEP, TileSet, Turned
from tribes.games.hunters.keys import cell_key

Node = tuple[int, int, int]
Cell = tuple[int, int]
Roots = tuple[Node, ...]
"""By feature id, the root of each feature of a placed tile in one union (``NO_ROOT``: not in
it)."""
Placed = tuple[int, int, Turned, Roots, Roots]
"""A placed cell: (tile id, rotation, its table, its features' group roots, their river system
roots)."""


class Group(NamedTuple):
    """A joined forest, river or meadow: its nodes, its open side parts and members by seat."""

    type: str
    nodes: tuple[Node, ...]
    open: int
    members: tuple[int, ...]


class System(NamedTuple):
    """A river system: its river and lake nodes and huts by seat."""

    nodes: tuple[Node, ...]
    huts: tuple[int, ...]


class Board:
    """The placed tiles, the empty cells next to them and both unions of features."""

    __slots__ = (
        "around",
        "cells",
        "groups",
        "hutted",
        "manned",
        "needs",
        "open_cells",
        "systems",
    )

    def __init__(
        self,
        cells: dict[Cell, Placed],
        open_cells: tuple[int, ...],
        needs: bytes,
        groups: dict[Node, Group],
        systems: dict[Node, System],
        manned: frozenset[Node] = frozenset(),
        hutted: frozenset[Node] = frozenset(),
        around: dict[int, int] | None = None,
    ) -> None:
        self.cells = cells
        """Cell -> (tile id, rotation, its table, its features' roots in both unions)."""
        self.open_cells = open_cells
        """The empty cells next to a tile, as their placements with rotation 0
        (``keys.cell_key``), in order (by row, then column)."""
        self.needs = needs
        """By open cell, the edges it needs, N E S W, as a need code (``board.need_code``): one
        byte a cell, so that a tile's tables read every cell with ``bytes.translate``."""
        self.groups = groups
        """Root -> its group."""
        self.systems = systems
        """River system root -> its system."""
        self.manned = manned
        """The roots of the groups that hold a tribe member: the only features a new member
        can be blocked by (H6), kept as pieces come and go and groups merge."""
        self.hutted = hutted
        """The roots of the river systems that hold a hut (H6)."""
        self.around = {} if around is None else around
        """By open cell (as ``open_cells`` holds it) beside a manned group or a hutted river
        system, its occupied places (bits ``1 << (3 * direction + part)`` as the cell's own
        sides count them, members' and huts' as :func:`board.allow_key` holds them): what H6
        blocks a piece by. Kept as pieces come and groups join, from the nodes that become
        occupied; a group whose members go home before the end is complete, and no open cell
        is beside it."""

    def __deepcopy__(self, memo: object) -> Board:
        return self  # never changed once built

    def need(self, at: int) -> int | None:
        """The need code of the open cell of placement ``at`` (rotation 0), or None when the
        cell is not open."""
        cells = self.open_cells
        j = bisect_left(cells, at)
        return self.needs[j] if j < len(cells) and cells[j] == at else None

    def root_of(self, node: Node) -> Node:
        """The root of a placed node's group."""
        x, y, fid = node
        return self.cells[x, y][3][fid]

    def sroot_of(self, node: Node) -> Node:
        """The root of a placed river's or lake's river system."""
        x, y, fid = node
        return self.cells[x, y][4][fid]

    @property
    def root(self) -> dict[Node, Node]:
        """Every placed node's group root, as one map (for readers off the hot path)."""
        return _flat((cell, placed[3]) for cell, placed in self.cells.items())

    @property
    def sroot(self) -> dict[Node, Node]:
        """Every placed river's and lake's river system root, as one map."""
        return _flat((cell, placed[4]) for cell, placed in self.cells.items())

    def group(self, node: Node) -> Group:
        return self.groups[self.root_of(node)]

    def system(self, node: Node) -> System:
        return self.systems[self.sroot_of(node)]

    def neighbour_nodes(self, turned: Turned, x: int, y: int, feature: int) -> list[Node]:
        """The nodes of placed tiles that ``feature`` of a tile at (x, y) would join across
        its sides."""
        out = []
        cells = self.cells
        for d, k in turned.touches[feature]:
            dx, dy = STEP[d]
            there = cells.get((x + dx, y + dy))
            if there is not None:
                theirs = there[2].parts[(d + 2) & 3]
                out.append((x + dx, y + dy, theirs[len(theirs) - 1 - k]))
        return out


NO_ROOT: Node = (0, 0, -1)
"""The root of a feature in no group (a lake) or in no river system (a forest, a meadow)."""


def _flat(by_cell: Iterable[tuple[Cell, Roots]]) -> dict[Node, Node]:
    return {
        (x, y, fid): r
        for (x, y), roots in by_cell
        for fid, r in enumerate(roots)
        if r != NO_ROOT  # by value: a compiled build boxes a new tuple at each read
    }


EMPTY = Board({}, (), b"", {}, {})

_new = tuple.__new__
"""``_new(Group, fields)``: a Group without the NamedTuple ``__new__`` and its argument parsing
(the hot path makes one per join)."""


def place(
    board: Board,
    tiles: TileSet,
    x: int,
    y: int,
    tile_id: int,
    rotation: int,
    players: int,
    piece: tuple[str, int, int] | None = None,
) -> tuple[Board, list[Node]]:
    """A new board with the tile placed (its fit already checked) and ``piece`` (kind, feature
    id, seat) on it, if any, in the same copies of the maps; and the roots of the forests and
    rivers its features now belong to (each once): the only groups it can complete."""
    tile = tiles.tiles[tile_id]
    turned = tile.turned[rotation]
    cells = board.cells.copy()
    open_cells = list(board.open_cells)
    needs = bytearray(board.needs)
    here = cell_key(x, y)
    j = bisect_left(open_cells, here)
    if j < len(open_cells) and open_cells[j] == here:
        del open_cells[j]
        del needs[j]
    groups = board.groups.copy()
    zero = (0,) * players
    fresh = tile.fresh.copy()
    """The tile's features in no group yet: most join a placed group, so none is made first."""
    roots = [NO_ROOT] * tile.slots
    """The new cell's roots by feature id, as they are found."""
    rivers = []
    walks: list[tuple[tuple[Node, ...], int]] = []
    """The nodes that a member (``MANNED``) or a hut (``HUTTED``) now occupies: their places
    facing open cells are occupied ones of those cells."""
    manned = board.manned
    for step, dx, dy, back, mine, becomes in turned.around:
        nx, ny = x + dx, y + dy
        there = cells.get((nx, ny))
        if there is None:
            at = here + step  # cell_key(nx, ny): the tile's ``keys.step`` to that side
            j = bisect_left(open_cells, at)
            if j < len(open_cells) and open_cells[j] == at:
                needs[j] = becomes[needs[j]]
            else:
                open_cells.insert(j, at)
                needs.insert(j, becomes[0])  # 0: the need code of "...."
            continue
        theirs = there[2].parts[back]
        last = len(mine) - 1
        roots_there = there[3]
        for k in range(last + 1):
            fid = mine[k]
            other = roots_there[theirs[last - k]]
            if fid in fresh:  # joins the placed group: one open part fewer on each side
                g = groups[other]
                node = (x, y, fid)
                roots[fid] = other
                if other in manned:  # it joins a member: the cells across it are blocked
                    walks.append((((x, y, fid),), MANNED))
                groups[other] = _new(Group, (g[0], (*g[1], node), g[2] + fresh.pop(fid) - 2, g[3]))
            else:
                mine_root = roots[fid]
                if mine_root != other and (mine_root in manned) != (other in manned):
                    walks.append((groups[other if mine_root in manned else mine_root][1], MANNED))
                moved = _join(cells, (roots, x, y), groups, mine_root, other)
                if moved is not None:  # a manned group's root is now another one's
                    manned = (manned - {moved[0]}) | {moved[1]}
                roots_there = cells[nx, ny][3]  # a join may relabel the cell across
        if last:
            rivers.append((mine[1], (nx, ny, theirs[1])))
    for fid, kind, open_ in tile.nodes:
        if fid in fresh:
            node = (x, y, fid)
            roots[fid] = node
            groups[node] = _new(Group, (kind, (node,), open_, zero))
    touched: list[Node] = []
    for fid in tile.scorable:
        r = roots[fid]
        if r not in touched:
            touched.append(r)
    systems, hutted = board.systems, board.hutted
    sroots: list[Node] = []
    if tile.water:
        systems = systems.copy()
        sroots = [NO_ROOT] * tile.slots
        for members in tile.systems:
            nodes = tuple([(x, y, f) for f in members])
            first = nodes[0]
            for f in members:
                sroots[f] = first
            systems[first] = _new(System, (nodes, zero))
        for fid, (nx, ny, f) in rivers:
            ra, rb = sroots[fid], cells[nx, ny][4][f]
            if ra != rb and (ra in hutted) != (rb in hutted):
                walks.append((systems[rb if ra in hutted else ra][0], HUTTED))
            moved = _join_system(cells, (sroots, x, y), systems, ra, rb)
            if moved is not None:
                hutted = (hutted - {moved[0]}) | {moved[1]}
    if piece is not None:
        kind, fid, seat = piece
        if kind == "hut":  # on a river or lake: the tile is water, its maps are copies
            r = sroots[fid]
            s = systems[r]
            systems[r] = _new(System, (s[0], _bump(s[1], seat, 1)))
            hutted = hutted | {r}
            walks.append((s[0], HUTTED))
        else:
            r = roots[fid]
            g = groups[r]
            groups[r] = _new(Group, (g[0], g[1], g[2], _bump(g[3], seat, 1)))
            manned = manned | {r}
            walks.append((g[1], MANNED))
    cells[(x, y)] = (tile_id, rotation, turned, tuple(roots), tuple(sroots))
    around = board.around
    if walks or here in around:
        around = around.copy()
        around.pop(here, None)
        for nodes, field in walks:
            _occupy(cells, around, nodes, field)
    board = Board(cells, tuple(open_cells), bytes(needs), groups, systems, manned, hutted, around)
    return board, touched


def _occupy(
    cells: dict[Cell, Placed], around: dict[int, int], nodes: Iterable[Node], field: int
) -> None:
    """Add to ``around`` the places of ``nodes`` (placed) that face open cells, as the cells
    count them, in ``field`` (``MANNED``: the nodes' group holds a member; ``HUTTED``: their
    river system holds a hut, which blocks across a river's middle part only, the one part a
    river holds on a side)."""
    for x, y, fid in nodes:
        for dx, dy, step, place in cells[x, y][2].across[fid]:
            if (x + dx, y + dy) not in cells:
                at = cell_key(x, y) + step  # cell_key(x + dx, y + dy)
                around[at] = around.get(at, 0) | place << field


def _all_around(
    cells: dict[Cell, Placed],
    groups: dict[Node, Group],
    systems: dict[Node, System],
    manned: frozenset[Node],
    hutted: frozenset[Node],
) -> dict[int, int]:
    """``Board.around`` of a board, from all its manned groups and hutted river systems."""
    around: dict[int, int] = {}
    for r in manned:
        _occupy(cells, around, groups[r].nodes, MANNED)
    for r in hutted:
        _occupy(cells, around, systems[r].nodes, HUTTED)
    return around


Placing = tuple[list[Node], int, int]
"""The cell being placed: its roots in one union by feature id, as they are found, and x, y."""


def _relabel(
    cells: dict[Cell, Placed], placing: Placing, field: int, nodes: tuple[Node, ...], to: Node
) -> None:
    """Give ``nodes`` the root ``to`` in union ``field`` of their cells (3: groups, 4: river
    systems); those of the cell being placed in its list."""
    mine, x, y = placing
    for nx, ny, fid in nodes:
        if nx == x and ny == y:
            mine[fid] = to
            continue
        tile, rotation, turned, roots, sroots = cells[nx, ny]
        if field == 3:
            roots = (*roots[:fid], to, *roots[fid + 1 :])
        else:
            sroots = (*sroots[:fid], to, *sroots[fid + 1 :])
        cells[nx, ny] = (tile, rotation, turned, roots, sroots)


def _join(
    cells: dict[Cell, Placed], placing: Placing, groups: dict[Node, Group], ra: Node, rb: Node
) -> tuple[Node, Node] | None:
    """Join the groups of roots ``ra`` (of a feature of the cell being placed) and ``rb`` across
    a side part: one open part fewer on each side. Returns (the
    root that went, the one it joined) when the group that lost its root held members."""
    if ra == rb:
        g = groups[ra]
        groups[ra] = _new(Group, (g[0], g[1], g[2] - 2, g[3]))
        return None
    ga, gb = groups[ra], groups[rb]
    if len(ga.nodes) > len(gb.nodes):
        ra, rb, ga, gb = rb, ra, gb, ga
    _relabel(cells, placing, 3, ga.nodes, rb)  # the smaller one joins the larger one's root
    del groups[ra]
    members = gb.members
    moved = None
    if any(ga.members):
        members = tuple(p + q for p, q in zip(ga.members, members, strict=True))
        moved = (ra, rb)
    groups[rb] = _new(Group, (gb.type, gb.nodes + ga.nodes, ga.open + gb.open - 2, members))
    return moved


def _join_system(
    cells: dict[Cell, Placed], placing: Placing, systems: dict[Node, System], ra: Node, rb: Node
) -> tuple[Node, Node] | None:
    """Join the river systems of roots ``ra`` (of a river of the cell being placed) and ``rb``;
    returns (the root that went, the one it joined) when the system that lost its root held
    huts."""
    if ra == rb:
        return None
    sa, sb = systems[ra], systems[rb]
    if len(sa.nodes) > len(sb.nodes):
        ra, rb, sa, sb = rb, ra, sb, sa
    _relabel(cells, placing, 4, sa.nodes, rb)
    del systems[ra]
    huts = sb.huts
    moved = None
    if any(sa.huts):
        huts = tuple(p + q for p, q in zip(sa.huts, huts, strict=True))
        moved = (ra, rb)
    systems[rb] = _new(System, (sb.nodes + sa.nodes, huts))
    return moved


def add_piece(board: Board, node: Node, kind: str, seat: int, count: int = 1) -> Board:
    """A new board with a piece counted in its group (a member) or its river system (a hut);
    ``count`` -1 takes one away."""
    b = board
    groups, systems, manned, hutted = b.groups, b.systems, b.manned, b.hutted
    if kind == "hut":
        systems = dict(systems)
        r = b.sroot_of(node)
        s = systems[r]
        huts = _bump(s.huts, seat, count)
        systems[r] = System(s.nodes, huts)
        hutted = hutted | {r} if any(huts) else hutted - {r}
    else:
        groups = dict(groups)
        r = b.root_of(node)
        g = groups[r]
        members = _bump(g.members, seat, count)
        groups[r] = Group(g.type, g.nodes, g.open, members)
        manned = manned | {r} if any(members) else manned - {r}
    around = _all_around(b.cells, groups, systems, manned, hutted)
    return Board(b.cells, b.open_cells, b.needs, groups, systems, manned, hutted, around)


def without_members(board: Board, pieces: Iterable[tuple[Node, int]]) -> Board:
    """A new board with the tribe members ``pieces`` (node, seat) taken off their groups, in
    one copy of the maps (H15: at the end they go home)."""
    b = board
    groups = dict(b.groups)
    for node, seat in pieces:
        r = b.root_of(node)
        g = groups[r]
        groups[r] = _new(Group, (g[0], g[1], g[2], _bump(g[3], seat, -1)))
    manned = frozenset(r for r in b.manned if any(groups[r][3]))
    around = _all_around(b.cells, groups, b.systems, manned, b.hutted)
    return Board(b.cells, b.open_cells, b.needs, groups, b.systems, manned, b.hutted, around)


def clear_members(board: Board, roots: list[Node]) -> Board:
    """A new board whose groups ``roots`` hold no members (they went home, H12, H15)."""
    b = board
    groups = dict(b.groups)
    for r in roots:
        g = groups[r]
        groups[r] = _new(Group, (g.type, g.nodes, g.open, (0,) * len(g.members)))
    manned = b.manned.difference(roots)
    return Board(b.cells, b.open_cells, b.needs, groups, b.systems, manned, b.hutted, b.around)


def _bump(counts: tuple[int, ...], seat: int, by: int) -> tuple[int, ...]:
    return (*counts[:seat], counts[seat] + by, *counts[seat + 1 :])


def cells_of(nodes: tuple[Node, ...]) -> tuple[Cell, ...]:
    """The distinct cells of some nodes, by row then column (a tile counts once, H9)."""
    return tuple([(x, y) for y, x in sorted({(y, x) for x, y, _ in nodes})])
