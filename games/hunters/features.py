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

from tribes.games.hunters.board import HUTTED, MANNED, STEP, Tile, TileSet, Turned
from tribes.games.hunters.keys import cell_key

Node = tuple[int, int, int]
Cell = tuple[int, int]
Roots = tuple[Node, ...]
"""By feature id, the root of each feature of a placed tile in one union (``NO_ROOT``: not in
it)."""


class Placed(NamedTuple):
    """A placed cell: its tile, how it is turned and its features' roots in both unions."""

    tile: int
    rotation: int
    turned: Turned
    """The tile's table at this rotation."""
    roots: Roots
    """Its features' group roots."""
    sroots: Roots
    """Its rivers' and lakes' river system roots."""


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
        """Cell -> its placed tile."""
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
        return self.cells[x, y].roots[fid]

    def sroot_of(self, node: Node) -> Node:
        """The root of a placed river's or lake's river system."""
        x, y, fid = node
        return self.cells[x, y].sroots[fid]

    @property
    def root(self) -> dict[Node, Node]:
        """Every placed node's group root, as one map (for readers off the hot path)."""
        return _flat((cell, placed.roots) for cell, placed in self.cells.items())

    @property
    def sroot(self) -> dict[Node, Node]:
        """Every placed river's and lake's river system root, as one map."""
        return _flat((cell, placed.sroots) for cell, placed in self.cells.items())

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
                theirs = there.turned.parts[(d + 2) & 3]
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
    """A new board with the tile placed on (x, y) (its fit already checked, H5) and ``piece``
    (kind, feature id, seat) on it, if any; and the roots of the forests and rivers its
    features now belong to, each once: the only groups it can complete (H7). Step by step, as
    the rules go, on copies of the board's maps (a :class:`Draft`)."""
    tile = tiles.tiles[tile_id]
    turned = tile.turned[rotation]
    draft = Draft(board, tile, x, y, players)  # H5: the cell holds a tile, open no more
    rivers = _join_sides(draft, turned)  # H8, H10, H17; H5: the empty cells across
    _start_groups(draft, tile)  # what joined nothing is a forest, river or meadow of its own
    touched = _completable(draft.roots, tile.scorable)  # H7
    if tile.water:
        _join_systems(draft, tile, rivers)  # H16: its rivers and lakes in river systems
    if piece is not None:
        _put_piece(draft, piece)  # H6: the piece counts in its group or river system
    return draft.board(tile_id, rotation, turned), touched


class Draft:
    """A board being made by :func:`place`: copies of the maps of the board it starts from,
    changed step by step, then made a new :class:`Board` (:meth:`board`)."""

    __slots__ = (
        "around",
        "cells",
        "fresh",
        "groups",
        "here",
        "hutted",
        "manned",
        "needs",
        "open_cells",
        "roots",
        "sroots",
        "systems",
        "walks",
        "x",
        "y",
        "zero",
    )

    def __init__(self, board: Board, tile: Tile, x: int, y: int, players: int) -> None:
        self.x, self.y = x, y
        self.here = here = cell_key(x, y)
        """The cell's placement key, as ``open_cells`` holds it."""
        self.cells = board.cells.copy()
        self.open_cells = open_cells = list(board.open_cells)
        self.needs = needs = bytearray(board.needs)
        j = bisect_left(open_cells, here)
        if j < len(open_cells) and open_cells[j] == here:  # H5: the cell is open no more
            del open_cells[j]
            del needs[j]
        self.groups = board.groups.copy()
        self.systems = board.systems
        """The board's, until the tile brings water (:func:`_join_systems` copies it)."""
        self.manned, self.hutted, self.around = board.manned, board.hutted, board.around
        self.fresh = tile.fresh.copy()
        """The tile's features in no group yet (by feature id, their open side parts): most
        join a placed group, so none is made first."""
        self.roots = [NO_ROOT] * tile.slots
        """The new cell's group roots by feature id, as they are found."""
        self.sroots: list[Node] = []
        """The new cell's river system roots by feature id (none for a tile without water)."""
        self.walks: list[tuple[tuple[Node, ...], int]] = []
        """The nodes that a member (``MANNED``) or a hut (``HUTTED``) now occupies: their places
        facing open cells are occupied ones of those cells (H6)."""
        self.zero = (0,) * players
        """No pieces, by seat."""

    def board(self, tile_id: int, rotation: int, turned: Turned) -> Board:
        """The new board: the cell placed, and the places around open cells that the pieces
        now block (H6)."""
        cells, here, around = self.cells, self.here, self.around
        cells[(self.x, self.y)] = _new(
            Placed, (tile_id, rotation, turned, tuple(self.roots), tuple(self.sroots))
        )
        if self.walks or here in around:
            around = around.copy()
            around.pop(here, None)
            for nodes, field in self.walks:
                _occupy(cells, around, nodes, field)
        open_cells, needs = tuple(self.open_cells), bytes(self.needs)
        systems, manned, hutted = self.systems, self.manned, self.hutted
        return Board(cells, open_cells, needs, self.groups, systems, manned, hutted, around)


def _join_sides(draft: Draft, turned: Turned) -> list[tuple[int, Node]]:
    """H8, H10, H17: across each side with a tile, each feature of the side joins the one it
    meets into one forest, river or meadow (one open part fewer on each side). H5: an empty
    cell across is open, and needs what the side shows. Returns the rivers that meet across a
    side, (river id, the river across), for their river systems (H16)."""
    x, y, here = draft.x, draft.y, draft.here
    cells, groups, roots, fresh, walks = (
        draft.cells,
        draft.groups,
        draft.roots,
        draft.fresh,
        draft.walks,
    )
    open_cells, needs = draft.open_cells, draft.needs
    rivers = []
    for step, dx, dy, back, mine, becomes in turned.around:
        nx, ny = x + dx, y + dy
        there = cells.get((nx, ny))
        if there is None:  # H5: open, and needs what this side shows
            at = here + step  # cell_key(nx, ny): the tile's ``keys.step`` to that side
            j = bisect_left(open_cells, at)
            if j < len(open_cells) and open_cells[j] == at:
                needs[j] = becomes[needs[j]]  # ``becomes``: its need code before -> after
            else:
                open_cells.insert(j, at)
                needs.insert(j, becomes[0])  # 0: the need code of "...."
            continue
        theirs = there.turned.parts[back]
        last = len(mine) - 1
        roots_there = there.roots
        for k in range(last + 1):
            fid = mine[k]
            other = roots_there[theirs[last - k]]
            if fid in fresh:  # joins the group across: one open part fewer on each side
                kind, nodes, open_, members = groups[other]
                roots[fid] = other
                if other in draft.manned:  # it joins a member: the cells across it are blocked
                    walks.append((((x, y, fid),), MANNED))
                joined = (kind, (*nodes, (x, y, fid)), open_ + fresh.pop(fid) - 2, members)
                groups[other] = _new(Group, joined)
            else:  # in a group already, it joins a second one (or its own again: a loop)
                _join_groups(draft, roots[fid], other)
                roots_there = cells[nx, ny].roots  # a join may relabel the cell across
        if last:
            rivers.append((mine[1], (nx, ny, theirs[1])))
    return rivers


def _join_groups(draft: Draft, mine: Node, other: Node) -> None:
    """H8, H10, H17: the group of root ``mine`` (of a feature of the tile) and the one of root
    ``other`` across a side are one; where only one of them held a member, the open cells
    beside the other's nodes are blocked now (H6)."""
    manned, groups = draft.manned, draft.groups
    if mine != other and (mine in manned) != (other in manned):
        draft.walks.append((groups[other if mine in manned else mine].nodes, MANNED))
    moved = _join(draft.cells, (draft.roots, draft.x, draft.y), groups, mine, other)
    if moved is not None:  # a manned group's root is now another one's
        draft.manned = (manned - {moved[0]}) | {moved[1]}


def _start_groups(draft: Draft, tile: Tile) -> None:
    """The tile's features that joined nothing: a forest, river or meadow each, of one node."""
    x, y, roots, groups, fresh, zero = (
        draft.x,
        draft.y,
        draft.roots,
        draft.groups,
        draft.fresh,
        draft.zero,
    )
    for fid, kind, open_ in tile.nodes:
        if fid in fresh:
            node = (x, y, fid)
            roots[fid] = node
            groups[node] = _new(Group, (kind, (node,), open_, zero))


def _completable(roots: list[Node], scorable: tuple[int, ...]) -> list[Node]:
    """H7: the roots of the forests and rivers that features ``scorable`` of the tile belong to,
    each once: the only groups the tile can complete."""
    touched: list[Node] = []
    for fid in scorable:
        r = roots[fid]
        if r not in touched:
            touched.append(r)
    return touched


def _join_systems(draft: Draft, tile: Tile, rivers: list[tuple[int, Node]]) -> None:
    """H16: the tile's rivers and lakes in river systems (a lake joins the rivers of the tile
    that run into it), each joined to the system of the river it meets across a side; where
    only one of two joined systems held a hut, the open cells beside the other are blocked
    now (H6)."""
    x, y, cells, zero = draft.x, draft.y, draft.cells, draft.zero
    systems = draft.systems = draft.systems.copy()
    sroots = draft.sroots = [NO_ROOT] * tile.slots
    for members in tile.systems:
        nodes = tuple([(x, y, f) for f in members])
        first = nodes[0]
        for f in members:
            sroots[f] = first
        systems[first] = _new(System, (nodes, zero))
    for fid, (nx, ny, f) in rivers:
        ra, rb = sroots[fid], cells[nx, ny].sroots[f]
        hutted = draft.hutted
        if ra != rb and (ra in hutted) != (rb in hutted):
            draft.walks.append((systems[rb if ra in hutted else ra].nodes, HUTTED))
        moved = _join_system(cells, (sroots, x, y), systems, ra, rb)
        if moved is not None:
            draft.hutted = (hutted - {moved[0]}) | {moved[1]}


def _put_piece(draft: Draft, piece: tuple[str, int, int]) -> None:
    """H6: ``piece`` (kind, feature id, seat) counts in its feature's group (a tribe member) or
    river system (a hut), which blocks the open cells beside it from now on."""
    kind, fid, seat = piece
    if kind == "hut":  # on a river or lake: the tile is water, its maps are copies
        r = draft.sroots[fid]
        nodes, huts = draft.systems[r]
        draft.systems[r] = _new(System, (nodes, _bump(huts, seat, 1)))
        draft.hutted = draft.hutted | {r}
        draft.walks.append((nodes, HUTTED))
    else:
        r = draft.roots[fid]
        group, nodes, open_, members = draft.groups[r]
        draft.groups[r] = _new(Group, (group, nodes, open_, _bump(members, seat, 1)))
        draft.manned = draft.manned | {r}
        draft.walks.append((nodes, MANNED))


def _occupy(
    cells: dict[Cell, Placed], around: dict[int, int], nodes: Iterable[Node], field: int
) -> None:
    """Add to ``around`` the places of ``nodes`` (placed) that face open cells, as the cells
    count them, in ``field`` (``MANNED``: the nodes' group holds a member; ``HUTTED``: their
    river system holds a hut, which blocks across a river's middle part only, the one part a
    river holds on a side)."""
    for x, y, fid in nodes:
        for dx, dy, step, place in cells[x, y].turned.across[fid]:
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
    cells: dict[Cell, Placed], placing: Placing, systems: bool, nodes: tuple[Node, ...], to: Node
) -> None:
    """Give ``nodes`` the root ``to`` in their cells' groups (``systems`` false) or river
    systems; those of the cell being placed in its list."""
    mine, x, y = placing
    for nx, ny, fid in nodes:
        if nx == x and ny == y:
            mine[fid] = to
            continue
        tile, rotation, turned, roots, sroots = cells[nx, ny]
        if systems:
            sroots = (*sroots[:fid], to, *sroots[fid + 1 :])
        else:
            roots = (*roots[:fid], to, *roots[fid + 1 :])
        cells[nx, ny] = _new(Placed, (tile, rotation, turned, roots, sroots))


def _join(
    cells: dict[Cell, Placed], placing: Placing, groups: dict[Node, Group], ra: Node, rb: Node
) -> tuple[Node, Node] | None:
    """Join the groups of roots ``ra`` (of a feature of the cell being placed) and ``rb`` across
    a side part: one open part fewer on each side. Returns (the
    root that went, the one it joined) when the group that lost its root held members."""
    if ra == rb:
        kind, nodes, open_, members = groups[ra]
        groups[ra] = _new(Group, (kind, nodes, open_ - 2, members))
        return None
    ga, gb = groups[ra], groups[rb]
    if len(ga.nodes) > len(gb.nodes):
        ra, rb, ga, gb = rb, ra, gb, ga
    _relabel(cells, placing, False, ga.nodes, rb)  # the smaller one joins the larger one's root
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
    _relabel(cells, placing, True, sa.nodes, rb)
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
        kind, nodes, open_, members = groups[r]
        groups[r] = _new(Group, (kind, nodes, open_, _bump(members, seat, -1)))
    manned = frozenset(r for r in b.manned if any(groups[r].members))
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
